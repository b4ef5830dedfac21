/* driver.h: the parts of the benchmark driver (driver.c: rounds and
 * tables; checks.c: gradient checks, RSS processes, the kernel lookup). */
#ifndef LT_BENCH_DRIVER_H
#define LT_BENCH_DRIVER_H
#include "bench.h"

#define HAND_TOL 1e-6

/* kernels.c's table, then adbench.c's (weak: absent in the call-graph
 * benches) */
int nall(void);
const kernel_t *kat(int i);
const kernel_t *find(const char *name);

int check_grad(const kernel_t *k, const double *g, double *worst);
int check_hand(const kernel_t *k, const double *g, const double *gh,
               double *efd, double *efdh, double *evs);
long rss_child(const char *self, const char *name, const char *mode, long K,
               double *per_call);
int rss_mode(const char *name, const char *mode, long K);

#endif
