#!/usr/bin/env bash
# demo.sh: set up and build, then differentiate tools/demo/demo.c
# (Black–Scholes greeks) with the plugin and print each gradient beside a
# central finite difference. Exits nonzero if any of them disagree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD=${LEANTAPE_BUILD_DIR:-build}
bash tools/setup.sh

OUT="$BUILD/demo"
echo "demo: clang-22 -O2 -fpass-plugin=$BUILD/lib/LLVMLeantape.so" \
  "-Iinclude tools/demo/demo.c -lm"
clang-22 -O2 -fpass-plugin="$BUILD/lib/LLVMLeantape.so" -Iinclude \
  tools/demo/demo.c -o "$OUT" -lm
"$OUT"
