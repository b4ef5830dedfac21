"""--scratch: each time step (of --timeloop or --timeloop-while, or
without them of a time loop of n / 2 steps of its own, before f's
statements, taped as any loop) begins
with a stencil computed into a scratch array tsc and copied back into x,
as time steppers write them (Burgers: tmp[i] = f(u[i-1], u[i], u[i+1]),
then u[i] = tmp[i]). What the snapshots of a checkpointed step hold
depends on its shape (analysis/steprun.c): drawn from the mode's own
stream, tsc is
  - written before it is read (left out of the snapshots),
  - read before it is written, tsc[i] = 0.5 tsc[i] + ... (kept),
  - written at 1..n-2 and read up to n-1 by the copy back (kept),
  - the same with a second scratch row written first (left out),
  - y itself (left out unless x's reads reach it: with --alias, y and x
    overlap, the run-time test keeps it);
the stencil is affine or goes through sin. Half the programs keep at most
two of f's random statements, whose branches and wrapped indices would
mostly keep the step from being checkpointed at all. About a third also
run a restrict step function fz_step(a, b) over two buffers that are
swapped after each step (once inlined, two PHIs of the time loop: LLVM's
alias analysis holds them apart within an iteration only; the overwrite
analysis took that for all iterations, a silent wrong gradient)."""
import random

from .mode import Mode


class Scratch(Mode):
    name = "scratch"
    flag = "--scratch"
    help = ("a time loop (--timeloop[-while]'s, or one of its own) whose steps "
            "start with a stencil into a scratch array copied back into x "
            "(write-first, read-first or partly written scratch; y itself), and "
            "sometimes an inlined restrict step over two swapped buffers")

    def on_init(self):
        own = random.Random(self.seed * 7933 + 41)
        self.sc_shape = own.choice(["first", "readfirst", "partial", "rows", "y"])
        self.sc_sin = own.random() < 0.5
        self.sc_coef = round(own.uniform(0.02, 0.1), 3)
        if own.random() < 0.5:
            self.budget = min(self.budget, own.randint(0, 2))
        self.sc_swap = own.random() < 0.33

    def on_head(self):
        if not self.sc_swap:
            return ""
        return ("static inline void fz_step(const double *__restrict a, double *__restrict b,\n"
                "                           const double *c, int n) {\n"
                "  for (int i = 1; i < n - 1; i++)\n"
                "    b[i] = a[i] + %g * a[i] * (a[i + 1] - a[i - 1]) + 0.05 * c[i];\n"
                "}\n" % self.sc_coef)

    def on_locals(self):
        lines = ["  double tsc[N], tsd[N];",
                 "  for (int q = 0; q < N; q++)",
                 "    tsc[q] = 0.1 * y[q], tsd[q] = 0.2 * y[q];"]
        if self.sc_swap:
            lines += ["  double sw0[N], sw1[N], *swa = sw0, *swb = sw1;",
                      "  for (int q = 0; q < N; q++)",
                      "    sw0[q] = 0.3 * y[q], sw1[q] = 0.0;"]
        return lines

    def on_setup(self):
        c = self.sc_coef
        rhs = ("x[i] + %g * sin(x[i + 1] - x[i - 1])" % c if self.sc_sin else
               "x[i] + %g * x[i] * (x[i + 1] - x[i - 1])" % c)
        body = {
            "first": ["    tsc[i] = %s;" % rhs],
            "readfirst": ["    tsc[i] = 0.5 * tsc[i] + 0.5 * (%s);" % rhs],
            "partial": ["    tsc[i] = %s;" % rhs],
            "rows": ["    tsd[i] = %g * x[i];" % c, "    tsc[i] = %s + tsd[i];" % rhs],
            "y": ["    y[i] = %s;" % rhs],
        }[self.sc_shape]
        back = ("    x[i] = 0.5 * (tsc[i] + tsc[i + 1]);" if self.sc_shape == "partial"
                else "    x[i] = y[i];" if self.sc_shape == "y" else "    x[i] = tsc[i];")
        lines = ["  for (int i = 1; i < n - 1; i++) {"] + body + ["  }"]
        lines += ["  for (int i = 1; i < n - 1; i++)", back]
        if self.sc_swap:
            lines += ["  fz_step(swa, swb, x, n);",
                      "  { double *sww = swa; swa = swb; swb = sww; }",
                      "  for (int i = 1; i < n - 1; i++)",
                      "    x[i] = 0.5 * (x[i] + swa[i]);"]
        if not (self.timeloop or self.timeloop_while):
            # a time loop of its own, n / 2 steps (not unrolled), before
            # f's statements
            lines = (["  for (int ts = 0; ts < n / 2; ts++) {"] + ["  " + l for l in lines] +
                     ["  }"])
        return lines

