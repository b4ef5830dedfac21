"""Helpers: functions f calls, defined before it, shared by the modes that
generate them (--calls, --cxx). A helper kind is a method mk_<kind>(name)
of a mode, marked with its name prefix (@kind("hs")), returning a dict with
at least "name" and "lines" (its definition); helper(kind) reuses an
existing helper of the kind (a callee shared by several call sites) or
makes a new one. Every helper returns a value in [-1, 1]."""
import re


def kind(prefix):
    """Marks a method mk_<kind>(name) as a helper kind named prefix<k>."""
    def mark(fn):
        fn.prefix = prefix
        return fn
    return mark


class Helpers:
    def hinit(self):
        """State shared by --calls and --cxx (no random draws)."""
        if self.hk is not None:
            return
        self.hk = {}        # helper kind -> list of helper dicts
        self.hdefs = []     # helper definitions (lists of lines), in order
        self.cnest = 0      # nesting of helper calls in call arguments
        self.ncalls = 0
        self.cloop_done = False
        self.vecs = []      # --cxx: std::vector<double> locals of f
        self.xready = False

    def hexpr(self, params, depth=2, need=None):
        """A smooth expression over a helper's parameters that uses every
        parameter in need (redrawn a few times, then added)."""
        r = self.r

        def lf(_):
            return r.choice(params) if r.random() < 0.85 else self.c(-1.5, 1.5)

        def uses(e, p):
            return re.search(r"(?<![\w.>])%s(?![\w\[])" % re.escape(p), e) is not None
        for _ in range(6):
            e = self.expr(None, depth, leaf=lf)
            miss = [p for p in (need or []) if not uses(e, p)]
            if not miss:
                return e
        return "(%s)" % " + ".join([e] + ["%s * %s" % (self.c(0.3, 1.0, 2), p) for p in miss])

    def hattr(self):
        r = self.r
        ni = r.random() < 0.3
        st = r.random() < 0.7
        return ("__attribute__((noinline)) " if ni else "") + ("static " if st else "")

    def combine(self, u, lv):
        """A value in [-1, 1] from u in [-1, 1] and the parameters lv."""
        r = self.r
        t = r.random()
        if t < 0.45:
            a = self.c(0.3, 0.8, 2)
            return "%s * %s + %.2f * %s" % (a, u, 1 - float(a), self.squash(self.hexpr(lv + [u])))
        if t < 0.75:
            return "tanh(%s * %s + %s)" % (self.c(0.5, 1.5, 2), u, self.hexpr(lv, 1))
        return "%s * %s" % (u, self.squash(self.hexpr(lv)))

    def helper(self, kind):
        """A helper of this kind: an existing one (shared callee) or a new one."""
        lst = self.hk.setdefault(kind, [])
        if lst and (len(lst) >= 2 or self.r.random() < 0.6):
            return self.r.choice(lst)
        mk = getattr(self, "mk_" + kind)
        h = mk("%s%d" % (mk.prefix, len(lst)))
        lst.append(h)
        self.hdefs.append(h["lines"])
        return h


    def helper_lines(self):
        out = []
        for L in self.hdefs:
            out += L + [""]
        return out
