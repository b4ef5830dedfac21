"""--scratch (with --timeloop or --timeloop-while): each time step begins
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
mostly keep the step from being checkpointed at all."""
import random

from .mode import Mode


class Scratch(Mode):
    name = "scratch"
    flag = "--scratch"
    help = ("with --timeloop[-while]: each step starts with a stencil into a "
            "scratch array and a copy back into x (write-first, read-first or "
            "partly written scratch)")

    def on_init(self):
        own = random.Random(self.seed * 7933 + 41)
        self.sc_shape = own.choice(["first", "readfirst", "partial", "rows", "y"])
        self.sc_sin = own.random() < 0.5
        self.sc_coef = round(own.uniform(0.02, 0.1), 3)
        if own.random() < 0.5:
            self.budget = min(self.budget, own.randint(0, 2))

    def on_locals(self):
        return ["  double tsc[N], tsd[N];",
                "  for (int q = 0; q < N; q++)",
                "    tsc[q] = 0.1 * y[q], tsd[q] = 0.2 * y[q];"]

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
        return lines + ["  for (int i = 1; i < n - 1; i++)", back]

    @staticmethod
    def on_args(ap, args):
        if args.scratch and not (args.timeloop or args.timeloop_while):
            ap.error("--scratch needs --timeloop or --timeloop-while")
