#!/usr/bin/env python3
"""Random differential-test program generator for Leantape (issue 3, item 4).

    python3 tools/fuzz/gen.py --seed 42 [--no-loops] [--pointers] [--primal-only] [-o prog.c]

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

--primal-only replaces the __enzyme_autodiff call by a plain call of f (the
FD loop still runs f many times) and exits 0: compile it without the plugin
under -fsanitize=address,undefined to check the invariants above (run.sh -P).
"""
import argparse
import random
import sys

N = 8  # size of x, y and every local array


class Var:
    """A loop counter in scope with its inclusive value range."""

    def __init__(self, name, lo, hi):
        self.name, self.lo, self.hi = name, lo, hi


class Gen:
    def __init__(self, seed, loops=True, max_depth=3, pointers=False,
                 primal_only=False):
        self.r = random.Random(seed)
        self.seed = seed
        self.loops = loops
        self.max_depth_arg = max_depth
        self.max_depth = max_depth if loops else 0
        self.pointers = pointers
        self.primal_only = primal_only
        self.nvar = 0
        self.has_s = self.r.random() < 0.4
        self.nlocal = self.r.randint(0, 2)
        self.naccs = self.r.randint(1, 3)
        self.nrecs = self.r.randint(0, 2)
        self.budget = self.r.randint(5, 14)  # statements left to emit
        self.nloops = 0
        if self.pointers:  # every draw for --pointers comes after the others
            self.pinit()

    # ---------------------------------------------------------------- helpers
    def c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.r.uniform(lo, hi))

    def arrays(self):
        a = ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]
        if self.pointers:
            a += self.heaps
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

    def expr(self, scope, depth=2):
        """A smooth expression; |value| stays moderate (leaves are ~[-2,2])."""
        r = self.r
        if depth == 0 or r.random() < 0.25:
            return self.leaf(scope)
        k = r.random()
        a = self.expr(scope, depth - 1)
        if k < 0.2:
            return "(%s + %s)" % (a, self.expr(scope, depth - 1))
        if k < 0.3:
            return "(%s - %s)" % (a, self.expr(scope, depth - 1))
        if k < 0.5:
            return "(%s * %s)" % (a, self.expr(scope, depth - 1))
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
        return s if writable else s + ["c"] * 2

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
            out = ["  double *%s = malloc(N * sizeof *%s);" % (name, name)]
            if self.loops and r.random() < 0.7:
                out += ["  for (int q = 0; q < N; q++)",
                        "    %s[q] = %s%s;" % (name, g % ("%s[q]" % src),
                                              mix % "(q + 3) % N" if mix else "")]
            else:
                for q in range(N):
                    out.append("  %s[%d] = %s%s;" % (name, q, g % ("%s[%d]" % (src, q)),
                                                    mix % ((q + 3) % N) if mix else ""))
        else:
            out = ["  double *%s = calloc(N, sizeof *%s);" % (name, name)]
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
            out = ["  const double **%s = malloc(%d * sizeof *%s);" % (name, m, name)]
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
                out = ["  struct S *%s = malloc(%d * sizeof *%s);" % (name, m, name)]
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

    def pprogram(self, fn):
        flags = " --pointers" + ("" if self.loops else " --no-loops")
        if self.max_depth_arg != 3:
            flags += " --max-depth %d" % self.max_depth_arg
        head = """\
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
        IS = 2 * N if self.has_s else None
        IW = 2 * N + self.has_s if self.sparam else None
        nv = 2 * N + self.has_s + self.sparam
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
  double ad[NV], fd1[NV], fd2[NV];
  for (int k = 0; k < N; k++) {
    ad[k] = dx[k];
    ad[N + k] = dy[k];
  }
%(ad_extra)s  double gmax = 0.0;
  for (int k = 0; k < NV; k++) {
    double h = 1e-6 * (fabs(v0[k]) > 1.0 ? fabs(v0[k]) : 1.0);
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
      printf("MISMATCH %%s: ad=%%.12g fd=%%.12g (abs err %%.3g)\\n", nm, ad[k],
             fd1[k], fabs(ad[k] - fd1[k]));
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
        if self.pointers:
            out += self.psetup()
        while self.budget > 0:
            out += self.stmt([], 0, 1, False, False, 1)
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
        return out

    def program(self):
        text = self.program_text()
        if self.primal_only:  # no gradients: only the primal runs (sanitizers)
            end = "  if (bad) return 1;\n  if (unstable) return 77;\n  return 0;\n}\n"
            assert text.endswith(end)
            text = text[:-len(end)] + "  (void)bad; (void)unstable;\n  return 0; /* --primal-only */\n}\n"
        return text

    def program_text(self):
        fn = self.function()
        if self.pointers:
            return self.pprogram(fn)
        s_par = ", double s" if self.has_s else ""
        s_arg = ", s" if self.has_s else ""
        head = """\
/* Generated by tools/fuzz/gen.py --seed %(seed)d%(nl)s. Reproduce with
 *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm
 */
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N %(N)d
""" % {"seed": self.seed, "nl": "" if self.loops else " --no-loops", "N": N}
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
  double ad[2 * N + 1], fd1[2 * N + 1], fd2[2 * N + 1];
  int K = 2 * N + %(has_s)d;
  double gmax = 0.0;
  for (int k = 0; k < K; k++) {
    ad[k] = k < N ? dx[k] : k < 2 * N ? dy[k - N] : ds;
    double v = k < N ? x0[k] : k < 2 * N ? y0[k - N] : s0;
    double h = 1e-6 * (fabs(v) > 1.0 ? fabs(v) : 1.0);
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
      printf("MISMATCH %%s: ad=%%.12g fd=%%.12g (abs err %%.3g)\\n", nm, ad[k],
             fd1[k], fabs(ad[k] - fd1[k]));
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
        return head + "\n".join(fn) + "\n" + main


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
    ap.add_argument("-o", "--output", help="output file (default stdout)")
    a = ap.parse_args()
    text = Gen(a.seed, loops=not a.no_loops, max_depth=a.max_depth,
               pointers=a.pointers, primal_only=a.primal_only).program()
    if a.output:
        with open(a.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
