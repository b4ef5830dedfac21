#!/usr/bin/env bash
# run.sh: build and run the Leantape benchmark (tools/bench/README.md).
# Builds build/bench/bench (kernels.c and adbench.c through the plugin,
# driver.c and adbench_hand.c without), measures every kernel's compile time
# with and without the plugin (each kernel alone: -DBENCH_ONE -DONE_<tag>),
# runs every kernel and prints the markdown tables (kernels, restrict/plain
# twins, ADBench vs hand-written), then the forward-mode table (fwd.c), the
# OpenMP, MPI and BLAS/LAPACK rows (omp.c, mpi.c, linalg.c), the
# checkpointing rows (ckpt.c, once per tape budget). Then (only when run without arguments)
# the compile-time table: whole sources and generated call graphs of depth D
# (fan-out 2) compiled with and without the plugin, each call graph also
# linked with the driver and measured like a kernel. Extra arguments go to the
# driver, e.g. `--only gp_lml` or `--only a,b` (then only their compile time).
# `--markdown FILE` first: also write the report to FILE (tools/bench/RESULTS.md:
# the header, a summary derived from the tables by summary.py, the tables).
# Every ratio: BENCH_PASSES (default 4) passes, each a process of every
# program in turn, of BENCH_GROUPS (default 4) groups of BENCH_REPS (default 5)
# interleaved rounds (measure.h; at most 32 groups in all). Env: BENCH_COMPILE=0 (skip all compile times),
# LEANTAPE_BUILD_DIR (default build), LEANTAPE_PLUGIN (default
# $LEANTAPE_BUILD_DIR/lib/LLVMLeantape.so: e.g. a copy of the plugin while
# build/ is being rebuilt). Exits 1 if a gradient is wrong.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

BUILD=${LEANTAPE_BUILD_DIR:-build}
PLUGIN=${LEANTAPE_PLUGIN:-$BUILD/lib/LLVMLeantape.so}
OUT="$BUILD/bench"
if [ ! -f "$PLUGIN" ]; then
  [ -z "${LEANTAPE_PLUGIN:-}" ] || { echo "run.sh: no plugin at $PLUGIN" >&2; exit 2; }
  bash tools/setup.sh
fi
mkdir -p "$OUT"
LINK=(-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free -lm)

# --markdown FILE: also write the whole report to FILE as markdown (the
# header, the summary derived from the tables by summary.py, the tables)
md=""
if [ "${1:-}" = --markdown ]; then md=$2; shift 2; fi
if [ -n "$md" ]; then
  body=$(mktemp)
  trap 'rm -f "$body"' EXIT
  set +e
  bash "$0" "$@" | tee "$body"
  status=${PIPESTATUS[0]}
  set -e
  { sed '/^<!-- tables -->$/,$d' "$body"
    python3 tools/bench/summary.py "$body"
    echo
    sed '1,/^<!-- tables -->$/d' "$body"; } > "$md"
  echo "run.sh: wrote $md" >&2
  exit "$status"
fi

for f in driver checks alloc measure; do
  clang-22 -O2 -Wall -Itools/bench -c tools/bench/$f.c -o "$OUT/$f.o"
done
DRIVER=("$OUT/driver.o" "$OUT/checks.o" "$OUT/alloc.o" "$OUT/measure.o")
clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench -DBENCH_LINLOOPS \
  -c tools/bench/kernels.c -o "$OUT/kernels.o"
clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
  -c tools/bench/adbench.c -o "$OUT/adbench.o"
clang-22 -O2 -Wall -Itools/bench -c tools/bench/adbench_hand.c -o "$OUT/adbench_hand.o"
clang-22 "${DRIVER[@]}" "$OUT/kernels.o" "$OUT/adbench.o" "$OUT/adbench_hand.o" \
  -o "$OUT/bench" "${LINK[@]}"

rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain -- lib 2>/dev/null)" ]; then rev="$rev+dirty lib/"; fi
if [ -n "${LEANTAPE_PLUGIN:-}" ]; then
  rev="$rev, plugin file $PLUGIN (md5 $(md5sum "$PLUGIN" | cut -c1-12), $(date -u -r "$PLUGIN" '+%Y-%m-%d %H:%M UTC'))"
fi
# a BENCH_* setting as the driver reads it (measure.c: 1..32 groups, 1..64 rounds)
bench_env() {
  local v=${!1:-$2} max=32
  [ "$1" = BENCH_REPS ] && max=64
  if [ "$v" -ge 1 ] 2>/dev/null && [ "$v" -le $max ]; then echo "$v"; else echo "$2"; fi
}
# passes x groups per pass: at most 32 groups in all (measure.h, MAXG)
passes=$(bench_env BENCH_PASSES 4)
export BENCH_GROUPS=$(bench_env BENCH_GROUPS 4)
if ((passes * BENCH_GROUPS > 32)); then passes=$((32 / BENCH_GROUPS)); fi

# the machine: what the ratios may depend on (the kernel tables name the
# figures that depend on the vector width or the cache sizes)
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
case $flags in
  *" avx512f "*) isa="AVX-512 (512-bit vectors)" ;;
  *" avx2 "*) isa="AVX2 (256-bit vectors)" ;;
  *" sse2 "*) isa="SSE2 (128-bit vectors)" ;;
  *) isa="" ;;
esac
caches=$(for c in /sys/devices/system/cpu/cpu0/cache/index*; do
  [ -f "$c/size" ] && printf '%s L%s %s, ' "$(cat "$c/type" | cut -c1-4 | tr A-Z a-z)" \
    "$(cat "$c/level")" "$(cat "$c/size")"; done | sed 's/, $//')
echo "# Leantape benchmark results"
echo
if [ -n "${LEANTAPE_PLUGIN:-}" ]; then at="source tree at"; else at="plugin at"; fi
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); $at $rev"
echo "- machine: nproc $(nproc), $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//');" \
  "vector ISA: ${isa:-unknown}; caches: ${caches:-unknown}; $(clang-22 --version | head -n1)"
echo "- repetitions: every ratio in $passes passes (separate processes, spread over the run: pass p of every program, then pass p+1)" \
  "of $(bench_env BENCH_GROUPS 4) groups of $(bench_env BENCH_REPS 5)" \
  "interleaved rounds of ~20 ms batches (BENCH_PASSES, BENCH_GROUPS, BENCH_REPS), each group at a stack offset of its own in a page;" \
  "each ratio is that of the fastest batches (each function's least time per call), beside the min-max of the" \
  "same per group; clock: the thread's CPU time (OpenMP, MPI: wall clock); compile times: median of" \
  "${CT_RUNS:-5} wall-clock runs"
echo "- load average (1 min, 5 min, 15 min) at the start: $(cut -d' ' -f1-3 /proc/loadavg);" \
  "during the tables: the line after each"
echo
echo "<!-- tables -->"
# median of N (default 5) wall-clock times (s) of `clang-22 -O2 -c ARGS... -o /dev/null`
ctime() {
  local t=() i s n=${CT_RUNS:-5}
  for ((i = 0; i < n; i++)); do
    s=$(date +%s%N)
    clang-22 -O2 -Iinclude -Itools/bench -c "$@" -o /dev/null
    t+=($(( $(date +%s%N) - s )))
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n "$(( (n + 1) / 2 ))p" | awk '{printf "%.2f", $1 / 1e9}'
}

# ---- per-kernel compile time (the kernel table's last column) --------------
# Each kernel alone (its function, wrappers and table entry: -DBENCH_ONE
# -DONE_<tag>) compiled with and without the plugin; the driver reads the
# file named by BENCH_CTIME.
only=""
[ "${1:-}" = --only ] && only=${2:-}
: > "$OUT/ctime.txt"
if [ "${BENCH_COMPILE:-1}" != 0 ]; then
  while read -r name tag src hidden; do
    if [ -n "$only" ]; then [[ ",$only," == *",$name,"* ]] || continue
    elif [ "$hidden" = 1 ]; then continue; fi
    [ "$tag" != - ] || continue
    echo "$name $(ctime -DBENCH_ONE -DONE_"$tag" "$src")" \
      "$(ctime -DBENCH_ONE -DONE_"$tag" "$src" -fpass-plugin="$PLUGIN")" >> "$OUT/ctime.txt"
  done < <("$OUT/bench" --list)
fi
export BENCH_CTIME="$OUT/ctime.txt"

# ---- build the other programs ---------------------------------------------
# forward mode (fwd.c: kernels.c's kernels under __enzyme_fwddiff)
clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench -Wno-unused-function \
  tools/bench/fwd.c "$OUT/measure.o" -o "$OUT/fwdbench" -lm
progs=(bench fwdbench)
notes=()
if [ $# -eq 0 ]; then
  # OpenMP (omp.c: parallel kernels at 1 and 2 threads, wall clock)
  if [ -f "/usr/lib/llvm-22/lib/clang/22/include/omp.h" ]; then
    clang-22 -O2 -fopenmp -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
      tools/bench/omp.c "$OUT/measure.o" -o "$OUT/ompbench" -lm
    progs+=(ompbench)
  else
    notes+=("OpenMP: not measured (no omp.h for LLVM 22: apt-get install libomp-22-dev)")
  fi
  # MPI (mpi.c: the heat example at 1 and 2 ranks, wall clock)
  if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
    # shellcheck disable=SC2046
    clang-22 -O2 $(mpicc -showme:compile) -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
      tools/bench/mpi.c "$OUT/measure.o" -o "$OUT/mpibench" $(mpicc -showme:link) -lm
    progs+=(mpibench)
  else
    notes+=("MPI: not measured (no mpicc or mpirun: apt-get install libopenmpi-dev openmpi-bin)")
  fi
  # BLAS and LAPACK (linalg.c: library calls vs plain loops, CPU time); any
  # of the paths exists (ls fails when one of several is missing)
  have() { local f; for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
  if have /usr/include/cblas.h /usr/include/*/cblas.h &&
     have /usr/lib/*/libopenblas.so /usr/lib/libopenblas.so; then
    clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
      tools/bench/linalg.c "$OUT/measure.o" -o "$OUT/linalgbench" -lopenblas -lm
    progs+=(linalgbench)
  else
    notes+=("BLAS and LAPACK: not measured (no cblas.h or libopenblas: apt-get install libopenblas-dev)")
  fi
fi

# one program's pass (its tables only in the last pass)
run_prog() {
  case $1 in
    bench) "$OUT/bench" "${args[@]}" ;;
    fwdbench) "$OUT/fwdbench" "${args[@]}" ;;
    ompbench) "$OUT/ompbench" ;;
    mpibench)
      mpirun --allow-run-as-root --oversubscribe -np 1 "$OUT/mpibench" --header &&
        mpirun --allow-run-as-root --oversubscribe -np 2 "$OUT/mpibench" ;;
    linalgbench) OPENBLAS_NUM_THREADS=1 "$OUT/linalgbench" ;;
  esac
}

# ---- the passes (measure.c, rounds_keep): pass p of every program, then
# pass p+1, each keeping its groups in BENCH_RAW; the last pass prints ----
args=("$@")
status=0
export BENCH_RAW="$OUT/rounds.raw" BENCH_PASSES=$passes
: > "$BENCH_RAW"
for ((p = 1; p <= passes; p++)); do
  export BENCH_PASS=$p
  for prog in "${progs[@]}"; do
    if [ "$p" -lt "$passes" ]; then
      run_prog "$prog" > /dev/null 2>&1 || status=1
    else
      [ "$prog" = bench ] || echo
      run_prog "$prog" || status=1
    fi
  done
done
for n in "${notes[@]}"; do echo; echo "$n"; done
unset BENCH_RAW BENCH_PASS BENCH_PASSES

# ---- checkpointing (ckpt.c: one process per tape budget, peak RSS) --------
# ckpt_table [--ode|--diffusion|--memcpy] BUDGETS...: one row per budget; the steps run again and
# the tape memory held come from the run-time report. Budget "plain": the
# same program compiled without -leantape-checkpoint (ckptbench0: the time
# loop differentiated whole, its overwrites in the undo log or the tape),
# whose gradient checksum must agree to 1e-12 (its sums run in another
# order), the others' bit for bit
ckpt_table() {
  local mode=() budget row again held sums="" bin b sum plain=""
  if [ "$1" = --ode ] || [ "$1" = --diffusion ] || [ "$1" = --memcpy ]; then
    mode=("$1")
    shift
  fi
  echo
  "$OUT/ckptbench" "${mode[@]}" --header
  for budget in "$@"; do
    bin="$OUT/ckptbench" b=$budget
    [ "$budget" != plain ] || bin="$OUT/ckptbench0" b=""
    row=$(LEANTAPE_TAPE_BUDGET=$b LEANTAPE_REPORT=1 "$bin" "${mode[@]}" \
      2>"$OUT/ckpt.err") || status=1
    [ "$budget" != plain ] || row=${row/#| none |/| none, not checkpointed (no -leantape-checkpoint) |}
    # one report per gradient (ckpt.c runs CKPT_REPS): the first one's
    again=$(sed -n 's/.*reversed, \([0-9]*\) steps run again.*/\1/p' "$OUT/ckpt.err" | head -n 1)
    held=$(sed -n 's/.*tape memory \([0-9]*\) bytes.*/\1/p' "$OUT/ckpt.err" | head -n 1)
    [ -z "$held" ] || held=$(awk -v b="$held" 'BEGIN { printf "%.2f", b / 1048576 }')
    [ "$budget" != plain ] || again="-"
    row=${row/@AGAIN@/${again:-0 (taped)}}
    echo "${row/@HELD@/${held:--}}"
    sum=$(echo "$row" | awk -F'|' '{gsub(/ /, "", $(NF-1)); print $(NF-1)}')
    if [ "$budget" != plain ]; then
      sums="$sums $sum"
    else
      plain=$sum
    fi
  done
  if [ -n "$sums" ] && [ "$(echo "$sums" | tr ' ' '\n' | sed '/^$/d' | sort -u | wc -l)" != 1 ]; then
    echo
    echo "**The checkpointed gradients differ from the taped one.**"
    status=1
  fi
  # another compilation (its sums in another order): equal to 1e-12
  if [ -n "$plain" ] && [ -n "$sums" ] && ! awk -v a="$plain" -v b="${sums# }" 'BEGIN {
      b += 0; d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-12 * m) }'; then
    echo
    echo "**The gradient without checkpointing differs from the checkpointed ones.**"
    status=1
  fi
}
if [ $# -eq 0 ]; then
  clang-22 -O2 -mllvm -leantape-checkpoint -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
    tools/bench/ckpt.c -o "$OUT/ckptbench" -lm
  clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench tools/bench/ckpt.c \
    -o "$OUT/ckptbench0" -lm
  ckpt_table "" 64M 4M plain
  ckpt_table --diffusion "" 40M 16M plain
  ckpt_table --ode "" 64M 1M plain
  ckpt_table --memcpy plain
fi
[ $# -eq 0 ] && [ "${BENCH_COMPILE:-1}" != 0 ] || exit $status

# ---- compile time of whole sources and call graphs ------------------------
# gen_callgraph D ATTR: f0 .. fD, f_k(x) = g(f_{k+1}(x*a), f_{k+1}(x*b+c))
# with g(u, v) = 0.55 u + 0.45 sin(v) + 0.05 u v, fD(x) = x + 0.5 sin(x);
# cg_k(p) = f0(p[0]) is differentiated. Inlined completely, the graph is a
# tree with 2^D copies of fD. ATTR precedes every f_k (empty, or noinline).
gen_callgraph() {
  local D=$1 attr=$2 name=$3 k
  echo "/* generated by tools/bench/run.sh: call graph of depth $D, fan-out 2 */"
  printf '#include <leantape.h>\n#include <math.h>\n#include "bench.h"\n'
  echo "${attr}double f$D(double x) { return x + 0.5 * sin(x); }"
  for ((k = D - 1; k >= 0; k--)); do
    echo "${attr}double f$k(double x) {"
    echo "  double u = f$((k + 1))(x * 0.93), v = f$((k + 1))(x * 1.05 + 0.0$((k % 10)));"
    echo "  return 0.55 * u + 0.45 * sin(v) + 0.05 * u * v;"
    echo "}"
  done
  cat <<'EOC'
static double P[1], dP[1];
static volatile double sink;
__attribute__((noinline)) double cg_k(const double *p) { return f0(p[0]); }
static double *cg_param(void) { return P; }
static void cg_setup(void) { P[0] = 0.7; }
static void cg_primal(void) { sink = cg_k(P); }
static double cg_loss(void) { return cg_k(P); }
static void cg_grad(void) { __enzyme_autodiff((void *)cg_k, enzyme_dup, P, dP); }
static void cg_grad_fresh(double *g) { dP[0] = 0; cg_grad(); g[0] = dP[0]; }
EOC
  echo "const kernel_t kernels[] = {{\"$name\", TGT_GENERAL, 0, 1, cg_param, cg_setup,"
  echo '  cg_primal, cg_grad, cg_loss, cg_grad_fresh}};'
  echo 'const int nkernels = 1;'
}

# derivatives built for calls that stay calls ("called mode" remarks)
nkept() {
  clang-22 -O2 -Iinclude -Itools/bench -c "$@" -o /dev/null -fpass-plugin="$PLUGIN" \
    -Rpass-analysis=leantape 2>&1 | grep -c "(called mode)" || true
}

echo
echo "Compile time (clang-22 -O2 -c, median of ${CT_RUNS:-5} wall-clock runs) and the call graphs' gradients (grad/primal: the fastest batches (min-max of the groups)):"
echo
echo "| source | functions | leaf copies if inlined | compile s: -O2 | compile s: -O2 + plugin | kept-call derivatives | grad ok | grad/primal fastest (min-max) | primal us | tape bytes | allocs / frees per grad |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
echo "| kernels.c (kernels/*.c) | $(cat tools/bench/kernels/*.c | grep -c "^KERNEL") kernel functions | - |" \
  "$(ctime tools/bench/kernels.c) | $(ctime tools/bench/kernels.c -fpass-plugin="$PLUGIN") |" \
  "$(nkept tools/bench/kernels.c) | (table above) | | | | |"
echo "| adbench.c | $(grep -c "^KERNEL" tools/bench/adbench.c) objective functions | - |" \
  "$(ctime tools/bench/adbench.c) | $(ctime tools/bench/adbench.c -fpass-plugin="$PLUGIN") |" \
  "$(nkept tools/bench/adbench.c) | (tables above) | | | | |"
echo "| adbench_hand.c (hand-written gradients, no plugin) | $(grep -c "^double [a-z0-9]*_hand(" tools/bench/adbench_hand.c) | - |" \
  "$(ctime tools/bench/adbench_hand.c) | - | - | (tables above) | | | | |"
for D in 8 10 12 16 24 32; do
  for v in plain noinline; do
    attr=""; [ $v = noinline ] && attr="__attribute__((noinline)) "
    name="callgraph_${v}_d$D" src="$OUT/callgraph_${v}_d$D.c"
    gen_callgraph "$D" "$attr" "$name" > "$src"
    tn=$(ctime "$src") tp=$(ctime "$src" -fpass-plugin="$PLUGIN")
    run="not run (2^$D leaves) | | | | |"
    if [ "$D" -le 12 ]; then
      clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench -c "$src" -o "$OUT/$name.o"
      clang-22 "${DRIVER[@]}" "$OUT/$name.o" -o "$OUT/$name" "${LINK[@]}"
      row=$(BENCH_GROUPS=$((passes * BENCH_GROUPS)) "$OUT/$name" | grep "^| $name ") || status=1
      run=$(echo "$row" | awk -F'|' '{print $3 "|" $4 "|" $5 "|" $6 "|" $7 "|"}')
    fi
    echo "| $name | $((D + 1)) | $((1 << D)) | $tn | $tp | $(nkept "$src") | $run"
  done
done
echo
echo "Load average (1 min, 5 min, 15 min) at the end of the run: $(cut -d' ' -f1-3 /proc/loadavg)."
exit $status
