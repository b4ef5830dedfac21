"""--split: main differentiates in split mode: the __enzyme_autodiff call
becomes __enzyme_augmentfwd then __enzyme_reverse with the same arguments
(the adjoint 1.0 of f's double result before the tape; the reverse call
returns the enzyme_out gradient), nothing between them, so the automatic
pairing of splitpair.c applies. A transform of the reverse-mode C program
(not with --cxx or --fwd; nothing to do with --primal-only)."""
import re

from .mode import MainVariant


class Split(MainVariant):
    name = "split"
    flag = "--split"
    help = ("main differentiates in split mode: __enzyme_augmentfwd "
            "then __enzyme_reverse with the same arguments (C, reverse "
            "mode: not with --cxx or --fwd)")

    @staticmethod
    def on_args(ap, args):
        if args.split and (args.cxx or args.fwd):
            ap.error("--split is for C reverse mode (not --cxx, not --fwd)")

    def on_text(self, text):
        if self.primal_only:
            return text
        m = re.search(r'(ds = )?__enzyme_autodiff\(\(void \*\)f,(.*?)\);', text, re.S)
        if not m:
            return text
        args = m.group(2)
        fdef = re.search(r'^(double|void) f\(', text, re.M)
        dret = ", 1.0" if fdef and fdef.group(1) == "double" else ""
        rep = ("void *lt_tape = __enzyme_augmentfwd((void *)f,%s);\n  "
               "%s__enzyme_reverse_out((void *)f,%s%s, lt_tape);"
               % (args, m.group(1) or "", args, dret))
        text = text[:m.start()] + rep + text[m.end():]
        decl = ("/* --split: __enzyme_reverse returning the enzyme_out gradient */\n"
                "double __enzyme_reverse_out(void *, ...);\n")
        return text.replace("#include <leantape.h>\n", "#include <leantape.h>\n" + decl, 1)
