"""--structvec (implies --cxx): after f's random statements, a
std::vector of `struct SV { double w; const double *p; int k; }` whose
p point into x and y: filled by push_back (growing 1, 2, 4, 8: its
elements relocated by memmove) or after a reserve, then changed by some of
insert (of one element or of a second vector's), erase (of one or of a
range), pop_back, resize to fewer, a shrink by copy and swap, a swap of two
elements, std::reverse, std::rotate, std::sort by k, a copy assignment,
assign from a copy's range; from seed 400 on (the seeds before keep the
programs the suite's fixed seeds name), sometimes a swap with a changed
copy (the SLP vectorizer moves the vector headers' pointers as <2 x ptr>
under -X: prep/ptrvec.c); a range of it is copied into a second vector,
whose sum of w * p[0] goes into acc0. From seed 60000 on, half the
programs also keep plain pointers into x and y in a std::vector<const
double *>, pushed directly or through a noinline helper (kept as a call,
-O0 above all), then maybe inserted into, erased from or reversed: its
growth relocates the pointers with a memmove that nothing types (the
copy was taken for doubles, and the pointers' shadows stayed behind: a
silently wrong gradient at -O0, a segfault at -O1).

libstdc++ moves the elements with memmove / memcpy of a run-time number
of bytes that nothing types; analysis/memelem.c finds their type. With
the plugin of 737e4da, 40 seeds at -O0/-O2/-O3 gave 5 passed, 103 clean
errors and 12 wrong gradients or segfaults (seeds 2, 6, 12, 16, 17, 27,
28, 30, 40 at -O0, 7 at -O2, 4 at -O2 and -O3); with memelem.c, 120
seeds at -O0..-O3 give 464 passed and 16 clean errors ("copies memory
that may hold both pointers ...": blocks that nothing indexes as S, at
-O3 above all). Its draws come from its own stream: the rest of f is that
of the same seed with --cxx alone."""
import random

from .mode import Mode
from .shapes import N


class StructVec(Mode):
    name = "structvec"
    flag = "--structvec"
    help = ("a std::vector of structs holding a double and a pointer into x "
            "or y, grown, inserted into, erased from, reversed and copied")
    implies = ("cxx",)

    def on_init(self):
        self.sv = random.Random(self.seed * 7937 + 53)
        self.sv2 = random.Random(self.seed * 6151 + 29)  # the later ops' draws
        self.sv3 = random.Random(self.seed * 4099 + 17)  # the pointer vector's

    def on_head(self):
        # <vector> comes with --cxx's includes (--eigen places its own after it)
        return ("#include <algorithm>\n"
                "struct SV { double w; const double *p; int k; };\n"
                "__attribute__((noinline)) void sv_push(std::vector<const double *> *v, "
                "const double *p) { v->push_back(p); }\n")

    def on_finish(self):
        r = self.sv
        m = r.randint(3, N)
        g = r.choice(["sin(x[q])", "tanh(y[q] + 0.5)", "x[q] * y[q]", "cos(x[q] - y[q])"])
        a, b = r.randrange(1, N), r.randrange(N)
        out = ["  {", "    std::vector<SV> sv;"]
        if r.random() < 0.4:
            out.append("    sv.reserve(%d);" % r.choice([m, 2 * N]))
        out += ["    for (int q = 0; q < %d; q++)" % m,
                "      sv.push_back({%s, (q %% 2 ? x : y) + (q * %d + %d) %% N, q});" % (g, a, b)]
        size = m
        ops = ["insert", "erase", "pop", "swap", "reverse", "assign", "insert_range",
               "erase_range", "resize", "shrink", "sort", "rotate", "assign_range"]
        r.shuffle(ops)
        for op in ops[:r.randint(1, 5)]:
            if op == "insert":
                k = r.randrange(size + 1)
                out.append("    sv.insert(sv.begin() + %d, SV{x[%d] * y[%d], x + %d, 7});" % (
                    k, r.randrange(N), r.randrange(N), r.randrange(N)))
                size += 1
            elif op == "erase" and size > 2:
                out.append("    sv.erase(sv.begin() + %d);" % r.randrange(size))
                size -= 1
            elif op == "pop" and size > 2:
                out.append("    sv.pop_back();")
                size -= 1
            elif op == "swap" and size > 1:
                out.append("    std::swap(sv[%d], sv[%d]);" % (r.randrange(size), r.randrange(size)))
            elif op == "reverse":
                out.append("    std::reverse(sv.begin(), sv.end());")
            elif op == "assign":
                out.append("    { std::vector<SV> tmp; tmp = sv; sv.swap(tmp); }")
            elif op == "insert_range":
                # a second vector's elements, inserted in the middle (moved
                # up by memmove, the new ones copied in)
                k, m2 = r.randrange(size + 1), r.randint(1, 3)
                out.append("    { std::vector<SV> s2; for (int q = 0; q < %d; q++) "
                           "s2.push_back({y[q] * %.2f, y + (q + %d) %% N, q}); "
                           "sv.insert(sv.begin() + %d, s2.begin(), s2.end()); }" % (
                               m2, r.uniform(0.3, 1.5), r.randrange(N), k))
                size += m2
            elif op == "erase_range" and size > 3:
                a = r.randrange(size - 2)
                b = r.randrange(a + 1, size - 1)
                out.append("    sv.erase(sv.begin() + %d, sv.begin() + %d);" % (a, b))
                size -= b - a
            elif op == "resize" and size > 2:
                k = r.randrange(2, size)
                out.append("    sv.resize(%d);" % k)
                size = k
            elif op == "shrink":
                # shrink_to_fit's own catch (-fexceptions) is not supported
                # in differentiated code: the idiom it stands for
                out.append("    std::vector<SV>(sv).swap(sv);")
            elif op == "sort" and size > 1:
                # by k (integers): the order does not depend on x or y
                out.append("    std::sort(sv.begin(), sv.end(), [](const SV &a, const SV &b) "
                           "{ return a.k %s b.k; });" % r.choice(["<", ">"]))
            elif op == "rotate" and size > 1:
                out.append("    std::rotate(sv.begin(), sv.begin() + %d, sv.end());" % r.randrange(1, size))
            elif op == "assign_range" and size > 1:
                a = r.randrange(size - 1)
                out.append("    { std::vector<SV> t2(sv); sv.assign(t2.begin() + %d, t2.end()); }" % a)
                size -= a
        r2 = self.sv2
        if self.seed >= 400 and r2.random() < 0.4:
            out.append("    { std::vector<SV> o(sv.begin(), sv.end()); o[%d].w *= %.2f; "
                       "%s; }" % (r2.randrange(size), r2.uniform(0.5, 1.5),
                                  r2.choice(["sv.swap(o)", "std::swap(sv, o)", "o.swap(sv)"])))
        lo = r.randrange(size)
        hi = r.randrange(lo + 1, size + 1)
        if r.random() < 0.6:
            out.append("    std::vector<SV> su(sv.begin() + %d, sv.begin() + %d);" % (lo, hi))
        else:
            out.append("    std::vector<SV> su(sv);")
        out += ["    double svacc = 0;",
                "    for (size_t q = 0; q < su.size(); q++)",
                "      svacc += (double)(q + 1) * su[q].w * su[q].p[0];",
                "    acc0 += %.3f * tanh(svacc);" % r.uniform(0.2, 0.8),
                "  }"]
        r3 = self.sv3
        if self.seed >= 60000 and r3.random() < 0.5:
            m = r3.randint(2, N)
            a, b = r3.randrange(1, N), r3.randrange(N)
            push = r3.choice(["pv.push_back(%s)", "sv_push(&pv, %s)"])
            out += ["  {", "    std::vector<const double *> pv;",
                    "    for (int q = 0; q < %d; q++)" % m,
                    "      " + push % ("(q %% 2 ? y : x) + (q * %d + %d) %% N" % (a, b)) + ";"]
            op = r3.choice(["", "insert", "erase", "reverse"])
            if op == "insert":
                out.append("    pv.insert(pv.begin() + %d, y + %d);" % (r3.randrange(m + 1),
                                                                         r3.randrange(N)))
            elif op == "erase" and m > 2:
                out.append("    pv.erase(pv.begin() + %d);" % r3.randrange(m))
            elif op == "reverse":
                out.append("    std::reverse(pv.begin(), pv.end());")
            out += ["    double pacc = 0;",
                    "    for (size_t q = 0; q < pv.size(); q++)",
                    "      pacc += (double)(q + 1) * pv[q][0] * %s;" % r3.choice(
                        ["pv[q][0]", "x[q % N]", "sin(pv[q][0])"]),
                    "    acc0 += %.3f * tanh(pacc);" % r3.uniform(0.2, 0.8),
                    "  }"]
        return out
