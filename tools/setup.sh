#!/usr/bin/env bash
# setup.sh: idempotent set-up on a fresh Debian 12 machine, then build.
#
# Installs LLVM 22 (clang-22, opt-22, llvm-config-22, FileCheck, lit) and a
# build toolchain with apt when something is missing, then configures and
# builds build/lib/LLVMLeantape.so. Prints one short line per step; on a
# failure it prints the step's log. Safe to run again: it only does what is
# missing, and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD=${LEANTAPE_BUILD_DIR:-build}
LLVM_BIN=/usr/lib/llvm-22/bin
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

step() { printf 'setup: %s\n' "$*"; }
# run CMD...: run quietly; on failure show its output and stop.
run() {
  if ! "$@" >"$LOG" 2>&1; then
    cat "$LOG" >&2
    printf 'setup: FAILED: %s\n' "$*" >&2
    exit 1
  fi
}

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  fi
fi

APT_UPDATED=0
apt_install() {
  if [ "$(id -u)" -ne 0 ] && [ ${#SUDO[@]} -eq 0 ]; then
    printf 'setup: need root or sudo to install: %s\n' "$*" >&2
    exit 1
  fi
  if [ "$APT_UPDATED" -eq 0 ]; then
    step "apt-get update"
    run "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    APT_UPDATED=1
  fi
  step "apt-get install $*"
  run "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "$@"
}

# 1. LLVM 22.
missing=0
for tool in clang-22 opt-22 llvm-config-22; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done
for tool in "$LLVM_BIN/FileCheck" "$LLVM_BIN/lit" "$LLVM_BIN/not" "$LLVM_BIN/ld.lld"; do
  [ -x "$tool" ] || missing=1
done
if [ "$missing" -eq 1 ]; then
  apt_install llvm-22-dev clang-22 llvm-22-tools lld-22 # lld: link-time differentiation
fi
step "LLVM $(llvm-config-22 --version) ok"

# 2. Build tools: cmake, a generator, a C/C++ toolchain (for libc and crt).
pkgs=()
command -v cmake >/dev/null 2>&1 || pkgs+=(cmake)
if ! command -v make >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1; then
  pkgs+=(build-essential)
fi
command -v nm >/dev/null 2>&1 || pkgs+=(binutils)
command -v python3 >/dev/null 2>&1 || pkgs+=(python3)
if [ ${#pkgs[@]} -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
step "build tools ok"

# 3. Configure (once; later runs reuse the cache) and build.
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  args=(-S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        -DLLVM_DIR="$(llvm-config-22 --cmakedir)")
  command -v ninja >/dev/null 2>&1 && args+=(-G Ninja)
  # clang-22 matches the LLVM headers best; gcc/g++ also work.
  if command -v clang++-22 >/dev/null 2>&1; then
    args+=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
  fi
  step "configure $BUILD"
  run cmake "${args[@]}"
else
  run cmake -S . -B "$BUILD" -DLLVM_DIR="$(llvm-config-22 --cmakedir)"
fi
step "build $BUILD/lib/LLVMLeantape.so"
run cmake --build "$BUILD" -j2
