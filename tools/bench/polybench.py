#!/usr/bin/env python3
"""polybench.py: gradients of PolyBench/C 4.2.1's floating-point kernels.

Issue 17 measures Leantape on PolyBench: each kernel differentiated with
every array enzyme_dup (scalars enzyme_const), gradient time / primal time
in one binary, and the tape. PolyBench's sources are not in this
repository; give the path of a checkout (the public PolyBench/C 4.2.1
layout: utilities/, linear-algebra/, stencils/, ...):

  python3 tools/bench/polybench.py --polybench DIR [--size MEDIUM]
      [--plugin build/lib/LLVMLeantape.so] [--opt -O2] [--reps 7]
      [--restrict] [--only gemm,lu] [--markdown FILE]

Per kernel this script writes a copy of the kernel's file whose main calls
a harness instead of the kernel (the harness has the kernel's parameter
list, so it sees the arrays' sizes), compiles it with clang-22 and the
plugin, linked with the benchmark's counting allocator (alloc.c), and runs
it. The harness runs primal and gradient in turn --reps times on the same
inputs (restored before each run) and reports the median of the per-round
ratios with their min-max, the heap bytes one gradient holds at its peak
(the tape, the undo log, their arena: a first gradient before the rounds,
with LEANTAPE_ARENA_KEEP=0, so that the arena keeps no chunk after it)
and its allocation calls, and a
check: the objective F = sum of w * (every array after the kernel), its
directional derivative along a fixed direction v by central differences,
against the gradient's <dF/dx, v>; the error is relative to sum |g_i v_i|
(the terms' scale), since the sum itself may cancel. Gram-Schmidt's
inputs (PolyBench's own) are rank-deficient and its check is meaningless.

Enzyme side by side (issue 17 compares with Enzyme v0.0.24, which builds
against LLVM 13 at the most: Debian's llvm-13-dev and clang-13; only its
legacy-pass-manager plugin replaces the calls):

  CLANG=clang-13 python3 tools/bench/polybench.py --polybench DIR \
      --plugin-flags "-flegacy-pass-manager -Xclang -load -Xclang \
      ENZYME_BUILD/Enzyme/ClangEnzyme-13.so" --work /tmp/pb-enzyme

(the primal then comes from clang 13: compare the primals' times too).
On 2026-12-07 here, MEDIUM: Enzyme got trmm, atax and bicg wrong and
did not compile deriche (a float scalar through the variadic call);
Leantape's ratio and heap bytes were at or below Enzyme's on the other 24
after 9d05784 (seidel-2d 1.22-1.30 against 1.21-1.40 in one sitting).

The ratios of kernels whose primal runs in microseconds (durbin,
trisolv, jacobi-1d at MEDIUM) are dominated by the first gradients'
page faults: see the min-max.
"""
import argparse, os, re, subprocess, sys

KERNELS = ["datamining/correlation", "datamining/covariance", "linear-algebra/blas/gemm",
           "linear-algebra/blas/gemver", "linear-algebra/blas/gesummv",
           "linear-algebra/blas/symm", "linear-algebra/blas/syr2k", "linear-algebra/blas/syrk",
           "linear-algebra/blas/trmm", "linear-algebra/kernels/2mm", "linear-algebra/kernels/3mm",
           "linear-algebra/kernels/atax", "linear-algebra/kernels/bicg",
           "linear-algebra/kernels/doitgen", "linear-algebra/kernels/mvt",
           "linear-algebra/solvers/cholesky", "linear-algebra/solvers/durbin",
           "linear-algebra/solvers/gramschmidt", "linear-algebra/solvers/lu",
           "linear-algebra/solvers/ludcmp", "linear-algebra/solvers/trisolv", "medley/deriche",
           "stencils/adi", "stencils/fdtd-2d", "stencils/heat-3d", "stencils/jacobi-1d",
           "stencils/jacobi-2d", "stencils/seidel-2d"]

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def split_params(plist):
    out, depth, cur = [], 0, ""
    for ch in plist:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def harness(src):
    """The kernel file with main's kernel call replaced by lt_harness."""
    m = re.search(r"void\s+(kernel_\w+)\s*\(([^)]*(?:\([^)]*\)[^)]*)*)\)\s*\{", src)
    name, plist = m.group(1), m.group(2)
    decl = []
    for p in split_params(plist):
        p = " ".join(p.split())
        a = re.match(r"DATA_TYPE\s*POLYBENCH_(\d)D\s*\((\w+)\s*,(.*)\)", p)
        if a:
            k, nm = int(a.group(1)), a.group(2)
            dims = [d.strip() for d in a.group(3).split(",")[:k]]
            decl.append(("arr", nm, "*".join("(size_t)(%s)" % d for d in dims)))
        elif p.startswith("int "):
            decl.append(("int", p.split()[-1], None))
        elif p.startswith("DATA_TYPE "):
            decl.append(("flt", p.split()[-1], None))
        else:
            sys.exit("polybench.py: parameter not understood: " + p)
    arrs = [d for d in decl if d[0] == "arr"]
    call = ", ".join(d[1] for d in decl)
    ad = []
    for kind, nm, _ in decl:
        ad.append(nm if kind == "int" else "enzyme_const, " + nm if kind == "flt"
                  else "enzyme_dup, %s, lt_d_%s" % (nm, nm))
    adcall = "__enzyme_autodiff((void *)%s, %s)" % (name, ", ".join(ad))
    L = ['#include "%s/alloc.h"' % HERE, "#include <time.h>",
         "extern int enzyme_dup, enzyme_const;", "void __enzyme_autodiff(void *, ...);",
         "static double lt_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);"
         " return t.tv_sec + 1e-9 * t.tv_nsec; }",
         "static int lt_cmp(const void *a, const void *b) { double x = *(const double *)a,"
         " y = *(const double *)b; return x < y ? -1 : x > y; }",
         "static void lt_harness(%s) {" % plist]
    each = lambda fmt: [fmt.replace("@", nm) for _, nm, _ in arrs]
    for _, nm, b in arrs:
        L.append("  size_t lt_n_%s = %s;" % (nm, b))
        L.append("  DATA_TYPE *lt_x_@ = malloc(lt_n_@ * sizeof(DATA_TYPE)), *lt_d_@ = malloc(lt_n_@"
                 " * sizeof(DATA_TYPE)), *lt_w_@ = malloc(lt_n_@ * sizeof(DATA_TYPE)), *lt_v_@ ="
                 " malloc(lt_n_@ * sizeof(DATA_TYPE));".replace("@", nm))
        L.append("  memcpy(lt_x_@, @, lt_n_@ * sizeof(DATA_TYPE));".replace("@", nm))
        L.append("  for (size_t lt_i = 0; lt_i < lt_n_@; lt_i++) { lt_w_@[lt_i] = 0.5 + (double)"
                 "((lt_i * 7919u) % 101) / 101.0; lt_v_@[lt_i] = -0.5 + (double)((lt_i * 104729u"
                 " + 13) % 97) / 97.0; }".replace("@", nm))
    restore = " ".join(each("memcpy(@, lt_x_@, lt_n_@ * sizeof(DATA_TYPE));"))
    seed = " ".join(each("memcpy(lt_d_@, lt_w_@, lt_n_@ * sizeof(DATA_TYPE));"))
    # the counted gradient first, in a fresh process, the arena keeping
    # no chunk after it (LEANTAPE_ARENA_KEEP=0): its peak is its own tape
    L += ['  setenv("LEANTAPE_ARENA_KEEP", "0", 1);',
          "  %s %s mc.window = 1; mc.on = 1; mc.peak = mc.live = 0; mc.calls = 0; %s; mc.on = 0;"
          % (restore, seed, adcall),
          '  unsetenv("LEANTAPE_ARENA_KEEP");',
          '  int lt_R = getenv("PB_REPS") ? atoi(getenv("PB_REPS")) : 7;',
          "  if (lt_R < 1 || lt_R > 64) lt_R = 7;",
          "  double lt_tp[64], lt_rt[64];",
          "  for (int lt_r = 0; lt_r < lt_R; lt_r++) {",
          "    %s double lt_t0 = lt_now(); %s(%s); lt_tp[lt_r] = lt_now() - lt_t0;"
          % (restore, name, call),
          "    %s %s lt_t0 = lt_now(); %s; lt_rt[lt_r] = (lt_now() - lt_t0) / lt_tp[lt_r];"
          % (restore, seed, adcall),
          "  }",
          "  %s %s %s;" % (restore, seed, adcall),
          "  double lt_gv = 0, lt_ga = 0, lt_F[2], lt_h = 1e-6;"]
    L += each("  for (size_t lt_i = 0; lt_i < lt_n_@; lt_i++) lt_gv += lt_d_@[lt_i] * "
              "lt_v_@[lt_i], lt_ga += fabs(lt_d_@[lt_i] * lt_v_@[lt_i]);")
    L.append("  for (int lt_s = 0; lt_s < 2; lt_s++) { double lt_e = lt_s ? -lt_h : lt_h, lt_f = 0;")
    L += each("    for (size_t lt_i = 0; lt_i < lt_n_@; lt_i++) ((DATA_TYPE *)@)[lt_i] = "
              "lt_x_@[lt_i] + lt_e * lt_v_@[lt_i];")
    L.append("    %s(%s);" % (name, call))
    L += each("    for (size_t lt_i = 0; lt_i < lt_n_@; lt_i++) lt_f += lt_w_@[lt_i] * "
              "((DATA_TYPE *)@)[lt_i];")
    L += ["    lt_F[lt_s] = lt_f; }",
          "  double lt_fd = (lt_F[0] - lt_F[1]) / (2 * lt_h), lt_tps[64];",
          "  memcpy(lt_tps, lt_tp, sizeof lt_tp);",
          "  qsort(lt_tps, lt_R, sizeof(double), lt_cmp); qsort(lt_rt, lt_R, sizeof(double), lt_cmp);",
          '  printf("RESULT %%s %%.2f %%.2f %%.2f %%.6f %%.3f %%ld %%.1e\\n", "%s", lt_rt[lt_R / 2],'
          " lt_rt[0], lt_rt[lt_R - 1], lt_tps[lt_R / 2], mc.peak / 1048576.0, mc.calls,"
          " fabs(lt_fd - lt_gv) / (lt_ga + 1e-300));" % name[7:], "}", ""]
    i = src.index("int main")
    return src[:i] + "\n".join(L) + "\n" + re.sub(r"\b%s\s*\(" % name, "lt_harness (", src[i:], count=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--polybench", required=True, help="PolyBench/C 4.2.1 checkout")
    ap.add_argument("--size", default="MEDIUM")
    ap.add_argument("--plugin", default=os.path.join(REPO, "build/lib/LLVMLeantape.so"))
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--plugin-flags", default="",
                    help="the flags that load the AD plugin, instead of -fpass-plugin=PLUGIN "
                         "(another tool side by side; the compiler: $CLANG)")
    ap.add_argument("--restrict", action="store_true", help="-DPOLYBENCH_USE_RESTRICT")
    ap.add_argument("--only", default="")
    ap.add_argument("--work", default="/tmp/lt-polybench")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    pb, work = os.path.abspath(a.polybench), a.work
    os.makedirs(work, exist_ok=True)
    cc = os.environ.get("CLANG", "clang-22")
    util = os.path.join(pb, "utilities")
    objs = []
    for src, o in ((os.path.join(util, "polybench.c"), "polybench.o"),
                   (os.path.join(HERE, "alloc.c"), "alloc.o")):
        subprocess.run([cc, "-O2", "-c", "-I", util, src, "-o", os.path.join(work, o)], check=True)
        objs.append(os.path.join(work, o))
    only = [s for s in a.only.split(",") if s]
    rows = []
    for k in KERNELS:
        base = os.path.basename(k)
        if only and base not in only and base.replace("-", "_") not in only:
            continue
        d = os.path.join(pb, k)
        out = os.path.join(work, base + ".c")
        with open(os.path.join(d, base + ".c")) as f:
            text = harness(f.read())
        with open(out, "w") as f:
            f.write(text)
        exe = os.path.join(work, base)
        load = a.plugin_flags.split() if a.plugin_flags else ["-fpass-plugin=" + a.plugin]
        cmd = [cc, a.opt, "-I", util, "-I", d, "-D%s_DATASET" % a.size] + load + [
               out] + objs + [
               "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free", "-lm", "-o", exe]
        if a.restrict:
            cmd.insert(1, "-DPOLYBENCH_USE_RESTRICT")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            rows.append((base, "compile error: " + (r.stderr.strip().splitlines() or ["?"])[0]))
            print(rows[-1][0], rows[-1][1], flush=True)
            continue
        r = subprocess.run([exe], capture_output=True, text=True,
                           env=dict(os.environ, PB_REPS=str(a.reps)))
        line = [l for l in r.stdout.splitlines() if l.startswith("RESULT ")]
        if r.returncode or not line:
            rows.append((base, "run failed (exit %d)" % r.returncode))
            print(rows[-1][0], rows[-1][1], flush=True)
            continue
        f = line[0].split()
        rows.append((base, f[2], "%s-%s" % (f[3], f[4]), f[5], f[6], f[7], f[8]))
        print("%-12s grad/primal %6s (%s)  primal %s s  tape %s MB  allocs %s  check %s"
              % rows[-1], flush=True)
    ratios = sorted(float(r[1]) for r in rows if len(r) == 7)
    if ratios:
        med = ratios[len(ratios) // 2] if len(ratios) % 2 else \
            (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2]) / 2
        print("median grad/primal %.2f over %d kernels; above 8: %s" % (
            med, len(ratios), ", ".join(r[0] for r in rows if len(r) == 7 and float(r[1]) > 8)
            or "none"))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("| kernel | grad/primal | min-max | primal s | tape MB | allocs | check |\n")
            f.write("|---|---|---|---|---|---|---|\n")
            for r in rows:
                f.write("| " + " | ".join(r) + (" |" * (7 - len(r))) + " |\n")


if __name__ == "__main__":
    main()
