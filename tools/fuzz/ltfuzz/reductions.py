"""--reductions (implies --kernels): the kernels of ltfuzz/kernels.py also get
running maxima and minima of data, as selects (`m = p[i] > m ? p[i] : m`,
`>=`, `<`, `<=`; or, from a stream of their own, `m = fmax(m, p[i])`,
fmin, either order, which prep/reduce.c makes selects) or branches
(`if (p[i] > m) { m = p[i]; k = i; }`, the
index then read), whose reverse needs each iteration's compare, not the
extreme so far (plan/source.c tapes the compare where that is cheaper):
  lse      log(sum exp(p[i] - m)) + m with m the running maximum;
  scaled   the running extreme also read in the loop (t += m p[i]);
  argmax   the extreme's index, then q[k] read.
The data are a view of x, y or a local array plus or minus 0.05 i (two
elements within the finite differences' step of a tie, where the
function has a kink, have a chance of about 1e-6 a pair: run.sh's
fd(h) / fd(2h) check would call such a seed unstable). Drawn from a stream of its own, in
kernels.py's kernel() after its draws (and --inplace's, --lagged's and
--memops'), and at the end of f when no kernel drew one: f is the program
of --kernels with these blocks added."""
import random

from .addon import KernelAddon
from .shapes import N


class Reductions(KernelAddon):
    name = "reductions"
    flag = "--reductions"
    prefix, stream = "rd", (7937, 67)
    help = ("(implies --kernels) the kernels also get running maxima and "
            "minima of data (selects or branches, with their index)")

    def on_init(self):
        self.rd_r = random.Random(self.seed * 7937 + 67)
        self.rd_f = random.Random(self.seed * 7951 + 73)  # fmax forms: the old draws kept
        self.rd_count = 0

    def rd_pick(self, force):
        r = self.rd_r
        if not force and r.random() < 0.5:
            return []
        self.rd_count += 1
        q = self.rd_count
        M = r.randint(3, N)
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        src = r.choice(["x", "y", "x", "y"] + locs)
        off = r.randint(0, N - M)
        sign = r.choice(["+", "-"])
        d, m, i, k = "rd%d" % q, "rm%d" % q, "ri%d" % q, "rk%d" % q
        acc = "acc%d" % r.randrange(self.naccs)
        op = r.choice([">", ">=", "<", "<="])
        out = ["/* --reductions: a running extreme (%s) */" % op,
               "double %s[%d];" % (d, M),
               "for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
               "  %s[%s] = %s[%s + %d] %s 0.05 * %s;" % (d, i, src, i, off, sign, i),
               "double %s = %s[0];" % (m, d)]
        shape = r.choice(["lse", "scaled", "argmax"])
        bound = str(M) if r.random() < 0.5 else "n - %d" % (N - M)
        if shape == "argmax":
            out += ["int %s = 0;" % k,
                    "for (int %s = 1; %s < %s; %s++)" % (i, i, bound, i),
                    "  if (%s[%s] %s %s) {" % (d, i, op, m),
                    "    %s = %s[%s];" % (m, d, i),
                    "    %s = %s;" % (k, i),
                    "  }",
                    "%s += %.2f * %s * %s[%s] + %.2f * sin(%s);" % (
                        acc, r.uniform(0.2, 0.5), m, d, k, r.uniform(0.1, 0.4), m)]
            return out
        sel = "  %s = %s[%s] %s %s ? %s[%s] : %s;" % (m, d, i, op, m, d, i, m)
        if self.rd_f.random() < 0.4:  # fmax / fmin (prep/reduce.c), either order
            fn = "fmax" if op[0] == ">" else "fmin"
            args = (m, "%s[%s]" % (d, i)) if self.rd_f.random() < 0.5 else ("%s[%s]" % (d, i), m)
            sel = "  %s = %s(%s, %s);" % (m, fn, args[0], args[1])
        if shape == "lse":
            s = "rs%d" % q
            out += ["for (int %s = 1; %s < %s; %s++)" % (i, i, bound, i), sel,
                    "double %s = 0.0;" % s,
                    "for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
                    "  %s += exp(%s[%s] - %s);" % (s, d, i, m),
                    "%s += %.2f * (log(%s) + %s);" % (acc, r.uniform(0.2, 0.5), s, m)]
            return out
        t = "rt%d" % q
        out += ["double %s = 0.0;" % t,
                "for (int %s = 1; %s < %s; %s++) {" % (i, i, bound, i), sel,
                "  %s += %.2f * %s * %s[%s];" % (t, r.uniform(0.1, 0.3), m, d, i),
                "}",
                "%s += %s + %.2f * %s * %s;" % (acc, t, r.uniform(0.1, 0.3), m, m)]
        return out
