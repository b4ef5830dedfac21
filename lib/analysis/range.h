/* range.h: the private state of range.c and rangetri.c (interval bounds
 * of addresses over a run of the function, emitted in its entry). */
#ifndef LT_RANGE_H
#define LT_RANGE_H

#include "lt.h"

typedef struct Iv {
  LLVMValueRef lo, hi; /* i64, inclusive */
} Iv;

typedef struct Em {
  const LtFacts *g;
  LLVMValueRef fn;      /* where the bounds are emitted */
  LLVMBuilderRef b;     /* NULL: only check */
  int at;               /* block id of the access */
  int team;             /* a worksharing counter spans the team's space */
  int checked;          /* an overlap test: facts it may check at run time */
  LLVMValueRef holds;   /* ... their conjunction, emitted (i1, or NULL) */
  LtMap lo, hi;         /* memo: P value -> bounds at A's entry */
} Em;

#define k64 lt_rng_k64
#define add lt_rng_add
#define sub lt_rng_sub
#define mul lt_rng_mul
#define trip_max lt_rng_trip_max
#define iv_of lt_rng_iv_of

/* constants and arithmetic in the entry (DRY when only checking) */
LLVMValueRef lt_rng_k64(Em *e, long long v);
LLVMValueRef lt_rng_add(Em *e, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef lt_rng_sub(Em *e, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef lt_rng_mul(Em *e, LLVMValueRef x, LLVMValueRef y);
/* The number of header executions of loop l, at most, at the entry. */
LLVMValueRef lt_rng_trip_max(Em *e, unsigned l, unsigned depth);
/* v's interval over the run (0: not computable there). */
int lt_rng_iv_of(Em *e, LLVMValueRef v, unsigned depth, Iv *out);
/* rangetri.c: r, the intervals' hull of addr, made tighter where addr is
 * affine in the counters of a triangular nest around the access. */
void lt_rng_tighten(Em *e, LLVMValueRef addr, Iv *r);

#endif
