/* analysis.h: facts about functions (the canonical clone, and the user's
 * functions as written, which front and prep ask about): CFG, loops,
 * induction, points-to, escape, activity, memory layouts, float bits, what
 * a call is (callkind.h), integer-only parameters, overwrites, address
 * ranges.
 * Included by lt.h, in layer order; do not include directly. */
#ifndef LT_ANALYSIS_H
#define LT_ANALYSIS_H

/* intptr.c: unmarked pointer parameter p of fn is only used to read and
 * write integers and pointers (it then defaults to enzyme_const). */
int lt_param_int_only(LLVMValueRef fn, unsigned p);

/* escape.c: do pointers escape from parameter p of f into memory (or an
 * unknown function), or into its return value? */
/* Values of type t may hold a pointer's bits: pointers, integers,
 * aggregates and vectors. */
int lt_may_hold_ptr(LLVMTypeRef t);
/* A load of an integer that can hold a pointer: as wide as one, and as
 * aligned or at an offset a pointer may start at (points.c reads no
 * pointer targets out of others). */
int lt_ptr_sized_int(LtCtx *c, LLVMValueRef load);
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
/* The SSA copy of f escape.c's summaries read (f itself without -O0
 * stack slots); values of type t can hold a pointer's bits. */
LLVMValueRef lt_escape_ssa(LtCtx *c, LLVMValueRef f);
int lt_carries_ptr(LtCtx *c, LLVMTypeRef t);
/* callwrites.c: f may store pointers (or values that can hold one) into memory it
 * reaches from parameter p, at any depth, itself or through its callees.
 * 0 only when it surely does not (a const argument it only reads). */
int lt_param_written(LtCtx *c, LLVMValueRef f, unsigned p);
/* paramstores.c: may f store through the memory its pointer parameter p
 * addresses (or let the address escape)? 1 when unknown. */
int lt_param_stores(LtCtx *c, LLVMValueRef f, unsigned p);
void lt_escape_free(LtCtx *c);

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
  unsigned char *distinct;  /* object -> an O_ARG no other parameter reaches */
  LtMap callobj;            /* kept call -> its summary object + 1 */
  unsigned char *active;    /* object -> has a shadow */
  unsigned char *tainted;   /* inactive object given active data, or NULL */
  uint64_t *contents;       /* object -> objects whose addresses it may hold */
  LtMap sets;               /* value -> uint64_t[words] */
  LtMap gobj;               /* global -> object + 1 */
  uint64_t *empty, *unknown_set;
  LtVec owned;              /* allocated sets */
} LtPoints;

/* Facts of a parameter that the caller knows (pflags, NULL or one byte
 * per parameter; LtRequest.pflags): */
#define LT_PF_DISTINCT 1 /* it points to an object no other parameter reaches */
#define LT_PF_NULLPTRS 2 /* the pointers in its memory may address memory
                            without a shadow (their shadows may be null) */
#define LT_PF_CHECK 4    /* as DISTINCT, when a run-time test the derivative
                            builds says so (gen/ompcheck.c, LtDeriv.apart) */
void lt_points_init(LtPoints *pt, LtCtx *c, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act, const unsigned char *pflags);
/* Do pointers stored in the memory v addresses (or deeper) address memory
 * without a shadow? */
int lt_points_holds_inactive(LtPoints *pt, LLVMValueRef v);
void lt_points_free(LtPoints *pt);
const uint64_t *lt_points_of(LtPoints *pt, LLVMValueRef v);
/* Transfer function of one instruction; 1 when a set grew. */
int lt_points_step(LtPoints *pt, LLVMValueRef i);
/* v may address an active / an inactive object. */
int lt_points_any_active(LtPoints *pt, LLVMValueRef v);
int lt_points_any_inactive(LtPoints *pt, LLVMValueRef v);
/* May pointers a and b address the same memory? Allocations of the
 * function are distinct from everything else; memory from outside it
 * (parameters, what they reach, globals, kept calls' results) may be any
 * memory from outside; unknown pointers and empty sets may be anything. */
int lt_points_may_alias(LtPoints *pt, LLVMValueRef a, LLVMValueRef b);
/* Does v address parameter p's object only (or null)? */
int lt_points_only_param(LtPoints *pt, LLVMValueRef v, unsigned p);
/* May v address parameter p's object, or is nothing known of v? A pointer
 * for which this is 0 is not based on the parameter (C's restrict). */
int lt_points_may_be_param(LtPoints *pt, LLVMValueRef v, unsigned p);
/* v only addresses heap blocks this function allocates. */
int lt_points_all_heap(LtPoints *pt, LLVMValueRef v);
/* v only addresses allocations of this function (stack or heap). */
int lt_points_all_own(LtPoints *pt, LLVMValueRef v);
/* v may address a stack object (an alloca of the function) for which
 * but(arg, alloca) is 0 (but NULL: any). */
int lt_points_any_stack(LtPoints *pt, LLVMValueRef v, int (*but)(void *, LLVMValueRef),
                        void *arg);
/* v may address inactive memory other than constant data (a string
 * literal holds no links: it is never a node of a linked structure) and
 * null shadows (checked at run time). */
int lt_points_any_inactive_node(LtPoints *pt, LLVMValueRef v);
/* Allocation `alloc` of the function may outlive it: its address may be
 * stored in memory from outside (a caller's container), or returned. */
int lt_points_escapes(LtPoints *pt, LLVMValueRef alloc);
/* Give every allocation v may address a shadow; 1 when one was new. */
int lt_points_activate(LtPoints *pt, LLVMValueRef v);
/* lt_points_activate, and also for allocations their memory points to. */
int lt_points_activate_reach(LtPoints *pt, LLVMValueRef v);
/* Memory at addr may hold pointers to active memory. */
int lt_points_contents_active(LtPoints *pt, LLVMValueRef addr);
/* Under -leantape-global-shadows, global gv has a shadow global. */
int lt_global_may_shadow(LtCtx *c, LLVMValueRef gv);
/* Mark the inactive objects at addr as holding active data; 1 if new. */
int lt_points_taint(LtPoints *pt, LLVMValueRef addr);
int lt_points_reads_tainted(LtPoints *pt, LLVMValueRef addr);
/* Stores and memory calls that only write the memory of enzyme_dupnoneed
 * parameters the function never reads: the primal may skip them. */
void lt_points_unneeded_writes(LtPoints *pt, const LtCfg *g, const LtAct *act,
                               LtVec *out);

/* activity.c */

typedef struct LtActivity {
  LtMap varied;   /* float value -> (void*)1 when it carries a derivative */
  LtMap bits_ty;  /* integer moving float bits -> the float type (bits.c) */
  LtMap bits_lost;/* integer holding active float bits used in arithmetic */
  LtMap bits_mixed;/* integer moves of active memory whose evidence
                      contradicts itself (floats packed with other data) */
  LtMap bits_ptr; /* integer loads in groups that move pointers (bits.c) */
  LtMap ptr_words;/* 64-bit integers holding addresses of shadowed memory */
  int ret_shadow; /* the returned pointer needs a shadow (a callee's) */
  int scratch_ok; /* set before lt_activity_run: enzyme_const parameters
                     may get a shadow of the gradient's own (scratch.c) */
  unsigned char *scratch; /* parameter -> needs one (NULL: none does) */
  LtPoints pts;   /* shadows: a pointer has one when it may address active
                     memory; it may be null when it may also address
                     inactive memory */
} LtActivity;

/* 0, or -1 after an error, or 2 when a->scratch_ok and only enzyme_const
 * parameters' memory needs shadows (a->scratch says which: run again with
 * them dup). */
int lt_activity_run(LtCtx *c, LtActivity *a, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act, const unsigned char *pflags);
/* scratch.c: every object `from` may address that lost active data is the
 * memory an enzyme_const pointer parameter points to, from which fn loads
 * no pointer: marked in a->scratch (when a->scratch_ok), 1; else 0. */
int lt_scratch_params(LtActivity *a, LLVMValueRef fn, LLVMValueRef from);
/* inactiveread.c: load, which reads memory where active data lost its
 * derivative, reads only globals the user declared inactive, and no store
 * of an active value there can be forwarded to it, or its value only goes
 * back into them */
int lt_inactive_readback_ok(LtActivity *a, LLVMValueRef load);
void lt_activity_free(LtActivity *a);
int lt_is_varied(const LtActivity *a, LLVMValueRef v);
/* An atomicrmw with a derivative rule: fadd, fsub, xchg of a float. */
int lt_atomic_differentiable(LLVMValueRef i);
int lt_is_shadowed(LtActivity *a, LLVMValueRef v);
/* Shadowed, and the shadow is null when v addresses inactive memory. */
int lt_shadow_maynull(LtActivity *a, LLVMValueRef v);

/* addr.c: p as base + constant byte offset, through bitcasts and GEPs
 * with constant indices; NULL when an index is not constant. */
LLVMValueRef lt_const_offset(LLVMTargetDataRef td, LLVMValueRef p, long long *off);

/* tbaa.c: the scalar type a TBAA access tag names */
enum { LT_TBAA_UNKNOWN, LT_TBAA_FLOAT, LT_TBAA_INT, LT_TBAA_PTR };
int lt_tbaa_class(LLVMContextRef c, LLVMValueRef tag, LLVMTypeRef *fty);
int lt_tbaa_class_of(LLVMValueRef inst, LLVMTypeRef *fty); /* its !tbaa */

#include "analysis/memcopy.h" /* what a memcpy/memmove copies */

/* bits.c: integers that only move floating-point bits */
void lt_bits_run(LtActivity *a, LLVMValueRef fn, const LtCfg *g, LtCtx *c);
/* The float type integer v moves, or NULL. */
LLVMTypeRef lt_bits_type(const LtActivity *a, LLVMValueRef v);
/* Pointer words (ptrword.c): integers whose shadow is a word of a shadow
 * address; the one pointer-word operand of arithmetic v, or NULL. */
void lt_ptr_words_run(LtActivity *a, const LtCfg *g);
int lt_is_ptr_word(const LtActivity *a, LLVMValueRef v);
/* The 64-bit scalar whose bytes lane extract v takes, or NULL (ptrword.c). */
LLVMValueRef lt_word_source(LLVMValueRef v);
LLVMValueRef lt_ptr_word_base(const LtActivity *a, LLVMValueRef v);
/* The type of v's adjoint: v's own, or the float its bits hold. */
LLVMTypeRef lt_adj_type(const LtActivity *a, LLVMValueRef v);

#include "callkind.h"

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
/* The value a PHI merges (lt_phi_same: prep's pipeline ends in lcssa) when
 * it is defined in a loop around the PHI or in none, else NULL: a loop's
 * exit value is not its in-loop value (its counters there are not the
 * PHI's, and a reverse pass outside that loop has no iteration of it). */
LLVMValueRef lt_loop_phi_same(const LtLoops *ls, LLVMValueRef phi);
int lt_loop_encloses(const LtLoops *ls, unsigned outer, int inner); /* outer == inner or an ancestor */
/* The innermost loop of v's (or bb's) block, -1 outside loops and for
 * values that are not instructions. */
int lt_loop_scope(const LtCfg *g, const LtLoops *ls, LLVMValueRef v);
int lt_loop_scope_block(const LtCfg *g, const LtLoops *ls, LLVMBasicBlockRef bb);
/* Printer pass print<leantape-loops>: stable text on stderr. */
void lt_print_loops(LLVMValueRef fn);
/* Print %name / @name, or the slot number (%7) of an unnamed value, to stderr. */
void lt_print_name(LLVMValueRef v);

/* induction.c: counters, trip counts; affine.c: affine forms (needs LtLoops) */

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
  long long step;           /* 0 when the step is vstep */
  LLVMValueRef vstep;       /* an invariant step (t += b), else NULL; not
                               affine, but counts trips */
} LtCounter;

typedef struct LtTrip {     /* header executions T = 1 + #{k >= 0 : X_k pred bound} */
  int known;
  LLVMValueRef cmp;         /* the exit test */
  unsigned counter;         /* index into LtInduction.ctr[loop] */
  int on_next;              /* X_k = start + step*(k + on_next) */
  LLVMIntPredicate pred;    /* continue-while predicate, iv on the left */
  LLVMValueRef start, bound;
  long long step;           /* with vstep: its sign, from the predicate */
  LLVMValueRef vstep;       /* an invariant step, else NULL */
} LtTrip;

typedef struct LtInduction {
  const LtLoops *ls;
  LtCounter **ctr;          /* loop id -> its counters; [0] is canonical */
  unsigned *nctr;
  LtTrip *trip;             /* loop id -> trip count description */
} LtInduction;

void lt_induction_build(LtInduction *ind, const LtLoops *ls);
void lt_induction_free(LtInduction *ind);
/* The id of the block defining v; -1 when v is no instruction. */
int lt_induction_def_block(const LtCfg *g, LLVMValueRef v);
/* Invariant in loop l: a constant, an argument, or defined outside l. */
int lt_induction_invariant(const LtLoops *ls, unsigned l, LLVMValueRef v);
/* v is a constant integer of at most 64 bits: 1, its value in *out. */
int lt_induction_const_int(LLVMValueRef v, long long *out);
/* Affine form of v as seen inside loop scope (-1: outside loops); values
 * defined outside scope may stay as invariant terms. 0 on success. */
int lt_affine_of(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v,
                 int scope, LtAffine *out);
void lt_affine_free(LtAffine *a);
/* a += k * b */
void lt_affine_axpy(LtAffine *a, long long k, const LtAffine *b);
/* The same in a loop whose invariant arithmetic is still computed inside
 * it (generated code before LICM): such values are leaves too, so the
 * form holds through a run of the loop, not where the function starts. */
int lt_affine_of_run(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v,
                     unsigned scope, LtAffine *out);
/* a and b have the same terms (loops and invariants, with their
 * coefficients); their constant offsets may differ. */
int lt_affine_same_terms(const LtAffine *a, const LtAffine *b);
/* a's coefficient of loop's iteration number (0 without such a term). */
long long lt_affine_coef(const LtAffine *a, unsigned loop);
/* Does v keep one value through a run of loop l: arithmetic and address
 * computations on values defined outside l (at -O0 a loop-invariant
 * address is computed inside the loop)? */
int lt_invariant_value(const LtInduction *ind, unsigned l, LLVMValueRef v);
/* Is v linear in l's counters through a run of l (sums, products with
 * an invariant, constant shifts, extensions and GEPs of invariant values
 * and counters with a constant step), so that its extremes over a run are
 * its values at the first and the last iteration? Wrapping is not
 * considered, as C's signed indices do not wrap. */
int lt_linear_in(const LtInduction *ind, unsigned l, LLVMValueRef v);
/* The constant amount v moves by per iteration of loop l (its affine
 * form's coefficient of l, invariants of l as leaves); 0 when v is not
 * affine there. */
int lt_affine_step(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v, unsigned l,
                   long long *step);
/* The operations those two look through (address arithmetic: GEPs,
 * sums, products, shifts, casts of integers). */
int lt_run_op(LLVMOpcode op);
/* Emit the i64 number of header executions of a known trip at b (start and
 * bound must dominate b, e.g. at the end of the preheader). */
LLVMValueRef lt_trip_emit(LLVMBuilderRef b, const LtTrip *t);
/* Printer pass print<leantape-induction>: stable text on stderr. */
void lt_print_induction(LLVMValueRef fn);

/* writes.c: what an instruction writes */
/* Does defined function f (or what it calls) write memory its callers can
 * see? */
int lt_fn_writes(LtCtx *c, LLVMValueRef f);
/* The addresses instruction i may write, up to 5 into out (their number
 * returned), or one LT_CLOBBER: memory it cannot name. */
#define LT_CLOBBER ((LLVMValueRef)1)
unsigned lt_writes_of(LtCtx *c, LLVMValueRef i, LLVMValueRef *out);

/* The function being differentiated and its facts, as the analyses below
 * and the plan read them: the canonical clone P (its canonical loop
 * counters added), its CFG, loops, induction, activity and overwrites.
 * A view: the generator's state owns the analyses. */
typedef struct LtOverwrite LtOverwrite;
typedef struct LtFacts {
  LtCtx *c;
  LLVMValueRef P;
  unsigned nparams;
  int split;                 /* split mode (the halves run apart) */
  const unsigned char *keep; /* parameter memory unchanged between the
                                halves (LtRequest.keep), or NULL */
  const LtCfg *g;
  const LtLoops *loops;
  const LtInduction *ind;
  LtActivity *act;
  LtOverwrite *ow;           /* once lt_overwrite_build has run */
  LLVMValueRef *loop_iv;     /* loop id -> its canonical counter lt.iv */
  const LtMap *ivx_loop;     /* exit copy lt.ivx -> loop id + 1 */
  int entry_loads;           /* range.c: a pointer loaded from a
                                noalias parameter before anything writes
                                through it counts as known where P starts
                                (gen/ckpt.c: what a step's iterations carry) */
  int span_param;            /* range.c: parameter span_param - 1 (a step's
                                number) spans 0 .. the last parameter of
                                the function the bounds are emitted in, less
                                1 (gen/ckpt.c: what all steps write); 0: none */
} LtFacts;

/* overwrite.c: loads whose memory nothing writes after them */
struct LtOverwrite {
  LtMap ok;         /* load -> 1 re-loadable, 2 not, 3 with the undo log */
  LtMap cand;       /* load of kind 3 -> LtVec * of the member lists (each an
                       LtVec * of (store, address) pairs) of the store
                       classes that may write its memory after it */
  LtMap store_class;/* store -> its member list, for those classes */
  LtMap late;       /* values recomputed from loads of kind 3 */
  int runtime;      /* every candidate's ranges are computable at entry */
  LtVec owned;      /* the LtVec * above */
  LtMap callarg;    /* call -> 1 + mask of its pointer arguments whose
                       memory nothing after the call may change */
};
/* After the activity analysis (it uses the points-to sets). */
void lt_overwrite_build(LtOverwrite *o, const LtFacts *f);
/* 1: nothing that runs after the load may change its (non-stack) memory;
 * 2: only logged stores may, so it can be re-read where the reverse of its
 * users runs (never earlier: not in R's entry); 0: tape it. */
int lt_overwrite_reloadable(const LtOverwrite *o, LLVMValueRef load);
/* v depends on a load re-read through the log: made where it is used. */
int lt_overwrite_late(const LtOverwrite *o, LLVMValueRef v);
/* Nothing that runs after call may change the (non-stack) memory that its
 * pointer argument k points into: a callee kept as a call may re-read it
 * in its reverse (callee.c). */
int lt_overwrite_call_arg(const LtOverwrite *o, LLVMValueRef call, unsigned k);

/* ompprivate.c: may another thread of the team access the memory
 * that inst (a load, store or atomic of f, run by every thread of a team)
 * accesses at addr in the same phase? 0 when proven private: memory of
 * the thread's own allocations, or an element of a worksharing loop's own
 * iteration (addr affine in the loop's iteration, base and every other
 * term the same on every thread, and every other read of f that may touch
 * the same memory at the same affine address: a write of another thread
 * there would be a data race of the primal, which OpenMP programs may not
 * have). */
int lt_omp_private(const LtFacts *f, LLVMValueRef inst, LLVMValueRef addr);

/* range.c: the bytes an access may touch, as an interval at entry */
/* Computable at A's entry (the address is affine in counters of loops
 * with computable trip counts, over arguments and constants). */
int lt_range_ok(const LtFacts *f, LLVMValueRef inst, LLVMValueRef addr);
/* At b in the entry of fn (whose parameters are P's first ones): i1, may
 * the hull of accesses w (inst, addr pairs) overlap that of r? NULL when a
 * range is not computable. */
LLVMValueRef lt_range_overlap(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                              LLVMValueRef *w, size_t nw, LLVMValueRef *r, size_t nr);
/* The same for a parallel region's function, all of whose threads' accesses
 * count (team != 0): a worksharing loop's counter spans the iterations the
 * team divides (lt_omp_worksharing_bounds), not a thread's share. b NULL:
 * only whether the test can be built (a non-NULL dummy when it can). */
LLVMValueRef lt_range_overlap_team(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                                   LLVMValueRef *w, size_t nw, LLVMValueRef *r, size_t nr,
                                   int team);
/* The same for a step whose pointers rotate among cells (prep/outline.c),
 * the cells' values at b cv[0..ncells) (i64): w written through the
 * pointer cell wc holds, r read through the one cell rc holds (-1: not
 * through a cell). May they overlap whichever values the cells hold, the
 * two cells distinct unless wc == rc? Under a permutation (the cells of
 * two swapped buffers) the answer is the same at every step. */
LLVMValueRef lt_range_overlap_cells(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                                    LLVMValueRef *w, size_t nw, int wc, LLVMValueRef *r,
                                    size_t nr, int rc, LLVMValueRef *cv, size_t ncells);
/* At b in fn's entry: v, an integer known where P starts (a parameter, a
 * constant, their sums and products), as i64; NULL when it is not one. */
LLVMValueRef lt_range_point(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                            LLVMValueRef v);
/* At b in fn's entry: i64, at least every value v (an integer operand of
 * inst) takes over the run, or NULL when not computable there. */
LLVMValueRef lt_range_max(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                          LLVMValueRef inst, LLVMValueRef v);
/* At b in fn's entry: the hull [*lo, *hi) (i64 addresses) of accesses v
 * (inst, addr pairs); 0 when not computable. */
int lt_range_hull(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b, LLVMValueRef *v,
                  size_t n, LLVMValueRef *lo, LLVMValueRef *hi);
/* At b in fn's entry: i64, at least the executions of inst (the product of
 * its loops' trip counts), or NULL when not computable there. */
LLVMValueRef lt_range_count(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                            LLVMValueRef inst);
/* Is call a memcpy, memmove or memset the undo log may save as a block
 * (not volatile, address space 0)? */
int lt_overwrite_block_call(LLVMValueRef call);
/* Does load, in every iteration of loop l, read only bytes that store (a
 * plain store in l too) writes in an earlier iteration of the same run, or
 * in none? Both addresses affine in l with the same step, of the store's
 * size up or down, the load as wide and k >= 1 steps behind: a recurrence
 * x[j] = f(x[j - 1]) (a tridiagonal sweep's c'[j] from c'[j - 1]). The
 * memory the run leaves then holds what the load read. */
int lt_load_behind(const LtInduction *ind, LLVMTargetDataRef td, unsigned l,
                   LLVMValueRef store, LLVMValueRef load);
void lt_overwrite_free(LtOverwrite *o);
/* steprun.c: where a checkpointed step's accesses run (facts of the step) */
/* Does inst run in every iteration of every loop around it, each loop with
 * one way out, and, but for conditions known where the step starts (*from:
 * the block whose lt_step_path_conds they are, -1 for none), every time
 * the step runs? */
int lt_step_always_runs(const LtFacts *f, LLVMValueRef inst, int *from);
/* The conditions under which block b runs, back to block top, as compares
 * of values known where the step starts, into conds (the compare, then
 * (void *)1 when taken on false); 0 when they are not such. */
int lt_step_path_conds(const LtFacts *f, unsigned b, unsigned top, LtVec *conds);
/* Does every read through parameter base read bytes the same run of the
 * step wrote before, by a store of ws ((inst, addr) pairs)? */
int lt_step_write_first(const LtFacts *f, LLVMValueRef base, const LtVec *ws);
/* The step's reads not through base, as (inst, addr) pairs into out; 0
 * when it reads memory otherwise (a call given a pointer). */
int lt_step_other_reads(const LtFacts *f, LLVMValueRef base, LtVec *out);



#endif
