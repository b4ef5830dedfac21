"""--omp (issue 15; every extra draw behind the flag): f's parallel loops.
Some statements of f become OpenMP worksharing loops, compiled with
-fopenmp (the program's fuzz-openmp line; run.sh adds $FUZZ_OPENMP,
default -fopenmp) and run with the OMP_NUM_THREADS of the caller (1 or 2):
`#pragma omp parallel for`, or a `#pragma omp parallel` region holding one
or two `#pragma omp for` loops (thread-private temporaries at the region's
start; between the loops a `single` block, or `master`/`masked` and a
`barrier`, updating a shared scalar; `nowait` on the last loop), at the top
of f or nested in its serial loops and branches, with schedule(static /
dynamic / guided [, chunk]) or none drawn per loop, sometimes collapse(2)
or num_threads(2). The writes to f's own arrays w<k> (initialised from x
and y, sometimes by a parallel loop) are the loops' targets.

Only really parallel loops: an iteration writes only its own elements of
the loop's target arrays (w[i], w[N - 1 - i], w[(i + k) % N], w[i * B + j]
under collapse(2): one injective index per target and loop) and reads its
own elements of them, any element of the other arrays (read-only in the
loop), the scalars the loop does not update, and private temporaries
declared inside the loop (u<k>; some summed by a private inner loop or
filled into a private array). Shared scalars (the accumulators acc<k>, and
mx0 / mn0) change only through
  * reduction(+:acc) (`+=`/`-=`), reduction(*:acc) (factors near 1),
    reduction(max:mx0) / reduction(min:mn0) (if, ?: or fmax/fmin);
  * `critical` (sometimes named) with a commutative update (`+=`, `-=`, a
    factor near 1); or a non-commutative one (a blend, a tanh, two
    statements, an update reading another scalar), whose result depends on
    the order in which the threads enter: such a loop (or region) gets
    num_threads(1), so that the finite differences are reproducible;
  * `atomic` (`+=`, `-=`, `x = x + e`);
and a loop reads none of the scalars it updates (but a max/min reduction
reads its private copy). Without other f-shaping modes (--pointers,
--calls, --cxx, --eigen) x, y and the t<k> arrays are targets too; with
them only the w<k> arrays, which no pointer or helper view reaches while a
loop writes them. Combines with every option but --no-loops.

With --alias too (main passes x and y as overlapping views of one buffer,
ltfuzz/alias.py), the loops stay race-free under that layout: a loop that
writes x (or y) reads neither it nor the other view where they share
elements with the ones it writes, except the iteration's own element (with
y == x, y[i] is x[i]: the in-place update); x and y are targets of one
loop only where the elements written are apart; and where y = x + k (or x
= y + k), some loops write only the first k elements of the lower view
while reading the whole upper one (a read-only coefficient array inside an
input). The plugin's run-time test of a region's arrays (gen/ompcheck.c)
then sees them overlap, or be apart, as the layout says. Only then does f
depend on --alias (without --pointers, --calls, --cxx, --eigen, whose
loops write only w<k>, x and y are read-only in every loop: f is the
same)."""
from .mode import Mode
from .shapes import N, Var

SCHEDULES = ["", "schedule(static)", "schedule(static, %d)", "schedule(dynamic)",
             "schedule(dynamic, %d)", "schedule(guided)", "schedule(guided, %d)"]


class Omp(Mode):
    name = "omp"
    flag = "--omp"
    help = ("some loops of f are OpenMP parallel loops (parallel for, or a "
            "parallel region with omp for loops, single/master, barrier): "
            "schedules static/dynamic/guided, collapse, reduction(+ * max "
            "min), critical, atomic; compiled with -fopenmp, run with the "
            "caller's OMP_NUM_THREADS")

    shaped_by = ("alias",)  # its loops respect --alias's layout

    @staticmethod
    def on_args(ap, args):
        if args.omp and args.no_loops:
            ap.error("--omp needs loops (not --no-loops)")

    def on_init(self):
        r = self.r
        self.budget += r.randint(1, 3)
        self.o_in = None     # the context of the loop body being generated
        self.o_count = 0     # parallel constructs emitted
        self.o_nt = 0        # private temporaries u<k>, z<k>, pv<k>
        self.o_ncrit = 0
        self.o_ws = ["w%d" % k for k in range(r.randint(1, 3))]
        self.o_own_only = (self.pointers or self.calls or self.cxx
                           or getattr(self, "eigen", False))
        self.o_mx0 = r.random() < 0.5  # mx0 / mn0 start at an active value
        # --alias: x and y overlap in main; loops that may write them keep
        # clear of the elements the other view shares (no draws otherwise)
        self.o_alias = self.alias and not self.o_own_only

    # ------------------------------------------------------------- hooks
    def on_arrays(self):
        if self.o_in is None:
            return list(self.o_ws)
        return [w for w in self.o_ws if w not in self.o_in["targets"]]

    def on_leaf(self, scope):
        if self.o_in is None:
            return None
        return self.oleaf(scope)

    def on_stmt(self, scope, depth, iters):
        if self.o_in is not None or not self.loops or self.budget <= 0 or depth > 1:
            return None
        if self.r.random() < (0.4 if depth == 0 else 0.12):
            return self.oconstruct(scope, iters)
        return None

    def on_locals(self):
        r = self.r
        out = []
        for w in self.o_ws:
            src = r.choice(["x", "y"] + ["t%d" % k for k in range(self.nlocal)])
            g = r.choice(["cos(%s[q])", "tanh(%s[q] + 0.5)", "0.5 * %s[q]", "0.9 * sin(%s[q])"]) % src
            out.append("  double %s[N];" % w)
            if self.loops and r.random() < 0.5:
                out.append("  #pragma omp parallel for%s" % self.osched())
            out += ["  for (int q = 0; q < N; q++)", "    %s[q] = %s;" % (w, g)]
        return out

    def on_setup(self):
        if self.o_mx0:
            return ["  double mx0 = %s, mn0 = %s; /* max / min reductions */" % (
                self.squash("x[%d]" % self.r.randrange(N)), self.squash("y[%d]" % self.r.randrange(N)))]
        return ["  double mx0 = -2.0, mn0 = 2.0; /* max / min reductions */"]

    def on_finish(self):
        out = []
        if self.loops and self.o_count == 0:
            self.budget = max(self.budget, 2)
            out += ["  " + l for l in self.oconstruct([], 1)]
        if self.loops:
            out.append("  acc%d += %s * mx0 + %s * mn0;" % (
                self.r.randrange(self.naccs), self.c(0.2, 0.8, 2), self.c(0.2, 0.8, 2)))
        return out

    def on_head(self):
        return ("/* fuzz-openmp: compile with -fopenmp (run.sh: $FUZZ_OPENMP), run with\n"
                "   OMP_NUM_THREADS=1 or 2 (and OMP_DYNAMIC=false) */\n")

    def on_text(self, text):
        return text.replace(" -O2 -fpass-plugin=", " -O2 -fopenmp -fpass-plugin=", 1)

    # ------------------------------------------------------------ leaves
    def oscalars(self):
        """The shared scalars a loop body may read: those it does not update."""
        upd = self.o_in["upd"]
        s = ["acc%d" % k for k in range(self.naccs)] + ["r%d" % k for k in range(self.nrecs)]
        return [v for v in s if v not in upd]

    def oreadable(self):
        t = self.o_in["targets"]
        span = self.o_in.get("span", {})
        return [a for a in self.arrays() if a not in t and
                not any(self.oclash(a, (0, N - 1), w, span[w]) for w in span)]

    def oview(self, a):
        """With --alias, x's or y's offset in main's buffer; else None."""
        if not self.o_alias or a not in ("x", "y"):
            return None
        return self.a_x if a == "x" else self.a_y

    def oclash(self, a, ra, b, rb):
        """Do elements ra of array a and rb of b (inclusive index ranges)
        share memory, a and b different views of the --alias buffer?"""
        oa, ob = self.oview(a), self.oview(b)
        if oa is None or ob is None or a == b:
            return False
        return oa + ra[0] <= ob + rb[1] and ob + rb[0] <= oa + ra[1]

    def oleaf(self, scope):
        r = self.r
        ctx = self.o_in
        k = r.random()
        if ctx["temps"] and k < 0.3:
            return r.choice(ctx["temps"])
        if ctx["own"] and k < 0.4:
            return "%s[%s]" % r.choice(ctx["own"])
        if k < 0.75:
            rd = self.oreadable()  # (empty only when --alias leaves none)
            if rd:
                return "%s[%s]" % (r.choice(rd), self.index(scope))
            if ctx["own"]:
                return "%s[%s]" % ctx["own"][0]
        if k < 0.8 and self.has_s:
            return "s"
        sc = self.oscalars()
        if k < 0.87 and sc:
            return r.choice(sc)
        if k < 0.93 and scope:
            return "(0.1 * %s)" % r.choice(scope).name
        return self.c(-1.5, 1.5)

    def ocond(self, scope):
        """A data comparison with a constant (private or readable data)."""
        r = self.r
        if self.o_in["temps"] and r.random() < 0.5:
            lhs = r.choice(self.o_in["temps"])
        else:
            lhs = self.oleaf(scope)
        return "%s %s %s" % (lhs, r.choice(["<", ">", "<=", ">="]), self.c(-0.8, 0.8, 2))

    def otemp(self):
        self.o_nt += 1
        return self.o_nt - 1

    # -------------------------------------------------------------- loops
    def osched(self):
        s = self.r.choice(SCHEDULES)
        if "%d" in s:
            s = s % self.r.randint(1, 3)
        return " " + s if s else ""

    def otargets(self, avoid=()):
        r = self.r
        cands = list(self.o_ws)
        if not self.o_own_only:
            cands += ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]
        cands = [c for c in cands if c not in avoid] or list(self.o_ws)
        return r.sample(cands, min(len(cands), r.choice([1, 1, 2])))

    def oplan(self, scope, iters, avoid_t=(), avoid_u=()):
        """A worksharing loop's head, targets and shared-scalar updates
        (before its body, so that what runs beside it can avoid them)."""
        r = self.r
        clauses = []
        name = self.counter()
        kind = r.random()
        gap = abs(self.a_x - self.a_y) if self.o_alias else 0
        coef = 0 < gap < N and r.random() < 0.3
        if coef:  # the lower view's first gap elements, apart from the upper
            lower = "x" if self.a_x < self.a_y else "y"
            heads = ["for (int %s = 0; %s < %d; %s++)" % (name, name, gap, name)]
            vs, flat, hi, cnt = [Var(name, 0, gap - 1)], name, gap - 1, N
        elif kind < 0.15:  # collapse(2) over an A x B grid
            A, B = r.choice([(2, 2), (2, 3), (2, 4), (3, 2), (4, 2), (2, 2)])
            j = self.counter()
            heads = ["for (int %s = 0; %s < %d; %s++)" % (name, name, A, name),
                     "for (int %s = 0; %s < %d; %s++)" % (j, j, B, j)]
            vs = [Var(name, 0, A - 1), Var(j, 0, B - 1)]
            flat, hi, cnt = "%s * %d + %s" % (name, B, j), A * B - 1, A * B
            clauses.append("collapse(2)")
        else:
            if kind < 0.5:
                head = "for (int %s = 0; %s < n; %s++)" % (name, name, name)
                hi = N - 1
            elif kind < 0.65:
                b = r.randint(2, N)
                head = "for (int %s = 0; %s < %d; %s++)" % (name, name, b, name)
                hi = b - 1
            elif kind < 0.8:
                head = "for (int %s = n - 1; %s >= 0; %s--)" % (name, name, name)
                hi = N - 1
            else:
                head = "for (int %s = %d; %s < n; %s += %d)" % (name, r.randint(0, 1), name, name,
                                                             r.choice([2, 3]))
                hi = N - 1
            heads, vs, flat, cnt = [head], [Var(name, 0, hi)], name, N
        outer = [v for v in scope if v.lo >= 0]
        targets, span = {}, {}
        cands = ([lower] if coef and lower not in avoid_t else []) + self.otargets(avoid_t)
        if (self.o_alias and self.a_x == self.a_y and not {"x", "y"} & set(cands)
                and r.random() < 0.6):
            cands += [v for v in [r.choice(["x", "y"])] if v not in avoid_t]  # in place
        for w in cands:
            if w in targets:
                continue
            t = r.random()
            f = flat if flat == name else "(%s)" % flat
            if coef and w == lower:
                idx, sp = flat, (0, hi)
            elif t < 0.45:
                idx, sp = flat, (0, hi)
            elif t < 0.65:
                idx, sp = "%d - %s" % (N - 1, f), (N - 1 - hi, N - 1)
            elif t < 0.85 or not outer:
                idx, sp = "(%s + %d) %% %d" % (f, r.randint(1, N - 1), N), (0, N - 1)
            else:
                idx, sp = "(%s + %s) %% %d" % (f, r.choice(outer).name, N), (0, N - 1)
            if any(self.oclash(w, sp, v, span[v]) for v in span):
                continue  # x and y written where they share elements
            targets[w], span[w] = idx, sp
        # the shared scalars' updates
        kinds = r.sample(["red+", "red+", "red*", "max", "min", "crit", "crit",
                          "critnc", "atomic", "atomic"], r.choice([0, 1, 1, 2, 2, 3]))
        free = ["acc%d" % k for k in range(self.naccs) if "acc%d" % k not in avoid_u]
        r.shuffle(free)
        ups = []
        for kd in kinds:
            if kd in ("max", "min"):
                v = "mx0" if kd == "max" else "mn0"
                if any(u[1] == v for u in ups):
                    continue
            elif not free:
                continue
            else:
                v = free.pop()
            extra = None
            if kd == "critnc" and free and r.random() < 0.3:
                extra = free.pop()  # old value of v read into extra
            ups.append((kd, v, extra))
        upd = {u[1] for u in ups} | {u[2] for u in ups if u[2]}
        iters2 = iters * cnt
        return {"heads": heads, "vars": vs, "targets": targets, "span": span,
                "ups": ups, "upd": upd,
                "clauses": clauses, "iters": iters2, "outer_iters": iters,
                "nc": any(u[0] == "critnc" for u in ups)}

    def obody(self, plan, scope, temps=()):
        """The loop (head lines and body) of a plan; the caller puts the
        directive before it."""
        r = self.r
        sc = scope + plan["vars"]
        saved = self.o_in
        own = sorted(plan["targets"].items())
        if self.o_alias and self.a_x == self.a_y:  # y == x: y[i] is x[i]
            own += [({"x": "y", "y": "x"}[w], i) for w, i in own
                    if w in ("x", "y") and {"x": "y", "y": "x"}[w] not in plan["targets"]]
        ctx = self.o_in = {"targets": set(plan["targets"]), "upd": plan["upd"], "own": own,
                           "span": plan["span"], "temps": list(temps)}
        body = []
        if r.random() < 0.15:
            cond = self.cond_int(sc) if r.random() < 0.6 else self.ocond(sc)
            body.append("if (%s) continue;" % cond)
        for _ in range(r.randint(1, 3)):
            body += self.otempdecl(sc)
        stmts = []
        for w, idx in sorted(plan["targets"].items()):
            stmts.append(self.owrite(sc, w, idx, plan["outer_iters"]))
        for u in plan["ups"]:
            stmts.append(self.oupdate(sc, u, plan["iters"]))
        r.shuffle(stmts)
        for s in stmts:
            body += s
        if self.o_alias and self.a_x == self.a_y:
            body += self.oinplace(plan)
        self.budget -= 1 + len(stmts) // 2
        self.o_in = saved
        red = {}
        for kd, v, _ in plan["ups"]:
            op = {"red+": "+", "red*": "*", "max": "max", "min": "min"}.get(kd)
            if op:
                red.setdefault(op, []).append(v)
        for op, vs in sorted(red.items()):
            if len(vs) > 1 and r.random() < 0.5:
                plan["clauses"] += ["reduction(%s:%s)" % (op, v) for v in vs]
            else:
                plan["clauses"].append("reduction(%s:%s)" % (op, ", ".join(vs)))
        heads = plan["heads"]
        out = heads[:-1] + [heads[-1] + " {"]
        return out + ["  " + l for l in body] + ["}"]

    def oinplace(self, plan):
        """y == x: after the loop's writes, an in-place update of its own
        element of x (or y) read through the other view, whose adjoint
        must reach the element before the reverse of the earlier write
        takes it (a derivative that assumed the views apart would keep
        the other view's adjoints in a per-thread buffer until the
        region's end)."""
        r = self.r
        out = []
        for w, idx in sorted(plan["targets"].items()):
            if w not in ("x", "y") or r.random() < 0.4:
                continue
            o = {"x": "y", "y": "x"}[w]
            a = self.c(0.2, 0.8, 2)
            g = r.choice(["sin(%s)", "tanh(%s + 0.5)", "(%s * %s)", "cos(%s)"])
            e = g.replace("%s", "%s[%s]" % (o, idx))
            out.append("%s[%s] = %s * %s[%s] + %.2f * %s; /* through %s == %s */" % (
                w, idx, a, w, idx, 1 - float(a), e, o, w))
        return out

    def otempdecl(self, sc):
        """A private temporary u<k> declared in the body (value in [-1, 1])."""
        r = self.r
        k = self.otemp()
        u = "u%d" % k
        t = r.random()
        if t < 0.2 and self.budget > 0:  # summed by a private inner loop
            j = self.counter()
            M = r.randint(2, N)
            e = self.squash(self.expr(sc + [Var(j, 0, M - 1)]))
            out = ["double %s = 0.0;" % u, "for (int %s = 0; %s < %d; %s++)" % (j, j, M, j),
                   "  %s += %.6g * %s;" % (u, 1.0 / M, e)]
        elif t < 0.3:  # a private array
            j = self.counter()
            pv = "pv%d" % k
            M = r.randint(2, 4)
            e = self.squash(self.expr(sc + [Var(j, 0, M - 1)]))
            a, b = r.randrange(M), r.randrange(M)
            out = ["double %s[%d];" % (pv, M), "for (int %s = 0; %s < %d; %s++)" % (j, j, M, j),
                   "  %s[%s] = %s;" % (pv, j, e),
                   "double %s = %s;" % (u, self.squash("%s[%d] + %s * %s[%d]" % (
                       pv, a, self.c(-1, 1, 2), pv, b)))]
        else:
            out = ["double %s = %s;" % (u, self.squash(self.expr(sc)))]
        if r.random() < 0.25:
            a = self.c(0.2, 0.8, 2)
            out.append("if (%s) %s = %s * %s + %.2f * %s;" % (
                self.ocond(sc), u, a, u, 1 - float(a), self.squash(self.expr(sc))))
        self.o_in["temps"].append(u)
        return out

    def owrite(self, sc, w, idx, iters):
        """A write of the iteration's own element of target w."""
        r = self.r
        ref = "%s[%s]" % (w, idx)

        def one():
            t = r.random()
            e = self.expr(sc)
            if t < 0.5:
                a = self.c(0.2, 0.8, 2)
                return "%s = %s * %s + %.2f * %s;" % (ref, a, ref, 1 - float(a), self.squash(e))
            if t < 0.8:
                return "%s += %s * %s;" % (ref, self.step(iters), self.squash(e))
            return "%s *= (1.0 + %.6g * %s);" % (ref, 0.5 / iters, self.squash(e))
        if r.random() < 0.25:
            out = ["if (%s) {" % self.ocond(sc), "  " + one()]
            if r.random() < 0.6:
                out += ["} else {", "  " + one()]
            return out + ["}"]
        return [one()]

    def oval(self, sc):
        """A value in [-1, 1] for a shared-scalar update."""
        r = self.r
        if self.o_in["temps"] and r.random() < 0.5:
            u = r.choice(self.o_in["temps"])
            return u if r.random() < 0.5 else self.squash("%s * %s" % (u, self.oleaf(sc)))
        return self.squash(self.expr(sc))

    def oupdate(self, sc, u, iters):
        r = self.r
        kd, v, extra = u
        step = self.step(iters)
        if kd == "red+":
            op = "+=" if r.random() < 0.75 else "-="
            s = ["%s %s %s * %s;" % (v, op, step, self.oval(sc))]
            if r.random() < 0.25:
                s = ["if (%s)" % self.ocond(sc), "  " + s[0]]
            return s
        if kd == "red*":
            return ["%s *= (1.0 + %.6g * %s);" % (v, 0.5 / iters, self.oval(sc))]
        if kd in ("max", "min"):
            val = self.oval(sc)
            cmp = ">" if kd == "max" else "<"
            t = r.random()
            if t < 0.4 and val in self.o_in["temps"]:
                return ["if (%s %s %s) %s = %s;" % (val, cmp, v, v, val)]
            if t < 0.7:
                k = self.otemp()
                return ["double m%d = %s;" % (k, val),
                        "%s = m%d %s %s ? m%d : %s;" % (v, k, cmp, v, k, v)]
            return ["%s = %s(%s, %s);" % (v, "fmax" if kd == "max" else "fmin", v, val)]
        if kd == "atomic":
            t = r.random()
            val = self.oval(sc)
            pr = "#pragma omp atomic" + (" update" if r.random() < 0.3 else "")
            if t < 0.6:
                return [pr, "%s += %s * %s;" % (v, step, val)]
            if t < 0.85:
                return [pr, "%s -= %s * %s;" % (v, step, val)]
            return [pr, "%s = %s + %s * %s;" % (v, v, step, val)]
        # critical sections
        self.o_ncrit += 1
        pr = "#pragma omp critical"
        if r.random() < 0.3:
            pr += "(lt_c%d)" % r.randint(0, 1)
        val = self.oval(sc)
        if kd == "crit":  # commutative
            t = r.random()
            if t < 0.5:
                body = ["%s += %s * %s;" % (v, step, val)]
            elif t < 0.7:
                body = ["%s -= %s * %s;" % (v, step, val)]
            else:
                body = ["%s *= (1.0 + %.6g * %s);" % (v, 0.5 / iters, val)]
        else:  # the order of entry matters
            t = r.random()
            if extra:
                body = ["%s += %s * %s * %s;" % (extra, step, v, val),
                        "%s = %s * %s + %s;" % (v, self.c(0.5, 0.95, 2), v, "%s * %s" % (step, val))]
            elif t < 0.4:
                a = self.c(0.3, 0.9, 2)
                body = ["%s = %s * %s + %.2f * %s;" % (v, a, v, 1 - float(a), val)]
            elif t < 0.7:
                body = ["%s = tanh(%s * %s + %s * %s);" % (v, self.c(0.5, 1.2, 2), v, step, val)]
            else:
                body = ["%s += %s * %s;" % (v, step, val),
                        "%s *= (1.0 + %.6g * %s);" % (v, 0.5 / iters, self.oval(sc))]
        if len(body) == 1 and r.random() < 0.5:
            return [pr, body[0]]
        return [pr, "{"] + ["  " + l for l in body] + ["}"]

    # ---------------------------------------------------------- constructs
    def oconstruct(self, scope, iters):
        """A parallel for, or a parallel region of omp for loops. --cxx
        leaves stay outside: a lambda capturing by reference reads the
        scalars the loop updates, and clang cannot capture a structured
        binding in a region."""
        xr = self.xready if self.cxx else None
        if self.cxx:
            self.xready = False
        out = self.oconstruct1(scope, iters)
        if self.cxx:
            self.xready = xr
        return out

    def oconstruct1(self, scope, iters):
        r = self.r
        self.o_count += 1
        self.budget -= 1
        if r.random() < 0.7:
            plan = self.oplan(scope, iters)
            loop = self.obody(plan, scope)
            cl = plan["clauses"] + ["num_threads(1)"] * plan["nc"]
            if not plan["nc"] and r.random() < 0.15:
                cl.append("num_threads(2)")
            d = "#pragma omp parallel for" + self.osched() + "".join(" " + c for c in cl)
            return [d] + loop
        # a region: [private temporaries] for-loop [single / master + barrier] [for-loop]
        p1 = self.oplan(scope, iters)
        two = r.random() < 0.6
        zs, zl = [], []
        if r.random() < 0.5:
            saved = self.o_in
            self.o_in = {"targets": set(p1["targets"]), "upd": set(p1["upd"]), "own": [],
                         "span": p1["span"], "temps": []}
            k = self.otemp()
            zl.append("double z%d = %s; /* thread-private */" % (k, self.squash(self.expr(scope))))
            zs.append("z%d" % k)
            self.o_in = saved
        body = list(zl)
        l1 = self.obody(p1, scope, zs)
        nc = p1["nc"]
        last_nowait = r.random() < 0.3
        body += ["#pragma omp for" + self.osched() + "".join(" " + c for c in p1["clauses"])
                 + (" nowait" if last_nowait and not two else "")] + l1
        if two:
            if r.random() < 0.4:
                # one thread updates a shared scalar between the loops
                saved = self.o_in
                self.o_in = {"targets": set(), "upd": set(), "own": [], "temps": list(zs)}
                v = "acc%d" % r.randrange(self.naccs)
                self.o_in["upd"] = {v}
                st = "%s += %s * %s;" % (v, self.step(iters), self.squash(self.expr(scope)))
                self.o_in = saved
                if r.random() < 0.5:
                    body += ["#pragma omp single", "{", "  " + st, "}"]
                else:
                    body += ["#pragma omp %s" % r.choice(["master", "masked"]), "{", "  " + st, "}",
                             "#pragma omp barrier"]
            p2 = self.oplan(scope, iters)
            nc = nc or p2["nc"]
            l2 = self.obody(p2, scope, zs)
            body += ["#pragma omp for" + self.osched() + "".join(" " + c for c in p2["clauses"])
                     + (" nowait" if last_nowait else "")] + l2
        d = "#pragma omp parallel"
        if nc:
            d += " num_threads(1)"
        elif r.random() < 0.15:
            d += " num_threads(2)"
        return [d, "{"] + ["  " + l for l in body] + ["}"]
