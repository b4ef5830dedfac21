/* lt.h: Leantape's internal API.
 *
 * One header for the C core, prototypes grouped by file under banners, each
 * with a one-line contract. The pipeline (driver.c) is: find call sites,
 * parse each into a request, build or reuse the derivative for the request
 * (preprocessed clone -> analyses -> tape plan -> augmented forward +
 * reverse), rewrite the call site, clean up.
 */
#ifndef LT_H
#define LT_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/* util.c: containers */

typedef struct LtMap { /* open-addressing pointer -> pointer map */
  void **keys;
  void **vals;
  size_t cap, n;
} LtMap;

void lt_map_init(LtMap *m, size_t cap_hint);
void lt_map_free(LtMap *m);
void *lt_map_get(const LtMap *m, const void *key); /* NULL when absent */
void lt_map_put(LtMap *m, const void *key, void *val);

typedef struct LtVec { /* growable array of pointers */
  void **v;
  size_t n, cap;
} LtVec;

void lt_vec_push(LtVec *v, void *p);
void lt_vec_free(LtVec *v);

void *lt_xcalloc(size_t n, size_t size); /* never returns NULL (aborts only on OOM) */
char *lt_strdup(const char *s);

/* Values */
int lt_is_float_ty(LLVMTypeRef t); /* half/float/double/x86_fp80/fp128 */
int lt_is_ptr_ty(LLVMTypeRef t);
/* t carries derivatives: a float, or a vector, struct or array holding one. */
int lt_is_diff_ty(LLVMTypeRef t);
int lt_is_aggregate_ty(LLVMTypeRef t); /* struct or array */
/* The identity of adjoint accumulation for t: -0.0 in every float leaf. */
LLVMValueRef lt_adj_init(LLVMTypeRef t);
/* Two struct/array types with the same element types, member by member. */
int lt_same_layout(LLVMTypeRef a, LLVMTypeRef b);
/* v (of a type with the same layout as want) rebuilt as a want. */
LLVMValueRef lt_convert_layout(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef want);
/* An aggregate of type t from its scalar leaves v[0..n), in order. */
LLVMValueRef lt_build_from_leaves(LLVMBuilderRef b, LLVMTypeRef t,
                                  LLVMValueRef const *v, unsigned n);
/* A constant of type t with v in every float leaf, zero elsewhere. */
LLVMValueRef lt_const_fill(LLVMTypeRef t, double v);
const char *lt_callee_name(LLVMValueRef call, size_t *len); /* "" if indirect */
LLVMValueRef lt_called_fn(LLVMValueRef call); /* NULL if indirect */
LLVMValueRef lt_first_non_phi(LLVMBasicBlockRef bb);
/* The pointer a GEP/cast chain starts from. */
LLVMValueRef lt_base_of(LLVMValueRef p);
/* ptr malloc(i64)/calloc/free declarations, typed correctly (LLVMBuildMalloc is broken). */
LLVMValueRef lt_decl_fn(LLVMModuleRef m, const char *name, LLVMTypeRef fty);
LLVMValueRef lt_build_malloc(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef size);
LLVMValueRef lt_build_calloc(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef size);
void lt_build_free(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef p);
int lt_run_pipeline(LLVMValueRef fn, const char *pipeline); /* 0 on success */
/* acc + d for adjoint accumulation: nsz, so that adding to a freshly zeroed
 * shadow folds away (the sign of a zero gradient carries no meaning);
 * vectors lane by lane, aggregates leaf by leaf. */
LLVMValueRef lt_build_accum(LLVMBuilderRef b, LLVMValueRef acc, LLVMValueRef d);
/* PHIs of bb forget one incoming edge from pred. */
void lt_phi_drop_edge(LLVMBasicBlockRef bb, LLVMBasicBlockRef pred);
/* Put a branch to the invoke's normal destination before it and drop its
 * unwind edge; the caller replaces the invoke's uses and erases it. */
void lt_invoke_to_branch(LLVMValueRef inv);
/* Replace an invoke by a call of the same callee, arguments, attributes and
 * bundles, followed by a branch to the normal destination. */
LLVMValueRef lt_invoke_to_call(LLVMValueRef inv);
/* Delete the blocks of fn that the entry does not reach. */
void lt_delete_unreachable(LLVMValueRef fn);
/* Delete a generated function even if its body or callers still refer to it. */
void lt_erase_fn(LLVMValueRef fn);

/* diag.c: diagnostics (the C++ shim reports them) */

typedef struct LtCtx LtCtx;
/* Report bad input at an instruction (or function); printf-style message;
 * the text is prefixed with "leantape: ". Diagnostics are queued and flushed
 * at the end of the pass, when the module is valid again. */
void lt_error(LtCtx *c, LLVMValueRef at, const char *fmt, ...);
void lt_internal_error(LtCtx *c, LLVMValueRef fn, const char *what);
void lt_diag_flush(LtCtx *c);
/* Delete fn after the diagnostics are flushed (they may point into it). */
void lt_bury(LtCtx *c, LLVMValueRef fn);

/* plugin.cpp */
void lt_diag_emit(LLVMValueRef at, const char *msg, int is_error);
/* An optimisation analysis remark (-Rpass-analysis=leantape). */
void lt_remark_emit(LLVMValueRef at, const char *pass_name,
                    const char *remark_name, const char *msg);

/* annotate.c: registrations and attributes of functions */
typedef struct LtReg {
  LLVMValueRef fn, aug, grad; /* custom derivative: augmented, gradient */
  const char *reg_name;       /* the registering global */
  int inactive;               /* __enzyme_inactivefn, "enzyme_inactive" */
  int custom;
  char like[64];              /* __enzyme_function_like: behaves as this */
} LtReg;

/* The per-module context: no globals, everything hangs off this. */
struct LtCtx {
  LLVMModuleRef mod;
  LLVMContextRef llctx;
  LLVMTargetDataRef td;
  int opt_level;
  LLVMTypeRef i1, i8, i32, i64, ptr, vd, f64;
  LtVec diags;   /* queued diagnostics (LtDiag *) */
  int nerrors;   /* errors in the current request */
  LtVec derivs;  /* generated derivatives (LtDeriv *), reused per request key */
  LtVec graveyard; /* functions to delete after the diagnostics are out */
  LtMap tape_owner;  /* tape made by an __enzyme_augmentfwd -> its LtDeriv */
  LtVec rev_calls;   /* rewritten reverse calls: (call, LtDeriv *) pairs */
  LLVMValueRef cur_call; /* the __enzyme_* call being handled */
  LtMap reg;             /* function -> LtReg * (annotate.c) */
  LtVec regs;
  LtMap inactive_globals;/* __enzyme_inactive_global */
  LtMap escape_memo;     /* function -> escape flags per parameter */
  LtVec escape_arrays;
  unsigned serial;
};

void lt_annotate_module(LtCtx *c);
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

/* escape.c: do pointers escape from parameter p of f into memory (or an
 * unknown function), or into its return value? */
/* STORED: the parameter's pointer is stored; COPIED: pointers kept in the
 * memory it reaches are; RETURNED / RETCONT: returned. */
enum {
  LT_ESC_STORED = 1,
  LT_ESC_RETURNED = 2,
  LT_ESC_COPIED = 4,
  LT_ESC_RETCONT = 8,
  LT_ESC_ALL = 15
};
int lt_param_escapes(LtCtx *c, LLVMValueRef f, unsigned p);
void lt_escape_free(LtCtx *c);

/* schedule.c: innermost calls first (nested differentiation) */
void lt_schedule_calls(LtVec *calls);

/* intptr.c */
/* Unmarked pointer parameter p of fn is only used to read and write
 * integers and pointers (it then defaults to enzyme_const). */
int lt_param_int_only(LLVMValueRef fn, unsigned p);

/* clone.c: cloning function bodies and inlining calls */

/* Clone the body of src into dst before block `before` (NULL: append).
 * vmap must map src's parameters; it is filled with blocks/instructions.
 * Debug locations are kept when keep_dbg. Returns the clone of src's entry. */
LLVMBasicBlockRef lt_clone_body(LtMap *vmap, LLVMValueRef src, LLVMValueRef dst,
                                LLVMBasicBlockRef before, int keep_dbg);
/* New internal function named name with type fty, attributes of src copied
 * for the first nparams parameters; optnone/noinline dropped. */
LLVMValueRef lt_clone_decl(LLVMValueRef src, const char *name, LLVMTypeRef fty);
/* Inline the call (callee must be defined). Returns 0 on success. */
int lt_inline_call(LtCtx *c, LLVMValueRef call, int keep_dbg);

/* preprocess.c */

/* A canonical clone of fn: user calls inlined, SSA form, simplified.
 * NULL (after reporting) when fn uses something unsupported. */
LLVMValueRef lt_preprocess(LtCtx *c, LLVMValueRef fn, LLVMValueRef at);

/* eh.c */
/* Invokes whose unwind path only cleans up become calls; a catch that
 * resumes normal code is reported (-1). */
int lt_eh_lower(LtCtx *c, LLVMValueRef fn);

/* cfg.c: dense block ids, predecessors, RPO, dominators */

typedef struct LtCfg {
  unsigned nblocks;          /* reachable blocks, numbered in RPO */
  LLVMBasicBlockRef *block;  /* id -> block */
  LtMap id;                  /* block -> id + 1 */
  unsigned **pred;           /* id -> predecessor ids (one per edge) */
  unsigned *npred;
  unsigned *idom;            /* Cooper-Harvey-Kennedy */
  int has_back_edge;
  LLVMBasicBlockRef back_edge_to; /* a loop header, when has_back_edge */
} LtCfg;

void lt_cfg_build(LtCfg *g, LLVMValueRef fn);
void lt_cfg_free(LtCfg *g);
int lt_cfg_id(const LtCfg *g, LLVMBasicBlockRef bb); /* -1 if unreachable */
/* Distinct predecessors of block b in first-edge order; returns the count. */
unsigned lt_cfg_unique_preds(const LtCfg *g, unsigned b, unsigned *out);

/* points.c: points-to sets over abstract memory objects */

typedef struct LtObj {
  int kind;             /* parameter, its memory, allocation, global, unknown */
  int param;            /* parameter index, or -1 */
  LLVMValueRef src;     /* the parameter, allocation or global */
} LtObj;

typedef struct LtPoints {
  LtCtx *c;
  LtObj *obj;
  unsigned nobj, capobj, words, unknown, null;
  int *argobj;              /* parameter -> its object, or -1 */
  int *argnull;             /* parameter -> its inactive twin (LT_DUPNULL) */
  LtMap callobj;            /* kept call -> its summary object + 1 */
  unsigned char *active;    /* object -> has a shadow */
  unsigned char *tainted;   /* inactive object given active data, or NULL */
  uint64_t *contents;       /* object -> objects whose addresses it may hold */
  LtMap sets;               /* value -> uint64_t[words] */
  LtMap gobj;               /* global -> object + 1 */
  uint64_t *empty, *unknown_set;
  LtVec owned;              /* allocated sets */
} LtPoints;

void lt_points_init(LtPoints *pt, LtCtx *c, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act);
void lt_points_free(LtPoints *pt);
const uint64_t *lt_points_of(LtPoints *pt, LLVMValueRef v);
/* Transfer function of one instruction; 1 when a set grew. */
int lt_points_step(LtPoints *pt, LLVMValueRef i);
/* v may address an active / an inactive object. */
int lt_points_any_active(LtPoints *pt, LLVMValueRef v);
int lt_points_any_inactive(LtPoints *pt, LLVMValueRef v);
/* Give every allocation v may address a shadow; 1 when one was new. */
int lt_points_activate(LtPoints *pt, LLVMValueRef v);
/* lt_points_activate, and also for allocations their memory points to. */
int lt_points_activate_reach(LtPoints *pt, LLVMValueRef v);
/* Memory at addr may hold pointers to active memory. */
int lt_points_contents_active(LtPoints *pt, LLVMValueRef addr);
/* Mark the inactive objects at addr as holding active data; 1 if new. */
int lt_points_taint(LtPoints *pt, LLVMValueRef addr);
int lt_points_reads_tainted(LtPoints *pt, LLVMValueRef addr);
/* Stores and memory calls that only write the memory of enzyme_dupnoneed
 * parameters the function never reads: the primal may skip them. */
void lt_points_unneeded_writes(LtPoints *pt, const LtCfg *g, const LtAct *act,
                               LtVec *out);

/* heap.c: heap shadows (a size header in front, for realloc) */
LLVMValueRef lt_shadow_alloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef size,
                             LLVMValueRef align);
void lt_shadow_free(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p);
LLVMValueRef lt_shadow_realloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef old,
                               LLVMValueRef size);
LLVMValueRef lt_shadow_size(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p);

/* guard.c: accesses through shadows that may be null */
#define LT_GUARD_BYTES 256
/* An address to read sp's shadow data from: a zero area when sp is null. */
LLVMValueRef lt_guard_read(LtCtx *c, LLVMBuilderRef b, LLVMValueRef sp);
/* An address to write shadow data to: the sink when sp is null. */
LLVMValueRef lt_guard_write(LtCtx *c, LLVMBuilderRef b, LLVMValueRef sp,
                            LLVMValueRef sink);
/* A scratch sink (alloca at entry builder). */
LLVMValueRef lt_guard_sink(LtCtx *c, LLVMBuilderRef entry);
/* memset(dst, 0, n) / memmove(dst, src, n) of shadows that may be null:
 * nothing when dst is null, zeroing when only src is. */
void lt_guard_memset(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst,
                     LLVMValueRef n);
void lt_guard_memmove(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst,
                      LLVMValueRef src, LLVMValueRef n);
/* gep, or null when its shadow base is null. */
LLVMValueRef lt_guard_gep(LtCtx *c, LLVMBuilderRef b, LLVMValueRef base,
                          LLVMValueRef gep);

/* activity.c */

typedef struct LtActivity {
  LtMap varied;   /* float value -> (void*)1 when it carries a derivative */
  LtMap bits_ty;  /* integer moving float bits -> the float type (bits.c) */
  LtMap bits_lost;/* integer holding active float bits used in arithmetic */
  int ret_shadow; /* the returned pointer needs a shadow (a callee's) */
  LtPoints pts;   /* shadows: a pointer has one when it may address active
                     memory; it may be null when it may also address
                     inactive memory */
} LtActivity;

int lt_activity_run(LtCtx *c, LtActivity *a, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act);
void lt_activity_free(LtActivity *a);
int lt_is_varied(const LtActivity *a, LLVMValueRef v);
int lt_is_shadowed(LtActivity *a, LLVMValueRef v);
/* Shadowed, and the shadow is null when v addresses inactive memory. */
int lt_shadow_maynull(LtActivity *a, LLVMValueRef v);

/* tbaa.c: the scalar type a TBAA access tag names */
enum { LT_TBAA_UNKNOWN, LT_TBAA_FLOAT, LT_TBAA_INT, LT_TBAA_PTR };
int lt_tbaa_class(LLVMContextRef c, LLVMValueRef tag, LLVMTypeRef *fty);
int lt_tbaa_class_of(LLVMValueRef inst, LLVMTypeRef *fty); /* its !tbaa */

/* memlayout.c: the float and pointer fields a memcpy/memmove copies */
#define LT_MEM_FIELDS 32
typedef struct LtMemLayout {
  unsigned long long period; /* bytes per element */
  unsigned n, overflow;
  int guessed;               /* uniform, from how the memory is accessed */
  struct { unsigned off; LLVMTypeRef ty; } f[LT_MEM_FIELDS]; /* float or ptr */
} LtMemLayout;
typedef struct LtGen LtGen;
int lt_mem_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L);
int lt_mem_layout_has(const LtMemLayout *L, int ptrs); /* pointer / float fields */
int lt_realloc_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L);
void lt_mem_note_types(LtCtx *c, LLVMValueRef fn); /* before canonicalising */
/* The float (else pointer) type the function of `call` accesses through
 * pointers based on its destination or source (b1, b2), or NULL. */
LLVMTypeRef lt_mem_elem_type(LLVMValueRef call);
/* The function accesses the copy's memory both as floats and pointers. */
int lt_mem_mixed(LLVMValueRef call);
LLVMTypeRef lt_elem_type_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2);
/* Helper (dst, src, elements): forward moves pointer fields, reverse
 * moves float adjoints from dst to src. */
LLVMValueRef lt_mem_helper(LtCtx *c, const LtMemLayout *L, int forward);

/* bits.c: integers that only move floating-point bits */
void lt_bits_run(LtActivity *a, LLVMValueRef fn, const LtCfg *g,
                 LLVMTargetDataRef td);
/* The float type integer v moves, or NULL. */
LLVMTypeRef lt_bits_type(const LtActivity *a, LLVMValueRef v);
/* The type of v's adjoint: v's own, or the float its bits hold. */
LLVMTypeRef lt_adj_type(const LtActivity *a, LLVMValueRef v);

/* calls.c: classification of calls in the differentiated code */

typedef enum {
  LT_CALL_INACTIVE,   /* no derivative, kept in the forward pass only */
  LT_CALL_RULE,       /* scalar math with a rule (rules.c) */
  LT_CALL_ZERO,       /* zero derivative (floor, ...) */
  LT_CALL_COMPLEX,    /* complex multiply/divide runtime calls (cplx.c) */
  LT_CALL_DIFF,       /* a defined function kept as a call: differentiated
                         on its own (callee.c) */
  LT_CALL_CUSTOM,     /* a function with a registered custom derivative */
  LT_CALL_MEMCPY,     /* llvm.memcpy / memmove */
  LT_CALL_MEMSET,
  LT_CALL_MALLOC,     /* malloc / calloc: shadow allocation */
  LT_CALL_FREE,
  LT_CALL_UNKNOWN     /* external, no rule */
} LtCallKind;

LtCallKind lt_call_kind(LLVMValueRef call, const LtRule **rule);
#define LT_MARK_ATTR "leantape-call"
/* Mark a call kept by preprocessing ("diff", "custom", "inactive",
 * "like=<name>"); lt_call_kind then classifies it by the mark. */
void lt_mark_call(LLVMValueRef call, const char *what);
int lt_call_marked(LLVMValueRef call);

typedef struct LtAllocFn {
  const char *name;
  int size_arg;   /* bytes (per element when count_arg >= 0) */
  int count_arg;  /* element count, or -1 */
  int align_arg;  /* alignment, or -1 */
  int zeroed;     /* the memory starts zeroed (calloc) */
  int old_arg;    /* realloc: the block it resizes, or -1 */
  int out_arg;    /* posix_memalign: stores the block through it, or -1 */
} LtAllocFn;
/* The allocation function a call calls (malloc, calloc, aligned_alloc,
 * operator new in all forms), or NULL. */
const LtAllocFn *lt_alloc_fn(LLVMValueRef call);

/* derive.c: one derivative (augmented forward + reverse + tape) */

typedef struct LtDeriv {
  LLVMValueRef fn;
  char *key;           /* activity signature + mode */
  LtMode mode;
  LLVMValueRef aug;    /* ret aug(params, shadows, ptr tape) */
  LLVMValueRef rev;    /* outs rev(params, shadows, dret, ptr tape) */
  LLVMValueRef grad;   /* combined: outs grad(params, shadows, dret) */
  LLVMTypeRef tape_ty; /* struct of slots */
  unsigned long long tape_size;
  LLVMTypeRef outs_ty; /* literal struct of out gradients, or void */
  unsigned nouts;
  /* LT_SUBCALL: the caller gives A the tape memory and R leaves it */
  LtAct *act;          /* activity per parameter */
  int want_primal;     /* A returns the primal result */
  int ret_shadow;      /* ... and the shadow of its pointer result */
  int building;        /* bodies being generated (recursion reaches it) */
  LLVMValueRef size_gv;/* i64 global holding tape_size, for callers that
                          were built while it was not known yet */
} LtDeriv;

/* The types of A (params, shadows of dup params, tape; the result when
 * want_primal, {result, shadow} when ret_shadow) and R (params, shadows,
 * the adjoint of a float result, tape; the gradients). */
LLVMTypeRef lt_aug_type(LtCtx *c, LLVMValueRef fn, const LtAct *act,
                        int want_primal, int ret_shadow);
LLVMTypeRef lt_rev_type(LtCtx *c, LLVMValueRef fn, const LtAct *act,
                        LLVMTypeRef outs_ty);
/* Build (or reuse) the derivative for a request; NULL after reporting. */
LtDeriv *lt_derive(LtCtx *c, const LtRequest *r);
void lt_deriv_free(LtDeriv *d);

/* rewrite.c */
/* Replace the __enzyme_* call by calls to the derivative. 0 on success. */
int lt_rewrite(LtCtx *c, const LtRequest *r, const LtDeriv *d);
/* After all calls are rewritten: a tape visibly made by __enzyme_augmentfwd
 * must reach a reverse call of the same function and activity. */
void lt_rewrite_check_tapes(LtCtx *c);
/* Replace a call that could not be differentiated by a harmless value. */
void lt_rewrite_failed(LtCtx *c, LLVMValueRef call);

/* driver.c */
int lt_run_module(LLVMModuleRef m, int opt_level);


/* loops.c: natural loops, nesting, preheader/latch/exits (on LtCfg ids) */

typedef struct LtLoop {
  unsigned header;      /* block id */
  int parent;           /* enclosing loop id, -1 at top level */
  unsigned depth;       /* 1 for an outermost loop */
  unsigned *blocks;     /* member block ids, ascending (RPO) */
  unsigned nblocks;
  int preheader;        /* the unique outside pred of the header, whose only
                           successor is the header; else -1 */
  int latch;            /* the unique inside pred of the header, else -1 */
  unsigned *exits;      /* outside blocks with a pred inside, ascending */
  unsigned nexits;
  unsigned *exiting;    /* inside blocks with a succ outside, ascending */
  unsigned nexiting;
  unsigned *children;   /* directly nested loop ids, ascending */
  unsigned nchildren;
} LtLoop;

typedef struct LtLoops {
  const LtCfg *g;
  unsigned nloops;
  LtLoop *loop;         /* ordered by header id: parents before children */
  unsigned char *in;    /* nloops x nblocks: in[l * nblocks + b] */
  int *innermost;       /* block id -> innermost loop id, or -1 */
  int irreducible;      /* a retreating edge whose target does not dominate it */
  LLVMBasicBlockRef irr_from, irr_to; /* the first such edge, when irreducible */
} LtLoops;

/* 1 if block a dominates block b (ids of g). */
int lt_cfg_dominates(const LtCfg *g, unsigned a, unsigned b);
/* Find the natural loops of g (one per header) and check reducibility. */
void lt_loops_build(LtLoops *ls, const LtCfg *g);
void lt_loops_free(LtLoops *ls);
int lt_loop_of(const LtLoops *ls, unsigned block);          /* innermost, -1 if none */
int lt_loop_contains(const LtLoops *ls, unsigned l, unsigned block);
int lt_loop_encloses(const LtLoops *ls, unsigned outer, int inner); /* outer == inner or an ancestor */
/* Printer pass print<leantape-loops>: stable text on stderr. */
void lt_print_loops(LLVMValueRef fn);
/* Print %name / @name, or the slot number (%7) of an unnamed value, to stderr. */
void lt_print_name(LLVMValueRef v);

/* induction.c: counters, affine forms, trip counts (needs LtLoops) */

typedef struct LtAffine {   /* off + sum coef[i]*{loop[i]} + sum icoef[j]*inv[j] */
  long long off;
  unsigned nterm, ninv;
  unsigned *loop;           /* iteration number (0, 1, ...) of loop id */
  long long *coef;
  LLVMValueRef *inv;        /* values invariant in the scope loop */
  long long *icoef;
} LtAffine;

typedef struct LtCounter {  /* header PHI = start + step * {loop} */
  LLVMValueRef phi, next;   /* next: the in-loop incoming value */
  LLVMValueRef start;       /* the outside incoming value (invariant) */
  long long step;
} LtCounter;

typedef struct LtTrip {     /* header executions T = 1 + #{k >= 0 : X_k pred bound} */
  int known;
  LLVMValueRef cmp;         /* the exit test */
  unsigned counter;         /* index into LtInduction.ctr[loop] */
  int on_next;              /* X_k = start + step*(k + on_next) */
  LLVMIntPredicate pred;    /* continue-while predicate, iv on the left */
  LLVMValueRef start, bound;
  long long step;
} LtTrip;

typedef struct LtInduction {
  const LtLoops *ls;
  LtCounter **ctr;          /* loop id -> its counters; [0] is canonical */
  unsigned *nctr;
  LtTrip *trip;             /* loop id -> trip count description */
} LtInduction;

void lt_induction_build(LtInduction *ind, const LtLoops *ls);
void lt_induction_free(LtInduction *ind);
/* Affine form of v as seen inside loop scope (-1: outside loops); values
 * defined outside scope may stay as invariant terms. 0 on success. */
int lt_affine_of(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v,
                 int scope, LtAffine *out);
void lt_affine_free(LtAffine *a);
/* Emit the i64 number of header executions of a known trip at b (start and
 * bound must dominate b, e.g. at the end of the preheader). */
LLVMValueRef lt_trip_emit(LLVMBuilderRef b, const LtTrip *t);
/* Printer pass print<leantape-induction>: stable text on stderr. */
void lt_print_induction(LLVMValueRef fn);

/* overwrite.c */
typedef struct LtOverwrite {
  LtVec written;    /* underlying objects the primal may write */
  int clobber_all;  /* a call that may write anything */
} LtOverwrite;
void lt_overwrite_build(LtOverwrite *o, const LtCfg *g);
/* The load's memory is certainly unchanged by the primal. */
int lt_overwrite_reloadable(const LtOverwrite *o, LLVMValueRef load);
void lt_overwrite_free(LtOverwrite *o);

typedef enum {
  LT_SLOT_PRIMAL,    /* a primal value (key: the P value) */
  LT_SLOT_SHADOW,    /* a shadow pointer (key: the P pointer) */
  LT_SLOT_CHOICE,    /* predecessor index (key: the P block) */
  LT_SLOT_EXIT,      /* which return block (key: P) */
  LT_SLOT_LOOPBUF,   /* a loop's cache buffer (key: its header block) */
  LT_SLOT_LOOPCOUNT, /* a loop's header executions (key: its header block) */
  LT_SLOT_SUBTAPE,   /* a kept call's tape, in place (key: the P call) */
  LT_SLOT_SUBPTR,    /* a kept call's tape on the heap (key: the P call) */
  LT_SLOT_CUSTOMTAPE,/* a custom derivative's tape (key: the P call) */
  LT_NSLOTKINDS
} LtSlotKind;

/* State shared by the generators of one derivative (derive.c, tape.c,
 * forward.c, reverse.c, revinst.c). P is the preprocessed primal, A the
 * augmented forward function, R the reverse function. */
struct LtGen {
  LtCtx *c;
  const LtAct *act;    /* activity per parameter */
  LLVMValueRef at;     /* the call site, for diagnostics */
  int split;           /* heap shadows, reverse frees the tape */
  int want_primal;     /* A returns the primal result */
  int ret_shadow;      /* ... with the shadow of its pointer result */
  int sub;             /* a callee's derivative: R does not free the tape */
  int keep_header;     /* R leaves the tape header (caller storage) */
  int nofree;          /* R frees nothing (enzyme_nofree) */
  LLVMValueRef P, A, R;
  LtCfg g;
  LtLoops loops;
  LLVMValueRef *loop_iv; /* loop id -> canonical counter lt.iv in P */
  LtMap ivx_loop;      /* exit-block copy lt.ivx -> loop id + 1 */
  LtInduction ind;     /* counters, affine forms, trip counts */
  LtOverwrite ow;      /* which loads may be re-read (combined mode) */
  LtActivity act_of;
  unsigned nparams, nshadows;
  /* forward */
  LtMap fmap;          /* P value -> A value */
  LtMap fshadow;       /* P pointer -> its shadow in A */
  LtMap fchoice;       /* P block -> A's predecessor-index PHI */
  LLVMValueRef atape;  /* A's tape parameter */
  /* tape: slots are (offset, type, what to store) */
  LtVec slot_val;      /* A value to store (set after R is built) */
  LtVec slot_src;      /* P value, or P block for a branch choice */
  LtVec slot_kind;     /* (void*) LtSlotKind */
  LtVec slot_ty;       /* LLVMTypeRef */
  LtVec slot_scope;    /* (void *)(loop id + 1), 0 = the tape header */
  unsigned long long *rec_size; /* loop id -> bytes cached per iteration */
  unsigned long long *slot_off;
  unsigned long long tape_size;
  LtMap slot_by_kind[LT_NSLOTKINDS]; /* per LtSlotKind: key -> slot + 1 */
  LtMap callee;        /* kept P call -> its LtDeriv (callee.c) */
  LtMap subtape_ph;    /* kept P call -> A's placeholder tape operand */
  LtMap custom_tape;   /* custom-derivative P call -> A's tape value */
  /* reverse */
  LLVMBuilderRef eb;   /* R's entry, before its terminator */
  LLVMBuilderRef b;    /* R's current block */
  LLVMValueRef rtape, rdret;
  LtMap rprimal, rshadow, adj, rblock;
  LtMap rloop_val, rloop_bb;   /* loop-scoped materialisations, per block */
  LtMap rsloop_val, rsloop_bb; /* the same for shadows */
  LLVMValueRef *r_m;   /* loop id -> alloca: header executions not yet reversed */
  LLVMValueRef *r_iv;  /* loop id -> alloca: iteration being reversed */
  LLVMValueRef *r_buf; /* loop id -> the loop's cache buffer in R */
  LLVMValueRef *r_rs;  /* loop id -> placeholder for rec_size (freeze) */
  /* what the reverse pass did per scope (index: loop id + 1) */
  unsigned *st_recompute, *st_reload, *st_affine;
  unsigned char *prealloc; /* loop id -> cache allocated once up front */
  /* forward loop state: allocas in A */
  LLVMValueRef *a_n, *a_cur, *a_buf;
  LLVMValueRef a_sink, r_sink; /* scratch for null-shadow writes (guard.c) */
  int failed;
};


/* loopform.c */
/* Check loop form, add canonical counters and their exit copies to P. */
int lt_loopform(LtGen *g, LLVMValueRef fn);
int lt_scope_of(const LtGen *g, LLVMValueRef v); /* innermost loop, or -1 */
int lt_scope_of_block(const LtGen *g, LLVMBasicBlockRef bb);

/* loopfwd.c */
/* A's loop state: counters and growing caches (after R fixed the layout). */
void lt_forward_loop_state(LtGen *g);
void lt_forward_loop_headers(LtGen *g);

/* tape.c */
/* Load of a value from the tape at R's entry; allocates the slot. */
LLVMValueRef lt_tape_load(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty);
/* The same, loaded at builder `at` when the slot is outside loops (a value
 * of a path not always taken is read only on that path). */
LLVMValueRef lt_tape_load_at(LtGen *g, LtSlotKind kind, void *src,
                             LLVMTypeRef ty, LLVMBuilderRef at);
/* The address of a slot (allocated on first use) in R. */
LLVMValueRef lt_tape_addr(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty);
/* Store every slot's value in A, after its definition. */
void lt_tape_store_all(LtGen *g);

/* callee.c: calls kept as calls get the callee's own derivative */
/* Build (or find) the derivative of every kept call in P. */
int lt_callees_plan(LtGen *g);
/* In A, replace the clone of P's kept call by a call of A_f (shadow gives
 * A's shadow of a P pointer); *ret_shadow gets the result's shadow. */
LLVMValueRef lt_callee_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                               LLVMValueRef (*shadow)(LtGen *, LLVMValueRef),
                               LLVMValueRef *ret_shadow);
/* The reverse of a kept call, at g->b: call R_f, add its gradients. */
int lt_callee_reverse(LtGen *g, LLVMValueRef call);
/* A's tape for the kept call is addr (tape.c calls this once laid out). */
void lt_callee_tape_store(LtGen *g, LLVMValueRef call, LLVMValueRef addr);
LLVMValueRef lt_callee_heap_tape(LtGen *g, LLVMBuilderRef b, LLVMValueRef call);
int lt_callee_in_place(LtGen *g, LLVMValueRef call);
/* The derivative is complete: its tape size is final. */
void lt_callee_done(LtCtx *c, LtDeriv *d);

/* custom.c: registered custom derivatives (Enzyme's ABI) */
int lt_custom_check(LtCtx *c, const LtReg *r, LLVMValueRef at);
LLVMValueRef lt_custom_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                               LLVMValueRef (*shadow)(LtGen *, LLVMValueRef),
                               LLVMValueRef *ret_shadow);
int lt_custom_reverse(LtGen *g, LLVMValueRef call);

/* forward.c */
/* A: clone of P with shadows; returns 0 on success. */
int lt_forward_build(LtGen *g, const char *name);
/* The A-side unique-predecessor index PHI for a merge block (choice slot). */
LLVMValueRef lt_forward_choice(LtGen *g, LLVMBasicBlockRef pbb);
/* Memory element type for a memcpy/memset destination: a float type, the
 * pointer type, or NULL when unknown. */


/* materialize.c: primal values and shadows in R, at g->b or R's entry */
LLVMValueRef lt_rv(LtGen *g, LLVMValueRef v);      /* primal value in R */
LLVMValueRef lt_rs(LtGen *g, LLVMValueRef v);      /* shadow in R (NULL: none) */

/* reverse.c */
int lt_reverse_build(LtGen *g, const char *name, LLVMTypeRef outs_ty);
LLVMValueRef lt_adj_read(LtGen *g, LLVMValueRef v);/* load and zero */
void lt_adj_add(LtGen *g, LLVMValueRef v, LLVMValueRef d);

/* report.c: the tape report, as optimisation remarks */
void lt_report(LtGen *g, const char *fname, LLVMValueRef call);

/* revinst.c: adjoints of single instructions, at g->b */
int lt_revinst(LtGen *g, LLVMValueRef inst);

/* cplx.c: __muldc3, __divdc3 and their float/long double forms */
int lt_is_complex_call(LLVMValueRef call, int *is_div);
int lt_rev_complex(LtGen *g, LLVMValueRef call);

/* revagg.c: adjoints of aggregate and vector operations, at g->b */
int lt_rev_agg(LtGen *g, LLVMValueRef inst);
/* An aggregate load (is_store 0) or store through shadow addresses rd/wr. */
int lt_rev_agg_memory(LtGen *g, LLVMValueRef inst, LLVMValueRef rd,
                      LLVMValueRef wr, int is_store);

#endif
