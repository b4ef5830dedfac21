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
  LLVMValueRef fwd;           /* __enzyme_register_derivative_<name>[2] =
                                 {fn, tangent}: forward mode's */
  const char *fwd_name;
} LtReg;

/* PipelineStart: keep annotated functions from being inlined. */
int lt_prepare_module(LLVMModuleRef m, const LtHost *host);
/* Calls of registered functions back to the functions (lt_prepare_module
 * sent them to <name>.lt.opaque declarations): first thing in the pass, and
 * in a compile step for LTO, which leaves the module to the link step. */
int lt_restore_module(LLVMModuleRef m);
/* Read the registrations and annotations of the module into c->reg. */
void lt_annotate_module(LtCtx *c);
void lt_annotate_free(LtCtx *c);
/* Once every call is done: delete the registration globals read above
 * (Enzyme's PreserveNVVM does the same), so that an extern they name
 * need not be defined (void *__enzyme_inactive_global = &extern_var). */
void lt_annotate_drop(LtCtx *c);
/* The annotation of a call's callee (or of the call itself), or NULL. */
const LtReg *lt_annotation(LtCtx *c, LLVMValueRef call);

/* callsite.c: __enzyme_* call sites and their markers */

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
  long long budget;    /* enzyme_tape_budget N: N (0: none), time loops
                          checkpointed (gen/ckpt.c) as under
                          -leantape-checkpoint=N */
  int nested;          /* the call is in code another call differentiates:
                          its derivative is differentiated again, so its
                          tapes come from malloc, which that derivative
                          knows (not from the arena) */
  /* forward mode */
  unsigned width;      /* enzyme_width (1 when not given) */
  LLVMValueRef *lanes; /* [p * width + k]: the k-th shadow (tangent) of dup
                          parameter p, as the call passes it */
  LLVMValueRef vstride;/* enzyme_dupv's stride, while parsing */
  LLVMValueRef *stride;/* [p]: enzyme_dupv's stride (lanes[p * width] is the
                          base), or NULL */
  int primal_return;   /* enzyme_primal_return: {primal, tangent(s)} */
  int tan_used;        /* LT_FWDSUB: the caller uses the result's tangent */
  int parallel;        /* LT_SUBCALL, LT_FWDSUB: the function runs on every
                          thread of an OpenMP team (gen/omp.c) */
  /* split mode: [p] = parameter p's memory is not written between
   * __enzyme_augmentfwd and __enzyme_reverse (enzyme_not_overwritten), so
   * the reverse may read it again instead of taping it */
  unsigned char *keep;
  /* LT_SUBCALL: per parameter, LT_PF_* facts the caller knows of a
   * parallel region's arguments (analysis.h), or NULL */
  unsigned char *pflags;
  int keep_next;       /* while parsing: enzyme_not_overwritten was read */
  int ckpt;            /* LT_SUBCALL: a time loop's step (prep/outline.c),
                          to be checkpointed: build the snapshot function */
} LtRequest;

/* 1 if a call or invoke of an entry point (the callee's name contains it). */
int lt_callsite_mode(LLVMValueRef call, LtMode *mode);
/* A call of an undefined __enzyme_* function that is not an entry point:
 * the Enzyme name it contains and what it is (*what NULL: not Enzyme's);
 * NULL for other calls. */
const char *lt_callsite_unsupported(LLVMValueRef call, const char **what);
/* An unmarked pointer parameter p of fn through which only integers and
 * pointers are read or written (analysis/intptr.c) is enzyme_const by
 * default, in both modes, with a remark at call. */
int lt_unmarked_int_pointer(LtCtx *c, LLVMValueRef call, LLVMValueRef fn, unsigned p);
/* Enzyme's type hints (__enzyme_float, __enzyme_double, __enzyme_integer,
 * __enzyme_pointer): no effect on the derivative; their calls are removed. */
int lt_callsite_is_hint(LLVMValueRef call);
/* Parse a reverse-mode call's arguments (every mode but LT_FWDDIFF,
 * fwdsite.c's); 0 on success, else reports and returns -1. */
int lt_callsite_parse(LtCtx *c, LLVMValueRef call, LtMode mode, LtRequest *r);
void lt_callsite_free(LtRequest *r);

/* markers.c: the enzyme_* markers between the arguments of a call */
/* What an argument operand is as a marker. */
enum {
  LT_M_NONE = -1,      /* an ordinary value */
  LT_M_UNKNOWN = -2,   /* an enzyme_* name nobody knows */
  LT_M_UNSUPPORTED = -3, /* Enzyme's, not implemented here */
  LT_M_MODIFIER = -4,  /* modifies the next parameter; no effect here */
  LT_M_FLAG = -5,      /* stands alone; no effect here */
  LT_M_TAPE = -6,      /* enzyme_tape p: the tape, or where it goes */
  LT_M_ALLOCATED = -7, /* enzyme_allocated N: p has N bytes for the tape */
  LT_M_NOFREE = -8,    /* enzyme_nofree: __enzyme_reverse keeps the tape */
  LT_M_WIDTH = -9,     /* enzyme_width N (forward mode) */
  LT_M_DUPV = -10,     /* enzyme_dupv stride: one pointer to N shadows */
  LT_M_DUPNONEEDV = -11,
  LT_M_PRIMALRET = -12, /* enzyme_primal_return: {primal, tangent} */
  LT_M_BUDGET = -13,   /* enzyme_tape_budget N: checkpoint under N bytes */
};
/* The marker operand v is: an LtAct (>= 0) or an LT_M_* kind; *bad gets
 * its name. */
int lt_marker_of(LLVMValueRef v, const char **bad);
/* Read the markers in front of operand *pi: the last activity marker in
 * *act, or LT_M_NONE; options are recorded in r. -1 after reporting. */
int lt_read_markers(LtCtx *c, LLVMValueRef call, unsigned *pi, unsigned nops,
                    int *act, LtRequest *r);
/* The value of parameter p of r's function: operand *pi (then *pi
 * moves past it), which must be there and not be a marker. NULL after
 * reporting. */
LLVMValueRef lt_param_operand(LtCtx *c, LLVMValueRef call, unsigned *pi, unsigned nops,
                              const LtRequest *r, unsigned p);

/* target.c: the differentiated function, and what both parsers share */
const char *lt_act_name(LtAct a);
int lt_callsite_has_sret(LLVMValueRef call);
/* Can an operand of type have be passed for a parameter of type want
 * (variadic promotions, address spaces)? */
int lt_callsite_compatible(LLVMTypeRef have, LLVMTypeRef want);
LLVMValueRef lt_callsite_resolve_fn(LLVMValueRef v);
/* The call's sret operand (r->sret) and the differentiated function
 * (r->fn, r->nparams) from operand *i on; *i moves past them. -1 after
 * reporting one that is not a defined, non-variadic function. */
int lt_callsite_target(LtCtx *c, LLVMValueRef call, LtRequest *r, unsigned *i);

/* splitpair.c: mark the __enzyme_augmentfwd / __enzyme_reverse pairs
 * between which nothing can write memory (c->split_clean) */
void lt_split_pairs(LtCtx *c, const LtVec *calls);

/* The function an __enzyme_* call differentiates, or NULL. */
LLVMValueRef lt_callsite_fn(LLVMValueRef call);
/* Calls of entry points whose function is a phi or select of functions
 * (SimplifyCFG merges the calls of two branches at -O2) become one call per
 * function, chosen by comparing the operand with each. */
void lt_split_merged_calls(LtCtx *c);

/* dupglobal.c: a global passed as enzyme_dup that the function (or a
 * function it calls) also uses by name is refused (-1, reported): that use
 * has no shadow. */
int lt_dup_global_used(LtCtx *c, LLVMValueRef call, const LtRequest *r);
/* fwdsite.c: __enzyme_fwddiff call sites */
int lt_fwdsite_parse(LtCtx *c, LLVMValueRef call, LtRequest *r);

/* schedule.c: innermost calls first (nested differentiation) */
/* Orders calls innermost first; puts into *nested (call -> 1) the calls
 * in code that another call differentiates. */
void lt_schedule_calls(LtVec *calls, LtMap *nested);


#endif
