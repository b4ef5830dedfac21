"""--temps (implies --kernels): the kernels of ltfuzz/kernels.py also get
local temporaries filled by one loop and read by the next ones, in an
outer loop of 1-3 points, the shape whose reads prep/storefwd.c makes the
stored expression again (GradBench's gmm: xc = x - means, then Q xc):
  fill     tt[k] = an expression of views of x, y or the local arrays at
           k, scaled by the point, for k < B (B and the number of points
           literals or, mostly, from n: loops LLVM does not unroll);
  readers  a loop over k < B reading tt[k] nonlinearly, a triangle over
           i < j < B reading tt[i], and sometimes what must stay memory:
           a reader from 1, or of B - 1 elements, a fill under a
           condition on the data, a fill of fewer elements at odd
           points, a read of the last point's fill before this one's, a
           write into the fill's source between the fill and the reads.
Drawn from a stream of its own, in kernels.py's kernel() after its draws
(and the other add-on modes'), and at the end of f when no kernel drew
one: f is the program of --kernels with these blocks added."""
from .addon import KernelAddon
from .shapes import N


class Temps(KernelAddon):
    name = "temps"
    flag = "--temps"
    prefix, stream = "tm", (7963, 83)
    help = ("(implies --kernels) the kernels also get local temporaries "
            "filled by a loop and read by the next ones (gmm's x - means)")

    def tm_pick(self, force):
        r = self.tm_r
        if not force and r.random() < 0.5:
            return []
        self.tm_count += 1
        return self.tm_block()

    def tm_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.tm_r.uniform(lo, hi))

    def tm_src(self, name, width, const=True):
        """`const double *name = A + off;` for a view of width elements."""
        r = self.tm_r
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        a = r.choice(["x", "y", "x", "y"] + locs)
        off = r.randint(0, N - width)
        return "%sdouble *%s = %s;" % ("const " if const else "", name,
                                       a if off == 0 else "%s + %d" % (a, off))

    def tm_block(self):
        r, q = self.tm_r, self.tm_count
        M = r.randint(2, N)
        B = str(M) if r.random() < 0.3 else "n - %d" % (N - M)
        P = r.randint(1, 3)
        PB = str(P) if r.random() < 0.3 else "n - %d" % (N - P)
        tt, a, b, p, k, i, j = ("tt%d" % q, "tma%d" % q, "tmb%d" % q, "tmp%d" % q,
                                "tmk%d" % q, "tmi%d" % q, "tmj%d" % q)
        acc = "acc%d" % r.randrange(self.naccs)
        c1, c2 = self.tm_c(0.3, 0.9), self.tm_c(-0.5, 0.5)
        odd = r.random() < 0.15  # the fill of fewer elements at odd points
        fill = r.choice(["%s[%s] - %s[%s]" % (a, k, b, k),
                         "%s * %s[%s] + %s[%s]" % (c1, a, k, b, k),
                         "%s[%s] * %s[%s] - %s" % (a, k, b, k, c2),
                         "(%s[%s] + %s) * %s" % (a, k, c2, c1),
                         "sin(%s[%s]) * %s[%s]" % (a, k, b, k)])
        out = ["/* --temps: a temporary filled and read, %d point(s) */" % P,
               self.tm_src(a, M), self.tm_src(b, M),
               "double %s[%d];" % (tt, N),
               "for (int %s = 0; %s < %s; %s++) {" % (p, p, PB, p)]
        late = r.random() < 0.15  # read the last point's fill first
        if late:
            out += ["  if (%s > 0)" % p,
                    "    for (int %s = 0; %s < %s; %s++)" % (k, k, B, k),
                    "      %s += %s * %s[%s] * %s[%s];" % (acc, c1, tt, k, tt, k)]
        bound = "(%s %% 2 ? %s - 1 : %s)" % (p, B, B) if odd else B
        cond = r.random() < 0.15  # a fill under a condition on the data
        out += ["  for (int %s = 0; %s < %s; %s++)" % (k, k, bound, k)]
        if cond:
            out += ["    if (%s == 0 || %s[%s] > 0.3)" % (p, a, k)]
        out += ["    %s%s[%s] = (%s) * (1 + %s * %s);" % ("  " if cond else "", tt, k, fill,
                                                           self.tm_c(0.1, 0.4), p)]
        if r.random() < 0.1:  # a write into the source between
            w = r.choice(["x", "y"])
            out += ["  %s[%d] = %s * %s[%d];" % (w, r.randrange(M), c1, w, r.randrange(N))]
        lo, hi = ("1", B) if r.random() < 0.15 else ("0", B)
        if r.random() < 0.15:
            hi = "%s - 1" % B
        g = r.choice(["%s * %s", "sin(%s) * %s", "tanh(%s) * %s"])
        out += ["  for (int %s = %s; %s < %s; %s++)" % (k, lo, k, hi, k),
                "    %s += %s;" % (acc, g % ("%s[%s]" % (tt, k), "%s[%s]" % (b, k)))]
        if r.random() < 0.6:
            out += ["  for (int %s = 0; %s < %s; %s++)" % (i, i, B, i),
                    "    for (int %s = %s + 1; %s < %s; %s++)" % (j, i, j, B, j),
                    "      %s += %s * %s[%s] * %s[%s];" % (acc, c2, tt, i, a, j)]
        out += ["}"]
        return out
