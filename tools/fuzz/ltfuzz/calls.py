"""--calls (every extra draw behind the flag): f calls generated helpers
(ltfuzz/helpers.py), emitted before f: small scalar helpers (inlined),
direct recursion with a depth parameter (linear, tree, with an extra
active parameter), mutual recursion, a recursion over halves of an array,
a recursion that writes an output array and reads it back, helpers
returning a pointer into an array argument (read and written through; one
of them recursive), a struct-reading recursion (with --pointers), tables
of helpers called through a pointer chosen by data (directly or handed to
a noinline helper as a callback), a struct copied through two pointers
at the bottom of a recursion and read back (with --pointers: the copy's
layout known only from the callers), and
sometimes a helper with a registered custom gradient (Enzyme's ABI, the
true derivative). Struct copies are drawn from a stream of their own, so
the programs of earlier seeds that have none stay as they were. Helpers are randomly static and/or noinline, called in
loops, with counters in the depth and offsets; depth <= 4."""
import random

from .helpers import Helpers, kind
from .mode import Mode
from .shapes import N, Var


class Calls(Helpers, Mode):
    name = "calls"
    flag = "--calls"
    help = ("f calls generated helpers: small (inlined), recursive "
            "(direct, mutual, over array halves, writing an output "
            "array), pointer-returning, noinline, custom gradients")

    def on_init(self):
        self.hinit()
        self.cinit()

    def on_leaf(self, scope):
        if self.cnest < 2 and self.r.random() < 0.15:
            return self.cleaf(scope)
        return None

    def on_stmt(self, scope, depth, iters):
        if self.r.random() < 0.2:
            return self.cstmt(scope, depth, iters)
        return None

    def on_finish(self):
        return self.cfinish()

    def cinit(self):
        r = self.r
        self.budget += r.randint(2, 5)
        self.custom_ok = r.random() < 0.35
        self.copy_r = random.Random(self.seed * 7919 + 17)

    @kind("hs")
    def mk_small(self, name):
        r = self.r
        params = ["a", "b"][:r.randint(1, 2)]
        L = ["%sdouble %s(%s) {" % (self.hattr(), name, ", ".join("double " + p for p in params)),
             "  double t = %s;" % self.hexpr(params, need=params)]
        if r.random() < 0.3:  # a data branch inside the helper
            L.append("  if (t > %s) t = 0.5 * t + %s;" % (self.c(-0.5, 0.5, 2), self.c(-0.5, 0.5, 2)))
        L += ["  return %s;" % self.squash("t"), "}"]
        return {"name": name, "np": len(params), "lines": L}

    @kind("hr")
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

    @kind("hm")
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

    @kind("hh")
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

    @kind("hw")
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

    @kind("pk")
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

    @kind("cg")
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

    @kind("ft")
    def mk_ftable(self, name):
        """A table of 2-3 scalar helpers called through a pointer chosen by
        data: table[(k) % m](a, b) (prep/indirect.c dispatches it)."""
        r = self.r
        m = r.randint(2, 3)
        attr = "static " if r.random() < 0.7 else ""
        L = []
        for j in range(m):
            L += ["%sdouble %s_%d(double a, double b) {" % (attr, name, j),
                  "  return %s;" % self.squash(self.hexpr(["a", "b"], need=["a"])), "}"]
        cst = "const " if r.random() < 0.6 else ""
        L.append("static double (*%s%s[%d])(double, double) = {%s};" % (
            cst, name, m, ", ".join("%s_%d" % (name, j) for j in range(m))))
        return {"name": name, "m": m, "lines": L}

    @kind("fc")
    def mk_fcall(self, name):
        """A noinline helper applying a function pointer it is given (a
        callback), with an active parameter of its own."""
        r = self.r
        L = ["__attribute__((noinline)) double %s(double (*g)(double, double), double v, double w) {" % name,
             "  double u = g(v, w);"]
        if r.random() < 0.5:
            L.append("  u = g(u, %s);" % self.squash(self.hexpr(["v", "w"], 1)))
        L += ["  return %s;" % self.combine("u", ["v", "w"]), "}"]
        return {"name": name, "lines": L}

    @kind("hst")
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


    @kind("hsc")
    def mk_scopy(self, name):
        """name_copy(d, s, d): *d = *s (or memcpy) at the bottom of a
        recursion, which stays a call; name(s, d) copies s into a local
        through it and reads the copy (--pointers)."""
        r = self.r
        W = r.randint(2, max(v["w"] for v in self.structs))
        how = "*dst = *src;" if r.random() < 0.5 else "memcpy(dst, src, sizeof *dst);"
        L = ["static void %s_copy(struct S *dst, const struct S *src, int d) {" % name,
             "  if (d <= 0) {",
             "    %s" % how,
             "    return;",
             "  }",
             "  %s_copy(dst, src, d - 1);" % name,
             "}",
             "%sdouble %s(const struct S *s, int d) {" % (self.hattr(), name),
             "  struct S t;",
             "  %s_copy(&t, s, d);" % name,
             "  double e = t.p[(t.k + d) %% %d];" % W,
             "  return %s;" % self.squash(self.hexpr(["e", "t.w"], need=["e"])),
             "}"]
        return {"name": name, "W": W, "lines": L}

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
        kinds = ["small", "small", "rec", "rec", "mut", "halves", "halves", "pickr",
                 "ftable"]
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
        elif k == "ftable":
            h = self.helper("ftable")
            idx = self.index(scope)
            g = "%s[(%s) %% %d]" % (h["name"], idx, h["m"])
            if r.random() < 0.4:
                s = "%s(%s, %s, %s)" % (self.helper("fcall")["name"], g,
                                        self.carg(scope), self.carg(scope))
            else:
                s = "%s(%s, %s)" % (g, self.carg(scope), self.carg(scope))
        elif k == "custom":
            s = "%s(%s)" % (self.helper("custom")["name"], self.carg(scope))
        else:
            h = self.helper("scopy" if self.copy_r.random() < 0.5 else "sread")
            v = r.choice([v for v in self.structs if v["w"] >= h["W"]])
            ref = "sp" if v["name"] == "sp" else "&" + v["elem"](scope)
            s = "%s(%s, %s)" % (h["name"], ref, self.cdepth(scope)[0])
        self.cnest -= 1
        return s

    def cstmt(self, scope, depth, iters):
        """A statement calling helpers (lines relative to the caller's indent)."""
        r = self.r
        step = self.step(iters)
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
        name = self.counter()
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
