#!/usr/bin/env python3
"""Random differential-test program generator for Leantape (issue 3, item 4).

    python3 tools/fuzz/gen.py --seed 42 [--no-loops] [--max-depth D] [--pointers]
                              [--calls] [--cxx] [--alias] [--fwd] [--split]
                              [--eigen] [--adaptive] [--entry] [--kernels] [--retarg]
                              [--gather] [--inplace] [--copies] [--structvec]
                              [--diffuse] [--mpi]
                              [--primal-only]
                              [-o prog.c]

Writes a self-checking C (or C++) program: a random function

    double f(double *x, double *y, int n[, double s])

built from loop nests (counted, runtime-bounded, triangular, while loops with
data-independent counts, data-dependent `break`, `continue`), branches on data
and on loop counters, ternaries, in-place array updates, local arrays, smooth
math calls, accumulators and loop-carried recurrences; and a `main` that
differentiates f with __enzyme_autodiff (x, y dup; n const; s out) and
compares every gradient entry with a central finite difference of the return
value. Exit status of the program: 0 all gradients agree, 1 a mismatch,
77 inconclusive (the finite difference itself is unstable at some entry,
i.e. a data branch flips within the step: the point is not smooth there).
An entry that disagrees with the central difference at step h is checked
once more against Richardson's extrapolation from the steps 1e3 h and
5e2 h, which rounding noise in f (amplified by 1/h: long loops of
tanh/exp) hardly reaches; it is a MISMATCH only when it disagrees with
both ("noisy FD" when only the step-h difference was off).

The same seed always gives the same program. The generator is the package
ltfuzz/ beside this file: the core (ltfuzz/core.py, ltfuzz/shapes.py), the
checks (ltfuzz/check.py) and one module per flag, whose docstring says
what the flag adds: ltfuzz/pointers.py, calls.py, cxx.py, alias.py,
forward.py (--fwd), primal.py (--primal-only), split.py, eigen.py (implies
--cxx), adaptive.py, entry.py, kernels.py, retarg.py, gather.py (stencil
loops without math calls whose reverse loops lib/gen/gather.c rewrites),
inplace.py (--inplace: Gram-Schmidt and ADI sweeps in --kernels' kernels),
copies.py (--copies: run-time length copies of structs and their prefixes),
structvec.py (--structvec: std::vector of structs with pointers),
diffuse.py (--diffuse: double-buffered 2-D time loops, run-time rows),
mpi.py (--mpi: f as an MPI program, checked on every rank under mpirun).
A new mode is a module there and a line in ltfuzz/__init__.py's MODES.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ltfuzz.cli  # noqa: E402


def main():
    ltfuzz.cli.main(__doc__.split("\n")[0])


if __name__ == "__main__":
    main()
