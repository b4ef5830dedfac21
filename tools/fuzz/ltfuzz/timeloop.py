"""--timeloop: f's random statements run TT times (2 to 6, drawn from the
mode's own stream) inside an outer loop `for (int tt = 0; tt < TT; tt++)`:
a time loop whose steps update the accumulators, recurrences, local arrays
and x, y in place, which -leantape-checkpoint makes a step function and
checkpoints (prep/outline.c, gen/ckpt.c) when a step's writes can be
bounded. The program's head says `fuzz-timeloop`; tools/fuzz/run.sh then
compiles it with -mllvm -leantape-checkpoint and runs it with a tape budget
of one byte (one snapshot: every step run again from the first). About
one program in three gives the budget on the call instead
(`enzyme_tape_budget, 1`; its head says `fuzz-timeloop: budget marker`, and
run.sh then adds neither the option nor the environment's budget)."""
import random

from .mode import Mode


class Timeloop(Mode):
    name = "timeloop"
    flag = "--timeloop"
    help = ("wrap f's statements in a time loop of 2-6 steps, checkpointed "
            "(run.sh: -leantape-checkpoint, LEANTAPE_TAPE_BUDGET=1)")

    def on_init(self):
        # its own stream: the statements of f are those of the same seed
        # without the flag
        r = random.Random(self.seed * 7919 + 17)
        self.tt_steps = r.randint(2, 6)
        self.tt_marker = r.random() < 0.33

    def on_head(self):
        return "#define TT %d\n/* fuzz-timeloop%s */\n" % (
            self.tt_steps, ": budget marker" if self.tt_marker else "")

    def on_setup(self):
        return ["  for (int tt = 0; tt < TT; tt++) {"]

    def on_finish(self):
        return ["  }"]

    def on_text(self, text):
        if not self.tt_marker:
            return text
        return text.replace("__enzyme_autodiff((void *)f,",
                            "__enzyme_autodiff((void *)f, enzyme_tape_budget, 1,")


class StepsVar(Mode):
    """--steps-var (implies --timeloop): the number of steps comes from f's
    run-time n (n - N + TT: the same count, opaque to the optimiser), so
    that no optimisation level unrolls the time loop before the plugin sees
    it (a constant TT of 2-6 steps is unrolled from -O1 on, and nothing is
    checkpointed): the optimised steps' checkpointed reversal
    (gen/ckptdead.c's taped run of the step being reversed) gets
    exercised. f is the same text."""
    name = "steps_var"
    flag = "--steps-var"
    help = ("with --timeloop: the step count is n - N + TT, known at run "
            "time only (the time loop stays a loop at every -O level)")
    implies = ("timeloop",)

    def on_text(self, text):
        head = "#define TT %d\n" % self.tt_steps
        return text.replace(head, "#define TT (n - N + %d)\n" % self.tt_steps, 1)


class Grid(Mode):
    """--grid (implies --steps-var): each step first sweeps x as a grid of
    n / 4 rows of 4 (2 x 4 for N = 8; both counts known at run time only),
    u <- u + dt c(u) lap(u) over the interior columns of rows 1.., in place
    point by point or through a local scratch grid copied back. After the
    outliner's loop-rotate the column loop sits under its guard (gc > 2)
    inside the row loop: the shape lib/analysis/steprun.c checkpoints when
    the guard is known where the step starts (test/Integration/
    checkpoint-diffusion2d.c). Draws from its own stream."""
    name = "grid"
    flag = "--grid"
    help = ("with --steps-var: each step starts with a 2-D sweep of x as a "
            "grid of run-time size, in place or through a scratch grid")
    implies = ("timeloop", "steps_var")

    def on_init(self):
        r = random.Random(self.seed * 104729 + 7)
        self.g_inplace = r.random() < 0.5
        self.g_coef = r.choice(["(1.0 + v * v)", "tanh(v)", "(2.0 + sin(v))",
                                "exp(-v * v)"])
        self.g_dt = r.choice(["0.03", "0.05", "0.07"])
        self.g_up = r.random() < 0.7  # the row above in the Laplacian

    def on_setup(self):
        swap = getattr(self, "swap", False)
        src = "ga" if swap else "x"
        tgt = "gb" if swap else "x" if self.g_inplace else "gsc"
        lap = "%s[gi * gc + gj - 1] + %s[gi * gc + gj + 1] - 2.0 * v" % (src, src)
        if self.g_up:
            lap += " + %s[(gi - 1) * gc + gj] - v" % src
        lines = ["  {",
                 "    int gr = n / 4, gc = n / gr;",
                 "    double gsc[N];",
                 "    for (int gi = 1; gi < gr; gi++)",
                 "      for (int gj = 1; gj < gc - 1; gj++) {",
                 "        double v = %s[gi * gc + gj];" % src,
                 "        %s[gi * gc + gj] = v + %s * %s * (%s);" % (
                     tgt, self.g_dt, self.g_coef, lap),
                 "      }"]
        if swap:
            return lines + ["    double *gt = ga;", "    ga = gb;", "    gb = gt;", "  }"]
        if not self.g_inplace:
            lines += ["    for (int gi = 1; gi < gr; gi++)",
                      "      for (int gj = 1; gj < gc - 1; gj++)",
                      "        x[gi * gc + gj] = gsc[gi * gc + gj];"]
        return lines + ["  }"]


class Swap(Mode):
    """--swap (implies --grid): the grid sweep of each step reads one buffer
    and writes the other, two local arrays made from x that nothing else
    reads, which then swap through pointers declared before the time loop
    (the last state joins x[0] after it): a double-buffered stencil, whose
    pointers the outliner carries in cells that only change places (a
    permutation), so that a snapshot leaves out the buffer a step writes
    before it reads it (gen/snapshot.c rotated_first; test/Integration/
    checkpoint-swapped.c). Draws nothing: --grid's programs are unchanged."""
    name = "swap"
    flag = "--swap"
    help = ("with --grid: the sweep goes from one buffer into the other, x and "
            "a local copy, swapped through pointers after each step")
    implies = ("timeloop", "steps_var", "grid")

    def on_locals(self):
        return ["  double gA[N], gB[N];",
                "  for (int k = 0; k < N; k++)",
                "    gA[k] = x[k], gB[k] = 0.5 * x[k];",
                "  double *ga = gA, *gb = gB;"]

    def on_finish(self):
        # after the time loop (Timeloop's brace comes first): the last state
        return ["  x[0] += 0.25 * ga[n / 2 + 1];"]
