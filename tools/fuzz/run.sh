#!/usr/bin/env bash
# Random differential tester for Leantape (issue 3, item 4).
#
#   bash tools/fuzz/run.sh [-n COUNT] [-s START_SEED] [-O "LEVELS"] [-g "GEN_ARGS"] [-k]
#
# For each seed START_SEED .. START_SEED+COUNT-1: generate a program with
# tools/fuzz/gen.py (GEN_ARGS are passed on, e.g. -g --no-loops), compile it
# with clang-22 -O$L -fpass-plugin=build/lib/LLVMLeantape.so for each level
# in LEVELS (default "0 2"), run it, and report per seed/level:
#   PASS   gradients agree with central finite differences
#   SKIP   the plugin rejected the program cleanly ("error: leantape: ...
#          not supported"), e.g. loops before loop support lands
#   UNSTABLE  the finite difference itself is unstable at the sample point (a
#          data branch flips within the FD step): inconclusive, not a failure
#   FAIL   gradient mismatch, crash (Stack dump / PLEASE submit), any other
#          compile error, runtime crash or timeout
# Failing programs are kept in build/fuzz-failures/seed-N[-noloops].c with a
# reproduce command. Ends with "fuzz: N passed, N failed, N skipped, N unstable";
# exit status 1 on any failure (and on any SKIP with -S). -k keeps the temp dir. -j JOBS runs seeds in
# parallel (default 1). Environment: LEANTAPE_BUILD_DIR (default build),
# CLANG (default clang-22), FUZZ_TIMEOUT seconds per run (default 20).
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${LEANTAPE_BUILD_DIR:-build}
case $build in /*) ;; *) build="$repo/$build" ;; esac
plugin="$build/lib/LLVMLeantape.so"
clang=${CLANG:-clang-22}
tmo=${FUZZ_TIMEOUT:-20}

count=20 start=1 levels="0 2" genargs="" keep=0 jobs=1 strict=0
while getopts "n:s:O:g:kj:Sh" opt; do
  case $opt in
    n) count=$OPTARG ;;
    s) start=$OPTARG ;;
    O) levels=$OPTARG ;;
    g) genargs=$OPTARG ;;
    k) keep=1 ;;
    j) jobs=$OPTARG ;;
    S) strict=1 ;; # a clean rejection (SKIP) counts as a failure
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done

if [ ! -f "$plugin" ]; then
  echo "fuzz: plugin not found: $plugin (build it first)" >&2
  exit 2
fi
command -v "$clang" >/dev/null || { echo "fuzz: $clang not found" >&2; exit 2; }

mkdir -p "$build/fuzz-tmp"
tmp=$(mktemp -d "$build/fuzz-tmp/run.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$tmp"' EXIT
faildir="$build/fuzz-failures"
suffix=""
case " $genargs " in *" --no-loops "*) suffix="-noloops" ;; esac

# one seed: prints one result line per level, "RESULT seed level detail"
run_seed() {
  local seed=$1 L rc out
  local d="$tmp/seed-$seed"
  mkdir -p "$d"
  # shellcheck disable=SC2086
  if ! python3 "$here/gen.py" --seed "$seed" $genargs -o "$d/prog.c" 2>"$d/gen.err"; then
    echo "FAIL $seed - generator error: $(head -c 300 "$d/gen.err")"
    return
  fi
  for L in $levels; do
    "$clang" -O"$L" -fpass-plugin="$plugin" -I"$repo/include" "$d/prog.c" \
      -lm -o "$d/prog.O$L" >"$d/cc.O$L.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
      if grep -q -e 'Stack dump' -e 'PLEASE submit' "$d/cc.O$L.log"; then
        echo "FAIL $seed $L plugin crash: $(grep -m1 -e 'error' -e 'Assert' "$d/cc.O$L.log" | head -c 200)"
      elif grep -q 'error: leantape: .*not supported' "$d/cc.O$L.log" &&
           ! grep 'error:' "$d/cc.O$L.log" | grep -qv 'error: leantape: .*not supported'; then
        echo "SKIP $seed $L $(grep -m1 'error: leantape' "$d/cc.O$L.log" | sed 's/.*error: leantape: //' | head -c 120)"
      else
        echo "FAIL $seed $L compile error: $(grep -m1 'error' "$d/cc.O$L.log" | head -c 200)"
      fi
      continue
    fi
    out=$(timeout "$tmo" "$d/prog.O$L" 2>&1)
    rc=$?
    case $rc in
      0) echo "PASS $seed $L" ;;
      77) echo "UNSTABLE $seed $L $(echo "$out" | grep -m1 unstable)" ;;
      124) echo "FAIL $seed $L timeout after ${tmo}s" ;;
      *) echo "FAIL $seed $L exit $rc: $(echo "$out" | grep -m3 -e MISMATCH -e 'f=' | tr '\n' ' ' | head -c 300)" ;;
    esac
  done
}

results="$tmp/results"
: >"$results"
seeds=$(seq "$start" $((start + count - 1)))
if [ "$jobs" -gt 1 ]; then
  export -f run_seed
  export tmp here genargs levels clang plugin repo tmo
  printf '%s\n' $seeds | xargs -P "$jobs" -I{} bash -c 'run_seed {}' | tee -a "$results"
else
  for seed in $seeds; do run_seed "$seed"; done | tee -a "$results"
fi

pass=$(grep -c '^PASS ' "$results")
fail=$(grep -c '^FAIL ' "$results")
skip=$(grep -c '^SKIP ' "$results")
unst=$(grep -c '^UNSTABLE ' "$results")

if [ "$fail" -gt 0 ]; then
  mkdir -p "$faildir"
  echo "fuzz: failures (programs kept in $faildir):"
  for seed in $(awk '/^FAIL /{print $2}' "$results" | sort -un); do
    cp "$tmp/seed-$seed/prog.c" "$faildir/seed-$seed$suffix.c"
    for L in $(awk -v s="$seed" '$1=="FAIL" && $2==s {print $3}' "$results" | sort -u); do
      [ "$L" = - ] && continue
      echo "  seed $seed -O$L: $clang -O$L -fpass-plugin=$plugin -I$repo/include" \
        "$faildir/seed-$seed$suffix.c -lm -o /tmp/fz-$seed && /tmp/fz-$seed"
    done
  done
fi
echo "fuzz: $pass passed, $fail failed, $skip skipped, $unst unstable"
[ "$fail" -eq 0 ] && { [ "$strict" -eq 0 ] || [ "$skip" -eq 0 ]; }
