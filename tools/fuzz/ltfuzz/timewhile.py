"""--timeloop-while: as --timeloop, but the time loop is a while loop whose
exit depends on an active value, `while (tt_c < TT) { ...; tt_c += 0.75 +
0.25 * tanh(y[0]); }` (TT from 2 to 4, drawn from the mode's own stream):
between TT and 2 TT steps, a number known only when the loop ends, which
-leantape-checkpoint checkpoints online (prep/outline.c, gen/ckptol.c).
The head says `fuzz-timeloop`, so tools/fuzz/run.sh compiles the program
with -mllvm -leantape-checkpoint and runs it with a tape budget of one
byte (one snapshot slot)."""
import random

from .mode import Mode


class TimeWhile(Mode):
    name = "timeloop_while"
    flag = "--timeloop-while"
    help = ("wrap f's statements in a while loop with a data-dependent exit "
            "(2-8 steps), checkpointed online (run.sh: -leantape-checkpoint, "
            "LEANTAPE_TAPE_BUDGET=1)")

    def on_init(self):
        # its own stream: the statements of f are those of the same seed
        # without the flag
        self.tw_steps = random.Random(self.seed * 7927 + 29).randint(2, 4)

    def on_head(self):
        return "#define TW %d\n/* fuzz-timeloop (while) */\n" % self.tw_steps

    def on_setup(self):
        return ["  double tt_c = 0;", "  while (tt_c < TW) {"]

    def on_finish(self):
        return ["  tt_c += 0.75 + 0.25 * tanh(y[0]);", "  }"]
