"""--lagged (implies --kernels): the kernels of ltfuzz/kernels.py also get
triangular nests whose indices run against each other, over views of x, y
and the local arrays (which --alias makes overlap, adjacent or not), the
shapes whose byte ranges only a bound that follows the nest's triangle
keeps tight (analysis/rangetri.c):
  durbin     Levinson-Durbin over M <= 6: sum += r[k - i - 1] * y[i],
             z[i] = y[i] + alpha * y[k - i - 1] for i < k, y[i] = z[i]
             (z local), with r = 0.2 tanh(view) (reflection coefficients
             well inside (-1, 1));
  conv       a causal convolution in place: a[k] = c a[k] + d sum over
             i <= k of a[i] * b[k - i] (a and b views, maybe the same);
  lagged     lagged products over an outer loop that counts down:
             y[i - k] += s x[i] x[i - k] for k = M - 1 .. 1, i = k .. M - 1;
  dowhile    a do-while from j = i to j < m (m < M: for i >= m its range
             is empty and it runs once): y[m - 1 - (j - i)] += s x[j]^2.
Bounds are literals or from n (== N at run time). Drawn from a stream of
its own, in kernels.py's kernel() after its draws (and --inplace's), and
at the end of f when no kernel drew one: f is the program of --kernels
with these blocks added."""
from .addon import KernelAddon
from .shapes import N


class Lagged(KernelAddon):
    name = "lagged"
    flag = "--lagged"
    prefix, stream = "lg", (7927, 59)
    help = ("(implies --kernels) the kernels also get triangular nests "
            "with indices such as k - i - 1 (Levinson-Durbin, causal "
            "convolution, lagged products, a do-while that may run once)")

    def lg_pick(self, force):
        r = self.lg_r
        t = r.random()
        if not force and t < 0.5:
            return []
        self.lg_count += 1
        shape = r.choice([self.lg_durbin, self.lg_conv, self.lg_lagged, self.lg_dowhile])
        return shape()

    # ------------------------------------------------------------ helpers
    def lg_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.lg_r.uniform(lo, hi))

    def lg_bound(self, m):
        """A trip count of m: a literal or from n (== N at run time)."""
        return str(m) if self.lg_r.random() < 0.5 else "n - %d" % (N - m)

    def lg_view(self, name, width, const=False):
        """`double *name = A + off;` for a view of width elements."""
        r = self.lg_r
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        a = r.choice(["x", "y", "x", "y"] + locs)
        off = r.randint(0, N - width)
        return "%sdouble *%s = %s;" % ("const " if const else "", name,
                                       a if off == 0 else "%s + %d" % (a, off))

    def lg_acc(self):
        return "acc%d" % self.lg_r.randrange(self.naccs)

    def lg_use(self, arr, m):
        """Two entries of arr[0..m) into accumulators."""
        r = self.lg_r
        return ["%s += %s * %s[%d] * %s[%d];" % (self.lg_acc(), self.lg_c(0.2, 0.6, 2), arr,
                                                 r.randrange(m), arr, r.randrange(m)),
                "%s += %s * %s[%d];" % (self.lg_acc(), self.lg_c(0.2, 0.6, 2), arr, r.randrange(m))]

    # ------------------------------------------------------------ shapes
    def lg_durbin(self):
        r, q = self.lg_r, self.lg_count
        M = r.randint(3, min(6, N))
        rr, yy, z = "dr%d" % q, "dy%d" % q, "dz%d" % q
        k, i = "dk%d" % q, "di%d" % q
        src = self.lg_view("dsrc%d" % q, M, True)
        out = ["/* --lagged: Levinson-Durbin (r[k - i - 1], y[k - i - 1]) */",
               src, self.lg_view(yy, M),
               "double %s[%d], %s[%d];" % (rr, M, z, M),
               "for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
               "  %s[%s] = 0.2 * tanh(dsrc%d[%s]);" % (rr, i, q, i)]
        if r.random() < 0.5:  # r itself a view (maybe overlapping y)
            rr2 = "dv%d" % q
            out += [self.lg_view(rr2, M),
                    "for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
                    "  %s[%s] = %s[%s];" % (rr2, i, rr, i)]
            rr = rr2
        m = self.lg_bound(M)
        out += ["{",
                "  double db%d = 1.0, da%d = -%s[0];" % (q, q, rr),
                "  %s[0] = -%s[0];" % (yy, rr),
                "  for (int %s = 1; %s < %s; %s++) {" % (k, k, m, k),
                "    db%d = (1.0 - da%d * da%d) * db%d;" % (q, q, q, q),
                "    double ds%d = 0.0;" % q,
                "    for (int %s = 0; %s < %s; %s++)" % (i, i, k, i),
                "      ds%d += %s[%s - %s - 1] * %s[%s];" % (q, rr, k, i, yy, i),
                "    da%d = -(%s[%s] + ds%d) / db%d;" % (q, rr, k, q, q),
                "    for (int %s = 0; %s < %s; %s++)" % (i, i, k, i),
                "      %s[%s] = %s[%s] + da%d * %s[%s - %s - 1];" % (z, i, yy, i, q, yy, k, i),
                "    for (int %s = 0; %s < %s; %s++)" % (i, i, k, i),
                "      %s[%s] = %s[%s];" % (yy, i, z, i),
                "    %s[%s] = da%d;" % (yy, k, q),
                "  }",
                "}"]
        return out + self.lg_use(yy, M)

    def lg_conv(self):
        r, q = self.lg_r, self.lg_count
        M = r.randint(2, min(6, N))
        a, b = "ca%d" % q, "cb%d" % q
        k, i = "ck%d" % q, "ci%d" % q
        incl = r.random() < 0.5
        out = ["/* --lagged: a causal convolution in place (b[k - i]) */",
               self.lg_view(a, M), self.lg_view(b, M, True),
               "for (int %s = 0; %s < %s; %s++) {" % (k, k, self.lg_bound(M), k),
               "  double cs%d = 0.0;" % q,
               "  for (int %s = 0; %s %s %s; %s++)" % (i, i, "<=" if incl else "<",
                                                     k if incl else "%s + 1" % k, i),
               "    cs%d += %s[%s] * %s[%s - %s];" % (q, a, i, b, k, i),
               "  %s[%s] = %s * %s[%s] + %s * %s;" % (a, k, self.lg_c(0.4, 0.7, 2), a, k,
                                                   self.lg_c(0.1, 0.3, 2),
                                                   r.choice(["cs%d", "tanh(cs%d)"]) % q),
               "}"]
        return out + self.lg_use(a, M)

    def lg_lagged(self):
        r, q = self.lg_r, self.lg_count
        M = r.randint(2, min(6, N))
        x, y = "lx%d" % q, "ly%d" % q
        k, i = "lk%d" % q, "li%d" % q
        top = "%d" % (M - 1) if r.random() < 0.5 else "n - %d" % (N - M + 1)
        out = ["/* --lagged: lagged products, the outer loop counting down (x[i - k]) */",
               self.lg_view(x, M, True), self.lg_view(y, M),
               "for (int %s = %s; %s >= 1; %s--)" % (k, top, k, k),
               "  for (int %s = %s; %s < %s; %s++)" % (i, k, i, self.lg_bound(M), i),
               "    %s[%s - %s] += %s * %s[%s] * %s;" % (
                   y, i, k, self.lg_c(0.1, 0.3, 2), x, i,
                   r.choice(["%s[%s - %s]" % (x, i, k), "sin(%s[%s - %s])" % (x, i, k)]))]
        return out + self.lg_use(y, M)

    def lg_dowhile(self):
        r, q = self.lg_r, self.lg_count
        M = r.randint(3, min(6, N))
        m = r.randint(1, M - 1)
        x, y = "wx%d" % q, "wy%d" % q
        i, j = "wi%d" % q, "wj%d" % q
        out = ["/* --lagged: a do-while whose range may be empty (it then runs once) */",
               self.lg_view(x, M, True), self.lg_view(y, M),
               "for (int %s = 0; %s < %s; %s++) {" % (i, i, self.lg_bound(M), i),
               "  int %s = %s;" % (j, i),
               "  do {",
               "    %s[%d - (%s - %s)] += %s * %s[%s] * %s[%s];" % (
                   y, m - 1, j, i, self.lg_c(0.1, 0.3, 2), x, j, x, j),
               "    %s++;" % j,
               "  } while (%s < %d);" % (j, m),
               "}"]
        return out + self.lg_use(y, m)
