"""--copies (implies --pointers): memcpy of a run-time length (n == N
when f runs) where --pointers copies structs: an array copy of whole
`struct S`s, a copy of the first member of a `struct S` alone (its pointer
p; then w and k by assignment) and of `struct P2`'s .a alone (then .b):
prefixes of a struct. Each choice is drawn from a stream seeded by the
program text so far, never from the generator's own: the rest of f is
that of the same seed with --pointers alone. The helpers that move a
copy's adjoints and shadow pointers were called with bytes / sizeof(struct),
so a prefix moved nothing: a gradient of 0 through a struct P2, silently,
or a null shadow pointer (a segfault in the gradient) through a struct S
(found by fuzz --eigen seed 1140237; --copies seeds 134 and 137 show the
first, 213 and 276 the second, before the fix)."""
import random

from .mode import Mode


class Copies(Mode):
    name = "copies"
    flag = "--copies"
    help = ("with --pointers' structs, memcpy of a run-time length: whole "
            "arrays of structs, and a struct's first member alone")
    implies = ("pointers",)
    keeps_f = False

    def copy_draw(self, key, p):
        """Whether to write the run-time length form at the copy `key`."""
        return self.copies and random.Random(key).random() < p
