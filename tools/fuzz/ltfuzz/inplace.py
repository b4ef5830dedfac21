"""--inplace (implies --kernels): the kernels of ltfuzz/kernels.py also get
two in-place numerical shapes over small matrices in local buffers, seen
through plain pointers (row-major `double *` with a row stride, or 2-D
`double (*)[C]` with a constant row length C, sometimes padded):
  Gram-Schmidt  modified Gram-Schmidt of an m x n matrix A (3 <= n <= m
                <= 7), filled from x, y, s or the local arrays plus a
                multiple of the identity (well conditioned): for k:
                nrm = sum_i A[i][k]^2; R[k][k] = sqrt(nrm); Q[i][k] =
                A[i][k] / R[k][k]; for j > k: R[k][j] = sum_i Q[i][k] A[i][j];
                A[i][j] -= Q[i][k] R[k][j]. Q is a separate array or
                written back into A's column (read in one loop, overwritten
                in the next); the norm and R[k][j] accumulate in a scalar or
                in R itself; a quotient or a reciprocal; an extra
                nonlinearity (sqrt(nrm + e), exp(log(nrm) / 2), a damped or
                perturbed update, tanh of R[k][j]); then log R[k][k], R[k][j],
                Q's entries into accumulators, sometimes a column of Q or
                R's diagonal blended into a view of x, y or a local array;
  ADI           PolyBench adi on a G x G grid u (4 <= G <= 6), 1-3 time
                steps: a forward sweep p[i][j] = -c / (a p[i][j-1] + b),
                q[i][j] = (-d u[j][i-1] + (1 + 2d) u[j][i] - f u[j][i+1]
                - a q[i][j-1]) / (a p[i][j-1] + b), a backward sweep
                v[j][i] = p[i][j] v[j+1][i] + q[i][j], then the same
                transposed from v into u. a, c, d, f <= 0, |c| <= |a| <=
                0.45, |f| <= |d| <= 0.45, b = 1 - a - c + e (so u stays
                bounded); literals or active (tanh of an entry of x, y, s);
                the boundary value 1 or active; p and q as G x G or one row
                reused per i; v a second grid or u itself (in place); then
                u into accumulators, sometimes a row blended into a view.
Drawn from a stream of its own, in kernels.py's kernel() after its draws,
and at the end of f when no kernel drew one: f is the program of --kernels
with these blocks added."""
import random

from .mode import Mode
from .shapes import N


class Inplace(Mode):
    name = "inplace"
    flag = "--inplace"
    implies = ("kernels",)
    help = ("(implies --kernels) the kernels also get in-place numerical "
            "shapes: modified Gram-Schmidt (sqrt, quotients, a column read "
            "then overwritten) and PolyBench adi's tridiagonal sweeps")

    def on_init(self):
        self.ip_r = random.Random(self.seed * 7919 + 43)
        self.ip_count = 0

    def on_finish(self):
        if self.ip_count:
            return []
        body = self.ip_gs() if self.ip_r.random() < 0.5 else self.ip_adi()
        return ["  " + l for l in ["{"] + ["  " + l for l in body] + ["}"]]

    def ip_kernel(self):
        """Lines for kernels.py's kernel() (after its own draws), or []."""
        t = self.ip_r.random()
        if t < 0.3:
            return self.ip_gs()
        if t < 0.6:
            return self.ip_adi()
        return []

    # ------------------------------------------------------------ helpers
    def ip_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.ip_r.uniform(lo, hi))

    def ip_bound(self, m):
        """A trip count of m: a constant or from n (== N at run time)."""
        return str(m) if self.ip_r.random() < 0.5 or m > N else "n - %d" % (N - m)

    def ip_src(self):
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        return self.ip_r.choice(["x", "y", "x", "y"] + locs)

    def ip_acc(self):
        return "acc%d" % self.ip_r.randrange(self.naccs)

    def ip_active(self):
        """An active value in [-1, 1]: tanh of an entry of x, y, a local
        array, or of s."""
        r = self.ip_r
        if self.has_s and r.random() < 0.3:
            return "tanh(s)"
        return "tanh(%s[%d])" % (self.ip_src(), r.randrange(N))

    def ip_matrix(self, name, rows, cols):
        """A rows x cols matrix in a local buffer: (its lines, el(i, j))."""
        r = self.ip_r
        stride = cols + (r.randint(1, 2) if r.random() < 0.25 else 0)
        off = r.randint(1, 3) if r.random() < 0.2 else 0
        size = rows * stride + off
        buf = "double %s_b[%d];" % (name, size)
        if r.random() < 0.5:
            init = "%s_b + %d" % (name, off) if off else "%s_b" % name
            return [buf, "double *%s = %s;" % (name, init)], \
                lambda i, j: "%s[%s * %d + %s]" % (name, "(%s)" % i if " " in i else i, stride, j)
        if off:
            init = "(double (*)[%d])(%s_b + %d)" % (stride, name, off)
        elif r.random() < 0.5:
            init = "(double (*)[%d])%s_b" % (stride, name)
        else:  # a 2-D local array
            buf, init = "double %s_b[%d][%d];" % (name, rows, stride), "%s_b" % name
        return [buf, "double (*%s)[%d] = %s;" % (name, stride, init)], \
            lambda i, j: "%s[%s][%s]" % (name, i, j)

    def ip_fill(self, el, rows, cols, i, j):
        """Lines that fill a rows x cols matrix from the inputs, entries in
        about [-0.45, 0.45]."""
        r = self.ip_r
        a, b = self.ip_src(), self.ip_src()
        sc = self.ip_c(0.15, 0.35, 2)
        t = r.random()
        if t < 0.4:
            e = "%s * %s[(%s * %d + %s + %d) %% %d]" % (sc, a, i, cols, j, r.randrange(N), N)
        elif t < 0.7:
            e = "%s * tanh(%s[(%s + %s * %d + %d) %% %d])" % (sc, a, i, j, rows, r.randrange(N), N)
        else:
            e = "%s * %s[(%s + %d) %% %d] * %s[(%s + %d) %% %d] + %s * %s[(%s + %s) %% %d]" % (
                sc, a, i, r.randrange(N), N, b, j, r.randrange(N), N, self.ip_c(0.05, 0.15, 2),
                a, i, j, N)
        if self.has_s and r.random() < 0.3:
            e += " + %s * s" % self.ip_c(0.05, 0.1, 2)
        return ["for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(rows), i),
                "  for (int %s = 0; %s < %s; %s++)" % (j, j, self.ip_bound(cols), j),
                "    %s = %s;" % (el(i, j), e)]

    def ip_blend(self, vals, count, what):
        """Blends count values vals(k) into a view of an input."""
        r = self.ip_r
        w = "%s_w" % what
        k = "%s_o" % what
        p = self.ip_src()
        off = r.randint(0, N - count)
        a = self.ip_c(0.3, 0.7, 2)
        return ["double *%s = %s;" % (w, p if off == 0 else "%s + %d" % (p, off)),
                "for (int %s = 0; %s < %s; %s++)" % (k, k, self.ip_bound(count), k),
                "  %s[%s] = %s * %s[%s] + %.2f * %s;" % (w, k, a, w, k, 1 - float(a), vals(k))]

    # ------------------------------------------------------- Gram-Schmidt
    def ip_gs(self):
        r = self.ip_r
        self.ip_count += 1
        g = "gs%d" % self.ip_count
        M = r.randint(3, 7)
        C = r.randint(3, min(M, 6))
        i, j, k = g + "_i", g + "_j", g + "_k"
        la, A = self.ip_matrix(g + "_a", M, C)
        q_in_a = r.random() < 0.4
        if q_in_a:
            lq, Q = [], A
        else:
            lq, Q = self.ip_matrix(g + "_q", M, C)
        lr, R = self.ip_matrix(g + "_r", C, C)
        extra = r.choice(["none", "none", "eps", "explog", "damp", "sin", "tanh"])
        out = ["/* --inplace: modified Gram-Schmidt, %d x %d, Q %s, extra %s */" % (
            M, C, "in A" if q_in_a else "apart", extra)] + la + lq + lr
        out += self.ip_fill(A, M, C, i, j)
        dg = self.ip_c(2.0, 3.5, 2)
        if r.random() < 0.5:
            out += ["for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(C), i),
                    "  %s += %s;" % (A(i, i), dg)]
        else:
            out[-1] = out[-1][:-1] + " + (%s == %s ? %s : 0.0);" % (i, j, dg)
        nrm_mem = r.random() < 0.4
        nrm = R(k, k) if nrm_mem else g + "_n"
        rkk = {"eps": "sqrt(%s + %s)" % (nrm, self.ip_c(0.01, 0.3, 2)),
               "explog": "exp(0.5 * log(%s))" % nrm}.get(extra, "sqrt(%s)" % nrm)
        body = ["%s = 0.0;" % nrm if nrm_mem else "double %s = 0.0;" % nrm,
                "for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(M), i),
                "  %s += %s * %s;" % (nrm, A(i, k), A(i, k)),
                "%s = %s;" % (R(k, k), rkk)]
        if r.random() < 0.5:
            body += ["for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(M), i),
                     "  %s = %s / %s;" % (Q(i, k), A(i, k), R(k, k))]
        else:
            body += ["double %s_v = 1.0 / %s;" % (g, R(k, k)),
                     "for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(M), i),
                     "  %s = %s * %s_v;" % (Q(i, k), A(i, k), g)]
        dot = R(k, j) if r.random() < 0.5 else g + "_d"
        inner = ["%s = 0.0;" % dot if dot != g + "_d" else "double %s = 0.0;" % dot,
                 "for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(M), i),
                 "  %s += %s * %s;" % (dot, Q(i, k), A(i, j))]
        if extra == "tanh":
            inner.append("%s = tanh(%s);" % (R(k, j), dot))
        elif dot != R(k, j):
            inner.append("%s = %s;" % (R(k, j), dot))
        upd = "%s - %s%s * %s" % (A(i, j), self.ip_c(0.6, 0.95, 2) + " * " if extra == "damp" else "",
                                  Q(i, k), R(k, j))
        if extra == "sin":
            upd += " + %s * sin(%s)" % (self.ip_c(0.03, 0.1, 2), A(i, j))
        inner += ["for (int %s = 0; %s < %s; %s++)" % (i, i, self.ip_bound(M), i),
                  "  %s = %s;" % (A(i, j), upd)]
        body += ["for (int %s = %s + 1; %s < %s; %s++) {" % (j, k, j, self.ip_bound(C), j)]
        body += ["  " + l for l in inner] + ["}"]
        out += ["for (int %s = 0; %s < %s; %s++) {" % (k, k, self.ip_bound(C), k)]
        out += ["  " + l for l in body] + ["}"]
        # results
        outs = r.sample(["logdet", "offdiag", "qent", "qdot"], r.randint(1, 2))
        for o in outs:
            acc = self.ip_acc()
            w = self.ip_c(0.1, 0.4, 2)
            if o == "logdet":
                out += ["for (int %s = 0; %s < %d; %s++)" % (k, k, C, k),
                        "  %s += %s * log(%s);" % (acc, w, R(k, k))]
            elif o == "offdiag":
                f = r.choice(["%s", "%s * %s", "sin(%s)"])
                e = R(k, j)
                out += ["for (int %s = 0; %s < %d; %s++)" % (k, k, C, k),
                        "  for (int %s = %s + 1; %s < %d; %s++)" % (j, k, j, C, j),
                        "    %s += %s * %s;" % (acc, w, f.replace("%s", e))]
            elif o == "qent":
                out.append("%s += %s * %s * %s;" % (acc, w, Q(str(r.randrange(M)), str(r.randrange(C))),
                                                     Q(str(r.randrange(M)), str(r.randrange(C)))))
            else:
                out += ["for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
                        "  %s += %s * %s * %s[%s];" % (acc, w, Q(i, str(r.randrange(C))),
                                                       self.ip_src(), i)]
        t = r.random()
        if t < 0.3:
            col = str(r.randrange(C))
            out += self.ip_blend(lambda e: Q(e, col), M, g)
        elif t < 0.45:
            out += self.ip_blend(lambda e: "0.3 * %s" % R(e, e), C, g)
        return out

    # ---------------------------------------------------------------- ADI
    def ip_adi(self):
        r = self.ip_r
        self.ip_count += 1
        g = "adi%d" % self.ip_count
        G = r.randint(4, 6)
        T = r.randint(1, 3)
        i, j, t = g + "_i", g + "_j", g + "_t"
        lu, U = self.ip_matrix(g + "_u", G, G)
        in_place = r.random() < 0.25
        lv, V = ([], U) if in_place else self.ip_matrix(g + "_v", G, G)
        rows = r.random() < 0.35  # p and q: one row, reused per i
        if rows:
            lp = ["double %s_p[%d], %s_q[%d];" % (g, G, g, G)]
            P = lambda a, b: "%s_p[%s]" % (g, b)
            Qa = lambda a, b: "%s_q[%s]" % (g, b)
        else:
            lp, P = self.ip_matrix(g + "_p", G, G)
            lq, Qa = self.ip_matrix(g + "_q", G, G)
            lp += lq
        cs = ["/* --inplace: ADI (PolyBench adi), %d x %d, %d steps%s%s */" % (
            G, G, T, ", v is u" if in_place else "", ", p and q one row" if rows else "")]
        cs += lu + lv + lp
        names = {}
        for pair in (("a", "c"), ("d", "f")):
            big = "%s_%s" % (g, pair[0])
            if r.random() < 0.5:
                cs.append("double %s = -(%s + %s * %s);" % (big, self.ip_c(0.2, 0.3, 2),
                                                              self.ip_c(0.05, 0.15, 2), self.ip_active()))
            else:
                cs.append("double %s = %s;" % (big, self.ip_c(-0.45, -0.05, 2)))
            small = "%s_%s" % (g, pair[1])
            if r.random() < 0.4:
                cs.append("double %s = %s;" % (small, big))
            else:
                cs.append("double %s = %s * %s;" % (small, self.ip_c(0.3, 1.0, 2), big))
            names[pair[0]], names[pair[1]] = big, small
        a_, c_, d_, f_ = names["a"], names["c"], names["d"], names["f"]
        b_, e_ = g + "_b", g + "_e"
        cs.append("double %s = 1.0 - %s - %s + %s;" % (b_, a_, c_, self.ip_c(0.0, 0.3, 2)))
        cs.append("double %s = 1.0 - %s - %s + %s;" % (e_, d_, f_, self.ip_c(0.0, 0.3, 2)))
        bnd = "1.0"
        if r.random() < 0.4:
            bnd = g + "_h"
            cs.append("double %s = 0.6 + 0.3 * %s;" % (bnd, self.ip_active()))
        cs += self.ip_fill(U, G, G, i, j)

        def sweep(src, dst, pa, pb, pc, qa, qc, tr):
            """One half step: dst from src (tr: the column sweep)."""
            S = (lambda x_, y_: src(y_, x_)) if tr else src
            D = (lambda x_, y_: dst(y_, x_)) if tr else dst
            den = "(%s * %s + %s)" % (pa, P(i, j + " - 1"), pb)
            lo = "1"
            hi = self.ip_bound(G - 1)
            return ["for (int %s = %s; %s < %s; %s++) {" % (i, lo, i, hi, i),
                    "  %s = %s;" % (D(i, "0"), bnd),
                    "  %s = 0.0;" % P(i, "0"),
                    "  %s = %s;" % (Qa(i, "0"), D(i, "0")),
                    "  for (int %s = 1; %s < %s; %s++) {" % (j, j, self.ip_bound(G - 1), j),
                    "    %s = -%s / %s;" % (P(i, j), pc, den),
                    "    %s = (-%s * %s + (1.0 + 2.0 * %s) * %s - %s * %s - %s * %s) / %s;" % (
                        Qa(i, j), qa, S(i + " - 1", j), qa, S(i, j), qc, S(i + " + 1", j),
                        pa, Qa(i, j + " - 1"), den),
                    "  }",
                    "  %s = %s;" % (D(i, str(G - 1)), bnd),
                    "  for (int %s = %d; %s >= 1; %s--)" % (j, G - 2, j, j),
                    "    %s = %s * %s + %s;" % (D(i, j), P(i, j), D(i, j + " + 1"), Qa(i, j)),
                    "}"]
        body = sweep(U, V, a_, b_, c_, d_, f_, True) + sweep(V, U, d_, e_, f_, a_, c_, False)
        cs += ["for (int %s = 0; %s < %s; %s++) {" % (t, t, self.ip_bound(T), t)]
        cs += ["  " + l for l in body] + ["}"]
        acc = self.ip_acc()
        w = "%.3g" % (r.uniform(0.2, 0.6) / ((G - 2) * (G - 2)))
        f = r.choice(["%s", "%s * %s", "sin(%s)", "%s * %s"])
        cs += ["for (int %s = 1; %s < %d; %s++)" % (i, i, G - 1, i),
               "  for (int %s = 1; %s < %d; %s++)" % (j, j, G - 1, j),
               "    %s += %s * %s;" % (acc, w, f.replace("%s", U(i, j)))]
        if not in_place and r.random() < 0.5:
            cs.append("%s += %s * %s;" % (self.ip_acc(), self.ip_c(0.1, 0.4, 2),
                                          V(str(r.randint(1, G - 2)), str(r.randint(1, G - 2)))))
        if r.random() < 0.35:
            row = str(r.randint(1, G - 2))
            cs += self.ip_blend(lambda e: U(row, e), G, g)
        return cs
