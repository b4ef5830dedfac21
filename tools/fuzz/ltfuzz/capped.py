"""--capped: f gets loops whose trip count is the smaller of n and a cap
the optimiser cannot see (a volatile global read once, as size_t, or
(size_t)n - d, which wraps to nearly SIZE_MAX for d > n):

    { size_t cK = lt_capK;
      size_t mK = (size_t)n < cK ? (size_t)n : cK;
      for (size_t iJ = 0; iJ < mK; iJ++) { ... } }

At -O1 and above the trip count becomes llvm.umin(n, cap), which the
run-time overlap test of a versioned plain-pointer gradient and the
checkpointing bounds must read as unsigned (range.c; a cap of SIZE_MAX
taken as -1 once made the ranges empty and ran the apart version on
overlapping arrays). A global cap is SIZE_MAX, N, N / 2, 2 or 0; only
the caps from n are known where the gradient starts, as the versioning
test needs (every cap is from n in half the programs).
Every top-level statement of f is such a loop, its body one to three
statements whose accesses are all affine (x, y and the local arrays at i
or N - 1 - i: updates in place, accumulations, a data branch), so that
the gradient of f over plain pointers can be versioned (gen/version.c).
Its draws come after the other modes' (f differs from the program
without it)."""
from .mode import Mode
from .shapes import N

CAPS = ["SIZE_MAX", str(N), str(N // 2), "2", "0"]


class Capped(Mode):
    name = "capped"
    flag = "--capped"
    help = ("f gets loops capped by a run-time bound, for (size_t i = 0; "
            "i < min(n, cap); i++): a umin trip count (cap SIZE_MAX, N, "
            "N/2, 2 or 0)")

    def on_init(self):
        self.caps = []
        self.c_fromn = self.r.random() < 0.5  # every cap from n

    def on_stmt(self, scope, depth, iters):
        # every top-level statement is such a loop: f's accesses then are
        # all affine, so that a plain-pointer gradient can be versioned
        if depth == 0 and not scope:
            return self.capped_loop() if len(self.caps) < 4 else []
        return None

    def on_finish(self):
        if self.caps:
            return []
        return ["  " + l for l in self.capped_loop()]

    def on_text(self, text):
        # the caps are known once f is generated: declared before f
        decl = "".join("static volatile size_t lt_cap%d = %s;\n" % (k, c)
                       for k, c in enumerate(self.caps) if not c.startswith("("))
        at = text.index("/* fuzz-capped */\n") + len("/* fuzz-capped */\n")
        return text[:at] + decl + text[at:]

    def on_head(self):
        return "#include <stdint.h>\n/* fuzz-capped */\n"

    def c_read(self, i):
        """An affine read: x, y or a local array at i or N - 1 - i."""
        r = self.r
        a = r.choice(self.arrays())
        return "%s[%s]" % (a, i if r.random() < 0.7 else "%d - %s" % (N - 1, i))

    def c_expr(self, i):
        r = self.r
        f = r.choice(["sin", "cos", "tanh"])
        t = r.random()
        if t < 0.4:
            inner = "%s * %s" % (self.c_read(i), self.c_read(i))
        elif t < 0.7:
            inner = "%s + %s" % (self.c_read(i), self.c(-1, 1))
        else:
            inner = "%s - acc%d" % (self.c_read(i), r.randrange(self.naccs))
        return "%s(%s)" % (f, inner)

    def c_stmt(self, i):
        r = self.r
        t = r.random()
        if t < 0.5:
            a = r.choice(self.arrays())
            at = i if r.random() < 0.8 else "%d - %s" % (N - 1, i)
            return ["%s[%s] = %s * %s[%s] + %s * %s;" % (a, at, self.c(0.3, 0.7), a, at,
                                                          self.c(0.2, 0.6), self.c_expr(i))]
        if t < 0.8:
            return ["acc%d += %s * %s;" % (r.randrange(self.naccs), self.c(0.1, 0.5),
                                           self.c_expr(i))]
        a = r.choice(self.arrays())
        return ["if (%s > %s)" % (self.c_read(i), self.c(-0.5, 0.5)),
                "  %s[%s] = %s;" % (a, i, self.c_expr(i))]

    def capped_loop(self):
        k = len(self.caps)
        if not self.c_fromn and self.r.random() < 0.6:
            cap = self.r.choice(CAPS)
        else:  # from n: known at entry, wrapping to near SIZE_MAX past N
            cap = "(size_t)n - %d" % self.r.choice([0, 2, 5, 7, N + 1, N + 4])
        self.caps.append(cap)
        i = self.counter()
        body = []
        for _ in range(self.r.randint(1, 3)):
            body += ["    " + l for l in self.c_stmt(i)]
        return (["{", "  size_t c%d = %s;" % (k, cap if cap.startswith("(") else
                                               "lt_cap%d" % k),
                 "  size_t m%d = (size_t)n < c%d ? (size_t)n : c%d;" % (k, k, k),
                 "  for (size_t %s = 0; %s < m%d; %s++) {" % (i, i, k, i)] +
                body + ["  }", "}"])
