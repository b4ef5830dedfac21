/* callkind.h: what a call in the differentiated code is: its kind and
 * rule (calls.c), OpenMP runtime calls (omp.c), MPI calls (mpi.c), BLAS
 * (blas.c) and LAPACK (lapack.c) calls and their operands' roles.
 * Included by analysis.h, in its place; do not include directly. */
#ifndef LT_ANALYSIS_CALLKIND_H
#define LT_ANALYSIS_CALLKIND_H

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
  LT_CALL_SYNC,       /* an OpenMP barrier or (ticketed) critical section:
                         no derivative, kept in A, mirrored in R (omp.c) */
  LT_CALL_MPI,        /* an MPI communication with a derivative, or one
                         without that activity.c reports (mpi.c) */
  LT_CALL_BLAS,       /* a BLAS routine, with a rule or one that activity.c
                         reports when active (blas.c) */
  LT_CALL_LINK,       /* links or walks nodes of a pointer structure
                         (libstdc++'s red-black tree): done again on the
                         shadows in A and T, no adjoint (calls.c) */
  LT_CALL_UNKNOWN     /* external, no rule */
} LtCallKind;

LtCallKind lt_call_kind(LLVMValueRef call, const LtRule **rule);
/* A call of memcpy or memmove (lt_call_kind's LT_CALL_MEMCPY), told
 * quickly from other calls by its name: for walks over a whole function. */
int lt_is_copy_call(LLVMValueRef call);
/* A masked store or scatter of an integer vector (calls.c): inactive
 * unless the integers are an active value's bits (activity.c refuses). */
int lt_masked_int_store(LLVMValueRef call);
/* A call preprocessing made of an OpenMP parallel region: the outlined
 * function called with (null, null, captures...), a "diff" call whose
 * derivatives run on a team (gen/omp.c). */
int lt_call_is_parallel(LLVMValueRef call);
/* The last branch of an indirect call's dispatcher (prep/indirect.c). */
int lt_call_is_fallback(LLVMValueRef call);
/* The run-time check before such a call: LT_UNKNOWN_CALLEE(active, msg,
 * len) (NULL if gone). */
#define LT_UNKNOWN_CALLEE "leantape.unknown_callee"
LLVMValueRef lt_fallback_check(LLVMValueRef call);
/* A call of std::string's allocation of a character buffer. */
int lt_is_char_alloc(LLVMValueRef call);
/* A call of a LT_CALL_LINK function (by name, without marks). */
int lt_is_link_call(LLVMValueRef call);
/* A complex multiply/divide runtime call (*is_div: 0 multiply, 1 divide)
 * or cabsf on a <2 x float> (*is_div = 2). */
int lt_is_complex_call(LLVMValueRef call, int *is_div);
/* The name contains __enzyme_ (an entry point or a registration). */
int lt_is_enzyme_name(const char *name, size_t len);
/* A call of Enzyme's __enzyme_iter(a, b) hint (integers; calls.c). */
int lt_is_iter_hint(LLVMValueRef call);
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

/* omp.c: OpenMP runtime calls (libomp's __kmpc_*, omp_*) */
typedef enum {
  LT_OMP_NONE,
  LT_OMP_FORK,              /* __kmpc_fork_call: a parallel region */
  LT_OMP_BARRIER,
  LT_OMP_CRITICAL,          /* __kmpc_critical(_with_hint) */
  LT_OMP_END_CRITICAL,
  LT_OMP_REDUCE,            /* __kmpc_reduce_nowait */
  LT_OMP_REDUCE_BARRIER,    /* __kmpc_reduce */
  LT_OMP_END_REDUCE,
  LT_OMP_END_REDUCE_BARRIER,
  LT_OMP_TICKET,            /* lt.omp.critical: a critical section's entry
                               with its ticket (prep/omp.c) */
  LT_OMP_TICKET_END,        /* lt.omp.end_critical */
  LT_OMP_INERT,             /* worksharing bounds, single/master, thread
                               numbers, ...: integers only */
  LT_OMP_UNSUPPORTED        /* a construct Leantape does not differentiate */
} LtOmpKind;
/* What an OpenMP call is; *construct names an unsupported one. */
LtOmpKind lt_omp_kind(LLVMValueRef call, const char **construct);
/* v (through casts) is a thread's first iteration of a worksharing loop,
 * as __kmpc_for_static_init / __kmpc_dispatch_next wrote it: iterations of
 * loops starting there are disjoint across the team's threads. */
int lt_omp_worksharing_start(LLVMValueRef v);
/* The iteration space a worksharing loop's threads share, [*lb, *ub]
 * (inclusive, the logical iterations), for v a lt_omp_worksharing_start:
 * what __kmpc_for_static_init was given in its bound slots, or
 * __kmpc_dispatch_init's lb and ub. 0 when not found. Every iteration a
 * thread runs lies inside (OpenMP's worksharing: the threads divide that
 * space). */
int lt_omp_worksharing_bounds(LLVMValueRef v, LLVMValueRef *lb, LLVMValueRef *ub);

/* mpi.c: MPI calls (the standard's names: OpenMPI and MPICH) */
typedef enum {
  LT_MPI_NONE,
  LT_MPI_INERT,       /* ranks, communicators, timers, barriers: no data */
  LT_MPI_SEND,        /* MPI_Send, Ssend, Rsend, Bsend */
  LT_MPI_RECV,
  LT_MPI_ISEND,
  LT_MPI_IRECV,
  LT_MPI_WAIT,
  LT_MPI_WAITALL,
  LT_MPI_BCAST,
  LT_MPI_REDUCE,
  LT_MPI_ALLREDUCE,
  LT_MPI_SENDRECV,
  LT_MPI_GATHER,
  LT_MPI_SCATTER,
  LT_MPI_ALLGATHER,
  LT_MPI_UNSUPPORTED  /* an MPI call without a derivative rule */
} LtMpiKind;
/* The operand index of each role of a call, or -1. */
typedef struct {
  const char *name;
  LtMpiKind kind;
  int sbuf, rbuf, count, type, peer, tag, comm, status, req, op, root;
  int rcount, rtype, rpeer, rtag; /* the receive side, where it differs */
} LtMpiCall;
typedef enum { LT_MPI_T_DOUBLE, LT_MPI_T_FLOAT, LT_MPI_T_INT, LT_MPI_T_UNKNOWN } LtMpiType;
typedef enum { LT_MPI_OP_SUM, LT_MPI_OP_MAX, LT_MPI_OP_MIN, LT_MPI_OP_OTHER,
               LT_MPI_OP_UNKNOWN } LtMpiOp;
/* What an MPI call is (LT_MPI_NONE: not MPI); *out gets its operands. */
LtMpiKind lt_mpi_call(LLVMValueRef call, LtMpiCall *out);
/* A predefined datatype / reduction handle, in either ABI. */
LtMpiType lt_mpi_type(LLVMValueRef dt);
LtMpiOp lt_mpi_op(LLVMValueRef op);
/* The call moves MPI_DOUBLE or MPI_FLOAT data: it has a derivative. */
int lt_mpi_float(const LtMpiCall *m, LLVMValueRef call);
/* Why the call cannot be differentiated (active: it touches active data),
 * or NULL. */
const char *lt_mpi_check(const LtMpiCall *m, LLVMValueRef call, int active);
/* The call's ABI's MPI_ANY_SOURCE, MPI_STATUS_IGNORE (as an integer), and
 * where MPI_Status keeps MPI_SOURCE (MPI_TAG follows it). */
long long lt_mpi_any_source(const LtMpiCall *m, LLVMValueRef call);
long long lt_mpi_status_ignore(const LtMpiCall *m, LLVMValueRef call);
unsigned lt_mpi_status_source_offset(const LtMpiCall *m, LLVMValueRef call);
/* The receive's source or tag may be a wildcard (MPI_ANY_SOURCE,
 * MPI_ANY_TAG, or a value only known at run time): R takes them from the
 * status A recorded. */
int lt_mpi_recv_wildcard(const LtMpiCall *m, LLVMValueRef call);

/* blas.c: BLAS calls (CBLAS and the Fortran symbols) */
typedef enum {
  LT_BLAS_NONE,
  LT_BLAS_INERT,       /* index searches (i?amax): integers only */
  LT_BLAS_GEMM,
  LT_BLAS_SYMM,
  LT_BLAS_SYRK,
  LT_BLAS_TRMM,
  LT_BLAS_TRSM,
  LT_BLAS_GEMV,
  LT_BLAS_GER,
  LT_BLAS_SYMV,
  LT_BLAS_TRMV,
  LT_BLAS_TRSV,
  LT_BLAS_DOT,
  LT_BLAS_AXPY,
  LT_BLAS_SCAL,
  LT_BLAS_COPY,
  LT_BLAS_SWAP,
  LT_BLAS_NRM2,
  LT_BLAS_ASUM,
  LT_BLAS_POTRF,       /* LAPACK (lapack.c): Cholesky factor, */
  LT_BLAS_POTRS,       /* solve with it, */
  LT_BLAS_GETRF,       /* LU factor with row pivots, */
  LT_BLAS_GETRS,       /* solve with it, */
  LT_BLAS_GESV,        /* both */
  LT_BLAS_UNSUPPORTED  /* a BLAS or LAPACK routine without a rule */
} LtBlasKind;
/* A call decoded as the column-major call it equals: the operand index of
 * each role (-1 if none) and the constant flags. */
typedef struct LtBlasCall {
  const char *name;    /* the routine without precision: "gemm" */
  LtBlasKind kind;
  int nargs, level;
  int ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, x, incx, y, incy;
  int uplo, diag, side;
  int fortran;         /* every argument by reference (dgemm_) */
  int single;          /* float data (sgemm) */
  int tra, trb;        /* op(A), op(B) transpose (column-major) */
  int up, unit;        /* A's upper triangle (column-major), unit diagonal */
  int right;           /* A multiplies from the right (symm, trmm, trsm) */
  int unknown_flag;    /* a flag or layout that is not a constant */
  /* LAPACK (k is nrhs, ta getrs's trans operand, uplo potrf's and
   * potrs's): the pivots and info operands (-1 if none); LAPACKE
   * wrappers (layout first, scalars by value, info returned); row: their
   * layout is row-major (LAPACK calls are not decoded into column-major:
   * their derivatives run in the call's own layout, see gen/lapack.c) */
  int ipiv, info, lapacke, row;
} LtBlasCall;
/* What a BLAS call is (LT_BLAS_NONE: not BLAS); *out gets its roles. */
LtBlasKind lt_blas_call(LLVMValueRef call, LtBlasCall *out);
/* The operands the call writes (up to 2) and reads (up to 5). */
unsigned lt_blas_outputs(const LtBlasCall *d, int *out);
unsigned lt_blas_inputs(const LtBlasCall *d, int *out);
int lt_blas_writes(const LtBlasCall *d, int k);
/* The integer operands a call writes (LAPACK's pivots and info), up to 2. */
unsigned lt_blas_int_outputs(const LtBlasCall *d, int *out);
int lt_blas_is_lapack(LtBlasKind k);

/* lapack.c: the LAPACK routines with rules (Fortran dpotrf_ and LAPACKE
 * wrappers); LT_BLAS_NONE for any other name. */
LtBlasKind lt_lapack_call(LLVMValueRef call, const char *n, size_t len, LtBlasCall *out);

#endif
