"""--gather: f gets one to three stencil loops without math calls, whose
reverse loops add into neighbouring elements of one shadow array, the
shapes lib/gen/gather.c rewrites (one addition per element and iteration,
the other contributions carried in PHIs, the leftovers added after the
loop, a gap's element only when the loop ran often enough):

    { double *gp1 = x + 2; double *gq1 = t0 + 1;  (views of x, y and the
      for (int i = n - 6; i >= -1; i--)             local arrays, which
        gq1[i] = 0.31 * gp1[i - 1]                  overlap with --alias)
               - 0.22 * gp1[i - 2] * gp1[i + 1] + 0.1 * gp1[i + 1];
      acc0 += 0.4 * gq1[0] * gq1[1]; }

Each loop reads a random multiset of offsets from -3..3 (contiguous, with
gaps such as -1 and +1 or -2 and +1, a single offset, repeated ones) in a
polynomial with small coefficients (sum |linear| + 2 sum |quadratic| <=
0.9: values in [-2, 2] stay there), runs upwards or downwards, with stride
1 or 2 (s[2 * i + o], or a counter stepping by 2), over a range whose ends
are constants or n - K (n == N at run time: trip counts 0, 1, 2, 3 or the
whole view, unknown to the optimiser, so the loop is not unrolled); as
  sweep     into another view or a fresh local array, then a use of it;
  steps     time-stepped: into a scratch array, copied back (either way),
            or two arrays updated from each other in turn;
  gs        in place (Gauss-Seidel: p[i] from p[i - 1], p[i + 1]);
  reduce    into an accumulator (acc += w * poly);
  2-D       rows i-1, i, i+1 (and columns j-1, j+1) of a small M x M local
            array filled from x and y, or of an R x C view of x, y or a
            local array, the inner loop over columns or over rows.
Every index stays in the view for every counter value (n is N). In three
programs of five every top-level statement of f is such a loop (f's
accesses then are affine and the run-time "apart" version of a
plain-pointer gradient can be built; f says so in a comment); otherwise
they are mixed with f's random statements (the rewrite then applies
less often: in about 60% of the programs at -O2 all told, 75% of those
with the stencil loops alone). Without --alias and when no other mode gives f's
signature, x and y are sometimes __restrict (main passes distinct arrays).
Its draws come after the other modes' (f differs from the program without
it)."""
from .mode import Mode
from .shapes import N

OFFSETS = [  # offset sets of the 1-D loops (besides random ones)
    [-1, 0, 1], [-1, 1], [-2, 1], [-1, 2], [0, 1], [-1, 0], [0], [1], [-2, 0, 2],
    [-3, 3], [-3, -1, 2], [-2, -1, 0, 1, 2], [-3, 0], [0, 3], [2, 3], [-3, -2],
]
EVEN = [  # offset sets whose differences are even (stride 2: one group)
    [-2, 0, 2], [-3, -1, 1], [-1, 1], [-3, 3], [-2, 2], [0, 2], [-3, -1, 1, 3], [1, 3],
]


class Gather(Mode):
    name = "gather"
    flag = "--gather"
    help = ("f gets 1-3 stencil loops without math calls (offsets from -3..3, "
            "gaps, strides 1 and 2, up or down, small trip counts from n, "
            "time-stepped, 2-D rows): the reverse loops' neighbouring "
            "accumulations that lib/gen/gather.c carries in registers")
    shaped_by = ("alias",)  # __restrict only without --alias

    def on_init(self):
        r = self.r
        self.g_count = 0
        self.g_max = r.randint(1, 3)
        self.g_only = r.random() < 0.6
        # x, y restrict: only where main passes them apart
        self.g_restrict = r.random() < 0.3 and not self.alias

    # ---------------------------------------------------------------- hooks
    def on_stmt(self, scope, depth, iters):
        if depth != 0 or scope:
            return None
        if self.g_only:
            return self.g_block() if self.g_count < self.g_max else []
        if self.g_count < self.g_max and self.r.random() < 0.3:
            return self.g_block()
        return None

    def on_setup(self):
        if not self.g_only:
            return []
        return ["  /* --gather: f's own top-level statements left out (its accesses affine) */"]

    def on_finish(self):
        if self.g_count:
            return []
        return ["  " + l for l in self.g_block()]

    def on_sig(self):
        if not self.g_restrict:
            return None
        return "double f(double *__restrict x, double *__restrict y, int n%s)" % (
            ", double s" if self.has_s else "")

    # -------------------------------------------------------------- helpers
    def g_arrays(self):
        locs = [a for a in self.arrays() if a[0] == "t" and a[1:].isdigit()]
        return ["x", "y", "x", "y"] + locs

    def g_cover(self, lo, hi):
        """A random offset off with [lo, hi] inside [-off, N - 1 - off]
        (the indices a view A + off may take), or None."""
        a, b = max(0, -lo), min(N - 1, N - 1 - hi)
        if a > b:
            return None
        return self.r.randint(a, b)

    def g_view(self, name, lo, hi, fresh_ok=True, avoid=None):
        """Lines declaring the view name that indices lo..hi may take: a
        view of x, y or a local array, or a fresh local one; mostly not
        of the array avoid (a target then is apart from its source, but
        with --alias)."""
        r = self.r
        off = self.g_cover(lo, hi)
        assert off is not None, (lo, hi)
        if fresh_ok and r.random() < 0.25:
            a = "%s_a" % name
            decl = ["double %s[N] = {0};" % a]
        else:
            arrs = self.g_arrays()
            if avoid and r.random() < 0.8 and [b for b in arrs if b != avoid]:
                arrs = [b for b in arrs if b != avoid]
            a = r.choice(arrs)
            decl = []
        self.g_base = a
        return decl + ["double *%s = %s;" % (name, a if off == 0 else "%s + %d" % (a, off))]

    def g_coefs(self, k, budget=0.9):
        """k coefficient weights with sum |w| <= budget, signed."""
        r = self.r
        w = [r.uniform(0.2, 1.0) for _ in range(k)]
        tot = r.uniform(0.5, 1.0) * budget / sum(w)
        return [x * tot * (1 if r.random() < 0.7 else -1) for x in w]

    def g_poly(self, ref, offs, scalars=True):
        """a polynomial in ref(o) for o in offs (each used at least once):
        linear and quadratic terms, |value| <= 2 when |ref(o)| <= 2."""
        r = self.r
        offs = list(offs)
        r.shuffle(offs)
        terms = []
        while offs:
            if len(offs) >= 2 and r.random() < 0.45:
                terms.append([offs.pop(), offs.pop()])
            elif r.random() < 0.15:
                o = offs.pop()
                terms.append([o, o])  # a square
            else:
                terms.append([offs.pop()])
        if r.random() < 0.2:  # one more term on an offset already read
            o = r.choice(terms)[0]
            terms.insert(r.randrange(len(terms) + 1), [o] if r.random() < 0.5 else [o, r.choice(terms)[-1]])
        cs = self.g_coefs(len(terms))
        cs = [c / (2 if len(t) == 2 else 1) for c, t in zip(cs, terms)]
        out = ""
        for c, t in zip(cs, terms):
            mono = " * ".join(ref(o) for o in t)
            if not out:
                out = "%.3f * %s" % (c, mono)
            else:
                out += " %s %.3f * %s" % ("-" if c < 0 else "+", abs(c), mono)
        if scalars and r.random() < 0.25:
            s = "s" if self.has_s and r.random() < 0.5 else "acc%d" % r.randrange(self.naccs)
            out += " + %.3f * %s" % (r.uniform(-0.05, 0.05), s)
        if r.random() < 0.2:
            out += " + %.3f" % r.uniform(-0.1, 0.1)
        return out

    def g_offsets(self, st):
        r = self.r
        t = r.random()
        if st == 2 and t < 0.6:
            offs = list(r.choice(EVEN))
        elif t < 0.6:
            offs = list(r.choice(OFFSETS))
        else:
            k = r.choice([1, 2, 2, 3, 3, 4])
            offs = sorted(r.sample(range(-3, 4), k))
        if r.random() < 0.25:
            offs.append(r.choice(offs))  # a repeated offset
        return offs

    def g_trips(self, tmax):
        """A trip count in 1..tmax, mostly small."""
        r = self.r
        t = r.random()
        if t < 0.2:
            return 1
        if t < 0.4:
            return min(2, tmax)
        if t < 0.5:
            return min(3, tmax)
        return r.randint(1, tmax)

    def g_bound(self, v, use_n):
        """The int v, or as n - K (n == N at run time)."""
        if not use_n:
            return str(v)
        d = N - v
        return "n" if d == 0 else "n - %d" % d if d > 0 else "n + %d" % -d

    def g_loop(self, name, lo, hi, step, down, zero=False):
        """A for head running name over lo, lo + step, .., hi (or down from
        hi), bounds from n sometimes; zero: no iteration at all (hi is
        then lo - step, written as a bound from n)."""
        r = self.r
        # (from n mostly: loops of a constant trip count are unrolled
        # before the plugin runs)
        un_hi = r.random() < 0.85 or zero
        un_lo = r.random() < 0.25
        if un_lo and un_hi and r.random() < 0.8:
            un_lo = False  # both from n: a constant trip count again
        ty = self.g_type
        inc = ("%s++" % name if step == 1 else "%s += %d" % (name, step)) if not down else \
              ("%s--" % name if step == 1 else "%s -= %d" % (name, step))
        if zero:
            hi = lo - step
        if not down:
            if r.random() < 0.5 or step != 1:
                cond = "%s < %s" % (name, self.g_bound(hi + 1, un_hi))
            else:
                cond = "%s <= %s" % (name, self.g_bound(hi, un_hi))
            return "for (%s %s = %s; %s; %s)" % (ty, name, self.g_bound(lo, un_lo), cond, inc)
        if r.random() < 0.5 or step != 1:
            cond = "%s >= %s" % (name, self.g_bound(lo, un_lo))
        else:
            cond = "%s > %s" % (name, self.g_bound(lo - 1, un_lo))
        return "for (%s %s = %s; %s; %s)" % (ty, name, self.g_bound(hi, un_hi), cond, inc)

    def g_use(self, q, lo, hi, n=2):
        """acc += c * q[a] * q[b] with a, b in lo..hi."""
        r = self.r
        acc = "acc%d" % r.randrange(self.naccs)
        idx = [r.randint(lo, hi) for _ in range(n)]
        return "%s += %s * %s;" % (acc, self.c(0.2, 0.5, 2),
                                   " * ".join("%s[%d]" % (q, k) for k in idx))

    # --------------------------------------------------------------- blocks
    def g_block(self):
        self.g_count += 1
        self.budget -= 2
        t = self.r.random()
        if t < 0.22:
            body = self.g_2d()
        else:
            body = self.g_1d()
        return ["{"] + ["  " + l for l in body] + ["}"]

    def g_1d(self):
        r = self.r
        self.g_type = "long" if r.random() < 0.3 else "int"
        k = self.g_count
        st = 2 if r.random() < 0.25 else 1
        offs = self.g_offsets(st)
        omin, omax = min(offs), max(offs)
        form = "mul" if st == 1 or r.random() < 0.5 else "step"
        tmax = (N - 1 - (omax - omin)) // st + 1
        T = self.g_trips(tmax)
        zero = r.random() < 0.04
        # the counter's logical range lo..hi (the index st * i + o), then a
        # view covering st * lo + omin .. st * hi + omax
        w = st * (T - 1) + omax - omin + 1
        while True:
            off = r.randint(0, N - 1)
            los = [lo for lo in range(-N, N)
                   if st * lo + omin >= -off and st * (lo + T - 1) + omax <= N - 1 - off]
            if los:
                break
        lo = r.choice(los)
        hi = lo + T - 1
        a_lo, a_hi = st * lo + omin, st * hi + omax
        assert a_hi - a_lo + 1 == w
        c = r.randint(omin, omax)  # the target's offset (a copy-back's too)
        i = self.counter()
        down = r.random() < 0.45
        if form == "step":
            head = self.g_loop(i, st * lo, st * hi, st, down, zero)
            ix = lambda o: i if o == 0 else "%s %s %d" % (i, "+" if o > 0 else "-", abs(o))  # noqa: E731
        else:
            head = self.g_loop(i, lo, hi, 1, down, zero)
            base = i if st == 1 else "2 * %s" % i
            ix = lambda o: base if o == 0 else "%s %s %d" % (base, "+" if o > 0 else "-", abs(o))  # noqa: E731
        p, q = "gp%d" % k, "gq%d" % k
        kind = r.random()
        out = []
        if kind < 0.35:  # a sweep into another array
            plain_t = st == 1 and form == "mul" and r.random() < 0.3
            plain_t = plain_t and max(0, -lo) <= min(N - 1, N - 1 - hi)  # coverable
            t_lo, t_hi = (lo, hi) if plain_t else (st * lo + c, st * hi + c)
            tix = i if plain_t else ix(c)
            out.append("/* --gather: a sweep of %s (offsets %s) into %s */" % (p, offs, q))
            out += self.g_view(p, a_lo, a_hi, False)
            out += self.g_view(q, t_lo, t_hi, avoid=self.g_base)
            out += [head,
                    "  %s[%s] = %s;" % (q, tix, self.g_poly(lambda o: "%s[%s]" % (p, ix(o)), offs))]
            out.append(self.g_use(q, t_lo, t_hi))
        elif kind < 0.7:  # time steps
            S = r.randint(1, 4)
            sv = self.counter()
            j = self.counter()
            t = r.random()
            out.append("/* --gather: %d steps over %s (offsets %s) through %s */" % (S, p, offs, q))
            out += self.g_view(p, a_lo, a_hi, False)
            pingpong = t >= 0.7
            out += self.g_view(q, a_lo if pingpong else st * lo + c,
                               a_hi if pingpong else st * hi + c, avoid=self.g_base)
            out += ["for (int %s = 0; %s < %d; %s++) {" % (sv, sv, S, sv),
                    "  " + head,
                    "    %s[%s] = %s;" % (q, ix(c), self.g_poly(lambda o: "%s[%s]" % (p, ix(o)), offs))]
            jx = lambda o: ix(o).replace(i, j)  # noqa: E731
            if form == "step":
                jhead = self.g_loop(j, st * lo, st * hi, st, r.random() < 0.5, zero)
            else:
                jhead = self.g_loop(j, lo, hi, 1, r.random() < 0.5, zero)
            if not pingpong:
                out += ["  " + jhead, "    %s[%s] = %s[%s];" % (p, jx(c), q, jx(c))]
            else:
                out += ["  " + jhead,
                        "    %s[%s] = %s;" % (p, jx(c), self.g_poly(lambda o: "%s[%s]" % (q, jx(o)), offs))]
            out.append("}")
            out.append(self.g_use(p, a_lo, a_hi))
        elif kind < 0.82:  # in place
            out.append("/* --gather: in place over %s (offsets %s) */" % (p, offs))
            out += self.g_view(p, a_lo, a_hi, False)
            out += [head, "  %s[%s] = %s;" % (p, ix(c), self.g_poly(lambda o: "%s[%s]" % (p, ix(o)), offs))]
            out.append(self.g_use(p, a_lo, a_hi))
        else:  # into an accumulator
            acc = "acc%d" % r.randrange(self.naccs)
            wgt = r.uniform(0.2, 1.0) / max(T, 1)
            out.append("/* --gather: a reduction over %s (offsets %s) */" % (p, offs))
            out += self.g_view(p, a_lo, a_hi, False)
            out += [head, "  %s += %.4g * (%s);" % (
                acc, wgt, self.g_poly(lambda o: "%s[%s]" % (p, ix(o)), offs, scalars=False))]
        return out

    def g_points(self, rows_only, dr):
        """Stencil points (di, dj) of a 2-D loop: rows i-1, i, i+1 (a subset,
        maybe with a gap), sometimes columns j-1, j+1 too."""
        r = self.r
        t = r.random()
        rows = list(range(-dr, dr + 1)) if dr else r.choice([[-1, 0], [0, 1]])
        if t < 0.4:
            di = rows if r.random() < 0.6 or not dr else [-1, 1]
        else:
            di = sorted(r.sample(rows, r.randint(1, len(rows))))
        pts = [(d, 0) for d in di]
        if not rows_only and r.random() < 0.4:
            pts += [(0, d) for d in r.choice([[-1, 1], [-1], [1]]) if (0, d) not in pts]
        if r.random() < 0.2:
            pts.append(r.choice(pts))
        return pts

    def g_2d(self):
        r = self.r
        self.g_type = "long" if r.random() < 0.6 else "int"
        k = self.g_count
        i, j = self.counter(), self.counter()
        acc = "acc%d" % r.randrange(self.naccs)
        out = []
        if r.random() < 0.55:
            # a local M x M array filled from x and y
            M = r.choice([3, 4, 4, 5])
            R = C = M
            P, Q = "gz%d" % k, "gw%d" % k
            two = r.random() < 0.5
            fi, fj = self.counter(), self.counter()
            fill = r.choice(["0.5 * x[%(a)s] * y[%(b)s]", "0.5 * (x[%(a)s] + y[%(b)s])",
                             "0.4 * x[%(a)s] - 0.3 * y[%(b)s] * x[%(b)s]"])
            if two:
                out += ["double %s[%d][%d], %s[%d][%d] = {{0}};" % (P, M, M, Q, M, M)]
                at = lambda a, di, b, dj: "%s[%s][%s]" % (a, di, dj)  # noqa: E731
            else:
                out += ["double %s[%d], %s[%d] = {0};" % (P, M * M, Q, M * M)]
                at = lambda a, di, b, dj: "%s[(%s) * %d + %s]" % (a, di, M, dj)  # noqa: E731
            out.insert(0, "/* --gather: a 2-D stencil on a %d x %d local array */" % (M, M))
            out += ["for (int %s = 0; %s < %d; %s++)" % (fi, fi, M, fi),
                    "  for (int %s = 0; %s < %d; %s++)" % (fj, fj, M, fj),
                    "    %s = %s;" % (at(P, fi, None, fj), fill % {"a": fi, "b": fj})]
            rows_only = False
            dr = 2 if M == 5 and r.random() < 0.3 else 1
        else:
            # an R x C view of x, y or a local array
            R, C = r.choice([(3, 2), (4, 2), (2, 4), (2, 3), (3, 2), (4, 2)])
            P, Q = "gp%d" % k, "gw%d" % k
            off = r.randint(0, N - R * C)
            a = r.choice(self.g_arrays())
            out += ["/* --gather: a 2-D stencil on %s as %d x %d */" % (P, R, C),
                    "double *%s = %s;" % (P, a if off == 0 else "%s + %d" % (a, off)),
                    "double %s[N] = {0};" % Q]
            at = lambda a_, di, b, dj: "%s[(%s) * %d + %s]" % (a_, di, C, dj)  # noqa: E731
            rows_only = C < 3
            dr = 1 if R >= 3 else 0
        pts = self.g_points(rows_only, dr)
        dis = [p[0] for p in pts]
        djs = [p[1] for p in pts]
        # index ranges (inclusive) of i and j
        # (the target's (i, j) too)
        i_lo, i_hi = max(0, -min(dis)), min(R - 1, R - 1 - max(dis))
        j_lo, j_hi = max(0, -min(djs)), min(C - 1, C - 1 - max(djs))
        if i_lo > i_hi or j_lo > j_hi:
            pts = [(0, 0)]
            i_lo, i_hi, j_lo, j_hi = 0, R - 1, 0, C - 1
        # small trip counts sometimes
        if r.random() < 0.5:
            ti = self.g_trips(i_hi - i_lo + 1)
            i_lo = r.randint(i_lo, i_hi - ti + 1)
            i_hi = i_lo + ti - 1
        if r.random() < 0.5:
            tj = self.g_trips(j_hi - j_lo + 1)
            j_lo = r.randint(j_lo, j_hi - tj + 1)
            j_hi = j_lo + tj - 1

        def ref(pt, src=P):
            di, dj = pt
            si = i if di == 0 else "%s %s %d" % (i, "+" if di > 0 else "-", abs(di))
            sj = j if dj == 0 else "%s %s %d" % (j, "+" if dj > 0 else "-", abs(dj))
            return at(src, si, None, sj)

        body = "%s = %s;" % (at(Q, i, None, j), self.g_poly(ref, pts))
        hi_ = self.g_loop(i, i_lo, i_hi, 1, r.random() < 0.4)
        hj_ = self.g_loop(j, j_lo, j_hi, 1, r.random() < 0.4)
        heads = [hi_, hj_] if r.random() < 0.7 else [hj_, hi_]  # inner: columns or rows
        S = r.randint(1, 3) if r.random() < 0.4 else 0
        loop = [heads[0], "  " + heads[1], "    " + body]
        if S:
            sv = self.counter()
            copy = [self.g_loop(i, i_lo, i_hi, 1, False), "  " + self.g_loop(j, j_lo, j_hi, 1, r.random() < 0.5),
                    "    %s = %s;" % (at(P, i, None, j), at(Q, i, None, j))]
            out += ["for (int %s = 0; %s < %d; %s++) {" % (sv, sv, S, sv)]
            out += ["  " + l for l in loop + copy] + ["}"]
            src = P
        else:
            out += loop
            src = Q
        # a use of the result
        ui, uj = r.randint(i_lo, i_hi), r.randint(j_lo, j_hi)
        vi, vj = r.randint(0, R - 1), r.randint(0, C - 1)
        out.append("%s += %s * %s * %s;" % (acc, self.c(0.2, 0.5, 2), at(src, ui, None, uj),
                                            at(src, vi, None, vj)))
        return out
