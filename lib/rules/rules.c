/* rules.c: the derivative-rule table for scalar math calls.
 *
 * Each entry maps a canonical name (the intrinsic base, "sin" for both
 * llvm.sin.f64 and sinf) to one small function that emits the adjoints of
 * the arguments at the given builder. The formulas are the textbook
 * derivatives, written to reuse the primal result where that saves a call.
 * Emitted calls use the LLVM intrinsic when LLVM 22 has one, otherwise the
 * libm function for the type (exp/expf/expl), declared in the module.
 */
#include "rules.h"

#include <llvm/Config/llvm-config.h> /* LLVM_VERSION_MAJOR */
#include <stdint.h>

#include <stdio.h>
#include <string.h>

#define LT_LN2 0.69314718055994530942
#define LT_LN10 2.30258509299404568402
#define LT_2_SQRTPI 1.12837916709551257390 /* 2/sqrt(pi) */

/* ---- IR helpers ---------------------------------------------------------- */

/* v in fty, splat across lanes when the call works on a float vector. */
static LLVMValueRef cst(const LtRuleIn *in, double v) {
  if (LLVMGetTypeKind(in->fty) != LLVMVectorTypeKind)
    return LLVMConstReal(in->fty, v);
  unsigned n = LLVMGetVectorSize(in->fty);
  LLVMValueRef e[64];
  for (unsigned i = 0; i < n && i < 64; i++)
    e[i] = LLVMConstReal(LLVMGetElementType(in->fty), v);
  return LLVMConstVector(e, n < 64 ? n : 64);
}
static LLVMValueRef mul(const LtRuleIn *in, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFMul(in->b, a, b, "");
}
LLVMValueRef lt_adj_div(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef q = LLVMBuildFDiv(b, x, y, "");
  if (LLVMIsAInstruction(q) && LLVMCanValueUseFastMathFlags(q))
    LLVMSetFastMathFlags(q, LLVMGetFastMathFlags(q) | LLVMFastMathAllowReciprocal);
  return q;
}
static LLVMValueRef fdiv(const LtRuleIn *in, LLVMValueRef a, LLVMValueRef b) {
  return lt_adj_div(in->b, a, b);
}
static LLVMValueRef add(const LtRuleIn *in, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFAdd(in->b, a, b, "");
}
static LLVMValueRef sub(const LtRuleIn *in, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFSub(in->b, a, b, "");
}
static LLVMValueRef neg(const LtRuleIn *in, LLVMValueRef a) {
  return LLVMBuildFNeg(in->b, a, "");
}
static LLVMValueRef fcmp(const LtRuleIn *in, LLVMRealPredicate p,
                         LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(in->b, p, a, b, "");
}
static LLVMValueRef sel(const LtRuleIn *in, LLVMValueRef c, LLVMValueRef t,
                        LLVMValueRef f) {
  return LLVMBuildSelect(in->b, c, t, f, "");
}
/* c ? 0 : v; used where the formula would give 0*inf = NaN at a point whose
 * true contribution is 0. */
static LLVMValueRef zero_if(const LtRuleIn *in, LLVMValueRef c,
                            LLVMValueRef v) {
  return sel(in, c, cst(in, 0.0), v);
}

/* Call intrinsic `name` overloaded on tys[0..nt). NULL if LLVM lacks it. */
static LLVMValueRef call_intr(const LtRuleIn *in, const char *name,
                              LLVMTypeRef *tys, unsigned nt, LLVMValueRef *args,
                              unsigned n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id)
    return NULL;
  if (!LLVMIntrinsicIsOverloaded(id))
    nt = 0;
  LLVMContextRef c = LLVMGetModuleContext(in->mod);
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(in->mod, id, tys, nt);
  LLVMTypeRef ty = LLVMIntrinsicGetType(c, id, tys, nt);
  return LLVMBuildCall2(in->b, ty, fn, args, n, "");
}

/* Call the libm function `base` for fty (sin, sinf, sinl), declaring it if
 * needed. NULL for types libm has no variant of, or a clashing declaration. */
static LLVMValueRef call_libm(const LtRuleIn *in, const char *base,
                              LLVMValueRef *args, unsigned n) {
  const char *suffix;
  switch (LLVMGetTypeKind(in->fty)) {
  case LLVMFloatTypeKind:
    suffix = "f";
    break;
  case LLVMDoubleTypeKind:
    suffix = "";
    break;
  case LLVMX86_FP80TypeKind: /* fallthrough: long double */
  case LLVMFP128TypeKind:
    suffix = "l";
    break;
  default:
    return NULL;
  }
  char name[32];
  snprintf(name, sizeof name, "%s%s", base, suffix);
  LLVMTypeRef ps[LT_RULE_MAXARGS];
  for (unsigned i = 0; i < n; i++)
    ps[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef fnty = LLVMFunctionType(in->fty, ps, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(in->mod, name);
  if (!fn) {
    fn = LLVMAddFunction(in->mod, name, fnty);
    LLVMContextRef c = LLVMGetModuleContext(in->mod);
    unsigned k = LLVMGetEnumAttributeKindForName("nounwind", 8);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c, k, 0));
  } else if (LLVMGlobalGetValueType(fn) != fnty) {
    return NULL;
  }
  return LLVMBuildCall2(in->b, fnty, fn, args, n, "");
}

/* base(args) on fty: llvm.<base> if it exists, else libm. */
static LLVMValueRef call_math(const LtRuleIn *in, const char *base,
                              LLVMValueRef *args, unsigned n) {
  char name[32];
  snprintf(name, sizeof name, "llvm.%s", base);
  LLVMTypeRef ty = in->fty;
  LLVMValueRef r = call_intr(in, name, &ty, 1, args, n);
  return r ? r : call_libm(in, base, args, n);
}
static LLVMValueRef call1(const LtRuleIn *in, const char *base,
                          LLVMValueRef a) {
  return call_math(in, base, &a, 1);
}
static LLVMValueRef call2(const LtRuleIn *in, const char *base, LLVMValueRef a,
                          LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  return call_math(in, base, args, 2);
}

/* ---- rules --------------------------------------------------------------- *
 * Each fills dx[] and returns nonzero only when a needed call could not be
 * emitted (no intrinsic and no libm variant for fty). */

/* d sqrt(x) = 0.5/y, and 0 at x == +-0 (y == 0), as Enzyme has it (its
 * test/Enzyme/ForwardMode/sqrt.ll: select(x == 0, 0, 0.5 x' / sqrt(x))):
 * the norm of a vector that is zero by construction, |v| = sqrt(v.v),
 * inside cos(|v|) has the derivative 0, and 0.5 * 0 / 0 made it NaN (fuzz
 * --eigen seed 1140404: Eigen's .norm() of a product with a zero matrix). */
static int d_sqrt(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef d = fdiv(in, mul(in, in->dy, cst(in, 0.5)), in->y);
  dx[0] = sel(in, fcmp(in, LLVMRealOEQ, in->y, cst(in, 0.0)), cst(in, 0.0), d);
  return 0;
}

/* exp, exp2, exp10: y times ln(base). expm1: y + 1 == exp(x). */
static int d_exp(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, in->y);
  return 0;
}
static int d_exp2(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, mul(in, in->y, cst(in, LT_LN2)));
  return 0;
}
static int d_exp10(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, mul(in, in->y, cst(in, LT_LN10)));
  return 0;
}
static int d_expm1(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, add(in, in->y, cst(in, 1.0)));
  return 0;
}

/* log family: 1/(x ln(base)); log1p: 1/(1+x). */
static int d_log(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = fdiv(in, in->dy, in->x[0]);
  return 0;
}
static int d_log2(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = fdiv(in, in->dy, mul(in, in->x[0], cst(in, LT_LN2)));
  return 0;
}
static int d_log10(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = fdiv(in, in->dy, mul(in, in->x[0], cst(in, LT_LN10)));
  return 0;
}
static int d_log1p(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = fdiv(in, in->dy, add(in, in->x[0], cst(in, 1.0)));
  return 0;
}

/* pow(x, e): dx = dy e x^(e-1), de = dy y log(x). The terms whose true
 * value is 0 but whose formula is 0*inf are zeroed: dx when e == 0 (x^0 is
 * constant, yet x^-1 is inf at x == 0) and de when x == 0 (y is 0 for e > 0
 * while log(0) = -inf). Other points outside the domain stay NaN. */
static int d_pow(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0], e = in->x[1], zero = cst(in, 0.0);
  LLVMValueRef p = call2(in, "pow", x, sub(in, e, cst(in, 1.0)));
  LLVMValueRef l = call1(in, "log", x);
  if (!p || !l)
    return 1;
  dx[0] = zero_if(in, fcmp(in, LLVMRealOEQ, e, zero),
                  mul(in, mul(in, in->dy, e), p));
  dx[1] = zero_if(in, fcmp(in, LLVMRealOEQ, x, zero),
                  mul(in, mul(in, in->dy, in->y), l));
  return 0;
}

/* powi(x, n) and __powidf2: dx = dy n powi(x, n-1), zeroed for n == 0 as
 * in pow. The integer exponent has no adjoint. */
static int d_powi(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0], n = in->x[1];
  LLVMTypeRef ity = LLVMTypeOf(n);
  LLVMTypeRef tys[2] = {in->fty, ity};
  LLVMValueRef args[2] = {x,
                          LLVMBuildSub(in->b, n, LLVMConstInt(ity, 1, 0), "")};
  LLVMValueRef p = call_intr(in, "llvm.powi", tys, 2, args, 2);
  if (!p)
    return 1;
  LLVMValueRef nf = LLVMBuildSIToFP(in->b, n, in->fty, "");
  LLVMValueRef is0 =
      LLVMBuildICmp(in->b, LLVMIntEQ, n, LLVMConstInt(ity, 0, 0), "");
  dx[0] = zero_if(in, is0, mul(in, mul(in, in->dy, nf), p));
  return 0;
}

/* sin, cos; tan' = 1 + y^2 reuses the result. */
static int d_sin(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef c = call1(in, "cos", in->x[0]);
  dx[0] = c ? mul(in, in->dy, c) : NULL;
  return !c;
}
static int d_cos(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef s = call1(in, "sin", in->x[0]);
  dx[0] = s ? neg(in, mul(in, in->dy, s)) : NULL;
  return !s;
}
static int d_tan(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef y = in->y;
  dx[0] = mul(in, in->dy, add(in, cst(in, 1.0), mul(in, y, y)));
  return 0;
}

/* asin, acos: +-1/sqrt(1-x^2), with 1-x^2 as (1-x)(1+x) to keep accuracy
 * near |x| = 1. atan: 1/(1+x^2). */
static LLVMValueRef inv_sqrt_1mx2(const LtRuleIn *in) {
  LLVMValueRef one = cst(in, 1.0), x = in->x[0];
  LLVMValueRef s = mul(in, sub(in, one, x), add(in, one, x));
  return call1(in, "sqrt", s);
}
static int d_asin(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef r = inv_sqrt_1mx2(in);
  dx[0] = r ? fdiv(in, in->dy, r) : NULL;
  return !r;
}
static int d_acos(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef r = inv_sqrt_1mx2(in);
  dx[0] = r ? neg(in, fdiv(in, in->dy, r)) : NULL;
  return !r;
}
static int d_atan(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0];
  dx[0] = fdiv(in, in->dy, add(in, cst(in, 1.0), mul(in, x, x)));
  return 0;
}
/* atan2(a, b) = angle of (b, a): da = b/(a^2+b^2), db = -a/(a^2+b^2). */
static int d_atan2(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef a = in->x[0], b = in->x[1];
  LLVMValueRef r = add(in, mul(in, a, a), mul(in, b, b));
  dx[0] = fdiv(in, mul(in, in->dy, b), r);
  dx[1] = neg(in, fdiv(in, mul(in, in->dy, a), r));
  return 0;
}

/* sinh' = cosh, cosh' = sinh, tanh' = (1-y)(1+y). */
static int d_sinh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef c = call1(in, "cosh", in->x[0]);
  dx[0] = c ? mul(in, in->dy, c) : NULL;
  return !c;
}
static int d_cosh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef s = call1(in, "sinh", in->x[0]);
  dx[0] = s ? mul(in, in->dy, s) : NULL;
  return !s;
}
static int d_tanh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef one = cst(in, 1.0), y = in->y;
  dx[0] = mul(in, in->dy, mul(in, sub(in, one, y), add(in, one, y)));
  return 0;
}

/* fabs: copysign(1, x) dy, as Enzyme (its fabs_signed_zero test): the
 * sign of a zero records the side it was approached from, so fabs'(+0) =
 * +1 and fabs'(-0) = -1, which makes the second derivative of |-x^2| at
 * 0 come out 2. */
static int d_fabs(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef s = call2(in, "copysign", cst(in, 1.0), in->x[0]);
  if (!s)
    return 1;
  dx[0] = mul(in, in->dy, s);
  return 0;
}

/* min/max: the adjoint goes to the argument the call returns; ties go to
 * the first. The first is returned when it wins the ordered compare or the
 * second is NaN (the minnum/fmin rule; for NaN-propagating minimum the
 * result is NaN anyway). */
static void pick(const LtRuleIn *in, LLVMRealPredicate p, LLVMValueRef *dx) {
  LLVMValueRef a = in->x[0], b = in->x[1], zero = cst(in, 0.0);
  LLVMValueRef first =
      LLVMBuildOr(in->b, fcmp(in, p, a, b), fcmp(in, LLVMRealUNO, b, b), "");
  dx[0] = sel(in, first, in->dy, zero);
  dx[1] = sel(in, first, zero, in->dy);
}
static int d_min(const LtRuleIn *in, LLVMValueRef *dx) {
  pick(in, LLVMRealOLE, dx);
  return 0;
}
static int d_max(const LtRuleIn *in, LLVMValueRef *dx) {
  pick(in, LLVMRealOGE, dx);
  return 0;
}

/* copysign(x, s) = +-x: dx = dy when the sign bits of x and s agree, else
 * -dy (sign bits, so -0 and NaN signs count). s gets nothing. */
static int d_copysign(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef one = cst(in, 1.0);
  LLVMValueRef sx = call2(in, "copysign", one, in->x[0]);
  LLVMValueRef ss = call2(in, "copysign", one, in->x[1]);
  if (!sx || !ss)
    return 1;
  dx[0] = mul(in, in->dy, mul(in, sx, ss));
  return 0;
}

/* fma, fmuladd: a*b + c. */
static int d_fma(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, in->x[1]);
  dx[1] = mul(in, in->dy, in->x[0]);
  dx[2] = in->dy;
  return 0;
}

/* hypot(a, b) = h: a/h, b/h (bounded by 1, so no overflow); NaN at 0,0. */
static int d_hypot(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = mul(in, in->dy, fdiv(in, in->x[0], in->y));
  dx[1] = mul(in, in->dy, fdiv(in, in->x[1], in->y));
  return 0;
}

/* cbrt' = 1/(3 y^2), not y/(3x), which is NaN at x == 0 (this is +inf). */
static int d_cbrt(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef y = in->y;
  dx[0] = fdiv(in, in->dy, mul(in, mul(in, y, y), cst(in, 3.0)));
  return 0;
}

/* erf' = 2/sqrt(pi) exp(-x^2); erfc' is its negation. */
static LLVMValueRef gauss(const LtRuleIn *in, double k) {
  LLVMValueRef x = in->x[0];
  LLVMValueRef e = call1(in, "exp", neg(in, mul(in, x, x)));
  return e ? mul(in, in->dy, mul(in, e, cst(in, k))) : NULL;
}
static int d_erf(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = gauss(in, LT_2_SQRTPI);
  return !dx[0];
}
static int d_erfc(const LtRuleIn *in, LLVMValueRef *dx) {
  dx[0] = gauss(in, -LT_2_SQRTPI);
  return !dx[0];
}

/* asinh' = 1/sqrt(x^2 + 1), acosh' = 1/sqrt(x^2 - 1), atanh' = 1/(1 - x^2). */
static int d_asinh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0];
  LLVMValueRef r = call1(in, "sqrt", add(in, mul(in, x, x), cst(in, 1.0)));
  dx[0] = r ? fdiv(in, in->dy, r) : NULL;
  return !r;
}
static int d_acosh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0];
  LLVMValueRef r = call1(in, "sqrt", sub(in, mul(in, x, x), cst(in, 1.0)));
  dx[0] = r ? fdiv(in, in->dy, r) : NULL;
  return !r;
}
static int d_atanh(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0];
  dx[0] = fdiv(in, in->dy, sub(in, cst(in, 1.0), mul(in, x, x)));
  return 0;
}

/* fmod(a, b) = a - b trunc(a/b): da = dy, db = -dy trunc(a/b). */
static int d_fmod(const LtRuleIn *in, LLVMValueRef *dx) {
  /* exact: trunc of a reciprocal's product may fall an integer short */
  LLVMValueRef q = call1(in, "trunc", LLVMBuildFDiv(in->b, in->x[0], in->x[1], ""));
  dx[0] = in->dy;
  dx[1] = q ? neg(in, mul(in, in->dy, q)) : NULL;
  return !q;
}

/* ldexp(x, n) = x 2^n: dx = dy 2^n. The exponent has no adjoint. */
static int d_ldexp(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef n = LLVMBuildSIToFP(in->b, in->x[1], in->fty, "");
  LLVMValueRef p = call1(in, "exp2", n);
  dx[0] = p ? mul(in, in->dy, p) : NULL;
  return !p;
}

/* frexp(x, &e) = x 2^-e: dx = dy y/x (the exponent is constant nearby);
 * at x == 0, where y is 0 too, the scale is taken as 1. */
static int d_frexp(const LtRuleIn *in, LLVMValueRef *dx) {
  LLVMValueRef x = in->x[0];
  LLVMValueRef z = fcmp(in, LLVMRealOEQ, x, cst(in, 0.0));
  dx[0] = sel(in, z, in->dy, mul(in, in->dy, fdiv(in, in->y, x)));
  return 0;
}

/* ---- table and lookup ---------------------------------------------------- */

enum { INTR = 1, LIBM = 2, BOTH = 3 }; /* which spellings a name has */

static const struct Entry {
  LtRule r;
  unsigned char forms;
} rules[] = {
    /* name, nargs, active_mask, needs_result, adjoint */
    {{"sqrt", 1, 1, 1, d_sqrt, 0}, BOTH},
    {{"exp", 1, 1, 1, d_exp, 0}, BOTH},
    {{"exp2", 1, 1, 1, d_exp2, 0}, BOTH},
    {{"exp10", 1, 1, 1, d_exp10, 0}, BOTH},
    {{"expm1", 1, 1, 1, d_expm1, 0}, LIBM},
    {{"log", 1, 1, 0, d_log, 0}, BOTH},
    {{"log2", 1, 1, 0, d_log2, 0}, BOTH},
    {{"log10", 1, 1, 0, d_log10, 0}, BOTH},
    {{"log1p", 1, 1, 0, d_log1p, 0}, LIBM},
    {{"pow", 2, 3, 1, d_pow, 0}, BOTH},
    {{"powi", 2, 1, 0, d_powi, 0}, INTR},
    {{"sin", 1, 1, 0, d_sin, 0}, BOTH},
    {{"cos", 1, 1, 0, d_cos, 0}, BOTH},
    {{"tan", 1, 1, 1, d_tan, 0}, BOTH},
    {{"asin", 1, 1, 0, d_asin, 0}, BOTH},
    {{"acos", 1, 1, 0, d_acos, 0}, BOTH},
    {{"atan", 1, 1, 0, d_atan, 0}, BOTH},
    {{"atan2", 2, 3, 0, d_atan2, 0}, BOTH},
    {{"sinh", 1, 1, 0, d_sinh, 0}, BOTH},
    {{"cosh", 1, 1, 0, d_cosh, 0}, BOTH},
    {{"tanh", 1, 1, 1, d_tanh, 0}, BOTH},
    {{"fabs", 1, 1, 0, d_fabs, 0}, BOTH},
    {{"minnum", 2, 3, 0, d_min, 0}, INTR},
    {{"maxnum", 2, 3, 0, d_max, 0}, INTR},
    {{"minimum", 2, 3, 0, d_min, 0}, INTR},
    {{"maximum", 2, 3, 0, d_max, 0}, INTR},
    {{"minimumnum", 2, 3, 0, d_min, 0}, INTR},
    {{"maximumnum", 2, 3, 0, d_max, 0}, INTR},
    {{"copysign", 2, 1, 0, d_copysign, 0}, BOTH},
    {{"fma", 3, 7, 0, d_fma, 0}, BOTH},
    {{"fmuladd", 3, 7, 0, d_fma, 0}, INTR},
    {{"hypot", 2, 3, 1, d_hypot, 0}, LIBM},
    /* |re + i im|: x86-64 passes the complex double as two doubles */
    {{"cabs", 2, 3, 1, d_hypot, 0}, LIBM},
    {{"cbrt", 1, 1, 1, d_cbrt, 0}, LIBM},
    {{"erf", 1, 1, 0, d_erf, 0}, LIBM},
    {{"erfc", 1, 1, 0, d_erfc, 0}, LIBM},
    {{"asinh", 1, 1, 0, d_asinh, 0}, LIBM},
    {{"acosh", 1, 1, 0, d_acosh, 0}, LIBM},
    {{"atanh", 1, 1, 0, d_atanh, 0}, LIBM},
    {{"fmod", 2, 3, 0, d_fmod, 0}, LIBM},
    {{"ldexp", 2, 1, 0, d_ldexp, 0}, BOTH},
    {{"scalbn", 2, 1, 0, d_ldexp, 0}, LIBM},
    /* writes the exponent through its pointer argument */
    {{"frexp", 2, 1, 1, d_frexp, 1}, LIBM},
};

/* libm and runtime spellings whose rule is named after the intrinsic. */
static const struct Alias {
  const char *libm, *canon;
} aliases[] = {
    {"fmin", "minnum"},
    {"fmax", "maxnum"},
    {"fminimum", "minimum"},
    {"fmaximum", "maximum"},
    {"fminimum_num", "minimumnum"},
    {"fmaximum_num", "maximumnum"},
};
/* compiler-rt/libgcc powi helpers: exact names, never suffix-stripped. */
static const char *const powi_rt[] = {"__powisf2", "__powidf2", "__powixf2",
                                      "__powitf2"};

/* Rounding functions: piecewise constant, so zero derivative almost
 * everywhere. Intrinsic and libm share the base names. */
static const char *const zero_deriv[] = {
    "floor",     "ceil",   "round",   "roundeven", "trunc", "rint",
    "nearbyint", "lround", "llround", "lrint",     "llrint"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int eq(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static const LtRule *find_form(const char *s, size_t n, unsigned form) {
  for (size_t i = 0; i < COUNT(rules); i++)
    if ((rules[i].forms & form) && eq(s, n, rules[i].r.name))
      return &rules[i].r;
  return NULL;
}

static const LtRule *find_libm(const char *s, size_t n) {
  for (size_t i = 0; i < COUNT(aliases); i++)
    if (eq(s, n, aliases[i].libm))
      return find_form(aliases[i].canon, strlen(aliases[i].canon), INTR);
  return find_form(s, n, LIBM);
}

/* Split a callee name into its base: "llvm.sin.f64" -> "sin" (intrinsic),
 * "sinf" -> "sin" (libm, the f/l suffix is tried only when the exact name
 * is unknown, so "erf" stays "erf"). */
static int is_intrinsic(const char **s, size_t *n) {
  if (*n <= 5 || memcmp(*s, "llvm.", 5) != 0)
    return 0;
  const char *b = *s + 5, *dot = memchr(b, '.', *n - 5);
  *n = dot ? (size_t)(dot - b) : *n - 5;
  *s = b;
  return 1;
}

const LtRule *lt_rules_find(const char *callee, size_t len) {
  if (is_intrinsic(&callee, &len))
    return find_form(callee, len, INTR);
  for (size_t i = 0; i < COUNT(powi_rt); i++)
    if (eq(callee, len, powi_rt[i]))
      return find_form("powi", 4, INTR);
  const LtRule *r = find_libm(callee, len);
  if (!r && len > 1 && (callee[len - 1] == 'f' || callee[len - 1] == 'l'))
    r = find_libm(callee, len - 1);
  return r;
}

int lt_rules_is_zero_derivative(const char *callee, size_t len) {
  int intr = is_intrinsic(&callee, &len);
  for (int strip = 0; strip <= !intr; strip++) {
    if (strip &&
        (len < 2 || (callee[len - 1] != 'f' && callee[len - 1] != 'l')))
      break;
    for (size_t i = 0; i < COUNT(zero_deriv); i++)
      if (eq(callee, len - (size_t)strip, zero_deriv[i]))
        return 1;
  }
  return 0;
}

int lt_rules_errno_only(LLVMValueRef f) {
  if (!f || !LLVMIsAFunction(f))
    return 0;
  unsigned k = LLVMGetEnumAttributeKindForName("memory", 6);
  LLVMAttributeRef a = k ? LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k) : NULL;
  if (a && LLVMGetEnumAttributeValue(a) == 0)
    return 1;
#if LLVM_VERSION_MAJOR >= 21
  /* MemoryEffects: two bits per location: argmem, inaccessiblemem,
   * errnomem, other, ... */
  if (a && !(LLVMGetEnumAttributeValue(a) & ~(uint64_t)0x30))
    return 1;
#endif
  if (!LLVMIsDeclaration(f))
    return 0;
  size_t n;
  const char *s = LLVMGetValueName2(f, &n);
  if (n >= 5 && !strncmp(s, "llvm.", 5))
    return 0; /* intrinsics carry their own attributes */
  const LtRule *r = lt_rules_find(s, n);
  return (r && !r->writes_arg) || lt_rules_is_zero_derivative(s, n);
}
