/* kernels.c: the benchmark kernels, differentiated with __enzyme_autodiff,
 * and their table in row order. Compiled with clang-22 -O2
 * -fpass-plugin=build/lib/LLVMLeantape.so as one module (fwd.c includes it
 * whole). Each family is a file of tools/bench/kernels/ (shared harness:
 * kernels/harness.h); the ADBench objectives are in adbench.c.
 *
 * Seed 001's suite (written in C), seed 000's in-place add (n = 4096),
 * seed 002's normalize/mag (n = 16000), two kernels whose callees stay
 * calls because they are recursive (tree_sum_4096, hot_pw_100000/10000),
 * and issue 17's loop nests (gemm with a stored product, a Jacobi stencil,
 * a triangular solve, in-place Cholesky and LU, Gram-Schmidt, a triangular
 * product, three chained products).
 * No kernel is opt-in (extra) at present; the mechanism stays.
 * Restrict/plain twins: every kernel with restrict pointers has a `_plain`
 * twin, the same code without restrict (and the plain in-place add a
 * `_restrict` twin); two alias rows call plain kernels with overlapping
 * arrays (correctness of the undo-log path, and its cost).
 *
 * -DBENCH_ONE -DONE_<tag> compiles only the kernel <tag> (its function,
 * wrappers and table entry): run.sh's per-kernel compile-time column.
 * The row order is the order the driver runs them in, which the tape
 * figures depend on (the arena's first chunk takes the size the previous
 * gradient needed). VEC / CACHE: the ratio depends on the machine's
 * vector width (the gradient and the primal vectorise differently) or
 * cache sizes (tapes or arrays near or above them). Helpers called from kernels (mag, the per-element map
 * function) are left to the optimiser unless stated otherwise. */
#include "kernels/harness.h"

#include "kernels/sums.c"
#include "kernels/kron.c"
#include "kernels/sce.c"
#include "kernels/mlp.c"
#include "kernels/gp.c"
#include "kernels/block.c"
#include "kernels/add.c"
#include "kernels/normalize.c"
#include "kernels/tree.c"
#include "kernels/hot_pw.c"
/* issue 17's loop nests (kernels/linloops.c, kernels/factor.c): in the table when run.sh
 * compiles this file (-DBENCH_LINLOOPS), not when
 * test/ReverseMode/tape-same-at-every-level.c does: their tape reports
 * still differ between -O0 and -O2 (an open part of issue 17). */
#if defined(BENCH_LINLOOPS) || defined(ONE_gemm_sq) || defined(ONE_gemm_sq_plain) ||        \
    defined(ONE_jacobi2d) || defined(ONE_jacobi2d_plain) || defined(ONE_trisolv) ||         \
    defined(ONE_trisolv_plain) || defined(ONE_cholesky) || defined(ONE_lu) ||              \
    defined(ONE_gramschmidt) || defined(ONE_trmm) || defined(ONE_mm3)
#define LINLOOPS 1
#include "kernels/linloops.c"
#include "kernels/factor.c"
#include "kernels/chains.c"
#else
#define LINLOOPS 0
#endif

const kernel_t kernels[] = {
#if ALL || defined(ONE_sum)
    ENTRY("sum_1000", TGT_NOTAPE, NSUM, sum, sum, VEC),
#endif
#if ALL || defined(ONE__sum)
    ENTRY("_sum_1000", TGT_NOTAPE, NSUM, sum, _sum, VEC),
#endif
#if ALL || defined(ONE_sum_sin)
    ENTRY("sum_sin_1000", TGT_NOTAPE, NSUM, sum, sum_sin),
#endif
#if ALL || defined(ONE_kron)
    ENTRY("kron_sum", TGT_GENERAL, KNP, kron, kron, VEC),
#endif
#if ALL || defined(ONE_kron_view)
    ENTRY("kron_view_sum", TGT_GENERAL, KNP, kron, kron_view, VEC),
#endif
#if ALL || defined(ONE_naive_sce)
    ENTRY("naive_map_sin_cos_exp", TGT_GENERAL, SC * SC, sce, naive_sce),
#endif
#if ALL || defined(ONE_map_sce)
    ENTRY("map_sin_cos_exp", TGT_GENERAL, SC * SC, sce, map_sce),
#endif
#if ALL || defined(ONE_bcast_sce)
    ENTRY("broadcast_sin_cos_exp", TGT_GENERAL, SC * SC, sce, bcast_sce),
#endif
#if ALL || defined(ONE_mlp)
    ENTRY("simple_mlp", TGT_GENERAL, 2 * MD * MD, mlp, mlp),
#endif
#if ALL || defined(ONE_gp_lml)
    ENTRY("gp_lml", TGT_GENERAL, 3, gp, gp_lml),
#endif
#if ALL || defined(ONE_block)
    ENTRY("large_single_block", TGT_GENERAL, 4, block, block),
#endif
#if ALL || defined(ONE_add)
    /* plain pointers; its restrict twin is the next row */
    ENTRYX("inplace_add_4096", TGT_NOTAPE, 0, 2 * NADD, add, add,
           "inplace_add_4096_restrict", VEC_CACHE),
#endif
#if ALL || defined(ONE_add_restrict)
    ENTRY("inplace_add_4096_restrict", TGT_NOTAPE, 2 * NADD, add, add_restrict,
          VEC_CACHE),
#endif
#if ALL || defined(ONE_add_alias)
    ENTRY("inplace_add_4096_alias", TGT_GENERAL, NADD, add, add_alias, VEC_CACHE),
#endif
#if ALL || defined(ONE_normalize)
    ENTRY("normalize_16000", TGT_NORMALIZE, NN, norm, normalize),
#endif
#if ALL || defined(ONE_normalize_plain)
    ENTRYX("normalize_16000_plain", TGT_NORMALIZE, 0, NN, norm,
           normalize_plain, "normalize_16000"),
#endif
#if ALL || defined(ONE_normalize_inplace)
    ENTRY("normalize_16000_plain_inplace", TGT_GENERAL, NN, norm,
          normalize_inplace),
#endif
#if ALL || defined(ONE_tree)
    ENTRY("tree_sum_4096", TGT_GENERAL, NTREE, tree, tree),
#endif
#if ALL || defined(ONE_hot_pw)
    ENTRY("hot_pw_100000", TGT_GENERAL, NHOT, hot, hot_pw, CACHE),
#endif
#if ALL || defined(ONE_hot_pw4)
    ENTRY("hot_pw_10000", TGT_GENERAL, NHOT / 10, hot, hot_pw4, CACHE),
#endif
#if LINLOOPS && (ALL || defined(ONE_gemm_sq))
    ENTRY("gemm_sq_64", TGT_GENERAL, 2 * GEMM_N * GEMM_N, gemm, gemm_sq, VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_gemm_sq_plain))
    ENTRYX("gemm_sq_64_plain", TGT_GENERAL, 0, 2 * GEMM_N * GEMM_N, gemm, gemm_sq_plain,
           "gemm_sq_64", VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_jacobi2d))
    ENTRY("jacobi2d_64x10", TGT_GENERAL, 2 * JAC_N * JAC_N, jacobi, jacobi2d, VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_jacobi2d_plain))
    ENTRYX("jacobi2d_64x10_plain", TGT_GENERAL, 0, 2 * JAC_N * JAC_N, jacobi,
           jacobi2d_plain, "jacobi2d_64x10", VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_trisolv))
    ENTRY("trisolv_256", TGT_GENERAL, TRI_N * TRI_N + TRI_N, trisolv, trisolv, VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_trisolv_plain))
    ENTRYX("trisolv_256_plain", TGT_GENERAL, 0, TRI_N * TRI_N + TRI_N, trisolv,
           trisolv_plain, "trisolv_256", VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_cholesky))
    ENTRY("cholesky_128_plain", TGT_GENERAL, FAC_N * FAC_N, factor, cholesky),
#endif
#if LINLOOPS && (ALL || defined(ONE_lu))
    ENTRY("lu_128_plain", TGT_GENERAL, FAC_N * FAC_N, factor, lu),
#endif
    /* opt-in (BENCH_EXTRA=1) until 2026-12-01 (~35 s per gradient when
     * mag stayed a call); the plugin now inlines mag_ni (its size policy
     * drops noinline), so they run by default */
#if ALL || defined(ONE_normalize_ni)
    ENTRY("normalize_16000_noinline_mag", TGT_NORMALIZE, NN, norm,
          normalize_ni),
#endif
#if ALL || defined(ONE_normalize_ni_plain)
    ENTRYX("normalize_16000_noinline_mag_plain", TGT_NORMALIZE, 0, NN, norm,
           normalize_ni_plain, "normalize_16000_noinline_mag"),
#endif
    /* issue 17's other in-place shapes (kernels/chains.c), last: the rows
     * before them keep their arena history */
#if LINLOOPS && (ALL || defined(ONE_gramschmidt))
    ENTRY("gramschmidt_96x64_plain", TGT_GENERAL, GS_M * GS_N, gs, gramschmidt),
#endif
#if LINLOOPS && (ALL || defined(ONE_trmm))
    ENTRY("trmm_96x80_plain", TGT_GENERAL, TM_M * TM_M + TM_M * TM_N, tm, trmm, VEC),
#endif
#if LINLOOPS && (ALL || defined(ONE_mm3))
    ENTRY("3mm_48x56x64x72x80_plain", TGT_GENERAL, M3A + M3B + M3C + M3D, m3, mm3, VEC),
#endif
};
const int nkernels = sizeof kernels / sizeof kernels[0];
