/* plan.h: the cache plan, as data. For every primal value and shadow the
 * reverse pass reads, one record of where it comes from (a constant or
 * argument, the loop counters, recomputation, a re-load, the tape) and
 * why; and the tape's layout: its slots, their scopes (the header or a
 * loop's per-iteration record), offsets, record sizes and alignments.
 * Decided from the analyses (LtFacts) when the reverse pass first asks for
 * a value, then fixed; gen emits what the records say, and the report reads
 * them. Included by lt.h, in layer order; do not include directly. */
#ifndef LT_PLAN_H
#define LT_PLAN_H

/* What a tape slot holds. */
typedef enum {
  LT_SLOT_PRIMAL,    /* a primal value (key: the P value) */
  LT_SLOT_SHADOW,    /* a shadow pointer (key: the P pointer) */
  LT_SLOT_CHOICE,    /* predecessor index (key: the P block) */
  LT_SLOT_EXIT,      /* which return block (key: P) */
  LT_SLOT_LOOPBUF,   /* a loop's cache buffer (key: its counter lt.iv) */
  LT_SLOT_LOOPCOUNT, /* a loop's header executions (key: its counter) */
  LT_SLOT_SUBTAPE,   /* a kept call's tape, in place (key: the P call) */
  LT_SLOT_SUBPTR,    /* a kept call's tape on the heap (key: the P call) */
  LT_SLOT_CUSTOMTAPE,/* a custom derivative's tape (key: the P call) */
  LT_SLOT_UNDOLOG,   /* the undo log (key: P) */
  LT_SLOT_UNDOCOUNT, /* its entries (key: P) */
  LT_SLOT_UNDOBASE,  /* its arena block, or null (key: P) */
  LT_SLOT_CKPT,      /* a checkpointed step's context (key: the P call) */
  LT_SLOT_CKPTTAPE,  /* ... and its tape, or null (gen/ckpt.c) */
  LT_NSLOTKINDS
} LtSlotKind;

/* Where the reverse pass gets a primal value, cheapest first (DESIGN). */
typedef enum {
  LT_SRC_CONST,      /* a constant (or inline asm) */
  LT_SRC_ARG,        /* a parameter: R takes the same arguments */
  LT_SRC_COUNTER,    /* a loop's canonical counter: the reverse iteration */
  LT_SRC_EXIT,       /* the iteration a loop was left in: its trip count */
  LT_SRC_AFFINE,     /* affine in the counters and invariant integers */
  LT_SRC_RELOAD,     /* a load of memory nothing changes afterwards */
  LT_SRC_RELOAD_LOG, /* a load of memory only logged stores change: re-read
                        where the undo log has put it back (undo.c) */
  LT_SRC_RECOMPUTE,  /* a pure operation or scalar math call, from its
                        operands (themselves planned) */
  LT_SRC_TAPE        /* stored by A, read back by R */
} LtSource;

/* Where the reverse pass gets a shadow pointer. */
typedef enum {
  LT_SH_NONE,        /* no shadow: the pointer addresses inactive memory */
  LT_SH_ARG,         /* a dup parameter's shadow argument */
  LT_SH_GEP,         /* the same GEP on the base's shadow */
  LT_SH_CAST,        /* the same cast of the operand's shadow */
  LT_SH_TAPE         /* stored by A, read back by R */
} LtShadowSource;

/* Why a value is taped (LT_SRC_TAPE / LT_SH_TAPE). */
typedef enum {
  LT_WHY_NONE,
  LT_WHY_OVERWRITTEN,  /* a load whose memory may change before R */
  LT_WHY_SPLIT,        /* a load in split mode: the caller may change the
                          memory between the halves */
  LT_WHY_SOME_PATHS,   /* a load that does not run on every path */
  LT_WHY_NOT_PURE,     /* a PHI, a call or another value R cannot redo */
  LT_WHY_DEEP,         /* a recomputation chain longer than the limit */
  LT_WHY_CHEAPER,      /* a pure value whose recomputation would tape more
                          (source.c cheaper_taped) */
  LT_WHY_SHADOW,       /* a shadow made in A (allocation, load, call) */
  LT_NWHY
} LtWhy;

typedef struct LtPlanRec {
  LLVMValueRef v;     /* the P value or pointer */
  int shadow;         /* a shadow's record (sh), else a primal value's */
  LtSource src;
  LtShadowSource sh;
  LtWhy why;
  int scope;          /* innermost loop of v, -1 outside loops */
  int where;          /* -1: made once in R's entry; 0: in each reverse
                         block that uses it (values of loops, values of a
                         path not always taken, re-reads of logged memory) */
  int loop;           /* LT_SRC_COUNTER, LT_SRC_EXIT: the loop */
  int slot;           /* LT_SRC_TAPE / LT_SH_TAPE: the tape slot, else -1 */
} LtPlanRec;

typedef struct LtPlan {
  const LtFacts *f;
  LtMap val;          /* P value -> LtPlanRec * */
  LtMap sha;          /* P pointer -> LtPlanRec * (shadows) */
  LtVec recs;         /* every record, in decision order */
  /* the tape: slots are (kind, key, type, scope, offset) */
  LtVec slot_src, slot_kind, slot_ty, slot_scope;
  unsigned long long *slot_off;
  unsigned long long *rec_size; /* loop id -> bytes of its record */
  unsigned long long tape_size; /* bytes of the header */
  unsigned header_align;        /* the header base's guaranteed alignment */
  LtMap slot_by_kind[LT_NSLOTKINDS]; /* key -> slot + 1 */
  unsigned char *prealloc;      /* loop id -> its cache is allocated once
                                   from the trip counts (gen tells) */
} LtPlan;

/* source.c: where each value comes from */
/* header_align: 16 when the tape header is an alloca, heap or arena block
 * of our own, 1 when someone else places it (a callee's tape in its
 * caller's, the caller's enzyme_tape storage). */
void lt_plan_init(LtPlan *pl, const LtFacts *f, unsigned header_align);
void lt_plan_free(LtPlan *pl);
/* The record of a P value the reverse pass reads (not a constant or
 * argument), decided on the first request and fixed from then on: depth is
 * the length of the recomputation chain asking for it. */
const LtPlanRec *lt_plan_value(LtPlan *pl, LLVMValueRef v, int depth);
/* The record of a P pointer's shadow. */
const LtPlanRec *lt_plan_shadow(LtPlan *pl, LLVMValueRef p);
/* The instruction v runs on every path that returns. */
int lt_plan_every_path(const LtPlan *pl, LLVMValueRef v);
/* Where v is made in R (-1 once in the entry, 0 per block). */
int lt_plan_where(const LtPlan *pl, LLVMValueRef v);
/* p points into a parameter's memory that the caller keeps unchanged
 * between the halves (LtRequest.keep: split mode, callees). */
int lt_plan_kept_param(const LtFacts *f, LLVMValueRef p);
/* A pure operation (arithmetic, casts, compares, GEP, select, vector and
 * aggregate moves) or scalar math the rules know: R may redo it. */
int lt_plan_pure(LLVMValueRef v);
const char *lt_plan_why(LtWhy why);

/* blas.c: what the reverse of a BLAS call reads (roles a, b, c, x, y
 * of LtBlasCall, and LAPACK's pivots p), and which operands A copies, and
 * why (LT_BC_*). */
enum { LT_BR_A, LT_BR_B, LT_BR_C, LT_BR_X, LT_BR_Y, LT_BR_P, LT_BR_N };
enum { LT_BC_WRITES = 1, LT_BC_LATER, LT_BC_STACK, LT_BC_SPLIT };
typedef struct LtBlasNeed {
  LtBlasCall d;
  int op[LT_BR_N];    /* operand of each role, -1 if none */
  int sh[LT_BR_N];    /* the role's memory has a shadow */
  int al, be;         /* alpha, beta are active */
  int res;            /* the result (dot, nrm2, asum) is active */
  int any;            /* R emits something */
  int read[LT_BR_N];  /* R reads the role's primal memory */
  int cache[LT_BR_N]; /* ... from a copy made in A: why (LT_BC_*), or 0 */
  int slot;           /* the call has a record on the tape */
  /* LAPACK: a solve's factor or pivots from the copy in the record of
   * the factorisation right before it (that call), or NULL */
  LLVMValueRef from[LT_BR_N];
} LtBlasNeed;
void lt_plan_blas(const LtFacts *f, LLVMValueRef call, LtBlasNeed *nd);
const char *lt_plan_blas_why(int why);
/* lapack.c: the same for LAPACK calls (lt_plan_blas calls it). What R
 * reads is the memory as the call leaves it (the factor, the pivots, the
 * solution), so A copies it after the call. */
void lt_plan_lapack(const LtFacts *f, LLVMValueRef call, LtBlasNeed *nd);
/* Memory that outlives A: not the stack (but the locals A and R share in
 * combined mode, prep/frame.c); in split mode a parameter the caller
 * keeps. */
int lt_plan_kept_base(const LtFacts *f, LLVMValueRef v);
/* What role r of a LAPACK call holds when R reads it ("the factor"). */
const char *lt_plan_lapack_role(const LtBlasCall *d, int r);

/* layout.c: the tape's slots */
/* The slot for (kind, key), added with type ty on first use. */
unsigned lt_plan_slot(LtPlan *pl, LtSlotKind kind, void *src, LLVMTypeRef ty);
int lt_plan_slot_scope(const LtPlan *pl, unsigned slot); /* loop, -1 header */
/* The alignment the layout guarantees for slot's accesses of type ty:
 * records are packed, so that of its type, at most that of its offset, of
 * its record size and of the base. Valid once every slot exists. */
unsigned lt_plan_slot_align(const LtPlan *pl, unsigned slot, LLVMTypeRef ty);

/* report.c: the plan, told as optimisation remarks (-Rpass-analysis) */
typedef struct LtPlanReport {
  const char *fname;  /* the differentiated function */
  const char *mode;   /* "combined", "split" or "called" */
  LLVMValueRef at;    /* where the function's remark goes */
  int explain;        /* also one remark per taped value saying why */
} LtPlanReport;
void lt_plan_report(const LtPlan *pl, const LtPlanReport *r);

#endif
