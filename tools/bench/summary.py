#!/usr/bin/env python3
"""summary.py: the summary of a benchmark report, derived from its tables
(run.sh --markdown puts it under the header; nothing in it is written by
hand), and the agreement of two reports.

    python3 tools/bench/summary.py REPORT          the summary (markdown)
    python3 tools/bench/summary.py --compare A B   every ratio of A against B:
        relative difference of the figures, the largest, and those over 10%
        (exit 1 when any is)

A ratio cell is "figure (min-max)" (the fastest batches' ratio, and the
same per group: measure.h); a target or goal cell is "met" or the
list of misses (a target is met only when the whole spread meets it)."""
import re
import sys

RATIO = re.compile(r"^(-?[0-9.]+) \((-?[0-9.]+)-(-?[0-9.]+)\)")


def tables(path):
    """[(header cells, [row cells])] of every markdown table in the file,
    and the load-average lines."""
    out, cur, loads = [], None, []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("Load average") and "during" in line:
            loads.append(line)
        if not line.startswith("|"):
            cur = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|---"):
            continue
        if cur is None:
            cur = (cells, [])
            out.append(cur)
        else:
            cur[1].append(cells)
    return out, loads


def col(header, word):
    for i, h in enumerate(header):
        if h.startswith(word):
            return i
    return None


def ratio(cell):
    m = RATIO.match(cell)
    return tuple(float(x) for x in m.groups()) if m else None


def span(vals):
    if not vals:
        return "-"
    lo, hi = min(vals), max(vals)
    return "%.2f" % lo if "%.2f" % lo == "%.2f" % hi else "%.2f-%.2f" % (lo, hi)


def summary(path):
    tabs, loads = tables(path)
    out = []
    nck = 0
    for h, rows in tabs:
        if h[0] == "kernel" and col(h, "grad speedup 1->2") is not None:
            si, pi = col(h, "grad speedup 1->2"), col(h, "primal speedup 1->2")
            g1, g2 = col(h, "grad/primal 1 thread"), col(h, "grad/primal 2 threads")
            gi = col(h, "goals")
            ok = sum(r[1].startswith("ok") for r in rows)
            miss = [(r[0], r[gi]) for r in rows if r[gi] != "met"]
            out.append("- OpenMP: grad ok in %d of %d; grad/primal %s at 1 thread, %s at 2 threads; "
                       "gradient speedup 1->2 threads %s (the primal's %s); %d of %d meet both goals "
                       "over the whole spread%s." % (
                           ok, len(rows), span([ratio(r[g1])[0] for r in rows]),
                           span([ratio(r[g2])[0] for r in rows]),
                           ", ".join("%s %s" % (r[0], r[si]) for r in rows),
                           ", ".join(r[pi] for r in rows), len(rows) - len(miss), len(rows),
                           "" if not miss else "; not met: " + ", ".join(
                               "%s (%s)" % m for m in miss)))
        elif h[0] == "kernel" and col(h, "ranks") is not None:
            ni, gi, pi = col(h, "ranks"), col(h, "grad/primal"), col(h, "primal ms")
            ok = sum(r[2].startswith("ok") for r in rows)
            by = {r[ni]: r for r in rows}
            sp = ""
            if "1" in by and "2" in by:
                sp = "; primal speedup 1->2 ranks %.2f" % (
                    float(by["1"][pi]) / float(by["2"][pi]))
            out.append("- MPI: grad ok in %d of %d; grad/primal %s%s." % (
                ok, len(rows), ", ".join("%s at %s rank%s" % (
                    r[gi], r[ni], "" if r[ni] == "1" else "s") for r in rows), sp))
        elif h[0] == "kernel" and col(h, "library calls") is not None:
            gi, li = col(h, "grad/primal"), col(h, "loop grad / library grad")
            ti = col(h, "targets")
            ok = sum(r[col(h, "grad ok")].startswith("ok") for r in rows)
            miss = [(r[0], r[ti]) for r in rows if r[ti] != "met"]
            out.append("- BLAS/LAPACK: grad ok in %d of %d; grad/primal %s; the loop version's "
                       "gradient / the library version's %s; %d of %d meet both targets over the "
                       "whole spread%s." % (
                           ok, len(rows), ", ".join("%s %s" % (r[0], r[gi]) for r in rows),
                           ", ".join("%s %s" % (r[0], r[li]) for r in rows),
                           len(rows) - len(miss), len(rows), "" if not miss else
                           "; not met: " + ", ".join("%s (%s)" % m for m in miss)))
        elif h[0] == "kernel" and col(h, "grad/primal") is not None:
            ok = sum(r[1] == "ok" for r in rows)
            ti = col(h, "issue-4 targets")
            miss = [(r[0], r[ti], r[2]) for r in rows if r[ti] != "met"]
            rs = [ratio(r[2])[0] for r in rows if ratio(r[2])]
            out.append("- Kernels: %d rows, grad ok in %d; grad/primal figures %s; %d of %d meet every "
                       "issue-4 target over the whole spread%s." % (
                           len(rows), ok, span(rs), len(rows) - len(miss), len(rows),
                           "" if not miss else "; not met: " + ", ".join(
                               "%s (%s: %s)" % m for m in miss)))
        elif h[0] == "plain kernel":
            ti = col(h, "twin target")
            qi = col(h, "plain/restrict")
            miss = [(r[0], r[ti], r[qi]) for r in rows if r[ti] != "met"]
            out.append("- Restrict/plain twins: %d of %d meet the twin target (same tape and "
                       "allocations, plain/restrict within 10%% over the whole spread)%s." % (
                           len(rows) - len(miss), len(rows), "" if not miss else "; not met: " +
                           ", ".join("%s (%s: %s)" % m for m in miss)))
        elif h[0] == "objective":
            li, gi = col(h, "Leantape / hand"), col(h, "Leantape grad/primal")
            ok = sum(r[2] == "ok" for r in rows)
            out.append("- ADBench and GradBench: grad ok in %d of %d; Leantape / hand-written %s (%s); "
                       "Leantape grad/primal %s." % (
                           ok, len(rows), span([ratio(r[li])[0] for r in rows]),
                           ", ".join("%s %s" % (r[0], r[li]) for r in rows),
                           span([ratio(r[gi])[0] for r in rows])))
        elif h[0] == "kernel" and col(h, "tangent/primal") is not None:
            ti, wi, gi = col(h, "tangent/primal"), col(h, "width 8 / width 1"), col(h, "goals")
            ok = sum(r[-1].startswith("yes") for r in rows)
            miss = [(r[0], r[gi], r[ti], r[wi]) for r in rows if r[gi] != "met"]
            out.append("- Forward mode: tangents ok in %d of %d; tangent/primal %s, width 8 / width 1 "
                       "%s (the width-8 figures depend on the vector width); %d of %d meet "
                       "both goals over the whole spread%s." % (
                           ok, len(rows), span([ratio(r[ti])[0] for r in rows]),
                           span([ratio(r[wi])[0] for r in rows]), len(rows) - len(miss), len(rows),
                           "" if not miss else "; not met: " + ", ".join(
                               "%s (%s; width 1 %s, width 8 / width 1 %s)" % m for m in miss)))
        elif h[0] == "tape budget":
            # run.sh: the Burgers table, the diffusion's, the adaptive ODE's, then
            # the Burgers step copied back by memcpy (not checkpointed)
            name = ["Checkpointing, in-place Burgers (N = 4000, T = 20000)",
                    "Time loop, double-buffered diffusion (300 x 300, 50 steps, state history "
                    "36 MB)", "Online checkpointing, adaptive-step ODE",
                    "Burgers copied back by memcpy (state history 610 MB)"][min(nck, 3)]
            nck += 1
            ri, gi = col(h, "peak RSS"), col(h, "grad/primal")
            ai, mi = col(h, "steps run again"), col(h, "tape memory")
            # the row compiled without checkpointing agrees to 1e-12 (run.sh)
            ck = [r for r in rows if not r[0].startswith("none, not checkpointed")]
            ck = ck or rows[:1]  # a table of one row compiled without checkpointing
            same = len({r[-1] for r in ck}) == 1 and all(
                abs(float(r[-1]) - float(ck[0][-1])) <= 1e-12 * abs(float(ck[0][-1]))
                for r in rows)
            out.append("- %s: %s; checksums %s." % (name, "; ".join(
                "budget %s: peak RSS %s MB, grad/primal %s, %s steps run again%s" % (
                    r[0], r[ri], r[gi], r[ai],
                    "" if mi is None or r[mi] == "-" else ", tape memory %s MB" % r[mi])
                for r in rows), "equal in every row" if same else "DIFFER"))
        elif h[0] == "source":
            gi = col(h, "grad/primal")
            cg = [r for r in rows if ratio(r[gi])]
            out.append("- Call graphs run: %d, grad ok in %d; grad/primal figures %s." % (
                len(cg), sum(r[col(h, "grad ok")] == "ok" for r in cg),
                span([ratio(r[gi])[0] for r in cg])))
    if loads:
        lo = [float(x) for l in loads for m in re.findall(r"([0-9.]+)-([0-9.]+)", l)[:1]
              for x in m]
        out.append("- Load average (1 min) during the tables: %s." % span(lo))
    return "## Summary (derived from the tables by summary.py)\n\n" + "\n".join(out)


def ratios(path):
    """{(table, row, column): figure} of every ratio cell."""
    tabs, _ = tables(path)
    out = {}
    for h, rows in tabs:
        for r in rows:
            for i, c in enumerate(r):
                v = ratio(c)
                if v and i < len(h) and "us" not in h[i]:
                    out[(h[0], r[0], h[i])] = v[0]
    return out


def compare(a, b):
    ra, rb = ratios(a), ratios(b)
    diffs = sorted(((abs(rb[k] - v) / abs(v) if v else 0.0, k, v, rb[k])
                    for k, v in ra.items() if k in rb), reverse=True)
    over = [d for d in diffs if d[0] > 0.10]
    print("%d ratios compared; largest relative difference %.1f%%; %d over 10%%" % (
        len(diffs), 100 * diffs[0][0] if diffs else 0, len(over)))
    for d, k, v, w in over:
        print("  %s / %s: %.3g vs %.3g (%.1f%%)" % (k[1], k[2], v, w, 100 * d))
    return 1 if over else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    print(summary(sys.argv[1]))
