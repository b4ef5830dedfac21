"""A generator mode: one command-line flag, its random draws, and what it
adds to the program (leaves, statements, set-up and finishing code of f,
definitions before f, the head, text transforms of the whole program).

A mode is a class deriving from Mode; the generator class derives from
every registered mode (ltfuzz/__init__.py), so a mode's methods see the
whole generator state as self. The core calls a hook of each ACTIVE mode,
in registration order, as Mode.on_<hook>(generator, ...): the hooks below
are those the core calls, each a no-op by default."""


class Mode:
    name = None    # the generator attribute that is true when active
    flag = None    # its command-line flag
    help = None    # its --help text
    cli_rank = None  # place among the flags in --help (default: its order)
    keeps_f = False  # f is the same with and without it (selftest.py)
    in_head = True   # the program's head names it
    implies = ()     # names of the modes it turns on (--eigen: cxx)
    shaped_by = ()   # keeps_f modes whose draws it reads to shape f
                     # (--omp: alias, whose layout its loops respect)

    def on_init(self):
        """Random draws from self.r, after those of the modes before it."""

    def on_arrays(self):
        """Arrays of N doubles (besides x, y, t<k>) that leaves may read."""
        return []

    def on_leaf(self, scope):
        """An expression leaf, or None to leave it to the next mode."""
        return None

    def on_cond(self, scope, lhs):
        """The left side of a data comparison (lhs unless replaced)."""
        return lhs

    def on_stmt(self, scope, depth, iters):
        """A statement (lines relative to the caller's indent), or None."""
        return None

    def on_sig(self):
        """f's signature, or None for the default."""
        return None

    def on_ret(self, terms):
        """f's last lines from the terms of its result, or None (return
        their sum)."""
        return None

    def on_locals(self):
        """Lines of f after its local arrays are initialised."""
        return []

    def on_setup(self):
        """Lines of f before its first random statement."""
        return []

    def on_finish(self):
        """Lines of f after its random statements."""
        return []

    def on_defs(self):
        """Lines after the helper definitions, before f."""
        return []

    def on_fn(self, fn):
        """A check of f's lines (assertions on what the mode relies on)."""

    def on_head_flags(self):
        """The mode's part of the generator command in the program's head
        (None: its flag)."""
        return None

    def on_head(self):
        """Declarations after the head's #define N."""
        return ""

    def on_main(self, fn):
        """The whole program (head, f, main), or None for the reverse-mode
        check of ltfuzz/check.py."""
        return None

    def on_text(self, text):
        """A transform of the whole program text."""
        return text

    @staticmethod
    def on_args(ap, args):
        """Validate the parsed command line (ap.error on a bad combination)."""


class MainVariant(Mode):
    """A mode that changes only main (and what goes with it): f is the same
    without it, and the head does not name it."""
    keeps_f = True
    in_head = False
