# lit configuration for the Leantape test suite.
#
# Run with `bash tools/test.sh` (builds first; LLVM_VERSION=19 for an LLVM 19
# build), or directly, with the lit of any LLVM:
#   LEANTAPE_BUILD_DIR=build /usr/lib/llvm-22/bin/lit -sv test
# The build directory (LEANTAPE_BUILD_DIR, default build) records which LLVM
# the plugin was built against in leantape-build.env (written by CMake, see
# cmake/leantape-build.env.in); the tools (clang, opt, FileCheck, lli, not)
# are that LLVM's, from its bin directory: a plugin built for one LLVM major
# does not load into another.
import glob
import os
import shlex

import lit.formats

config.name = "Leantape"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.path.join(repo, os.environ.get("LEANTAPE_BUILD_DIR", "build"))
build_env = os.path.join(build, "leantape-build.env")
if not os.path.isfile(build_env):
    lit_config.fatal(
        "%s not found (configure and build first: bash tools/setup.sh)" % build_env
    )
site = {}
with open(build_env) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            site[key] = " ".join(shlex.split(value))
llvm_bin = site["LEANTAPE_LLVM_TOOLS_DIR"]
llvm_major = int(site["LEANTAPE_LLVM_MAJOR"])
plugin = site["LEANTAPE_PLUGIN"]
lit_config.note(
    "LLVM %s (%s), plugin %s" % (site["LEANTAPE_LLVM_VERSION"], llvm_bin, plugin)
)
include = os.path.join(repo, "include")
inputs = os.path.join(repo, "test", "Inputs")

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(build, "test")

if not os.path.isfile(plugin):
    lit_config.fatal(
        "plugin not found: %s (build it first: bash tools/setup.sh)" % plugin
    )

for tool in ("clang", "clang++", "opt", "FileCheck", "lli", "not"):
    if not os.access(os.path.join(llvm_bin, tool), os.X_OK):
        lit_config.fatal("%s not found in %s" % (tool, llvm_bin))
clang = os.path.join(llvm_bin, "clang")
clangxx = os.path.join(llvm_bin, "clang++")
opt = os.path.join(llvm_bin, "opt")

# REQUIRES: llvm-19 / llvm-22, and llvm-NN+ for "this major or newer".
config.available_features.add("llvm-%d" % llvm_major)
for major in range(19, llvm_major + 1):
    config.available_features.add("llvm-%d+" % major)

# FileCheck, not, count and lli live in the LLVM bin directory, not on PATH;
# it goes first, so that every LLVM tool a test names is this LLVM's.
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
for var in ("HOME", "TMPDIR", "LANG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# tools/fuzz/run.sh and other scripts run by tests: this LLVM's compilers
# and this build.
config.environment["CLANG"] = clang
config.environment["CLANGXX"] = clangxx
config.environment["OPT"] = opt
config.environment["LEANTAPE_BUILD_DIR"] = build
config.environment["LEANTAPE_PLUGIN"] = plugin

includes = "-I%s -I%s" % (include, inputs)
# lit applies these in order, before its built-ins (so %plugin wins over %p).
# %ltclangxx precedes %ltclang, of which it is an extension.
config.substitutions.append(
    ("%ltclangxx", "%s -std=c++17 -fpass-plugin=%s %s" % (clangxx, plugin, includes))
)
config.substitutions.append(
    ("%ltclang", "%s -fpass-plugin=%s %s" % (clang, plugin, includes))
)
config.substitutions.append(("%ltopt", "%s -load-pass-plugin=%s" % (opt, plugin)))
# Loads the plugin before clang parses -mllvm options (clang 19 loads pass
# plugins only after: "Unknown command line argument '-leantape-...'").
config.substitutions.append(("%ltload", "-Xclang -load -Xclang %s" % plugin))
# The clang plugin (lib/clang/ClangLeantape.cpp), when the build has it
# (libclang-NN-dev installed): `clang -fplugin=` alone, which loads the
# pass itself (REQUIRES: clang-plugin). First in the list: %clang is a
# prefix of %clangplugin.
clang_plugin = site.get("LEANTAPE_CLANG_PLUGIN", "")
if clang_plugin and os.path.isfile(clang_plugin):
    config.available_features.add("clang-plugin")
    config.substitutions.insert(0, ("%clangplugin", clang_plugin))
    config.substitutions.insert(
        0, ("%fpluginclang", "%s -fplugin=%s %s" % (clang, clang_plugin, includes))
    )
    config.substitutions.insert(
        0,
        (
            "%fpluginclangxx",
            "%s -std=c++17 -fplugin=%s %s" % (clangxx, clang_plugin, includes),
        ),
    )
else:
    lit_config.note(
        "no clang plugin in this build: test/ClangPlugin unsupported "
        "(apt-get install libclang-%d-dev, then configure again)" % llvm_major
    )
config.substitutions.append(("%clangxx", "%s %s" % (clangxx, includes)))
config.substitutions.append(("%clang", "%s %s" % (clang, includes)))
config.substitutions.append(("%opt", opt))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%llvm_bin", llvm_bin))
config.substitutions.append(("%builddir", build))
# C++ libraries the C++ tests use (installed by tools/setup.sh), and the
# flags Enzyme's odeint and Eigen tests compile with.
if os.path.isfile("/usr/include/boost/numeric/odeint.hpp"):
    config.available_features.add("boost")
if os.path.isfile("/usr/include/eigen3/Eigen/Dense"):
    config.available_features.add("eigen")
# Linux on x86-64 or AArch64: the arena's huge-page advice (arena.c)
import platform
if platform.system() == "Linux" and platform.machine() in ("x86_64", "aarch64"):
    config.available_features.add("linux-thp")
# the CPU runs AVX2 and FMA code (-mavx2 -mfma tests)
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read().split()
    if "avx2" in flags and "fma" in flags:
        config.available_features.add("avx2-fma")
except OSError:
    pass
# the address sanitizer's runtime for this LLVM's clang (REQUIRES: asan;
# Debian's LLVM 19 packages here come without it)
if glob.glob("/usr/lib/llvm-%d/lib/clang/%d/lib/*/libclang_rt.asan.a" % (llvm_major, llvm_major)) or \
        glob.glob("/usr/lib/llvm-%d/lib/clang/%d/lib/linux/libclang_rt.asan-x86_64.a" % (llvm_major, llvm_major)):
    config.available_features.add("asan")
config.substitutions.append(
    (
        "%enzymecxxflags",
        "-ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize "
        "-fno-exceptions -fno-use-cxa-atexit",
    )
)
config.substitutions.append(("%eigenflags", "-I/usr/include/eigen3"))

# OpenMP (test/Integration/omp-*.c, REQUIRES: openmp): clang's -fopenmp
# needs omp.h, which comes with the libomp-NN-dev of an LLVM. Only one
# libomp-NN-dev can be installed (they conflict), so tools/setup.sh installs
# libomp-22-dev and copies its omp.h into <build dir>/omp-include/ for an
# LLVM whose own omp.h is missing (LLVM 19); the runtime every clang links,
# /usr/lib/x86_64-linux-gnu/libomp.so, serves both. %openmp is -fopenmp
# plus that include directory when it is needed.
omp_own = "/usr/lib/llvm-%d/lib/clang/%d/include/omp.h" % (llvm_major, llvm_major)
omp_copy_dir = os.path.join(build, "omp-include")
omp_flags = None
if os.path.isfile(omp_own):
    omp_flags = "-fopenmp"
elif os.path.isfile(os.path.join(omp_copy_dir, "omp.h")):
    omp_flags = "-fopenmp -isystem %s" % omp_copy_dir
if omp_flags:
    config.available_features.add("openmp")
    config.substitutions.append(("%openmp", omp_flags))
    # the programs run with OMP_NUM_THREADS=1 and =2 set on their RUN
    # lines; a team must not shrink under them (the reverse pass of a
    # parallel region needs the forward pass's team size)
    config.environment["OMP_DYNAMIC"] = "false"
else:
    lit_config.note(
        "no omp.h for LLVM %d (%s or %s/omp.h): OpenMP tests unsupported "
        "(bash tools/setup.sh installs libomp-22-dev and copies it)"
        % (llvm_major, omp_own, omp_copy_dir)
    )

# MPI (tools/setup.sh installs OpenMPI): the plugin's clang with mpicc's
# flags, and the runner (CI runs as root).
import shutil
import subprocess

mpicc = shutil.which("mpicc")
mpirun = shutil.which("mpirun")
if mpicc and mpirun:
    try:
        mpi_compile = subprocess.check_output([mpicc, "-showme:compile"], text=True).strip()
        mpi_link = subprocess.check_output([mpicc, "-showme:link"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        mpi_compile = mpi_link = None
    if mpi_compile is not None:
        config.available_features.add("mpi")
        config.substitutions.append(("%mpiflags", mpi_compile))
        config.substitutions.append(("%mpilibs", mpi_link))
        # Inputs/mpirun.sh: mpirun --allow-run-as-root --oversubscribe -np,
        # which tells Open MPI's exit race from a failure
        config.substitutions.append(
            ("%mpirun", "bash %s %s" % (os.path.join(repo, "test", "Inputs", "mpirun.sh"), mpirun))
        )

# BLAS and LAPACK (tools/setup.sh installs OpenBLAS and LAPACKE): the
# cblas.h header and libopenblas; one thread, so runs are repeatable.
import ctypes.util
import glob

blas_headers = glob.glob("/usr/include/cblas.h") + glob.glob("/usr/include/*/cblas.h")
if blas_headers and ctypes.util.find_library("openblas"):
    config.available_features.add("blas")
    config.substitutions.append(("%blaslibs", "-lopenblas"))
    config.environment["OPENBLAS_NUM_THREADS"] = "1"
    # LAPACKE (the lapacke-* tests): Debian's OpenBLAS has the Fortran
    # LAPACK symbols but not the LAPACKE wrappers, which liblapacke has
    if os.path.exists("/usr/include/lapacke.h") and ctypes.util.find_library("lapacke"):
        config.available_features.add("lapacke")
        config.substitutions.append(("%lapackelibs", "-llapacke -lopenblas"))
else:
    lit_config.note(
        "no cblas.h or libopenblas: BLAS tests unsupported "
        "(bash tools/setup.sh installs libopenblas-dev and liblapacke-dev)"
    )
