#!/usr/bin/env bash
# setup.sh: idempotent set-up on a fresh Debian 12 machine, then build.
#
# Installs LLVM NN (clang-NN, opt-NN, llvm-config-NN, FileCheck, lit, lld,
# and clang's headers, libclang-NN-dev, for the clang plugin) and a build
# toolchain with apt when something is missing, then configures and builds
# the plugins against it. Prints one short line per step; on a
# failure it prints the step's log. Safe to run again: it only does what is
# missing, and rebuilds incrementally.
#
# Which LLVM (tools/llvm.sh): LLVM_VERSION unset = 22 into build/;
# LLVM_VERSION=19 into build-llvm19/; LLVM_VERSION=all (or "19 22") both,
# installing what is missing with one apt-get. LEANTAPE_BUILD_DIR names
# the build directory of a single version.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

source tools/llvm.sh
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

# 1. LLVM, each requested major (lld: link-time differentiation).
pkgs=()
for v in $LT_VERSIONS; do
  missing=0
  for tool in clang-$v clang++-$v opt-$v llvm-config-$v; do
    command -v "$tool" >/dev/null 2>&1 || missing=1
  done
  bin=/usr/lib/llvm-$v/bin
  for tool in "$bin/FileCheck" "$bin/not" "$bin/lli" "$bin/ld.lld"; do
    [ -x "$tool" ] || missing=1
  done
  # lit: LLVM 22's llvm-NN-tools has bin/lit, LLVM 19's only utils/lit/lit.py
  [ -x "$bin/lit" ] || [ -f "/usr/lib/llvm-$v/build/utils/lit/lit.py" ] || missing=1
  if [ "$missing" -eq 1 ]; then
    pkgs+=(llvm-$v-dev clang-$v llvm-$v-tools lld-$v)
  fi
  # clang's headers, for the clang plugin (build/lib/ClangLeantape.so)
  [ -f "/usr/lib/llvm-$v/include/clang/Frontend/FrontendPluginRegistry.h" ] ||
    pkgs+=(libclang-$v-dev)
  # the address sanitizer's runtime, for the tests marked REQUIRES: asan
  # (Debian packages it for LLVM 22, not for 19)
  if [ "$v" -ge 22 ] && ! ls /usr/lib/llvm-$v/lib/clang/$v/lib/*/libclang_rt.asan* >/dev/null 2>&1; then
    pkgs+=(libclang-rt-$v-dev)
  fi
done
if [ ${#pkgs[@]} -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
for v in $LT_VERSIONS; do
  step "LLVM $(llvm-config-$v --version) ok"
done

# 2. Build tools: cmake, a generator, a C/C++ toolchain (for libc and crt).
pkgs=()
command -v cmake >/dev/null 2>&1 || pkgs+=(cmake)
if ! command -v make >/dev/null 2>&1 || ! command -v g++ >/dev/null 2>&1; then
  pkgs+=(build-essential)
fi
command -v nm >/dev/null 2>&1 || pkgs+=(binutils)
command -v python3 >/dev/null 2>&1 || pkgs+=(python3)
# the installed-package test builds a consumer with pkg-config and make
command -v pkg-config >/dev/null 2>&1 || pkgs+=(pkg-config)
if [ ${#pkgs[@]} -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
step "build tools ok"

# 2b. C++ libraries the tests differentiate (boost odeint, Eigen): headers.
pkgs=()
[ -f /usr/include/boost/numeric/odeint.hpp ] || pkgs+=(libboost-dev)
[ -f /usr/include/eigen3/Eigen/Dense ] || pkgs+=(libeigen3-dev)
# OpenMP (the omp-* tests): libomp-22-dev, whatever LLVM is requested. Only
# one libomp-NN-dev can be installed (they conflict); LLVM 22's brings omp.h
# for clang-22 and the runtime (/usr/lib/x86_64-linux-gnu/libomp.so) that
# every clang's -fopenmp links, clang-19's too. Step 3 copies its omp.h for
# an LLVM that has none of its own.
OMP_H=/usr/lib/llvm-22/lib/clang/22/include/omp.h
if [ ! -f "$OMP_H" ] || [ ! -e /usr/lib/x86_64-linux-gnu/libomp.so ]; then
  pkgs+=(libomp-22-dev)
fi
if [ ${#pkgs[@]} -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
# MPI for the mpi-* tests (OpenMPI: mpicc, mpirun).
pkgs=()
command -v mpicc >/dev/null 2>&1 || pkgs+=(libopenmpi-dev)
command -v mpirun >/dev/null 2>&1 || pkgs+=(openmpi-bin)
# BLAS and LAPACK for the blas-* tests (OpenBLAS: cblas.h, libopenblas;
# LAPACKE: lapacke.h).
ls /usr/include/cblas.h /usr/include/*/cblas.h >/dev/null 2>&1 || pkgs+=(libopenblas-dev)
ls /usr/lib/*/libopenblas.so /usr/lib/libopenblas.so >/dev/null 2>&1 || pkgs+=(libopenblas-dev)
[ -f /usr/include/lapacke.h ] || pkgs+=(liblapacke-dev)
if [ ${#pkgs[@]} -gt 0 ]; then
  apt_install "${pkgs[@]}"
fi
step "test libraries ok"

# 3. Configure (once; later runs reuse the cache) and build, per major.
# configured_major DIR: the LLVM major DIR was configured for, or "".
configured_major() {
  sed -n "s/^LEANTAPE_LLVM_MAJOR='\(.*\)'$/\1/p" "$1/leantape-build.env" 2>/dev/null || true
}
for v in $LT_VERSIONS; do
  build=${BUILD:-$(lt_build_dir "$v")}
  llvm_dir=$(llvm-config-$v --cmakedir)
  if [ -f "$build/CMakeCache.txt" ]; then
    had=$(configured_major "$build")
    if [ "$had" != "$v" ]; then
      # a build directory holds one LLVM major (its compiler and LLVM_DIR)
      step "$build was configured for LLVM ${had:-?}: configuring it anew for LLVM $v"
      rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
    fi
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    args=(-S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
          -DLEANTAPE_LLVM_VERSION="$v" -DLLVM_DIR="$llvm_dir")
    command -v ninja >/dev/null 2>&1 && args+=(-G Ninja)
    # clang-NN matches the LLVM headers best; gcc/g++ also work.
    if command -v clang++-$v >/dev/null 2>&1; then
      args+=(-DCMAKE_C_COMPILER=clang-$v -DCMAKE_CXX_COMPILER=clang++-$v)
    fi
    step "configure $build (LLVM $v)"
    run cmake "${args[@]}"
  else
    run cmake -S . -B "$build" -DLEANTAPE_LLVM_VERSION="$v" -DLLVM_DIR="$llvm_dir"
  fi
  step "build $build/lib/LLVMLeantape.so and ClangLeantape.so (LLVM $v)"
  run cmake --build "$build" -j2
  # omp.h for an LLVM without its own (test/lit.cfg.py: %openmp adds
  # -isystem $build/omp-include): libomp-22-dev's, which declares the same
  # omp_* library the runtime has.
  if [ ! -f "/usr/lib/llvm-$v/lib/clang/$v/include/omp.h" ]; then
    mkdir -p "$build/omp-include"
    cp "$OMP_H" "$build/omp-include/omp.h"
    step "omp.h for LLVM $v: $build/omp-include/omp.h (from libomp-22-dev)"
  else
    rm -rf "$build/omp-include"
  fi
done
