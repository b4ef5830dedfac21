"""--primal-only: the program without the plugin's part. The
__enzyme_autodiff (or __enzyme_fwddiff) call is a plain call of f (the FD
loop still runs f many times) and main exits 0: compile it without the
plugin under -fsanitize=address,undefined to check the generator's
invariants (run.sh -P). With --calls the registered custom gradients (and
forward derivatives) are checked against central differences; with --fwd
main exits 1 when its primal checks fail (eval must compute what f
computes). The call sites themselves are ltfuzz/check.py's and
ltfuzz/forward.py's."""
from .mode import MainVariant


class Primal(MainVariant):
    name = "primal_only"
    flag = "--primal-only"
    help = ("replace the __enzyme_autodiff call by a plain call of "
            "f (for checking the program with sanitizers, no plugin); "
            "exit 0 unless the program crashes")
    cli_rank = 0.5  # in --help after --pointers, where it always was

    def on_defs(self):
        """The registered gradients agree with central differences."""
        if not (self.calls and self.hk.get("custom")):
            return []
        out = ["/* --primal-only: the registered gradients agree with central differences */",
               "static int lt_check_custom(void) {",
               "  static const double pts[3] = { -1.3, 0.2, 0.9 };",
               "  int bad = 0;",
               "  for (int i = 0; i < 3; i++) {",
               "    double v = pts[i], h = 1e-6, g, fdv;"]
        for h in self.hk["custom"]:
            out += ["    g = %s_grad(v, 1.0);" % h["name"],
                    "    fdv = (%s(v + h) - %s(v - h)) / (2.0 * h);" % (h["name"], h["name"])]
            out += self.custom_verdict("custom gradient", h["name"])
            if self.fwd and h.get("fwdreg"):
                out += ["    g = %s;" % (("%s_fwd(v, 1.0).t" if h["fwdreg"] == "pair"
                                         else "%s_fwd(v, 1.0)") % h["name"])]
                out += self.custom_verdict("forward derivative", h["name"])
        return out + ["  }", "  return bad;", "}", ""]

    @staticmethod
    def custom_verdict(what, name):
        return ["    if (fabs(g - fdv) > 1e-6 * (1.0 + fabs(g))) {",
                "      printf(\"%s %s wrong at %%g: %%g vs %%g\\n\", v, g, fdv);" % (what, name),
                "      bad++;", "    }"]

    def on_text(self, text):
        """No gradients: only the primal runs (sanitizers)."""
        end = "  if (bad) return 1;\n  if (unstable) return 77;\n  return 0;\n}\n"
        assert text.endswith(end)
        chk = ""
        if self.calls and self.hk.get("custom"):
            chk = "  if (lt_check_custom()) return 1; /* custom gradients vs FD */\n"
        if self.fwd:  # eval and main's primal checks hold without the plugin
            chk += "  if (pbad) return 1; /* --fwd: the primal checks */\n"
        return text[:-len(end)] + chk + "  (void)bad; (void)unstable;\n  return 0; /* --primal-only */\n}\n"
