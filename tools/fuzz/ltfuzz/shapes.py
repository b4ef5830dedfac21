"""Shapes: the expressions, conditions, statements and loop nests of f
that every mode shares (the generator without any mode flag, and
--no-loops / --max-depth). Each choice point first offers the active modes
their own leaves and statements (Mode.on_leaf, Mode.on_stmt), in
registration order, then draws one of its own.

Invariants (so that any mismatch is a real AD bug): every index is in
[0, N) for every value its counters can take; array elements, accumulators
and recurrences stay in about [-2, 2] (stores are convex blends with
bounded functions, `+=` steps are scaled by 1/(max iteration count)); math
calls get arguments where they are smooth; no fabs/fmin/fmax; data
comparisons are against constants."""

N = 8  # size of x, y and every local array


class Var:
    """A loop counter in scope with its inclusive value range."""

    def __init__(self, name, lo, hi):
        self.name, self.lo, self.hi = name, lo, hi


class Shapes:
    def c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.r.uniform(lo, hi))

    def arrays(self):
        a = ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]
        for extra in self.each("arrays"):
            a += extra
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
        e = self.first("leaf", scope)
        if e is not None:
            return e
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
        for m in self.active:
            lhs = m.on_cond(self, scope, lhs)
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

    def stmt(self, scope, depth, iters, in_loop, cont_ok, ind):
        """Emit one statement. iters: upper bound on how many times it runs."""
        r = self.r
        self.budget -= 1
        sp = "  " * ind
        lines = self.first("stmt", scope, depth, iters)
        if lines is not None:
            return [sp + l for l in lines]
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

    def step(self, iters):
        """A `+=` step: at most 1/iters, so that sums stay bounded."""
        return "%.6g" % (self.r.uniform(0.2, 1.0) / iters)

    def simple(self, scope, iters):
        r = self.r
        step = self.step(iters)
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

    def counter(self):
        """A new loop counter's name (the generator counts its loops)."""
        self.nloops += 1
        name = "i%d" % self.nvar
        self.nvar += 1
        return name

    def loop(self, scope, depth, iters, ind):
        r = self.r
        sp = "  " * ind
        name = self.counter()
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
