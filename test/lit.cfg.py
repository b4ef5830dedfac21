# lit configuration for the Leantape test suite.
#
# Run with `bash tools/test.sh` (builds first), or directly:
#   /usr/lib/llvm-22/bin/lit -sv test
# Paths are computed from this file; no lit.site.cfg is needed.
import os

import lit.formats

config.name = "Leantape"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c", ".cpp"]
config.excludes = ["Inputs", "lit.cfg.py"]

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
llvm_bin = "/usr/lib/llvm-22/bin"
build = os.path.join(repo, os.environ.get("LEANTAPE_BUILD_DIR", "build"))
plugin = os.path.join(build, "lib", "LLVMLeantape.so")
include = os.path.join(repo, "include")
inputs = os.path.join(repo, "test", "Inputs")

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(build, "test")

if not os.path.isfile(plugin):
    lit_config.fatal(
        "plugin not found: %s (build it first: bash tools/setup.sh)" % plugin
    )

# FileCheck, not and count live in the LLVM bin directory, not on PATH.
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
for var in ("HOME", "TMPDIR", "LANG"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

includes = "-I%s -I%s" % (include, inputs)
# lit applies these in order, before its built-ins (so %plugin wins over %p).
# %ltclangxx precedes %ltclang, of which it is an extension.
config.substitutions.append(
    ("%ltclangxx", "clang++-22 -std=c++17 -fpass-plugin=%s %s" % (plugin, includes))
)
config.substitutions.append(
    ("%ltclang", "clang-22 -fpass-plugin=%s %s" % (plugin, includes))
)
config.substitutions.append(("%ltopt", "opt-22 -load-pass-plugin=%s" % plugin))
config.substitutions.append(("%clang", "clang-22 %s" % includes))
config.substitutions.append(("%opt", "opt-22"))
config.substitutions.append(("%plugin", plugin))
