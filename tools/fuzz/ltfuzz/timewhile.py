"""--timeloop-while: as --timeloop, but the time loop is a while loop whose
exit depends on an active value, `while (tt_c < TT) { ...; tt_c += 0.75 +
0.25 * tanh(y[0]); }` (TT from 2 to 4, drawn from the mode's own stream):
between TT and 2 TT steps, a number known only when the loop ends, which
-leantape-checkpoint checkpoints online (prep/outline.c, gen/ckptol.c).
The head says `fuzz-timeloop`, so tools/fuzz/run.sh compiles the program
with -mllvm -leantape-checkpoint and runs it with a tape budget of one
byte (one snapshot slot).

With --pointers, about every other seed passes f's enzyme_const array c
as a static const table c_tab (in .rodata; main's c0, what the finite
differences use, takes its values): what the steps only read is then
read-only, and a snapshot that writes it (putting back what the steps
read, gen/ckpt.c) crashes."""
import random
import re

from .mode import Mode
from .shapes import N


class TimeWhile(Mode):
    name = "timeloop_while"
    flag = "--timeloop-while"
    help = ("wrap f's statements in a while loop with a data-dependent exit "
            "(2-8 steps), checkpointed online (run.sh: -leantape-checkpoint, "
            "LEANTAPE_TAPE_BUDGET=1)")

    def on_init(self):
        # its own stream: the statements of f are those of the same seed
        # without the flag
        own = random.Random(self.seed * 7927 + 29)
        self.tw_steps = own.randint(2, 4)
        self.tw_table = ([round(own.uniform(-1, 1), 6) for _ in range(N)]
                         if self.pointers and not self.primal_only and own.random() < 0.5
                         else None)

    def on_head(self):
        head = "#define TW %d\n/* fuzz-timeloop (while) */\n" % self.tw_steps
        if self.tw_table:
            head += ("/* --timeloop-while: f's c is this table, read-only */\n"
                     "static const double c_tab[N] = {%s};\n"
                     % ", ".join("%g" % v for v in self.tw_table))
        return head

    def on_setup(self):
        return ["  double tt_c = 0;", "  while (tt_c < TW) {"]

    def on_finish(self):
        return ["  tt_c += 0.75 + 0.25 * tanh(y[0]);", "  }"]

    def on_text(self, text):
        if not self.tw_table:
            return text
        fill = "  for (int i = 0; i < N; i++) c0[i] = rnd();\n"
        assert fill in text and re.search(r"enzyme_const, c\b", text)
        text = text.replace(fill, fill + "  memcpy(c0, c_tab, sizeof c0);\n", 1)
        return re.sub(r"enzyme_const, c\b", "enzyme_const, c_tab", text)
