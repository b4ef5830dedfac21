"""--constwork (implies --pointers): f stores values made from x and y in
c, its enzyme_const input, and reads them back (its leaves read c): a
recurrent state or work array passed enzyme_const, as Enzyme's LSTM
benchmark passes its state. The gradient gives c a shadow of its own
(analysis/scratch.c, gen/scratchshadow.c); before, such a program was a
compile error. The block comes first in f, drawn from the mode's own
stream:
  - state: c[q] = tanh(0.5 c[q] + 0.3 x[q]), in place;
  - fill: c[q] = 0.4 x[q] y[q + 3], overwritten whole;
  - half: every other element scaled by a function of y;
  - shift: c[q] = (c[q - 1] + x[q]) / 2, downwards.
main no longer checks that c is unchanged (f changes it), and eval runs f
on a copy of c; f takes no struct parameter (--pointers' sp, whose
pointer main may aim into c): a function that loads a pointer from
enzyme_dup memory keeps the error, since that pointer may reach the const
memory through a shadow of its own. Not with --fwd (its harness passes c as const), nor with --split, --omp,
--mpi or the checkpointed time loops (--timeloop and the modes built on
it, --adaptive, --capped): split mode, parallel regions and checkpointed
steps, which are derivatives of their own, keep the error."""
import random

from .mode import Mode

SHAPES = {
    "state": ["for (int q = 0; q < N; q++)",
              "  c[q] = tanh(0.5 * c[q] + 0.3 * x[q]);"],
    "fill": ["for (int q = 0; q < N; q++)",
             "  c[q] = 0.4 * x[q] * y[(q + 3) % N];"],
    "half": ["for (int q = 0; q < N; q += 2)",
             "  c[q] = c[q] * (1.0 + 0.2 * sin(y[q]));"],
    "shift": ["for (int q = N - 1; q > 0; q--)",
              "  c[q] = 0.5 * (c[q - 1] + x[q]);"],
}


class ConstWork(Mode):
    name = "constwork"
    flag = "--constwork"
    help = ("(implies --pointers) f stores values of x and y in c, its "
            "enzyme_const input, and reads them back (a state or work array "
            "passed enzyme_const)")
    implies = ("pointers",)

    @staticmethod
    def on_args(ap, args):
        other = [f for f in ("fwd", "split", "omp", "mpi", "timeloop", "timeloop_while",
                             "steps_var", "grid", "swap", "scratch", "capped", "adaptive")
                 if getattr(args, f, False)]
        if args.constwork and other:
            ap.error("--constwork is for __enzyme_autodiff without parallel regions or "
                     "checkpointed steps (not --%s)" % other[0].replace("_", "-"))

    def on_init(self):
        own = random.Random(self.seed * 7717 + 29)
        self.cw_shape = own.choice(sorted(SHAPES))
        # no struct parameter: a pointer loaded from dup memory (sp->p) may
        # address c, and the gradient then keeps the error
        # (analysis/scratch.c)
        self.sparam = False

    def on_setup(self):
        return list(SHAPES[self.cw_shape])
