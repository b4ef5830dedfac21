#!/usr/bin/env bash
# Random differential tester for Leantape (issue 3, item 4).
#
#   bash tools/fuzz/run.sh [-n COUNT] [-s START_SEED] [-O "LEVELS"] [-g "GEN_ARGS"] [-k] [-P] [-E] [-T] [-X]
#
# For each seed START_SEED .. START_SEED+COUNT-1: generate a program with
# tools/fuzz/gen.py (GEN_ARGS are passed on, e.g. -g --no-loops, -g --pointers,
# -g "--pointers --no-loops", -g --calls, -g "--cxx --calls", -g --alias,
# -g "--alias --pointers", -g --fwd, -g "--fwd --cxx --calls"), compile it
# with clang-22 -O$L
# -fpass-plugin=build/lib/LLVMLeantape.so for each level
# in LEVELS (default "0 2"), run it, and report per seed/level (with --cxx
# in GEN_ARGS the program is prog.cpp, compiled with clang++-22 -std=c++17
# plus the flags of its "fuzz-cxxflags:" line, -fexceptions or
# -fno-exceptions, chosen per seed; --eigen and --structvec imply --cxx):
#   PASS   gradients agree with central finite differences
#   SKIP   the plugin rejected the program cleanly ("error: leantape: ...
#          not supported"), e.g. loops before loop support lands
#   UNSTABLE  the finite difference itself is unstable at the sample point (a
#          data branch flips within the FD step): inconclusive, not a failure
#   FAIL   gradient mismatch, crash (Stack dump / PLEASE submit), any other
#          compile error, runtime crash or timeout
# With --alias in GEN_ARGS (combines with the other options) main passes x
# and y as overlapping views of one buffer (y == x, y = x + k, x = y + k
# with 0 < k < N, or adjacent k = N, per seed; see the "--alias:" comment
# in the program), the shadows dx, dy with the same layout, and the
# gradient is checked per buffer element: a MISMATCH names it as
# dbuf[i]=dx[j]=dy[k] (the x and y elements it is).
# With --split in GEN_ARGS (C reverse mode; combines with --pointers,
# --calls, --alias, --no-loops) the __enzyme_autodiff call becomes
# __enzyme_augmentfwd then __enzyme_reverse with the same arguments.
# With --fwd in GEN_ARGS (combines with every other option) main checks
# forward mode instead of reverse mode: one __enzyme_fwddiff call along W
# seed-chosen directions of the active scalars (x, y or the --alias buffer,
# s, sp->w; W = 1, 2 or 4 with enzyme_width, the shadows as W pointers
# (enzyme_dup) or one pointer and a stride (enzyme_dupv, enzyme_dupnoneedv)
# into a buffer of W padded lanes; see the "--fwd:" comment in the
# program), out[] as enzyme_dupnoneed or enzyme_dup, sometimes
# enzyme_primal_return; each lane is compared with the central difference
# of f's outputs along its direction. A MISMATCH names the lane ("lane k",
# with W > 1) and the tangent: dret (of f's result), dx[i], dy[i] or
# dbuf[i] (x and y as f leaves them), dout[i]; "MISMATCH primal ..." when
# the call's own results (x, y, out with enzyme_dup, the primal_return
# value) differ from f's, "(padding) was written" when tangent memory
# between the lanes changed. With --calls, custom-gradient helpers also get
# a registered forward derivative (__enzyme_register_derivative_<name>),
# except sometimes (see the "--fwd:" comment before f).
# With --omp in GEN_ARGS (combines with every option but --no-loops) some
# loops of f are OpenMP worksharing loops (parallel for, or parallel
# regions of omp for loops; schedules, collapse, reductions, critical,
# atomic, single, master, barrier; see tools/fuzz/ltfuzz/omp.py), compiled
# with $FUZZ_OPENMP and run with the caller's OMP_NUM_THREADS, e.g.
#   OMP_NUM_THREADS=2 bash tools/fuzz/run.sh -n 200 -O "0 1 2 3" -g --omp
# With --omp --alias, main passes x and y overlapping (as --alias does)
# and f's parallel loops stay race-free under that layout: a loop writing
# x or y reads the elements the other view shares with them only as the
# iteration's own element (y == x: the in-place update x[i] = g(y[i])),
# and where y = x + k (or x = y + k) some loops write only the lower
# view's first k elements while reading all of the upper one. Regions over
# x and y then take the derivative that assumes nothing where they overlap
# (and the one for arrays apart where they do not, k = N), chosen by the
# plugin's run-time test (lib/gen/ompcheck.c). Without --pointers,
# --calls, --cxx or --eigen (whose parallel loops never write x or y) f
# depends on the layout; the programs of --omp alone are unchanged.
# With --entry in GEN_ARGS (C only; combines with --split, --fwd and the
# shapes of f) main chooses the function it differentiates by data: f or
# f_alt (same type, another derivative) through a ternary in the call, a
# function-pointer variable, a constant table, or an if/else of two calls
# that -O2 merges (see tools/fuzz/ltfuzz/entry.py); f is always chosen at
# run time, so f_alt's derivative in its place is a MISMATCH. f is the
# same program as without --entry.
# With --kernels in GEN_ARGS (combines with every option) f gets loop
# kernels over plain pointers into x, y (which overlap with --alias) and
# its local arrays: the accumulate form C[i] = 0; C[i] += A[i][k] * B[k]
# then a nonlinear use of C, and loops that overwrite an array read before
# and after (guarded by a flag that -O2 unswitches, by data or by the
# counter), whose old values the reverse pass needs (tape or undo log);
# see tools/fuzz/ltfuzz/kernels.py. With --inplace (implies --kernels)
# the kernels also get in-place numerical shapes over small matrices seen
# through plain pointers (double *, double (*)[C]): modified Gram-Schmidt
# (a column's norm, sqrt, the quotient written to Q or back into the
# column, projections of the later columns) and PolyBench adi's
# tridiagonal sweeps over a few time steps, with literal or active
# coefficients; see tools/fuzz/ltfuzz/inplace.py. The programs of
# --kernels without it are unchanged.
# With --constwork in GEN_ARGS (implies --pointers; reverse mode, not with
# --split, --omp, --mpi or the checkpointed time loops) f first stores
# values made from x and y in c, its enzyme_const input, which its leaves
# then read: a state or work array passed enzyme_const, which the gradient
# gives a shadow of its own (lib/analysis/scratch.c); see
# tools/fuzz/ltfuzz/constwork.py.
# With --retarg in GEN_ARGS (C reverse mode: not with --fwd, --cxx,
# --eigen or --omp) f calls registered functions that return one of their
# arguments (an __enzyme_inactivefn stop-gradient, a custom gradient
# a * dret, an inactive pointer pick); main's finite differences run f_fd,
# a copy of f where those calls are what their registrations say (values
# frozen at the base point, v0 + a (v - v0)); see ltfuzz/retarg.py.
# With --mpi in GEN_ARGS (C reverse mode; combines with --calls, --kernels,
# --inplace, --stencil, --no-loops, and -P) f is an MPI program: each rank
# owns its own x, y and s, and runs f's statements (those of the seed
# without --mpi) with communication blocks between them: halo exchanges
# by MPI_Sendrecv (periodic or MPI_PROC_NULL at the ends) or
# MPI_Isend/MPI_Irecv with MPI_Wait/MPI_Waitall, MPI_Allreduce and
# MPI_Reduce + MPI_Bcast (sum, max, min), MPI_Bcast of the root's values,
# MPI_Gather/MPI_Allgather/MPI_Scatter, rings of blocking MPI_Send/Ssend
# and MPI_Recv (sometimes from MPI_ANY_SOURCE or with MPI_ANY_TAG), and time
# loops of a stencil whose halos come from the neighbours; f's result is
# its local sum, or that after an MPI_Allreduce or MPI_Reduce (see
# tools/fuzz/ltfuzz/mpi.py). Every rank differentiates f; the check is
# against central differences of J = the sum over the ranks of f's results
# in every coordinate of every rank, and rank 0 prints the MISMATCH lines.
# Programs with a fuzz-mpi line are compiled with $(mpicc -showme:compile)
# and linked with $(mpicc -showme:link) (MPICC, default mpicc) and run with
# $MPIRUN (default mpirun) --allow-run-as-root --oversubscribe
# -np $FUZZ_MPI_RANKS (default 2), each run in a session directory of its
# own, under the same timeout; Open MPI 4's exit race ("exiting
# improperly" after every rank finalized, see test/Inputs/mpirun.sh) takes
# the result from rank 0's summary line. With -P, the sanitizer run is
# under mpirun too, with ASan's leak check off (Open MPI's own leaks).
#   bash tools/fuzz/run.sh -n 40 -s 1 -O "0 1 2 3" -g --mpi
# Failing programs are kept in build/fuzz-failures/seed-N[-ARGS].c or .cpp
# (ARGS: the generator args, e.g. -noloops, -pointers, -alias) next to
# seed-N[-ARGS].txt with the exact generator command (all its args), the
# reproduce commands and the result lines. -P checks the generator instead
# of the plugin: each program is made with gen.py --primal-only (no
# __enzyme_autodiff call), compiled without the plugin at -O0 with
# -fsanitize=address,undefined (C++: clang++-22 -std=c++17 and the
# program's fuzz-cxxflags) and run; FAIL on any sanitizer report, compile
# error or crash (no plugin needed); with --fwd also when main's primal
# checks fail without the plugin (a generator bug).
# -E compiles with the flags Enzyme's users build with, after the program's
# own: -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize
# -fno-exceptions (default: the levels' own vectorisation); the failure
# files then end in -E.
# -T runs the programs under ThreadSanitizer (for -g --omp): each level is
# compiled with -fsanitize=thread -g besides, and run with the OpenMP
# runtime's Archer tool (OMP_TOOL_LIBRARIES=$ARCHER, default LLVM 22's
# libarcher.so, which tells TSan about OpenMP's synchronisation); a data
# race report is a FAIL ("race: " and the report's SUMMARY line, which
# names the frame: the program's or the plugin's generated code, or
# libomp's own), besides the gradient check; the failure files end in -T.
# TSAN_OPTIONS is the caller's, with ignore_noninstrumented_modules=1
# added. Needs clang's TSan runtime (libclang-rt-22-dev).
# Ends with "fuzz: N passed, N failed, N skipped, N unstable"; exit status 1
# on any failure (and on any SKIP with -S). -k keeps the temp dir. -j JOBS
# runs seeds in parallel (default 1). Environment: LEANTAPE_BUILD_DIR (default
# build; also holds fuzz-tmp and fuzz-failures), LEANTAPE_PLUGIN (default
# $LEANTAPE_BUILD_DIR/lib/LLVMLeantape.so, e.g. a copy while lib/ is being
# rebuilt), CLANG (default clang-22), CLANGXX (default clang++-22), SANCC /
# SANCXX (compilers for -P, default $CLANG / $CLANGXX; clang-22 needs
# libclang-rt-22-dev), FUZZ_TIMEOUT seconds per run (default 20),
# FUZZ_COMPILE_TIMEOUT seconds per compile with the plugin (default 300; past
# it: FAIL ... compile timeout), FUZZ_OPENMP (the OpenMP flags of -g --omp programs, default -fopenmp; they
# run with the caller's OMP_NUM_THREADS), FUZZ_PLUGIN_FLAGS (more flags for
# the compiles with the plugin, e.g. "-mllvm -leantape-outline-time-loops").
# With --capped in GEN_ARGS every top-level statement of f is a loop capped
# at run time, for (size_t i = 0; i < min(n, cap); i++), over affine
# accesses (tools/fuzz/ltfuzz/capped.py): umin trip counts, versioned
# plain-pointer gradients; combine with --alias.
# With --stencil in GEN_ARGS f gets time-stepped stencils over views of x, y
# and the local arrays, the new state computed into a scratch array and
# copied back (upwards, downwards) or two arrays updated from each other
# (tools/fuzz/ltfuzz/stencil.py): the undo log's blocks
# (lib/gen/undoblock.c); combine with --alias, --timeloop, --kernels.
# With --scratch in GEN_ARGS (and --timeloop or --timeloop-while) each time
# step begins with a stencil into a scratch array copied back into x: the
# scratch written before it is read (not in the snapshots), read first,
# partly written, beside a second scratch row, or y itself (with --alias
# overlapping x: the run-time test keeps it); half the programs keep at
# most two random statements (tools/fuzz/ltfuzz/scratch.py).
# With --gather in GEN_ARGS f gets one to three stencil loops without math
# calls over views of x, y and local arrays (offsets from -3..3 with gaps,
# repeats or one alone; strides 1 and 2; up or down; trip counts 0-3 from
# n; swept into another array, time-stepped, in place, into an
# accumulator, or 2-D rows of a small matrix; sometimes x and y restrict):
# the reverse loops whose neighbouring accumulations lib/gen/gather.c
# carries in registers (tools/fuzz/ltfuzz/gather.py); combine with --alias.
# With --diffuse in GEN_ARGS f gets double-buffered 2-D time loops over R x C
# grids with a run-time row length (C = n - K), the buffers (malloc'd, two
# halves of a local array, or one updated in place) swapped through
# pointers after each step, a nonlinear diffusion coefficient
# (tools/fuzz/ltfuzz/diffuse.py): tape scopes (lib/gen/scopes.c), gather
# after LICM, loops copied without the undo log's calls (lib/gen/unswitch.c);
# combine with --alias, --pointers, -X.
# With --timeloop in GEN_ARGS f's statements run in a time loop of 2-6 steps
# (tools/fuzz/ltfuzz/timeloop.py), compiled with -mllvm -leantape-checkpoint
# and run with LEANTAPE_TAPE_BUDGET=1: checkpointed, with 1-4 snapshot slots
# (LEANTAPE_SNAPSHOTS, 1 + seed mod 4: with more than one the binomial
# schedule cuts the steps, the forward sweep keeping its first states). With
# --timeloop-while (tools/fuzz/ltfuzz/timewhile.py) the time loop is a while
# loop whose exit depends on an active value (2-8 steps): checkpointed
# online, the same way. With --steps-var (implies --timeloop) the step count
# is n - N + TT, opaque to the optimiser: from -O1 on a constant TT is
# unrolled before the plugin runs, so only this keeps optimised time loops
# checkpointed (with --scratch about half of them: steps writing affine
# ranges), and their reversal runs the step's taped run without its dead
# stores (lib/gen/ckptdead.c). --grid (implies --steps-var) starts each step
# with a 2-D sweep of x as a grid of run-time size, in place or through a
# scratch grid: the column loop under its guard inside the row loop
# (lib/analysis/steprun.c); with --scratch about a third are checkpointed.
# --swap (implies --grid) makes that sweep go from one local buffer into
# another, the two swapped through pointers after each step: snapshots
# that leave out the buffer a step writes first (gen/snapshot.c).
# With -X the pass runs after the optimiser, as for users who run opt on
# IR clang has already optimised: each level's program is compiled to IR by
# clang -O$L without the plugin (-O0 without optnone), then
# opt-22 -load-pass-plugin=... -passes=leantape, then linked (vectorised
# loops, reductions, SLP's lanes, everything the pipeline left). Not with
# --timeloop (no -leantape-checkpoint there).
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${LEANTAPE_BUILD_DIR:-build}
case $build in /*) ;; *) build="$repo/$build" ;; esac
plugin=${LEANTAPE_PLUGIN:-$build/lib/LLVMLeantape.so}
clang=${CLANG:-clang-22}
clangxx=${CLANGXX:-clang++-22}
tmo=${FUZZ_TIMEOUT:-20}
# a compile (clang with the plugin, or opt with it) taking longer than this
# is a failure, "compile timeout" (the plugin's analyses once took minutes)
ctmo=${FUZZ_COMPILE_TIMEOUT:-300}

count=20 start=1 levels="0 2" genargs="" keep=0 jobs=1 strict=0 primal=0 enzflags="" tsan=0
after=0
optbin=${OPT:-opt-22}
while getopts "n:s:O:g:kj:SPETXh" opt; do
  case $opt in
    n) count=$OPTARG ;;
    s) start=$OPTARG ;;
    O) levels=$OPTARG ;;
    g) genargs=$OPTARG ;;
    k) keep=1 ;;
    j) jobs=$OPTARG ;;
    S) strict=1 ;; # a clean rejection (SKIP) counts as a failure
    P) primal=1 ;; # sanitizer check of the generated primal programs
    E) enzflags="-ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -fno-exceptions" ;;
    T) tsan=1 ;; # ThreadSanitizer with Archer: a data race is a failure
    X) after=1 ;; # the pass after the optimiser, through opt
    *) sed -n "2,$(($(grep -n '^set -u' "$0" | cut -d: -f1) - 1))p" "$0"; exit 2 ;;
  esac
done

# --cxx: C++ programs (prog.cpp, clang++ -std=c++17)
cxx=0 ext=c
case " $genargs " in *" --cxx "* | *" --eigen "* | *" --structvec "*) cxx=1 ext=cpp ;; esac
# --mpi: programs with a fuzz-mpi line get mpicc's flags and run under mpirun
mpicc=${MPICC:-mpicc}
mpirun=${MPIRUN:-mpirun}
ranks=${FUZZ_MPI_RANKS:-2}
mpi_cflags="" mpi_libs=""
case " $genargs " in
  *" --mpi "*)
    if ! mpi_cflags=$("$mpicc" -showme:compile 2>/dev/null) ||
       ! mpi_libs=$("$mpicc" -showme:link 2>/dev/null) || ! command -v "$mpirun" >/dev/null; then
      echo "fuzz: --mpi needs Open MPI's $mpicc (-showme) and $mpirun (set MPICC, MPIRUN)" >&2
      exit 2
    fi ;;
esac
sancc=${SANCC:-$clang}
if [ "$cxx" = 1 ]; then
  clang=$clangxx
  sancc=${SANCXX:-$clangxx}
fi
if [ "$primal" = 1 ]; then
  levels=asan
elif [ ! -f "$plugin" ]; then
  echo "fuzz: plugin not found: $plugin (build it first)" >&2
  exit 2
fi
command -v "$clang" >/dev/null || { echo "fuzz: $clang not found" >&2; exit 2; }
if [ "$primal" = 1 ]; then
  echo 'int main(void) { return 0; }' >"${TMPDIR:-/tmp}/fuzz-san-$$.$ext"
  if ! "$sancc" -fsanitize=address,undefined "${TMPDIR:-/tmp}/fuzz-san-$$.$ext" \
       -o "${TMPDIR:-/tmp}/fuzz-san-$$" >/dev/null 2>&1; then
    rm -f "${TMPDIR:-/tmp}/fuzz-san-$$"*
    echo "fuzz: $sancc cannot link -fsanitize=address,undefined (install" \
      "libclang-rt-22-dev, or set SANCC=gcc)" >&2
    exit 2
  fi
  rm -f "${TMPDIR:-/tmp}/fuzz-san-$$"*
fi

mkdir -p "$build/fuzz-tmp"
tmp=$(mktemp -d "$build/fuzz-tmp/run.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$tmp"' EXIT
faildir="$build/fuzz-failures"
# file name suffix from the generator args: --no-loops -> -noloops,
# --pointers -> -pointers, --max-depth 2 -> -maxdepth-2
suffix=""
for a in $genargs; do
  a=$(printf '%s' "$a" | tr -d -- '-' | tr -c 'A-Za-z0-9_\n' '_')
  [ -n "$a" ] && suffix="$suffix-$a"
done
[ "$primal" = 1 ] && suffix="$suffix-primal"
[ -n "$enzflags" ] && suffix="$suffix-E"
[ "$tsan" = 1 ] && suffix="$suffix-T"
[ "$after" = 1 ] && suffix="$suffix-X"
archer=${ARCHER:-/usr/lib/llvm-22/lib/libarcher.so}
tsanflags=""
if [ "$tsan" = 1 ]; then
  tsanflags="-fsanitize=thread -g"
  [ -f "$archer" ] || { echo "fuzz: -T: no Archer library $archer (set ARCHER)" >&2; exit 2; }
fi

# the compiler flags of a program: -std=c++17 and its fuzz-cxxflags for C++,
# then -E's
prog_flags() {
  # --omp programs (their fuzz-openmp line): $FUZZ_OPENMP, default -fopenmp
  ! grep -q '^/\* fuzz-openmp' "$1" 2>/dev/null || printf '%s ' "${FUZZ_OPENMP:--fopenmp}"
  # --mpi programs (their fuzz-mpi line): mpicc's compile flags
  ! is_mpi "$1" || printf '%s ' "$mpi_cflags"
  if [ "$cxx" = 1 ]; then
    printf '%s' "-std=c++17 $(sed -n 's|^/\* fuzz-cxxflags: \(.*\) \*/$|\1|p' "$1" | head -1)"
    [ -z "$enzflags" ] || printf ' %s' "$enzflags"
  else
    printf '%s' "$enzflags"
  fi
}

# the flags the link of -X's optimised bitcode needs: --omp programs' OpenMP
# flags (the runtime library), as prog_flags gives them to the compile
link_flags() {
  ! grep -q '^/\* fuzz-openmp' "$1" 2>/dev/null || printf '%s ' "${FUZZ_OPENMP:--fopenmp}"
}

is_mpi() { grep -q '^/\* fuzz-mpi' "$1" 2>/dev/null; }
# the link flags after -lm: mpicc's for --mpi programs
prog_libs() { ! is_mpi "$1" || printf '%s' "$mpi_libs"; }
# run program $1 (source $2) under the timeout, printing its output; --mpi
# programs under mpirun on $ranks ranks, in a session directory of their own
# (two mpiruns under one TMPDIR race to create it)
run_prog() {
  if ! is_mpi "$2"; then
    timeout "$tmo" "$1" 2>&1
    return
  fi
  local sess o rc
  sess=$(mktemp -d "${tmp:-/tmp}/mpi.XXXXXX")
  o=$(TMPDIR=$sess timeout -k 5 "$tmo" "$mpirun" --allow-run-as-root --oversubscribe \
        -np "$ranks" "$1" 2>&1)
  rc=$?
  rm -rf "$sess"
  # Open MPI 4's exit race (test/Inputs/mpirun.sh): a rank that finalized is
  # reported "exiting improperly"; every rank finalized: rank 0's summary
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] &&
     printf '%s\n' "$o" | grep -q 'exiting improperly' &&
     [ "$(printf '%s\n' "$o" | grep -c '^lt-mpi: rank [0-9]* finalized$')" -ge "$ranks" ]; then
    if printf '%s\n' "$o" | grep -q 'mismatches=[1-9]'; then rc=1
    elif printf '%s\n' "$o" | grep -q 'unstable=[1-9]'; then rc=77
    else rc=0; fi
  fi
  printf '%s\n' "$o"
  return $rc
}

# --timeloop programs (their fuzz-timeloop line): compiled with
# -leantape-checkpoint, run with a tape budget of one byte. clang 19 parses
# -mllvm options before it loads -fpass-plugin, so the plugin is also loaded
# with -Xclang -load first (as lit's %ltload does).
# Those whose call gives the budget (`fuzz-timeloop: budget marker`) get
# neither.
ckpt_flags() {
  ! grep -q '^/\* fuzz-timeloop' "$1" 2>/dev/null ||
    grep -q '^/\* fuzz-timeloop: budget marker' "$1" ||
    printf '%s' "-Xclang -load -Xclang $plugin -mllvm -leantape-checkpoint"
}
ckpt_budget() {
  ! grep -q '^/\* fuzz-timeloop' "$1" 2>/dev/null ||
    grep -q '^/\* fuzz-timeloop: budget marker' "$1" || printf '1'
}

# one seed: prints one result line per level, "RESULT seed level detail"
run_seed() {
  local seed=$1 L rc out xf
  local d="$tmp/seed-$seed"
  mkdir -p "$d"
  local pa=""
  [ "$primal" = 1 ] && pa=--primal-only
  # shellcheck disable=SC2086
  if ! python3 "$here/gen.py" --seed "$seed" $genargs $pa -o "$d/prog.$ext" 2>"$d/gen.err"; then
    echo "FAIL $seed - generator error: $(tr '\n' ' ' <"$d/gen.err" | tail -c 300)"
    return
  fi
  xf=$(prog_flags "$d/prog.$ext")
  if [ "$primal" = 1 ]; then
    # shellcheck disable=SC2086
    if ! "$sancc" $xf -O0 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
         -I"$repo/include" "$d/prog.$ext" -lm $(prog_libs "$d/prog.$ext") -o "$d/prog.asan" \
         >"$d/cc.asan.log" 2>&1; then
      echo "FAIL $seed asan compile error: $(grep -m1 'error' "$d/cc.asan.log" | head -c 200)"
      return
    fi
    local leaks=1
    ! is_mpi "$d/prog.$ext" || leaks=0 # Open MPI's own leaks
    out=$(ASAN_OPTIONS=detect_leaks=$leaks run_prog "$d/prog.asan" "$d/prog.$ext")
    rc=$?
    if [ $rc -ne 0 ] || echo "$out" | grep -q -e 'runtime error' -e 'Sanitizer'; then
      echo "FAIL $seed asan exit $rc: $(echo "$out" | grep -m2 -e 'runtime error' -e 'ERROR:' -e SUMMARY | tr '\n' ' ' | head -c 300)"
    else
      echo "PASS $seed asan"
    fi
    return
  fi
  for L in $levels; do
    if [ "$after" = 1 ]; then
      local nonone=""
      [ "$L" = 0 ] && nonone="-Xclang -disable-O0-optnone"
      # shellcheck disable=SC2086
      { "$clang" $xf $tsanflags -O"$L" $nonone -S -emit-llvm -I"$repo/include" \
          "$d/prog.$ext" -o "$d/prog.O$L.ll" &&
        timeout "$ctmo" "$optbin" -load-pass-plugin="$plugin" -passes=leantape "$d/prog.O$L.ll" \
          -o "$d/prog.O$L.bc" &&
        "$clang" $(link_flags "$d/prog.$ext") $tsanflags -O"$L" "$d/prog.O$L.bc" -lm \
          $(prog_libs "$d/prog.$ext") -o "$d/prog.O$L"; } \
        >"$d/cc.O$L.log" 2>&1
    else
      # shellcheck disable=SC2086
      # shellcheck disable=SC2046
      timeout "$ctmo" "$clang" $xf $tsanflags ${FUZZ_PLUGIN_FLAGS:-} $(ckpt_flags "$d/prog.$ext") -O"$L" \
        -fpass-plugin="$plugin" \
        -I"$repo/include" "$d/prog.$ext" -lm $(prog_libs "$d/prog.$ext") -o "$d/prog.O$L" \
        >"$d/cc.O$L.log" 2>&1
    fi
    rc=$?
    if [ $rc -ne 0 ]; then
      if [ $rc = 124 ]; then
        echo "FAIL $seed $L compile timeout after ${ctmo}s"
      elif grep -q -e 'Stack dump' -e 'PLEASE submit' "$d/cc.O$L.log"; then
        echo "FAIL $seed $L plugin crash: $(grep -m1 -e 'error' -e 'Assert' "$d/cc.O$L.log" | head -c 200)"
      elif grep -q 'error: leantape: .*not supported' "$d/cc.O$L.log" &&
           ! grep 'error:' "$d/cc.O$L.log" | grep -qv 'error: leantape: .*not supported'; then
        echo "SKIP $seed $L $(grep -m1 'error: leantape' "$d/cc.O$L.log" | sed 's/.*error: leantape: //' | head -c 120)"
      else
        echo "FAIL $seed $L compile error: $(grep -m1 'error' "$d/cc.O$L.log" | head -c 200)"
      fi
      continue
    fi
    if [ "$tsan" = 1 ]; then
      out=$(OMP_TOOL_LIBRARIES="$archer" \
            TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }ignore_noninstrumented_modules=1" \
            timeout "$tmo" "$d/prog.O$L" 2>&1)
      rc=$?
      printf '%s\n' "$out" >"$d/run.O$L.log"
      if echo "$out" | grep -q 'WARNING: ThreadSanitizer'; then
        echo "FAIL $seed $L race: $(echo "$out" | grep -m1 'SUMMARY: ThreadSanitizer' | head -c 250)"
        continue
      fi
    else
      out=$(LEANTAPE_TAPE_BUDGET=$(ckpt_budget "$d/prog.$ext") \
        LEANTAPE_SNAPSHOTS=$((1 + seed % 4)) run_prog "$d/prog.O$L" "$d/prog.$ext")
      rc=$?
    fi
    case $rc in
      0) echo "PASS $seed $L" ;;
      77) echo "UNSTABLE $seed $L $(echo "$out" | grep -m1 unstable)" ;;
      124) echo "FAIL $seed $L timeout after ${tmo}s" ;;
      *) printf '%s\n' "$out" >"$d/run.O$L.log"
         echo "FAIL $seed $L exit $rc: $(echo "$out" | grep -m3 -e MISMATCH -e 'f=' -e 'signal' | tr '\n' ' ' | head -c 300)" ;;
    esac
  done
}

results="$tmp/results"
: >"$results"
seeds=$(seq "$start" $((start + count - 1)))
if [ "$jobs" -gt 1 ]; then
  export -f run_seed
  export -f prog_flags link_flags ckpt_flags ckpt_budget is_mpi prog_libs run_prog
  export tmp here genargs levels clang plugin repo tmo ctmo primal sancc cxx ext enzflags tsan \
    tsanflags archer after optbin mpi_cflags mpi_libs mpirun ranks
  printf '%s\n' $seeds | xargs -P "$jobs" -I{} bash -c 'run_seed {}' | tee -a "$results"
else
  for seed in $seeds; do run_seed "$seed"; done | tee -a "$results"
fi

pass=$(grep -c '^PASS ' "$results")
fail=$(grep -c '^FAIL ' "$results")
skip=$(grep -c '^SKIP ' "$results")
unst=$(grep -c '^UNSTABLE ' "$results")

pa=""
[ "$primal" = 1 ] && pa=--primal-only
if [ "$fail" -gt 0 ]; then
  mkdir -p "$faildir"
  echo "fuzz: failures (programs kept in $faildir):"
  for seed in $(awk '/^FAIL /{print $2}' "$results" | sort -un); do
    f="$faildir/seed-$seed$suffix.$ext"
    [ -f "$tmp/seed-$seed/prog.$ext" ] && cp "$tmp/seed-$seed/prog.$ext" "$f"
    xf=$(prog_flags "$f" 2>/dev/null)
    xl=$(prog_libs "$f") rp=""
    ! is_mpi "$f" || rp="$mpirun --allow-run-as-root --oversubscribe -np $ranks "
    {
      echo "  seed $seed: generated by python3 $here/gen.py --seed $seed" \
        "$genargs${pa:+ $pa} -o $f"
      for L in $(awk -v s="$seed" '$1=="FAIL" && $2==s {print $3}' "$results" | sort -u); do
        [ "$L" = - ] && continue
        if [ "$L" = asan ]; then
          echo "  seed $seed asan: $sancc ${xf:+$xf }-O0 -g -fsanitize=address,undefined" \
            "-fno-sanitize-recover=all -I$repo/include $f" \
            "-lm ${xl:+$xl }-o /tmp/fz-$seed && $rp/tmp/fz-$seed"
          continue
        fi
        if [ "$after" = 1 ]; then
          echo "  seed $seed -O$L: $clang ${xf:+$xf }-O$L -S -emit-llvm -I$repo/include $f" \
            "-o /tmp/fz-$seed.ll && $optbin -load-pass-plugin=$plugin -passes=leantape" \
            "/tmp/fz-$seed.ll -o /tmp/fz-$seed.bc && $clang -O$L /tmp/fz-$seed.bc -lm" \
            "${xl:+$xl }-o /tmp/fz-$seed && $rp/tmp/fz-$seed"
          continue
        fi
        echo "  seed $seed -O$L: $clang ${xf:+$xf }${tsanflags:+$tsanflags }${FUZZ_PLUGIN_FLAGS:+$FUZZ_PLUGIN_FLAGS }-O$L" \
          "-fpass-plugin=$plugin -I$repo/include $f -lm ${xl:+$xl }-o /tmp/fz-$seed &&" \
          "${tsanflags:+OMP_TOOL_LIBRARIES=$archer }$rp/tmp/fz-$seed"
      done
    } | tee "$faildir/seed-$seed$suffix.txt"
    awk -v s="$seed" '$2==s' "$results" | sed 's/^/  result: /' >>"$faildir/seed-$seed$suffix.txt"
  done
fi
echo "fuzz: $pass passed, $fail failed, $skip skipped, $unst unstable"
[ "$fail" -eq 0 ] && { [ "$strict" -eq 0 ] || [ "$skip" -eq 0 ]; }
