"""--cxx: the program is C++17 (clang++-22 -std=c++17; exceptions on or off
per program, see its fuzz-cxxflags line): std::vector<double> locals of f
(constructed with a size, fill value or range, push_back, copies, copy
assignment, swap, front/back/at), vector temporaries inside loops, a
template helper `template <typename T> T ht(const T *a, int m)`,
std::pair<double, double> returned from a helper (kept in a pair or in a
structured binding), virtual calls through a base reference on temporaries
of derived classes chosen by data, lambdas (by-reference, by-value and generic, one
writing an array), Enzyme's template declaration of the entry point with
the markers defined in the program (a transform of the C program's text).
Combines with every other option but --split."""
from .helpers import Helpers, kind
from .mode import Mode
from .shapes import N


class Cxx(Helpers, Mode):
    name = "cxx"
    flag = "--cxx"
    help = ("emit C++17 (std::vector temporaries, a template "
            "helper, std::pair results, lambdas; exceptions on or off "
            "per program, see the fuzz-cxxflags comment)")

    def on_init(self):
        self.hinit()
        self.xinit()

    def on_arrays(self):
        return self.vecs

    def on_leaf(self, scope):
        if self.xready and self.cnest < 2 and self.r.random() < 0.15:
            return self.xleaf(scope)
        return None

    def on_stmt(self, scope, depth, iters):
        if self.xready and self.r.random() < 0.15:
            return self.xstmt(scope, iters)
        return None

    def on_locals(self):
        return self.xvectors()

    def on_setup(self):
        return self.xsetup()

    def on_finish(self):
        return self.xfinish()

    def on_text(self, text):
        return self.cxx_text(text)

    def xinit(self):
        r = self.r
        self.budget += r.randint(1, 3)
        self.exceptions = r.random() < 0.5
        self.nvec_want = r.randint(1, 3)
        self.lams = []       # (name, kind): "val" lambdas return, "set" write
        self.pairs = []      # pair leaves
        self.pair_vars = []  # (pair variable, helper) that can be reassigned
        self.xused = set()

    def xvectors(self):
        """std::vector<double> locals of f (size N each), before any pointer
        into them is taken (no push_back afterwards)."""
        r = self.r
        out = []
        for k in range(self.nvec_want):
            name = "v%d" % k
            kind = "sized" if k == 0 else r.choice(["push", "fill", "range", "copy"])
            src = r.choice(["x", "y"] + ["t%d" % j for j in range(self.nlocal)] + self.vecs)
            g = r.choice(["cos(%s)", "tanh(%s + 0.5)", "0.5 * %s", "0.9 * sin(%s)"])
            loop = self.loops and r.random() < 0.7
            if kind == "sized":
                out.append("  std::vector<double> %s(N);" % name)
                if loop:
                    out += ["  for (int q = 0; q < N; q++)", "    %s[q] = %s;" % (name, g % ("%s[q]" % src))]
                else:
                    out += ["  %s[%d] = %s;" % (name, q, g % ("%s[%d]" % (src, q))) for q in range(N)]
            elif kind == "push":
                out.append("  std::vector<double> %s;" % name)
                if r.random() < 0.5:
                    out.append("  %s.reserve(%d); /* small: push_back has to grow it */" % (name, r.randint(1, 3)))
                if loop:
                    out += ["  for (int q = 0; q < N; q++)",
                            "    %s.push_back(%s);" % (name, g % ("%s[q]" % src))]
                else:
                    out += ["  %s.push_back(%s);" % (name, g % ("%s[%d]" % (src, q))) for q in range(N)]
            elif kind == "fill":
                out.append("  std::vector<double> %s(N, %s);" % (name, self.c(-1, 1)))
                for q in sorted(r.sample(range(N), r.randint(1, 4))):
                    out.append("  %s[%d] = %s;" % (name, q, g % ("%s[%d]" % (src, q))))
            elif kind == "range":
                if src in self.vecs:
                    out.append("  std::vector<double> %s(%s.begin(), %s.end());" % (name, src, src))
                else:
                    out.append("  std::vector<double> %s(%s, %s + N);" % (name, src, src))
            else:
                srcv = r.choice(self.vecs)
                if r.random() < 0.5:
                    out.append("  std::vector<double> %s = %s;" % (name, srcv))
                else:
                    out.append("  std::vector<double> %s(%s);" % (name, srcv))
            self.vecs.append(name)
        return out

    @kind("ht")
    def mk_tmpl(self, name):
        r = self.r
        ni = "__attribute__((noinline)) " if r.random() < 0.3 else ""
        L = ["template <typename T> %sT %s(const T *a, int m) {" % (ni, name)]
        if self.loops and r.random() < 0.7:
            L += ["  T s = T(0);", "  for (int i = 0; i < m; i++)",
                  "    s += %s;" % self.squash(self.hexpr(["a[i]"], 1, need=["a[i]"])),
                  "  return s / T(m);"]
        else:  # halving recursion: depth <= 4 for m <= 9
            a = self.c(0.3, 0.7, 2)
            L += ["  if (m <= 1)", "    return %s;" % self.squash(self.hexpr(["a[0]"], 1, need=["a[0]"])),
                  "  int k = m / 2;",
                  "  return T(%s) * %s(a, k) + T(%.2f) * %s(a + k, m - k);" % (a, name, 1 - float(a), name)]
        L.append("}")
        return {"name": name, "lines": L}

    @kind("hp")
    def mk_pair(self, name):
        r = self.r
        e1 = self.squash(self.hexpr(["a", "b"], need=["a"]))
        e2 = self.squash(self.hexpr(["a", "b"], need=["b"]))
        L = ["%sstd::pair<double, double> %s(double a, double b) {" % (self.hattr(), name)]
        t = r.random()
        if t < 0.4:
            L.append("  return std::make_pair(%s, %s);" % (e1, e2))
        elif t < 0.7:
            L += ["  std::pair<double, double> p;", "  p.first = %s;" % e1,
                  "  p.second = %s;" % e2, "  return p;"]
        else:
            L.append("  return {%s, %s};" % (e1, e2))
        L.append("}")
        return {"name": name, "lines": L}

    @kind("hv")
    def mk_virt(self, name):
        """A base class with a pure virtual ev and 2-3 overrides reading an
        active member, and a noinline caller taking the base by reference:
        a virtual call prep/indirect.c dispatches."""
        r = self.r
        m = r.randint(2, 3)
        L = ["struct %s {" % name, "  virtual double ev(double v) const = 0;",
             "  virtual ~%s() {}" % name, "};"]
        for j in range(m):
            L += ["struct %s_%d : %s {" % (name, j, name), "  double k;",
                  "  %s_%d(double k) : k(k) {}" % (name, j),
                  "  double ev(double v) const override { return %s; }" % self.squash(
                      self.hexpr(["v", "k"], need=["v", "k"])), "};"]
        L.append("__attribute__((noinline)) double %s_call(const %s &o, double v) { return o.ev(v); }"
                 % (name, name))
        return {"name": name, "m": m, "lines": L}

    def xsetup(self):
        """Pairs returned by helpers and lambdas, at the top of f."""
        r = self.r
        out = []
        for k in range(r.randint(1, 2)):
            h = self.helper("pair")["name"]
            e1, e2 = self.expr([], 1), self.expr([], 1)
            if r.random() < 0.5:
                out.append("  std::pair<double, double> pr%d = %s(%s, %s);" % (k, h, e1, e2))
                self.pairs += ["pr%d.first" % k, "pr%d.second" % k]
                self.pair_vars.append(("pr%d" % k, h))
            else:
                out.append("  auto [pu%d, pv%d] = %s(%s, %s);" % (k, k, h, e1, e2))
                self.pairs += ["pu%d" % k, "pv%d" % k]
        for k in range(r.randint(1, 2)):
            name = "lam%d" % k
            t = r.random()
            if t < 0.4:  # by reference, reading captured memory
                caps = ["%s[%d]" % (r.choice(self.arrays()), r.randrange(N)),
                        "acc%d" % r.randrange(self.naccs)]
                out.append("  auto %s = [&](double u) { return %s; };" % (
                    name, self.squash(self.hexpr(["u", "u"] + caps, need=["u"]))))
                self.lams.append((name, "val"))
            elif t < 0.6:  # by value
                out.append("  const double k%d = %s;" % (k, self.squash(self.expr([], 1))))
                out.append("  auto %s = [k%d](double u) { return %s; };" % (
                    name, k, self.squash(self.hexpr(["u", "u", "k%d" % k], need=["u", "k%d" % k]))))
                self.lams.append((name, "val"))
            elif t < 0.75:  # generic
                out.append("  auto %s = [](auto u) { return %s; };" % (
                    name, self.squash(self.hexpr(["u"], need=["u"]))))
                self.lams.append((name, "val"))
            else:  # writes a captured array (a blend: stays bounded)
                arr = r.choice(self.arrays())
                a = self.c(0.2, 0.8, 2)
                out.append("  auto %s = [&](int i, double u) { %s[i] = %s * %s[i] + %.2f * tanh(u); };" % (
                    name, arr, a, arr, 1 - float(a)))
                self.lams.append((name, "set"))
        self.xready = True
        return out

    def xleaf(self, scope, kind=None):
        r = self.r
        self.cnest += 1
        vals = [l for l, kd in self.lams if kd == "val"]
        opts = ["tmpl", "tmpl", "pair", "pair", "vacc", "virt"] + ["lam"] * 2 * bool(vals)
        k = kind or r.choice(opts)
        self.xused.add(k)
        if k == "tmpl":
            h = self.helper("tmpl")
            a, w = self.cview(scope, 1, False)
            m = r.randint(1, w)
            s = "%s%s(%s, %s)" % (h["name"], "<double>" if r.random() < 0.3 else "", a,
                                  str(m) if r.random() < 0.5 else "n - %d" % (N - m))
        elif k == "pair":
            s = r.choice(self.pairs)
            self.xused.add(s)
        elif k == "virt":
            h = self.helper("virt")
            idx = self.index(scope)
            calls = ["%s_call(%s_%d(%s), %s)" % (h["name"], h["name"], j, self.expr(scope, 1),
                                                 self.expr(scope, 1)) for j in range(h["m"])]
            s = calls[-1]
            for j in range(h["m"] - 2, -1, -1):
                s = "((%s) %% %d == %d ? %s : %s)" % (idx, h["m"], j, calls[j], s)
        elif k == "lam":
            name = r.choice(vals)
            self.xused.add(name)
            s = "%s(%s)" % (name, self.expr(scope, 1))
        else:
            v = r.choice(self.vecs)
            t = r.random()
            if t < 0.25:
                s = "%s.front()" % v
            elif t < 0.5:
                s = "%s.back()" % v
            elif t < 0.8:
                s = "%s.at(%s)" % (v, self.index(scope))
            else:
                s = "%s.data()[%s]" % (v, self.index(scope))
        self.cnest -= 1
        return s

    def xstmt(self, scope, iters):
        r = self.r
        step = self.step(iters)
        acc = "acc%d" % r.randrange(self.naccs)
        sets = [l for l, kd in self.lams if kd == "set"]
        opts = ["acc", "vtmp", "vtmp"] + ["pairset"] * bool(self.pair_vars)
        opts += ["lamset"] * 2 * bool(sets) + ["vcopy", "vswap"] * (len(self.vecs) >= 2)
        k = r.choice(opts)
        if k == "acc":
            return ["%s += %s * %s;" % (acc, step, self.xleaf(scope))]
        if k == "pairset":
            pv, h = r.choice(self.pair_vars)
            return ["%s = %s(%s, %s);" % (pv, h, self.expr(scope, 1), self.expr(scope, 1))]
        if k == "lamset":
            name = r.choice(sets)
            self.xused.add(name)
            return ["%s(%s, %s);" % (name, self.index(scope), self.expr(scope))]
        if k in ("vcopy", "vswap"):
            a, b = r.sample(self.vecs, 2)
            if k == "vcopy":
                return ["%s = %s; /* copy assignment, same size */" % (a, b)]
            return [r.choice(["%s.swap(%s);", "std::swap(%s, %s);"]) % (a, b)]
        # a vector temporary (allocated and freed on every execution)
        t = r.random()
        if t < 0.4:
            init = r.choice(self.vecs)
        elif t < 0.7:
            v = r.choice(self.vecs)
            init = "%s.begin(), %s.end()" % (v, v)
        else:
            a = r.choice(["x", "y"] + ["t%d" % j for j in range(self.nlocal)])
            init = "%s, %s + N" % (a, a)
        h = self.helper("tmpl")["name"]
        self.xused.add("tmpl")
        return ["{",
                "  std::vector<double> tq(%s);" % init,
                "  tq.push_back(%s);" % self.squash(self.expr(scope, 1)),
                "  tq[%s] = 0.5 * tq[%s] + 0.5 * tq[N];" % ((self.index(scope),) * 2),
                "  %s += %s * %s(tq.data(), N + 1);" % (acc, step, h),
                "}"]

    def xfinish(self):
        """Every --cxx program uses the template helper, a pair and every lambda."""
        out = []
        acc = lambda e: "  acc%d += %s * %s;" % (self.r.randrange(self.naccs), self.c(0.2, 0.6, 2), e)
        if "tmpl" not in self.xused:
            out.append(acc(self.xleaf([], "tmpl")))
        if not any(p in self.xused for p in self.pairs):
            out.append(acc(self.r.choice(self.pairs)))
        for name, kd in self.lams:
            if name not in self.xused:
                if kd == "val":
                    out.append(acc("%s(%s)" % (name, self.expr([], 1))))
                else:
                    out.append("  %s(%d, %s);" % (name, self.r.randrange(N), self.expr([], 1)))
        return out

    def cxx_text(self, text):
        c_inc = ("#include <leantape.h>\n#include <math.h>\n#include <stdio.h>\n"
                 "#include <stdlib.h>\n#include <string.h>\n")
        x_inc = """\
/* fuzz-cxxflags: %s */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <utility>
#include <vector>

/* Enzyme's C++ style: the entry point is a template, the markers are
   defined here (the plugin recognises them by name) */
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
template <typename R, typename... T> R __enzyme_autodiff(T...);
""" % ("-fexceptions" if self.exceptions else "-fno-exceptions")
        if self.fwd:
            x_inc = x_inc.replace("""\
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
template <typename R, typename... T> R __enzyme_autodiff(T...);
""", """\
int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_primal_return; /* --fwd */
template <typename R, typename... T> R __enzyme_fwddiff(T...);
""")
        c_rep = " *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm\n"
        x_rep = (" *   clang++-22 -std=c++17 -O2%s -fpass-plugin=build/lib/LLVMLeantape.so prog.cpp -lm\n"
                 % ("" if self.exceptions else " -fno-exceptions"))
        assert text.count(c_inc) == 1 and text.count(c_rep) == 1
        text = text.replace(c_inc, x_inc).replace(c_rep, x_rep)
        ret = "double" if self.has_s else "void"
        return text.replace("__enzyme_autodiff((void *)f", "__enzyme_autodiff<%s>((void *)f" % ret)
