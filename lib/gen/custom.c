/* custom.c: registered custom derivatives.
 *
 * void *__enzyme_register_gradient_f[3] = {f, f_aug, f_grad} replaces the
 * derivative of every call to f, with Enzyme's ABI (EnzymeLogic.cpp,
 * CreateAugmentedPrimal and CreatePrimalAndGradient, custom branches):
 *   arguments of both: each parameter in order, every non-float one
 *     followed by its shadow (an inactive pointer's shadow is the pointer
 *     itself; an integer is passed twice); floats once;
 *   f_aug returns f's result (no tape), {tape, result, shadow result},
 *     {result, shadow result} (two members of one type), {tape, result},
 *     the tape alone, or nothing;
 *   f_grad takes the arguments, the adjoint of a float result, and the
 *     tape when f_aug returns one; it returns the adjoints of the float
 *     parameters in order (a struct, a single float, or nothing).
 * The augmented call replaces the primal one; its tape is kept in the
 * caller's tape. A registration whose types do not fit is reported.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

enum { AUG_RESULT = 1, AUG_TAPE = 2, AUG_SHADOW = 4 };

typedef struct Shape {
  int parts;            /* AUG_* bits */
  int ri, ti, si;       /* member index of result, tape, shadow (-1: whole) */
  LLVMTypeRef tape_ty;
  unsigned nfloat;      /* float parameters: the gradient's members */
  int grad_tape;        /* the gradient takes the tape */
} Shape;

static int is_float_param(LLVMTypeRef t) { return lt_is_float_ty(t); }

/* Check the registration against f and work out the augmented return. */
static int shape_of(LtCtx *c, const LtReg *r, LLVMValueRef at, Shape *s) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(r->fn);
  LLVMTypeRef at_ = LLVMGlobalGetValueType(r->aug);
  LLVMTypeRef gt = LLVMGlobalGetValueType(r->grad);
  unsigned np = LLVMCountParamTypes(ft), want = 0;
  LLVMTypeRef *pt = lt_xcalloc(np + 1, sizeof *pt), *xt = lt_xcalloc(2 * np + 3, sizeof *xt);
  LLVMGetParamTypes(ft, pt);
  memset(s, 0, sizeof *s);
  s->ri = s->ti = s->si = -1;
  for (unsigned p = 0; p < np; p++) {
    xt[want++] = pt[p];
    if (is_float_param(pt[p]))
      s->nfloat++;
    else
      xt[want++] = pt[p];
  }
  int ok = LLVMCountParamTypes(at_) == want && !LLVMIsFunctionVarArg(at_);
  LLVMTypeRef *got = lt_xcalloc(want + 3, sizeof *got);
  if (ok) {
    LLVMGetParamTypes(at_, got);
    for (unsigned k = 0; k < want && ok; k++)
      ok = got[k] == xt[k] || (lt_is_ptr_ty(got[k]) && lt_is_ptr_ty(xt[k]));
  }
  LLVMTypeRef rt = LLVMGetReturnType(ft), art = LLVMGetReturnType(at_);
  if (ok) {
    LLVMTypeKind k = LLVMGetTypeKind(art);
    unsigned m = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(art) : 0;
    if (art == rt) {
      s->parts = LLVMGetTypeKind(rt) == LLVMVoidTypeKind ? 0 : AUG_RESULT;
    } else if (m == 3) {
      s->parts = AUG_TAPE | AUG_RESULT | AUG_SHADOW;
      s->ti = 0, s->ri = 1, s->si = 2;
    } else if (m == 2 && LLVMStructGetTypeAtIndex(art, 0) == LLVMStructGetTypeAtIndex(art, 1)) {
      s->parts = AUG_RESULT | AUG_SHADOW;
      s->ri = 0, s->si = 1;
    } else if (m == 2) {
      s->parts = AUG_TAPE | AUG_RESULT;
      s->ti = 0, s->ri = 1;
    } else if (k != LLVMVoidTypeKind) {
      s->parts = AUG_TAPE;
    }
    if (s->parts & AUG_TAPE)
      s->tape_ty = s->ti < 0 ? art : LLVMStructGetTypeAtIndex(art, (unsigned)s->ti);
    if ((s->parts & AUG_RESULT) && s->ri >= 0 &&
        LLVMStructGetTypeAtIndex(art, (unsigned)s->ri) != rt)
      ok = 0;
  }
  if (!ok) {
    lt_error(c, at, "'%s': the augmented function '%s' must take each "
                    "parameter of '%s' in order, every non-floating-point "
                    "one followed by its shadow (Enzyme's convention)",
             r->reg_name, LLVMGetValueName2(r->aug, &(size_t){0}),
             LLVMGetValueName2(r->fn, &(size_t){0}));
    goto out;
  }
  /* The gradient: the same arguments, the adjoint of a float result, the
   * tape when there is one. */
  unsigned gn = want + (lt_is_diff_ty(rt) ? 1 : 0);
  unsigned have = LLVMCountParamTypes(gt);
  s->grad_tape = (s->parts & AUG_TAPE) && have == gn + 1;
  ok = have == gn + (unsigned)s->grad_tape && !LLVMIsFunctionVarArg(gt);
  if (ok) {
    LLVMTypeRef *gp = lt_xcalloc(have + 1, sizeof *gp);
    LLVMGetParamTypes(gt, gp);
    for (unsigned k = 0; k < want && ok; k++)
      ok = gp[k] == xt[k] || (lt_is_ptr_ty(gp[k]) && lt_is_ptr_ty(xt[k]));
    free(gp);
  }
  LLVMTypeRef grt = LLVMGetReturnType(gt);
  unsigned gm = LLVMGetTypeKind(grt) == LLVMStructTypeKind ? LLVMCountStructElementTypes(grt)
                : LLVMGetTypeKind(grt) == LLVMVoidTypeKind    ? 0
                                                              : 1;
  if (ok && gm != s->nfloat)
    ok = 0;
  if (!ok)
    lt_error(c, at, "'%s': the gradient '%s' must take the augmented "
                    "function's arguments, then the adjoint of a "
                    "floating-point result, then the tape if there is one, "
                    "and return one adjoint per floating-point parameter",
             r->reg_name, LLVMGetValueName2(r->grad, &(size_t){0}));
out:
  free(pt);
  free(xt);
  free(got);
  return ok ? 0 : -1;
}

int lt_custom_check(LtCtx *c, const LtReg *r, LLVMValueRef at) {
  Shape s;
  return shape_of(c, r, at, &s);
}

/* A pointer that may address active or inactive memory has a shadow that
 * may be null at run time (guard.c); the custom derivative then gets the
 * pointer itself, as for an inactive pointer (Enzyme's runtime-activity
 * convention: a shadow equal to its primal means no derivative). */
static LLVMValueRef or_primal(LtGen *g, LLVMBuilderRef b, LLVMValueRef op, LLVMValueRef s,
                              LLVMValueRef prim) {
  if (s == prim || !lt_is_ptr_ty(LLVMTypeOf(op)) || !lt_shadow_maynull(&g->act_of, op))
    return s;
  return LLVMBuildSelect(b, LLVMBuildIsNull(b, s, ""), prim, s, "");
}

/* The registration of call's function and the shape of its augmented
 * return; NULL when there is none or it does not fit (reported). */
static const LtReg *custom_of(LtGen *g, LLVMValueRef call, Shape *s) {
  const LtReg *r = lt_annotation(g->c, call);
  return r && r->custom && !shape_of(g->c, r, call, s) ? r : NULL;
}

/* The arguments of a call of a custom derivative: the primal and the
 * shadow of each of np operands, and room for them interleaved and
 * `extra` more. */
typedef struct Args {
  unsigned np;
  LLVMValueRef *prim, *shad, *out;
} Args;

static Args args_for(LLVMValueRef call, unsigned extra) {
  unsigned np = LLVMGetNumArgOperands(call);
  Args a = {np, lt_xcalloc(np + 1, sizeof *a.prim), lt_xcalloc(np + 1, sizeof *a.shad),
            lt_xcalloc(2 * np + extra, sizeof *a.out)};
  return a;
}

static void args_free(Args *a) {
  free(a->prim);
  free(a->shad);
  free(a->out);
}

/* Interleaved arguments: primal, then for non-floats a shadow. */
static unsigned interleave(LLVMValueRef fn, LLVMValueRef *prim, LLVMValueRef *shad,
                           LLVMValueRef *out) {
  unsigned n = 0;
  for (unsigned p = 0, np = LLVMCountParams(fn); p < np; p++) {
    out[n++] = prim[p];
    if (!is_float_param(LLVMTypeOf(LLVMGetParam(fn, p))))
      out[n++] = shad[p];
  }
  return n;
}

static LLVMValueRef part(LLVMBuilderRef b, LLVMValueRef v, int idx) {
  return idx < 0 ? v : LLVMBuildExtractValue(b, v, (unsigned)idx, "");
}

LLVMValueRef lt_custom_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                               LLVMValueRef (*shadow)(LtGen *, LLVMValueRef),
                               LLVMValueRef *ret_shadow) {
  Shape s;
  *ret_shadow = NULL;
  const LtReg *r = custom_of(g, call, &s);
  if (!r) {
    g->failed = 1;
    return NULL;
  }
  LLVMValueRef ac = lt_map_get(&g->fmap, call);
  Args a = args_for(call, 1);
  for (unsigned p = 0; p < a.np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    a.prim[p] = LLVMGetOperand(ac, p);
    a.shad[p] = lt_is_ptr_ty(LLVMTypeOf(op)) && lt_is_shadowed(&g->act_of, op)
                    ? shadow(g, op)
                    : a.prim[p];
  }
  LLVMPositionBuilderBefore(b, ac);
  for (unsigned p = 0; p < a.np; p++)
    a.shad[p] = or_primal(g, b, LLVMGetOperand(call, p), a.shad[p], a.prim[p]);
  unsigned n = interleave(r->fn, a.prim, a.shad, a.out);
  LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(r->aug), r->aug,
                                   a.out, n, "");
  LLVMSetInstructionCallConv(nc, LLVMGetFunctionCallConv(r->aug));
  LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ac));
  if (s.parts & AUG_TAPE)
    lt_map_put(&g->custom_tape, call, part(b, nc, s.ti));
  if (s.parts & AUG_SHADOW)
    *ret_shadow = part(b, nc, s.si);
  LLVMValueRef v = NULL;
  if (s.parts & AUG_RESULT) {
    v = part(b, nc, s.ri);
  } else if (LLVMGetTypeKind(LLVMTypeOf(ac)) != LLVMVoidTypeKind && LLVMGetFirstUse(ac)) {
    /* The result is used but the augmented function does not give it:
     * the primal computes it (Enzyme requires the augmented one to). */
    for (unsigned p = 0; p < a.np; p++)
      if (lt_is_ptr_ty(LLVMTypeOf(a.prim[p]))) {
        lt_error(g->c, call, "'%s': the augmented function '%s' must return "
                             "the result of '%s', which is used here",
                 r->reg_name, LLVMGetValueName2(r->aug, &(size_t){0}),
                 LLVMGetValueName2(r->fn, &(size_t){0}));
        g->failed = 1;
        break;
      }
    v = LLVMBuildCall2(b, LLVMGlobalGetValueType(r->fn), r->fn, a.prim, a.np, "");
    LLVMSetInstructionCallConv(v, LLVMGetFunctionCallConv(r->fn));
  }
  args_free(&a);
  if (LLVMGetTypeKind(LLVMTypeOf(ac)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(ac, v ? v : LLVMGetPoison(LLVMTypeOf(ac)));
  LLVMInstructionEraseFromParent(ac);
  lt_map_put(&g->fmap, call, v);
  return nc;
}

int lt_custom_reverse(LtGen *g, LLVMValueRef call) {
  Shape s;
  const LtReg *r = custom_of(g, call, &s);
  if (!r)
    return -1;
  Args a = args_for(call, 3);
  for (unsigned p = 0; p < a.np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    a.prim[p] = lt_rv(g, op);
    LLVMValueRef sp = lt_is_ptr_ty(LLVMTypeOf(op)) ? lt_rs(g, op) : NULL;
    a.shad[p] = sp ? or_primal(g, g->b, op, sp, a.prim[p]) : a.prim[p];
  }
  unsigned n = interleave(r->fn, a.prim, a.shad, a.out);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(r->fn));
  if (lt_is_diff_ty(rt))
    a.out[n++] = lt_is_varied(&g->act_of, call) ? lt_adj_read(g, call) : LLVMConstNull(rt);
  if (s.grad_tape)
    a.out[n++] = lt_tape_load(g, LT_SLOT_CUSTOMTAPE, call, s.tape_ty);
  LLVMValueRef outs = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(r->grad), r->grad,
                                     a.out, n, "");
  LLVMSetInstructionCallConv(outs, LLVMGetFunctionCallConv(r->grad));
  LLVMTypeRef ot = LLVMTypeOf(outs);
  for (unsigned p = 0, k = 0; p < a.np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    if (!is_float_param(LLVMTypeOf(op)))
      continue;
    LLVMValueRef dx = LLVMGetTypeKind(ot) == LLVMStructTypeKind
                          ? LLVMBuildExtractValue(g->b, outs, k, "")
                          : outs;
    k++;
    if (LLVMTypeOf(dx) != LLVMTypeOf(op) && lt_is_float_ty(LLVMTypeOf(dx)))
      dx = LLVMBuildFPCast(g->b, dx, LLVMTypeOf(op), "");
    if (lt_is_varied(&g->act_of, op))
      lt_adj_add(g, op, dx);
  }
  args_free(&a);
  return 0;
}
