"""--memops (implies --kernels): the kernels of ltfuzz/kernels.py also get
memcpy, memmove and memset that overwrite what a nonlinear use read, in a
loop of steps, over views of x, y and the local arrays (which --alias
makes overlap): the undo log saves their destinations as blocks
(analysis/overwrite.c, gen/undo.c) and the reverse pass re-reads the
views:
  copyback  S steps of a three-point update into a local t (tanh, a
            product, or u(1 + u^2) times the Laplacian), then
            memcpy(p + 1, t + 1, (M - 2) * 8) back (or memmove from a
            second view, which may overlap p);
  clear     S steps: p read nonlinearly into an accumulator,
            memset(p, 0, M * 8), then p[i] += g(q) summed in again;
  shift     S steps: p read nonlinearly, memmove(p, p + 1, (M - 1) * 8)
            (the copy overlaps itself), a new last element from q.
Lengths are literals or from n (== N at run time). Drawn from a stream of
its own, in kernels.py's kernel() after its draws (and --inplace's and
--lagged's), and at the end of f when no kernel drew one: f is the
program of --kernels with these blocks added."""
from .addon import KernelAddon
from .shapes import N


class Memops(KernelAddon):
    name = "memops"
    flag = "--memops"
    prefix, stream = "mo", (7933, 61)
    help = ("(implies --kernels) the kernels also get memcpy, memmove and "
            "memset over views read nonlinearly before and after, in "
            "loops of steps (the undo log's blocks)")

    def mo_pick(self, force):
        r = self.mo_r
        if not force and r.random() < 0.5:
            return []
        self.mo_count += 1
        return r.choice([self.mo_copyback, self.mo_clear, self.mo_shift])()

    # ------------------------------------------------------------ helpers
    def mo_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.mo_r.uniform(lo, hi))

    def mo_len(self, m):
        """m elements as a byte count: a literal or from n."""
        e = str(m) if self.mo_r.random() < 0.5 else "(n - %d)" % (N - m)
        return "(size_t)%s * sizeof(double)" % e

    def mo_view(self, name, width, const=False):
        r = self.mo_r
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        a = r.choice(["x", "y", "x", "y"] + locs)
        off = r.randint(0, N - width)
        return "%sdouble *%s = %s;" % ("const " if const else "", name,
                                       a if off == 0 else "%s + %d" % (a, off))

    def mo_acc(self):
        return "acc%d" % self.mo_r.randrange(self.naccs)

    def mo_steps(self, q):
        s = self.mo_r.randint(2, 4)
        return "for (int ms%d = 0; ms%d < %d; ms%d++) {" % (q, q, s, q), "ms%d" % q

    # ------------------------------------------------------------ shapes
    def mo_copyback(self):
        r, q = self.mo_r, self.mo_count
        M = r.randint(3, N)
        p, t, i = "mp%d" % q, "mt%d" % q, "mi%d" % q
        head, s = self.mo_steps(q)
        lap = "(%s[%s - 1] - 2.0 * %s[%s] + %s[%s + 1])" % (p, i, p, i, p, i)
        upd = r.choice(["%s[%s] + %s * (1.0 + %s[%s] * %s[%s]) * %s" % (p, i, self.mo_c(0.05, 0.15, 2),
                                                                      p, i, p, i, lap),
                        "%s[%s] + %s * tanh(%s)" % (p, i, self.mo_c(0.1, 0.3, 2), lap),
                        "%s * %s[%s] + %s * %s[%s - 1] * %s[%s + 1]" % (
                            self.mo_c(0.6, 0.9, 2), p, i, self.mo_c(0.1, 0.3, 2), p, i, p, i)])
        out = ["/* --memops: steps into t, copied back over p */",
               self.mo_view(p, M)]
        if r.random() < 0.6:
            out.append("double %s[%d];" % (t, M))
            copy = "memcpy(%s + 1, %s + 1, %s);" % (p, t, self.mo_len(M - 2))
        else:  # a second view, which may overlap p: memmove
            out.append(self.mo_view(t, M))
            copy = "memmove(%s + 1, %s + 1, %s);" % (p, t, self.mo_len(M - 2))
        out += [head,
                "  for (int %s = 1; %s < %d; %s++)" % (i, i, M - 1, i),
                "    %s[%s] = %s;" % (t, i, upd),
                "  " + copy,
                "  %s += %s * %s[%d] * %s[%d];" % (self.mo_acc(), self.mo_c(0.1, 0.4, 2), p,
                                                  r.randrange(M), p, r.randrange(M)),
                "}",
                "%s += %s * sin(%s[%d]);" % (self.mo_acc(), self.mo_c(0.2, 0.6, 2), p,
                                            r.randrange(M))]
        return out

    def mo_clear(self):
        r, q = self.mo_r, self.mo_count
        M = r.randint(2, N)
        p, i = "mc%d" % q, "mj%d" % q
        head, s = self.mo_steps(q)
        src = self.mo_view("mq%d" % q, M, True)
        acc = self.mo_acc()
        use = r.choice(["%s[%s] * %s[%s] * %s[%s]" % (p, i, p, i, p, i),
                        "sin(%s[%s]) * %s[%s]" % (p, i, p, i),
                        "exp(%s * %s[%s])" % (self.mo_c(0.2, 0.5, 2), p, i)])
        whole = r.random() < 0.7
        clr = ("memset(%s, 0, %s);" % (p, self.mo_len(M)) if whole else
               "memset(%s + 1, 0, %s);" % (p, self.mo_len(M - 1)))
        out = ["/* --memops: p read, cleared by memset, summed into again */",
               self.mo_view(p, M), src,
               head,
               "  for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
               "    %s += %s * %s;" % (acc, self.mo_c(0.1, 0.3, 2), use),
               "  " + clr,
               "  for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
               "    %s[%s] += %s * tanh(mq%d[(%s + %s) %% %d] + %s);" % (
                   p, i, self.mo_c(0.3, 0.8, 2), q, i, s, M, self.mo_c(-0.3, 0.3, 2)),
               "}",
               "%s += %s * %s[%d] * %s[%d];" % (self.mo_acc(), self.mo_c(0.2, 0.6, 2), p,
                                                r.randrange(M), p, r.randrange(M))]
        return out

    def mo_shift(self):
        r, q = self.mo_r, self.mo_count
        M = r.randint(2, N)
        p, i = "mw%d" % q, "mk%d" % q
        head, s = self.mo_steps(q)
        src = self.mo_view("mv%d" % q, M, True)
        out = ["/* --memops: a window shifted by memmove, a new last element */",
               self.mo_view(p, M), src,
               head,
               "  for (int %s = 0; %s < %d; %s++)" % (i, i, M, i),
               "    %s += %s * %s[%s] * sin(%s[%s]);" % (self.mo_acc(), self.mo_c(0.1, 0.3, 2),
                                                      p, i, p, i),
               "  memmove(%s, %s + 1, %s);" % (p, p, self.mo_len(M - 1)),
               "  %s[%d] = tanh(mv%d[%s %% %d] + %s * %s[%d]);" % (
                   p, M - 1, q, s, M, self.mo_c(0.2, 0.6, 2), p, max(M - 2, 0)),
               "}",
               "%s += %s * %s[%d];" % (self.mo_acc(), self.mo_c(0.2, 0.6, 2), p, r.randrange(M))]
        return out
