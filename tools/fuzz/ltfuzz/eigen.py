"""--eigen (implies --cxx; C++ with Eigen 3, -I/usr/include/eigen3 on the
program's fuzz-cxxflags line): f also holds Eigen matrices and vectors,
fixed-size (Eigen::Matrix<double, R, C>, Vector3d, Matrix2d, ...) and
dynamic (MatrixXd, VectorXd, sizes literal or from n), filled from x, y
and f's arrays, built from expressions of the others, or Map<> views over
x's memory (writable: f writes x through them) and y's (const). Leaves and
statements combine them with expression templates: sums, scalings,
matrix-vector and matrix-matrix products, .transpose(), fixed and dynamic
.block<>()/.col(), .array() element-wise ops (sin, cos, tanh, exp,
square), .cwiseProduct, and reduce them with .sum(), .mean(), .norm(),
.squaredNorm(), .dot(), .trace(), .determinant() and coefficient access;
whole-object and per-coefficient updates (convex blends with bounded
functions; .eval() where the right side reads the target's memory).
Helpers (mostly noinline): a matrix-vector product through pointers
(`*out = (*M) * (*v)`, MatrixXd/VectorXd or fixed, sometimes __restrict,
noalias or a loop of row dots), scalar functions of const references,
templates over Eigen::MatrixBase<D> (called with expression templates),
functions returning a matrix by value, and in-place updates through a
pointer or an Eigen::Ref<>. Per program (on the fuzz-cxxflags line):
-DNDEBUG or not (Eigen's run-time asserts), -DEIGEN_DONT_VECTORIZE or not,
-mavx2 -mfma or not. Every draw is behind the flag (the draws of
the other modes come first), so the programs of the other flags do not
change."""
from .helpers import Helpers, kind
from .mode import Mode
from .shapes import N

VDIMS = [2, 3, 4]


def etype(r, c, dyn):
    """The C++ type of an r x c matrix (a vector when c == 1)."""
    if dyn:
        return "Eigen::VectorXd" if c == 1 else "Eigen::MatrixXd"
    if c == 1:
        return "Eigen::Vector%dd" % r if 2 <= r <= 4 else "Eigen::Matrix<double, %d, 1>" % r
    if r == c and 2 <= r <= 4:
        return "Eigen::Matrix%dd" % r
    return "Eigen::Matrix<double, %d, %d>" % (r, c)


class EObj:
    """An Eigen object in scope: name, shape, dynamic or fixed, the memory
    it views (x, y, or None: its own), whether it may be written, whether
    it is a Map (not of its own type)."""

    def __init__(self, name, r, c, dyn, mem=None, writable=True, is_map=False):
        self.name, self.r, self.c, self.dyn = name, r, c, dyn
        self.mem, self.writable, self.is_map = mem, writable, is_map

    @property
    def typ(self):
        return etype(self.r, self.c, self.dyn)


class Eigen(Helpers, Mode):
    name = "eigen"
    flag = "--eigen"
    help = ("(implies --cxx) f also builds Eigen expressions over "
            "fixed-size and dynamic matrices and vectors filled from x "
            "and y, and Map<> views over x and y: products, transposes, "
            "blocks, array ops, reductions, noinline helpers taking "
            "matrices by pointer or const reference")
    implies = ("cxx",)

    @staticmethod
    def on_args(ap, args):
        if args.eigen and args.split:
            ap.error("--eigen is C++ (not --split)")

    def on_init(self):
        self.hinit()
        r = self.r
        self.budget += r.randint(2, 4)
        self.eobjs = []
        self.eready = False
        self.ehelper_ctx = False   # inside a helper body: no x, y, scope
        self.enest = 0
        self.eused = 0
        self.ecount = 0
        self.e_refs = set()        # memories an expression reads
        self.e_ndebug = r.random() < 0.5
        self.e_novec = r.random() < 0.25
        self.e_avx = r.random() < 0.25
        self.e_want = r.randint(2, 3)
        self.e_noexpr = False      # no core leaves (while declaring objects)
        self.e_force_mv = r.random() < 0.5

    def on_leaf(self, scope):
        if self.eready and self.enest == 0 and self.r.random() < 0.12:
            return self.eleaf(scope)
        return None

    def on_stmt(self, scope, depth, iters):
        if self.eready and self.r.random() < 0.2:
            return self.estmt(scope, iters)
        return None

    def on_locals(self):
        return self.eobjects()

    def on_finish(self):
        out = []
        if self.e_force_mv and "emv" not in self.hk:
            out += ["  " + l for l in self.estmt([], 1, "mv")]
        while self.eused < 2:
            out += ["  " + l for l in self.estmt([], 1, "acc")]
        return out

    def on_text(self, text):
        fl = "-I/usr/include/eigen3"
        fl += " -DNDEBUG" if self.e_ndebug else ""
        fl += " -DEIGEN_DONT_VECTORIZE" if self.e_novec else ""
        fl += " -mavx2 -mfma" if self.e_avx else ""
        old = "/* fuzz-cxxflags: -f"
        assert text.count(old) == 1
        text = text.replace(old, "/* fuzz-cxxflags: %s -f" % fl)
        inc = "#include <vector>\n"
        assert text.count(inc) == 1
        text = text.replace(inc, inc + "\n#include <Eigen/Core>\n#include <Eigen/LU>\n", 1)
        return finite_check(text)

    # ------------------------------------------------------------ objects
    def ename(self):
        self.ecount += 1
        return "E%d" % (self.ecount - 1)

    def eshape(self):
        r = self.r
        if r.random() < 0.4:
            return r.choice(VDIMS), 1
        return r.choice(VDIMS), r.choice(VDIMS)

    def efill(self, name, rr, cc):
        """Lines filling name (rr x cc) from f's arrays."""
        r = self.r
        src = r.choice(["x", "y"] + ["t%d" % j for j in range(self.nlocal)])
        g = r.choice(["cos(%s)", "tanh(%s + 0.5)", "0.5 * %s", "0.9 * sin(%s)"])
        off = r.randrange(N)
        t = r.random()
        if t < 0.35:
            vals = [g % ("%s[%d]" % (src, (off + k) % N)) for k in range(rr * cc)]
            return ["  %s << %s;" % (name, ", ".join(vals))]
        if t < 0.7 and cc > 1:
            return ["  for (int q = 0; q < %d; q++)" % rr,
                    "    for (int w = 0; w < %d; w++)" % cc,
                    "      %s(q, w) = %s;" % (name, g % ("%s[(q * %d + w + %d) %% N]" % (src, cc, off)))]
        return ["  for (int q = 0; q < %s.size(); q++)" % name,
                "    %s(q) = %s;" % (name, g % ("%s[(q + %d) %% N]" % (src, off)))]

    def eobjects(self):
        r = self.r
        out = []
        for k in range(self.e_want):
            name = self.ename()
            t = r.random()
            rr, cc = self.eshape()
            dyn = r.random() < 0.5
            if t < 0.25 and rr * cc <= N:  # a writable view of x
                off = r.randint(0, N - rr * cc)
                base = "x" if off == 0 else "x + %d" % off
                if dyn:
                    args = "%s, %d" % (base, rr) if cc == 1 else "%s, %d, %d" % (base, rr, cc)
                    out.append("  Eigen::Map<%s> %s(%s);" % (etype(rr, cc, True), name, args))
                else:
                    out.append("  Eigen::Map<%s> %s(%s);" % (etype(rr, cc, False), name, base))
                self.eobjs.append(EObj(name, rr, cc, dyn, "x", True, True))
            elif t < 0.4:  # a const view of y (all of it: n entries)
                if r.random() < 0.5:
                    out.append("  Eigen::Map<const Eigen::VectorXd> %s(y, n);" % name)
                    self.eobjs.append(EObj(name, N, 1, True, "y", False, True))
                else:
                    rr, cc = r.choice([(2, 4), (4, 2), (2, 2), (4, 1), (2, 3)])
                    out.append("  Eigen::Map<const %s> %s(y + %d);" % (
                        etype(rr, cc, False), name, r.randint(0, N - rr * cc)))
                    self.eobjs.append(EObj(name, rr, cc, False, "y", False, True))
            elif t < 0.65 or len(self.eobjs) == 0:  # filled from arrays
                if dyn:
                    if cc == 1 and r.random() < 0.3:
                        rr = N
                        out.append("  Eigen::VectorXd %s(n);" % name)
                    else:
                        out.append("  %s %s(%d%s);" % (etype(rr, cc, True), name, rr,
                                                       "" if cc == 1 else ", %d" % cc))
                else:
                    out.append("  %s %s;" % (etype(rr, cc, False), name))
                out += self.efill(name, rr, cc)
                self.eobjs.append(EObj(name, rr, cc, dyn))
            else:  # built from an expression of the others
                self.eready = self.e_noexpr = True
                e = self.mexpr(rr, cc, 2, [])
                self.e_noexpr = False
                if r.random() < 0.5:
                    e = "(%s).array().tanh().matrix()" % e
                out.append("  %s %s = %s;" % (etype(rr, cc, dyn), name, e))
                self.eobjs.append(EObj(name, rr, cc, dyn))
        self.eready = True
        return out

    # -------------------------------------------------------- expressions
    def eidx(self, scope, m):
        """An index in [0, m)."""
        r = self.r
        if m == 1:
            return "0"
        cands = [v for v in scope if v.lo >= 0]
        if cands and r.random() < 0.4:
            v = r.choice(cands)
            return v.name if v.hi < m else "%s %% %d" % (v.name, m)
        return str(r.randrange(m))

    def ebase(self, rr, cc):
        """An rr x cc expression straight from x and y (Maps, outer products)."""
        r = self.r
        if self.ehelper_ctx:  # no x, y in a helper: a constant
            return "%s::Constant(%s)" % (etype(rr, cc, False), self.c(-1, 1, 2))
        a, b = r.choice(["x", "y"]), r.choice(["x", "y"])
        self.e_refs.add(a)
        if rr * cc <= N and r.random() < 0.6:
            off = r.randint(0, N - rr * cc)
            if r.random() < 0.5 or rr == 1:
                return "Eigen::Map<const %s>(%s + %d)" % (etype(rr, cc, False), a, off)
            args = "%d" % rr if cc == 1 else "%d, %d" % (rr, cc)
            return "Eigen::Map<const %s>(%s + %d, %s)" % (etype(rr, cc, True), a, off, args)
        self.e_refs.add(b)
        u = "Eigen::Map<const %s>(%s + %d)" % (etype(rr, 1, False) if rr > 1 else "Eigen::Matrix<double, 1, 1>",
                                              a, r.randint(0, N - rr))
        v = "Eigen::Map<const %s>(%s + %d)" % (etype(cc, 1, False) if cc > 1 else "Eigen::Matrix<double, 1, 1>",
                                              b, r.randint(0, N - cc))
        return "(%s * %s.transpose())" % (u, v)

    def euse(self, o):
        self.e_refs.add(o.mem or o.name)
        return o.name

    def mexpr(self, rr, cc, d, scope):
        """An rr x cc matrix expression, nesting depth <= d."""
        r = self.r
        same = [o for o in self.eobjs if (o.r, o.c) == (rr, cc)]
        trans = [o for o in self.eobjs if (o.c, o.r) == (rr, cc) and rr != cc]
        big = [o for o in self.eobjs if o.r >= rr and o.c >= cc and (o.r, o.c) != (rr, cc)]
        opts = ["obj"] * 4 * bool(same) + ["tr"] * 2 * bool(trans) + ["blk"] * 2 * bool(big)
        opts += ["base"]
        if d > 0:
            opts += ["add", "scale", "prod", "prod", "cwise", "arr", "arr"]
            if self.hk.get("eret") is not None or r.random() < 0.3:
                if not self.ehelper_ctx:
                    opts.append("ret")
        k = r.choice(opts)
        if k == "obj":
            return self.euse(r.choice(same))
        if k == "tr":
            return "%s.transpose()" % self.euse(r.choice(trans))
        if k == "blk":
            o = r.choice(big)
            nm = self.euse(o)
            i0, j0 = self.eidx(scope, o.r - rr + 1), self.eidx(scope, o.c - cc + 1)
            t = r.random()
            if cc == 1 and o.c == 1:
                if t < 0.4:
                    return "%s.segment<%d>(%s)" % (nm, rr, i0)
                if t < 0.6:
                    return "%s.head(%d)" % (nm, rr)
                return "%s.tail<%d>()" % (nm, rr)
            if cc == 1 and rr == o.r and t < 0.5:
                return "%s.col(%s)" % (nm, self.eidx(scope, o.c))
            if t < 0.7 or cc == 1 or rr == 1:  # (dynamic blocks are no vectors)
                return "%s.block<%d, %d>(%s, %s)" % (nm, rr, cc, i0, j0)
            return "%s.block(%s, %s, %d, %d)" % (nm, i0, j0, rr, cc)
        if k == "base":
            return self.ebase(rr, cc)
        if k == "add":
            a = self.mexpr(rr, cc, d - 1, scope)
            op = r.choice("+-")
            b = self.mexpr(rr, cc, d - 1, scope)
            # not a - a: identically zero, whose .norm() has no derivative
            # (AD's 0/0 is NaN where differences see a constant; seed 990111)
            return "(%s %s %s)" % (a, "+" if a == b else op, b)
        if k == "scale":
            e = self.mexpr(rr, cc, d - 1, scope)
            if r.random() < 0.3 and not self.ehelper_ctx and not self.e_noexpr:
                return "(%s * %s)" % (e, self.squash(self.expr(scope, 0)))
            return "(%s * %s)" % (self.c(-1.5, 1.5, 2), e) if r.random() < 0.6 else \
                "(%s / %s)" % (e, self.c(1.5, 3.0, 2))
        if k == "prod":
            kk = r.choice([1, 2, 2, 3, 4]) if (rr, cc) != (1, 1) else r.choice(VDIMS)
            if rr == 1 and kk == 1:
                kk = 2
            if cc == 1 and kk == 1:
                kk = 2
            a = self.mexpr(rr, kk, d - 1, scope)
            b = self.mexpr(kk, cc, d - 1, scope)
            return "(%s * %s * %s)" % (self.c(0.3, 1.0, 2) if kk <= 2 else "%.3f" % (1.0 / kk), a, b)
        if k == "cwise":
            return "%s.cwiseProduct(%s)" % (self.mexpr(rr, cc, d - 1, scope),
                                            self.mexpr(rr, cc, d - 1, scope))
        if k == "ret":
            h = self.eret_for(rr, cc)
            return "%s(%s)" % (h["name"], ", ".join(
                self.mexpr(a, b, d - 1, scope) for a, b in h["args"]))
        e = self.mexpr(rr, cc, d - 1, scope)
        t = r.random()
        if t < 0.2:
            return "%s.array().sin().matrix()" % e
        if t < 0.35:
            return "%s.array().cos().matrix()" % e
        if t < 0.55:
            return "%s.array().tanh().matrix()" % e
        if t < 0.7:
            return "%s.array().tanh().exp().matrix()" % e
        if t < 0.85:
            return "(%s * %s.array().square()).matrix()" % (self.c(0.2, 0.6, 2), e)
        return "(%s.array() * %s.array()).matrix()" % (e, self.mexpr(rr, cc, d - 1, scope))

    def evshape(self):
        r = self.r
        vs = [o for o in self.eobjs if o.c == 1]
        if vs and r.random() < 0.7:
            return r.choice(vs).r, 1
        return r.choice(VDIMS), 1

    def emshape(self):
        r = self.r
        ms = [o for o in self.eobjs]
        if ms and r.random() < 0.7:
            o = r.choice(ms)
            return o.r, o.c
        return self.eshape()

    def escalar(self, scope, d=2):
        """A scalar from Eigen expressions (value moderate)."""
        r = self.r
        opts = ["mean", "sum", "norm", "sqn", "dot", "dot", "coef", "coef", "trace", "arrsum",
                "quad", "det"]
        if not self.ehelper_ctx:
            opts += ["tmpl", "ref", "ref"]
        k = r.choice(opts)
        self.eused += 1
        if k in ("mean", "sum", "norm", "sqn", "arrsum"):
            rr, cc = self.emshape()
            e = self.mexpr(rr, cc, d, scope)
            if k == "mean":
                return "%s.mean()" % e
            if k == "sum":
                return "(%s.sum() / %d.0)" % (e, rr * cc)
            if k == "norm":
                return "%s.norm()" % e
            if k == "sqn":
                return "(%s.squaredNorm() / %d.0)" % (e, rr * cc)
            f = r.choice(["sin", "cos", "tanh"])
            return "%s.array().%s().sum()" % (e, f)
        if k == "dot":
            rr, _ = self.evshape()
            a, b = self.mexpr(rr, 1, d, scope), self.mexpr(rr, 1, d - 1, scope)
            return "%s.dot(%s)" % (a, b) if rr <= 4 else "(%s.dot(%s) / %d.0)" % (a, b, rr)
        if k == "coef":
            objs = self.eobjs
            o = r.choice(objs)
            if r.random() < 0.5 or self.ehelper_ctx:
                if o.c == 1 and r.random() < 0.5:
                    return "%s(%s)" % (self.euse(o), self.eidx(scope, o.r))
                return "%s(%s, %s)" % (self.euse(o), self.eidx(scope, o.r), self.eidx(scope, o.c))
            e = self.mexpr(o.r, o.c, d, scope)
            return "(%s).eval()(%s, %s)" % (e, self.eidx(scope, o.r), self.eidx(scope, o.c))
        if k == "trace":
            m = r.choice([o.r for o in self.eobjs if o.r <= 4] or [2])
            return "%s.trace()" % self.mexpr(m, m, d, scope)
        if k == "det":
            m = r.choice([2, 3])
            return "(%s).eval().determinant()" % self.mexpr(m, m, d - 1, scope)
        if k == "quad":  # v^T M v: a 1 x 1 product
            rr, _ = self.evshape()
            v = self.mexpr(rr, 1, d - 1, scope)
            return "(%s.transpose() * %s * %s).value()" % (v, self.mexpr(rr, rr, d - 1, scope), v)
        if k == "tmpl":
            h = self.helper("etmpl")
            rr, cc = self.emshape()
            return "%s(%s)" % (h["name"], self.mexpr(rr, cc, d, scope))
        h = self.helper("eref")
        return "%s(%s)" % (h["name"], ", ".join(self.mexpr(a, b, d - 1, scope) for a, b in h["args"]))

    def esq(self, e):
        """squash without repeating e (Eigen expressions are long)."""
        return "%s(%s)" % (self.r.choice(["sin", "cos", "tanh"]), e)

    def eleaf(self, scope):
        self.enest += 1
        s = self.esq(self.escalar(scope, self.r.randint(0, 2)))
        self.enest -= 1
        return s

    # --------------------------------------------------------- statements
    def estmt(self, scope, iters, k=None):
        r = self.r
        self.enest += 1
        step = self.step(iters)
        acc = "acc%d" % r.randrange(self.naccs)
        wr = [o for o in self.eobjs if o.writable]
        opts = ["acc", "acc", "mv", "mv"] + ["coef", "whole", "whole", "pw"] * bool(wr)
        k = k or r.choice(opts)
        if k == "acc":
            out = ["%s += %s * %s;" % (acc, step, self.esq(self.escalar(scope, r.randint(1, 2))))]
        elif k == "coef":
            o = r.choice(wr)
            a = self.c(0.2, 0.8, 2)
            ij = self.eidx(scope, o.r) + ("" if o.c == 1 else ", " + self.eidx(scope, o.c))
            e = self.escalar(scope, 1) if r.random() < 0.6 else self.expr(scope, 1)
            out = ["%s(%s) = %s * %s(%s) + %.2f * %s;" % (o.name, ij, a, o.name, ij, 1 - float(a),
                                                          self.esq(e))]
        elif k == "whole":
            o = r.choice(wr)
            self.e_refs = set()
            col = o.c > 1 and r.random() < 0.3
            rr, cc = (o.r, 1) if col else (o.r, o.c)
            e = self.mexpr(rr, cc, r.randint(1, 2), scope)
            if (o.mem or o.name) in self.e_refs or o.name in e:
                e = "(%s).eval()" % e
            tgt = "%s.col(%s)" % (o.name, self.eidx(scope, o.c)) if col else o.name
            if r.random() < 0.7:
                a = self.c(0.2, 0.8, 2)
                f = r.choice(["tanh", "sin"])
                out = ["%s = %s * %s + %.2f * %s.array().%s().matrix();" % (
                    tgt, a, tgt, 1 - float(a), e, f)]
            else:
                out = ["%s += %s * %s.array().sin().matrix();" % (tgt, step, e)]
        elif k == "pw":
            out = self.epw(scope, wr)
        else:
            out = self.emv(scope, step, acc)
        self.eused += 1
        self.enest -= 1
        return out

    def emv(self, scope, step, acc):
        """A call of a matrix-vector helper through pointers, in a block."""
        r = self.r
        h = self.helper("emv")
        mr, mc = (h["c"], h["r"]) if h["tr"] else (h["r"], h["c"])
        mt, vt, ot = etype(mr, mc, h["dyn"]), etype(h["c"], 1, h["dyn"]), etype(h["r"], 1, h["dyn"])
        ex = [o for o in self.eobjs if not o.is_map and o.typ == mt and (o.r, o.c) == (mr, mc)]
        out = ["{"]
        if ex and r.random() < 0.5:
            mref = "&" + ex[0].name
        else:
            out.append("  %s em = %s;" % (mt, self.mexpr(mr, mc, 1, scope)))
            mref = "&em"
        out.append("  %s ev = %s;" % (vt, self.mexpr(h["c"], 1, 1, scope)))
        if h["dyn"] and r.random() < 0.5:
            out.append("  Eigen::VectorXd eo; /* sized by the helper's assignment */")
        elif h["dyn"]:
            out.append("  Eigen::VectorXd eo(%d);" % h["r"])
        else:
            out.append("  %s eo;" % ot)
        out.append("  %s(%s, &ev, &eo);" % (h["name"], mref))
        t = r.random()
        if t < 0.4:
            red = "eo.sum() / %d.0" % h["r"]
        elif t < 0.7:
            red = "eo.dot(%s)" % self.mexpr(h["r"], 1, 1, scope)
        else:
            red = "eo.squaredNorm() / %d.0" % h["r"]
        out.append("  %s += %s * %s;" % (acc, step, self.esq(red)))
        return out + ["}"]

    def epw(self, scope, wr):
        r = self.r
        o = r.choice(wr)
        if o.is_map or r.random() < 0.4:  # through an Eigen::Ref<>
            h = self.mk_pw_for(o, True)
            return ["%s(%s, %s);" % (h["name"], o.name, self.mexpr(o.r, o.c, 1, scope))]
        h = self.mk_pw_for(o, False)
        return ["%s(&%s, %s);" % (h["name"], o.name, self.mexpr(o.r, o.c, 1, scope))]

    # ------------------------------------------------------------ helpers
    def eattr(self):
        r = self.r
        return ("__attribute__((noinline)) " if r.random() < 0.6 else "") + \
            ("static " if r.random() < 0.7 else "")

    def in_helper(self, objs, fn):
        """fn() with the helper's parameters as the only objects."""
        saved = self.eobjs, self.ehelper_ctx, self.e_refs
        self.eobjs, self.ehelper_ctx = objs, True
        try:
            return fn()
        finally:
            self.eobjs, self.ehelper_ctx, self.e_refs = saved

    @kind("ehm")
    def mk_emv(self, name):
        r = self.r
        dyn = r.random() < 0.7
        rr, cc = r.choice(VDIMS), r.choice(VDIMS)
        tr = r.random() < 0.2
        mr, mc = (cc, rr) if tr else (rr, cc)
        res = "__restrict " if r.random() < 0.25 else ""
        mt, vt, ot = etype(mr, mc, dyn), etype(cc, 1, dyn), etype(rr, 1, dyn)
        L = ["%svoid %s(const %s *%sM, const %s *%sv, %s *%sout) {" % (
            self.eattr(), name, mt, res, vt, res, ot, res)]
        M = "(*M).transpose()" if tr else "(*M)"
        t = r.random()
        if t < 0.5:
            L.append("  *out = %s * (*v);" % M)
        elif t < 0.65:
            L.append("  out->noalias() = %s * (*v);" % M)
        elif t < 0.8:
            L.append("  *out = (%s * (*v)).array().tanh().matrix();" % M)
        else:
            if dyn:
                L.append("  out->resize(%d);" % rr)
            row = "M->col(i).dot(*v)" if tr else "M->row(i).dot(*v)"
            L += ["  for (int i = 0; i < %d; i++)" % rr, "    (*out)(i) = %s;" % row]
        L.append("}")
        return {"name": name, "lines": L, "r": rr, "c": cc, "dyn": dyn, "tr": tr}

    @kind("ehr")
    def mk_eref(self, name):
        """double h(const A &a, const B &b): a scalar of its arguments."""
        r = self.r
        dyn = r.random() < 0.4
        shapes = [self.eshape() for _ in range(r.randint(1, 2))]
        params = [EObj("a%d" % k, a, b, dyn) for k, (a, b) in enumerate(shapes)]
        body = self.in_helper(params, lambda: self.escalar([], 1))
        ps = ", ".join("const %s &%s" % (p.typ, p.name) for p in params)
        L = ["%sdouble %s(%s) {" % (self.eattr(), name, ps),
             "  return %s;" % self.esq(body), "}"]
        return {"name": name, "lines": L, "args": shapes}

    @kind("eht")
    def mk_etmpl(self, name):
        """A template over Eigen::MatrixBase<D>: called with expressions."""
        r = self.r
        body = r.choice(["a.array().sin().sum() / double(a.size())",
                         "a.squaredNorm() / double(a.size())",
                         "(a.transpose() * a).trace() / double(a.size())",
                         "a.mean()", "a.norm()", "a.array().tanh().square().mean()"])
        ni = "__attribute__((noinline)) " if r.random() < 0.5 else ""
        L = ["template <typename D> %sdouble %s(const Eigen::MatrixBase<D> &a) {" % (ni, name),
             "  return %s;" % self.esq(body), "}"]
        return {"name": name, "lines": L}

    def eret_for(self, rr, cc):
        """A helper returning an rr x cc matrix (an existing one or new)."""
        lst = self.hk.setdefault("eret", [])
        hs = [h for h in lst if h["args"][0] == (rr, cc)]
        if hs and self.r.random() < 0.6:
            return self.r.choice(hs)
        h = self.mk_eret("ehv%d" % len(lst), rr, cc)
        lst.append(h)
        self.hdefs.append(h["lines"])
        return h

    def mk_eret(self, name, rr, cc):
        """A matrix returned by value from const references."""
        r = self.r
        dyn = r.random() < 0.4
        shapes = [(rr, cc)] + ([self.eshape()] if r.random() < 0.4 else [])
        params = [EObj("a%d" % k, a, b, dyn) for k, (a, b) in enumerate(shapes)]
        body = self.in_helper(params, lambda: self.mexpr(rr, cc, 1, []))
        ps = ", ".join("const %s &%s" % (p.typ, p.name) for p in params)
        L = ["%s%s %s(%s) {" % (self.eattr(), etype(rr, cc, dyn), name, ps)]
        if r.random() < 0.5:
            L += ["  %s t = %s;" % (etype(rr, cc, dyn), body), "  return t.array().tanh().matrix();"]
        else:
            L.append("  return %s.array().sin().matrix();" % body)
        L.append("}")
        return {"name": name, "lines": L, "args": shapes}

    def mk_pw_for(self, o, ref):
        """An in-place update helper for o's type (by pointer, or Eigen::Ref)."""
        r = self.r
        lst = self.hk.setdefault("pwt", [])
        for h in lst:
            if h["typ"] == o.typ and h["ref"] == ref and r.random() < 0.7:
                return h
        name = "ehw%d" % len(lst)
        a = self.c(0.2, 0.8, 2)
        f = r.choice(["sin", "tanh", "cos"])
        if ref:
            L = ["%svoid %s(Eigen::Ref<%s> T, const %s &A) {" % (self.eattr(), name, o.typ, o.typ),
                 "  T = %s * T + %.2f * A.array().%s().matrix();" % (a, 1 - float(a), f), "}"]
        else:
            L = ["%svoid %s(%s *T, const %s &A) {" % (self.eattr(), name, o.typ, o.typ),
                 "  *T = %s * (*T) + %.2f * A.array().%s().matrix();" % (a, 1 - float(a), f), "}"]
        h = {"name": name, "lines": L, "typ": o.typ, "ref": ref}
        lst.append(h)
        self.hdefs.append(L)
        return h


FIN_MARK = "/* NaN or inf: a bit test"


def finite_check(text):
    """main also fails on a NaN or infinite gradient entry, tested on its
    bits (-ffast-math may fold the comparisons of the check with NaN)."""
    if FIN_MARK in text:
        return text
    import re
    m = re.search(r"\n  for \(int k = 0; k < (\w+); k\+\+\) \{\n", text)
    end = "  printf(\"f=%.12g gmax=%.6g checked=%d"
    if not m or text.count(end) != 1 or "__enzyme_autodiff" not in text:
        return text
    chk = ("  for (int k = 0; k < %s; k++) { %s (-ffast-math folds isnan) */\n"
           "    unsigned long long bits;\n"
           "    memcpy(&bits, &ad[k], sizeof bits);\n"
           "    if (((bits >> 52) & 0x7ff) == 0x7ff) {\n"
           "      printf(\"MISMATCH gradient entry %%d is not finite\\n\", k);\n"
           "      bad++;\n"
           "    }\n"
           "  }\n") % (m.group(1), FIN_MARK)
    return text.replace(end, chk + end, 1)
