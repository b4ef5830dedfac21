#!/usr/bin/env bash
# run.sh: build and run the Leantape benchmark (tools/bench/README.md).
# Builds build/bench/bench (kernels.c through the plugin, driver.c without),
# runs every kernel and prints a markdown table. Extra arguments go to the
# driver, e.g. `--only gp_lml`. Env: BENCH_REPS (default 15),
# LEANTAPE_BUILD_DIR (default build). Exits 1 if a gradient is wrong.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

BUILD=${LEANTAPE_BUILD_DIR:-build}
PLUGIN="$BUILD/lib/LLVMLeantape.so"
OUT="$BUILD/bench"
[ -f "$PLUGIN" ] || bash tools/setup.sh
mkdir -p "$OUT"

clang-22 -O2 -Wall -Itools/bench -c tools/bench/driver.c -o "$OUT/driver.o"
clang-22 -O2 -fpass-plugin="$PLUGIN" -Iinclude -Itools/bench \
  -c tools/bench/kernels.c -o "$OUT/kernels.o"
clang-22 "$OUT/driver.o" "$OUT/kernels.o" -o "$OUT/bench" \
  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free -lm

rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain -- lib 2>/dev/null)" ]; then rev="$rev+dirty lib/"; fi
echo "Leantape benchmark: $(date -u '+%Y-%m-%d %H:%M UTC'), nproc $(nproc)," \
  "$(uname -m), $(clang-22 --version | head -n1), plugin at $rev"
echo
"$OUT/bench" "$@"
