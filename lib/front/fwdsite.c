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
 *
 * A function that returns a large struct through a hidden sret pointer
 * (its parameter 1) is called as if it returned the struct: the caller
 * passes no value for that pointer, and the call, declared to return the
 * struct (W of them with a width, the primal first with
 * enzyme_primal_return), receives the tangents through its own sret
 * (Enzyme's ForwardModeVector tests return std::array<double, 3> so).
 * The callee's sret becomes a dup parameter whose shadows are the slots
 * of the call's result, and whose primal is a fresh stack slot (or the
 * first slot with enzyme_primal_return).
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
  LLVMValueRef v = lt_param_operand(c, call, pi, nops, r, p);
  if (!v)
    return -1;
  LtAct a = m >= 0 ? (LtAct)m
            : lt_is_ptr_ty(pty) || lt_is_diff_ty(pty) ? LT_DUP
                                                      : LT_CONST;
  if (m < 0 && a == LT_DUP && lt_unmarked_int_pointer(c, call, r->fn, p))
    a = LT_CONST; /* as in reverse mode (callsite.c) */
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
  const char *bad = NULL;
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

static int fn_has_sret(LLVMValueRef fn) {
  unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
  return LLVMCountParams(fn) && LLVMGetEnumAttributeAtIndex(fn, 1, kind);
}

/* The callee's sret parameter 0, hidden from the call (see the top). */
static int hidden_sret(LtCtx *c, LLVMValueRef call, LtRequest *r) {
  unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
  LLVMTypeRef st = LLVMGetTypeAttributeValue(LLVMGetEnumAttributeAtIndex(r->fn, 1, kind));
  LLVMTypeRef ct = LLVMGetTypeAttributeValue(LLVMGetCallSiteEnumAttribute(call, 1, kind));
  unsigned long long es = LLVMABISizeOfType(c->td, st), cs = LLVMABISizeOfType(c->td, ct);
  unsigned W = r->width, slots = W + (r->primal_return ? 1 : 0);
  if (!es || cs != es * slots) {
    lt_error(c, call, "'%s' returns a %llu-byte struct through a hidden "
                      "pointer; declare this __enzyme_fwddiff call to return "
                      "%u of them (%llu bytes, not %llu)%s",
             LLVMGetValueName2(r->fn, &(size_t){0}), es, slots, es * slots, cs,
             r->primal_return ? ": the result, then one tangent per direction"
                              : W > 1 ? ": one tangent per direction" : "");
    return -1;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef entry =
      LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
  LLVMValueRef prim = r->sret;
  if (!r->primal_return) {
    prim = lt_build_slot(b, st, 16, "lt.sret");
  }
  LLVMPositionBuilderBefore(b, call);
  for (unsigned k = 0; k < W; k++) {
    LLVMValueRef off = LLVMConstInt(c->i64, es * (k + (r->primal_return ? 1 : 0)), 0);
    r->lanes[k] = LLVMBuildGEP2(b, c->i8, r->sret, &off, 1, "lt.sret.tan");
  }
  LLVMDisposeBuilder(b);
  r->act[0] = LT_DUP;
  r->arg[0] = prim;
  r->shadow[0] = r->lanes[0];
  return 0;
}

int lt_fwdsite_parse(LtCtx *c, LLVMValueRef call, LtRequest *r) {
  memset(r, 0, sizeof *r);
  r->call = call;
  r->mode = LT_FWDDIFF;
  r->width = 1;
  unsigned nops = LLVMGetNumArgOperands(call), i = 0;
  if (lt_callsite_target(c, call, r, &i))
    return -1;
  LLVMValueRef fn = r->fn;
  r->act = lt_xcalloc(r->nparams + 1, sizeof *r->act);
  r->arg = lt_xcalloc(r->nparams + 1, sizeof *r->arg);
  r->shadow = lt_xcalloc(r->nparams + 1, sizeof *r->shadow);
  r->stride = lt_xcalloc(r->nparams + 1, sizeof *r->stride);
  /* the width may only be known once its marker is read: room for 64 */
  r->lanes = lt_xcalloc((size_t)(r->nparams + 1) * 64, sizeof *r->lanes);
  int seen_dup = 0;
  int hide = r->sret && fn_has_sret(fn);
  for (unsigned p = hide ? 1 : 0; p < r->nparams; p++)
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
             LLVMGetValueName2(fn, &(size_t){0}), r->nparams - (hide ? 1 : 0));
    return -1;
  }
  if (hide && hidden_sret(c, call, r))
    return -1;
  return lt_dup_global_used(c, call, r);
}
