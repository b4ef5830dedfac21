"""--adaptive: f integrates small ODE systems (1 to 3 states) with an
adaptive step size: a loop whose trip count depends on the data, whose
exit depends on an active error estimate, like an embedded Runge-Kutta
integrator: while (t < T and under a maximum number of iterations) { if
t + h would pass T, clip h to T - t; take a step with h; estimate the
error from two orders (Heun-Euler 2(1), Bogacki-Shampine 3(2) with its
fourth stage, or step doubling of the midpoint rule); if err <= tol,
accept (t += h, state updated, leave after the clipped last step); then
scale h by 0.9 (tol / err)^(1/(p+1)) clamped to [0.2, 4] (a rejected step
retries with the smaller h) }. The right-hand sides are smooth, damped
(-b u) and bounded functions of the state, t and parameters; the
parameters, the initial state and sometimes T are active (expressions of
f's data at the call site), the state is a local array or a slice of x, y
or f's arrays updated in place. The right-hand side is a static function
(sometimes noinline), or with --cxx a lambda capturing the parameters and
sometimes a std::vector state; with --calls the whole integrator is
sometimes a (noinline) helper taking the state and parameters by pointer.
What f returns uses the final state and sometimes the final step size.

Finite differences see the same control flow at x and x +- h unless an
accept/reject decision (err against tol) or a clamp of the step factor
flips within the step, which central differences at the sample point
(steps 1e-6 relative) almost never meet: the program's check reports such
a point as UNSTABLE. Every draw is behind the flag (after the draws of the
modes before it), so the programs of the other flags do not change."""
from .helpers import Helpers
from .mode import Mode
from .shapes import N

# method: (name, error order p, stages in the comment)
METHODS = {"he": "Heun-Euler 2(1)", "bs": "Bogacki-Shampine 3(2)",
           "dbl": "step doubling of the midpoint rule"}


class Adaptive(Helpers, Mode):
    name = "adaptive"
    flag = "--adaptive"
    help = ("f integrates small ODEs with an adaptive step size: "
            "loops with a data-dependent trip count whose exit depends "
            "on an active error estimate (accept/reject, step-size "
            "control, a maximum iteration count)")

    def on_init(self):
        self.hinit()
        r = self.r
        self.budget += r.randint(0, 2)
        self.a_count = 0
        self.a_max = r.randint(1, 2)

    def on_stmt(self, scope, depth, iters):
        if self.a_count < self.a_max and len(scope) <= 1 and self.r.random() < 0.15:
            return self.astmt(scope, iters)
        return None

    def on_finish(self):
        if self.a_count == 0:
            return ["  " + l for l in self.astmt([], 1)]
        return []

    def on_text(self, text):
        from .eigen import finite_check
        return finite_check(text)

    # ------------------------------------------------------------------
    def arhs_body(self, D, P, u, p, du):
        """Lines computing du[0..D) from u, p and t (bounded, damped)."""
        names = ["%s[%d]" % (u, q) for q in range(D)] + ["%s[%d]" % (p, k) for k in range(P)] + ["t"]
        L = []
        for q in range(D):
            e = self.hexpr(names, 2, need=["%s[%d]" % (u, q)] + (["%s[%d]" % (p, q % P)]))
            L.append("%s[%d] = %s * %s - %s * %s[%d];" % (du, q, self.c(0.5, 1.5, 2), self.squash(e),
                                                         self.c(0.2, 1.0, 2), u, q))
        return L

    def arhs_fn(self, D, P):
        """A static right-hand side function (a helper before f)."""
        r = self.r
        name = "arhs%d" % len(self.hk.setdefault("arhs", []))
        ni = "__attribute__((noinline)) " if r.random() < 0.3 else ""
        L = ["%sstatic void %s(double t, const double *u, const double *p, double *du) {" % (ni, name)]
        L += ["  " + l for l in self.arhs_body(D, P, "u", "p", "du")] + ["}"]
        self.hk["arhs"].append(name)
        self.hdefs.append(L)
        return name

    def astep_lines(self, m, D, call, tol2, u, t, h):
        """The step and its error estimate: lines setting un[] (the new
        state) and err2 (its squared error norm)."""
        d = "for (int aq = 0; aq < %d; aq++)" % D
        if m == "he":
            return ["double k1[%d], k2[%d], us[%d], un[%d];" % (D, D, D, D),
                    call(t, u, "k1"),
                    "%s us[aq] = %s[aq] + %s * k1[aq];" % (d, u, h),
                    call("%s + %s" % (t, h), "us", "k2"),
                    "double err2 = 0.0;",
                    "%s {" % d,
                    "  un[aq] = %s[aq] + 0.5 * %s * (k1[aq] + k2[aq]);" % (u, h),
                    "  double e = 0.5 * %s * (k2[aq] - k1[aq]);" % h,
                    "  err2 += e * e;",
                    "}"]
        if m == "bs":
            return ["double k1[%d], k2[%d], k3[%d], k4[%d], us[%d], un[%d];" % ((D,) * 6),
                    call(t, u, "k1"),
                    "%s us[aq] = %s[aq] + 0.5 * %s * k1[aq];" % (d, u, h),
                    call("%s + 0.5 * %s" % (t, h), "us", "k2"),
                    "%s us[aq] = %s[aq] + 0.75 * %s * k2[aq];" % (d, u, h),
                    call("%s + 0.75 * %s" % (t, h), "us", "k3"),
                    "%s un[aq] = %s[aq] + %s * (2.0 / 9.0 * k1[aq] + 1.0 / 3.0 * k2[aq] + 4.0 / 9.0 * k3[aq]);"
                    % (d, u, h),
                    call("%s + %s" % (t, h), "un", "k4"),
                    "double err2 = 0.0;",
                    "%s {" % d,
                    "  double e = %s * (-5.0 / 72.0 * k1[aq] + 1.0 / 12.0 * k2[aq] + 1.0 / 9.0 * k3[aq]"
                    " - 0.125 * k4[aq]);" % h,
                    "  err2 += e * e;",
                    "}"]
        # step doubling: one midpoint step of h against two of h / 2
        mid = lambda t0, hh, src, dst: [
            call(t0, src, "ks"),
            "%s us[aq] = %s[aq] + 0.5 * %s * ks[aq];" % (d, src, hh),
            call("%s + 0.5 * %s" % (t0, hh), "us", "ks"),
            "%s %s[aq] = %s[aq] + %s * ks[aq];" % (d, dst, src, hh)]
        return (["double ks[%d], us[%d], u1[%d], u2[%d], un[%d];" % ((D,) * 5)]
                + mid(t, h, u, "u1") + mid(t, "0.5 * %s" % h, u, "u2")
                + mid("%s + 0.5 * %s" % (t, h), "0.5 * %s" % h, "u2", "un")
                + ["double err2 = 0.0;",
                   "%s {" % d,
                   "  double e = (un[aq] - u1[aq]) / 3.0;",
                   "  un[aq] += e; /* local extrapolation */",
                   "  err2 += e * e;",
                   "}"])

    def aloop(self, m, D, call, u, T, tol, h0, maxit, ret):
        """The adaptive loop (lines), on state u (D doubles), until T."""
        r = self.r
        p = {"he": 1, "bs": 2, "dbl": 2}[m]
        tol2 = "%.1e" % (tol * tol)
        fac = "0.9 * pow(%s / (err2 + 1e-24), %.6g)" % (tol2, 0.5 / (p + 1))
        d = "for (int aq = 0; aq < %d; aq++)" % D
        clamp = (["if (afac > 4.0) afac = 4.0;", "if (afac < 0.2) afac = 0.2;"]
                 if r.random() < 0.6 else
                 ["afac = afac > 4.0 ? 4.0 : afac < 0.2 ? 0.2 : afac;"])
        body = ["ait++;", "int alast = 0;",
                "if (at + ah >= %s) { /* the last step ends at T */" % T,
                "  ah = %s - at;" % T, "  alast = 1;", "}"]
        body += self.astep_lines(m, D, call, tol2, u, "at", "ah")
        body += ["double afac = %s;" % fac] + clamp
        acc_lines = ["at += ah;", "%s %s[aq] = un[aq];" % (d, u), "nacc++;"]
        if r.random() < 0.5:
            body += ["if (err2 <= %s) { /* accept */" % tol2] + ["  " + l for l in acc_lines]
            body += ["  if (alast)", "    break;", "}"]
            if r.random() < 0.5:
                body += ["ah *= afac;"]
            else:
                body += ["ah = err2 <= %s ? ah * afac : ah * (afac < 0.5 ? afac : 0.5);" % tol2]
        else:
            body += ["if (err2 > %s) { /* reject: retry with a smaller step */" % tol2,
                     "  ah *= afac < 0.5 ? afac : 0.5;", "  continue;", "}"]
            body += acc_lines + ["ah *= afac;", "if (alast)", "  break;"]
        head = ["double at = 0.0, ah = %s;" % h0, "int ait = 0, nacc = 0;"]
        if r.random() < 0.5:
            loop = ["while (at < %s && ait < %d) {" % (T, maxit)]
        else:
            loop = ["for (; ait < %d && at < %s;) {" % (maxit, T)]
        return head + loop + ["  " + l for l in body] + ["}"] + ret

    def astmt(self, scope, iters):
        """A block integrating one ODE (lines relative to the caller's indent)."""
        r = self.r
        self.a_count += 1
        k = self.a_count - 1
        D, P = r.randint(1, 3), r.randint(1, 3)
        m = r.choice(["he", "bs", "dbl"])
        tol = r.choice({"he": [1e-2, 3e-3, 1e-3], "bs": [1e-3, 1e-4, 1e-5],
                        "dbl": [1e-3, 1e-4, 3e-5]}[m])
        h0 = self.c(0.05, 0.4, 2)
        maxit = r.choice([60, 100, 200])
        step = self.step(iters)
        acc = "acc%d" % r.randrange(self.naccs)
        out = ["{ /* an adaptive %s integrator, tol %.0e */" % (METHODS[m], tol)]
        out.append("  double ap%d[%d] = { %s };" % (k, P, ", ".join(
            self.squash(self.expr(scope, 1)) for _ in range(P))))
        # the state: a local array (or std::vector), or a slice of an array
        arrs = [a for a in ["x", "y"] + ["t%d" % j for j in range(self.nlocal)]]
        t = r.random()
        if t < 0.3:
            a = r.choice(arrs)
            off = r.randint(0, N - D)
            u = "au%d" % k
            out.append("  double *%s = %s + %d; /* integrated in place */" % (u, a, off))
        else:
            u = "au%d" % k
            init = ", ".join(self.squash(self.expr(scope, 1)) for _ in range(D))
            if self.cxx and r.random() < 0.4:
                out.append("  std::vector<double> %sv = { %s };" % (u, init))
                out.append("  double *%s = %sv.data();" % (u, u))
            else:
                out.append("  double %s[%d] = { %s };" % (u, D, init))
        if r.random() < 0.35:
            T = "aT%d" % k
            out.append("  double %s = %s + 0.4 * tanh(%s); /* an active end time */" % (
                T, self.c(0.8, 1.5, 2), self.expr(scope, 1)))
        else:
            T = self.c(0.5, 2.0, 2)
        ap = "ap%d" % k
        style = "fn"
        if self.cxx and r.random() < 0.6:
            style = "lam"
        if self.calls and r.random() < 0.5:
            style = "int"
        out_end = []
        if style == "lam":
            lam = "arl%d" % k
            body = self.arhs_body(D, P, "u", ap, "du")
            out.append("  auto %s = [&](double t, const double *u, double *du) {" % lam)
            out += ["    " + l for l in body] + ["  };"]
            call = lambda t_, src, dst: "%s(%s, %s, %s);" % (lam, t_, src, dst)
        else:
            fn = self.arhs_fn(D, P)
            pname = ap if style == "fn" else "p"
            call = lambda t_, src, dst: "%s(%s, %s, %s, %s);" % (fn, t_, src, pname, dst)
        hfin = r.random() < 0.4 and style != "int"
        if style == "int":
            name = "aint%d" % len(self.hk.setdefault("aint", []))
            ni = "__attribute__((noinline)) " if r.random() < 0.5 else ""
            Tp = "T" if not T[0].isdigit() else T
            L = ["%sstatic int %s(double *u, const double *p%s) {" % (
                ni, name, ", double T" if Tp == "T" else "")]
            L += ["  " + l for l in self.aloop(m, D, call, "u", Tp, tol, h0, maxit, ["return nacc;"])]
            L.append("}")
            self.hk["aint"].append(name)
            self.hdefs.append(L)
            c = "%s(%s, %s%s)" % (name, u, ap, ", " + T if Tp == "T" else "")
            out.append("  " + (c + ";" if r.random() < 0.6 else "int an%d = %s; (void)an%d;" % (k, c, k)))
        else:
            out += ["  " + l for l in self.aloop(m, D, call, u, T, tol, h0, maxit, ["(void)nacc;"])]
        terms = ["%s * %s[%d]" % (self.c(0.3, 1.0, 2), u, q) for q in range(D) if q == 0 or r.random() < 0.6]
        if hfin:
            terms.append("%s * tanh(ah)" % self.c(0.2, 1.0, 2))
        out_end.append("  %s += %s * %s;" % (acc, step, self.squash(" + ".join(terms))))
        return out + out_end + ["}"]
