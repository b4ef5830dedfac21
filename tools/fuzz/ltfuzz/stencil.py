"""--stencil: f gets time-stepped stencils over plain pointers into x, y
and the local arrays, the new state computed into a scratch array and
then copied back (as an explicit scheme updates u in place):

    { double *sp = x + 1; double *sq = t0;      (sq: a local, or a view
      for (int s = 0; s < 3; s++) {               that may overlap sp)
        for (int i = 1; i < L - 1; i++)
          sq[i] = a sp[i] + b tanh(sp[i - 1] sp[i + 1] + ...);
        for (int i = 1; i < L - 1; i++)           (or downwards, or over
          sp[i] = sq[i];                           a partial range)
      } }

or updated in turn from each other (sq from sp, then sp from sq). The
copy's stores write a dense range per run of their loop: the undo log
keeps them as one block per run (lib/gen/undoblock.c), and the stencil's
reads of sp are re-read through it. With --alias, x and y overlap, so sp
and sq may too. Every program of the flag has at least one stencil. Its
draws come after the other modes' (f differs from the program without
it)."""
from .mode import Mode
from .shapes import N


class Stencil(Mode):
    name = "stencil"
    flag = "--stencil"
    help = ("f gets time-stepped stencils: a new state into a scratch array, "
            "copied back (or two arrays updated from each other); the undo "
            "log's blocks (lib/gen/undoblock.c)")

    def on_init(self):
        self.s_count = 0

    def on_stmt(self, scope, depth, iters):
        if depth == 0 and not scope and self.s_count < 3 and self.r.random() < 0.3:
            return self.s_stencil()
        return None

    def on_finish(self):
        if self.s_count:
            return []
        return ["  " + l for l in self.s_stencil()]

    def s_view(self, name, width):
        """`double *name = A + off;` for a view of >= width elements."""
        r = self.r
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        a = r.choice(["x", "y", "x", "y"] + locs)
        off = r.randint(0, N - width)
        return "double *%s = %s;" % (name, a if off == 0 else "%s + %d" % (a, off)), N - off

    def s_rhs(self, src, i):
        """src's new value at i from its neighbours, bounded (tanh)."""
        r = self.r
        a = self.c(0.4, 0.8, 2)
        t = r.random()
        if t < 0.4:
            inner = "%s[%s - 1] * %s[%s + 1] + %s" % (src, i, src, i, self.c(-0.3, 0.3, 2))
        elif t < 0.7:
            inner = "%s * (%s[%s + 1] - 2.0 * %s[%s] + %s[%s - 1]) + %s[%s]" % (
                self.c(0.5, 1.5, 2), src, i, src, i, src, i, src, i)
        else:
            inner = "%s[%s] * (%s[%s + 1] - %s[%s - 1]) - acc%d" % (
                src, i, src, i, src, i, self.r.randrange(self.naccs))
        return "%s * %s[%s] + %.2f * tanh(%s)" % (a, src, i, 1 - float(a), inner)

    def s_stencil(self):
        r = self.r
        self.s_count += 1
        self.budget -= 2
        k = self.s_count
        sp, wp = self.s_view("sp%d" % k, 4)
        L = r.randint(3, wp)
        local = r.random() < 0.5
        if local:
            sq = "double sq%d[%d] = {0};" % (k, N)
        else:
            sq, wq = self.s_view("sq%d" % k, L)
            L = min(L, wq)
        p, q = "sp%d" % k, "sq%d" % k
        s, i, j = self.counter(), self.counter(), self.counter()
        lo = r.choice([1, 1, 2])
        hi = "%d" % (L - lo) if r.random() < 0.5 else "n - %d" % (N - L + lo)
        out = ["/* --stencil: steps of a stencil over %s, through %s */" % (p, q), sp, sq,
               "for (int %s = 0; %s < %d; %s++) {" % (s, s, r.randint(1, 4), s),
               "  for (int %s = %d; %s < %s; %s++)" % (i, lo, i, hi, i),
               "    %s[%s] = %s;" % (q, i, self.s_rhs(p, i))]
        t = r.random()
        if t < 0.45:  # copied back
            out += ["  for (int %s = %d; %s < %s; %s++)" % (j, lo, j, hi, j),
                    "    %s[%s] = %s[%s];" % (p, j, q, j)]
        elif t < 0.65:  # copied back downwards
            out += ["  for (int %s = %s - 1; %s >= %d; %s--)" % (j, hi, j, lo, j),
                    "    %s[%s] = %s[%s];" % (p, j, q, j)]
        else:  # updated from the other
            out += ["  for (int %s = %d; %s < %s; %s++)" % (j, lo, j, hi, j),
                    "    %s[%s] = %s;" % (p, j, self.s_rhs(q, j))]
        out.append("}")
        acc = "acc%d" % r.randrange(self.naccs)
        e = r.randrange(lo, L - lo) if L - lo > lo else lo
        out.append("%s += %s * %s[%d] * %s[%d];" % (acc, self.c(0.2, 0.6, 2), p, e, p,
                                                    r.randrange(L)))
        return ["{"] + ["  " + l for l in out] + ["}"]
