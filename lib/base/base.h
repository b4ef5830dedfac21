/* base.h: what every layer uses: containers, value helpers, cloning of
 * function bodies, diagnostics, the host's services, the per-module
 * context and the vocabulary of requests (modes, activities).
 * Included by lt.h first; do not include directly. */
#ifndef LT_BASE_H
#define LT_BASE_H

typedef struct LtCtx LtCtx; /* the per-module context (below) */

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
/* The module is for x86-64 or AArch64 (64-bit registers, SSE2 or NEON) */
int lt_target_64(LLVMModuleRef m);
/* t carries derivatives: a float, or a vector, struct or array holding one. */
int lt_is_diff_ty(LLVMTypeRef t);
int lt_is_aggregate_ty(LLVMTypeRef t); /* struct or array */
/* How deep walks over nested types go (C++ libraries nest deeply: an Eigen
 * product evaluator's data pointer sits 11 types down); past it a walk
 * must answer "unknown", never "nothing there". */
#define LT_TYPE_DEPTH 32
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
void lt_copy_md(LLVMContextRef x, LLVMValueRef to, LLVMValueRef from);
/* The address a load, store or atomic instruction accesses; NULL for
 * other instructions. */
LLVMValueRef lt_access_addr(LLVMValueRef i);
/* The pointer a GEP/cast chain starts from. */
LLVMValueRef lt_base_of(LLVMValueRef p);
/* The one value a PHI merges (an LCSSA PHI, or one whose incoming values
 * are all the same but for itself), else NULL. */
LLVMValueRef lt_phi_same(LLVMValueRef phi);
/* A helper the generated code calls (lt.*), defined once per module: the
 * internal function name of type fty. *entry is its new, empty entry block
 * when this call created it (the caller fills it), NULL when it existed. */
LLVMValueRef lt_helper_fn(LtCtx *c, const char *name, LLVMTypeRef fty,
                          LLVMBasicBlockRef *entry);
/* ptr malloc(i64)/calloc/free declarations, typed correctly (LLVMBuildMalloc is broken). */
LLVMValueRef lt_decl_fn(LLVMModuleRef m, const char *name, LLVMTypeRef fty);
LLVMValueRef lt_build_malloc(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef size);
/* A stack slot of type t (alignment align, 0: the type's) as a generic
 * pointer (address space 0): where the data layout puts allocas in another
 * address space (AMDGPU: 5), the slot is cast, so that it can be passed
 * where a `ptr` is expected. */
LLVMValueRef lt_build_slot(LLVMBuilderRef b, LLVMTypeRef t, unsigned align, const char *name);
/* p converted to type t (pointers of another address space are cast). */
LLVMValueRef lt_ptr_as(LLVMBuilderRef b, LLVMValueRef p, LLVMTypeRef t);
LLVMValueRef lt_build_calloc(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef size);
void lt_build_free(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef p);
int lt_run_pipeline(LtCtx *c, LLVMValueRef fn, const char *pipeline);
double lt_now(void); /* seconds, monotonic */ /* 0 on success */
/* acc + d for adjoint accumulation: nsz, so that adding to a freshly zeroed
 * shadow folds away (the sign of a zero gradient carries no meaning), and
 * reassoc, so that a loop summing into one adjoint may become a vector
 * reduction (the order of an adjoint's sum is the reverse pass's, not the
 * program's; see util.c); vectors lane by lane, aggregates leaf by leaf. */
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
void lt_erase_fn(LtCtx *c, LLVMValueRef fn);

/* diag.c: diagnostics (the C++ shim reports them) */

/* Report bad input at an instruction (or function); printf-style message;
 * the text is prefixed with "leantape: ". Diagnostics are queued and flushed
 * at the end of the pass, when the module is valid again. */
void lt_error(LtCtx *c, LLVMValueRef at, const char *fmt, ...);
/* Forget the queued diagnostics after the first n. */
void lt_diag_drop(LtCtx *c, size_t n);
void lt_internal_error(LtCtx *c, LLVMValueRef fn, const char *what);
void lt_diag_flush(LtCtx *c);
/* Delete fn after the diagnostics are flushed (they may point into it). */
void lt_bury(LtCtx *c, LLVMValueRef fn);

/* host.c: the services of the compiler the plugin runs in. plugin.cpp
 * (the only C++) fills an LtHost and hands it to lt_run_module; the C
 * code reaches LLVM's C++ facilities only through it, so no C file calls
 * into plugin.cpp (which calls the driver). */
typedef struct LtHost {
  void *self; /* the host's state (its analysis manager) */
  void (*diag)(void *self, LLVMValueRef at, const char *msg, int is_error);
  void (*remark)(void *self, LLVMValueRef at, const char *pass_name,
                 const char *remark_name, const char *msg);
  int (*may_alias)(void *self, LLVMValueRef ia, LLVMValueRef pa,
                   LLVMValueRef ib, LLVMValueRef pb);
  int (*call_writes)(void *self, LLVMValueRef call);
  void (*keep_global)(void *self, LLVMValueRef gv);
  void (*forget)(void *self, LLVMValueRef fn);
  /* Run the function pass pipeline `passes` on fn: NULL or an error. */
  LLVMErrorRef (*run_passes)(void *self, LLVMValueRef fn, const char *passes);
  int explain; /* -leantape-explain: a remark per taped value, with why */
  int global_shadows; /* -leantape-global-shadows: mutable globals that may
                         hold active data get shadow globals (gen/globals.c) */
  int outline_steps;  /* -leantape-outline-time-loops: prep/outline.c */
  int checkpoint;     /* -leantape-checkpoint[=BUDGET]: checkpointed time
                         loops (gen/ckpt.c), outlined as above */
  long long tape_budget; /* its BUDGET in bytes (0: none, unless
                            LEANTAPE_TAPE_BUDGET gives one at run time) */
  int thinlto_o0;        /* a ThinLTO compile step at -O0, which differentiates
                            (its link will not) with its file's callees only */
} LtHost;

/* A diagnostic at an instruction's (or a function's) source location. */
void lt_diag_emit(LtCtx *c, LLVMValueRef at, const char *msg, int is_error);
/* An optimisation analysis remark (-Rpass-analysis=leantape). */
void lt_remark_emit(LtCtx *c, LLVMValueRef at, const char *pass_name,
                    const char *remark_name, const char *msg);
/* LLVM's alias analysis: may pa (accessed by instruction ia) and pb (by ib)
 * overlap, in any iterations? 1 when unknown. */
int lt_llvm_may_alias(LtCtx *c, LLVMValueRef ia, LLVMValueRef pa,
                      LLVMValueRef ib, LLVMValueRef pb);
/* What a call may write, by its memory effects: 0 nothing the program can
 * read, 1 only its pointer arguments' memory, 2 anything. */
int lt_call_writes(LtCtx *c, LLVMValueRef call);
/* Add gv to llvm.compiler.used (it survives internalization and DCE). */
void lt_keep_global(LtCtx *c, LLVMValueRef gv);
/* Forget LLVM's cached analyses of fn (before it changes or is deleted). */
void lt_llvm_forget(LtCtx *c, LLVMValueRef fn);

/* The per-module context: no globals, everything hangs off this. */
struct LtCtx {
  const LtHost *host;
  LLVMModuleRef mod;
  LLVMContextRef llctx;
  LLVMTargetDataRef td;
  int opt_level;
  LLVMTypeRef i1, i8, i32, i64, ptr, vd, f64;
  LtVec diags;   /* queued diagnostics (LtDiag *) */
  int nerrors;   /* errors in the current request */
  int quiet;     /* > 0: no remarks (a second version being built) */
  LtVec derivs;  /* generated derivatives (LtDeriv *), reused per request key */
  LtVec graveyard; /* functions to delete after the diagnostics are out */
  LtMap split_clean; /* __enzyme_augmentfwd/_reverse pairs with nothing
                        between them (splitpair.c) */
  LtMap tape_owner;  /* tape made by an __enzyme_augmentfwd -> its LtDeriv */
  LtMap nested_calls; /* __enzyme_* calls in code another call
                         differentiates (schedule.c) */
  LtVec rev_calls;   /* rewritten reverse calls: (call, LtDeriv *) pairs */
  LLVMValueRef cur_call; /* the __enzyme_* call being handled */
  LtMap reg;             /* function -> LtReg * (annotate.c) */
  LtVec regs;
  LtMap inactive_globals;/* __enzyme_inactive_global */
  LtMap user_shadow;     /* enzyme_shadow: global -> the user's shadow global;
                            shadow -> (void *)1 (annotate.c) */
  LtMap gshadow;         /* global -> its shadow global; shadow -> (void *)1
                            under the key of the shadow (gen/globals.c) */
  LtMap purity;          /* function -> writes or not (writes.c) */
  LtMap escape_memo;     /* function -> escape flags per parameter */
  LtVec escape_arrays;
  LtMap escape_assume;   /* (function, parameter) -> assumed flags + 1 */
  LtVec escape_done;     /* (function, parameter) pairs of this round */
  int escape_cycle;      /* this round met a cycle */
  LtMap escape_ssa;      /* function -> the SSA copy its summary reads */
  LtMap writes_memo;     /* function -> per parameter: 1 + stores pointers
                            through it or not (escape.c) */
  LtVec escape_clones;
  LtMap copy_of;         /* Leantape's copies of a function (preprocessed,
                            escape.c's SSA copy) -> the function */
  int forward;           /* preprocessing for forward mode (custom
                            derivatives are forward mode's) */
  unsigned serial;
};


/* The vocabulary of requests: how a derivative is asked for, and the
 * activity of each argument (front.h parses them from call sites). */
typedef enum {
  LT_AUTODIFF,
  LT_AUGFWD,
  LT_REVERSE,
  LT_AUGSIZE,
  LT_SUBCALL, /* a callee's derivative, for a call kept as a call */
  LT_FWDDIFF, /* __enzyme_fwddiff: tangents (gen/tangent.c) */
  LT_FWDSUB   /* a callee's tangent function, for a kept call */
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

/* clone.c: cloning function bodies and inlining calls */

/* Clone the body of src into dst before block `before` (NULL: append).
 * vmap must map src's parameters; it is filled with blocks/instructions.
 * Debug locations are kept when keep_dbg. Returns the clone of src's entry. */
LLVMBasicBlockRef lt_clone_body(LtMap *vmap, LLVMValueRef src, LLVMValueRef dst,
                                LLVMBasicBlockRef before, int keep_dbg);
/* The same for blocks[0..n) of a function: vmap maps the values they use
 * from elsewhere (or they stay), and gets the clones of the blocks and
 * their instructions. Returns the clone of blocks[0]. */
LLVMBasicBlockRef lt_clone_blocks(LtMap *vmap, LLVMBasicBlockRef *blocks, unsigned n,
                                  LLVMValueRef dst, LLVMBasicBlockRef before, int keep_dbg);
/* New internal function named name with type fty, attributes of src copied
 * for the first nparams parameters; optnone/noinline dropped. */
LLVMValueRef lt_clone_decl(LLVMValueRef src, const char *name, LLVMTypeRef fty);
/* A copy of src, body and all, as the new internal function name. */
LLVMValueRef lt_clone_fn(LLVMValueRef src, const char *name, int keep_dbg);
/* Remove the attributes of f's parameter p (its type changed). */
void lt_drop_param_attrs(LLVMValueRef f, unsigned p);
/* Move the instructions of at's block that precede at into a new block
 * placed before it (without a terminator), and send the block's
 * predecessors there. Returns the new block. */
LLVMBasicBlockRef lt_split_before(LLVMContextRef c, LLVMValueRef at);
/* Inline the call (callee must be defined). Returns 0 on success. */
int lt_inline_call(LtCtx *c, LLVMValueRef call, int keep_dbg);

#endif
