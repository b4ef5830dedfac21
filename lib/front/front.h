/* front.h: the user's interface: __enzyme_* call sites, markers,
 * registrations and annotations, the order calls are handled in.
 * Included by lt.h, in layer order; do not include directly. */
#ifndef LT_FRONT_H
#define LT_FRONT_H

/* annotate.c: registrations and attributes of functions */
typedef struct LtReg {
  LLVMValueRef fn, aug, grad; /* custom derivative: augmented, gradient */
  const char *reg_name;       /* the registering global */
  int inactive;               /* __enzyme_inactivefn, "enzyme_inactive" */
  int custom;
  char like[64];              /* __enzyme_function_like: behaves as this */
} LtReg;

/* PipelineStart: keep annotated functions from being inlined. */
int lt_prepare_module(LLVMModuleRef m);
void lt_annotate_free(LtCtx *c);
/* The annotation of a call's callee (or of the call itself), or NULL. */
const LtReg *lt_annotation(LtCtx *c, LLVMValueRef call);

/* callsite.c: __enzyme_* call sites and their markers */

typedef enum {
  LT_AUTODIFF,
  LT_AUGFWD,
  LT_REVERSE,
  LT_AUGSIZE,
  LT_SUBCALL /* a callee's derivative, for a call kept as a call */
} LtMode;
typedef enum {
  LT_CONST,
  LT_DUP,
  LT_DUPNONEED,
  LT_OUT,
  LT_DUPNULL /* dup whose shadow may be null (a callee's mixed-activity
                argument, guard.c) */
} LtAct;
static inline int lt_is_dup(LtAct a) {
  return a == LT_DUP || a == LT_DUPNONEED || a == LT_DUPNULL;
}

typedef struct LtRequest {
  LLVMValueRef call;   /* the __enzyme_* call */
  LLVMValueRef fn;     /* the function to differentiate */
  LtMode mode;
  unsigned nparams;
  LtAct *act;          /* activity per parameter of fn */
  LLVMValueRef *arg;   /* call operand for each parameter */
  LLVMValueRef *shadow;/* call operand for each dup parameter, else NULL */
  LLVMValueRef dret;   /* adjoint of fn's float return, or NULL (= 1.0) */
  int dret_byval;      /* dret points to it (a byval aggregate) */
#define LT_DRET_PARTS 16
  LLVMValueRef dret_parts[LT_DRET_PARTS]; /* or its float members, one each */
  unsigned ndret_parts;
  LLVMValueRef tape;   /* __enzyme_reverse: the tape operand */
  LLVMValueRef sret;   /* the call's sret pointer, or NULL */
  int want_primal;     /* __enzyme_augmentfwd returns {tape, result} */
  int ret_shadow;      /* LT_SUBCALL: A returns the result's shadow too */
  LLVMValueRef tape_ptr; /* enzyme_tape p */
  long long allocated; /* enzyme_allocated N (0: none) */
  int nofree;          /* enzyme_nofree */
  int lifo;            /* LT_SUBCALL under __enzyme_autodiff: tapes are
                          released in the opposite order (arena.c) */
} LtRequest;

/* 1 if a call or invoke of an entry point (the callee's name contains it). */
int lt_callsite_mode(LLVMValueRef call, LtMode *mode);
/* A call of an undefined __enzyme_* function that is not an entry point:
 * the Enzyme name it contains and what it is (*what NULL: not Enzyme's);
 * NULL for other calls. */
const char *lt_callsite_unsupported(LLVMValueRef call, const char **what);
/* Enzyme's type hints (__enzyme_float, __enzyme_double, __enzyme_integer,
 * __enzyme_pointer): no effect on the derivative; their calls are removed. */
int lt_callsite_is_hint(LLVMValueRef call);
int lt_is_enzyme_name(const char *name, size_t len); /* contains __enzyme_ */
/* Parse the call's arguments; 0 on success, else reports and returns -1. */
int lt_callsite_parse(LtCtx *c, LLVMValueRef call, LtMode mode, LtRequest *r);
void lt_callsite_free(LtRequest *r);

/* The function an __enzyme_* call differentiates, or NULL. */
LLVMValueRef lt_callsite_fn(LLVMValueRef call);

/* schedule.c: innermost calls first (nested differentiation) */
void lt_schedule_calls(LtVec *calls);


#endif
