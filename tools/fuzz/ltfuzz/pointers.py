"""--pointers (every extra random draw is behind this flag, so the programs
of the other options do not change): f also takes `const double *c`
(enzyme_const) and reaches memory through pointers: row-pointer arrays on
the stack or heap into x, y, c, local and heap arrays (also mixed); arrays
of `struct S { const double *p; double w; int k; }` with copies
(assignment, memcpy, swaps; --copies adds run-time lengths); a struct
parameter `const struct S *sp` (enzyme_dup; main's shadow struct holds the
shadow pointer, w's adjoint and a copy of k; sp->w is checked as one more
gradient entry); `struct P2 { double a, b; }` copied and passed by value; malloc/calloc buffers (freed at
the end); pointer selects and phis mixing active and inactive memory,
re-selected inside loops; and, per program, a return value, an output array
`double *out` (enzyme_dupnoneed, adjoints seeded with out_seed[]), or both.
The check (ltfuzz/check.py, packed inputs) differentiates exactly the
seeded scalar (return value + sum out_seed[i] * out[i]) and checks that c
is not modified. Each pointer view has a width w: it always points at >= w
valid doubles and is indexed in [0, w)."""
from .mode import Mode
from .shapes import N


class Pointers(Mode):
    name = "pointers"
    flag = "--pointers"
    help = ("also use pointers: row-pointer arrays, structs with "
            "pointers, a struct parameter, heap buffers, pointer "
            "selects, an enzyme_const array c, an enzyme_dupnoneed "
            "output")

    def on_init(self):
        self.pinit()

    def on_arrays(self):
        return self.heaps

    def on_leaf(self, scope):
        if self.r.random() < 0.3:
            return self.pleaf(scope)
        return None

    def on_cond(self, scope, lhs):
        if self.r.random() < 0.3:
            return self.pleaf(scope)
        return lhs

    def on_stmt(self, scope, depth, iters):
        if self.r.random() < 0.2:
            return self.pstmt(scope, iters)
        return None

    def on_setup(self):
        return self.psetup()

    def on_sig(self):
        return self.psig()

    def on_ret(self, terms):
        return self.pfinish(terms)

    def on_head_flags(self):
        return " --pointers" + self.shape_flags(True)

    def on_head(self):
        return """
struct S { const double *p; double w; int k; }; /* p: >= w valid doubles */
struct P2 { double a, b; };                      /* copied by value */

static struct P2 p2rot(struct P2 v, double t) { /* a rotation: keeps |v| */
  struct P2 r = { cos(t) * v.a - sin(t) * v.b, sin(t) * v.a + cos(t) * v.b };
  return r;
}

"""

    def pinit(self):
        r = self.r
        self.budget += r.randint(2, 6)
        self.heaps, self.frees = [], []
        self.ptrs = []     # (name, width, writable)
        self.rows = []     # (name, rows, width)
        self.structs = []  # dicts: ref(scope) -> "st0[i]." / "sp->", elem, w
        self.p2s = []      # struct P2 locals
        self.nst = 0
        want = {"heap": r.randint(0, 2), "rows": r.randint(0, 2),
                "struct": r.randint(0, 1), "sel": r.randint(0, 2),
                "wsel": r.randint(0, 1), "p2": r.randint(0, 1)}
        self.sparam = r.random() < 0.35
        self.out_mode = r.choice(["ret", "out", "both"])
        while sum(want.values()) + self.sparam + (self.out_mode != "ret") < 4:
            want[r.choice(sorted(want))] += 1
        self.want = want
        self.nout = r.randint(1, 2) if self.out_mode != "ret" else 0
        self.out_seeds = ["1.0"] + [self.c(0.3, 1.2, 2) for _ in range(self.nout - 1)]
        self.out_early = self.nout > 0 and r.random() < 0.3
        if self.sparam:
            self.sp_w = r.randint(2, 5)
            self.sp_base = r.choice(["x", "y", "c"])
            self.sp_off = r.randint(0, N - self.sp_w)
            self.sp_k = r.randint(0, self.sp_w - 1)

    def index_w(self, scope, w):
        """An index expression that is always in [0, w)."""
        r = self.r
        if scope and r.random() < 0.8:
            v = r.choice(scope)
            choices = []
            if 0 <= v.lo and v.hi < w:
                choices += [v.name, "%d - %s" % (w - 1, v.name)]
            if v.lo >= 0:
                choices += ["(%s + %d) %% %d" % (v.name, r.randint(0, w - 1), w)]
            if choices:
                return r.choice(choices)
        return str(r.randint(0, w - 1))

    def psrc(self, writable=False):
        s = ["x", "y"] + ["t%d" % k for k in range(self.nlocal)] + self.heaps
        if self.cxx:
            s = s + ["%s.data()" % v for v in self.vecs]
        return s if writable else s + ["c"] * 2

    def mc(self, ty):
        """The cast of a malloc/calloc result: none in C, (ty) in C++."""
        return "(%s)" % ty if self.cxx else ""

    def pptr(self, w, writable=False, src=None):
        """A pointer expression to at least w valid doubles."""
        r = self.r
        src = src or r.choice(self.psrc(writable))
        off = r.randint(0, N - w)
        form = r.random()
        if off == 0 and form < 0.5:
            return src
        if form < 0.75:
            return "%s + %d" % (src, off)
        return "&%s[%d]" % (src, off)

    def pcond(self, scope):
        r = self.r
        if r.random() < 0.7:
            return self.cond_data(scope)
        return r.choice(["n > %d" % r.randint(0, N - 1), "n % 2 == 0",
                         "n < %d" % r.randint(1, N)])

    def psel(self, scope, w, writable=False):
        """cond ? p1 : p2, mixing active and (unless writable) inactive memory."""
        a = self.pptr(w, writable, src=self.r.choice(self.psrc(True)))
        b = self.pptr(w, writable)
        if self.r.random() < 0.5:
            a, b = b, a
        return "(%s) ? %s : %s" % (self.pcond(scope), a, b)

    def pleaf(self, scope):
        """A read through a pointer (or of a struct member)."""
        r = self.r
        opts = ["c"]
        opts += ["ptr"] * 2 * bool(self.ptrs) + ["rows"] * 3 * bool(self.rows)
        opts += ["sp", "sp", "sw"] * bool(self.structs) + ["p2"] * bool(self.p2s)
        k = r.choice(opts)
        if k == "c":
            return "c[%s]" % self.index(scope)
        if k == "ptr":
            name, w, _ = r.choice(self.ptrs)
            return "%s[%s]" % (name, self.index_w(scope, w))
        if k == "rows":
            name, m, w = r.choice(self.rows)
            return "%s[%s][%s]" % (name, self.index_w(scope, m), self.index_w(scope, w))
        if k == "p2":
            return "%s.%s" % (r.choice(self.p2s), r.choice("ab"))
        v = r.choice(self.structs)
        pre = v["ref"](scope)
        if k == "sw":
            return pre + "w"
        if r.random() < 0.4:
            return "%sp[(%sk + %s) %% %d]" % (pre, pre, self.index_w(scope, v["w"]), v["w"])
        return "%sp[%s]" % (pre, self.index_w(scope, v["w"]))

    def pstruct_view(self, name, m, w, mut=True):
        if m is None:  # a single struct
            v = {"ref": lambda scope: name + ".", "elem": lambda scope: name}
        else:
            v = {"ref": lambda scope: "%s[%s]." % (name, self.index_w(scope, m)),
                 "elem": lambda scope: "%s[%s]" % (name, self.index_w(scope, m))}
        v.update(name=name, m=m, w=w, mut=mut)
        self.structs.append(v)

    def psetup(self):
        r = self.r
        out = []
        if self.sparam:
            v = {"ref": lambda scope: "sp->", "elem": lambda scope: "*sp",
                 "name": "sp", "m": None, "w": self.sp_w, "mut": False}
            self.structs.append(v)
        rest = []
        for feat in ("rows", "struct", "sel", "wsel", "p2"):
            rest += [feat] * self.want[feat]
        r.shuffle(rest)
        for feat in ["heap"] * self.want["heap"] + rest:
            out += getattr(self, "p_" + feat)()
        if self.out_early:  # overwritten at the end: its adjoint must vanish
            out.append("  out[0] = %s;" % self.squash(self.expr([])))
        return out

    def p_heap(self):
        r = self.r
        name = "h%d" % len(self.heaps)
        g = r.choice(["cos(%s)", "tanh(%s + 0.5)", "0.5 * %s", "0.9 * sin(%s)"])
        src = r.choice(self.psrc(True))
        mix = " + 0.25 * c[%s]" if r.random() < 0.3 else ""
        if r.random() < 0.6:
            out = ["  double *%s = %smalloc(N * sizeof *%s);" % (name, self.mc("double *"), name)]
            if self.loops and r.random() < 0.7:
                out += ["  for (int q = 0; q < N; q++)",
                        "    %s[q] = %s%s;" % (name, g % ("%s[q]" % src),
                                              mix % "(q + 3) % N" if mix else "")]
            else:
                for q in range(N):
                    out.append("  %s[%d] = %s%s;" % (name, q, g % ("%s[%d]" % (src, q)),
                                                    mix % ((q + 3) % N) if mix else ""))
        else:
            out = ["  double *%s = %scalloc(N, sizeof *%s);" % (name, self.mc("double *"), name)]
            if self.loops and r.random() < 0.5:
                st = r.choice([1, 2, 3])
                out += ["  for (int q = %d; q < N; q += %d)" % (r.randint(0, 1), st),
                        "    %s[q] = %s;" % (name, g % ("%s[q]" % src))]
            else:
                for q in sorted(r.sample(range(N), r.randint(1, N))):
                    val = (g % ("%s[%d]" % (src, q)) if r.random() < 0.6
                           else self.squash(self.expr([])))
                    out.append("  %s[%d] = %s;" % (name, q, val))
        self.heaps.append(name)
        self.frees.append(name)
        return out

    def p_rows(self):
        r = self.r
        name = "R%d" % len(self.rows)
        m, w = r.randint(2, 4), r.randint(2, 5)
        heap = r.random() < 0.6
        if heap:
            out = ["  const double **%s = %smalloc(%d * sizeof *%s);" % (
                name, self.mc("const double **"), m, name)]
            self.frees.append(name)
        else:
            out = ["  const double *%s[%d];" % (name, m)]
        mode = r.choice(["active", "const", "mixed"])
        act = self.psrc(True)
        pick = {"active": lambda: r.choice(act), "const": lambda: "c",
                "mixed": lambda: r.choice(act + ["c"])}[mode]
        if self.loops and r.random() < 0.5:
            kmax = (N - w) // (m - 1)
            kk = r.randint(min(1, kmax), kmax)
            b = r.randint(0, N - w - kk * (m - 1))
            ix = "%d * q + %d" % (kk, b)
            if mode == "mixed":
                a1, a2 = r.choice(act), "c"
                if r.random() < 0.5:
                    a1, a2 = a2, a1
                rhs = "q %% 2 == 0 ? &%s[%s] : &%s[%s]" % (a1, ix, a2, ix)
            else:
                rhs = "&%s[%s]" % (pick(), ix)
            out += ["  for (int q = 0; q < %d; q++)" % m, "    %s[q] = %s;" % (name, rhs)]
        else:
            for i in range(m):
                if mode == "mixed" and r.random() < 0.3:
                    rhs = self.psel([], w)
                else:
                    rhs = self.pptr(w, src=pick())
                out.append("  %s[%d] = %s;" % (name, i, rhs))
        self.rows.append((name, m, w))
        return out

    def p_struct(self):
        r = self.r
        name = "st%d" % self.nst
        self.nst += 1
        m, w = r.randint(2, 3), r.randint(2, 5)
        heap = r.random() < 0.4
        els = [(self.pptr(w), self.squash(self.expr([])), r.randint(0, w - 1))
               for _ in range(m)]
        if not heap and r.random() < 0.5:
            out = ["  struct S %s[%d] = {" % (name, m)]
            out += ["    { %s, %s, %d }," % e for e in els]
            out.append("  };")
        else:
            if heap:
                out = ["  struct S *%s = %smalloc(%d * sizeof *%s);" % (
                    name, self.mc("struct S *"), m, name)]
                self.frees.append(name)
            else:
                out = ["  struct S %s[%d];" % (name, m)]
            for i, (p, wv, k) in enumerate(els):
                out.append("  %s[%d].p = %s;" % (name, i, p))
                out.append("  %s[%d].w = %s;" % (name, i, wv))
                out.append("  %s[%d].k = %d;" % (name, i, k))
        self.pstruct_view(name, m, w)
        if r.random() < 0.6:  # an array copy
            cname = "su%d" % (self.nst - 1)
            out.append("  struct S %s[%d];" % (cname, m))
            if r.random() < 0.5:
                # --copies: a run-time length in a third of them
                size = ("(size_t)(n - %d) * sizeof *%s" % (N - m, cname)
                        if self.copy_draw("%s/%s" % (name, els), 0.34)
                        else "%d * sizeof *%s" % (m, cname))
                out.append("  memcpy(%s, %s, %s);" % (cname, name, size))
            else:
                perm = list(range(m))
                r.shuffle(perm)
                for i in range(m):
                    out.append("  %s[%d] = %s[%d];" % (cname, i, name, perm[i]))
            self.pstruct_view(cname, m, w)
        if r.random() < 0.5:  # a single copy, of an element or of *sp
            sname = "sc%d" % (self.nst - 1)
            if self.sparam and r.random() < 0.4:
                out.append("  struct S %s = *sp;" % sname)
                self.pstruct_view(sname, None, self.sp_w)
            else:
                k = r.randrange(m)
                if self.copy_draw("%s/%s/%d" % (name, els, k), 0.3):
                    # --copies: the first member alone, by a run-time length
                    out += ["  struct S %s;" % sname,
                            "  memcpy(&%s, &%s[%d], (size_t)(n - %d) * sizeof %s.p);" % (
                                sname, name, k, N - 1, sname),
                            "  %s.w = %s[%d].w;" % (sname, name, k),
                            "  %s.k = %s[%d].k;" % (sname, name, k)]
                else:
                    out.append("  struct S %s = %s[%d];" % (sname, name, k))
                self.pstruct_view(sname, None, w)
        return out

    def p_sel(self, writable=False):
        r = self.r
        name = "p%s%d" % ("w" if writable else "p", len(self.ptrs))
        w = r.randint(2, N)
        ty = "double *" if writable else "const double *"
        if r.random() < 0.6:
            out = ["  %s%s = %s;" % (ty, name, self.psel([], w, writable))]
        else:  # a phi
            out = ["  %s%s;" % (ty, name), "  if (%s)" % self.pcond([]),
                   "    %s = %s;" % (name, self.pptr(w, writable, src=r.choice(self.psrc(True)))),
                   "  else",
                   "    %s = %s;" % (name, self.pptr(w, writable))]
        self.ptrs.append((name, w, writable))
        return out

    def p_wsel(self):
        return self.p_sel(writable=True)

    def p_p2(self):
        r = self.r
        a = "pa%d" % len(self.p2s)
        out = ["  struct P2 %s = { %s, %s };" % (a, self.squash(self.expr([])),
                                               self.squash(self.expr([])))]
        self.p2s.append(a)
        b = "pa%d" % len(self.p2s)
        if r.random() < 0.5:
            if self.copy_draw(out[0], 0.3):
                # --copies: .a alone by a run-time length, then .b
                out += ["  struct P2 %s;" % b,
                        "  memcpy(&%s, &%s, (size_t)(n - %d) * sizeof %s.a);" % (b, a, N - 1, b),
                        "  %s.b = %s.b;" % (b, a)]
            else:
                out.append("  struct P2 %s = %s;" % (b, a))
        else:
            out.append("  struct P2 %s = p2rot(%s, %s);" % (b, a, self.expr([])))
        self.p2s.append(b)
        return out

    def pstmt(self, scope, iters):
        """One statement through pointers (falls back to simple())."""
        r = self.r
        wptrs = [p for p in self.ptrs if p[2]]
        muts = [v for v in self.structs if v["mut"]]
        opts = ["pw"] * 3 * bool(wptrs) + ["psel"] * bool(self.ptrs)
        opts += ["sw", "sw", "sk", "spp", "scopy"] * bool(muts)
        opts += ["rrow", "rrow"] * bool(self.rows)
        opts += ["p2", "p2", "p2swap", "p2rot"] * bool(self.p2s)
        if not opts:
            return [self.simple(scope, iters)]
        k = r.choice(opts)
        step = self.step(iters)
        a = self.c(0.2, 0.8, 2)
        b = "%.2f" % (1 - float(a))
        if k == "pw":
            name, w, _ = r.choice(wptrs)
            idx = self.index_w(scope, w)
            if r.random() < 0.6:
                return ["%s[%s] = %s * %s[%s] + %s * %s;" % (
                    name, idx, a, name, idx, b, self.squash(self.expr(scope)))]
            return ["%s[%s] += %s * %s;" % (name, idx, step, self.squash(self.expr(scope)))]
        if k == "psel":
            name, w, wr = r.choice(self.ptrs)
            if not wr and r.random() < 0.4:  # loop-carried pointer phi
                return ["%s = (%s) ? %s : %s;" % (name, self.pcond(scope), name, self.pptr(w))]
            return ["%s = %s;" % (name, self.psel(scope, w, wr))]
        if k in ("sw", "sk", "spp"):
            v = r.choice(muts)
            pre = v["ref"](scope)
            if k == "sw":
                return ["%sw = %s * %sw + %s * %s;" % (pre, a, pre, b, self.squash(self.expr(scope)))]
            if k == "sk":
                return ["%sk = (%sk + %d) %% %d;" % (pre, pre, r.randint(1, 3), v["w"])]
            if r.random() < 0.4:
                return ["%sp = %s;" % (pre, self.psel(scope, v["w"]))]
            return ["%sp = %s;" % (pre, self.pptr(v["w"]))]
        if k == "scopy":
            d = r.choice(muts)
            srcs = [v for v in self.structs if v["w"] >= d["w"] and v is not d]
            if srcs and r.random() < 0.7:
                s = r.choice(srcs)
                if (d["m"] is not None and s["m"] == d["m"] and s["w"] == d["w"]
                        and s["name"] != "sp" and r.random() < 0.4):
                    return ["memcpy(%s, %s, %d * sizeof *%s);" % (d["name"], s["name"], d["m"], d["name"])]
                return ["%s = %s;" % (d["elem"](scope), s["elem"](scope))]
            if d["m"] is not None:  # swap two elements
                i, j = self.index_w(scope, d["m"]), self.index_w(scope, d["m"])
                return ["{ struct S tmp = %s[%s]; %s[%s] = %s[%s]; %s[%s] = tmp; }" % (
                    d["name"], i, d["name"], i, d["name"], j, d["name"], j)]
            return ["%sk = 0;" % d["ref"](scope)]
        if k == "rrow":
            name, m, w = r.choice(self.rows)
            i = self.index_w(scope, m)
            t = r.random()
            if t < 0.3:
                return ["%s[%s] = %s[%s];" % (name, i, name, self.index_w(scope, m))]
            if t < 0.6:
                return ["%s[%s] = %s;" % (name, i, self.psel(scope, w))]
            return ["%s[%s] = %s;" % (name, i, self.pptr(w))]
        p = r.choice(self.p2s)
        if k == "p2":
            fl = r.choice("ab")
            return ["%s.%s = %s * %s.%s + %s * %s;" % (p, fl, a, p, fl, b,
                                                       self.squash(self.expr(scope)))]
        q = r.choice(self.p2s)
        if k == "p2swap":
            if q == p:
                return ["%s = %s;" % (p, r.choice(self.p2s))]
            return ["{ struct P2 tmp = %s; %s = %s; %s = tmp; }" % (p, p, q, q)]
        return ["%s = p2rot(%s, %s);" % (p, q, self.expr(scope))]

    def psig(self):
        sig = "%s f(double *x, double *y, %s *c, int n" % (
            "void" if self.out_mode == "out" else "double",
            "double" if self.constwork else "const double")
        if self.has_s:
            sig += ", double s"
        if self.sparam:
            sig += ", const struct S *sp"
        if self.nout:
            sig += ", double *out"
        return sig + ")"

    def pfinish(self, terms):
        r = self.r
        terms = list(terms)
        for _ in range(r.randint(1, 3)):
            terms.append("%s * %s" % (self.c(-1, 1), self.pleaf([])))
        if self.sparam and r.random() < 0.7:
            terms.append("%s * sp->w" % self.c(-1, 1))
        out = []
        if self.out_mode != "out":
            out.append("  double ret = " + " + ".join(terms) + ";")
        for i in range(self.nout):
            if i == 0 and self.out_mode == "out":
                val = terms
            else:
                val = ["%s * %s" % (self.c(-1, 1), self.pleaf([]) if r.random() < 0.6
                                    else "%s[%d]" % (r.choice(self.arrays()), r.randrange(N)))
                       for _ in range(r.randint(1, 3))]
                if r.random() < 0.5:
                    val.append("acc%d" % r.randrange(self.naccs))
            out.append("  out[%d] = %s;" % (i, " + ".join(val)))
        for name in self.frees:
            out.append("  free(%s);" % name)
        if self.out_mode != "out":
            out.append("  return ret;")
        return out

