"""--kernels: f gets loop kernels over plain pointers into x, y and the
local arrays (double *kc = y + 2, ...; with --alias x and y overlap, so
the kernels' pointers may too), in blocks at the top level of f:
  accumulate  C[i] = 0; for k: C[i] += s * A[i*K + k] * B[k]; then a
              nonlinear use of C (tanh in place, or C[i]^2 and sin(C[i])
              into an accumulator); C, A and B may be the same array;
  overwrite   a loop nest reads P nonlinearly (many times), a loop then
              overwrites P (every element, or guarded: by a flag computed
              once from data, which -O2 unswitches, by the element's own
              data, or by the counter), and P is read again: the values
              the reverse pass needs are overwritten, so they come from
              the tape or the undo log (lib/gen/undo.c);
  in-place    one loop that reads P[i] and P[i + 1] nonlinearly and then
              overwrites P[i] (guarded or not), as a smoother does;
  solve       (beside a third of the kernels above) a triangular solve in
              place: X[i] -= s * L[i + j] * X[j] over j < i (or j > i,
              running down; or every j, which reads X[i] itself), then a
              division by a diagonal term: the accumulator X[i] stays put
              in the inner loop, which the undo log saves once per run
              when the loads there stay clear of it (run entries,
              lib/gen/undoblock.c); X and L may alias. Drawn from a stream
              of its own: the other kernels' programs are unchanged.
With --inplace (ltfuzz/inplace.py) a kernel may also get modified
Gram-Schmidt or ADI sweeps, with --lagged (ltfuzz/lagged.py) triangular
nests with indices such as k - i - 1, with --memops (ltfuzz/memops.py)
memcpy, memmove and memset over what was read, with --reductions
(ltfuzz/reductions.py) running maxima and minima, and with --sweeps
(ltfuzz/sweeps.py) in-place recurrences (Thomas solves, x[j] from
x[j - k]), each from a stream of its own after these draws.
Every program of the flag has at least one kernel. Its draws come after
the other modes' (f differs from the program without it)."""
import random

from .mode import Mode
from .shapes import N


class Kernels(Mode):
    name = "kernels"
    flag = "--kernels"
    help = ("f gets loop kernels over plain pointers into x, y and local "
            "arrays: the accumulate form C[i] = 0; C[i] += A[i][k]*B[k] "
            "then a nonlinear use of C, and overwrites of an array read "
            "before and after (undo log)")

    def on_init(self):
        self.k_count = 0
        self.solve_r = random.Random(self.seed * 7907 + 29)

    def on_stmt(self, scope, depth, iters):
        if depth == 0 and not scope and self.r.random() < 0.25:
            return self.kernel()
        return None

    def on_finish(self):
        if self.k_count:
            return []
        return ["  " + l for l in self.kernel()]

    def k_arrays(self):
        """The arrays of N doubles a kernel may read and write."""
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        return ["x", "y", "x", "y"] + locs  # mostly the inputs, which may alias

    def k_ptr(self, name, width, const):
        """`double *name = A + off;` for a view of >= width elements: the
        line and the number of elements it sees."""
        r = self.r
        a = r.choice(self.k_arrays())
        off = r.randint(0, N - width)
        init = a if off == 0 else "%s + %d" % (a, off)
        return "%sdouble *%s = %s;" % ("const " if const else "", name, init), N - off

    def k_bound(self, m):
        """A trip count of m: a constant or from n (== N at run time)."""
        return str(m) if self.r.random() < 0.5 else "n - %d" % (N - m)

    def kernel(self):
        self.k_count += 1
        self.budget -= 2
        k = self.r.random()
        if k < 0.4:
            body = self.k_accumulate()
        elif k < 0.75:
            body = self.k_overwrite()
        else:
            body = self.k_inplace()
        if self.solve_r.random() < 0.35:
            body += self.k_solve()
        if self.inplace:  # --inplace: from a stream of its own (ltfuzz/inplace.py)
            body += self.ip_kernel()
        if self.lagged:  # --lagged: the same (ltfuzz/lagged.py)
            body += self.lg_kernel()
        if self.memops:  # --memops: the same (ltfuzz/memops.py)
            body += self.mo_kernel()
        if self.reductions:  # --reductions: the same (ltfuzz/reductions.py)
            body += self.rd_kernel()
        if self.sweeps:  # --sweeps: the same (ltfuzz/sweeps.py)
            body += self.sw_kernel()
        return ["{"] + ["  " + l for l in body] + ["}"]

    def k_solve(self):
        """A triangular solve in place, from solve_r alone."""
        r, k = self.solve_r, self.k_count
        M = r.randint(2, 4)
        x = r.choice(self.k_arrays())
        lx = "double *sx%d = %s + %d;" % (k, x, r.randint(0, N - M))
        lw = 2 * M - 1
        lv = "const double *sl%d = %s + %d;" % (k, r.choice(self.k_arrays()), r.randint(0, N - lw))
        i, j = "si%d" % k, "sj%d" % k
        X, L = "sx%d" % k, "sl%d" % k
        shape = r.choice(["below", "above", "every"])
        loop = {"below": "for (int %s = 0; %s < %s; %s++)" % (j, j, i, j),
                "above": "for (int %s = %d; %s > %s; %s--)" % (j, M - 1, j, i, j),
                "every": "for (int %s = 0; %s < %d; %s++)" % (j, j, M, j)}[shape]
        s_ = "%.3g" % r.uniform(0.1, 0.3)
        upd = "%s[%s] -= %s * %s[%s + %s] * %s;" % (
            X, i, s_, L, i, j, r.choice(["%s[%s]" % (X, j), "sin(%s[%s])" % (X, j)]))
        d = "%.3g" % r.uniform(1.2, 2.0)
        acc = "acc%d" % r.randrange(self.naccs)
        order = "for (int %s = 0; %s < %d; %s++) {" % (i, i, M, i) if r.random() < 0.5 else \
                "for (int %s = %d; %s >= 0; %s--) {" % (i, M - 1, i, i)
        return ["/* --kernels: a triangular solve in place (%s; sx may alias sl) */" % shape,
                lx, lv, order,
                "  %s[%s] = %.3g * %s[%s] + %.3g;" % (X, i, r.uniform(0.5, 1.0), X, i, r.uniform(-0.3, 0.3)),
                "  " + loop,
                "    " + upd,
                "  %s[%s] = %s[%s] / (%s + %s[2 * %s] * %s[2 * %s]);" % (X, i, X, i, d, L, i, L, i),
                "}",
                "%s += %.3g * %s[%d] * %s[%d];" % (acc, r.uniform(0.2, 0.6), X, r.randrange(M), X,
                                                    r.randrange(M))]

    def k_accumulate(self):
        r = self.r
        M = r.randint(2, 4)
        K = r.randint(2, N // M)
        i, k = self.counter(), self.counter()
        lc, _ = self.k_ptr("kc", M, False)
        la, _ = self.k_ptr("ka", M * K, True)
        lb, _ = self.k_ptr("kb", K, True)
        s = "%.3g" % (r.uniform(0.3, 0.5) / K)
        out = ["/* --kernels: accumulate, then a nonlinear use (kc may alias ka, kb) */",
               lc, la, lb,
               "for (int %s = 0; %s < %s; %s++) {" % (i, i, self.k_bound(M), i),
               "  kc[%s] = 0.0;" % i,
               "  for (int %s = 0; %s < %s; %s++)" % (k, k, self.k_bound(K), k),
               "    kc[%s] += %s * ka[%s * %d + %s] * kb[%s];" % (i, s, i, K, k, k),
               "}"]
        j = self.counter()
        acc = "acc%d" % r.randrange(self.naccs)
        t = r.random()
        out.append("for (int %s = 0; %s < %d; %s++)" % (j, j, M, j))
        if t < 0.35:
            out.append("  kc[%s] = tanh(%s * kc[%s] + %s);" % (j, self.c(0.8, 1.6, 2), j, self.c(-0.3, 0.3, 2)))
        elif t < 0.7:
            out.append("  %s += %.3g * kc[%s] * kc[%s];" % (acc, r.uniform(0.2, 1.0) / M, j, j))
        else:
            out.append("  %s += %.3g * sin(kc[%s]) * kb[%s %% %d];" % (acc, r.uniform(0.2, 1.0) / M, j, j, K))
        return out

    def k_guard(self, i, width):
        """(lines before the write loop, the write's condition or None)."""
        r = self.r
        t = r.random()
        if t < 0.3:
            return [], None
        if t < 0.6:  # loop-invariant: unswitched at -O2
            return ["int kw = %s;" % self.cond_data([])], "kw"
        if t < 0.8:
            return [], "kq[%s %% %d] %s %s" % (i, width, r.choice(["<", ">"]), self.c(-0.6, 0.6, 2))
        return [], "%s %% %d == %d" % (i, r.choice([2, 3]), r.randint(0, 1))

    def k_write(self, i, wp, wq):
        a = self.c(0.3, 0.8, 2)
        g = self.squash("%s * kp[%s] + kq[(%s + 1) %% %d]" % (self.c(0.5, 1.5, 2), i, i, wq))
        return "kp[%s] = %s * kp[%s] + %.2f * %s;" % (i, a, i, 1 - float(a), g)

    def k_overwrite(self):
        r = self.r
        lp, wp = self.k_ptr("kp", 3, False)
        lq, wq = self.k_ptr("kq", 2, True)
        i, j = self.counter(), self.counter()
        acc = "acc%d" % r.randrange(self.naccs)
        L1, L2 = r.randint(2, wp), r.randint(2, wq)
        out = ["/* --kernels: read kp, overwrite it, read it again (undo log) */",
               lp, lq,
               "for (int %s = 0; %s < %s; %s++)" % (i, i, self.k_bound(L1), i),
               "  for (int %s = 0; %s < %s; %s++)" % (j, j, self.k_bound(L2), j),
               "    %s += %.3g * sin(kp[%s] * kq[%s]);" % (acc, r.uniform(0.2, 1.0) / (L1 * L2), i, j)]
        w = self.counter()
        pre, cond = self.k_guard(w, wq)
        out += pre
        out.append("for (int %s = 0; %s < %s; %s++)" % (w, w, self.k_bound(r.randint(1, wp)), w))
        if cond:
            out += ["  if (%s)" % cond, "    " + self.k_write(w, wp, wq)]
        else:
            out.append("  " + self.k_write(w, wp, wq))
        e = r.randrange(wp)
        acc2 = "acc%d" % r.randrange(self.naccs)
        out.append("%s += %s * kp[%d] * kp[%d];" % (acc2, self.c(0.2, 0.6, 2), e, r.randrange(wp)))
        return out

    def k_inplace(self):
        r = self.r
        lp, wp = self.k_ptr("kp", 3, False)
        lq, wq = self.k_ptr("kq", 2, True)
        i = self.counter()
        acc = "acc%d" % r.randrange(self.naccs)
        L = r.randint(2, wp - 1)
        pre, cond = self.k_guard(i, wq)
        out = ["/* --kernels: read kp[i] and kp[i + 1], then overwrite kp[i] */",
               lp, lq] + pre
        out += ["for (int %s = 0; %s < %s; %s++) {" % (i, i, self.k_bound(L), i),
                "  %s += %.3g * kp[%s] * tanh(kp[%s + 1]);" % (acc, r.uniform(0.2, 1.0) / L, i, i)]
        if cond:
            out += ["  if (%s)" % cond, "    " + self.k_write(i, wp, wq)]
        else:
            out.append("  " + self.k_write(i, wp, wq))
        return out + ["}"]
