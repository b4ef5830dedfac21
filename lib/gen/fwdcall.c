/* fwdcall.c: the tangents of calls (forward mode).
 *
 * A math call's tangent is its rule's partials (rules.c) times its
 * arguments' tangents (fwdinst.c's formula, as is a complex multiply's or
 * divide's); a kept call calls the callee's tangent function (a parallel
 * region's on a team, omp.c); a registered forward derivative is called
 * per lane; a link call is made again on the shadows. Calls of memory are
 * fwdmem.c's, MPI and BLAS calls mpi.c's and blasfwd.c's.
 */
#include "lt.h"

#include <string.h>

/* The partials of a math call (the rule's adjoint with dy = 1), one per
 * argument, at t->b; NULL entries for arguments without one. */
static int partials(LtTg *t, LLVMValueRef i, const LtRule *rule, LLVMValueRef *dx) {
  LtRuleIn in;
  memset(&in, 0, sizeof in);
  in.b = t->b;
  in.mod = t->c->mod;
  in.fty = LLVMTypeOf(i);
  in.nargs = LLVMGetNumArgOperands(i);
  if (in.nargs > LT_RULE_MAXARGS)
    return -1;
  for (unsigned k = 0; k < in.nargs; k++)
    in.x[k] = lt_tg_val(t, LLVMGetOperand(i, k));
  in.y = lt_tg_val(t, i);
  in.dy = lt_const_fill(in.fty, 1.0);
  memset(dx, 0, LT_RULE_MAXARGS * sizeof *dx);
  if (rule->adjoint(&in, dx))
    return -1;
  for (unsigned k = 0; k < in.nargs; k++)
    if (!(rule->active_mask >> k & 1) || !lt_fwd_varied(t, LLVMGetOperand(i, k)))
      dx[k] = NULL;
  return 0;
}

/* A kept call: the callee's tangent function computes the primal and the
 * tangent (or shadow) of the result. */
/* The arguments of call i's tangent function from argument first on: the
 * primal ones (ti's), then W tangents (shadows) of each dup one; their
 * number. */
static unsigned kept_args(LtTg *t, LLVMValueRef i, LLVMValueRef ti, const LtDeriv *d,
                          unsigned first, LLVMValueRef *args) {
  unsigned np = LLVMGetNumArgOperands(i), n = 0;
  for (unsigned p = first; p < np; p++)
    args[n++] = LLVMGetOperand(ti, p);
  for (unsigned p = first; p < np; p++) {
    if (!lt_is_dup(d->act[p]))
      continue;
    LLVMValueRef op = LLVMGetOperand(i, p);
    for (unsigned k = 0; k < t->W; k++)
      args[n++] = lt_is_ptr_ty(LLVMTypeOf(op)) ? lt_fwd_shadow_lane(t, op, k)
                                               : lt_fwd_tang(t, op, (int)k);
  }
  return n;
}

static int fwd_kept(LtTg *t, LLVMValueRef i, const LtDeriv *d) {
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMPositionBuilderBefore(t->b, ti);
  if (lt_call_is_parallel(i)) {
    /* a parallel region: the team runs the outlined function's tangent
     * function, which takes the runtime's thread ids first */
    LLVMValueRef args[LLVMGetNumArgOperands(i) * (t->W + 1) + 1];
    unsigned n = kept_args(t, i, ti, d, 2, args);
    LLVMValueRef nc = lt_omp_fork(t->c, t->b, lt_omp_loc(t->c, i), d->aug, args, n);
    LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ti));
    LLVMInstructionEraseFromParent(ti);
    lt_map_put(&t->vm, i, nc);
    return 0;
  }
  LLVMValueRef args[LLVMGetNumArgOperands(i) * (t->W + 1) + 1];
  unsigned n = kept_args(t, i, ti, d, 0, args);
  LLVMValueRef nc = LLVMBuildCall2(t->b, LLVMGlobalGetValueType(d->aug), d->aug, args, n, "");
  LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ti));
  LLVMValueRef prim = NULL, tan = NULL;
  if (d->want_primal && d->ret_shadow) {
    prim = LLVMBuildExtractValue(t->b, nc, 0, "");
    tan = LLVMBuildExtractValue(t->b, nc, 1, "");
  } else if (d->want_primal) {
    prim = nc;
  } else if (d->ret_shadow) {
    tan = nc;
  }
  if (LLVMGetTypeKind(LLVMTypeOf(ti)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(ti, prim ? prim : LLVMGetPoison(LLVMTypeOf(ti)));
  LLVMInstructionEraseFromParent(ti);
  lt_map_put(&t->vm, i, prim ? prim : nc);
  if (tan)
    lt_map_put(lt_is_ptr_ty(LLVMTypeOf(i)) ? &t->sh : &t->tan, i, tan);
  return 0;
}

/* A registered forward derivative (__enzyme_register_derivative_<name> =
 * {fn, fn_fwd}, Enzyme's ABI): fn_fwd takes each argument followed by its
 * shadow (a pointer's shadow, a float's tangent; integers get one only
 * when fn_fwd has two parameters per argument) and returns {result,
 * tangent}, or the tangent alone; with a width it is called per lane. */
static int fwd_custom(LtTg *t, LLVMValueRef i) {
  const LtReg *r = lt_annotation(t->c, i);
  LLVMValueRef ti = lt_tg_val(t, i), f = r ? r->fwd : NULL;
  if (!f) {
    lt_internal_error(t->c, i, "a custom call without a forward derivative");
    return -1;
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  unsigned np = LLVMGetNumArgOperands(i), nf = LLVMCountParamTypes(fty), nd = 0;
  for (unsigned p = 0; p < np; p++) {
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(i, p));
    nd += lt_is_ptr_ty(pt) || lt_is_diff_ty(pt);
  }
  int all = nf == 2 * np;
  LLVMTypeRef rt = LLVMTypeOf(i), fr = LLVMGetReturnType(fty);
  int pair = LLVMGetTypeKind(fr) == LLVMStructTypeKind && LLVMCountStructElementTypes(fr) == 2 &&
             LLVMStructGetTypeAtIndex(fr, 0) == rt && LLVMStructGetTypeAtIndex(fr, 1) == rt;
  int tan_only = LLVMGetTypeKind(rt) != LLVMVoidTypeKind && fr == rt;
  if ((nf != np + nd && !all) ||
      (LLVMGetTypeKind(rt) == LLVMVoidTypeKind ? LLVMGetTypeKind(fr) != LLVMVoidTypeKind
                                               : !pair && !tan_only)) {
    lt_error(t->c, i, "the forward derivative registered by '%s' has the wrong "
                      "type: it takes each argument followed by its shadow and "
                      "returns {result, tangent} (or void for a void function)",
             r->fwd_name);
    return -1;
  }
  LLVMValueRef lanes[64], prim = NULL;
  LLVMPositionBuilderBefore(t->b, ti);
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef args[2 * np + 1];
    unsigned n = 0;
    for (unsigned p = 0; p < np; p++) {
      LLVMValueRef op = LLVMGetOperand(i, p);
      LLVMTypeRef pt = LLVMTypeOf(op);
      args[n++] = LLVMGetOperand(ti, p);
      if (lt_is_ptr_ty(pt) && lt_shadow_maynull(&t->g->act_of, op)) {
        /* no shadow at run time: the pointer itself, as for an inactive
         * pointer (custom.c) */
        LLVMValueRef s = lt_fwd_shadow_lane(t, op, k), pr = args[n - 1];
        args[n++] = LLVMBuildSelect(t->b, LLVMBuildIsNull(t->b, s, ""), pr, s, "");
      } else if (lt_is_ptr_ty(pt))
        args[n++] = lt_fwd_shadow_lane(t, op, k);
      else if (lt_is_diff_ty(pt))
        args[n++] = lt_fwd_tang(t, op, (int)k);
      else if (all)
        args[n++] = LLVMConstNull(pt);
    }
    LLVMValueRef call = LLVMBuildCall2(t->b, fty, f, args, n, "");
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
    LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(ti));
    if (pair) {
      if (!k)
        prim = LLVMBuildExtractValue(t->b, call, 0, "");
      lanes[k] = LLVMBuildExtractValue(t->b, call, 1, "");
    } else {
      lanes[k] = call;
    }
  }
  /* join the lanes while the builder still points at the primal call */
  if (LLVMGetTypeKind(rt) != LLVMVoidTypeKind)
    lt_map_put(lt_is_ptr_ty(rt) ? &t->sh : &t->tan, i, lt_tg_join(t, lanes, rt));
  /* The derivative computed the result (or, for a void function, did its
   * work): the primal call goes, as in Enzyme, whose forward mode replaces
   * the call by the registered derivative.  A derivative returning only the
   * tangent (our extension) leaves the primal call to compute the result. */
  if (prim || LLVMGetTypeKind(rt) == LLVMVoidTypeKind) {
    if (prim)
      LLVMReplaceAllUsesWith(ti, prim);
    LLVMPositionBuilderAtEnd(t->b, LLVMGetInstructionParent(ti));
    LLVMInstructionEraseFromParent(ti);
    lt_map_put(&t->vm, i, prim ? prim : lanes[0]);
  }
  return 0;
}

/* A link call (calls.c), made again on the shadows, per lane. */
static int fwd_link(LtTg *t, LLVMValueRef i) {
  LLVMValueRef ti = lt_tg_val(t, i), args[8], lanes[64];
  unsigned n = LLVMGetNumArgOperands(i);
  int any = 0, mn = 0;
  for (unsigned q = 0; q < n && q < 8; q++) {
    any |= lt_fwd_shadowed(t, LLVMGetOperand(i, q));
    mn |= lt_shadow_maynull(&t->g->act_of, LLVMGetOperand(i, q));
  }
  if (!any || n > 8)
    return 0;
  for (unsigned k = 0; k < t->W && k < 64; k++) {
    for (unsigned q = 0; q < n; q++) {
      LLVMValueRef op = LLVMGetOperand(i, q);
      args[q] = !lt_is_ptr_ty(LLVMTypeOf(op)) ? LLVMGetOperand(ti, q)
                : lt_fwd_shadowed(t, op)       ? lt_fwd_shadow_lane(t, op, k)
                                               : LLVMConstNull(LLVMTypeOf(op));
    }
    lanes[k] = lt_link_call(t->c, t->b, ti, args, mn);
  }
  if (lt_is_ptr_ty(LLVMTypeOf(i)) && lt_fwd_shadowed(t, i))
    lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

int lt_fwd_call(LtTg *t, LLVMValueRef i) {
  const LtRule *rule;
  LtCallKind k = lt_call_kind(i, &rule);
  const LtDeriv *d = lt_map_get(&t->kept, i);
  if (d)
    return fwd_kept(t, i, d);
  switch (k) {
  case LT_CALL_CUSTOM:
    return fwd_custom(t, i);
  case LT_CALL_RULE: {
    if (!lt_fwd_varied(t, i))
      return 0;
    LLVMValueRef dx[LT_RULE_MAXARGS];
    if (partials(t, i, rule, dx))
      return -1;
    return lt_fwd_value_tangent(t, i, dx, 1);
  }
  case LT_CALL_COMPLEX: {
    int is_div = 0;
    if (!lt_fwd_varied(t, i) || !lt_is_complex_call(i, &is_div))
      return 0;
    lt_map_put(&t->tan, i, lt_fwd_complex_tangent(t, i, is_div));
    return 0;
  }
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
    return lt_fwd_memcall(t, i, k);
  case LT_CALL_MALLOC:
    if (lt_fwd_shadowed(t, i) || (lt_alloc_fn(i)->out_arg >= 0 &&
                                  lt_points_any_active(&t->g->act_of.pts, i)))
      return lt_fwd_alloc(t, i);
    return 0;
  case LT_CALL_FREE:
    return lt_fwd_free(t, i);
  case LT_CALL_MPI:
    return lt_mpi_tangent(t, i);
  case LT_CALL_BLAS:
    return lt_blas_tangent(t, i);
  case LT_CALL_LINK:
    return fwd_link(t, i);
  default:
    return 0; /* inactive, zero derivative (constant tangent 0) */
  }
}
