/* tangent.h: state shared by tangent.c, tanval.c, fwdinst.c, fwdmem.c,
 * fwdcall.c and fwdshadow.c (forward mode).
 * Included by gen.h. */
#ifndef LT_TANGENT_H
#define LT_TANGENT_H

/* The builder of one tangent function T (width W): P's clone with, for
 * every varied value, its tangent, and for every shadowed pointer, its
 * shadow. Tangents of scalar floats are a T (W = 1) or a <W x T>; of other
 * values (aggregates, float vectors, integers that move float bits) a T
 * or a [W x T]; shadows a ptr or a [W x ptr]. */
typedef struct LtTg {
  LtGen *g;            /* P, its CFG and activity */
  LtCtx *c;
  unsigned W;
  LLVMValueRef T;
  LtMap vm;            /* P value -> T value */
  LtMap tan;           /* P value -> its tangent in T */
  LtMap sh;            /* P pointer -> its shadow in T */
  LtMap kept;          /* P call -> LtDeriv of the callee's tangent function */
  LtMap phis;          /* P PHI -> its tangent or shadow PHI in T */
  unsigned char *scratch; /* enzyme_const parameter -> a tangent of T's own
                             (gen/scratchshadow.c), or NULL */
  LLVMBuilderRef b;    /* after the clone of the instruction at hand */
  LLVMValueRef sink;   /* scratch for writes through null shadows */
  int failed;
} LtTg;

/* tanval.c */
LLVMValueRef lt_tg_val(LtTg *t, LLVMValueRef v);     /* P value in T */
LLVMTypeRef lt_tg_type(LtTg *t, LLVMTypeRef ty);     /* tangent type */
/* The tangent of v in T (zero when v does not vary). */
LLVMValueRef lt_tg_tan(LtTg *t, LLVMValueRef v);
/* Lane k of a tangent or shadow x of a P value of type ty. */
LLVMValueRef lt_tg_lane(LtTg *t, LLVMValueRef x, LLVMTypeRef ty, unsigned k);
/* A tangent or shadow of a value of type ty from W lanes. */
LLVMValueRef lt_tg_join(LtTg *t, LLVMValueRef *lanes, LLVMTypeRef ty);
/* The shadow of a P pointer (null lanes when it has none). */
LLVMValueRef lt_tg_shadow(LtTg *t, LLVMValueRef p);

/* fwdinst.c: the tangent (or shadow, or memory effect) of one instruction,
 * at t->b; 0 on success. */
int lt_fwdinst(LtTg *t, LLVMValueRef inst);
/* Does v vary (a non-constant with a tangent)? */
int lt_fwd_varied(LtTg *t, LLVMValueRef v);
/* Does pointer v have a shadow? */
int lt_fwd_shadowed(LtTg *t, LLVMValueRef v);
/* v's tangent in a form: lane < 0, the whole <W x T> of a scalar float;
 * lane k >= 0, the k-th tangent. Zero when v does not vary. */
LLVMValueRef lt_fwd_tang(LtTg *t, LLVMValueRef v, int lane);
/* Lane k of pointer p's shadow. */
LLVMValueRef lt_fwd_shadow_lane(LtTg *t, LLVMValueRef p, unsigned k);
/* The tangent of value instruction i into t->tan (is_rule: a math call,
 * dx its partials); -1 when it has no formula. */
int lt_fwd_value_tangent(LtTg *t, LLVMValueRef i, LLVMValueRef *dx, int is_rule);
/* The tangent of a complex multiply (is_div 0) or divide runtime call. */
LLVMValueRef lt_fwd_complex_tangent(LtTg *t, LLVMValueRef i, int is_div);

/* fwdmem.c: the tangents of memory operations, at t->b; 0 on success. */
int lt_fwd_load(LtTg *t, LLVMValueRef i);
int lt_fwd_store(LtTg *t, LLVMValueRef i);
/* atomicrmw fadd/fsub/xchg on active memory */
int lt_fwd_atomicrmw(LtTg *t, LLVMValueRef i);
/* memcpy/memmove (kind LT_CALL_MEMCPY) or memset */
int lt_fwd_memcall(LtTg *t, LLVMValueRef i, LtCallKind kind);
/* an alloca or an allocator call: zeroed shadows */
int lt_fwd_alloc(LtTg *t, LLVMValueRef i);
int lt_fwd_free(LtTg *t, LLVMValueRef i);

/* fwdcall.c: the tangent of a call, at t->b; 0 on success. */
int lt_fwd_call(LtTg *t, LLVMValueRef i);

/* fwdshadow.c: the shadow of a pointer or a pointer word, at t->b. */
int lt_fwd_pointer(LtTg *t, LLVMValueRef i);
int lt_fwd_word(LtTg *t, LLVMValueRef i);

/* blasfwd.c: the tangent of a BLAS call (BLAS calls before or after
 * the primal call's clone). */
int lt_blas_tangent(LtTg *t, LLVMValueRef call);
/* lapackfwd.c: the tangent of a LAPACK call (after the primal call) */
int lt_lapack_tangent(LtTg *t, LLVMValueRef call, const LtBlasCall *d);

/* mpi.c: the tangent communication of an MPI call, at t->b. */
int lt_mpi_tangent(LtTg *t, LLVMValueRef call);
int lt_mpicoll_tangent(LtTg *t, LLVMValueRef call);
/* Lane k of the shadow of call's operand r (null when it has none). */
LLVMValueRef lt_mpi_tshadow(LtTg *t, LLVMValueRef call, int r, unsigned k);

#endif
