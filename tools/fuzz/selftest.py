#!/usr/bin/env python3
"""Self-test of the fuzz generator (tools/fuzz/ltfuzz): what its modes
promise, checked on a few seeds per mode (and with each other mode beside
it), with nothing but the generator itself:
  * the same seed and flags give the same program twice;
  * a mode marked keeps_f (its draws come from its own stream: --alias,
    --fwd, --split, --primal-only) leaves f and its helpers as they are
    without it, unless another mode beside it names it in its shaped_by
    (--omp's loops keep clear of the elements --alias's views share);
  * the program's head names every flag that shapes f.
    python3 tools/fuzz/selftest.py [SEEDS]    (default 1-6; exit 1 on failure)"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ltfuzz import MODES, generate  # noqa: E402
from ltfuzz.mpi import COMBINES as MPI_COMBINES  # noqa: E402


def opts_of(names):
    return {m.name: m.name in names for m in MODES}


def f_part(text):
    """The program from its #define N to main's first line: the helpers
    and f (without the forward derivatives and primal checks of custom
    gradients, which belong to main)."""
    part = text[text.index("\n#define N "):text.index("\nstatic unsigned long long lt_state")]
    part = re.sub(r"/\* --fwd: forward derivatives.*?(?=^(?:double|void) f\()", "", part,
                  flags=re.S | re.M)
    return re.sub(r"/\* --primal-only: the registered.*?^}\n\n", "", part, flags=re.S | re.M)


def allowed(names):
    """Combinations the command line accepts (Mode.on_args)."""
    if "mpi" in names and names - MPI_COMBINES:
        return False
    if "retarg" in names and names & {"fwd", "cxx", "eigen", "omp"}:
        return False
    if "entry" in names and names & {"cxx", "eigen"}:
        return False
    return not ("split" in names and ("cxx" in names or "fwd" in names or "eigen" in names))


def main():
    seeds = [int(a) for a in sys.argv[1:]] or range(1, 7)
    shaping = [m.name for m in MODES if not getattr(m, "keeps_f", False)]
    bad = checked = 0
    for seed in seeds:
        for m in MODES:
            for other in [None] + shaping:
                names = {m.name} | ({other} if other else set())
                if not allowed(names):
                    continue
                a = generate(seed, **opts_of(names))
                checked += 1
                if a != generate(seed, **opts_of(names)):
                    print("FAIL seed %d %s: not deterministic" % (seed, sorted(names)))
                    bad += 1
                head = a.split("\n", 1)[0]
                for n in names & set(shaping):
                    flag = next(x.flag for x in MODES if x.name == n)
                    if not re.search(re.escape(flag) + r"\b", head):
                        print("FAIL seed %d %s: the head does not name %s" % (seed, sorted(names), flag))
                        bad += 1
                shapers = {n for x in MODES if x.name in names for n in x.shaped_by}
                if getattr(m, "keeps_f", False) and other != m.name and m.name not in shapers:
                    base = generate(seed, **opts_of(names - {m.name}))
                    if f_part(a) != f_part(base):
                        print("FAIL seed %d %s: %s changed f" % (seed, sorted(names), m.flag))
                        bad += 1
    print("fuzz selftest: %d programs, %d failures" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
