"""The generator core: the state every mode shares, the dispatch of the
modes' hooks, and the assembly of the program: the head, f (locals, set-up,
random statements, finish, return value) and main (the check of
ltfuzz/check.py, or the one a mode supplies). The same seed always gives
the same program (Python's random.Random; a mode that must not change f
draws from its own stream)."""
import random

from .check import reverse_main
from .shapes import N, Shapes


class Core(Shapes):
    def __init__(self, seed, modes, loops=True, max_depth=3, **flags):
        """modes: every registered mode class, in order; flags: their names,
        true for the active ones."""
        self.r = random.Random(seed)
        self.seed = seed
        self.loops = loops
        self.max_depth_arg = max_depth
        self.max_depth = max_depth if loops else 0
        for m in modes:  # a mode may turn others on (Mode.implies)
            if flags.get(m.name):
                for name in m.implies:
                    flags[name] = True
        for m in modes:
            setattr(self, m.name, bool(flags.get(m.name)))
        self.active = [m for m in modes if getattr(self, m.name)]
        self.hk = None  # the helper registry (ltfuzz/helpers.py), when used
        self.nvar = 0
        self.has_s = self.r.random() < 0.4
        self.nlocal = self.r.randint(0, 2)
        self.naccs = self.r.randint(1, 3)
        self.nrecs = self.r.randint(0, 2)
        self.budget = self.r.randint(5, 14)  # statements left to emit
        self.nloops = 0
        for m in self.active:  # each mode's draws after those before it
            m.on_init(self)

    # ------------------------------------------------------------ the hooks
    def each(self, hook, *args):
        """The results of every active mode's hook, in order."""
        return [getattr(m, "on_" + hook)(self, *args) for m in self.active]

    def first(self, hook, *args):
        """The first active mode's result of the hook that is not None."""
        for m in self.active:
            v = getattr(m, "on_" + hook)(self, *args)
            if v is not None:
                return v
        return None

    def lines(self, hook, *args):
        return [l for ls in self.each(hook, *args) for l in ls]

    # ------------------------------------------------------------------- f
    def function(self):
        r = self.r
        sig = self.first("sig")
        if sig is None:
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
        out += self.lines("locals")
        out += self.lines("setup")
        while self.budget > 0:
            out += self.stmt([], 0, 1, False, False, 1)
        out += self.lines("finish")
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
        ret = self.first("ret", terms)
        out += ["  return " + " + ".join(terms) + ";"] if ret is None else ret
        out.append("}")
        if self.hk is not None:
            out = self.helper_lines() + self.lines("defs") + out
        return out

    # ------------------------------------------------------------- program
    def shape_flags(self, depth):
        """--no-loops (and --max-depth when depth) in the head's command."""
        fl = "" if self.loops else " --no-loops"
        if depth and self.max_depth_arg != 3:
            fl += " --max-depth %d" % self.max_depth_arg
        return fl

    def head(self):
        # --pointers leads, with --max-depth (Pointers.on_head_flags)
        flags = "" if self.pointers else self.shape_flags(False)
        for m in self.active:
            if not m.in_head:
                continue
            f = m.on_head_flags(self)
            flags += " " + m.flag if f is None else f
        return """\
/* Generated by tools/fuzz/gen.py --seed %(seed)d%(flags)s. Reproduce with
 *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm
 */
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N %(N)d
""" % {"seed": self.seed, "flags": flags, "N": N} + "".join(self.each("head"))

    def program(self):
        fn = self.function()
        self.each("fn", fn)
        text = self.first("main", fn)
        if text is None:
            text = self.head() + "\n".join(fn) + "\n" + reverse_main(self)
        for m in self.active:
            text = m.on_text(self, text)
        return text
