"""--alias: main passes x and y as two views of ONE buffer, x = buf + XA and
y = buf + YA (NB = the buffer's size), and the shadows with the same
layout, dx = dbuf + XA and dy = dbuf + YA, as an AD tool must be called
when arrays alias: y == x, a partial overlap y = x + k or x = y + k
(0 < k < N), or disjoint but adjacent (k = N, the boundary of a run-time
disjointness test). The layout comes from its own random stream (seeded
from the seed), so f is the same program as without --alias (but with
--omp, whose parallel loops keep clear of the elements x and y share:
ltfuzz/omp.py). The finite
differences perturb one buffer element at a time and evaluate f on the
same views of a fresh copy of the whole buffer; the gradient is checked
per buffer element (dbuf[i], named with the x and y elements it is). f
never relies on x and y being distinct: its only memcpy copies between
distinct struct arrays (on_fn). Combines with every other option."""
import random
import re

from .mode import Mode
from .shapes import N


class Alias(Mode):
    name = "alias"
    flag = "--alias"
    help = ("main passes x and y as overlapping views of one "
            "buffer (y == x, y = x + k, x = y + k with 0 < k < N, or "
            "adjacent, k = N; chosen per seed), the shadows with the "
            "same layout; gradients are checked per buffer element")
    keeps_f = True  # its draws come from its own stream

    def on_init(self):
        ra = random.Random(self.seed * 1000003 + 1)
        t = ra.random()
        if t < 0.2:
            k = 0
        elif t < 0.8:
            k = ra.randint(1, N - 1)
        else:
            k = N
        y_after = ra.random() < 0.5
        self.a_x, self.a_y = (0, k) if y_after else (k, 0)
        self.a_nb = N + k
        if k == 0:
            self.a_desc = "y == x: the same array"
        else:
            hi, lo = ("y", "x") if y_after else ("x", "y")
            self.a_desc = "%s = %s + %d: %s" % (
                hi, lo, k, "disjoint but adjacent" if k == N else
                "partial overlap, %s[%d..%d] is %s[0..%d]" % (lo, k, N - 1, hi, N - 1 - k))

    def on_fn(self, fn):
        """f must stay valid when x and y overlap: no memcpy from or to them."""
        for m in re.finditer(r"\bmemcpy\(([^;]*)\);", "\n".join(fn)):
            args = [a.strip() for a in m.group(1).split(",")[:2]]
            assert not any(re.match(r"&?\(?(x|y)\b", a) for a in args), m.group(0)

    def alias_defs(self):
        """The layout macros and its comment (in the program, before eval)."""
        return """
/* --alias: x and y are views of one buffer of NB doubles,
   x = buf + XA, y = buf + YA (%(desc)s);
   their shadows have the same layout, dx = dbuf + XA, dy = dbuf + YA.
   Gradients are checked per buffer element. */
#define NB %(nb)d
#define XA %(xa)d
#define YA %(ya)d
""" % {"desc": self.a_desc, "nb": self.a_nb, "xa": self.a_x, "ya": self.a_y}

    def alias_names(self, k, decl, ret):
        """Lines naming buffer element k (into nm, len): dbuf[k], and the x
        and y elements it is; decl declares l, ret returns when named."""
        return ["  if (%s < NB) {" % k,
                '    %sl = snprintf(nm, len, "dbuf[%%d]", %s);' % (decl, k),
                '    if (%s >= XA && %s < XA + N) l += snprintf(nm + l, len - (size_t)l, "=dx[%%d]", %s - XA);'
                % (k, k, k),
                '    if (%s >= YA && %s < YA + N) snprintf(nm + l, len - (size_t)l, "=dy[%%d]", %s - YA);'
                % (k, k, k)] + (["    return;"] if ret else []) + ["  }"]
