#!/usr/bin/env bash
# demo.sh: set up and build, then differentiate tools/demo/demo.c
# (Black–Scholes greeks) with the plugin and print each gradient beside a
# central finite difference. Exits nonzero if any of them disagree.
# LLVM_VERSION=19 runs it with LLVM 19 (tools/llvm.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source tools/llvm.sh
if [ -z "$LT_MAJOR" ]; then
  echo "demo: LLVM_VERSION names one LLVM major (${LT_MAJORS// /, })" >&2
  exit 2
fi
bash tools/setup.sh

OUT="$BUILD/demo"
echo "demo: clang-$LT_MAJOR -O2 -fpass-plugin=$BUILD/lib/LLVMLeantape.so" \
  "-Iinclude tools/demo/demo.c -lm"
"$LT_LLVM_BIN/clang" -O2 -fpass-plugin="$BUILD/lib/LLVMLeantape.so" -Iinclude \
  tools/demo/demo.c -o "$OUT" -lm
"$OUT"
