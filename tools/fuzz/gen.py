#!/usr/bin/env python3
"""Random differential-test program generator for Leantape (issue 3, item 4).

    python3 tools/fuzz/gen.py --seed 42 [--no-loops] [-o prog.c]

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
    def __init__(self, seed, loops=True, max_depth=3):
        self.r = random.Random(seed)
        self.seed = seed
        self.loops = loops
        self.max_depth = max_depth if loops else 0
        self.nvar = 0
        self.has_s = self.r.random() < 0.4
        self.nlocal = self.r.randint(0, 2)
        self.naccs = self.r.randint(1, 3)
        self.nrecs = self.r.randint(0, 2)
        self.budget = self.r.randint(5, 14)  # statements left to emit
        self.nloops = 0

    # ---------------------------------------------------------------- helpers
    def c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.r.uniform(lo, hi))

    def arrays(self):
        return ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]

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

    # ---------------------------------------------------------------- program
    def function(self):
        r = self.r
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
        out.append("  return " + " + ".join(terms) + ";")
        out.append("}")
        return out

    def program(self):
        fn = self.function()
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
    ap.add_argument("-o", "--output", help="output file (default stdout)")
    a = ap.parse_args()
    text = Gen(a.seed, loops=not a.no_loops, max_depth=a.max_depth).program()
    if a.output:
        with open(a.output, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
