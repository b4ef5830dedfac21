"""--sweeps (implies --kernels): the kernels of ltfuzz/kernels.py also get
recurrences that update a row in place from what they wrote before in the
same loop, over views of x, y and the local arrays (which --alias makes
overlap), the loads the undo log may re-read from a block of the row
(analysis/owchoice.c lt_load_behind, gen/undoblock.c):
  thomas     a tridiagonal (Thomas) solve over M <= N points, 1-3 times:
             cp[i] = c[i] / (b[i] - a[i] cp[i - 1]), dp[i] = (d[i] -
             a[i] dp[i - 1]) / (...), then xs[i] = dp[i] - cp[i] xs[i + 1]
             downwards, the right side then moved by the solution (b a
             dominant diagonal from a view); cp, dp and xs views;
  recur      x[j] = s x[j - k] + t g(x[j - l]) (k, l in 1..3, g sin, tanh
             or a square), upwards, or its mirror downwards, 1-3 times,
             the row then read again nonlinearly in a loop of its own;
  ahead      x[j] = g(x[j + k]) upwards (the old values: no block may
             stand for them), or behind and ahead in one loop.
Bounds are literals or from n (== N at run time). Drawn from a stream of
its own, in kernels.py's kernel() after its draws (and the other add-on
modes'), and at the end of f when no kernel drew one: f is the program of
--kernels with these blocks added."""
from .addon import KernelAddon
from .shapes import N


class Sweeps(KernelAddon):
    name = "sweeps"
    flag = "--sweeps"
    prefix, stream = "sw", (7949, 71)
    help = ("(implies --kernels) the kernels also get in-place recurrences "
            "(Thomas tridiagonal solves, x[j] from x[j - k], reads ahead)")

    def sw_pick(self, force):
        r = self.sw_r
        if not force and r.random() < 0.5:
            return []
        self.sw_count += 1
        return r.choice([self.sw_thomas, self.sw_recur, self.sw_ahead])()

    # ------------------------------------------------------------ helpers
    def sw_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.sw_r.uniform(lo, hi))

    def sw_bound(self, m):
        """An exclusive upper bound m: a literal or from n (== N at run time)."""
        return str(m) if self.sw_r.random() < 0.5 else "n - %d" % (N - m)

    def sw_view(self, name, width, const=False):
        """`double *name = A + off;` for a view of width elements."""
        r = self.sw_r
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        a = r.choice(["x", "y", "x", "y", "x", "y"] + locs)
        off = r.randint(0, N - width)
        return "%sdouble *%s = %s;" % ("const " if const else "", name,
                                       a if off == 0 else "%s + %d" % (a, off))

    def sw_g(self, v):
        return self.sw_r.choice(["sin(%s)", "tanh(%s)", "%s * %s"]).replace("%s", v)

    def sw_use(self, arr, m):
        r = self.sw_r
        acc = "acc%d" % r.randrange(self.naccs)
        return ["%s += %s * %s[%d] * %s[%d] + %s * %s[%d];" % (
            acc, self.sw_c(0.2, 0.6, 2), arr, r.randrange(m), arr, r.randrange(m),
            self.sw_c(0.2, 0.6, 2), arr, r.randrange(m))]

    def sw_steps(self):
        s = self.sw_r.randint(1, 3)
        return s, "sw%d" % self.sw_count

    # ------------------------------------------------------------ shapes
    def sw_thomas(self):
        r, q = self.sw_r, self.sw_count
        M = r.randint(3, N)
        a, d, cp, dp, xs = ("ta%d" % q, "td%d" % q, "tc%d" % q, "tp%d" % q, "tx%d" % q)
        i, s = "ti%d" % q, "ts%d" % q
        steps = r.randint(1, 3)
        src = "tsrc%d" % q
        out = ["/* --sweeps: a Thomas tridiagonal solve, %d time(s) */" % steps,
               self.sw_view(src, M, True),
               "double %s[%d], %s[%d];" % (a, M, d, M),
               "for (int %s = 0; %s < %d; %s++) {" % (i, i, M, i),
               "  %s[%s] = %s * tanh(%s[%s]);" % (a, i, self.sw_c(0.2, 0.5, 2), src, i),
               "  %s[%s] = %s[%s] + %s;" % (d, i, src, i, self.sw_c(-0.3, 0.3, 2)),
               "}",
               self.sw_view(cp, M), self.sw_view(dp, M), self.sw_view(xs, M)]
        bound = self.sw_bound(M)
        bdiag = "(%s + %s * %s[%s] * %s[%s])" % (self.sw_c(2.2, 2.8, 2), self.sw_c(0.05, 0.2, 2),
                                                 src, "%s", src, "%s")
        b = lambda k: bdiag % (k, k)  # noqa: E731
        c = "%s * %s[%s - 1]" % (self.sw_c(0.2, 0.45, 2), a, "%s")
        out += ["for (int %s = 0; %s < %d; %s++) {" % (s, s, steps, s),
                "  %s[0] = %s * %s[0] / %s;" % (cp, self.sw_c(0.2, 0.45, 2), a, b("0")),
                "  %s[0] = %s[0] / %s;" % (dp, d, b("0")),
                "  for (int %s = 1; %s < %s; %s++) {" % (i, i, bound, i),
                "    double tm%d = %s - %s[%s] * %s[%s - 1];" % (q, b(i), a, i, cp, i),
                "    %s[%s] = %s / tm%d;" % (cp, i, c % i, q),
                "    %s[%s] = (%s[%s] - %s[%s] * %s[%s - 1]) / tm%d;" % (dp, i, d, i, a, i, dp,
                                                                       i, q),
                "  }",
                "  %s[%s - 1] = %s[%s - 1];" % (xs, bound, dp, bound),
                "  for (int %s = %s - 2; %s >= 0; %s--)" % (i, bound, i, i),
                "    %s[%s] = %s[%s] - %s[%s] * %s[%s + 1];" % (xs, i, dp, i, cp, i, xs, i),
                "  for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
                "    %s[%s] = %s[%s] + %s * %s;" % (d, i, xs, i, self.sw_c(0.05, 0.2, 2),
                                                  self.sw_g("%s[%s]" % (xs, i))),
                "}"]
        return out + self.sw_use(xs, M) + self.sw_use(d, M)

    def sw_recur(self):
        r, q = self.sw_r, self.sw_count
        M = r.randint(4, N)
        x, j, s = "rx%d" % q, "rj%d" % q, "rs%d" % q
        k, l = r.randint(1, 3), r.randint(1, 3)
        lo = max(k, l)
        steps = r.randint(1, 3)
        up = r.random() < 0.5
        if up:
            head = "for (int %s = %d; %s < %s; %s++)" % (j, lo, j, self.sw_bound(M), j)
            back = lambda t: "%s[%s - %d]" % (x, j, t)  # noqa: E731
        else:
            top = "%d" % (M - 1 - lo) if r.random() < 0.5 else "n - %d" % (N - M + 1 + lo)
            head = "for (int %s = %s; %s >= 0; %s--)" % (j, top, j, j)
            back = lambda t: "%s[%s + %d]" % (x, j, t)  # noqa: E731
        out = ["/* --sweeps: x[j] from x[j %s k] in place (k = %d, %d), %s */" % (
                   "-" if up else "+", k, l, "upwards" if up else "downwards"),
               self.sw_view(x, M),
               "for (int %s = 0; %s < %d; %s++) {" % (s, s, steps, s),
               "  " + head,
               "    %s[%s] = %s * %s + %s * %s;" % (x, j, self.sw_c(0.3, 0.6, 2), back(k),
                                                  self.sw_c(0.2, 0.5, 2), self.sw_g(back(l))),
               "  for (int %s = 0; %s < %d; %s++)" % (j, j, M, j),
               "    acc%d += %s * %s;" % (r.randrange(self.naccs), self.sw_c(0.1, 0.3, 2),
                                          self.sw_g("%s[%s]" % (x, j))),
               "}"]
        return out + self.sw_use(x, M)

    def sw_ahead(self):
        r, q = self.sw_r, self.sw_count
        M = r.randint(4, N)
        x, j = "hx%d" % q, "hj%d" % q
        k = r.randint(1, 2)
        both = r.random() < 0.5
        rhs = "%s * %s" % (self.sw_c(0.3, 0.6, 2), self.sw_g("%s[%s + %d]" % (x, j, k)))
        if both:
            rhs += " + %s * %s[%s - 1] * %s[%s]" % (self.sw_c(0.1, 0.3, 2), x, j, x, j)
        out = ["/* --sweeps: x[j] from x[j + %d] (read ahead)%s */" % (
                   k, ", and x[j - 1]" if both else ""),
               self.sw_view(x, M),
               "for (int %s = %d; %s < %s; %s++)" % (j, 1 if both else 0, j,
                                                    self.sw_bound(M - k), j),
               "  %s[%s] = %s;" % (x, j, rhs)]
        return out + self.sw_use(x, M)
