/* gen.h: generating a derivative: the augmented forward function,
 * the tape, the reverse function, shadow memory, kept and custom calls,
 * the call-site rewrite and the report.
 * Included by lt.h, in layer order; do not include directly. */
#ifndef LT_GEN_H
#define LT_GEN_H

/* link.c: call (a LT_CALL_LINK call of a clone) again with args (the
 * shadows of its pointer arguments, its other arguments), at b; maynull:
 * a shadow may be null at run time (then nothing, and a null result). */
LLVMValueRef lt_link_call(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef *args,
                          int maynull);

/* heap.c: heap shadows (a size header in front, for realloc), placed at
 * the primal block's address modulo 64 (primal: the block, or NULL) */
LLVMValueRef lt_shadow_alloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef size,
                             LLVMValueRef align, LLVMValueRef primal);
void lt_shadow_free(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p);
LLVMValueRef lt_shadow_realloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef old,
                               LLVMValueRef size, LLVMValueRef primal);
LLVMValueRef lt_shadow_size(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p);
/* The alignment a local (an alloca's clone) and its shadow both take, so
 * that the shadow too sits at the primal's address modulo 64. */
unsigned lt_local_align(LtCtx *c, LLVMValueRef alloca);
/* An operator new whose block may outlive the function: its shadow is
 * plain (lt_shadow_alloc_plain: the same call on the clone `call`, zeroed,
 * size bytes), owned by the caller's shadow data, never freed here. */
int lt_shadow_plain(LtActivity *a, LLVMValueRef call);
LLVMValueRef lt_shadow_alloc_plain(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call,
                                   LLVMValueRef size);

/* globals.c: shadow globals (-leantape-global-shadows) */
LLVMValueRef lt_global_shadow(LtCtx *c, LLVMValueRef gv);
/* The shadow of a constant over a shadowed global, or NULL. */
LLVMValueRef lt_shadow_const(LtCtx *c, LLVMValueRef v);
/* At b: zero the shadow globals fn's code (and the generated functions it
 * calls) uses. */
void lt_zero_shadow_globals(LtCtx *c, LLVMBuilderRef b, LLVMValueRef fn);

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

/* sincos.c: a sin and a cos of one value in a block become one sincos */
void lt_fuse_sincos(LtCtx *c, LLVMValueRef fn);

/* loopver.c: loop l of (g, ls, ind) copied; its preheader branches to the
 * loop when the hull of accesses a[0 .. na) ((instruction, address) pairs)
 * is apart at run time from each of o[0 .. no), to the copy (*copy: its
 * header) otherwise. 0 when done; -1 (nothing changed that matters) when
 * the addresses are not affine or the trip count not known. */
int lt_loop_version(LtCtx *c, const LtCfg *g, const LtLoops *ls, const LtInduction *ind,
                    unsigned l, LLVMValueRef *a, unsigned na, LLVMValueRef *o, unsigned no,
                    LLVMBasicBlockRef *copy);

/* loop l copied, the preheader branching to the loop when br's condition
 * (defined outside l) holds, else to the copy; br then always goes its
 * true way in the loop and its false way in the copy. 0 when done. */
int lt_loop_unswitch(LtCtx *c, const LtCfg *g, const LtLoops *ls, unsigned l, LLVMValueRef br);

/* unswitch.c: innermost loops of fn copied at -O2 for the undo log's
 * calls behind invariant branches (one copy without them) */
void lt_unswitch_undo(LtCtx *c, LLVMValueRef fn);

/* launder.c: at -O2, the values an innermost loop takes from a loop that
 * counts downwards, through an empty asm in its preheader, so that LLVM
 * checks the inner loop's ranges before it, not (always failing) before
 * the outer loop */
void lt_launder_reverse_nests(LtCtx *c, LLVMValueRef fn);
/* scopes.c: a scope !{!self, !domain, !"name"} (a domain when domain is
 * NULL: !{!self, !"name"}) */
LLVMMetadataRef lt_self_md_node(LLVMContextRef c, LLVMMetadataRef domain, const char *name);
/* accum.c: an accumulation  store (fadd reassoc (load addr), val), addr
 * (or fsub: neg) in one block, nothing between the load and the store
 * that may write memory; the memory instruction i may access (its
 * address, NULL when none, LT_CLOBBER when memory it does not name);
 * whether a's and b's elements of size sz are the same or apart (the
 * same pointer terms, every other difference a multiple of sz) */
typedef struct LtAccum {
  LLVMValueRef load, add, store, addr, val;
  LLVMBasicBlockRef bb;
  int neg;
} LtAccum;
int lt_accum_match(LLVMValueRef st, LtAccum *a);
LLVMValueRef lt_accum_accessed(LLVMValueRef i);
int lt_affine_aligned(const LtAffine *a, const LtAffine *b, long long sz);
/* ... and rounds (at most `rounds`) of rewrites over fn's loops after LICM,
 * one per round, the analyses rebuilt after each: rewrite(at) returns 1
 * when it rewrote loop at->l (copies: loops it leaves alone); at is the
 * first member of the rewrite's own struct of `size` bytes, zeroed */
typedef struct LtLoopAt {
  LtCtx *c;
  const LtCfg *g;
  const LtLoops *ls;
  const LtInduction *ind;
  unsigned l;
  LtMap *copies;
} LtLoopAt;
void lt_rewrite_loops(LtCtx *c, LLVMValueRef fn, LtMap *copies, int (*rewrite)(LtLoopAt *),
                      size_t size, unsigned rounds);
/* ascend.c: an innermost reverse loop whose iterations commute (apart
 * but for accumulations) runs upwards, as the primal did; the loops it
 * copies (as they were, for where a run-time test fails) go in copies */
void lt_ascend_reverse_loops(LtCtx *c, LLVMValueRef fn, LtMap *copies);
/* gather.c: a reverse loop's accumulations into neighbouring elements
 * (a stencil's adjoint) become one addition per element, the rest carried
 * in registers, so that the loop vectorises; loops in copies (and those it
 * copies itself, added there) are left alone */
void lt_gather_accums(LtCtx *c, LLVMValueRef fn, LtMap *copies);

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
  int parallel;        /* a parallel region's function: run on a team */
  LLVMValueRef apart;  /* requested with LT_PF_CHECK parameters: i1
                          apart(the function's parameters), 1 when this
                          derivative's assumption holds (ompcheck.c) */
  LLVMValueRef size_gv;/* i64 global holding tape_size, for callers that
                          were built while it was not known yet */
  int versioned;       /* combined mode: version.c looked at it (grad may
                          then be its run-time choice of two) */
  LLVMValueRef apart_test; /* ... i1 apart(the function's parameters), when
                          one could be built (lt_version_flags) */
  LLVMValueRef snap;   /* requested with ckpt: i64 snap(the function's
                          parameters, ptr buf, i32 op), the bytes a step
                          writes (snapshot.c); NULL when it cannot be built */
  LLVMValueRef back;   /* ... and A as checkpointing runs it right before
                          R (ckptdead.c: without the stores to primal
                          memory that only A would read again), run when
                          apart_test, if any, holds; or NULL */
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
/* version.c: as lt_derive; for __enzyme_autodiff over plain pointers, the
 * gradient may pick at run time a second derivative that takes them apart. */
LtDeriv *lt_derive_versioned(LtCtx *c, const LtRequest *r);
/* LT_PF_CHECK on every pointer parameter of an __enzyme_autodiff request
 * that version.c would version, else NULL (the caller frees it). */
unsigned char *lt_version_flags(LtCtx *c, const LtRequest *r);
/* LT_PF_CHECK for every pointer parameter of r's function. */
unsigned char *lt_check_pointers(const LtRequest *r);
/* The derivative cache (c->derivs), keyed by r's function, the activity
 * of each parameter (upper case where keep[p]: memory kept between split
 * halves) and the mode's tail: the entry built for that key, or, *fresh,
 * a new one for r's function and mode that the caller fills and adds. */
LtDeriv *lt_deriv_entry(LtCtx *c, const LtRequest *r, const unsigned char *keep,
                        const char *tail, int *fresh);
void lt_deriv_free(LtDeriv *d);

/* tangent.c: forward mode (the tangent function, per request) */
LtDeriv *lt_tangent_derive(LtCtx *c, const LtRequest *r);

/* rewrite.c */
/* Replace the __enzyme_* call by calls to the derivative. 0 on success. */
int lt_rewrite(LtCtx *c, const LtRequest *r, const LtDeriv *d);
int lt_rewrite_fwd(LtCtx *c, const LtRequest *r, const LtDeriv *d);
/* After all calls are rewritten: a tape visibly made by __enzyme_augmentfwd
 * must reach a reverse call of the same function and activity. */
void lt_rewrite_check_tapes(LtCtx *c);
/* Replace a call that could not be differentiated by a harmless value. */
void lt_rewrite_failed(LtCtx *c, LLVMValueRef call);


/* State shared by the generators of one derivative (derive.c, tape.c,
 * forward.c, reverse.c, revinst.c). P is the preprocessed primal, A the
 * augmented forward function, R the reverse function. */
struct LtGen {
  LtCtx *c;
  const LtAct *act;    /* activity per parameter */
  LtAct *act_own;      /* act when the gradient gave enzyme_const
                          parameters shadows of its own (else NULL) */
  unsigned char *scratch; /* parameter -> such a shadow (scratchshadow.c) */
  const unsigned char *keep; /* split mode: parameter memory unchanged
                                between the halves (LtRequest.keep), or NULL */
  LLVMValueRef at;     /* the call site, for diagnostics */
  int split;           /* heap shadows, reverse frees the tape */
  int want_primal;     /* A returns the primal result */
  int ret_shadow;      /* ... with the shadow of its pointer result */
  int sub;             /* a callee's derivative: R does not free the tape */
  int keep_header;     /* R leaves the tape header (caller storage) */
  int nofree;          /* R frees nothing (enzyme_nofree) */
  int lifo;            /* under __enzyme_autodiff: sub-tapes on the arena */
  int checkpoint;      /* time loops' steps checkpointed (ckpt.c) */
  long long budget;    /* ... under this budget in bytes (0: only
                          LEANTAPE_TAPE_BUDGET at run time) */
  int parallel;        /* runs on every thread of an OpenMP team: adjoints
                          into shared memory are atomic (ompsync.c) */
  unsigned char *pf;   /* what the caller knows of the parameters (LT_PF_*,
                          CHECK become DISTINCT), or NULL */
  struct LtOmpPriv *priv; /* R of a parallel region: per-thread adjoint
                          buffers of read-only parameters (ompsync.c) */
  unsigned npriv;
  LtMap priv_of;       /* a shared read of P -> its buffer's index + 1 */
  LLVMValueRef P, A, R;
  LtCfg g;
  LtLoops loops;
  LLVMValueRef *loop_iv; /* loop id -> canonical counter lt.iv in P */
  LtMap ivx_loop;      /* exit-block copy lt.ivx -> loop id + 1 */
  LtInduction ind;     /* counters, affine forms, trip counts */
  LtOverwrite ow;      /* which loads may be re-read (combined mode) */
  LtActivity act_of;
  LtFacts fx;          /* the above, as analyses and the plan read them */
  unsigned nparams, nshadows;
  /* forward */
  LtMap fmap;          /* P value -> A value */
  LtMap fshadow;       /* P pointer -> its shadow in A */
  LtMap fchoice;       /* P block -> A's predecessor-index PHI */
  LtMap fentry;        /* A block -> the block its incoming edges now enter,
                          where loopfwd.c split it (lt.pre) */
  LLVMValueRef atape;  /* A's tape parameter */
  /* the cache plan: each value's source, and the tape's layout */
  LtPlan plan;
  LtVec slot_access;   /* R's loads of slots: (load, (void *)slot) pairs,
                          aligned once the layout is final (lt_tape_seal) */
  LtVec tape_stores;   /* A's stores into the tape: (store, (void *)slot)
                          pairs (lt_scope_forward) */
  LtMap callee;        /* kept P call -> its LtDeriv (callee.c) */
  LtMap apart;         /* parallel call -> its derivative for arguments
                          apart (LtDeriv.apart), when one was built */
  LtMap subtape_ph;    /* kept P call -> A's placeholder tape operand */
  LtMap ckpt_ctx;      /* checkpointed step call -> A's context (ckpt.c) */
  LtMap ckpt_tape;     /* ... -> A's step tape (or null) */
  LtMap custom_tape;   /* custom-derivative P call -> A's tape value */
  /* reverse */
  LLVMBuilderRef eb;   /* R's entry, before its terminator */
  LLVMBuilderRef b;    /* R's current block */
  LLVMValueRef rtape, rdret;
  LtMap rprimal, rshadow, adj, rblock;
  LtMap adj_ssa, adj_local;    /* block-local adjoints as SSA values (reverse.c) */
  LtMap reversed;      /* P instructions whose adjoint R emitted */
  LtMap rloop_val, rloop_bb;   /* loop-scoped materialisations, per block */
  LtMap rsloop_val, rsloop_bb; /* the same for shadows */
  LLVMValueRef *r_m;   /* loop id -> alloca: header executions not yet reversed */
  LLVMValueRef *r_iv;  /* loop id -> alloca: iteration being reversed */
  LLVMValueRef *r_buf; /* loop id -> the loop's cache buffer in R */
  LLVMValueRef *r_rs;  /* loop id -> placeholder for rec_size (freeze) */
  LLVMBasicBlockRef *r_enter; /* loop id -> R's block leaving the loop back
                                 to its preheader */
  LLVMValueRef *r_free; /* loop id -> the free of its cache at R's exit */
  /* forward loop state: allocas in A */
  LLVMValueRef *a_n, *a_cur, *a_buf;
  LLVMValueRef a_sink, r_sink; /* scratch for null-shadow writes (guard.c) */
  LLVMMetadataRef sc_primal, sc_shadow, sc_tape; /* R's alias scopes (scopes.c) */
  LLVMMetadataRef *sc_excl; /* parameter -> the scope of the locations P
                               modifies through it (restrict), or NULL */
  LLVMValueRef a_undo, r_undo; /* undo-log state allocas (undo.c) */
  LLVMValueRef a_undo_on, r_undo_on; /* i1 at A's / R's entry: the log is on */
  LtVec undo_calls;    /* (P store, R restore call) pairs */
  LtVec undo_order;    /* loads R re-read through the log, in order */
  LtMap undo_loads, undo_need; /* the same as a set; the classes logged */
  LtMap undo_tri;      /* logged stores whose entries are reserved before
                          their triangular nest (undo.c) */
  LtMap undo_block;    /* logged stores saved as a block per run of their
                          loop -> the loop id + 1 (undoblock.c) */
  LtMap undo_run;      /* logged stores saved once per run of their loop
                          when apart -> the loop id + 1 (undoblock.c) */
  LtMap undo_runblock; /* those of them saved as a tested block per run */
  LtMap undo_apart;    /* loop id + 1 -> A's i1 "apart" of its run */
  LtVec undo_skip;     /* (A's save call, apart): skipped when apart */
  LtVec undo_enter;    /* (loop id + 1, R's store of its reverse counter
                          where R enters its reverse): run entries' flag */
  int failed;
};



/* scopes.c: R's primal re-loads and shadow accesses are apart, and so
 * are shadows of locations P modifies through a restrict parameter and
 * shadow accesses not based on it */
/* Tag inst, a load or store of shadow memory in R made for P's access
 * from (or NULL); atomics stay untagged. */
void lt_scope_shadow(LtGen *g, LLVMValueRef inst, LLVMValueRef from);
/* Tag R's load of primal memory. */
void lt_scope_primal(LtGen *g, LLVMValueRef inst);
/* Tag R's load from the tape (its slots and loop caches). */
void lt_scope_tape(LtGen *g, LLVMValueRef inst);
/* R's calls of the undo log's helpers are !noalias shadow and tape. */
void lt_scope_undo_calls(LtGen *g);
/* A's tape stores get scopes of their own, one per slot of a loop's
 * record; A's copies of P's loads and stores are !noalias them. */
void lt_scope_forward(LtGen *g);

/* loopfwd.c */
/* A's loop state: counters and growing caches (after R fixed the layout). */
void lt_forward_loop_state(LtGen *g);
void lt_forward_loop_headers(LtGen *g);
/* Loop l's header executions in one run of its outermost loop's nest,
 * summed exactly before that nest starts (b left there), when some trip
 * count inside the nest varies with the counters around it (a triangular
 * nest); else, or when not computable there, NULL. */
LLVMValueRef lt_forward_nest_count(LtGen *g, unsigned l, LLVMBuilderRef b);
/* Header executions of loop l per run of the nest of loop top around it
 * (an upper bound where bounds vary with counters in between), emitted at
 * b in top's preheader (or below it); NULL when not computable there. */
LLVMValueRef lt_forward_trip(LtGen *g, unsigned l, unsigned top, LLVMBuilderRef b);
/* The outermost loop around l (l itself at the top level). */
unsigned lt_forward_top(LtGen *g, unsigned l);

/* cachegrow.c: caches whose size is not known where their nest starts */
/* Under __enzyme_autodiff, loop l's cache from the arena, sized by the
 * last call, and room reserved per run of the loops inside the nest whose
 * trip counts are known where they start (else at each header execution,
 * after the counter's increment st); R releases it where it leaves the
 * nest. 0 when not done (no arena here): the cache grows by realloc. */
int lt_cache_reserved(LtGen *g, unsigned l, LLVMValueRef st, LLVMBuilderRef b);

#include "undo.h"

/* scratchshadow.c: a zero shadow for enzyme_const memory the gradient
 * needs one for (analysis/scratch.c), made at the gradient's start and
 * dropped at its end: address space around the parameter's shadow */
int lt_scratch_target(LtCtx *c);
LLVMValueRef lt_scratch_new(LtCtx *c, LLVMBuilderRef b);
void lt_scratch_free(LtCtx *c, LLVMBuilderRef b, LLVMValueRef s);
/* The remark for parameter p of fn (what: "gradient" or "tangent function"). */
void lt_scratch_remark(LtCtx *c, LLVMValueRef call, LLVMValueRef fn, unsigned p,
                       const char *what);
/* lt_scratch_free of s[0..n) before every return of fn. */
void lt_scratch_free_at_returns(LtCtx *c, LLVMValueRef fn, LLVMValueRef *s, unsigned n);

/* arena.c: last-in first-out memory for sub-tapes (combined mode) */
LLVMValueRef lt_arena_push(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n);
void lt_arena_pop(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p); /* p and after */
/* arenakeep.c: the chunk the last gradient kept if it holds need bytes,
 * else null; i1, an emptied arena's last chunk kept (LEANTAPE_ARENA_KEEP) */
LLVMValueRef lt_arena_take(LtCtx *c, LLVMBuilderRef b, LLVMValueRef need);
LLVMValueRef lt_arena_keep(LtCtx *c, LLVMBuilderRef b, LLVMValueRef chunk);
void lt_arena_hint(LtCtx *c, LLVMValueRef grad, LLVMBuilderRef entry, LLVMBuilderRef exit);
/* memhelper.c: helper (dst, src, bytes) per copy layout (memlayout.c):
 * forward moves pointer fields, reverse moves float adjoints from dst to
 * src. */
LLVMValueRef lt_mem_helper(LtCtx *c, const LtMemLayout *L, int forward);
/* Advise 2 MiB pages for [p, p + n) when n is large (Linux x86-64 and
 * AArch64; nothing elsewhere). */
void lt_arena_huge(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef n);
/* The internal thread-local global `name` of type t (zero), made once. */
LLVMValueRef lt_thread_global(LtCtx *c, const char *name, LLVMTypeRef t);

/* tape.c */
/* Load of a value from the tape at R's entry; allocates the slot. */
LLVMValueRef lt_tape_load(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty);
/* The same, loaded at builder `at` when the slot is outside loops (a value
 * of a path not always taken is read only on that path). */
LLVMValueRef lt_tape_load_at(LtGen *g, LtSlotKind kind, void *src,
                             LLVMTypeRef ty, LLVMBuilderRef at);
/* After R is built: its slot loads get the alignment the final layout
 * guarantees. */
void lt_tape_seal(LtGen *g);
/* The address of a slot (allocated on first use) in R. */
LLVMValueRef lt_tape_addr(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty);

/* tapestore.c: store every slot's value in A, after its definition. */
void lt_tape_store_all(LtGen *g);

/* callee.c: calls kept as calls get the callee's own derivative */
/* Build (or find) the derivative of every kept call in P. */
int lt_callees_plan(LtGen *g);
/* The request for the derivative (mode LT_SUBCALL) or tangent function
 * (LT_FWDSUB) of P's kept call: function, parameters, whether the result
 * is used, whether it runs in parallel; r->act all LT_CONST, for the
 * caller to fill (and free). -1 after an error. */
int lt_kept_call_request(LtGen *g, LLVMValueRef call, LtMode mode, LtRequest *r);
/* What the caller knows of a parallel region's pointer arguments
 * (LT_PF_*, analysis.h), one byte per parameter (the caller frees it). */
unsigned char *lt_region_pflags(LtGen *g, LLVMValueRef call, unsigned np);
/* The flags of any kept call: a region's as above, for a serial call only
 * LT_PF_NULLPTRS, NULL when no parameter has it. */
unsigned char *lt_call_pflags(LtGen *g, LLVMValueRef call, unsigned np);

/* snapshot.c: the snapshot function of a checkpointed step P (its facts
 * f), or NULL with why[] (on success, why[] has the snapshot's size in
 * bytes when that is a constant, else ""). */
LLVMValueRef lt_ckpt_snap_build(LtCtx *c, const LtFacts *f, const char *base, char *why,
                                size_t whysz);
/* ckptdead.c: a copy of the checkpointed step's A (d->aug, keep: R's
 * kept parameters of np) without its stores through the other pointer
 * parameters that nothing after them in A may read (when the parameters are
 * apart: d->apart_test), or NULL when nothing goes or at -O0. */
LLVMValueRef lt_ckpt_dead_aug(LtCtx *c, const LtDeriv *d, const unsigned char *keep,
                              unsigned np);
/* ckpt.c: A's and R's part of a checkpointed step call (0, or -1 after
 * reporting). */
int lt_ckpt_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                    LLVMValueRef (*shadow)(LtGen *, LLVMValueRef));
int lt_ckpt_reverse(LtGen *g, LLVMValueRef call);
/* ckptrt.c: the run-time helper lt.ckpt.<name>, linked in on first use */
LLVMValueRef lt_ckpt_rt(LtCtx *c, const char *name);
/* irtext.c: IR text linked into the module, its functions named
 * prefix... made internal; 0, or -1 after an internal error (what: for
 * the message, "the ... helpers") */
int lt_link_ir(LtCtx *c, const char *text, const char *what, const char *prefix);
/* the IR text of i64 @fn(ptr name, i64 dflt): the environment variable
 * name in bytes (an optional K, M or G), dflt when unset (malloc'd) */
char *lt_envbytes_ir(const char *fn);
/* ckptol.c: the online helpers' IR text (lt.ckpt.online, .intervals) */
extern const char lt_ckpt_online_ir[];
/* ckpttv.c: the reverse sweep's IR text (lt.ckpt.tv, .cut, .back, .adv,
 * .slot) */
extern const char lt_ckpt_tv_ir[];

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

/* ompcheck.c: i1 <base>.lt.apart(P's parameters): do the accesses through
 * the LT_PF_CHECK parameters of f's function (a parallel region) touch
 * bytes apart from those through every other one, over the whole team?
 * NULL when some access is out of reach of such a test. */
LLVMValueRef lt_omp_check_build(LtCtx *c, const LtFacts *f, const unsigned char *pflags,
                                unsigned first, const char *base);

/* omp.c: OpenMP parallel regions */
/* The declaration of runtime function name (ret (pt[0..n), ...va)). */
LLVMValueRef lt_omp_decl(LtCtx *c, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *pt, unsigned n, int va);
/* A call of declared function f with a[0..n), at b. */
LLVMValueRef lt_omp_call(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef *a,
                         unsigned n);
/* The i64 constant v. */
LLVMValueRef lt_omp_i64(LtCtx *c, unsigned long long v);
/* The address off bytes (an i64) after p, at b. */
LLVMValueRef lt_omp_at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef off);
/* A: the region tape for a parallel call (one tape header per thread),
 * allocated at b before the fork. */
LLVMValueRef lt_omp_region_tape(LtGen *g, LLVMBuilderRef b, LLVMValueRef call);
/* A: fork the team running A_f in place of the parallel call. */
LLVMValueRef lt_omp_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                            LLVMValueRef (*shadow)(LtGen *, LLVMValueRef));
/* R: fork the team running R_f, on the same team size. */
int lt_omp_reverse(LtGen *g, LLVMValueRef call);
/* __kmpc_fork_call(loc, n, w, args[0..n)): w runs on a team. */
LLVMValueRef lt_omp_fork(LtCtx *c, LLVMBuilderRef b, LLVMValueRef loc, LLVMValueRef w,
                         LLVMValueRef *args, unsigned n);

/* ompsync.c: the reverse inside a parallel region's derivative, where the
 * team's threads meet */
/* R: the reverse of a barrier or of a critical section's entry or exit. */
int lt_omp_reverse_sync(LtGen *g, LLVMValueRef call);
/* R's entry: a thread-private adjoint buffer for each read-only pointer
 * parameter whose shared reads all lie in a range known at entry. */
void lt_omp_privatize(LtGen *g);
/* R: where the adjoint of the shared read ld (shadow address wr) goes in
 * this thread's buffer, or NULL (none). */
LLVMValueRef lt_omp_private_shadow(LtGen *g, LLVMValueRef ld, LLVMValueRef wr);
/* R's exit, at g->b: add the buffers into the shadows, free them. */
void lt_omp_flush(LtGen *g);
/* R, at g->b: *p += d; atomic when shared (another thread may add); from:
 * P's access whose adjoint it is, for its alias scopes (scopes.c). */
void lt_omp_accumulate(LtGen *g, LLVMValueRef p, LLVMValueRef d, unsigned align,
                       int shared, LLVMValueRef from);

/* mpi.c, mpirt.c: MPI calls (analysis/mpi.c says what they are) */
/* R, at g->b: the adjoint communication of an MPI call. */
int lt_mpi_reverse(LtGen *g, LLVMValueRef call);
/* A: after acall (call's clone), what R needs of a nonblocking call. */
int lt_mpi_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef acall,
                   LLVMValueRef (*shadow)(LtGen *, LLVMValueRef));
/* Shared with mpicoll.c: the module's handle ABI (MPICH's ints, or
 * OpenMPI's pointers); a call of helper lt.mpi.<name> at b (arguments
 * cast to its parameters); a predefined handle by its OpenMPI global's
 * name or MPICH's value; the shadow in R of the call's operand k (null
 * when none). */
int lt_mpi_int_handles(LtCtx *c);
/* The helpers' fl: MPI_FLOAT data (else MPI_DOUBLE); adjoints added
 * atomically (R of a derivative that runs on a team). */
#define LT_MPI_FL_FLOAT 1
#define LT_MPI_ATOMIC 2
LLVMValueRef lt_mpi_fl(LtGen *g, LLVMValueRef call);
/* An MPI call that the classification accepted but no switch of gen
 * handles: an internal error ("reverse" or "tangent"), -1. */
int lt_mpi_no_rule(LtCtx *c, LLVMValueRef call, const char *what);
LLVMValueRef lt_mpi_call_helper(LtCtx *c, LLVMBuilderRef b, int ih, const char *name,
                                LLVMValueRef *args, unsigned n);
LLVMValueRef lt_mpi_handle(LtCtx *c, int ih, const char *ompi, long long mpich);
LLVMValueRef lt_mpi_rshadow(LtGen *g, LLVMValueRef call, int k);
/* Receives with possible wildcards: whether A records the status; acall's
 * status made ours when the user ignores it, *src and *tag read at b after
 * it; in R, the receive's source and tag (recorded or the operands). */
int lt_mpi_records_status(const LtMpiCall *m, LLVMValueRef call);
void lt_mpi_status_after(LtCtx *c, LLVMBuilderRef b, const LtMpiCall *m, LLVMValueRef call,
                         LLVMValueRef acall, LLVMValueRef *src, LLVMValueRef *tag);
void lt_mpi_recv_peer(LtGen *g, const LtMpiCall *m, LLVMValueRef call, LLVMValueRef *src,
                      LLVMValueRef *tag);
/* mpicoll.c: MAX/MIN reductions, MPI_Sendrecv, the gather family: whether
 * it handles the call (of floating-point data); A's record (the winners of
 * MAX/MIN), R's adjoint communication, T's tangent (at t->b). */
int lt_mpicoll_handles(const LtMpiCall *m, LLVMValueRef call);
int lt_mpicoll_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef acall);
int lt_mpicoll_reverse(LtGen *g, LLVMValueRef call);
/* The helper lt.mpi.<name> for the module's handle ABI, linked in once. */
LLVMValueRef lt_mpi_helper(LtCtx *c, int int_handles, const char *name);
/* mpirtcoll.c: the helpers' text for reductions by MAX/MIN, Sendrecv and
 * the gather family (part 0 or 1), linked with mpirt.c's */
const char *lt_mpirt_coll_text(int part);
/* mpirtreq.c: the helpers' text for the records of nonblocking calls
 * (part 0 or 1) */
const char *lt_mpirt_req_text(int part);

#include "libcalls.h"

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


/* materialize.c: primal values and shadows in R, at g->b or R's entry, as
 * the plan's records say */
LLVMValueRef lt_rv(LtGen *g, LLVMValueRef v);      /* primal value in R */
LLVMValueRef lt_rs(LtGen *g, LLVMValueRef v);      /* shadow in R (NULL: none) */

/* reverse.c */
int lt_reverse_build(LtGen *g, const char *name, LLVMTypeRef outs_ty);

/* adjoint.c */
LLVMValueRef lt_adj_read(LtGen *g, LLVMValueRef v);/* load and zero */
void lt_adj_add(LtGen *g, LLVMValueRef v, LLVMValueRef d);

/* revinst.c: adjoints of single instructions, at g->b */
int lt_revinst(LtGen *g, LLVMValueRef inst);

/* cplx.c: __muldc3, __divdc3 and their float/long double forms */
int lt_rev_complex(LtGen *g, LLVMValueRef call);

/* revagg.c: adjoints of aggregate and vector operations, at g->b */
int lt_rev_agg(LtGen *g, LLVMValueRef inst);
/* An aggregate load (is_store 0) or store through shadow addresses rd/wr. */
int lt_rev_agg_memory(LtGen *g, LLVMValueRef inst, LLVMValueRef rd,
                      LLVMValueRef wr, int is_store);


#include "tangent.h"

#endif
