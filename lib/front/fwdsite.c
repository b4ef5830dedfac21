/* fwdsite.c: parse __enzyme_fwddiff calls.
 *
 * Enzyme's forward-mode interface (Enzyme.cpp, handleArguments and
 * HandleAutoDiff with DerivativeMode::ForwardMode): after the function,
 * one operand per parameter, each optionally preceded by a marker. A dup
 * parameter, pointer or floating-point, is followed by its shadow: the
 * tangent memory, or the tangent value; with enzyme_width N by N of them,
 * or with enzyme_dupv stride by one pointer whose k-th shadow is stride * k
 * bytes on. Unmarked pointers and floats are dup, integers const;
 * enzyme_out belongs to reverse mode. The call returns the tangent of the
 * result (N of them with a width), or {result, tangent} with
 * enzyme_primal_return.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

static int is_shadow_ok(LLVMTypeRef param, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (lt_is_ptr_ty(param))
    return lt_is_ptr_ty(t);
  return lt_callsite_compatible(t, param) || t == param ||
         (lt_is_aggregate_ty(param) && lt_same_layout(t, param));
}

static int parse_param(LtCtx *c, LLVMValueRef call, LtRequest *r, unsigned p,
                       unsigned *pi, unsigned nops, int *seen_dup) {
  size_t fl;
  const char *fname = LLVMGetValueName2(r->fn, &fl);
  LLVMTypeRef pty = LLVMTypeOf(LLVMGetParam(r->fn, p));
  unsigned width0 = r->width;
  int m;
  r->vstride = NULL;
  if (lt_read_markers(c, call, pi, nops, &m, r))
    return -1;
  if (r->width != width0 && *seen_dup) {
    lt_error(c, call, "enzyme_width must come before the arguments it "
                      "gives shadows to");
    return -1;
  }
  unsigned W = r->width;
  if (*pi >= nops) {
    lt_error(c, call, "too few arguments: '%s' has %u parameters and "
                      "parameter %u has no value", fname, r->nparams, p + 1);
    return -1;
  }
  LLVMValueRef v = LLVMGetOperand(call, (*pi)++);
  const char *bad = NULL;
  if (lt_marker_of(v, &bad) != LT_M_NONE) {
    lt_error(c, call, "too few arguments: a marker stands where the value "
                      "of parameter %u of '%s' belongs", p + 1, fname);
    return -1;
  }
  LtAct a = m >= 0 ? (LtAct)m
            : lt_is_ptr_ty(pty) || lt_is_diff_ty(pty) ? LT_DUP
                                                      : LT_CONST;
  if (a == LT_OUT) {
    lt_error(c, call, "enzyme_out is for reverse mode; in forward mode a "
                      "floating-point argument is followed by its tangent "
                      "(enzyme_dup, or no marker) or marked enzyme_const "
                      "(parameter %u of '%s')", p + 1, fname);
    return -1;
  }
  if ((a == LT_DUP || a == LT_DUPNONEED) && !lt_is_ptr_ty(pty) && !lt_is_diff_ty(pty)) {
    lt_error(c, call, "%s needs a pointer or floating-point parameter "
                      "(parameter %u of '%s' is neither); mark it enzyme_const",
             lt_act_name(a), p + 1, fname);
    return -1;
  }
  if (!lt_callsite_compatible(LLVMTypeOf(v), pty) && LLVMTypeOf(v) != pty &&
      !(lt_is_aggregate_ty(pty) && lt_same_layout(LLVMTypeOf(v), pty))) {
    lt_error(c, call, "argument for parameter %u of '%s' has the wrong type",
             p + 1, fname);
    return -1;
  }
  r->act[p] = a;
  r->arg[p] = v;
  if (a != LT_DUP && a != LT_DUPNONEED)
    return 0;
  *seen_dup = 1;
  if (r->vstride) {
    if (!lt_is_ptr_ty(pty)) {
      lt_error(c, call, "enzyme_dupv gives the shadows of a pointer "
                        "(parameter %u of '%s' is not one)", p + 1, fname);
      return -1;
    }
    r->stride[p] = r->vstride;
  }
  unsigned n = r->vstride ? 1 : W;
  for (unsigned k = 0; k < n; k++) {
    if (*pi >= nops || lt_marker_of(LLVMGetOperand(call, *pi), &bad) != LT_M_NONE) {
      lt_error(c, call, "too few arguments: %s parameter %u of '%s' needs "
                        "%u %s after its value",
               lt_act_name(a), p + 1, fname, n,
               lt_is_ptr_ty(pty) ? (n == 1 ? "shadow pointer" : "shadow pointers")
                                 : (n == 1 ? "tangent" : "tangents"));
      return -1;
    }
    LLVMValueRef s = LLVMGetOperand(call, (*pi)++);
    if (!is_shadow_ok(pty, s)) {
      lt_error(c, call, "the %s of parameter %u of '%s' has the wrong type",
               lt_is_ptr_ty(pty) ? "shadow" : "tangent", p + 1, fname);
      return -1;
    }
    r->lanes[p * W + k] = s;
  }
  r->shadow[p] = r->lanes[p * W];
  return 0;
}

int lt_fwdsite_parse(LtCtx *c, LLVMValueRef call, LtRequest *r) {
  memset(r, 0, sizeof *r);
  r->call = call;
  r->mode = LT_FWDDIFF;
  r->width = 1;
  unsigned nops = LLVMGetNumArgOperands(call), i = 0;
  if (lt_callsite_has_sret(call))
    r->sret = LLVMGetOperand(call, i++);
  LLVMValueRef fn = i < nops ? lt_callsite_resolve_fn(LLVMGetOperand(call, i)) : NULL;
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
  r->act = lt_xcalloc(r->nparams + 1, sizeof *r->act);
  r->arg = lt_xcalloc(r->nparams + 1, sizeof *r->arg);
  r->shadow = lt_xcalloc(r->nparams + 1, sizeof *r->shadow);
  r->stride = lt_xcalloc(r->nparams + 1, sizeof *r->stride);
  /* the width may only be known once its marker is read: room for 64 */
  r->lanes = lt_xcalloc((size_t)(r->nparams + 1) * 64, sizeof *r->lanes);
  int seen_dup = 0;
  for (unsigned p = 0; p < r->nparams; p++)
    if (parse_param(c, call, r, p, &i, nops, &seen_dup))
      return -1;
  /* options may follow the last parameter */
  int m;
  unsigned w = r->width;
  if (lt_read_markers(c, call, &i, nops, &m, r))
    return -1;
  if (r->width != w && seen_dup) {
    lt_error(c, call, "enzyme_width must come before the arguments it "
                      "gives shadows to");
    return -1;
  }
  if (m != LT_M_NONE || i < nops) {
    lt_error(c, call, "too many arguments: '%s' takes %u parameters",
             LLVMGetValueName2(fn, &(size_t){0}), r->nparams);
    return -1;
  }
  return 0;
}
