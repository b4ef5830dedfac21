/* callsite.c: recognise __enzyme_* calls and parse their arguments.
 *
 * The interface is Enzyme's: the first argument is the function, then one
 * call operand per parameter, each optionally preceded by a marker (a load
 * of a global enzyme_dup/... or an IR metadata !"enzyme_dup"); dup
 * parameters are followed by their shadow. Unmarked pointers are dup, floats
 * out, integers const. __enzyme_autodiff may end with the adjoint of a float
 * return; __enzyme_reverse ends with [dret,] tape. Misuse is reported.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *prefix;
  LtMode mode;
} entries[] = {
    {"__enzyme_autodiff", LT_AUTODIFF},
    {"__enzyme_augmentfwd", LT_AUGFWD},
    {"__enzyme_reverse", LT_REVERSE},
    {"__enzyme_augmentsize", LT_AUGSIZE},
};

int lt_callsite_mode(LLVMValueRef call, LtMode *mode) {
  size_t len;
  const char *name = lt_callee_name(call, &len);
  for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
    if (!strncmp(name, entries[i].prefix, strlen(entries[i].prefix))) {
      *mode = entries[i].mode;
      return 1;
    }
  return 0;
}

/* -1: not a marker; -2: unknown enzyme_* marker (name in *bad). */
static int marker_of(LLVMValueRef v, const char **bad) {
  static const struct {
    const char *name;
    LtAct act;
  } markers[] = {{"enzyme_dup", LT_DUP},
                 {"enzyme_dupnoneed", LT_DUPNONEED},
                 {"enzyme_const", LT_CONST},
                 {"enzyme_out", LT_OUT}};
  const char *name = NULL;
  size_t len = 0;
  if (LLVMIsAMDString(v)) {
    unsigned n = 0;
    name = LLVMGetMDString(v, &n);
    len = n;
  } else if (LLVMIsALoadInst(v)) {
    LLVMValueRef g = LLVMIsAGlobalVariable(LLVMGetOperand(v, 0));
    if (g)
      name = LLVMGetValueName2(g, &len);
  }
  if (!name || len < 7 || strncmp(name, "enzyme_", 7))
    return -1;
  for (size_t i = 0; i < sizeof markers / sizeof *markers; i++)
    if (strlen(markers[i].name) == len && !strncmp(name, markers[i].name, len))
      return (int)markers[i].act;
  *bad = name;
  return -2;
}

static const char *act_name(LtAct a) {
  switch (a) {
  case LT_DUP:
    return "enzyme_dup";
  case LT_DUPNONEED:
    return "enzyme_dupnoneed";
  case LT_OUT:
    return "enzyme_out";
  default:
    return "enzyme_const";
  }
}

static int has_sret(LLVMValueRef call) {
  unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
  return LLVMGetNumArgOperands(call) > 0 &&
         LLVMGetCallSiteEnumAttribute(call, 1, kind) != NULL;
}

/* Can a call operand of type `have` be passed for a parameter of type
 * `want`? Variadic calls promote float to double and small ints to int. */
static int compatible(LLVMTypeRef have, LLVMTypeRef want) {
  if (have == want)
    return 1;
  if (lt_is_float_ty(have) && lt_is_float_ty(want))
    return 1;
  return LLVMGetTypeKind(have) == LLVMIntegerTypeKind &&
         LLVMGetTypeKind(want) == LLVMIntegerTypeKind;
}

static LLVMValueRef resolve_fn(LLVMValueRef v) {
  while (v && !LLVMIsAFunction(v)) {
    if (LLVMIsAConstantExpr(v) &&
        (LLVMGetConstOpcode(v) == LLVMBitCast ||
         LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
      v = LLVMGetOperand(v, 0);
    else if (LLVMIsAGlobalAlias(v))
      v = LLVMAliasGetAliasee(v);
    else
      return NULL;
  }
  return v;
}

static int parse_params(LtCtx *c, LLVMValueRef call, LtRequest *r,
                        unsigned *pi, unsigned nops) {
  unsigned i = *pi;
  size_t fl;
  const char *fname = LLVMGetValueName2(r->fn, &fl);
  for (unsigned p = 0; p < r->nparams; p++) {
    LLVMTypeRef pty = LLVMTypeOf(LLVMGetParam(r->fn, p));
    const char *bad = NULL;
    int m = i < nops ? marker_of(LLVMGetOperand(call, i), &bad) : -1;
    if (m == -2) {
      lt_error(c, call, "unknown marker '%s'; the markers are enzyme_dup, "
                        "enzyme_dupnoneed, enzyme_const and enzyme_out", bad);
      return -1;
    }
    if (m >= 0)
      i++;
    if (i >= nops) {
      lt_error(c, call, "too few arguments: '%s' has %u parameters and "
                        "parameter %u has no value", fname, r->nparams, p + 1);
      return -1;
    }
    LLVMValueRef v = LLVMGetOperand(call, i++);
    const char *bad2 = NULL;
    if (marker_of(v, &bad2) != -1) {
      lt_error(c, call, "too few arguments: a marker stands where the value "
                        "of parameter %u of '%s' belongs", p + 1, fname);
      return -1;
    }
    LtAct a = m >= 0               ? (LtAct)m
              : lt_is_ptr_ty(pty)  ? LT_DUP
              : lt_is_float_ty(pty) ? LT_OUT
                                    : LT_CONST;
    if (a == LT_OUT && !lt_is_float_ty(pty)) {
      lt_error(c, call, "enzyme_out requires a floating-point argument "
                        "(parameter %u of '%s'); use enzyme_dup for pointers "
                        "or enzyme_const", p + 1, fname);
      return -1;
    }
    if ((a == LT_DUP || a == LT_DUPNONEED) && !lt_is_ptr_ty(pty)) {
      lt_error(c, call, "%s requires a pointer argument (parameter %u of "
                        "'%s'); use enzyme_out for a floating-point value",
               act_name(a), p + 1, fname);
      return -1;
    }
    if (!compatible(LLVMTypeOf(v), pty)) {
      lt_error(c, call, "argument for parameter %u of '%s' has the wrong type",
               p + 1, fname);
      return -1;
    }
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    if ((a == LT_DUP || a == LT_DUPNONEED) &&
        LLVMGetEnumAttributeAtIndex(r->fn, p + 1, byval)) {
      lt_error(c, call, "parameter %u of '%s' is a struct passed by value, "
                        "so no gradient can flow back through it; pass a "
                        "pointer to the struct instead, or mark it "
                        "enzyme_const", p + 1, fname);
      return -1;
    }
    r->act[p] = a;
    r->arg[p] = v;
    if (a == LT_DUP || a == LT_DUPNONEED) {
      if (i >= nops || marker_of(LLVMGetOperand(call, i), &bad2) != -1) {
        lt_error(c, call, "too few arguments: %s parameter %u of '%s' needs "
                          "a shadow pointer after its value",
                 act_name(a), p + 1, fname);
        return -1;
      }
      r->shadow[p] = LLVMGetOperand(call, i++);
      if (!lt_is_ptr_ty(LLVMTypeOf(r->shadow[p]))) {
        lt_error(c, call, "the shadow of parameter %u of '%s' must be a "
                          "pointer", p + 1, fname);
        return -1;
      }
    }
  }
  *pi = i;
  return 0;
}

static int parse_tail(LtCtx *c, LLVMValueRef call, LtRequest *r, unsigned i,
                      unsigned nops) {
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(r->fn));
  if (r->mode == LT_REVERSE) {
    if (i >= nops) {
      lt_error(c, call, "too few arguments: __enzyme_reverse needs the tape "
                        "returned by __enzyme_augmentfwd as its last argument");
      return -1;
    }
    if (nops - i == 2 && lt_is_float_ty(rty) &&
        lt_is_float_ty(LLVMTypeOf(LLVMGetOperand(call, i))))
      r->dret = LLVMGetOperand(call, i++);
    r->tape = LLVMGetOperand(call, i++);
    if (!lt_is_ptr_ty(LLVMTypeOf(r->tape))) {
      lt_error(c, call, "the last argument of __enzyme_reverse must be the "
                        "tape returned by __enzyme_augmentfwd");
      return -1;
    }
  } else if (r->mode == LT_AUTODIFF && i + 1 == nops && lt_is_float_ty(rty) &&
             lt_is_float_ty(LLVMTypeOf(LLVMGetOperand(call, i)))) {
    r->dret = LLVMGetOperand(call, i++);
  }
  if (i < nops) {
    size_t fl;
    lt_error(c, call, "too many arguments: '%s' takes %u parameters",
             LLVMGetValueName2(r->fn, &fl), r->nparams);
    return -1;
  }
  return 0;
}

int lt_callsite_parse(LtCtx *c, LLVMValueRef call, LtMode mode, LtRequest *r) {
  memset(r, 0, sizeof *r);
  r->call = call;
  r->mode = mode;
  unsigned nops = LLVMGetNumArgOperands(call), i = 0;
  if (has_sret(call))
    r->sret = LLVMGetOperand(call, i++);
  LLVMValueRef fn = i < nops ? resolve_fn(LLVMGetOperand(call, i)) : NULL;
  i++;
  if (!fn || LLVMIsDeclaration(fn)) {
    lt_error(c, call, "first argument must be a function defined in this "
                      "module (got %s); pass the function itself, e.g. "
                      "(void *)f",
             fn ? "an external declaration" : "something else");
    return -1;
  }
  if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn))) {
    lt_error(c, call, "cannot differentiate a variadic function");
    return -1;
  }
  r->fn = fn;
  r->nparams = LLVMCountParams(fn);
  r->act = lt_xcalloc(r->nparams, sizeof *r->act);
  r->arg = lt_xcalloc(r->nparams, sizeof *r->arg);
  r->shadow = lt_xcalloc(r->nparams, sizeof *r->shadow);
  if (parse_params(c, call, r, &i, nops) || parse_tail(c, call, r, i, nops))
    return -1;
  return 0;
}

void lt_callsite_free(LtRequest *r) {
  free(r->act);
  free(r->arg);
  free(r->shadow);
  memset(r, 0, sizeof *r);
}
