"""The check: main, written once. It evaluates f at a deterministic point,
differentiates it through the plugin, and compares every derivative entry
with a central difference of f (step h; Richardson's extrapolation from
1e3 h as a second opinion against rounding noise). Exit status 0: all
agree, 1: a mismatch, 77: inconclusive (the difference itself is unstable,
a data branch flips within the step).

The reverse-mode check (reverse_main) is one template whose slots come
from the layout of f's active inputs: separate arguments (x, y, s; or the
--alias buffer and s), or, with --pointers, one packed vector v (x and y
or the buffer, then s and sp->w) besides c and out. compare() is the
per-entry comparison, shared with the forward-mode check
(ltfuzz/forward.py)."""
from .shapes import N

PRELUDE = """
static unsigned long long lt_state = %(seed)dULL * 2654435761ULL + 12345ULL;
static double rnd(void) { /* deterministic, in [-1, 1] */
  lt_state = lt_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lt_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static volatile int n_runtime = N; /* keeps n opaque to the optimiser */
"""

# the second opinion's comment in the reverse and in the forward check
NOTE_REVERSE = ["/* a second opinion less sensitive to rounding noise in f (which the",
                "   step h amplifies by 1/h): Richardson's extrapolation from the",
                "   steps H = 1e3 h and H/2 (error O(H^4)) */"]
NOTE_FORWARD = ["/* a second opinion less sensitive to rounding noise in f",
                "   (amplified by 1/h): Richardson's extrapolation from the",
                "   steps H = 1e3 h and H/2 (error O(H^4)) */"]


def compare(j, names, richardson, note, pre=(), count=()):
    """The comparison of entry j: ad[j] against fd1[j] (fd2[j]: step 2h),
    Richardson's r (from the lines richardson) when they disagree. names:
    lines that declare and fill nm; pre: lines before scale (floor_ when it
    is per entry); count: lines after it."""
    body = list(names) + list(pre) + [
        "double scale = fabs(fd1[@]) > fabs(ad[@]) ? fabs(fd1[@]) : fabs(ad[@]);"
    ] + list(count) + [
        "if (fabs(fd1[@] - fd2[@]) > 1e-6 * fabs(fd1[@]) + 10.0 * floor_) {",
        '  printf("unstable FD %s: fd(h)=%.12g fd(2h)=%.12g ad=%.12g\\n", nm,',
        "         fd1[@], fd2[@], ad[@]);",
        "  unstable++;",
        "  continue;",
        "}",
        "if (!(fabs(ad[@] - fd1[@]) <= 1e-5 * scale + floor_)) {",
    ] + ["  " + l for l in list(note) + list(richardson)] + [
        "  if (fabs(ad[@] - r) <= 1e-5 * scale + floor_) {",
        '    printf("noisy FD %s: fd(h)=%.12g richardson(1e3 h)=%.12g ad=%.12g\\n",',
        "           nm, fd1[@], r, ad[@]);",
        "    continue;",
        "  }",
        '  printf("MISMATCH %s: ad=%.12g fd=%.12g (abs err %.3g) richardson(1e3 h)=%.12g\\n",',
        "         nm, ad[@], fd1[@], fabs(ad[@] - fd1[@]), r);",
        "  bad++;",
        "}"]
    return [l.replace("@", j) for l in body]


def wrap(first, toks, cont, width=78):
    """A call first(toks...) as lines of at most width characters, each
    continuation line cont followed by the tokens that fit."""
    lines, cur = [], first
    for a in toks:
        if len(cur) + len(a) + 2 > width:
            lines.append(cur + ",")
            cur = cont + a
        else:
            cur += ", " + a
    return lines + [cur + ");"]


def views_copy(g, src):
    """Lines that copy the inputs x and y (or their --alias buffer) from the
    packed vector src into local arrays of f's shape."""
    if g.alias:
        return ["double b[NB]; /* a copy of the whole buffer, viewed as in main */",
                "memcpy(b, %s, sizeof b);" % src,
                "double *x = b + XA, *y = b + YA;"]
    return ["double x[N], y[N];", "memcpy(x, %s, sizeof x);" % src,
            "memcpy(y, %s + N, sizeof y);" % src]


def ind(lines, sp="  "):
    return "".join(sp + l + "\n" for l in lines)


def proto(head, params, width=80):
    """A C function head `head(params) {`, broken after the last parameter
    that fits in width, aligned with the parenthesis."""
    cur, out = head + "(" + params[0], []
    for k, p in enumerate(params[1:]):
        end = ") {" if k == len(params) - 2 else ","
        if len(cur) + 2 + len(p) + len(end) > width:
            out.append(cur + ",")
            cur = " " * (len(head) + 1) + p
        else:
            cur += ", " + p
    return "\n".join(out + [cur + ") {"])


# --------------------------------------------------- the reverse-mode check
SKELETON = PRELUDE + """%(decls)s
%(eval_doc)s
static double eval(%(eval_params)s) {
%(eval_body)s}

%(fd_doc)s
%(fd_proto)s
%(fd_body)s}
%(names)s
int main(void) {
  double %(init_decl)s, s0 = 0.0;
%(init)s  (void)s0;
  int n = n_runtime;

%(setup)s  double ds = 0.0;
%(main_setup)s  %(call)s
  (void)ds;
%(after)s
  double fval = eval(%(fval)s);
  double ad[%(nk)s], fd1[%(nk)s], fd2[%(nk)s], hk[%(nk)s];
%(gather)s  double gmax = 0.0;
  for (int k = 0; k < %(K)s; k++) {
%(per_k)s    double h = 1e-6 * (fabs(%(v)s) > 1.0 ? fabs(%(v)s) : 1.0);
    hk[k] = h;
    fd1[k] = fd(%(fdargs)s, k, h);
    fd2[k] = fd(%(fdargs)s, k, 2.0 * h);
    if (fabs(fd1[k]) > gmax) gmax = fabs(fd1[k]);
  }
  double floor_ = 1e-8 * gmax + 1e-9 * (fabs(fval) > 1.0 ? fabs(fval) : 1.0);
%(bad)s  for (int k = 0; k < %(K)s; k++) {
%(compare)s  }
  printf("f=%%.12g gmax=%%.6g checked=%%d mismatches=%%d unstable=%%d\\n", fval,
         gmax, %(K)s, bad, unstable);
  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
"""

BAD = "  int bad = 0, unstable = 0;\n"


def chain(arrs, fmt, last):
    """k < A ? fmt(a) : k < B ? ... : last, over the coordinate ranges."""
    return "".join("%s ? %s : " % (a["cond"], fmt % a) for a in arrs) + last


def separate(g):
    """The slots of inputs passed separately: x0, y0 (or the buffer b0) and
    s0, each coordinate k of the gradient one of them."""
    s = g.has_s
    s_par, s_arg = (", double s", ", s") if s else ("", "")
    if g.alias:
        arrs = [dict(e="b", m="buf", size="NB", cond="k < NB", at="k")]
        views = "b + XA, b + YA"
        eval_doc = ("/* f on a copy of the whole buffer (f may overwrite x and y in place), with\n"
                    "   the same views x = b + XA, y = b + YA. */")
        fd_doc = ("/* central difference of eval in coordinate k (k < NB: buffer element k,\n"
                  "   else s) with step h */")
        nx, names = "NB", ["char nm[40];", "coord_name(nm, sizeof nm, k);"]
        fn = g.alias_names("k", "int ", False) + ['  else snprintf(nm, len, "ds");']
    else:
        arrs = [dict(e="x", m="x", size="N", cond="k < N", at="k"),
                dict(e="y", m="y", size="N", cond="k < 2 * N", at="k - N")]
        views = "x, y"
        eval_doc = "/* f on copies: f may overwrite x and y in place. */"
        fd_doc = ("/* central difference of eval in coordinate k (k < N: x, k < 2N: y, else s)\n"
                  "   with step h */")
        nx, names, fn = "2 * N", ["char nm[16];"] + xy_names("sizeof nm") + [
            'else snprintf(nm, sizeof nm, "ds");'], None
    e = [a["e"] for a in arrs]
    pm = ["%sp" % a for a in e] + ["%sm" % a for a in e]
    fd_body = ["double %s, sp = s0, sm = s0;" % ", ".join("%s[%s]" % (p, arrs[0]["size"]) for p in pm)]
    fd_body += ["memcpy(%sp, %s0, sizeof %sp); memcpy(%sm, %s0, sizeof %sm);" % ((a,) * 6) for a in e]
    fd_body += ["%sif (%s) { %sp[%s] += h; %sm[%s] -= h; }" % (
        "else " if i else "", a["cond"], a["e"], a["at"], a["e"], a["at"]) for i, a in enumerate(arrs)]
    fd_body += ["else { sp += h; sm -= h; }", "(void)sp; (void)sm;",
                "return (eval(%s, n%s) - eval(%s, n%s)) / (2.0 * h);" % (
                    ", ".join(pm[:len(e)]), ", sp" if s else "",
                    ", ".join(pm[len(e):]), ", sm" if s else "")]
    setup = ["double %s;" % ", ".join(["%s[%s]" % (a["m"], a["size"]) for a in arrs]
                                      + ["d%s[%s]" % (a["m"], a["size"]) for a in arrs])]
    setup += ["memcpy(%s, %s0, sizeof %s);" % (a["m"], a["e"], a["m"]) for a in arrs]
    setup += ["memset(d%s, 0, sizeof d%s);" % (a["m"], a["m"]) for a in arrs] + alias_views(g)
    args = ", ".join("%s0" % a for a in e)
    return {
        "decls": g.alias_defs() if g.alias else "",
        "eval_doc": eval_doc,
        "eval_params": ", ".join(["const double *%s0" % a for a in e] + ["int n"]) + s_par,
        "eval_body": ind(["double %s;" % ", ".join("%s[%s]" % (a["e"], a["size"]) for a in arrs)]
                         + ["memcpy(%s, %s0, sizeof %s);" % (a, a, a) for a in e]
                         + ["return f(%s, n%s);" % (views, s_arg)]),
        "fd_doc": fd_doc,
        "fd_proto": proto("static double fd", ["const double *%s0" % a for a in e]
                          + ["int n", "double s0", "int k", "double h"]),
        "fd_body": ind(fd_body),
        "names": "" if fn is None else coord_name(fn),
        "init_decl": ", ".join("%s0[%s]" % (a["e"], a["size"]) for a in arrs),
        "init": ind(["for (int i = 0; i < %s; i++) %s0[i] = rnd();" % (a["size"], a["e"])
                     for a in arrs] + ["s0 = rnd();"]),
        "setup": ind(setup), "main_setup": "",
        "call": autodiff_call(g, ["enzyme_dup, x, dx", "enzyme_dup, y, dy", "enzyme_const, n"]
                              + ["enzyme_out, s0"] * s, ["x", "y", "n"] + ["s0"] * s, True),
        "after": "", "fval": args + ", n" + (", s0" if s else ""), "nk": nx + " + 1",
        "gather": "  int K = %s + %d;\n" % (nx, s), "K": "K",
        "per_k": ind(["ad[k] = %s;" % chain(arrs, "d%(m)s[%(at)s]", "ds"),
                      "double v = %s;" % chain(arrs, "%(e)s0[%(at)s]", "s0")], "    "),
        "v": "v", "fdargs": args + ", n, s0", "bad": BAD,
        "compare": ind(compare("k", names, [
            "double H = 1e3 * hk[k];",
            "double r = (4.0 * fd(%s, n, s0, k, 0.5 * H) - fd(%s, n, s0, k, H)) / 3.0;"
            % (args, args)], NOTE_REVERSE), "    ")}


def xy_names(size):
    return ['if (k < N) snprintf(nm, %s, "dx[%%d]", k);' % size,
            'else if (k < 2 * N) snprintf(nm, %s, "dy[%%d]", k - N);' % size]


def coord_name(lines):
    return "\nstatic void coord_name(char *nm, size_t len, int k) {\n%s}\n" % "".join(
        l + "\n" for l in lines)


def alias_views(g):
    if not g.alias:
        return []
    return ["double *x = buf + XA, *y = buf + YA;     /* the aliasing views */",
            "double *dx = dbuf + XA, *dy = dbuf + YA; /* their shadows: the same layout */"]


def autodiff_call(g, ad_args, pr_args, align):
    """The __enzyme_autodiff call (ds = the enzyme_out gradient of s),
    continuation lines aligned with its parenthesis or indented by 18; a
    plain call of f with --primal-only."""
    if g.primal_only:
        fn = "f" if not g.pointers else ("(void)f" if g.out_mode != "out" else "f")
        return "%s(%s); /* --primal-only: __enzyme_autodiff removed */" % (fn, ", ".join(pr_args))
    first = ("ds = " if g.has_s else "") + "__enzyme_autodiff((void *)f"
    cont = " " * (len(first) - len("(void *)f") if align else 18)
    return "\n  ".join(wrap(first, ad_args, cont))


def packing(g):
    """(NX, IS, IW, NV) of the packed inputs v: x and y (or the buffer) in
    v[0..NX), s at v[IS], sp->w at v[IW] (None when absent), NV in all."""
    nx = g.a_nb if g.alias else 2 * N
    sparam = g.pointers and g.sparam
    return (nx, nx if g.has_s else None, nx + g.has_s if sparam else None,
            nx + g.has_s + sparam)


def vdesc(g, IS, IW):
    """What v holds, for the comment before eval."""
    d = "v[0..NB) = the buffer of x and y" if g.alias else "v[0..N) = x, v[N..2N) = y"
    return d + ("" if IS is None else ", v[%d] = s" % IS) + ("" if IW is None else ", v[%d] = sp->w" % IW)


def const_check():
    return ["if (memcmp(c, c0, sizeof c)) {",
            '  printf("MISMATCH c: the enzyme_const input was modified\\n");',
            "  bad++;", "}"]


def packed(g):
    """The slots of --pointers inputs: v (x, y or the buffer, s, sp->w) with
    c and out besides (ltfuzz/pointers.py)."""
    NX, IS, IW, nv = packing(g)
    # --constwork: f writes c, so each evaluation runs on a copy of it
    ev_args = ["x", "y", "cw" if g.constwork else "c", "n"] + (["v[%d]" % IS] if g.has_s else [])
    ad_args = ["enzyme_dup, x, dx", "enzyme_dup, y, dy", "enzyme_const, c",
               "enzyme_const, n"] + ["enzyme_out, s0"] * g.has_s
    pr_args = ["x", "y", "c", "n"] + ["s0"] * g.has_s
    ev_setup, main_setup = [], []
    if g.constwork:
        ev_setup += ["double cw[N];", "memcpy(cw, c, sizeof cw);"]
    if g.sparam:
        base = g.sp_base
        ev_setup.append("struct S ps = { %s + %d, v[%d], %d };" % (base, g.sp_off, IW, g.sp_k))
        dbase = {"x": "dx", "y": "dy", "c": "dcs"}[base]
        if base == "c":
            main_setup.append("double dcs[N]; /* shadow of c as seen through sp->p: scratch */")
            main_setup.append("memset(dcs, 0, sizeof dcs);")
        main_setup.append("struct S ps = { %s + %d, v0[%d], %d };" % (base, g.sp_off, IW, g.sp_k))
        main_setup.append("struct S dps = { %s + %d, 0.0, %d }; /* shadow: shadow pointer, w's adjoint, k copied */"
                          % (dbase, g.sp_off, g.sp_k))
        ev_args.append("&ps")
        ad_args.append("enzyme_dup, &ps, &dps")
        pr_args.append("&ps")
    if g.nout:
        ev_setup.append("double o[NOUT];")
        main_setup.append("double o[NOUT], dout[NOUT];")
        main_setup.append("memset(o, 0, sizeof o);")
        main_setup.append("memcpy(dout, out_seed, sizeof dout); /* the adjoint seeds */")
        ev_args.append("o")
        ad_args.append("enzyme_dupnoneed, o, dout")
        pr_args.append("o")
    fcall = "f(%s)" % ", ".join(ev_args)
    if g.out_mode == "out":
        ev_call = ["%s;" % fcall, "double r = 0.0;"]
    else:
        ev_call = ["double r = %s; /* seeded with 1 */" % fcall]
    ev_ret = "r" + "".join(" + out_seed[%d] * o[%d]" % (i, i) for i in range(g.nout))
    what = []
    if g.out_mode != "out":
        what.append("f's return value (seed 1)")
    if g.nout:
        what.append("sum of out_seed[i] * out[i] (out: enzyme_dupnoneed)")
    names = (["  else if (k == %d) snprintf(nm, len, \"ds\");" % IS] if g.has_s else [])
    names += (["  else if (k == %d) snprintf(nm, len, \"dsp.w\");" % IW] if g.sparam else [])
    if g.alias:
        fills = ["for (int i = 0; i < NB; i++) v0[i] = rnd();"]
        setup = ["double buf[NB], dbuf[NB], c[N];", "memcpy(buf, v0, sizeof buf);",
                 "memcpy(c, c0, sizeof c);", "memset(dbuf, 0, sizeof dbuf);"]
        gather = ["for (int k = 0; k < NB; k++)", "  ad[k] = dbuf[k];"]
        fn = g.alias_names("k", "int ", False)
    else:
        fills = ["for (int i = 0; i < N; i++) v0[i] = rnd();",
                 "for (int i = 0; i < N; i++) v0[N + i] = rnd();"]
        setup = ["double x[N], y[N], c[N], dx[N], dy[N];", "memcpy(x, v0, sizeof x);",
                 "memcpy(y, v0 + N, sizeof y);", "memcpy(c, c0, sizeof c);",
                 "memset(dx, 0, sizeof dx);", "memset(dy, 0, sizeof dy);"]
        gather = ["for (int k = 0; k < N; k++) {", "  ad[k] = dx[k];", "  ad[N + k] = dy[k];", "}"]
        fn = ["  " + l for l in xy_names("len")]
    gather += (["ad[%d] = ds;" % IS] if g.has_s else []) + (["ad[%d] = dps.w;" % IW] if g.sparam else [])
    return {
        "decls": (g.alias_defs() if g.alias else "") + "\n" + (
            "/* The active scalar inputs, packed: %s. */\n#define NV %d\n#define NOUT %d\n"
            "static const double out_seed[NOUT] = { %s }; /* adjoint seeds of out[] */\n" % (
                vdesc(g, IS, IW), nv, max(1, g.nout),
                ", ".join(g.out_seeds[:g.nout]) if g.nout else "0.0")),
        "eval_doc": ("/* The scalar whose adjoint main seeds (and that fd differentiates):\n"
                     "   %s.\n   Evaluated on copies: f may overwrite x and y in place. */"
                     % " plus ".join(what)),
        "eval_params": "const double *v, const double *c, int n",
        "eval_body": ind(views_copy(g, "v") + ev_setup + ev_call + ["(void)out_seed;",
                                                                     "return %s;" % ev_ret]),
        "fd_doc": "/* central difference of eval in coordinate k with step h */",
        "fd_proto": proto("static double fd", ["const double *v0", "const double *c", "int n",
                                               "int k", "double h"]),
        "fd_body": ind(["double vp[NV], vm[NV];", "memcpy(vp, v0, sizeof vp);",
                        "memcpy(vm, v0, sizeof vm);", "vp[k] += h;", "vm[k] -= h;",
                        "return (eval(vp, c, n) - eval(vm, c, n)) / (2.0 * h);"]),
        "names": coord_name(fn + names),
        "init_decl": "v0[NV], c0[N]",
        "init": ind(fills + ["s0 = rnd();", "for (int i = 0; i < N; i++) c0[i] = rnd();",
                             "for (int i = %s; i < NV; i++) v0[i] = rnd();" % (
                                 "NB" if g.alias else "2 * N")]
                    + (["v0[%d] = s0;" % IS] if g.has_s else [])),
        "setup": ind(setup + alias_views(g)), "main_setup": ind(main_setup),
        "call": autodiff_call(g, ad_args, pr_args, False),
        "after": BAD + ("" if g.constwork else ind(const_check())),
        "fval": "v0, c0, n", "nk": "NV", "gather": ind(gather), "K": "NV", "per_k": "",
        "v": "v0[k]", "fdargs": "v0, c0, n", "bad": "",
        "compare": ind(compare("k", ["char nm[%d];" % (40 if g.alias else 16),
                                     "coord_name(nm, sizeof nm, k);"], [
            "double H = 1e3 * hk[k];",
            "double r = (4.0 * fd(v0, c0, n, k, 0.5 * H) - fd(v0, c0, n, k, H)) / 3.0;"],
            NOTE_REVERSE), "    ")}


def reverse_main(g):
    """main of a reverse-mode program (__enzyme_autodiff of f)."""
    slots = packed(g) if g.pointers else separate(g)
    slots["seed"] = g.seed
    return SKELETON % slots
