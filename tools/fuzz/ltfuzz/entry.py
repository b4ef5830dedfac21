"""--entry: main chooses the function it differentiates by data. Besides
f the program defines f_alt, a function of f's type whose derivative is
not f's (0.5 * f, or f then out[0] halved when f returns void), and the
entry-point calls (__enzyme_autodiff, __enzyme_fwddiff*, the split pair)
name f through one of (per seed, from its own stream):
  ternary  `lt_pick ? (void *)f : (void *)f_alt` in the call itself;
  var      a local `void *lt_fn` set from such a ternary before the call;
  table    `lt_fns[lt_pick]`, a constant table {f_alt, f} or {f, f_alt};
  branch   `if (lt_pick) <call of f>; else <call of f_alt>;` (one call:
           not with --split), which -O2 merges into one call of a phi.
lt_pick is a volatile int that always selects f at run time, so the check
of f stands and a derivative of f_alt in its place is a MISMATCH (the
plugin splits a call whose function is a phi or select into one call per
function: front/target.c, lt_split_merged_calls). f is unchanged (C only:
not with --cxx or --eigen; nothing to do with --primal-only)."""
import random
import re

from .mode import MainVariant

CALL = re.compile(r"__enzyme_(?:autodiff|fwddiff\w*|augmentfwd|reverse_out)\(\(void \*\)f,")


class Entry(MainVariant):
    name = "entry"
    flag = "--entry"
    help = ("main picks the differentiated function by data: a ternary "
            "of f and f_alt in the call, a function-pointer variable, a "
            "table, or an if/else of two calls (merged by -O2); C only")

    def on_init(self):
        re_ = random.Random(self.seed * 1000003 + 9)
        self.e_form = re_.choice(["ternary", "var", "table", "branch"])
        self.e_first = re_.random() < 0.5  # f is the first choice

    @staticmethod
    def on_args(ap, args):
        if args.entry and (args.cxx or args.eigen):
            ap.error("--entry is for C programs (not --cxx, --eigen)")

    def e_alt(self, text):
        """f_alt's definition: f's signature, a different derivative."""
        m = re.search(r"^(double|void) f\(([^)]*)\) \{$", text, re.M)
        params = [p.strip() for p in m.group(2).split(",")]
        names = [re.search(r"(\w+)$", p).group(1) for p in params]
        call = "f(%s)" % ", ".join(names)
        head = "__attribute__((noinline)) " if self.e_first else ""
        if m.group(1) == "double":
            body = ["  return 0.5 * %s;" % call]
        else:
            body = ["  %s;" % call, "  out[0] = 0.5 * out[0];"]
        return ["/* --entry: a function of f's type with another derivative; main",
                "   chooses f by data (lt_pick, always f at run time) */",
                "static volatile int lt_pick = %d;" % (1 if self.e_first else 0),
                "%s%s f_alt(%s) {" % (head, m.group(1), ", ".join(params))] + body + ["}"]

    def e_pick(self):
        a, b = ("(void *)f", "(void *)f_alt") if self.e_first else ("(void *)f_alt", "(void *)f")
        return "lt_pick ? %s : %s" % (a, b)

    def on_text(self, text):
        if self.primal_only or self.cxx or not CALL.search(text):
            return text
        defs = self.e_alt(text)
        form = self.e_form
        if form == "branch" and len(CALL.findall(text)) != 1:
            form = "ternary"
        if form == "table":
            order = "(void *)f, (void *)f_alt" if not self.e_first else "(void *)f_alt, (void *)f"
            defs.append("static void *const lt_fns[2] = {%s};" % order)
        if form in ("ternary", "table"):
            ref = "(%s)" % self.e_pick() if form == "ternary" else "lt_fns[lt_pick]"
            text = CALL.sub(lambda mm: mm.group(0).replace("(void *)f,", ref + ","), text)
        elif form == "var":
            first = CALL.search(text)
            ls = text.rfind("\n", 0, first.start()) + 1
            ind = re.match(r"\s*", text[ls:]).group(0)
            text = text[:ls] + "%svoid *lt_fn = %s;\n" % (ind, self.e_pick()) + text[ls:]
            text = CALL.sub(lambda mm: mm.group(0).replace("(void *)f,", "lt_fn,"), text)
        else:
            first = CALL.search(text)
            ls = text.rfind("\n", 0, first.start()) + 1
            end = text.index(");", first.end()) + 2
            stmt = text[ls:end]
            ind = re.match(r"\s*", stmt).group(0)
            decl = re.match(r"\s*([A-Za-z_][\w ]*?) (\w+) = __enzyme_", stmt)
            if decl:  # `lt_tan tr = __enzyme_fwddiff_w(...)`: declared before the if
                text = text[:ls] + "%s%s %s;\n" % (ind, decl.group(1), decl.group(2)) + text[ls:]
                ls += len(ind) + len(decl.group(1)) + len(decl.group(2)) + 2
                end += len(ind) + len(decl.group(1)) + len(decl.group(2)) + 2
                stmt = ind + stmt[len(ind) + len(decl.group(1)) + 1:]
            alt = stmt.replace("(void *)f,", "(void *)f_alt,", 1)
            one, two = (stmt, alt) if self.e_first else (alt, stmt)
            text = (text[:ls] + "%sif (lt_pick) {\n%s\n%s} else {\n%s\n%s}" % (
                ind, re.sub("(?m)^", "  ", one), ind, re.sub("(?m)^", "  ", two), ind) + text[end:])
        anchor = "static volatile int n_runtime = N; /* keeps n opaque to the optimiser */\n"
        assert anchor in text
        return text.replace(anchor, anchor + "\n" + "\n".join(defs) + "\n", 1)
