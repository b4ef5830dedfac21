"""--retarg: f calls registered functions that return one of their
arguments, whose registration says something other than their body (the
optimiser, reading the body, would mark the parameter `returned` and
use the argument in the call's place; front/annotate.c keeps such calls
opaque until the pass):
  stop<k>(v)     returns v, registered __enzyme_inactivefn_stop<k>: a
                 stop-gradient;
  scl<k>(v)      returns v, a registered gradient of a * dret (a != 1);
  pick<k>(p)[j]  returns p, registered inactive: what is read through it
                 carries no derivative.
Randomly noinline, static and with an asm barrier. The finite differences
then differentiate what the registrations say: main's eval calls f_fd, a
copy of f in which those leaves are lt_frz(v) (v at the base point) and
lt_scl(v, a) (v0 + a * (v - v0)); the base values are recorded by eval's
first call (the unperturbed point) and replayed, in call order, by the
others. Reverse-mode C only (not with --fwd, --cxx, --eigen or --omp,
whose threads would interleave the record); f differs from the program
without it."""
import re

from .helpers import Helpers, kind
from .mode import Mode


class Retarg(Helpers, Mode):
    name = "retarg"
    flag = "--retarg"
    help = ("f calls registered functions returning an argument: an "
            "inactive stop-gradient, a custom gradient a * dret, an "
            "inactive pointer pick; the FD differentiates a copy of f "
            "that freezes them as registered")

    @staticmethod
    def on_args(ap, args):
        if args.retarg and (args.fwd or args.cxx or args.eigen or args.omp):
            ap.error("--retarg is for C reverse mode (not --fwd, --cxx, --eigen, --omp)")

    def on_init(self):
        self.hinit()
        self.rt_fd = {}    # leaf text in f -> its text in f_fd
        self.rt_in = False
        self.rt_n = 0

    def on_leaf(self, scope):
        if self.rt_in or self.r.random() >= 0.12:
            return None
        return self.rt_leaf(scope)

    def on_finish(self):
        out = []
        while self.rt_n < 2:
            a = "acc%d" % self.r.randrange(self.naccs)
            out.append("  %s += %s * %s;" % (a, self.c(0.2, 0.6, 2), self.rt_leaf([])))
        return out

    def rt_attr(self):
        r = self.r
        return (("__attribute__((noinline)) " if r.random() < 0.6 else "") +
                ("static " if r.random() < 0.5 else ""))

    def rt_barrier(self):
        return ['  __asm__ volatile("" ::: "memory");'] if self.r.random() < 0.5 else []

    @kind("stop")
    def mk_rstop(self, name):
        L = ["%sdouble %s(double v) {" % (self.rt_attr(), name)] + self.rt_barrier()
        L += ["  return v;", "}",
              "void *__enzyme_inactivefn_%s = (void *)%s;" % (name, name)]
        return {"name": name, "lines": L}

    @kind("scl")
    def mk_rscl(self, name):
        a = self.r.choice(["0.5", "2.0", "-1.0", "0.25", "1.5"])
        L = ["%sdouble %s(double v) {" % (self.rt_attr(), name)] + self.rt_barrier()
        L += ["  return v;", "}",
              "double %s_aug(double v) { return v; }" % name,
              "double %s_grad(double v, double dret) { /* not the body's derivative */" % name,
              "  (void)v;", "  return %s * dret;" % a, "}",
              "void *__enzyme_register_gradient_%s[3] = {(void *)%s, (void *)%s_aug," % (name, name, name),
              "                                          (void *)%s_grad};" % name]
        return {"name": name, "a": a, "lines": L}

    @kind("pick")
    def mk_rpick(self, name):
        L = ["%sdouble *%s(double *p) {" % (self.rt_attr(), name)] + self.rt_barrier()
        L += ["  return p;", "}",
              "void *__enzyme_inactivefn_%s = (void *)%s;" % (name, name)]
        return {"name": name, "lines": L}

    def rt_leaf(self, scope):
        r = self.r
        self.rt_n += 1
        self.rt_in = True
        k = r.choice(["stop", "scl", "pick"])
        if k == "pick":
            h = self.helper("rpick")
            arr = r.choice(["x", "y"] + ["t%d" % q for q in range(self.nlocal)])
            idx = self.index(scope)
            s, fd = "%s(%s)[%s]" % (h["name"], arr, idx), "lt_frz(%s[%s])" % (arr, idx)
        else:
            h = self.helper("r" + k)
            e = self.expr(scope, 1)
            if not re.search(r"\[", e):  # an argument that depends on the inputs
                e = "(%s + %s[%s])" % (e, r.choice(["x", "y"]), self.index(scope))
            fe = self.rt_fdtext(e)
            s = "%s(%s)" % (h["name"], e)
            fd = "lt_frz(%s)" % fe if k == "stop" else "lt_scl(%s, %s)" % (fe, h["a"])
        self.rt_in = False
        self.rt_fd[s] = fd
        return s

    def rt_fdtext(self, text):
        for s in sorted(self.rt_fd, key=len, reverse=True):
            text = text.replace(s, self.rt_fd[s])
        return text

    def on_text(self, text):
        m = re.search(r"^(double|void) f\(([^)]*)\) \{$", text, re.M)
        end = text.index("\n}\n", m.start()) + 3
        fdef = text[m.start():end]
        body = self.rt_fdtext(fdef[fdef.index("{"):])
        params = [p.strip() for p in m.group(2).split(",")]
        names = ", ".join(re.search(r"(\w+)$", p).group(1) for p in params)
        ret, sig = m.group(1), ", ".join(params)
        call = "f_fd_body(%s)" % names
        wrap = (["  double r = %s;" % call, "  lt_replay = 1;", "  return r;"] if ret == "double"
                else ["  %s;" % call, "  lt_replay = 1;"])
        fd = ["",
              "/* --retarg: f as its registrations say, for the finite differences:",
              "   inactive results frozen at their base-point values (recorded by the",
              "   first call, at the base point; replayed in call order after it),",
              "   custom gradients' results v0 + a (v - v0) */",
              "static double lt_rec[1 << 16];",
              "static int lt_nrec, lt_replay;",
              "static double lt_base(double v) {",
              "  int k = lt_nrec < (1 << 16) ? lt_nrec++ : (1 << 16) - 1;",
              "  if (!lt_replay)",
              "    lt_rec[k] = v;",
              "  return lt_rec[k];",
              "}",
              "static double lt_frz(double v) { return lt_base(v); }",
              "static double lt_scl(double v, double a) {",
              "  double v0 = lt_base(v);",
              "  return v0 + a * (v - v0);",
              "}",
              "static %s f_fd_body(%s) %s" % (ret, sig, body.rstrip("\n")),
              "static %s f_fd(%s) {" % (ret, sig),
              "  lt_nrec = 0;"] + wrap + ["}", ""]
        text = text[:end] + "\n".join(fd) + text[end:]
        e = re.search(r"^static double eval\(.*?^}\n", text, re.M | re.S)
        ev = re.sub(r"(?<![\w.>])f\(", "f_fd(", e.group(0))
        assert ev != e.group(0), "eval does not call f"
        text = text[:e.start()] + ev + text[e.end():]
        main = text[text.index("\nint main(void) {"):]
        # the first evaluation is at the base point (it records)
        assert re.search(r"(?<![\w.>])eval\(", main[:main.index("double fval = eval(")]) is None
        return text
