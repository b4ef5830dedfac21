"""--fwd: main checks forward mode (__enzyme_fwddiff) instead of reverse
mode. Every choice of the forward-mode call comes from its own random
stream (seeded from the seed), so f is the same program as without --fwd,
evaluated at the same point. The active scalar inputs are packed as in
--pointers, v = [x, y (or the --alias buffer), s, sp->w]; the outputs as
F = [f's result, x and y (or the buffer) as f leaves them, out[]]. Each of
W directions (W = 1, 2 or 4; dense, sparse or a unit vector, constants in
the program) is a tangent lane: lane k of the tangent memory of x and y
holds direction k before the call and must hold the tangent of x and y as
f leaves them after it; out[] (enzyme_dupnoneed, or enzyme_dup) gets the
tangent of out; the call returns the tangent of f's result (a struct of W
doubles with enzyme_width, {result, tangents} with enzyme_primal_return,
for some seeds; void when f only writes out[]). Pointer shadows are W
pointers (enzyme_dup) or one pointer and a stride in bytes (enzyme_dupv /
enzyme_dupnoneedv: a constant, an int or a run-time value) into one buffer
of W lanes with PAD-filled padding between them; scalars (s) are followed
by their W tangents (enzyme_dup or unmarked). Every lane is compared with
the central difference of F along its direction (check.compare); main also
checks the call's primal results (x and y unless enzyme_dupnoneed, out
with enzyme_dup, the primal_return value) against f's, that the padding is
untouched and that c is not modified. With --calls most custom-gradient
helpers also get a registered forward derivative
(__enzyme_register_derivative_<name> = {fn, fn_fwd}); the others are left
with their gradient only, so forward mode has to differentiate their
bodies. Combines with every other option but --split."""
import random

from .check import NOTE_FORWARD, PRELUDE, compare, const_check, ind, packing, vdesc, views_copy, wrap
from .mode import Mode
from .shapes import N


class Forward(Mode):
    name = "fwd"
    flag = "--fwd"
    help = ("main checks forward mode instead: __enzyme_fwddiff "
            "along seed-chosen directions of x, y and the other active "
            "scalars (enzyme_dup, enzyme_dupnoneed outputs), for some "
            "seeds enzyme_width 2 or 4 with N shadow pointers or "
            "enzyme_dupv strides; the tangents of f's result, of x and "
            "y as f leaves them and of out[] are compared with central "
            "differences along each direction")
    keeps_f = True  # its draws come from its own stream

    FARGS = ("x", "y", "sp", "out")

    def on_init(self):
        rf = self.rf = random.Random(self.seed * 1000003 + 2)
        self.f_nx, self.f_is, self.f_iw, self.f_nv = packing(self)
        nv = self.f_nv
        self.f_hr = not (self.pointers and self.out_mode == "out")
        self.f_nout = self.nout if self.pointers else 0
        W = self.f_w = 1 if rf.random() < 0.5 else rf.choice([2, 4])
        vm = rf.choice(["dup", "dupv", "mixed"]) if W > 1 else "dup"
        self.f_vmode = {}
        for a in self.FARGS:
            self.f_vmode[a] = vm if vm != "mixed" else rf.choice(["dup", "dupv"])
        self.f_stride = {}
        for a in self.FARGS:
            self.f_stride[a] = rf.choice(["sizeof", "int", "rt"])
        self.f_smark = rf.choice(["enzyme_dup, ", ""])
        self.f_outdup = rf.random() < 0.3
        t = rf.random()
        self.f_noneed = rf.choice("xy") if not self.alias and t < 0.15 else None
        self.f_pr = rf.random() < 0.25 and self.f_hr
        self.f_pr_first = rf.random() < 0.5
        self.f_pad = {}
        for a in ("x", "y", "b", "o"):
            self.f_pad[a] = rf.choice([0, 0, 1, 3])
        self.f_dirs, self.f_kinds = [], []
        for _ in range(W):
            t = rf.random()
            if t < 0.55:
                kind, d = "dense", [round(rf.uniform(-1, 1), 3) for _ in range(nv)]
            elif t < 0.85:
                kind = "sparse"
                d = [round(rf.uniform(-1, 1), 3) if rf.random() < 0.35 else 0.0
                     for _ in range(nv)]
                if not any(d):
                    d[rf.randrange(nv)] = 1.0
            else:
                kind, d = "unit", [0.0] * nv
                d[rf.randrange(nv)] = 1.0
            self.f_dirs.append(d)
            self.f_kinds.append(kind)

    def on_defs(self):
        """Forward derivatives of the custom-gradient helpers (--calls)."""
        if not (self.calls and self.hk.get("custom")):
            return []
        out = ["/* --fwd: forward derivatives of the custom-gradient helpers",
               "   (__enzyme_register_derivative_<name> = {fn, fn_fwd}, fn_fwd(v, dv)",
               "   returning {result, tangent} or the tangent alone); a helper without",
               "   one has only its gradient registered, which forward mode cannot use:",
               "   its body is differentiated (as Enzyme does) */",
               "typedef struct lt_pt { double p, t; } lt_pt;", ""]
        for h in self.hk["custom"]:
            t = self.rf.random()
            h["fwdreg"] = None if t < 0.25 else "pair" if t < 0.65 else "tan"
            n = h["name"]
            if h["fwdreg"] is None:
                out += ["/* %s: no forward derivative registered */" % n, ""]
                continue
            if h["fwdreg"] == "pair":
                out += ["lt_pt %s_fwd(double v, double dv) { /* the gradient applied to dv */" % n,
                        "  lt_pt r = { %s(v), %s_grad(v, dv) };" % (n, n),
                        "  return r;", "}"]
            else:
                out += ["double %s_fwd(double v, double dv) { return %s_grad(v, dv); }" % (n, n)]
            out += ["void *__enzyme_register_derivative_%s[2] = {(void *)%s, (void *)%s_fwd};"
                    % (n, n, n), ""]
        return out

    def flanes(self, a):
        """(lane buffer, the W shadow pointers of argument a)."""
        W = self.f_w
        if a in ("x", "y"):
            if self.alias:
                return "dbl", ["dbl[%d] + %s" % (k, "XA" if a == "x" else "YA") for k in range(W)]
            buf = "d%sl" % a
            return buf, ["%s[%d]" % (buf, k) for k in range(W)]
        if a == "sp":
            return "dps", ["&dps[%d]" % k for k in range(W)]
        return "dol", ["dol[%d]" % k for k in range(W)]

    def fptrarg(self, a, prim, noneed):
        """The markers, primal and shadows of pointer argument a."""
        buf, lanes = self.flanes(a)
        if self.f_vmode[a] == "dupv":
            st = {"sizeof": "sizeof %s[0]", "int": "(int)sizeof %s[0]",
                  "rt": "(long)(n / N) * (long)sizeof %s[0]"}[self.f_stride[a]] % buf
            mk = "enzyme_dupnoneedv" if noneed else "enzyme_dupv"
            return [", ".join([mk, st, prim, lanes[0]])]
        return [", ".join(["enzyme_dupnoneed" if noneed else "enzyme_dup", prim] + lanes)]


    def f_eval(self):
        """eval's body: the outputs F of f at v."""
        P, HR, nout = self.pointers, self.f_hr, self.f_nout
        ev = views_copy(self, "v")
        args = ["x", "y"] + (["c"] if P else []) + ["n"]
        if self.has_s:
            args.append("v[%d]" % self.f_is)
        if P and self.sparam:
            ev.append("struct S ps = { %s + %d, v[%d], %d };" % (
                self.sp_base, self.sp_off, self.f_iw, self.sp_k))
            args.append("&ps")
        if nout:
            ev.append("double o[NOUT];")
            args.append("o")
        ev.append("%sf(%s);" % ("F[0] = " if HR else "", ", ".join(args)))
        if self.alias:
            ev.append("memcpy(F + HR, b, sizeof b);")
        else:
            ev += ["memcpy(F + HR, x, sizeof x);", "memcpy(F + HR + N, y, sizeof y);"]
        if nout:
            ev.append("memcpy(F + HR + NX, o, %d * sizeof *o);" % nout)
        return ev

    def f_call(self):
        """(the entry point's return type, its name, the call's lines)."""
        W, HR, P = self.f_w, self.f_hr, self.pointers
        prim_args = ["x", "y"] + (["c"] if P else []) + ["n"]
        toks = []
        if self.f_pr and self.f_pr_first:
            toks.append("enzyme_primal_return")
        if W > 1:
            toks.append("enzyme_width, %d" % W)
        toks += self.fptrarg("x", "x", self.f_noneed == "x")
        toks += self.fptrarg("y", "y", self.f_noneed == "y")
        if P:
            toks.append("enzyme_const, c")
        toks.append("enzyme_const, n")
        if self.has_s:
            toks.append(", ".join([self.f_smark + "s0"] + ["dirs[%d][%d]" % (k, self.f_is)
                                                          for k in range(W)]))
            prim_args.append("s0")
        if P and self.sparam:
            toks += self.fptrarg("sp", "&ps", False)
            prim_args.append("&ps")
        if self.f_nout:
            toks += self.fptrarg("out", "o", not self.f_outdup)
            prim_args.append("o")
        if self.f_pr and not self.f_pr_first:
            toks.append("enzyme_primal_return")
        if not HR:
            rty, cname, lhs = "void", "__enzyme_fwddiff_v", ""
        elif self.f_pr:
            rty, cname, lhs = "lt_ptan", "__enzyme_fwddiff_pr", "lt_ptan tr = "
        elif W > 1:
            rty, cname, lhs = "lt_tan", "__enzyme_fwddiff_w", "lt_tan tr = "
        else:
            rty, cname, lhs = "double", "__enzyme_fwddiff", "double tr = "
        if self.cxx:
            cname = "__enzyme_fwddiff<%s>" % rty
        if self.primal_only:
            return rty, cname, ["%s(%s); /* --primal-only: __enzyme_fwddiff removed */" % (
                ("dret_p = f" if self.f_pr else "(void)f") if HR else "f", ", ".join(prim_args))]
        call = wrap(lhs + cname + "((void *)f", toks, "    ")
        if HR and self.f_pr:
            call += ["dret_p = tr.p;", "for (int k = 0; k < W; k++) dret[k] = tr.t[k];"]
        elif HR and W > 1:
            call += ["for (int k = 0; k < W; k++) dret[k] = tr.t[k];"]
        elif HR:
            call += ["dret[0] = tr;"]
        return rty, cname, call

    def f_decl(self, rty, cname):
        """The sizes, the entry point's declaration and the directions."""
        W, nout = self.f_w, self.f_nout
        decl = ["/* --fwd: forward mode, %d direction%s (%s) */" % (
            W, "s" if W > 1 else "", ", ".join(self.f_kinds))]
        decl += ["#define W %d  /* enzyme_width */" % W,
                 "#define NX %d /* the x and y entries of v (and of F) */" % self.f_nx,
                 "#define NV %d" % self.f_nv,
                 "#define HR %d /* F[0] is f's result */" % self.f_hr,
                 "#define NOUT %d" % max(1, nout),
                 "#define NF (HR + NX + %d) /* the outputs */" % nout,
                 "#define PAD 77.25 /* between the tangent lanes: never written */"]
        if not self.alias:
            decl += ["#define LX %d /* the lanes of x's tangent memory, %d apart */" % (
                         N + self.f_pad["x"], N + self.f_pad["x"]),
                     "#define LY %d" % (N + self.f_pad["y"])]
        else:
            decl.append("#define LB (NB + %d) /* the lanes of the buffer's tangent memory */"
                        % self.f_pad["b"])
        if nout:
            decl.append("#define LO (NOUT + %d)" % self.f_pad["o"])
        if not self.cxx:
            decl += ["extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_primal_return;"]
        if rty == "lt_tan":
            decl.append("typedef struct lt_tan { double t[W]; } lt_tan; /* the W tangents */")
        if rty == "lt_ptan":
            decl.append("typedef struct lt_ptan { double p; double t[W]; } lt_ptan; "
                        "/* enzyme_primal_return */")
        if not self.cxx:
            decl.append("%s %s(void *, ...);" % (rty, cname))
        decl += ["", "/* the directions: lane k's tangents of v */",
                 "static const double dirs[W][NV] = {"]
        decl += ["  { %s }," % ", ".join("%.3f" % e for e in d) for d in self.f_dirs]
        return decl + ["};"]

    def f_setup(self, call):
        """main's inputs, tangent memory and the call."""
        W, IW = self.f_w, self.f_iw
        if self.alias:
            ms = ["double buf[NB];", "memcpy(buf, v0, sizeof buf);",
                  "double *x = buf + XA, *y = buf + YA; /* the aliasing views */"]
        else:
            ms = ["double x[N], y[N];", "memcpy(x, v0, sizeof x);",
                  "memcpy(y, v0 + N, sizeof y);"]
        if self.pointers:
            ms += ["double c[N];", "memcpy(c, c0, sizeof c);"]
        ms.append("/* tangent memory: lane k holds direction k, PAD between the lanes */")
        if self.alias:
            ms += ["double dbl[W][LB]; /* dx = dbl[k] + XA, dy = dbl[k] + YA: the same layout */",
                   "for (int k = 0; k < W; k++)",
                   "  for (int i = 0; i < LB; i++) dbl[k][i] = i < NB ? dirs[k][i] : PAD;"]
        else:
            ms += ["double dxl[W][LX], dyl[W][LY];",
                   "for (int k = 0; k < W; k++) {",
                   "  for (int i = 0; i < LX; i++) dxl[k][i] = i < N ? dirs[k][i] : PAD;",
                   "  for (int i = 0; i < LY; i++) dyl[k][i] = i < N ? dirs[k][N + i] : PAD;",
                   "}"]
        if self.pointers and self.sparam:
            base = self.sp_base
            ms.append("struct S ps = { %s + %d, v0[%d], %d };" % (base, self.sp_off, IW, self.sp_k))
            if base == "c":
                ms += ["double dcl[W][N]; /* the tangent of c as seen through sp->p: zero */",
                       "memset(dcl, 0, sizeof dcl);"]
            dbase = {"x": ("dbl[k] + XA" if self.alias else "dxl[k]"),
                     "y": ("dbl[k] + YA" if self.alias else "dyl[k]"), "c": "dcl[k]"}[base]
            ms += ["struct S dps[W]; /* shadows: shadow pointer, w's tangent, k copied */",
                   "for (int k = 0; k < W; k++) {",
                   "  dps[k].p = %s + %d;" % (dbase, self.sp_off),
                   "  dps[k].w = dirs[k][%d];" % IW,
                   "  dps[k].k = %d;" % self.sp_k, "}"]
        if self.f_nout:
            ms += ["double o[NOUT], dol[W][LO]; /* out's tangents: f must overwrite them */",
                   "memset(o, 0, sizeof o);",
                   "for (int k = 0; k < W; k++)",
                   "  for (int i = 0; i < LO; i++) dol[k][i] = i < %d ? 1000.0 + i + 10.0 * k : PAD;"
                   % self.f_nout]
        ms += ["double dret[W], dret_p = 0.0; /* the tangents of f's result */",
               "memset(dret, 0, sizeof dret);"]
        return ms + call + ["(void)dret_p;"]

    def f_checks(self):
        """main's checks: c, the call's primal results, the padding, and
        every lane's tangents against central differences."""
        nout, HR = self.f_nout, self.f_hr
        c0a = ", c0" if self.pointers else ""
        ck = const_check() if self.pointers else []
        ck += ["double F0[NF];", "eval(v0%s, n, F0);" % c0a,
               "/* the primal side effects of the call: x and y as f leaves them */"]
        prim = []
        if self.alias:
            prim.append(("buf[i]", "NB", "HR + i", "buf[%d]"))
        else:
            if self.f_noneed != "x":
                prim.append(("x[i]", "N", "HR + i", "x[%d]"))
            if self.f_noneed != "y":
                prim.append(("y[i]", "N", "HR + N + i", "y[%d]"))
        if nout and self.f_outdup:
            prim.append(("o[i]", str(nout), "HR + NX + i", "out[%d]"))
        for val, cnt, fj, nm in prim:
            ck += ["for (int i = 0; i < %s; i++)" % cnt,
                   "  if (!same(%s, F0[%s])) {" % (val, fj),
                   "    printf(\"MISMATCH primal %s: after the call %%.12g, f alone %%.12g\\n\", i, %s, F0[%s]);"
                   % (nm, val, fj),
                   "    pbad++;", "  }"]
        if self.f_pr:
            ck += ["if (!same(dret_p, F0[0])) {",
                   "  printf(\"MISMATCH primal result (enzyme_primal_return): %.12g, f alone %.12g\\n\",",
                   "         dret_p, F0[0]);",
                   "  pbad++;", "}"]
        ck.append("/* the padding between the lanes of the tangent memory is untouched */")
        pads = []
        if self.alias:
            pads.append(("dbl", "NB", "LB" if self.f_pad["b"] else "NB"))
        else:
            pads += [("dxl", "N", "LX" if self.f_pad["x"] else "N"),
                     ("dyl", "N", "LY" if self.f_pad["y"] else "N")]
        if nout:
            pads.append(("dol", str(nout), "LO" if self.f_pad["o"] else str(nout)))
        for b, lo, hi in pads:
            if lo == hi:
                continue
            ck += ["for (int k = 0; k < W; k++)",
                   "  for (int i = %s; i < %s; i++)" % (lo, hi),
                   "    if (%s[k][i] != PAD) {" % b,
                   "      printf(\"MISMATCH %s[%%d][%%d] (padding) was written: %%.12g\\n\", k, i, %s[k][i]);"
                   % (b, b),
                   "      bad++;", "    }"]
        gather = ["ad[0] = dret[k];"] if HR else []
        if self.alias:
            gather.append("for (int i = 0; i < NB; i++) ad[HR + i] = dbl[k][i];")
        else:
            gather += ["for (int i = 0; i < N; i++) {", "  ad[HR + i] = dxl[k][i];",
                       "  ad[HR + N + i] = dyl[k][i];", "}"]
        if nout:
            gather.append("for (int i = 0; i < %d; i++) ad[HR + NX + i] = dol[k][i];" % nout)
        ck += ["int checked = 0;",
               "for (int k = 0; k < W; k++) {",
               "  double ad[NF], fd1[NF], fd2[NF], fdH[NF], fdH2[NF];",
               "  int haver = 0;"]
        ck += ["  " + l for l in gather]
        ck += ["  double h = 1e-6;",
               "  fd(v0%s, n, dirs[k], h, fd1);" % c0a,
               "  fd(v0%s, n, dirs[k], 2.0 * h, fd2);" % c0a,
               "  double gmax = 0.0;",
               "  for (int j = 0; j < NF; j++)",
               "    if (fabs(fd1[j]) > gmax) gmax = fabs(fd1[j]);",
               "  for (int j = 0; j < NF; j++) {"]
        ck += ["    " + l for l in compare(
            "j", ["char nm[64];", "out_name(nm, sizeof nm, k, j);"],
            ["if (!haver) {",
             "  fd(v0%s, n, dirs[k], 1e3 * h, fdH);" % c0a,
             "  fd(v0%s, n, dirs[k], 0.5e3 * h, fdH2);" % c0a,
             "  haver = 1;", "}",
             "double r = (4.0 * fdH2[j] - fdH[j]) / 3.0;"], NOTE_FORWARD,
            pre=["double floor_ = 1e-8 * gmax + 1e-9 * (fabs(F0[j]) > 1.0 ? fabs(F0[j]) : 1.0);"],
            count=["checked++;"])]
        return ck + ["  }", "}",
                     "printf(\"f=%.12g width=%d checked=%d mismatches=%d unstable=%d primal=%d\\n\",",
                     "       F0[0], W, checked, bad, unstable, pbad);",
                     "if (pbad) bad++;"]

    def f_names(self):
        """out_name's body: the name of output j's tangent in lane k."""
        nmc = ["  int l = W > 1 ? snprintf(nm, len, \"lane %d \", k) : 0;",
               "  nm += l;", "  len -= (size_t)l;"]
        if self.f_hr:
            nmc.append("  if (j == 0) { snprintf(nm, len, \"dret\"); return; }")
        nmc.append("  j -= HR;")
        if self.alias:
            nmc += ["  int k2 = j;"] + self.alias_names("k2", "", True)
        else:
            nmc += ["  if (j < N) { snprintf(nm, len, \"dx[%d]\", j); return; }",
                    "  if (j < 2 * N) { snprintf(nm, len, \"dy[%d]\", j - N); return; }"]
        return nmc + ["  snprintf(nm, len, \"dout[%d]\", j - NX);"]

    def on_main(self, fn):
        P, nout = self.pointers, self.f_nout
        rty, cname, call = self.f_call()
        fdesc = (["F[0] = f's result"] if self.f_hr else []) + [
            "F[HR..HR+NX) = %s as f leaves them" % ("the buffer" if self.alias else "x and y")]
        if nout:
            fdesc.append("F[HR+NX..NF) = out[] (enzyme_%s)" % ("dup" if self.f_outdup else "dupnoneed"))
        # the sample point, as in the reverse-mode program of this seed
        init = ["for (int i = 0; i < NX; i++) v0[i] = rnd();", "s0 = rnd();"]
        if P:
            init += ["for (int i = 0; i < N; i++) c0[i] = rnd();",
                     "for (int i = NX; i < NV; i++) v0[i] = rnd();"]
        if self.has_s:
            init.append("v0[%d] = s0;" % self.f_is)
        cp, ca = (", const double *c", ", c") if P else ("", "")
        return self.head() + "\n".join(fn) + "\n" + MAIN % {
            "seed": self.seed, "alias": self.alias_defs() if self.alias else "",
            "decl": "\n".join(self.f_decl(rty, cname)),
            "vdesc": vdesc(self, self.f_is, self.f_iw), "fdesc": ",\n     ".join(fdesc),
            "cp": cp, "ca": ca, "ev": ind(self.f_eval()), "nmc": ind(self.f_names(), ""),
            "c0d": ", c0[N]" if P else "", "init": ind(init), "ms": ind(self.f_setup(call)),
            "ck": ind(self.f_checks())}


MAIN = PRELUDE + """%(alias)s
%(decl)s

/* The active scalar inputs, packed: %(vdesc)s.
   The outputs, packed: %(fdesc)s.
   Evaluated on copies: f may overwrite x and y in place. */
static void eval(const double *v%(cp)s, int n, double *F) {
%(ev)s}

/* central difference of F along direction d with step h */
static void fd(const double *v0%(cp)s, int n, const double *d, double h,
               double *out) {
  double vp[NV], vm[NV], Fp[NF], Fm[NF];
  for (int i = 0; i < NV; i++) {
    vp[i] = v0[i] + h * d[i];
    vm[i] = v0[i] - h * d[i];
  }
  eval(vp%(ca)s, n, Fp);
  eval(vm%(ca)s, n, Fm);
  for (int j = 0; j < NF; j++) out[j] = (Fp[j] - Fm[j]) / (2.0 * h);
}

/* the primal results of the call against f's (the same operations) */
static int same(double a, double b) {
  return fabs(a - b) <= 1e-9 * (fabs(b) > 1.0 ? fabs(b) : 1.0);
}

/* the name of output j's tangent in lane k */
static void out_name(char *nm, size_t len, int k, int j) {
%(nmc)s}

int main(void) {
  double v0[NV], s0 = 0.0%(c0d)s;
%(init)s  (void)s0;
  int n = n_runtime;

%(ms)s
  int bad = 0, unstable = 0, pbad = 0;
%(ck)s  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
"""
