#!/usr/bin/env python3
"""Random differential-test program generator for Leantape (issue 3, item 4).

    python3 tools/fuzz/gen.py --seed 42 [--no-loops] [--pointers] [--calls] [--cxx]
                              [--alias] [--fwd] [--primal-only] [-o prog.c]

Writes a self-checking C program: a random function

    double f(double *x, double *y, int n[, double s])

built from loop nests (counted, runtime-bounded, triangular, while loops with
data-independent counts, data-dependent `break`, `continue`), branches on data
and on loop counters, ternaries, in-place array updates, local arrays, smooth
math calls, accumulators and loop-carried recurrences; and a `main` that
differentiates f with __enzyme_autodiff (x, y dup; n const; s out) and
compares every gradient entry with a central finite difference of the return
value. Exit status of the program: 0 all gradients agree, 1 a mismatch,
77 inconclusive (the finite difference itself is unstable at some entry,
i.e. a data branch flips within the step: the point is not smooth there).
An entry that disagrees with the central difference at step h is checked
once more against Richardson's extrapolation from the steps 1e3 h and
5e2 h, which rounding noise in f (amplified by 1/h: long loops of
tanh/exp) hardly reaches; it is a MISMATCH only when it disagrees with
both ("noisy FD" when only the step-h difference was off).

Invariants the generator keeps (so that any mismatch is a real AD bug):
  * every index expression is in [0, N) for every value its counters can take;
  * every array element stays in about [-2, 2] (stores are convex blends with
    bounded functions, `+=` steps are scaled by 1/(max iteration count));
  * accumulators stay bounded the same way; math calls get arguments where
    they are smooth (exp of bounded values, log(1+e*e), sqrt(1+e*e),
    pow(positive base, c), e/(1+e*e));
  * no fabs/fmin/fmax; data comparisons are against constants.
The same seed always gives the same program (Python's random.Random).

--pointers (every extra random draw is behind this flag, so the programs of
the other options do not change) adds `const double *c` (enzyme_const) and
memory reached through pointers: row-pointer arrays on the stack or heap into
x, y, c, local and heap arrays (also mixed); arrays of `struct S { const
double *p; double w; int k; }` with copies (assignment, memcpy, swaps); a
struct parameter `const struct S *sp` (enzyme_dup; main's shadow struct holds
the shadow pointer, w's adjoint and a copy of k; sp->w is checked as one more
gradient entry); `struct P2 { double a, b; }` copied and passed by value;
malloc/calloc buffers (freed at the end); pointer selects and phis mixing
active and inactive memory, re-selected inside loops; and, per program, a
return value, an output array `double *out` (enzyme_dupnoneed, adjoints seeded
with out_seed[]), or both. The finite difference differentiates exactly the
seeded scalar (return value + sum out_seed[i] * out[i]); main also checks
that c is not modified. Each pointer view has a width w: it always points at
>= w valid doubles and is indexed in [0, w).

--alias makes x and y overlap: main passes x = buf + XA and y = buf + YA,
two views of one buffer of NB doubles, and the shadows with the same layout
(dx = dbuf + XA, dy = dbuf + YA), as an AD tool must be called when arrays
alias. Per seed (from a separate random stream, so f is the same program as
without --alias): y == x, a partial overlap y = x + k or x = y + k with
0 < k < N, or disjoint but adjacent (k = N, the boundary of a run-time
disjointness test). The finite differences perturb one buffer element at a
time and call f on a fresh copy of the whole buffer with the same views;
the gradient is compared per buffer element (dbuf[i], named with the x and
y elements it is). Combines with every other option.

--fwd makes main check forward mode instead (__enzyme_fwddiff; every
choice of it from its own random stream, so f is the same program as
without --fwd, evaluated at the same point). The active scalar inputs v =
(x, y or the --alias buffer, s, sp->w) get W = 1, 2 or 4 seed-chosen
directions (dense, sparse or unit vectors; W > 1 with enzyme_width W).
Lane k of the tangent memory of x and y holds direction k before the call
and must hold the tangent of x and y as f leaves them (f updates them in
place) after it; out[] (enzyme_dupnoneed, or enzyme_dup) gets its
tangents; s is followed by its W tangents (enzyme_dup or unmarked); sp's W
shadow structs hold the lane's shadow pointer and w's tangent. The shadows
of a pointer are W pointers (enzyme_dup) or one pointer and a stride in
bytes (enzyme_dupv / enzyme_dupnoneedv: a constant, an int or a run-time
value) into one buffer of W lanes with PAD-filled padding between them,
per argument. The call returns the tangent of f's result (a struct of W
doubles with a width; {result, tangents} with enzyme_primal_return, for
some seeds; void when f only writes out[]). Every lane is compared with the
central difference of all of f's outputs along its direction; main also
checks the call's primal results (x and y unless enzyme_dupnoneed, out with
enzyme_dup, the primal_return value) against f's, that the padding is
untouched and that c is not modified. With --calls most custom-gradient
helpers also get a registered forward derivative
(__enzyme_register_derivative_<name> = {fn, fn_fwd}, returning {result,
tangent} or the tangent alone); the others are left with their gradient
only, so forward mode has to differentiate their bodies. Combines with
every other option.

--primal-only replaces the __enzyme_autodiff (or __enzyme_fwddiff) call by a
plain call of f (the FD loop still runs f many times) and exits 0: compile it
without the plugin under -fsanitize=address,undefined to check the
invariants above (run.sh -P); with --fwd it exits 1 when main's primal
checks fail (eval must compute what f computes).
"""
import argparse
import random
import re
import sys

N = 8  # size of x, y and every local array


class Var:
    """A loop counter in scope with its inclusive value range."""

    def __init__(self, name, lo, hi):
        self.name, self.lo, self.hi = name, lo, hi


class Gen:
    def __init__(self, seed, loops=True, max_depth=3, pointers=False,
                 primal_only=False, calls=False, cxx=False, alias=False,
                 fwd=False):
        self.r = random.Random(seed)
        self.seed = seed
        self.loops = loops
        self.max_depth_arg = max_depth
        self.max_depth = max_depth if loops else 0
        self.pointers = pointers
        self.primal_only = primal_only
        self.calls = calls
        self.cxx = cxx
        self.nvar = 0
        self.has_s = self.r.random() < 0.4
        self.nlocal = self.r.randint(0, 2)
        self.naccs = self.r.randint(1, 3)
        self.nrecs = self.r.randint(0, 2)
        self.budget = self.r.randint(5, 14)  # statements left to emit
        self.nloops = 0
        if self.pointers:  # every draw for --pointers comes after the others
            self.pinit()
        if self.calls or self.cxx:  # then those of --calls, then --cxx
            self.hinit()
        if self.calls:
            self.cinit()
        if self.cxx:
            self.xinit()
        self.alias = alias
        if self.alias:
            self.ainit()
        self.fwd = fwd
        if self.fwd:  # its own random stream: f is the program without --fwd
            self.finit()

    # ---------------------------------------------------------------- helpers
    def c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.r.uniform(lo, hi))

    def arrays(self):
        a = ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]
        if self.pointers:
            a += self.heaps
        if self.cxx:
            a += self.vecs
        return a

    def index(self, scope):
        """An index expression that is always in [0, N)."""
        r = self.r
        if scope and r.random() < 0.85:
            v = r.choice(scope)
            choices = []
            if 0 <= v.lo and v.hi < N:
                choices += [v.name, v.name, "%d - %s" % (N - 1, v.name)]
            if v.lo >= 0:
                choices += ["(%s + %d) %% %d" % (v.name, r.randint(0, N - 1), N)]
            if len(scope) >= 2 and r.random() < 0.3:
                w = r.choice(scope)
                if w is not v and v.lo >= 0 and w.lo >= 0:
                    choices += ["(%s + %s) %% %d" % (v.name, w.name, N)]
            if v.lo >= 1 and v.hi - 1 < N:
                choices += ["%s - 1" % v.name]
            if choices:
                return r.choice(choices)
        return str(r.randint(0, N - 1))

    def leaf(self, scope):
        r = self.r
        if self.pointers and r.random() < 0.3:
            return self.pleaf(scope)
        if self.calls and self.cnest < 2 and r.random() < 0.15:
            return self.cleaf(scope)
        if self.cxx and self.xready and self.cnest < 2 and r.random() < 0.15:
            return self.xleaf(scope)
        k = r.random()
        if k < 0.55:
            return "%s[%s]" % (r.choice(self.arrays()), self.index(scope))
        if k < 0.65 and self.has_s:
            return "s"
        if k < 0.75:
            return "acc%d" % r.randrange(self.naccs)
        if k < 0.82 and self.nrecs:
            return "r%d" % r.randrange(self.nrecs)
        if k < 0.9 and scope:
            # an integer counter converted to double: inactive, but exercises
            # sitofp of loop counters in the reverse pass
            return "(0.1 * %s)" % r.choice(scope).name
        return self.c(-1.5, 1.5)

    def expr(self, scope, depth=2, leaf=None):
        """A smooth expression; |value| stays moderate (leaves are ~[-2,2]).
        leaf: the leaf generator (default self.leaf; helper bodies pass one
        that draws their parameters)."""
        r = self.r
        if depth == 0 or r.random() < 0.25:
            return (leaf or self.leaf)(scope)
        k = r.random()
        a = self.expr(scope, depth - 1, leaf)
        if k < 0.2:
            return "(%s + %s)" % (a, self.expr(scope, depth - 1, leaf))
        if k < 0.3:
            return "(%s - %s)" % (a, self.expr(scope, depth - 1, leaf))
        if k < 0.5:
            return "(%s * %s)" % (a, self.expr(scope, depth - 1, leaf))
        if k < 0.55:
            return "(%s * %s)" % (self.c(-2, 2), a)
        fn = r.choice(["sin", "cos", "tanh", "exp_t", "exp_s", "log1", "sqrt1",
                       "pow", "rat", "sq"])
        if fn in ("sin", "cos", "tanh"):
            return "%s(%s)" % (fn, a)
        if fn == "exp_t":
            return "exp(tanh(%s))" % a
        if fn == "exp_s":
            return "exp(%s * sin(%s))" % (self.c(0.1, 0.9), a)
        if fn == "log1":
            return "log(1.0 + %s * %s)" % (a, a)
        if fn == "sqrt1":
            return "sqrt(1.0 + %s * %s)" % (a, a)
        if fn == "pow":
            return "pow(1.5 + sin(%s), %s)" % (a, self.c(0.5, 2.5, 2))
        if fn == "rat":
            return "(%s / (1.0 + %s * %s))" % (a, a, a)
        return "(%s * %s)" % (a, a)

    def squash(self, e):
        """A function with values in [-1, 1]."""
        f = self.r.choice(["sin(%s)", "cos(%s)", "tanh(%s)",
                           "(2.0 * (%s) / (1.0 + (%s) * (%s)))"])
        return f.replace("%s", e) if f.count("%s") > 1 else f % e

    def cond_data(self, scope):
        """A comparison of data with a constant (flips are detected by the
        FD stability check in main and reported as inconclusive)."""
        r = self.r
        lhs = r.choice([
            "%s[%s]" % (r.choice(self.arrays()), self.index(scope)),
            "acc%d" % r.randrange(self.naccs),
        ] + (["s"] if self.has_s else []))
        if self.pointers and r.random() < 0.3:
            lhs = self.pleaf(scope)
        op = r.choice(["<", ">", "<=", ">="])
        return "%s %s %s" % (lhs, op, self.c(-0.8, 0.8, 2))

    def cond_int(self, scope):
        r = self.r
        v = r.choice(scope)
        k = r.random()
        if k < 0.4:
            return "%s %% %d == %d" % (v.name, 2 + (r.random() < 0.5), 0 if r.random() < 0.5 else 1)
        if k < 0.7:
            return "%s %s %d" % (v.name, r.choice(["<", ">", "<=", ">="]), r.randint(v.lo, max(v.lo, v.hi)))
        if len(scope) > 1:
            w = r.choice(scope)
            if w is not v:
                return "%s %s %s" % (v.name, r.choice(["<", ">", "=="]), w.name)
        return "%s != %d" % (v.name, r.randint(v.lo, max(v.lo, v.hi)))

    # ------------------------------------------------------------- statements
    def stmt(self, scope, depth, iters, in_loop, cont_ok, ind):
        """Emit one statement. iters: upper bound on how many times it runs."""
        r = self.r
        self.budget -= 1
        sp = "  " * ind
        if self.pointers and r.random() < 0.2:
            return [sp + l for l in self.pstmt(scope, iters)]
        if self.calls and r.random() < 0.2:
            return [sp + l for l in self.cstmt(scope, depth, iters)]
        if self.cxx and self.xready and r.random() < 0.15:
            return [sp + l for l in self.xstmt(scope, iters)]
        k = r.random()
        if self.loops and depth < self.max_depth and k < 0.3 and self.budget > 0:
            return self.loop(scope, depth, iters, ind)
        if k < 0.42 and self.budget > 0:
            # if / else
            cond = self.cond_int(scope) if (scope and r.random() < 0.4) else self.cond_data(scope)
            out = [sp + "if (%s) {" % cond]
            out += self.block(scope, depth, iters, in_loop, cont_ok, ind + 1, r.randint(1, 2))
            if r.random() < 0.6:
                out.append(sp + "} else {")
                out += self.block(scope, depth, iters, in_loop, cont_ok, ind + 1, r.randint(1, 2))
            out.append(sp + "}")
            return out
        if in_loop and k < 0.47:
            cond = self.cond_data(scope) if r.random() < 0.6 else self.cond_int(scope)
            return [sp + "if (%s) break;" % cond]
        if in_loop and cont_ok and k < 0.52:
            cond = self.cond_int(scope) if r.random() < 0.6 else self.cond_data(scope)
            return [sp + "if (%s) continue;" % cond]
        return [sp + self.simple(scope, iters)]

    def simple(self, scope, iters):
        r = self.r
        step = "%.6g" % (r.uniform(0.2, 1.0) / iters)  # keeps sums bounded
        k = r.random()
        e = self.expr(scope)
        if k < 0.2:
            return "acc%d += %s * %s;" % (r.randrange(self.naccs), step, self.squash(e))
        if k < 0.3:
            # ternary
            return "acc%d += %s * (%s ? %s : %s);" % (
                r.randrange(self.naccs), step, self.cond_data(scope),
                self.squash(e), self.squash(self.expr(scope)))
        if k < 0.45 and self.nrecs:
            # loop-carried (nonlinear) recurrence, stays in [-1, 1]
            rr = "r%d" % r.randrange(self.nrecs)
            a = self.c(0.3, 0.9, 2)
            if r.random() < 0.5:
                return "%s = %s * %s + %.2f * %s;" % (rr, a, rr, 1 - float(a), self.squash(e))
            return "%s = tanh(%s * %s * %s + %s);" % (rr, a, rr, self.leaf(scope), self.squash(e))
        arr = r.choice(self.arrays())
        idx = self.index(scope)
        if k < 0.75:
            # in-place: x[i] = a*x[i] + (1-a)*g(... x[i] ...)
            a = self.c(0.2, 0.8, 2)
            e2 = "(%s + %s)" % (e, "%s[%s]" % (arr, idx)) if r.random() < 0.6 else e
            return "%s[%s] = %s * %s[%s] + %.2f * %s;" % (
                arr, idx, a, arr, idx, 1 - float(a), self.squash(e2))
        if k < 0.9:
            return "%s[%s] += %s * %s;" % (arr, idx, step, self.squash(e))
        # product update (nonlinear in the old value)
        return "%s[%s] *= (1.0 + %s * %s);" % (arr, idx, "%.6g" % (0.5 / iters), self.squash(e))

    def block(self, scope, depth, iters, in_loop, cont_ok, ind, count):
        out = []
        for _ in range(count):
            out += self.stmt(scope, depth, iters, in_loop, cont_ok, ind)
        return out

    def loop(self, scope, depth, iters, ind):
        r = self.r
        self.nloops += 1
        sp = "  " * ind
        name = "i%d" % self.nvar
        self.nvar += 1
        kind = r.random()
        outer = [v for v in scope if v.lo >= 0 and v.hi < N]
        cont_ok = True
        pre, post_inc = [], []
        if kind < 0.2:
            b = r.randint(1, N)
            head = "for (int %s = 0; %s < %d; %s++)" % (name, name, b, name)
            v, cnt = Var(name, 0, b - 1), b
        elif kind < 0.4:
            head = "for (int %s = 0; %s < n; %s++)" % (name, name, name)
            v, cnt = Var(name, 0, N - 1), N
        elif kind < 0.5:
            head = "for (int %s = n - 1; %s >= 0; %s--)" % (name, name, name)
            v, cnt = Var(name, 0, N - 1), N
        elif kind < 0.58:
            st = r.choice([2, 3])
            head = "for (int %s = %d; %s < n - 1; %s += %d)" % (name, r.randint(0, 1), name, name, st)
            v, cnt = Var(name, 0, N - 2), N
        elif kind < 0.78 and outer:
            o = r.choice(outer)
            t = r.random()
            if t < 0.45:
                head = "for (int %s = 0; %s < %s; %s++)" % (name, name, o.name, name)
                v = Var(name, 0, max(0, o.hi - 1))
            elif t < 0.75:
                head = "for (int %s = 0; %s <= %s; %s++)" % (name, name, o.name, name)
                v = Var(name, 0, o.hi)
            else:
                head = "for (int %s = %s; %s < n; %s++)" % (name, o.name, name, name)
                v = Var(name, 0, N - 1)
            cnt = N
        else:
            # while loop with a data-independent count; the counter update
            # comes first so that `continue` cannot skip it.
            t = r.random()
            if t < 0.6:
                b = r.choice(["n", str(r.randint(1, N))])
                pre = [sp + "int %s = 0;" % name]
                head = "while (%s < %s)" % (name, b)
                post_inc = ["%s++;" % name]
                v = Var(name, 1, N)
            else:
                pre = [sp + "int %s = n;" % name]
                head = "while (%s > 1)" % name
                post_inc = ["%s /= 2;" % name]
                v = Var(name, 0, N // 2)
            cnt = N
        body_scope = scope + [v]
        inner_iters = iters * cnt
        nb = r.randint(1, 3)
        body = ["  " * (ind + 1) + s for s in post_inc]
        body += self.block(body_scope, depth + 1, inner_iters, True, cont_ok, ind + 1, nb)
        return pre + [sp + head + " {"] + body + [sp + "}"]

    # ------------------------------------------------------------ --pointers
    # With --pointers, f also takes `const double *c` (enzyme_const) and reads
    # memory through pointers: row-pointer arrays (stack or heap) into x, y,
    # c, local and heap arrays; arrays of `struct S { const double *p;
    # double w; int k; }` and their copies (assignment, memcpy); a struct
    # parameter `const struct S *sp` (enzyme_dup, shadow struct with shadow
    # pointer); by-value `struct P2 { double a, b; }`; malloc/calloc buffers;
    # pointer selects and phis mixing active and inactive memory; optionally
    # an output array `double *out` passed enzyme_dupnoneed. Every pointer
    # view has a width w: it always points at >= w valid doubles and is read
    # with indices in [0, w).
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
                out.append("  memcpy(%s, %s, %d * sizeof *%s);" % (cname, name, m, cname))
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
                out.append("  struct S %s = %s[%d];" % (sname, name, r.randrange(m)))
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
        step = "%.6g" % (r.uniform(0.2, 1.0) / iters)
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
        sig = "%s f(double *x, double *y, const double *c, int n" % (
            "void" if self.out_mode == "out" else "double")
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

    def phead(self):
        """The head of a --pointers program: struct S, struct P2, p2rot."""
        flags = " --pointers" + ("" if self.loops else " --no-loops")
        if self.max_depth_arg != 3:
            flags += " --max-depth %d" % self.max_depth_arg
        flags += self.newflags()
        return """\
/* Generated by tools/fuzz/gen.py --seed %(seed)d%(flags)s. Reproduce with
 *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm
 */
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N %(N)d

struct S { const double *p; double w; int k; }; /* p: >= w valid doubles */
struct P2 { double a, b; };                      /* copied by value */

static struct P2 p2rot(struct P2 v, double t) { /* a rotation: keeps |v| */
  struct P2 r = { cos(t) * v.a - sin(t) * v.b, sin(t) * v.a + cos(t) * v.b };
  return r;
}

""" % {"seed": self.seed, "flags": flags, "N": N}

    def pprogram(self, fn):
        head = self.phead()
        NX = self.a_nb if self.alias else 2 * N  # the x and y entries of v
        IS = NX if self.has_s else None
        IW = NX + self.has_s if self.sparam else None
        nv = NX + self.has_s + self.sparam
        # the call arguments, for the eval copy and for main
        ev_args = ["x", "y", "c", "n"] + (["v[%d]" % IS] if self.has_s else [])
        ad_args = ["enzyme_dup, x, dx", "enzyme_dup, y, dy", "enzyme_const, c",
                   "enzyme_const, n"] + ["enzyme_out, s0"] * self.has_s
        pr_args = ["x", "y", "c", "n"] + ["s0"] * self.has_s
        ev_setup, main_setup = [], []
        if self.sparam:
            base = self.sp_base
            ev_setup.append("struct S ps = { %s + %d, v[%d], %d };" % (base, self.sp_off, IW, self.sp_k))
            dbase = {"x": "dx", "y": "dy", "c": "dcs"}[base]
            if base == "c":
                main_setup.append("double dcs[N]; /* shadow of c as seen through sp->p: scratch */")
                main_setup.append("memset(dcs, 0, sizeof dcs);")
            main_setup.append("struct S ps = { %s + %d, v0[%d], %d };" % (base, self.sp_off, IW, self.sp_k))
            main_setup.append("struct S dps = { %s + %d, 0.0, %d }; /* shadow: shadow pointer, w's adjoint, k copied */"
                              % (dbase, self.sp_off, self.sp_k))
            ev_args.append("&ps")
            ad_args.append("enzyme_dup, &ps, &dps")
            pr_args.append("&ps")
        if self.nout:
            ev_setup.append("double o[NOUT];")
            main_setup.append("double o[NOUT], dout[NOUT];")
            main_setup.append("memset(o, 0, sizeof o);")
            main_setup.append("memcpy(dout, out_seed, sizeof dout); /* the adjoint seeds */")
            ev_args.append("o")
            ad_args.append("enzyme_dupnoneed, o, dout")
            pr_args.append("o")
        fcall = "f(%s)" % ", ".join(ev_args)
        if self.out_mode == "out":
            ev_call = ["%s;" % fcall, "double r = 0.0;"]
        else:
            ev_call = ["double r = %s; /* seeded with 1 */" % fcall]
        ev_ret = "r" + "".join(" + out_seed[%d] * o[%d]" % (i, i) for i in range(self.nout))
        if self.primal_only:
            call = "%s(%s); /* --primal-only: __enzyme_autodiff removed */" % (
                "(void)f" if self.out_mode != "out" else "f", ", ".join(pr_args))
        else:
            call = ("ds = " if self.has_s else "") + "__enzyme_autodiff((void *)f"
            lines, cur = [], call
            for a in ad_args:
                if len(cur) + len(a) + 2 > 78:
                    lines.append(cur + ",")
                    cur = "                  " + a
                else:
                    cur += ", " + a
            call = "\n  ".join(lines + [cur + ");"])
        ad_extra = ""
        if self.has_s:
            ad_extra += "  ad[%d] = ds;\n" % IS
        if self.sparam:
            ad_extra += "  ad[%d] = dps.w;\n" % IW
        names = ""
        if self.has_s:
            names += "  else if (k == %d) snprintf(nm, len, \"ds\");\n" % IS
        if self.sparam:
            names += "  else if (k == %d) snprintf(nm, len, \"dsp.w\");\n" % IW
        main = """
static unsigned long long lt_state = %(seed)dULL * 2654435761ULL + 12345ULL;
static double rnd(void) { /* deterministic, in [-1, 1] */
  lt_state = lt_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lt_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static volatile int n_runtime = N; /* keeps n opaque to the optimiser */

/* The active scalar inputs, packed: v[0..N) = x, v[N..2N) = y%(vdesc)s. */
#define NV %(nv)d
#define NOUT %(nout1)d
static const double out_seed[NOUT] = { %(seeds)s }; /* adjoint seeds of out[] */

/* The scalar whose adjoint main seeds (and that fd differentiates):
   %(what)s.
   Evaluated on copies: f may overwrite x and y in place. */
static double eval(const double *v, const double *c, int n) {
  double x[N], y[N];
  memcpy(x, v, sizeof x);
  memcpy(y, v + N, sizeof y);
%(ev_setup)s%(ev_call)s
  (void)out_seed;
  return %(ev_ret)s;
}

/* central difference of eval in coordinate k with step h */
static double fd(const double *v0, const double *c, int n, int k, double h) {
  double vp[NV], vm[NV];
  memcpy(vp, v0, sizeof vp);
  memcpy(vm, v0, sizeof vm);
  vp[k] += h;
  vm[k] -= h;
  return (eval(vp, c, n) - eval(vm, c, n)) / (2.0 * h);
}

static void coord_name(char *nm, size_t len, int k) {
  if (k < N) snprintf(nm, len, "dx[%%d]", k);
  else if (k < 2 * N) snprintf(nm, len, "dy[%%d]", k - N);
%(names)s}

int main(void) {
  double v0[NV], c0[N], s0 = 0.0;
  for (int i = 0; i < N; i++) v0[i] = rnd();
  for (int i = 0; i < N; i++) v0[N + i] = rnd();
  s0 = rnd();
  for (int i = 0; i < N; i++) c0[i] = rnd();
  for (int i = 2 * N; i < NV; i++) v0[i] = rnd();
%(set_s)s  (void)s0;
  int n = n_runtime;

  double x[N], y[N], c[N], dx[N], dy[N];
  memcpy(x, v0, sizeof x);
  memcpy(y, v0 + N, sizeof y);
  memcpy(c, c0, sizeof c);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  double ds = 0.0;
%(main_setup)s  %(call)s
  (void)ds;
  int bad = 0, unstable = 0;
  if (memcmp(c, c0, sizeof c)) {
    printf("MISMATCH c: the enzyme_const input was modified\\n");
    bad++;
  }

  double fval = eval(v0, c0, n);
  double ad[NV], fd1[NV], fd2[NV], hk[NV];
  for (int k = 0; k < N; k++) {
    ad[k] = dx[k];
    ad[N + k] = dy[k];
  }
%(ad_extra)s  double gmax = 0.0;
  for (int k = 0; k < NV; k++) {
    double h = 1e-6 * (fabs(v0[k]) > 1.0 ? fabs(v0[k]) : 1.0);
    hk[k] = h;
    fd1[k] = fd(v0, c0, n, k, h);
    fd2[k] = fd(v0, c0, n, k, 2.0 * h);
    if (fabs(fd1[k]) > gmax) gmax = fabs(fd1[k]);
  }
  double floor_ = 1e-8 * gmax + 1e-9 * (fabs(fval) > 1.0 ? fabs(fval) : 1.0);
  for (int k = 0; k < NV; k++) {
    char nm[16];
    coord_name(nm, sizeof nm, k);
    double scale = fabs(fd1[k]) > fabs(ad[k]) ? fabs(fd1[k]) : fabs(ad[k]);
    if (fabs(fd1[k] - fd2[k]) > 1e-6 * fabs(fd1[k]) + 10.0 * floor_) {
      printf("unstable FD %%s: fd(h)=%%.12g fd(2h)=%%.12g ad=%%.12g\\n", nm,
             fd1[k], fd2[k], ad[k]);
      unstable++;
      continue;
    }
    if (!(fabs(ad[k] - fd1[k]) <= 1e-5 * scale + floor_)) {
      /* a second opinion less sensitive to rounding noise in f (which the
         step h amplifies by 1/h): Richardson's extrapolation from the
         steps H = 1e3 h and H/2 (error O(H^4)) */
      double H = 1e3 * hk[k];
      double r = (4.0 * fd(v0, c0, n, k, 0.5 * H) - fd(v0, c0, n, k, H)) / 3.0;
      if (fabs(ad[k] - r) <= 1e-5 * scale + floor_) {
        printf("noisy FD %%s: fd(h)=%%.12g richardson(1e3 h)=%%.12g ad=%%.12g\\n",
               nm, fd1[k], r, ad[k]);
        continue;
      }
      printf("MISMATCH %%s: ad=%%.12g fd=%%.12g (abs err %%.3g) richardson(1e3 h)=%%.12g\\n",
             nm, ad[k], fd1[k], fabs(ad[k] - fd1[k]), r);
      bad++;
    }
  }
  printf("f=%%.12g gmax=%%.6g checked=%%d mismatches=%%d unstable=%%d\\n", fval,
         gmax, NV, bad, unstable);
  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
"""
        what = []
        if self.out_mode != "out":
            what.append("f's return value (seed 1)")
        if self.nout:
            what.append("sum of out_seed[i] * out[i] (out: enzyme_dupnoneed)")
        ind = lambda ls: "".join("  " + l + "\n" for l in ls)
        main = main % {
            "seed": self.seed, "nv": nv, "nout1": max(1, self.nout),
            "seeds": ", ".join(self.out_seeds[:self.nout]) if self.nout else "0.0",
            "vdesc": (", v[%d] = s" % IS if self.has_s else "")
                     + (", v[%d] = sp->w" % IW if self.sparam else ""),
            "what": " plus ".join(what),
            "ev_setup": ind(ev_setup), "ev_call": ind(ev_call).rstrip("\n"),
            "ev_ret": ev_ret, "names": names, "ad_extra": ad_extra,
            "set_s": "  v0[%d] = s0;\n" % IS if self.has_s else "",
            "main_setup": ind(main_setup), "call": call}
        if self.alias:
            main = self.alias_pmain(main)
        return head + "\n".join(fn) + "\n" + main

    def alias_pmain(self, main):
        """main, eval and fd of a --pointers program under --alias: v[0..NB)
        is the buffer of x and y, the rest as without --alias."""
        def sub(a, b):
            assert main.count(a) == 1, a
            return main.replace(a, b)
        main = sub("/* The active scalar inputs, packed: v[0..N) = x, v[N..2N) = y",
                   self.alias_defs().lstrip("\n") + "\n"
                   "/* The active scalar inputs, packed: v[0..NB) = the buffer of x and y")
        main = sub("""\
  double x[N], y[N];
  memcpy(x, v, sizeof x);
  memcpy(y, v + N, sizeof y);
""", """\
  double b[NB]; /* a copy of the whole buffer, viewed as in main */
  memcpy(b, v, sizeof b);
  double *x = b + XA, *y = b + YA;
""")
        main = sub("""\
  if (k < N) snprintf(nm, len, "dx[%d]", k);
  else if (k < 2 * N) snprintf(nm, len, "dy[%d]", k - N);
""", self.ALIAS_NAME)
        main = sub("""\
  for (int i = 0; i < N; i++) v0[i] = rnd();
  for (int i = 0; i < N; i++) v0[N + i] = rnd();
""", """\
  for (int i = 0; i < NB; i++) v0[i] = rnd();
""")
        main = sub("for (int i = 2 * N; i < NV; i++)", "for (int i = NB; i < NV; i++)")
        main = sub("""\
  double x[N], y[N], c[N], dx[N], dy[N];
  memcpy(x, v0, sizeof x);
  memcpy(y, v0 + N, sizeof y);
  memcpy(c, c0, sizeof c);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
""", """\
  double buf[NB], dbuf[NB], c[N];
  memcpy(buf, v0, sizeof buf);
  memcpy(c, c0, sizeof c);
  memset(dbuf, 0, sizeof dbuf);
  double *x = buf + XA, *y = buf + YA;     /* the aliasing views */
  double *dx = dbuf + XA, *dy = dbuf + YA; /* their shadows: the same layout */
""")
        main = sub("""\
  for (int k = 0; k < N; k++) {
    ad[k] = dx[k];
    ad[N + k] = dy[k];
  }
""", """\
  for (int k = 0; k < NB; k++)
    ad[k] = dbuf[k];
""")
        main = sub("    char nm[16];", "    char nm[40];")
        return main

    # --------------------------------------------------------------- --calls
    # With --calls (every extra draw behind the flag), f calls generated
    # helpers, emitted before f: small scalar helpers (inlined), direct
    # recursion with a depth parameter (linear, tree, with an extra active
    # parameter), mutual recursion, a recursion over halves of an array, a
    # recursion that writes an output array and reads it back, helpers
    # returning a pointer into an array argument (read and written through;
    # one of them recursive), a struct-reading recursion (--pointers), and
    # sometimes a helper with a registered custom gradient (Enzyme's ABI,
    # the true derivative). Helpers are randomly static and/or noinline;
    # helpers are called in loops, with counters in the depth and offsets.
    # Every helper returns a value in [-1, 1]; depth <= 4.
    def hinit(self):
        """State shared by --calls and --cxx (no random draws)."""
        self.hk = {}        # helper kind -> list of helper dicts
        self.hdefs = []     # helper definitions (lists of lines), in order
        self.cnest = 0      # nesting of helper calls in call arguments
        self.ncalls = 0
        self.cloop_done = False
        self.vecs = []      # --cxx: std::vector<double> locals of f
        self.xready = False

    def cinit(self):
        r = self.r
        self.budget += r.randint(2, 5)
        self.custom_ok = r.random() < 0.35

    def newflags(self):
        return ((" --calls" if self.calls else "") + (" --cxx" if self.cxx else "")
                + (" --alias" if self.alias else "") + (" --fwd" if self.fwd else ""))

    def hexpr(self, params, depth=2, need=None):
        """A smooth expression over a helper's parameters that uses every
        parameter in need (redrawn a few times, then added)."""
        r = self.r

        def lf(_):
            return r.choice(params) if r.random() < 0.85 else self.c(-1.5, 1.5)

        def uses(e, p):
            return re.search(r"(?<![\w.>])%s(?![\w\[])" % re.escape(p), e) is not None
        for _ in range(6):
            e = self.expr(None, depth, leaf=lf)
            miss = [p for p in (need or []) if not uses(e, p)]
            if not miss:
                return e
        return "(%s)" % " + ".join([e] + ["%s * %s" % (self.c(0.3, 1.0, 2), p) for p in miss])

    def hattr(self):
        r = self.r
        ni = r.random() < 0.3
        st = r.random() < 0.7
        return ("__attribute__((noinline)) " if ni else "") + ("static " if st else "")

    def combine(self, u, lv):
        """A value in [-1, 1] from u in [-1, 1] and the parameters lv."""
        r = self.r
        t = r.random()
        if t < 0.45:
            a = self.c(0.3, 0.8, 2)
            return "%s * %s + %.2f * %s" % (a, u, 1 - float(a), self.squash(self.hexpr(lv + [u])))
        if t < 0.75:
            return "tanh(%s * %s + %s)" % (self.c(0.5, 1.5, 2), u, self.hexpr(lv, 1))
        return "%s * %s" % (u, self.squash(self.hexpr(lv)))

    def helper(self, kind):
        """A helper of this kind: an existing one (shared callee) or a new one."""
        lst = self.hk.setdefault(kind, [])
        if lst and (len(lst) >= 2 or self.r.random() < 0.6):
            return self.r.choice(lst)
        pre = {"small": "hs", "rec": "hr", "mut": "hm", "halves": "hh",
               "write": "hw", "pick": "pk", "custom": "cg", "sread": "hst",
               "tmpl": "ht", "pair": "hp"}[kind]
        h = getattr(self, "mk_" + kind)("%s%d" % (pre, len(lst)))
        lst.append(h)
        self.hdefs.append(h["lines"])
        return h

    def mk_small(self, name):
        r = self.r
        params = ["a", "b"][:r.randint(1, 2)]
        L = ["%sdouble %s(%s) {" % (self.hattr(), name, ", ".join("double " + p for p in params)),
             "  double t = %s;" % self.hexpr(params, need=params)]
        if r.random() < 0.3:  # a data branch inside the helper
            L.append("  if (t > %s) t = 0.5 * t + %s;" % (self.c(-0.5, 0.5, 2), self.c(-0.5, 0.5, 2)))
        L += ["  return %s;" % self.squash("t"), "}"]
        return {"name": name, "np": len(params), "lines": L}

    def mk_rec(self, name):
        """h(v, d) = d <= 0 ? g(v) : combine(h(v', d - 1), v)."""
        r = self.r
        shape = r.choice(["lin", "lin", "tree", "w"])
        lv = ["v", "w"] if shape == "w" else ["v"]
        ps = "double v, double w, int d" if shape == "w" else "double v, int d"
        ra = (lambda e: "%s, w, d - 1" % e) if shape == "w" else (lambda e: "%s, d - 1" % e)
        L = ["%sdouble %s(%s) {" % (self.hattr(), name, ps),
             "  if (d <= 0)",
             "    return %s;" % self.squash(self.hexpr(lv, need=lv)),
             "  double u = %s(%s);" % (name, ra(self.squash(self.hexpr(lv, need=["v"]))))]
        if shape == "tree":
            L.append("  double u2 = %s(%s);" % (name, ra(self.squash(self.hexpr(lv, need=["v"])))))
            a, b = self.c(0.2, 0.45, 2), self.c(0.2, 0.45, 2)
            L.append("  return %s * u + %s * u2 + %.2f * %s;" % (
                a, b, 1 - float(a) - float(b), self.squash(self.hexpr(lv + ["u"]))))
        else:
            L.append("  return %s;" % self.combine("u", lv))
        L.append("}")
        return {"name": name, "w": shape == "w", "lines": L}

    def mk_mut(self, name):
        r = self.r
        attr = self.hattr()
        a, b = name + "a", name + "b"
        L = ["%sdouble %s(double v, int d);" % (attr, b)]
        for me, other in ((a, b), (b, a)):
            L += ["%sdouble %s(double v, int d) {" % (attr, me),
                  "  if (d <= 0)",
                  "    return %s;" % self.squash(self.hexpr(["v"], need=["v"])),
                  "  double u = %s(%s, %s);" % (other, self.squash(self.hexpr(["v"], need=["v"])),
                                                r.choice(["d - 1", "d - 1", "d - 2"])),
                  "  return %s;" % self.combine("u", ["v"]), "}"]
        return {"name": name, "names": [a, b], "lines": L}

    def mk_halves(self, name):
        """A recursion over halves of a[0..m) (depth <= 3 for m <= 8)."""
        r = self.r
        L = ["%sdouble %s(const double *a, int m) {" % (self.hattr(), name),
             "  if (m <= 1)",
             "    return %s;" % self.squash(self.hexpr(["a[0]"], need=["a[0]"])),
             "  int k = m / 2;",
             "  double l = %s(a, k);" % name,
             "  double r = %s(a + k, m - k);" % name]
        t = r.random()
        a, b = self.c(0.3, 0.7, 2), self.c(0.2, 0.4, 2)
        if t < 0.4:
            L.append("  return %s * l + %.2f * r;" % (a, 1 - float(a)))
        elif t < 0.7:
            L.append("  return tanh(%s * l * r + %s * a[m - 1]);" % (self.c(0.5, 1.5, 2), self.c(-1, 1, 2)))
        else:
            a = self.c(0.2, 0.4, 2)
            L.append("  return %s * l + %s * r + %.2f * %s;" % (
                a, b, 1 - float(a) - float(b), self.squash(self.hexpr(["a[0]", "a[m - 1]", "l"]))))
        L.append("}")
        return {"name": name, "lines": L}

    def mk_write(self, name):
        """Writes o[0..d] from a[0..d] recursively and reads o back."""
        r = self.r
        L = ["%sdouble %s(double *o, const double *a, int d) {" % (self.hattr(), name),
             "  if (d <= 0) {",
             "    o[0] = %s;" % self.squash(self.hexpr(["a[0]"], need=["a[0]"])),
             "    return o[0];",
             "  }"]
        a, b = self.c(0.3, 0.7, 2), self.c(0.3, 0.7, 2)
        if r.random() < 0.5:  # recurse, then write o[0] from what it wrote
            L += ["  double t = %s(o + 1, a + 1, d - 1);" % name,
                  "  o[0] = %s * o[1] + %.2f * %s;" % (a, 1 - float(a), self.squash(self.hexpr(["a[0]", "t"], need=["t"]))),
                  "  return %s * o[0] + %.2f * o[1];" % (b, 1 - float(b))]
        else:  # write o[0], recurse, read both back
            L += ["  o[0] = %s;" % self.squash(self.hexpr(["a[0]", "a[1]"], need=["a[0]"])),
                  "  double t = %s(o + 1, a + 1, d - 1);" % name,
                  "  return %s * t + %.2f * o[0] * o[1];" % (a, 1 - float(a))]
        L.append("}")
        return {"name": name, "lines": L}

    def mk_pick(self, name):
        """double *pick(double *a, int k): a + (k mod M) (k >= 0); the result
        points at >= w valid doubles when a points at >= M - 1 + w."""
        r = self.r
        w = r.randint(1, 3)
        M = r.randint(2, N - w + 1)
        shape = r.choice(["mod", "mirror", "rec", "two"])
        attr = self.hattr()
        if shape == "two":
            L = ["%sdouble *%s(double *a, double *b, int k) {" % (attr, name),
                 "  return k %% 2 == 0 ? a + k %% %d : b + (k / 2) %% %d;" % (M, M)]
        elif shape == "mod":
            L = ["%sdouble *%s(double *a, int k) {" % (attr, name), "  return a + k %% %d;" % M]
        elif shape == "mirror":
            L = ["%sdouble *%s(double *a, int k) {" % (attr, name),
                 "  return k %% 2 == 0 ? a + k %% %d : a + (%d - k %% %d);" % (M, M - 1, M)]
        else:
            L = ["%sdouble *%s(double *a, int k) {" % (attr, name),
                 "  if (k < %d)" % M, "    return a + k;",
                 "  return %s(a, k - %d);" % (name, M)]
        L.append("}")
        return {"name": name, "w": w, "minw": M - 1 + w, "two": shape == "two", "lines": L}

    def mk_custom(self, name):
        """A scalar helper with a registered (correct) custom gradient."""
        r = self.r
        A, B = self.c(0.5, 1.5, 2), self.c(-0.5, 0.5, 2)
        t = r.randrange(5)
        if t == 0:
            body = "%s * sin(%s * v)" % (B, A)
            gr = ["  return dret * %s * %s * cos(%s * v);" % (B, A, A)]
        elif t == 1:
            body = "tanh(%s * v + %s)" % (A, B)
            gr = ["  double t = tanh(%s * v + %s);" % (A, B), "  return dret * %s * (1.0 - t * t);" % A]
        elif t == 2:
            body = "v / (1.0 + v * v)"
            gr = ["  return dret * (1.0 - v * v) / ((1.0 + v * v) * (1.0 + v * v));"]
        elif t == 3:
            body = "exp(%s * sin(v))" % A
            gr = ["  return dret * %s * cos(v) * exp(%s * sin(v));" % (A, A)]
        else:
            body = "sqrt(1.0 + v * v) - 1.0"
            gr = ["  return dret * v / sqrt(1.0 + v * v);"]
        L = ["double %s(double v) { return %s; }" % (name, body),
             "double %s_aug(double v) { return %s(v); }" % (name, name),
             "double %s_grad(double v, double dret) { /* the true derivative */" % name]
        L += gr + ["}",
                   "void *__enzyme_register_gradient_%s[3] = {(void *)%s, (void *)%s_aug," % (name, name, name),
                   "                                          (void *)%s_grad};" % name]
        return {"name": name, "lines": L}

    def mk_sread(self, name):
        """A recursion reading a struct S through its pointer (--pointers)."""
        r = self.r
        W = r.randint(2, max(v["w"] for v in self.structs))
        L = ["%sdouble %s(const struct S *s, int d) {" % (self.hattr(), name),
             "  double e = s->p[(s->k + d) %% %d];" % W,
             "  if (d <= 0)",
             "    return %s;" % self.squash(self.hexpr(["e", "s->w"], need=["e"])),
             "  double u = %s(s, d - 1);" % name,
             "  return %s;" % self.combine("u", ["e", "s->w"]), "}"]
        return {"name": name, "W": W, "lines": L}

    def helper_lines(self):
        out = []
        for L in self.hdefs:
            out += L + [""]
        if self.fwd and self.calls and self.hk.get("custom"):
            out += self.fcustom()
        if self.primal_only and self.calls and self.hk.get("custom"):
            out += ["/* --primal-only: the registered gradients agree with central differences */",
                    "static int lt_check_custom(void) {",
                    "  static const double pts[3] = { -1.3, 0.2, 0.9 };",
                    "  int bad = 0;",
                    "  for (int i = 0; i < 3; i++) {",
                    "    double v = pts[i], h = 1e-6, g, fdv;"]
            for h in self.hk["custom"]:
                out += ["    g = %s_grad(v, 1.0);" % h["name"],
                        "    fdv = (%s(v + h) - %s(v - h)) / (2.0 * h);" % (h["name"], h["name"]),
                        "    if (fabs(g - fdv) > 1e-6 * (1.0 + fabs(g))) {",
                        "      printf(\"custom gradient %s wrong at %%g: %%g vs %%g\\n\", v, g, fdv);" % h["name"],
                        "      bad++;", "    }"]
                if self.fwd and h.get("fwdreg"):
                    out += ["    g = %s;" % (("%s_fwd(v, 1.0).t" if h["fwdreg"] == "pair"
                                             else "%s_fwd(v, 1.0)") % h["name"]),
                            "    if (fabs(g - fdv) > 1e-6 * (1.0 + fabs(g))) {",
                            "      printf(\"forward derivative %s wrong at %%g: %%g vs %%g\\n\", v, g, fdv);" % h["name"],
                            "      bad++;", "    }"]
            out += ["  }", "  return bad;", "}", ""]
        return out

    def cdepth(self, scope, maxd=4):
        """(expr, max value) of a recursion depth in [0, maxd]."""
        r = self.r
        cands = [v for v in scope if v.lo >= 0]
        t = r.random()
        if cands and t < 0.45:
            v = r.choice(cands)
            m = r.randint(1, maxd)
            if v.hi <= m and r.random() < 0.5:
                return v.name, v.hi
            return "%s %% %d" % (v.name, m + 1), m
        d = r.randint(0, maxd)
        if t < 0.75:
            return "n - %d" % (N - d), d
        return str(d), d

    def cview(self, scope, minw, writable):
        """(pointer expression, width): points at >= width >= minw doubles."""
        r = self.r
        opts = [("arr", a) for a in self.arrays()]
        if self.pointers:
            opts += [("ptr", p) for p in self.ptrs if p[1] >= minw and (p[2] or not writable)]
            if not writable:
                opts += [("arr", "c")]
                opts += [("row", x) for x in self.rows if x[2] >= minw]
                opts += [("st", v) for v in self.structs if v["w"] >= minw]
        kind, o = r.choice(opts)
        if kind == "arr":
            base = o + ".data()" if o in self.vecs else o
            cands = [v for v in scope if v.lo >= 0 and v.hi <= N - minw]
            if cands and r.random() < 0.35:
                v = r.choice(cands)
                return "%s + %s" % (base, v.name), N - v.hi
            off = r.randint(0, N - minw)
            return (base if off == 0 else "%s + %d" % (base, off)), N - off
        if kind == "ptr":
            name, w, _ = o
            off = r.randint(0, w - minw)
            return (name if off == 0 else "%s + %d" % (name, off)), w - off
        if kind == "row":
            name, m, w = o
            return "%s[%s]" % (name, self.index_w(scope, m)), w
        return o["ref"](scope) + "p", o["w"]

    def pickcall(self, h, scope):
        a, _ = self.cview(scope, h["minw"], True)
        if h["two"]:
            b, _ = self.cview(scope, h["minw"], True)
            a = a + ", " + b
        return "%s(%s, %s)" % (h["name"], a, self.index(scope))

    def carg(self, scope):
        return self.expr(scope, 1)

    def cleaf(self, scope):
        """A helper call as an expression (value in about [-2, 2])."""
        r = self.r
        self.cnest += 1
        self.ncalls += 1
        if scope:
            self.cloop_done = True
        kinds = ["small", "small", "rec", "rec", "mut", "halves", "halves", "pickr"]
        if self.custom_ok:
            kinds += ["custom", "custom"]
        if self.pointers and self.structs:
            kinds += ["sread"]
        k = r.choice(kinds)
        if k == "small":
            h = self.helper("small")
            s = "%s(%s)" % (h["name"], ", ".join(self.carg(scope) for _ in range(h["np"])))
        elif k == "rec":
            h = self.helper("rec")
            a = self.carg(scope)
            if h["w"]:
                a += ", " + self.carg(scope)
            s = "%s(%s, %s)" % (h["name"], a, self.cdepth(scope)[0])
        elif k == "mut":
            h = self.helper("mut")
            s = "%s(%s, %s)" % (r.choice(h["names"]), self.carg(scope), self.cdepth(scope)[0])
        elif k == "halves":
            h = self.helper("halves")
            a, w = self.cview(scope, 1, False)
            m = r.randint(1, w)
            s = "%s(%s, %s)" % (h["name"], a, str(m) if r.random() < 0.5 else "n - %d" % (N - m))
        elif k == "pickr":
            h = self.helper("pick")
            s = "%s[%d]" % (self.pickcall(h, scope), r.randrange(h["w"]))
        elif k == "custom":
            s = "%s(%s)" % (self.helper("custom")["name"], self.carg(scope))
        else:
            h = self.helper("sread")
            v = r.choice([v for v in self.structs if v["w"] >= h["W"]])
            ref = "sp" if v["name"] == "sp" else "&" + v["elem"](scope)
            s = "%s(%s, %s)" % (h["name"], ref, self.cdepth(scope)[0])
        self.cnest -= 1
        return s

    def cstmt(self, scope, depth, iters):
        """A statement calling helpers (lines relative to the caller's indent)."""
        r = self.r
        step = "%.6g" % (r.uniform(0.2, 1.0) / iters)
        acc = "acc%d" % r.randrange(self.naccs)
        opts = ["acc", "acc", "write", "write", "pickw", "pickw"]
        if self.loops and depth < self.max_depth and self.budget > 0:
            opts += ["loop", "loop"]
        k = r.choice(opts)
        if k == "acc":
            return ["%s += %s * %s;" % (acc, step, self.cleaf(scope))]
        if k == "loop":
            return self.cloop(scope, depth, iters)
        self.ncalls += 1
        if scope:
            self.cloop_done = True
        if k == "write":
            h = self.helper("write")
            dexpr, dmax = self.cdepth(scope)
            o, _ = self.cview(scope, dmax + 1, True)
            a, _ = self.cview(scope, dmax + 1, False)
            call = "%s(%s, %s, %s)" % (h["name"], o, a, dexpr)
            if r.random() < 0.6:
                return ["%s += %s * %s;" % (acc, step, call)]
            return ["%s;" % call]
        h = self.helper("pick")
        call = self.pickcall(h, scope)
        j = r.randrange(h["w"])
        if r.random() < 0.5:
            a = self.c(0.2, 0.8, 2)
            return ["{ double *pq = %s; pq[%d] = %s * pq[%d] + %.2f * %s; }" % (
                call, j, a, j, 1 - float(a), self.squash(self.expr(scope)))]
        return ["%s[%d] += %s * %s;" % (call, j, step, self.squash(self.expr(scope)))]

    def cloop(self, scope, depth, iters):
        """A counted loop whose body calls helpers (counters in the args)."""
        r = self.r
        self.nloops += 1
        name = "i%d" % self.nvar
        self.nvar += 1
        if r.random() < 0.6:
            head = "for (int %s = 0; %s < n; %s++) {" % (name, name, name)
        else:
            head = "for (int %s = n - 1; %s >= 0; %s--) {" % (name, name, name)
        sc, it = scope + [Var(name, 0, N - 1)], iters * N
        body = []
        for _ in range(r.randint(1, 2)):
            self.budget -= 1
            body += ["  " + l for l in self.cstmt(sc, depth + 1, it)]
        if r.random() < 0.4:
            body += self.stmt(sc, depth + 1, it, True, True, 1)
        return [head] + body + ["}"]

    def cfinish(self):
        """Every --calls program calls at least two helpers, one in a loop."""
        out = []
        while self.ncalls < 2:
            out += ["  " + l for l in self.cstmt([], 0, 1)]
        if self.loops and not self.cloop_done:
            self.budget = max(self.budget, 1)
            out += ["  " + l for l in self.cloop([], 0, 1)]
        return out

    # ----------------------------------------------------------------- --cxx
    # With --cxx the program is C++17 (clang++-22 -std=c++17; exceptions on
    # or off per program, see the fuzz-cxxflags line): std::vector<double>
    # locals of f (constructed with a size, fill value or range, push_back,
    # copies, copy assignment, swap, front/back/at), vector temporaries
    # inside loops, a template helper `template <typename T> T ht(const T *a,
    # int m)`, std::pair<double, double> returned from a helper (kept in a
    # pair or in a structured binding), lambdas (by-reference, by-value and
    # generic, one writing an array), Enzyme's template declaration of
    # __enzyme_autodiff with the markers defined in the program.
    def xinit(self):
        r = self.r
        self.budget += r.randint(1, 3)
        self.exceptions = r.random() < 0.5
        self.nvec_want = r.randint(1, 3)
        self.lams = []       # (name, kind): "val" lambdas return, "set" write
        self.pairs = []      # pair leaves
        self.pair_vars = []  # (pair variable, helper) that can be reassigned
        self.xused = set()

    def xvectors(self):
        """std::vector<double> locals of f (size N each), before any pointer
        into them is taken (no push_back afterwards)."""
        r = self.r
        out = []
        for k in range(self.nvec_want):
            name = "v%d" % k
            kind = "sized" if k == 0 else r.choice(["push", "fill", "range", "copy"])
            src = r.choice(["x", "y"] + ["t%d" % j for j in range(self.nlocal)] + self.vecs)
            g = r.choice(["cos(%s)", "tanh(%s + 0.5)", "0.5 * %s", "0.9 * sin(%s)"])
            loop = self.loops and r.random() < 0.7
            if kind == "sized":
                out.append("  std::vector<double> %s(N);" % name)
                if loop:
                    out += ["  for (int q = 0; q < N; q++)", "    %s[q] = %s;" % (name, g % ("%s[q]" % src))]
                else:
                    out += ["  %s[%d] = %s;" % (name, q, g % ("%s[%d]" % (src, q))) for q in range(N)]
            elif kind == "push":
                out.append("  std::vector<double> %s;" % name)
                if r.random() < 0.5:
                    out.append("  %s.reserve(%d); /* small: push_back has to grow it */" % (name, r.randint(1, 3)))
                if loop:
                    out += ["  for (int q = 0; q < N; q++)",
                            "    %s.push_back(%s);" % (name, g % ("%s[q]" % src))]
                else:
                    out += ["  %s.push_back(%s);" % (name, g % ("%s[%d]" % (src, q))) for q in range(N)]
            elif kind == "fill":
                out.append("  std::vector<double> %s(N, %s);" % (name, self.c(-1, 1)))
                for q in sorted(r.sample(range(N), r.randint(1, 4))):
                    out.append("  %s[%d] = %s;" % (name, q, g % ("%s[%d]" % (src, q))))
            elif kind == "range":
                if src in self.vecs:
                    out.append("  std::vector<double> %s(%s.begin(), %s.end());" % (name, src, src))
                else:
                    out.append("  std::vector<double> %s(%s, %s + N);" % (name, src, src))
            else:
                srcv = r.choice(self.vecs)
                if r.random() < 0.5:
                    out.append("  std::vector<double> %s = %s;" % (name, srcv))
                else:
                    out.append("  std::vector<double> %s(%s);" % (name, srcv))
            self.vecs.append(name)
        return out

    def mk_tmpl(self, name):
        r = self.r
        ni = "__attribute__((noinline)) " if r.random() < 0.3 else ""
        L = ["template <typename T> %sT %s(const T *a, int m) {" % (ni, name)]
        if self.loops and r.random() < 0.7:
            L += ["  T s = T(0);", "  for (int i = 0; i < m; i++)",
                  "    s += %s;" % self.squash(self.hexpr(["a[i]"], 1, need=["a[i]"])),
                  "  return s / T(m);"]
        else:  # halving recursion: depth <= 4 for m <= 9
            a = self.c(0.3, 0.7, 2)
            L += ["  if (m <= 1)", "    return %s;" % self.squash(self.hexpr(["a[0]"], 1, need=["a[0]"])),
                  "  int k = m / 2;",
                  "  return T(%s) * %s(a, k) + T(%.2f) * %s(a + k, m - k);" % (a, name, 1 - float(a), name)]
        L.append("}")
        return {"name": name, "lines": L}

    def mk_pair(self, name):
        r = self.r
        e1 = self.squash(self.hexpr(["a", "b"], need=["a"]))
        e2 = self.squash(self.hexpr(["a", "b"], need=["b"]))
        L = ["%sstd::pair<double, double> %s(double a, double b) {" % (self.hattr(), name)]
        t = r.random()
        if t < 0.4:
            L.append("  return std::make_pair(%s, %s);" % (e1, e2))
        elif t < 0.7:
            L += ["  std::pair<double, double> p;", "  p.first = %s;" % e1,
                  "  p.second = %s;" % e2, "  return p;"]
        else:
            L.append("  return {%s, %s};" % (e1, e2))
        L.append("}")
        return {"name": name, "lines": L}

    def xsetup(self):
        """Pairs returned by helpers and lambdas, at the top of f."""
        r = self.r
        out = []
        for k in range(r.randint(1, 2)):
            h = self.helper("pair")["name"]
            e1, e2 = self.expr([], 1), self.expr([], 1)
            if r.random() < 0.5:
                out.append("  std::pair<double, double> pr%d = %s(%s, %s);" % (k, h, e1, e2))
                self.pairs += ["pr%d.first" % k, "pr%d.second" % k]
                self.pair_vars.append(("pr%d" % k, h))
            else:
                out.append("  auto [pu%d, pv%d] = %s(%s, %s);" % (k, k, h, e1, e2))
                self.pairs += ["pu%d" % k, "pv%d" % k]
        for k in range(r.randint(1, 2)):
            name = "lam%d" % k
            t = r.random()
            if t < 0.4:  # by reference, reading captured memory
                caps = ["%s[%d]" % (r.choice(self.arrays()), r.randrange(N)),
                        "acc%d" % r.randrange(self.naccs)]
                out.append("  auto %s = [&](double u) { return %s; };" % (
                    name, self.squash(self.hexpr(["u", "u"] + caps, need=["u"]))))
                self.lams.append((name, "val"))
            elif t < 0.6:  # by value
                out.append("  const double k%d = %s;" % (k, self.squash(self.expr([], 1))))
                out.append("  auto %s = [k%d](double u) { return %s; };" % (
                    name, k, self.squash(self.hexpr(["u", "u", "k%d" % k], need=["u", "k%d" % k]))))
                self.lams.append((name, "val"))
            elif t < 0.75:  # generic
                out.append("  auto %s = [](auto u) { return %s; };" % (
                    name, self.squash(self.hexpr(["u"], need=["u"]))))
                self.lams.append((name, "val"))
            else:  # writes a captured array (a blend: stays bounded)
                arr = r.choice(self.arrays())
                a = self.c(0.2, 0.8, 2)
                out.append("  auto %s = [&](int i, double u) { %s[i] = %s * %s[i] + %.2f * tanh(u); };" % (
                    name, arr, a, arr, 1 - float(a)))
                self.lams.append((name, "set"))
        self.xready = True
        return out

    def xleaf(self, scope, kind=None):
        r = self.r
        self.cnest += 1
        vals = [l for l, kd in self.lams if kd == "val"]
        opts = ["tmpl", "tmpl", "pair", "pair", "vacc"] + ["lam"] * 2 * bool(vals)
        k = kind or r.choice(opts)
        self.xused.add(k)
        if k == "tmpl":
            h = self.helper("tmpl")
            a, w = self.cview(scope, 1, False)
            m = r.randint(1, w)
            s = "%s%s(%s, %s)" % (h["name"], "<double>" if r.random() < 0.3 else "", a,
                                  str(m) if r.random() < 0.5 else "n - %d" % (N - m))
        elif k == "pair":
            s = r.choice(self.pairs)
            self.xused.add(s)
        elif k == "lam":
            name = r.choice(vals)
            self.xused.add(name)
            s = "%s(%s)" % (name, self.expr(scope, 1))
        else:
            v = r.choice(self.vecs)
            t = r.random()
            if t < 0.25:
                s = "%s.front()" % v
            elif t < 0.5:
                s = "%s.back()" % v
            elif t < 0.8:
                s = "%s.at(%s)" % (v, self.index(scope))
            else:
                s = "%s.data()[%s]" % (v, self.index(scope))
        self.cnest -= 1
        return s

    def xstmt(self, scope, iters):
        r = self.r
        step = "%.6g" % (r.uniform(0.2, 1.0) / iters)
        acc = "acc%d" % r.randrange(self.naccs)
        sets = [l for l, kd in self.lams if kd == "set"]
        opts = ["acc", "vtmp", "vtmp"] + ["pairset"] * bool(self.pair_vars)
        opts += ["lamset"] * 2 * bool(sets) + ["vcopy", "vswap"] * (len(self.vecs) >= 2)
        k = r.choice(opts)
        if k == "acc":
            return ["%s += %s * %s;" % (acc, step, self.xleaf(scope))]
        if k == "pairset":
            pv, h = r.choice(self.pair_vars)
            return ["%s = %s(%s, %s);" % (pv, h, self.expr(scope, 1), self.expr(scope, 1))]
        if k == "lamset":
            name = r.choice(sets)
            self.xused.add(name)
            return ["%s(%s, %s);" % (name, self.index(scope), self.expr(scope))]
        if k in ("vcopy", "vswap"):
            a, b = r.sample(self.vecs, 2)
            if k == "vcopy":
                return ["%s = %s; /* copy assignment, same size */" % (a, b)]
            return [r.choice(["%s.swap(%s);", "std::swap(%s, %s);"]) % (a, b)]
        # a vector temporary (allocated and freed on every execution)
        t = r.random()
        if t < 0.4:
            init = r.choice(self.vecs)
        elif t < 0.7:
            v = r.choice(self.vecs)
            init = "%s.begin(), %s.end()" % (v, v)
        else:
            a = r.choice(["x", "y"] + ["t%d" % j for j in range(self.nlocal)])
            init = "%s, %s + N" % (a, a)
        h = self.helper("tmpl")["name"]
        self.xused.add("tmpl")
        return ["{",
                "  std::vector<double> tq(%s);" % init,
                "  tq.push_back(%s);" % self.squash(self.expr(scope, 1)),
                "  tq[%s] = 0.5 * tq[%s] + 0.5 * tq[N];" % ((self.index(scope),) * 2),
                "  %s += %s * %s(tq.data(), N + 1);" % (acc, step, h),
                "}"]

    def xfinish(self):
        """Every --cxx program uses the template helper, a pair and every lambda."""
        out = []
        acc = lambda e: "  acc%d += %s * %s;" % (self.r.randrange(self.naccs), self.c(0.2, 0.6, 2), e)
        if "tmpl" not in self.xused:
            out.append(acc(self.xleaf([], "tmpl")))
        if not any(p in self.xused for p in self.pairs):
            out.append(acc(self.r.choice(self.pairs)))
        for name, kd in self.lams:
            if name not in self.xused:
                if kd == "val":
                    out.append(acc("%s(%s)" % (name, self.expr([], 1))))
                else:
                    out.append("  %s(%d, %s);" % (name, self.r.randrange(N), self.expr([], 1)))
        return out

    def cxx_text(self, text):
        c_inc = ("#include <leantape.h>\n#include <math.h>\n#include <stdio.h>\n"
                 "#include <stdlib.h>\n#include <string.h>\n")
        x_inc = """\
/* fuzz-cxxflags: %s */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <utility>
#include <vector>

/* Enzyme's C++ style: the entry point is a template, the markers are
   defined here (the plugin recognises them by name) */
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
template <typename R, typename... T> R __enzyme_autodiff(T...);
""" % ("-fexceptions" if self.exceptions else "-fno-exceptions")
        if self.fwd:
            x_inc = x_inc.replace("""\
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
template <typename R, typename... T> R __enzyme_autodiff(T...);
""", """\
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_primal_return; /* --fwd */
template <typename R, typename... T> R __enzyme_fwddiff(T...);
""")
        c_rep = " *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm\n"
        x_rep = (" *   clang++-22 -std=c++17 -O2%s -fpass-plugin=build/lib/LLVMLeantape.so prog.cpp -lm\n"
                 % ("" if self.exceptions else " -fno-exceptions"))
        assert text.count(c_inc) == 1 and text.count(c_rep) == 1
        text = text.replace(c_inc, x_inc).replace(c_rep, x_rep)
        ret = "double" if self.has_s else "void"
        return text.replace("__enzyme_autodiff((void *)f", "__enzyme_autodiff<%s>((void *)f" % ret)

    # --------------------------------------------------------------- --alias
    # With --alias, main passes x and y as two views of ONE buffer,
    # x = buf + XA and y = buf + YA (NB = the buffer's size), and the shadows
    # with the same layout, dx = dbuf + XA and dy = dbuf + YA: y == x, a
    # partial overlap y = x + k or x = y + k (0 < k < N), or disjoint but
    # adjacent (k = N). The layout comes from its own random stream (seeded
    # from the seed), so f is the same program as without --alias. The
    # finite differences perturb one buffer element at a time and evaluate f
    # on the same views of a fresh copy of the whole buffer; the gradient is
    # checked per buffer element (dbuf[i]), x[i] and y[j] being one element
    # when they overlap. f never relies on x and y being distinct: its only
    # memcpy copies between distinct struct arrays (checked in program()).
    def ainit(self):
        ra = random.Random(self.seed * 1000003 + 1)
        t = ra.random()
        if t < 0.2:
            k = 0
        elif t < 0.8:
            k = ra.randint(1, N - 1)
        else:
            k = N
        y_after = ra.random() < 0.5
        self.a_x, self.a_y = (0, k) if y_after else (k, 0)
        self.a_nb = N + k
        if k == 0:
            self.a_desc = "y == x: the same array"
        else:
            hi, lo = ("y", "x") if y_after else ("x", "y")
            self.a_desc = "%s = %s + %d: %s" % (
                hi, lo, k, "disjoint but adjacent" if k == N else
                "partial overlap, %s[%d..%d] is %s[0..%d]" % (lo, k, N - 1, hi, N - 1 - k))

    def alias_defs(self):
        """The layout macros and its comment (in the program, before eval)."""
        return """
/* --alias: x and y are views of one buffer of NB doubles,
   x = buf + XA, y = buf + YA (%(desc)s);
   their shadows have the same layout, dx = dbuf + XA, dy = dbuf + YA.
   Gradients are checked per buffer element. */
#define NB %(nb)d
#define XA %(xa)d
#define YA %(ya)d
""" % {"desc": self.a_desc, "nb": self.a_nb, "xa": self.a_x, "ya": self.a_y}

    ALIAS_NAME = """\
  if (k < NB) {
    int l = snprintf(nm, len, "dbuf[%d]", k);
    if (k >= XA && k < XA + N) l += snprintf(nm + l, len - (size_t)l, "=dx[%d]", k - XA);
    if (k >= YA && k < YA + N) snprintf(nm + l, len - (size_t)l, "=dy[%d]", k - YA);
  }
"""

    def alias_check(self, fn):
        """f must stay valid when x and y overlap: no memcpy from or to them."""
        for m in re.finditer(r"\bmemcpy\(([^;]*)\);", "\n".join(fn)):
            args = [a.strip() for a in m.group(1).split(",")[:2]]
            assert not any(re.match(r"&?\(?(x|y)\b", a) for a in args), m.group(0)

    # ----------------------------------------------------------------- --fwd
    # With --fwd, main checks forward mode (__enzyme_fwddiff) instead of
    # reverse mode. Every choice of the forward-mode call comes from its own
    # random stream (seeded from the seed), so f is the same program as
    # without --fwd. The active scalar inputs are packed as in --pointers,
    # v = [x, y (or the --alias buffer), s, sp->w], and evaluated at the same
    # point as the reverse-mode program; the outputs are packed as
    # F = [f's result, x and y (or the buffer) as f leaves them, out[]].
    # Each of W directions (W = 1, 2 or 4; dense, sparse or a unit vector,
    # constants in the program) is a tangent lane: lane k of the tangent
    # memory of x and y holds direction k before the call and must hold the
    # tangent of x and y as f leaves them after it; out[] (enzyme_dupnoneed,
    # or enzyme_dup) gets the tangent of out; the call returns the tangent of
    # f's result (a struct of W doubles with enzyme_width, {result,
    # tangents} with enzyme_primal_return). Pointer shadows are W pointers
    # (enzyme_dup) or one pointer and a stride (enzyme_dupv, enzyme_dupnoneedv)
    # into one buffer of W lanes with padding between them; scalars (s) are
    # followed by their W tangents. Every lane is compared with the central
    # difference of F along its direction; main also checks the primal side
    # effects of the call, that the padding is untouched and that c is not
    # modified.
    FARGS = ("x", "y", "sp", "out")

    def finit(self):
        rf = self.rf = random.Random(self.seed * 1000003 + 2)
        sparam = self.pointers and self.sparam
        self.f_nx = self.a_nb if self.alias else 2 * N
        self.f_is = self.f_nx if self.has_s else None
        self.f_iw = self.f_nx + self.has_s if sparam else None
        self.f_nv = nv = self.f_nx + self.has_s + sparam
        self.f_hr = not (self.pointers and self.out_mode == "out")
        self.f_nout = self.nout if self.pointers else 0
        W = self.f_w = 1 if rf.random() < 0.5 else rf.choice([2, 4])
        vm = rf.choice(["dup", "dupv", "mixed"]) if W > 1 else "dup"
        self.f_vmode = {}
        for a in self.FARGS:
            self.f_vmode[a] = vm if vm != "mixed" else rf.choice(["dup", "dupv"])
        self.f_stride = {}
        for a in self.FARGS:
            self.f_stride[a] = rf.choice(["sizeof", "int", "rt"])
        self.f_smark = rf.choice(["enzyme_dup, ", ""])
        self.f_outdup = rf.random() < 0.3
        t = rf.random()
        self.f_noneed = rf.choice("xy") if not self.alias and t < 0.15 else None
        self.f_pr = rf.random() < 0.25 and self.f_hr
        self.f_pr_first = rf.random() < 0.5
        self.f_pad = {}
        for a in ("x", "y", "b", "o"):
            self.f_pad[a] = rf.choice([0, 0, 1, 3])
        self.f_dirs, self.f_kinds = [], []
        for _ in range(W):
            t = rf.random()
            if t < 0.55:
                kind, d = "dense", [round(rf.uniform(-1, 1), 3) for _ in range(nv)]
            elif t < 0.85:
                kind = "sparse"
                d = [round(rf.uniform(-1, 1), 3) if rf.random() < 0.35 else 0.0
                     for _ in range(nv)]
                if not any(d):
                    d[rf.randrange(nv)] = 1.0
            else:
                kind, d = "unit", [0.0] * nv
                d[rf.randrange(nv)] = 1.0
            self.f_dirs.append(d)
            self.f_kinds.append(kind)

    def fcustom(self):
        """Forward derivatives of the custom-gradient helpers (--calls)."""
        out = ["/* --fwd: forward derivatives of the custom-gradient helpers",
               "   (__enzyme_register_derivative_<name> = {fn, fn_fwd}, fn_fwd(v, dv)",
               "   returning {result, tangent} or the tangent alone); a helper without",
               "   one has only its gradient registered, which forward mode cannot use:",
               "   its body is differentiated (as Enzyme does) */",
               "typedef struct lt_pt { double p, t; } lt_pt;", ""]
        for h in self.hk["custom"]:
            t = self.rf.random()
            h["fwdreg"] = None if t < 0.25 else "pair" if t < 0.65 else "tan"
            n = h["name"]
            if h["fwdreg"] is None:
                out += ["/* %s: no forward derivative registered */" % n, ""]
                continue
            if h["fwdreg"] == "pair":
                out += ["lt_pt %s_fwd(double v, double dv) { /* the gradient applied to dv */" % n,
                        "  lt_pt r = { %s(v), %s_grad(v, dv) };" % (n, n),
                        "  return r;", "}"]
            else:
                out += ["double %s_fwd(double v, double dv) { return %s_grad(v, dv); }" % (n, n)]
            out += ["void *__enzyme_register_derivative_%s[2] = {(void *)%s, (void *)%s_fwd};"
                    % (n, n, n), ""]
        return out

    def flanes(self, a):
        """(lane buffer, the W shadow pointers of argument a)."""
        W = self.f_w
        if a in ("x", "y"):
            if self.alias:
                return "dbl", ["dbl[%d] + %s" % (k, "XA" if a == "x" else "YA") for k in range(W)]
            buf = "d%sl" % a
            return buf, ["%s[%d]" % (buf, k) for k in range(W)]
        if a == "sp":
            return "dps", ["&dps[%d]" % k for k in range(W)]
        return "dol", ["dol[%d]" % k for k in range(W)]

    def fptrarg(self, a, prim, noneed):
        """The markers, primal and shadows of pointer argument a."""
        buf, lanes = self.flanes(a)
        if self.f_vmode[a] == "dupv":
            st = {"sizeof": "sizeof %s[0]", "int": "(int)sizeof %s[0]",
                  "rt": "(long)(n / N) * (long)sizeof %s[0]"}[self.f_stride[a]] % buf
            mk = "enzyme_dupnoneedv" if noneed else "enzyme_dupv"
            return [", ".join([mk, st, prim, lanes[0]])]
        return [", ".join(["enzyme_dupnoneed" if noneed else "enzyme_dup", prim] + lanes)]

    def fprogram(self, fn):
        W, NX, NV, HR = self.f_w, self.f_nx, self.f_nv, int(self.f_hr)
        nout, IS, IW = self.f_nout, self.f_is, self.f_iw
        P = self.pointers
        sparam = P and self.sparam
        head = self.phead() if P else self.chead()
        cp, ca, c0a = (", const double *c", ", c", ", c0") if P else ("", "", "")
        # ----- eval: the outputs F of f at v
        ev = []
        if self.alias:
            ev += ["  double b[NB]; /* a copy of the whole buffer, viewed as in main */",
                   "  memcpy(b, v, sizeof b);",
                   "  double *x = b + XA, *y = b + YA;"]
        else:
            ev += ["  double x[N], y[N];", "  memcpy(x, v, sizeof x);",
                   "  memcpy(y, v + N, sizeof y);"]
        args = ["x", "y"] + (["c"] if P else []) + ["n"]
        if self.has_s:
            args.append("v[%d]" % IS)
        if sparam:
            ev.append("  struct S ps = { %s + %d, v[%d], %d };" % (
                self.sp_base, self.sp_off, IW, self.sp_k))
            args.append("&ps")
        if nout:
            ev.append("  double o[NOUT];")
            args.append("o")
        ev.append("  %sf(%s);" % ("F[0] = " if HR else "", ", ".join(args)))
        if self.alias:
            ev.append("  memcpy(F + HR, b, sizeof b);")
        else:
            ev += ["  memcpy(F + HR, x, sizeof x);", "  memcpy(F + HR + N, y, sizeof y);"]
        if nout:
            ev.append("  memcpy(F + HR + NX, o, %d * sizeof *o);" % nout)
        # ----- the call
        prim_args = ["x", "y"] + (["c"] if P else []) + ["n"]
        toks = []
        if self.f_pr and self.f_pr_first:
            toks.append("enzyme_primal_return")
        if W > 1:
            toks.append("enzyme_width, %d" % W)
        toks += self.fptrarg("x", "x", self.f_noneed == "x")
        toks += self.fptrarg("y", "y", self.f_noneed == "y")
        if P:
            toks.append("enzyme_const, c")
        toks.append("enzyme_const, n")
        if self.has_s:
            toks.append(", ".join([self.f_smark + "s0"] + ["dirs[%d][%d]" % (k, IS)
                                                          for k in range(W)]))
            prim_args.append("s0")
        if sparam:
            toks += self.fptrarg("sp", "&ps", False)
            prim_args.append("&ps")
        if nout:
            toks += self.fptrarg("out", "o", not self.f_outdup)
            prim_args.append("o")
        if self.f_pr and not self.f_pr_first:
            toks.append("enzyme_primal_return")
        if not HR:
            rty, cname, lhs = "void", "__enzyme_fwddiff_v", ""
        elif self.f_pr:
            rty, cname, lhs = "lt_ptan", "__enzyme_fwddiff_pr", "lt_ptan tr = "
        elif W > 1:
            rty, cname, lhs = "lt_tan", "__enzyme_fwddiff_w", "lt_tan tr = "
        else:
            rty, cname, lhs = "double", "__enzyme_fwddiff", "double tr = "
        if self.cxx:
            cname = "__enzyme_fwddiff<%s>" % rty
        if self.primal_only:
            call = ["%s(%s); /* --primal-only: __enzyme_fwddiff removed */" % (
                ("dret_p = f" if self.f_pr else "(void)f") if HR else "f", ", ".join(prim_args))]
        else:
            lines, cur = [], lhs + cname + "((void *)f"
            for a in toks:
                if len(cur) + len(a) + 2 > 78:
                    lines.append(cur + ",")
                    cur = "    " + a
                else:
                    cur += ", " + a
            call = lines + [cur + ");"]
            if HR and self.f_pr:
                call += ["dret_p = tr.p;", "for (int k = 0; k < W; k++) dret[k] = tr.t[k];"]
            elif HR and W > 1:
                call += ["for (int k = 0; k < W; k++) dret[k] = tr.t[k];"]
            elif HR:
                call += ["dret[0] = tr;"]
        # ----- declarations
        decl = ["/* --fwd: forward mode, %d direction%s (%s) */" % (
            W, "s" if W > 1 else "", ", ".join(self.f_kinds))]
        decl += ["#define W %d  /* enzyme_width */" % W,
                 "#define NX %d /* the x and y entries of v (and of F) */" % NX,
                 "#define NV %d" % NV,
                 "#define HR %d /* F[0] is f's result */" % HR,
                 "#define NOUT %d" % max(1, nout),
                 "#define NF (HR + NX + %d) /* the outputs */" % nout,
                 "#define PAD 77.25 /* between the tangent lanes: never written */"]
        if not self.alias:
            decl += ["#define LX %d /* the lanes of x's tangent memory, %d apart */" % (
                         N + self.f_pad["x"], N + self.f_pad["x"]),
                     "#define LY %d" % (N + self.f_pad["y"])]
        else:
            decl.append("#define LB (NB + %d) /* the lanes of the buffer's tangent memory */"
                        % self.f_pad["b"])
        if nout:
            decl.append("#define LO (NOUT + %d)" % self.f_pad["o"])
        if not self.cxx:
            decl += ["extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_primal_return;"]
        if rty == "lt_tan":
            decl.append("typedef struct lt_tan { double t[W]; } lt_tan; /* the W tangents */")
        if rty == "lt_ptan":
            decl.append("typedef struct lt_ptan { double p; double t[W]; } lt_ptan; "
                        "/* enzyme_primal_return */")
        if not self.cxx:
            decl.append("%s %s(void *, ...);" % (rty, cname))
        decl.append("")
        decl.append("/* the directions: lane k's tangents of v */")
        decl.append("static const double dirs[W][NV] = {")
        for d in self.f_dirs:
            decl.append("  { %s }," % ", ".join("%.3f" % e for e in d))
        decl.append("};")
        # ----- main's setup
        ms = []
        if self.alias:
            ms += ["double buf[NB];", "memcpy(buf, v0, sizeof buf);",
                   "double *x = buf + XA, *y = buf + YA; /* the aliasing views */"]
        else:
            ms += ["double x[N], y[N];", "memcpy(x, v0, sizeof x);",
                   "memcpy(y, v0 + N, sizeof y);"]
        if P:
            ms += ["double c[N];", "memcpy(c, c0, sizeof c);"]
        ms.append("/* tangent memory: lane k holds direction k, PAD between the lanes */")
        if self.alias:
            ms += ["double dbl[W][LB]; /* dx = dbl[k] + XA, dy = dbl[k] + YA: the same layout */",
                   "for (int k = 0; k < W; k++)",
                   "  for (int i = 0; i < LB; i++) dbl[k][i] = i < NB ? dirs[k][i] : PAD;"]
        else:
            ms += ["double dxl[W][LX], dyl[W][LY];",
                   "for (int k = 0; k < W; k++) {",
                   "  for (int i = 0; i < LX; i++) dxl[k][i] = i < N ? dirs[k][i] : PAD;",
                   "  for (int i = 0; i < LY; i++) dyl[k][i] = i < N ? dirs[k][N + i] : PAD;",
                   "}"]
        if sparam:
            base = self.sp_base
            ms.append("struct S ps = { %s + %d, v0[%d], %d };" % (base, self.sp_off, IW, self.sp_k))
            if base == "c":
                ms += ["double dcl[W][N]; /* the tangent of c as seen through sp->p: zero */",
                       "memset(dcl, 0, sizeof dcl);"]
            dbase = {"x": ("dbl[k] + XA" if self.alias else "dxl[k]"),
                     "y": ("dbl[k] + YA" if self.alias else "dyl[k]"), "c": "dcl[k]"}[base]
            ms += ["struct S dps[W]; /* shadows: shadow pointer, w's tangent, k copied */",
                   "for (int k = 0; k < W; k++) {",
                   "  dps[k].p = %s + %d;" % (dbase, self.sp_off),
                   "  dps[k].w = dirs[k][%d];" % IW,
                   "  dps[k].k = %d;" % self.sp_k, "}"]
        if nout:
            ms += ["double o[NOUT], dol[W][LO]; /* out's tangents: f must overwrite them */",
                   "memset(o, 0, sizeof o);",
                   "for (int k = 0; k < W; k++)",
                   "  for (int i = 0; i < LO; i++) dol[k][i] = i < %d ? 1000.0 + i + 10.0 * k : PAD;" % nout]
        ms += ["double dret[W], dret_p = 0.0; /* the tangents of f's result */",
               "memset(dret, 0, sizeof dret);"]
        ms += call
        ms.append("(void)dret_p;")
        # ----- main's checks
        ck = []
        if P:
            ck += ["if (memcmp(c, c0, sizeof c)) {",
                   "  printf(\"MISMATCH c: the enzyme_const input was modified\\n\");",
                   "  bad++;", "}"]
        ck += ["double F0[NF];", "eval(v0%s, n, F0);" % c0a,
               "/* the primal side effects of the call: x and y as f leaves them */"]
        prim = []
        if self.alias:
            prim.append(("buf[i]", "NB", "HR + i", "buf[%d]"))
        else:
            if self.f_noneed != "x":
                prim.append(("x[i]", "N", "HR + i", "x[%d]"))
            if self.f_noneed != "y":
                prim.append(("y[i]", "N", "HR + N + i", "y[%d]"))
        if nout and self.f_outdup:
            prim.append(("o[i]", str(nout), "HR + NX + i", "out[%d]"))
        for val, cnt, fj, nm in prim:
            ck += ["for (int i = 0; i < %s; i++)" % cnt,
                   "  if (!same(%s, F0[%s])) {" % (val, fj),
                   "    printf(\"MISMATCH primal %s: after the call %%.12g, f alone %%.12g\\n\", i, %s, F0[%s]);"
                   % (nm, val, fj),
                   "    pbad++;", "  }"]
        if self.f_pr:
            ck += ["if (!same(dret_p, F0[0])) {",
                   "  printf(\"MISMATCH primal result (enzyme_primal_return): %.12g, f alone %.12g\\n\",",
                   "         dret_p, F0[0]);",
                   "  pbad++;", "}"]
        ck.append("/* the padding between the lanes of the tangent memory is untouched */")
        pads = []
        if self.alias:
            pads.append(("dbl", "NB", "LB" if self.f_pad["b"] else "NB"))
        else:
            pads += [("dxl", "N", "LX" if self.f_pad["x"] else "N"),
                     ("dyl", "N", "LY" if self.f_pad["y"] else "N")]
        if nout:
            pads.append(("dol", str(nout), "LO" if self.f_pad["o"] else str(nout)))
        for b, lo, hi in pads:
            if lo == hi:
                continue
            ck += ["for (int k = 0; k < W; k++)",
                   "  for (int i = %s; i < %s; i++)" % (lo, hi),
                   "    if (%s[k][i] != PAD) {" % b,
                   "      printf(\"MISMATCH %s[%%d][%%d] (padding) was written: %%.12g\\n\", k, i, %s[k][i]);"
                   % (b, b),
                   "      bad++;", "    }"]
        gather = []
        if HR:
            gather.append("ad[0] = dret[k];")
        if self.alias:
            gather.append("for (int i = 0; i < NB; i++) ad[HR + i] = dbl[k][i];")
        else:
            gather.append("for (int i = 0; i < N; i++) {")
            gather.append("  ad[HR + i] = dxl[k][i];")
            gather.append("  ad[HR + N + i] = dyl[k][i];")
            gather.append("}")
        if nout:
            gather.append("for (int i = 0; i < %d; i++) ad[HR + NX + i] = dol[k][i];" % nout)
        ck += ["int checked = 0;",
               "for (int k = 0; k < W; k++) {",
               "  double ad[NF], fd1[NF], fd2[NF], fdH[NF], fdH2[NF];",
               "  int haver = 0;"]
        ck += ["  " + l for l in gather]
        ck += ["  double h = 1e-6;",
               "  fd(v0%s, n, dirs[k], h, fd1);" % c0a,
               "  fd(v0%s, n, dirs[k], 2.0 * h, fd2);" % c0a,
               "  double gmax = 0.0;",
               "  for (int j = 0; j < NF; j++)",
               "    if (fabs(fd1[j]) > gmax) gmax = fabs(fd1[j]);",
               "  for (int j = 0; j < NF; j++) {",
               "    char nm[64];",
               "    out_name(nm, sizeof nm, k, j);",
               "    double floor_ = 1e-8 * gmax + 1e-9 * (fabs(F0[j]) > 1.0 ? fabs(F0[j]) : 1.0);",
               "    double scale = fabs(fd1[j]) > fabs(ad[j]) ? fabs(fd1[j]) : fabs(ad[j]);",
               "    checked++;",
               "    if (fabs(fd1[j] - fd2[j]) > 1e-6 * fabs(fd1[j]) + 10.0 * floor_) {",
               "      printf(\"unstable FD %s: fd(h)=%.12g fd(2h)=%.12g ad=%.12g\\n\", nm,",
               "             fd1[j], fd2[j], ad[j]);",
               "      unstable++;",
               "      continue;",
               "    }",
               "    if (!(fabs(ad[j] - fd1[j]) <= 1e-5 * scale + floor_)) {",
               "      /* a second opinion less sensitive to rounding noise in f",
               "         (amplified by 1/h): Richardson's extrapolation from the",
               "         steps H = 1e3 h and H/2 (error O(H^4)) */",
               "      if (!haver) {",
               "        fd(v0%s, n, dirs[k], 1e3 * h, fdH);" % c0a,
               "        fd(v0%s, n, dirs[k], 0.5e3 * h, fdH2);" % c0a,
               "        haver = 1;",
               "      }",
               "      double r = (4.0 * fdH2[j] - fdH[j]) / 3.0;",
               "      if (fabs(ad[j] - r) <= 1e-5 * scale + floor_) {",
               "        printf(\"noisy FD %s: fd(h)=%.12g richardson(1e3 h)=%.12g ad=%.12g\\n\",",
               "               nm, fd1[j], r, ad[j]);",
               "        continue;",
               "      }",
               "      printf(\"MISMATCH %s: ad=%.12g fd=%.12g (abs err %.3g) richardson(1e3 h)=%.12g\\n\",",
               "             nm, ad[j], fd1[j], fabs(ad[j] - fd1[j]), r);",
               "      bad++;",
               "    }",
               "  }",
               "}",
               "printf(\"f=%.12g width=%d checked=%d mismatches=%d unstable=%d primal=%d\\n\",",
               "       F0[0], W, checked, bad, unstable, pbad);",
               "if (pbad) bad++;"]
        # ----- the names of the outputs
        nmc = ["  int l = W > 1 ? snprintf(nm, len, \"lane %d \", k) : 0;",
               "  nm += l;", "  len -= (size_t)l;"]
        if HR:
            nmc.append("  if (j == 0) { snprintf(nm, len, \"dret\"); return; }")
        nmc.append("  j -= HR;")
        if self.alias:
            nmc += ["  int k2 = j;", "  if (k2 < NB) {",
                    "    l = snprintf(nm, len, \"dbuf[%d]\", k2);",
                    "    if (k2 >= XA && k2 < XA + N) l += snprintf(nm + l, len - (size_t)l, \"=dx[%d]\", k2 - XA);",
                    "    if (k2 >= YA && k2 < YA + N) snprintf(nm + l, len - (size_t)l, \"=dy[%d]\", k2 - YA);",
                    "    return;", "  }"]
        else:
            nmc += ["  if (j < N) { snprintf(nm, len, \"dx[%d]\", j); return; }",
                    "  if (j < 2 * N) { snprintf(nm, len, \"dy[%d]\", j - N); return; }"]
        nmc.append("  snprintf(nm, len, \"dout[%d]\", j - NX);")
        vdesc = ("v[0..NB) = the buffer of x and y" if self.alias
                 else "v[0..N) = x, v[N..2N) = y")
        if self.has_s:
            vdesc += ", v[%d] = s" % IS
        if sparam:
            vdesc += ", v[%d] = sp->w" % IW
        fdesc = (["F[0] = f's result"] if HR else []) + [
            "F[HR..HR+NX) = %s as f leaves them" % ("the buffer" if self.alias else "x and y")]
        if nout:
            fdesc.append("F[HR+NX..NF) = out[] (enzyme_%s)" % ("dup" if self.f_outdup else "dupnoneed"))
        # ----- sample point (as in the reverse-mode program of this seed)
        init = ["  for (int i = 0; i < NX; i++) v0[i] = rnd();", "  s0 = rnd();"]
        if P:
            init += ["  for (int i = 0; i < N; i++) c0[i] = rnd();",
                     "  for (int i = NX; i < NV; i++) v0[i] = rnd();"]
        if self.has_s:
            init.append("  v0[%d] = s0;" % IS)
        ind = lambda ls: "".join("  " + l + "\n" for l in ls)
        main = """
static unsigned long long lt_state = %(seed)dULL * 2654435761ULL + 12345ULL;
static double rnd(void) { /* deterministic, in [-1, 1] */
  lt_state = lt_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lt_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static volatile int n_runtime = N; /* keeps n opaque to the optimiser */
%(alias)s
%(decl)s

/* The active scalar inputs, packed: %(vdesc)s.
   The outputs, packed: %(fdesc)s.
   Evaluated on copies: f may overwrite x and y in place. */
static void eval(const double *v%(cp)s, int n, double *F) {
%(ev)s}

/* central difference of F along direction d with step h */
static void fd(const double *v0%(cp)s, int n, const double *d, double h,
               double *out) {
  double vp[NV], vm[NV], Fp[NF], Fm[NF];
  for (int i = 0; i < NV; i++) {
    vp[i] = v0[i] + h * d[i];
    vm[i] = v0[i] - h * d[i];
  }
  eval(vp%(ca)s, n, Fp);
  eval(vm%(ca)s, n, Fm);
  for (int j = 0; j < NF; j++) out[j] = (Fp[j] - Fm[j]) / (2.0 * h);
}

/* the primal results of the call against f's (the same operations) */
static int same(double a, double b) {
  return fabs(a - b) <= 1e-9 * (fabs(b) > 1.0 ? fabs(b) : 1.0);
}

/* the name of output j's tangent in lane k */
static void out_name(char *nm, size_t len, int k, int j) {
%(nmc)s}

int main(void) {
  double v0[NV], s0 = 0.0%(c0d)s;
%(init)s  (void)s0;
  int n = n_runtime;

%(ms)s
  int bad = 0, unstable = 0, pbad = 0;
%(ck)s  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
""" % {"seed": self.seed, "alias": self.alias_defs() if self.alias else "",
       "decl": "\n".join(decl), "vdesc": vdesc, "fdesc": ",\n     ".join(fdesc),
       "cp": cp, "ca": ca, "ev": "".join(l + "\n" for l in ev),
       "nmc": "".join(l + "\n" for l in nmc), "c0d": ", c0[N]" if P else "",
       "init": "".join(l + "\n" for l in init), "ms": ind(ms), "ck": ind(ck)}
        return head + "\n".join(fn) + "\n" + main

    # ---------------------------------------------------------------- program
    def function(self):
        r = self.r
        if self.pointers:
            sig = self.psig()
        else:
            sig = "double f(double *x, double *y, int n%s)" % (", double s" if self.has_s else "")
        out = [sig + " {"]
        for k in range(self.nlocal):
            out.append("  double t%d[N];" % k)
        for k in range(self.naccs):
            out.append("  double acc%d = %s;" % (k, self.c(-0.5, 0.5)))
        for k in range(self.nrecs):
            out.append("  double r%d = %s;" % (k, self.squash("x[%d]" % r.randrange(N))))
        # initialise local arrays (a loop, or unrolled without loops)
        for k in range(self.nlocal):
            src = r.choice(["x", "y"])
            g = r.choice(["cos(%s[%s])", "tanh(%s[%s] + 0.5)", "0.5 * %s[%s]"])
            if self.loops and r.random() < 0.7:
                out.append("  for (int q = 0; q < N; q++)")
                out.append("    t%d[q] = %s;" % (k, g % (src, "q")))
            else:
                for q in range(N):
                    out.append("  t%d[%d] = %s;" % (k, q, g % (src, q)))
        if self.cxx:
            out += self.xvectors()
        if self.pointers:
            out += self.psetup()
        if self.cxx:
            out += self.xsetup()
        while self.budget > 0:
            out += self.stmt([], 0, 1, False, False, 1)
        if self.calls:
            out += self.cfinish()
        if self.cxx:
            out += self.xfinish()
        if self.loops and self.nloops == 0:
            # make sure a loop program really has a loop
            self.budget = 2
            out += self.loop([], 0, 1, 1)
        # return: accumulators, recurrences, final array entries, s
        terms = ["acc%d" % k for k in range(self.naccs)]
        terms += ["%s * r%d" % (self.c(0.2, 1.0), k) for k in range(self.nrecs)]
        for _ in range(r.randint(1, 4)):
            terms.append("%s * %s[%d]" % (self.c(-1, 1), r.choice(self.arrays()), r.randrange(N)))
        if self.has_s and r.random() < 0.5:
            terms.append("%s * s" % self.c(-1, 1))
        if self.pointers:
            out += self.pfinish(terms)
        else:
            out.append("  return " + " + ".join(terms) + ";")
        out.append("}")
        if self.calls or self.cxx:
            out = self.helper_lines() + out
        return out

    def program(self):
        text = self.program_text()
        if self.cxx:
            text = self.cxx_text(text)
        if self.primal_only:  # no gradients: only the primal runs (sanitizers)
            end = "  if (bad) return 1;\n  if (unstable) return 77;\n  return 0;\n}\n"
            assert text.endswith(end)
            chk = ""
            if self.calls and self.hk.get("custom"):
                chk = "  if (lt_check_custom()) return 1; /* custom gradients vs FD */\n"
            if self.fwd:  # eval and main's primal checks hold without the plugin
                chk += "  if (pbad) return 1; /* --fwd: the primal checks */\n"
            text = text[:-len(end)] + chk + "  (void)bad; (void)unstable;\n  return 0; /* --primal-only */\n}\n"
        return text

    def chead(self):
        """The head of a program without --pointers."""
        return """\
/* Generated by tools/fuzz/gen.py --seed %(seed)d%(nl)s. Reproduce with
 *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm
 */
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N %(N)d
""" % {"seed": self.seed, "nl": ("" if self.loops else " --no-loops") + self.newflags(),
       "N": N}

    def program_text(self):
        fn = self.function()
        if self.alias:
            self.alias_check(fn)
        if self.fwd:
            return self.fprogram(fn)
        if self.pointers:
            return self.pprogram(fn)
        s_par = ", double s" if self.has_s else ""
        s_arg = ", s" if self.has_s else ""
        head = self.chead()
        main = """
static unsigned long long lt_state = %(seed)dULL * 2654435761ULL + 12345ULL;
static double rnd(void) { /* deterministic, in [-1, 1] */
  lt_state = lt_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lt_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static volatile int n_runtime = N; /* keeps n opaque to the optimiser */

/* f on copies: f may overwrite x and y in place. */
static double eval(const double *x0, const double *y0, int n%(s_par)s) {
  double x[N], y[N];
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  return f(x, y, n%(s_arg)s);
}

/* central difference of eval in coordinate k (k < N: x, k < 2N: y, else s)
   with step h */
static double fd(const double *x0, const double *y0, int n, double s0, int k,
                 double h) {
  double xp[N], yp[N], xm[N], ym[N], sp = s0, sm = s0;
  memcpy(xp, x0, sizeof xp); memcpy(xm, x0, sizeof xm);
  memcpy(yp, y0, sizeof yp); memcpy(ym, y0, sizeof ym);
  if (k < N) { xp[k] += h; xm[k] -= h; }
  else if (k < 2 * N) { yp[k - N] += h; ym[k - N] -= h; }
  else { sp += h; sm -= h; }
  (void)sp; (void)sm;
  return (eval(xp, yp, n%(s_p)s) - eval(xm, ym, n%(s_m)s)) / (2.0 * h);
}

int main(void) {
  double x0[N], y0[N], s0 = 0.0;
  for (int i = 0; i < N; i++) x0[i] = rnd();
  for (int i = 0; i < N; i++) y0[i] = rnd();
  s0 = rnd();
  (void)s0;
  int n = n_runtime;

  double x[N], y[N], dx[N], dy[N];
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  double ds = 0.0;
  %(call)s
  (void)ds;

  double fval = eval(x0, y0, n%(s_0)s);
  double ad[2 * N + 1], fd1[2 * N + 1], fd2[2 * N + 1], hk[2 * N + 1];
  int K = 2 * N + %(has_s)d;
  double gmax = 0.0;
  for (int k = 0; k < K; k++) {
    ad[k] = k < N ? dx[k] : k < 2 * N ? dy[k - N] : ds;
    double v = k < N ? x0[k] : k < 2 * N ? y0[k - N] : s0;
    double h = 1e-6 * (fabs(v) > 1.0 ? fabs(v) : 1.0);
    hk[k] = h;
    fd1[k] = fd(x0, y0, n, s0, k, h);
    fd2[k] = fd(x0, y0, n, s0, k, 2.0 * h);
    if (fabs(fd1[k]) > gmax) gmax = fabs(fd1[k]);
  }
  double floor_ = 1e-8 * gmax + 1e-9 * (fabs(fval) > 1.0 ? fabs(fval) : 1.0);
  int bad = 0, unstable = 0;
  for (int k = 0; k < K; k++) {
    char nm[16];
    if (k < N) snprintf(nm, sizeof nm, "dx[%%d]", k);
    else if (k < 2 * N) snprintf(nm, sizeof nm, "dy[%%d]", k - N);
    else snprintf(nm, sizeof nm, "ds");
    double scale = fabs(fd1[k]) > fabs(ad[k]) ? fabs(fd1[k]) : fabs(ad[k]);
    if (fabs(fd1[k] - fd2[k]) > 1e-6 * fabs(fd1[k]) + 10.0 * floor_) {
      printf("unstable FD %%s: fd(h)=%%.12g fd(2h)=%%.12g ad=%%.12g\\n", nm,
             fd1[k], fd2[k], ad[k]);
      unstable++;
      continue;
    }
    if (!(fabs(ad[k] - fd1[k]) <= 1e-5 * scale + floor_)) {
      /* a second opinion less sensitive to rounding noise in f (which the
         step h amplifies by 1/h): Richardson's extrapolation from the
         steps H = 1e3 h and H/2 (error O(H^4)) */
      double H = 1e3 * hk[k];
      double r = (4.0 * fd(x0, y0, n, s0, k, 0.5 * H) - fd(x0, y0, n, s0, k, H)) / 3.0;
      if (fabs(ad[k] - r) <= 1e-5 * scale + floor_) {
        printf("noisy FD %%s: fd(h)=%%.12g richardson(1e3 h)=%%.12g ad=%%.12g\\n",
               nm, fd1[k], r, ad[k]);
        continue;
      }
      printf("MISMATCH %%s: ad=%%.12g fd=%%.12g (abs err %%.3g) richardson(1e3 h)=%%.12g\\n",
             nm, ad[k], fd1[k], fabs(ad[k] - fd1[k]), r);
      bad++;
    }
  }
  printf("f=%%.12g gmax=%%.6g checked=%%d mismatches=%%d unstable=%%d\\n", fval,
         gmax, K, bad, unstable);
  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
"""
        if self.has_s:
            call = ("ds = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,\n"
                    "                         enzyme_const, n, enzyme_out, s0);")
        else:
            call = ("__enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,\n"
                    "                    enzyme_const, n);")
        if self.primal_only:
            call = "f(x, y, n%s); /* --primal-only: __enzyme_autodiff removed */" % (
                ", s0" if self.has_s else "")
        main = main % {"seed": self.seed, "s_par": s_par, "s_arg": s_arg,
                       "s_p": ", sp" if self.has_s else "",
                       "s_m": ", sm" if self.has_s else "",
                       "s_0": ", s0" if self.has_s else "",
                       "call": call, "has_s": 1 if self.has_s else 0}
        if self.alias:
            main = self.alias_main(call)
        return head + "\n".join(fn) + "\n" + main

    def alias_main(self, call):
        """main, eval and fd of a program without --pointers under --alias."""
        s0 = ", s0" if self.has_s else ""
        main = """
static unsigned long long lt_state = %(seed)dULL * 2654435761ULL + 12345ULL;
static double rnd(void) { /* deterministic, in [-1, 1] */
  lt_state = lt_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lt_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static volatile int n_runtime = N; /* keeps n opaque to the optimiser */
%(defs)s
/* f on a copy of the whole buffer (f may overwrite x and y in place), with
   the same views x = b + XA, y = b + YA. */
static double eval(const double *b0, int n%(s_par)s) {
  double b[NB];
  memcpy(b, b0, sizeof b);
  return f(b + XA, b + YA, n%(s_arg)s);
}

/* central difference of eval in coordinate k (k < NB: buffer element k,
   else s) with step h */
static double fd(const double *b0, int n, double s0, int k, double h) {
  double bp[NB], bm[NB], sp = s0, sm = s0;
  memcpy(bp, b0, sizeof bp); memcpy(bm, b0, sizeof bm);
  if (k < NB) { bp[k] += h; bm[k] -= h; }
  else { sp += h; sm -= h; }
  (void)sp; (void)sm;
  return (eval(bp, n%(s_p)s) - eval(bm, n%(s_m)s)) / (2.0 * h);
}

static void coord_name(char *nm, size_t len, int k) {
@NAME@  else snprintf(nm, len, "ds");
}

int main(void) {
  double b0[NB], s0 = 0.0;
  for (int i = 0; i < NB; i++) b0[i] = rnd();
  s0 = rnd();
  (void)s0;
  int n = n_runtime;

  double buf[NB], dbuf[NB];
  memcpy(buf, b0, sizeof buf);
  memset(dbuf, 0, sizeof dbuf);
  double *x = buf + XA, *y = buf + YA;     /* the aliasing views */
  double *dx = dbuf + XA, *dy = dbuf + YA; /* their shadows: the same layout */
  double ds = 0.0;
  %(call)s
  (void)ds;

  double fval = eval(b0, n%(s_0)s);
  double ad[NB + 1], fd1[NB + 1], fd2[NB + 1], hk[NB + 1];
  int K = NB + %(has_s)d;
  double gmax = 0.0;
  for (int k = 0; k < K; k++) {
    ad[k] = k < NB ? dbuf[k] : ds;
    double v = k < NB ? b0[k] : s0;
    double h = 1e-6 * (fabs(v) > 1.0 ? fabs(v) : 1.0);
    hk[k] = h;
    fd1[k] = fd(b0, n, s0, k, h);
    fd2[k] = fd(b0, n, s0, k, 2.0 * h);
    if (fabs(fd1[k]) > gmax) gmax = fabs(fd1[k]);
  }
  double floor_ = 1e-8 * gmax + 1e-9 * (fabs(fval) > 1.0 ? fabs(fval) : 1.0);
  int bad = 0, unstable = 0;
  for (int k = 0; k < K; k++) {
    char nm[40];
    coord_name(nm, sizeof nm, k);
    double scale = fabs(fd1[k]) > fabs(ad[k]) ? fabs(fd1[k]) : fabs(ad[k]);
    if (fabs(fd1[k] - fd2[k]) > 1e-6 * fabs(fd1[k]) + 10.0 * floor_) {
      printf("unstable FD %%s: fd(h)=%%.12g fd(2h)=%%.12g ad=%%.12g\\n", nm,
             fd1[k], fd2[k], ad[k]);
      unstable++;
      continue;
    }
    if (!(fabs(ad[k] - fd1[k]) <= 1e-5 * scale + floor_)) {
      /* a second opinion less sensitive to rounding noise in f (which the
         step h amplifies by 1/h): Richardson's extrapolation from the
         steps H = 1e3 h and H/2 (error O(H^4)) */
      double H = 1e3 * hk[k];
      double r = (4.0 * fd(b0, n, s0, k, 0.5 * H) - fd(b0, n, s0, k, H)) / 3.0;
      if (fabs(ad[k] - r) <= 1e-5 * scale + floor_) {
        printf("noisy FD %%s: fd(h)=%%.12g richardson(1e3 h)=%%.12g ad=%%.12g\\n",
               nm, fd1[k], r, ad[k]);
        continue;
      }
      printf("MISMATCH %%s: ad=%%.12g fd=%%.12g (abs err %%.3g) richardson(1e3 h)=%%.12g\\n",
             nm, ad[k], fd1[k], fabs(ad[k] - fd1[k]), r);
      bad++;
    }
  }
  printf("f=%%.12g gmax=%%.6g checked=%%d mismatches=%%d unstable=%%d\\n", fval,
         gmax, K, bad, unstable);
  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
""" % {"seed": self.seed, "defs": self.alias_defs(),
       "s_par": ", double s" if self.has_s else "", "s_arg": ", s" if self.has_s else "",
       "s_p": ", sp" if self.has_s else "", "s_m": ", sm" if self.has_s else "",
       "s_0": s0, "call": call, "has_s": 1 if self.has_s else 0}
        return main.replace("@NAME@", self.ALIAS_NAME)


def split_mode(text):
    """--split: the __enzyme_autodiff call becomes __enzyme_augmentfwd then
    __enzyme_reverse with the same arguments (the adjoint 1.0 of f's double
    result before the tape; the reverse call returns the enzyme_out
    gradient), nothing between them: split mode, including the automatic
    pairing of splitpair.c."""
    m = re.search(r'(ds = )?__enzyme_autodiff\(\(void \*\)f,(.*?)\);', text, re.S)
    if not m:
        return text
    args = m.group(2)
    fdef = re.search(r'^(double|void) f\(', text, re.M)
    dret = ", 1.0" if fdef and fdef.group(1) == "double" else ""
    rep = ("void *lt_tape = __enzyme_augmentfwd((void *)f,%s);\n  "
           "%s__enzyme_reverse_out((void *)f,%s%s, lt_tape);"
           % (args, m.group(1) or "", args, dret))
    text = text[:m.start()] + rep + text[m.end():]
    decl = ("/* --split: __enzyme_reverse returning the enzyme_out gradient */\n"
            "double __enzyme_reverse_out(void *, ...);\n")
    return text.replace("#include <leantape.h>\n", "#include <leantape.h>\n" + decl, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--no-loops", action="store_true",
                    help="emit straight-line code with branches only")
    ap.add_argument("--max-depth", type=int, default=3, help="loop nest depth (1-3)")
    ap.add_argument("--pointers", action="store_true",
                    help="also use pointers: row-pointer arrays, structs with "
                    "pointers, a struct parameter, heap buffers, pointer "
                    "selects, an enzyme_const array c, an enzyme_dupnoneed "
                    "output")
    ap.add_argument("--primal-only", action="store_true",
                    help="replace the __enzyme_autodiff call by a plain call of "
                    "f (for checking the program with sanitizers, no plugin); "
                    "exit 0 unless the program crashes")
    ap.add_argument("--calls", action="store_true",
                    help="f calls generated helpers: small (inlined), recursive "
                    "(direct, mutual, over array halves, writing an output "
                    "array), pointer-returning, noinline, custom gradients")
    ap.add_argument("--cxx", action="store_true",
                    help="emit C++17 (std::vector temporaries, a template "
                    "helper, std::pair results, lambdas; exceptions on or off "
                    "per program, see the fuzz-cxxflags comment)")
    ap.add_argument("--alias", action="store_true",
                    help="main passes x and y as overlapping views of one "
                    "buffer (y == x, y = x + k, x = y + k with 0 < k < N, or "
                    "adjacent, k = N; chosen per seed), the shadows with the "
                    "same layout; gradients are checked per buffer element")
    ap.add_argument("--fwd", action="store_true",
                    help="main checks forward mode instead: __enzyme_fwddiff "
                    "along seed-chosen directions of x, y and the other active "
                    "scalars (enzyme_dup, enzyme_dupnoneed outputs), for some "
                    "seeds enzyme_width 2 or 4 with N shadow pointers or "
                    "enzyme_dupv strides; the tangents of f's result, of x and "
                    "y as f leaves them and of out[] are compared with central "
                    "differences along each direction")
    ap.add_argument("--split", action="store_true",
                    help="main differentiates in split mode: __enzyme_augmentfwd "
                    "then __enzyme_reverse with the same arguments (C, reverse "
                    "mode: not with --cxx or --fwd)")
    ap.add_argument("-o", "--output", help="output file (default stdout)")
    a = ap.parse_args()
    if a.split and (a.cxx or a.fwd):
        ap.error("--split is for C reverse mode (not --cxx, not --fwd)")
    text = Gen(a.seed, loops=not a.no_loops, max_depth=a.max_depth,
               pointers=a.pointers, primal_only=a.primal_only,
               calls=a.calls, cxx=a.cxx, alias=a.alias, fwd=a.fwd).program()
    if a.split and not a.primal_only:
        text = split_mode(text)
    if a.output:
        with open(a.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
