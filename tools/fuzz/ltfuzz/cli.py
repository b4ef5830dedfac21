"""The command line of tools/fuzz/gen.py: --seed, the shapes' --no-loops
and --max-depth, one flag per registered mode, -o."""
import argparse
import sys

from . import MODES, generate


def main(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--no-loops", action="store_true",
                    help="emit straight-line code with branches only")
    ap.add_argument("--max-depth", type=int, default=3, help="loop nest depth (1-3)")
    ranked = sorted(enumerate(MODES), key=lambda im: im[1].cli_rank or im[0])
    for _, m in ranked:
        ap.add_argument(m.flag, action="store_true", help=m.help)
    ap.add_argument("-o", "--output", help="output file (default stdout)")
    a = ap.parse_args()
    for m in MODES:
        m.on_args(ap, a)
    text = generate(a.seed, loops=not a.no_loops, max_depth=a.max_depth,
                    **{m.name: getattr(a, m.flag[2:].replace("-", "_")) for m in MODES})
    if a.output:
        with open(a.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
