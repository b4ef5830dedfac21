/* bench.h: the interface between the differentiated kernels (kernels.c and
 * adbench.c, compiled with the Leantape plugin) and the measuring driver
 * (driver.c, compiled without it). Every kernel keeps its active inputs in
 * one flat parameter vector P[0..nparam) with the shadow dP, so the driver
 * can check any kernel's gradient by central finite differences. */
#ifndef LT_BENCH_H
#define LT_BENCH_H

enum { TGT_GENERAL = 0, TGT_NOTAPE = 1, TGT_NORMALIZE = 2 };

typedef struct {
  const char *name;
  int target;                  /* which issue-4 targets apply (TGT_*) */
  int extra;                   /* run only with BENCH_EXTRA=1 or --only */
  int nparam;                  /* active parameters */
  double *(*param)(void);      /* the parameter vector P */
  void (*setup)(void);         /* deterministic inputs */
  void (*primal)(void);        /* one primal evaluation (timed) */
  void (*grad)(void);          /* one gradient evaluation (timed) */
  double (*loss)(void);        /* scalar objective at the current P (FD) */
  void (*grad_fresh)(double *g); /* d loss / d P from zeroed shadows */
  /* optional (zero when absent) */
  const char *tag;             /* source tag: -DBENCH_ONE -DONE_<tag> compiles
                                  only this kernel (compile-time column) */
  const char *src;             /* its source file (__FILE__) */
  const char *twin;            /* a _plain kernel: its restrict twin's name */
  void (*hand)(void);          /* hand-written gradient (timed) */
  void (*hand_fresh)(double *g); /* its d loss / d P */
  const int *fdidx;            /* coordinates for the FD check (else 4) */
  int nfd;
  const char *machine;         /* what of the machine its figures depend on
                                  (vector width, cache size), for the table */
} kernel_t;

extern const kernel_t kernels[];
extern const int nkernels;
/* adbench.c's table (absent from the one-kernel call-graph benches) */
extern const kernel_t adbench_kernels[] __attribute__((weak));
extern const int nadbench __attribute__((weak));

#endif
