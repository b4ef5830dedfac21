/* tangent.c: forward mode, the tangent function of a request.
 *
 * T(params, the shadows of the dup parameters) is the preprocessed primal
 * P (the same clone, inlining policy and analyses as reverse mode) with,
 * next to every instruction, its tangent: floats carry their directional
 * derivative, pointers into active memory a shadow pointer, and memory
 * operations do to shadow memory what they do to memory (a store of a
 * float stores its tangent, a copy copies tangents, an allocation gets a
 * zeroed shadow). No tape and no reverse pass: loops need nothing. The
 * partials come from the derivative-rule table (dy = 1), as in reverse
 * mode. With enzyme_width W every dup parameter has W shadows, and the
 * tangents of scalar floats are <W x T> vectors. Calls kept as calls get
 * the callee's own tangent function (recursion included), built once per
 * (callee, activity, width). T returns the tangent of the result, or
 * {result, tangent} when the primal is wanted.
 */
#include "lt.h"

#include <llvm-c/Analysis.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cleanup =
    "sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,adce";

/* The analysis activity of a forward-mode parameter: a float with a
 * tangent varies (LT_OUT there), a pointer with shadows is dup. */
static LtAct analysis_act(LLVMValueRef fn, unsigned p, LtAct a) {
  LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, p));
  if ((a == LT_DUP || a == LT_DUPNONEED) && !lt_is_ptr_ty(t))
    return LT_OUT;
  return a;
}

/* T's type: the parameters, then W shadows per dup parameter; the result
 * when want_primal, its tangent when ret_tan, {both} when both. */
static LLVMTypeRef tan_type(LtCtx *c, LLVMValueRef fn, const LtAct *act,
                            unsigned W, int want_primal, int ret_tan) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  unsigned np = LLVMCountParamTypes(fty), n = 0;
  LLVMTypeRef pt[np + 1], *all = lt_xcalloc(np * (W + 1) + 1, sizeof *all);
  LLVMGetParamTypes(fty, pt);
  for (unsigned p = 0; p < np; p++)
    all[n++] = pt[p];
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(act[p]))
      for (unsigned k = 0; k < W; k++)
        all[n++] = pt[p];
  LLVMTypeRef rt = LLVMGetReturnType(fty);
  LLVMTypeRef tt = W == 1 ? rt
                   : lt_is_float_ty(rt) ? LLVMVectorType(rt, W)
                                        : LLVMArrayType2(rt, W);
  LLVMTypeRef ret = c->vd;
  if (want_primal && ret_tan) {
    LLVMTypeRef f[2] = {rt, tt};
    ret = LLVMStructTypeInContext(c->llctx, f, 2, 0);
  } else if (want_primal) {
    ret = rt;
  } else if (ret_tan) {
    ret = tt;
  }
  LLVMTypeRef t = LLVMFunctionType(ret, all, n, 0);
  free(all);
  return t;
}

/* A struct passed by value is the callee's own copy (byval); its tangent
 * struct too.  T's parameter and its shadows keep the attribute, so that
 * calling T copies both and the caller's structs stay as they were. */
static void keep_byval(LtCtx *c, LLVMValueRef fn, LLVMValueRef T, const LtAct *act,
                       unsigned W) {
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  unsigned np = LLVMCountParams(fn), next = np;
  for (unsigned p = 0; p < np; p++) {
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(fn, p + 1, kind);
    if (bv) {
      LLVMTypeRef ty = LLVMGetTypeAttributeValue(bv);
      LLVMAddAttributeAtIndex(T, p + 1, LLVMCreateTypeAttribute(c->llctx, kind, ty));
      if (lt_is_dup(act[p]))
        for (unsigned k = 0; k < W; k++)
          LLVMAddAttributeAtIndex(T, next + k + 1, LLVMCreateTypeAttribute(c->llctx, kind, ty));
    }
    if (lt_is_dup(act[p]))
      next += W;
  }
}

/* The kept calls of P (recursive or large callees) get the callee's own
 * tangent function. */
static int plan_calls(LtTg *t) {
  LtGen *g = t->g;
  const LtRule *rule;
  lt_map_init(&t->kept, 8);
  for (unsigned b = 0; b < g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i))
        continue;
      LtCallKind k = lt_call_kind(i, &rule);
      if (k == LT_CALL_CUSTOM)
        continue; /* fwdcall.c calls the registered forward derivative */
      if (k != LT_CALL_DIFF)
        continue;
      LtRequest r;
      if (lt_kept_call_request(g, i, LT_FWDSUB, &r))
        return -1;
      LLVMValueRef f = r.fn;
      r.width = t->W;
      for (unsigned p = 0; p < r.nparams; p++) {
        LLVMValueRef op = LLVMGetOperand(i, p);
        LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(f, p));
        /* a pointer that may address active or inactive memory has a
         * shadow that may be null (guard.c), as in reverse mode */
        r.act[p] = lt_is_ptr_ty(pt)
                       ? (!lt_is_shadowed(&g->act_of, op)          ? LT_CONST
                          : lt_shadow_maynull(&g->act_of, op) ? LT_DUPNULL
                                                              : LT_DUP)
                   : lt_is_diff_ty(pt) && lt_is_varied(&g->act_of, op) ? LT_DUP
                                                                        : LT_CONST;
      }
      LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(f));
      r.tan_used = LLVMGetFirstUse(i) && (lt_is_ptr_ty(rt) ? lt_is_shadowed(&g->act_of, i)
                                                           : lt_is_varied(&g->act_of, i));
      r.pflags = lt_call_pflags(g, i, r.nparams);
      LtDeriv *d = lt_tangent_derive(t->c, &r);
      free(r.act);
      free(r.pflags);
      if (!d)
        return -1;
      lt_map_put(&t->kept, i, d);
    }
  return 0;
}

/* Replace the clone of each `ret v` by the return of T's shape. */
static void returns(LtTg *t, int want_primal, int ret_tan) {
  LtGen *g = t->g;
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(t->T));
  for (unsigned bi = 0; bi < g->g.nblocks; bi++) {
    LLVMValueRef pr = LLVMGetBasicBlockTerminator(g->g.block[bi]);
    if (!LLVMIsAReturnInst(pr))
      continue;
    LLVMValueRef tr = lt_tg_val(t, pr);
    LLVMPositionBuilderBefore(t->b, tr);
    LLVMValueRef v = LLVMGetNumOperands(pr) ? LLVMGetOperand(pr, 0) : NULL;
    LLVMValueRef tv = v && ret_tan ? (lt_is_ptr_ty(LLVMTypeOf(v)) ? lt_tg_shadow(t, v)
                                                                   : lt_tg_tan(t, v))
                                   : NULL;
    LLVMValueRef out;
    if (want_primal && ret_tan) {
      out = LLVMBuildInsertValue(t->b, LLVMGetUndef(rt), lt_tg_val(t, v), 0, "");
      out = LLVMBuildInsertValue(t->b, out, tv, 1, "");
    } else if (want_primal) {
      out = lt_tg_val(t, v);
    } else {
      out = tv;
    }
    if (out)
      LLVMBuildRet(t->b, out);
    else
      LLVMBuildRetVoid(t->b);
    LLVMInstructionEraseFromParent(tr);
  }
}

static void fill_phis(LtTg *t) {
  LtGen *g = t->g;
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef tp = lt_map_get(&t->phis, i);
      if (!tp)
        continue;
      int ptr = lt_is_ptr_ty(LLVMTypeOf(i)) || lt_is_ptr_word(&g->act_of, i);
      for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) {
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(i, k);
        LLVMValueRef v = LLVMGetIncomingValue(i, k);
        LLVMValueRef tv = lt_cfg_id(&g->g, ib) < 0 ? LLVMGetPoison(LLVMTypeOf(tp))
                          : ptr                   ? lt_tg_shadow(t, v)
                                                  : lt_tg_tan(t, v);
        LLVMBasicBlockRef tb = LLVMValueAsBasicBlock(lt_tg_val(t, LLVMBasicBlockAsValue(ib)));
        LLVMAddIncoming(tp, &tv, &tb, 1);
      }
    }
}

/* PHIs first (their incoming values come later), then every instruction
 * in reverse post-order, so that operands have their tangents. */
static int body(LtTg *t) {
  LtGen *g = t->g;
  lt_map_init(&t->phis, 16);
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i)) {
      int word = lt_is_ptr_word(&g->act_of, i), ptr = lt_is_ptr_ty(LLVMTypeOf(i)) || word;
      if (ptr ? !word && !lt_is_shadowed(&g->act_of, i) : !lt_is_varied(&g->act_of, i))
        continue;
      LLVMValueRef ti = lt_tg_val(t, i);
      LLVMPositionBuilderBefore(t->b, LLVMGetFirstInstruction(LLVMGetInstructionParent(ti)));
      LLVMValueRef tp = LLVMBuildPhi(t->b, lt_tg_type(t, LLVMTypeOf(i)), "");
      lt_map_put(&t->phis, i, tp);
      lt_map_put(ptr ? &t->sh : &t->tan, i, tp);
    }
  for (unsigned bi = 0; bi < g->g.nblocks && !t->failed; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i && !t->failed;) {
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (!LLVMIsAPHINode(i) && !LLVMIsATerminatorInst(i)) {
        LLVMValueRef ti = lt_tg_val(t, i);
        LLVMPositionBuilderBefore(t->b, LLVMGetNextInstruction(ti));
        if (lt_fwdinst(t, i))
          t->failed = 1;
      }
      i = next;
    }
  if (t->failed)
    return -1;
  fill_phis(t);
  return 0;
}

static int verify(LtCtx *c, LLVMValueRef f, LLVMValueRef at) {
  if (!LLVMVerifyFunction(f, getenv("LEANTAPE_DEBUG") ? LLVMPrintMessageAction
                                                       : LLVMReturnStatusAction))
    return 0;
  lt_internal_error(c, at, "generated tangent code does not verify");
  return -1;
}

static int build(LtTg *t, const LtRequest *r, int want_primal, int ret_tan) {
  LtGen *g = t->g;
  LtCtx *c = t->c;
  unsigned np = r->nparams, n = np;
  lt_map_init(&t->vm, 256);
  lt_map_init(&t->tan, 128);
  lt_map_init(&t->sh, 32);
  for (unsigned p = 0; p < np; p++)
    lt_map_put(&t->vm, LLVMGetParam(g->P, p), LLVMGetParam(t->T, p));
  lt_clone_body(&t->vm, g->P, t->T, NULL, 0);
  t->b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(t->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(t->T)));
  LLVMValueRef own[64 * 8];
  unsigned nown = 0;
  for (unsigned p = 0; p < np; p++) {
    if (!lt_is_dup(r->act[p]) && t->scratch && t->scratch[p] && nown + t->W <= 64 * 8) {
      /* an enzyme_const parameter T gives a tangent of its own */
      LLVMValueRef lanes[64];
      for (unsigned k = 0; k < t->W; k++)
        lanes[k] = own[nown++] = lt_scratch_new(c, t->b);
      LLVMValueRef pv = LLVMGetParam(g->P, p);
      lt_map_put(&t->sh, pv, lt_tg_join(t, lanes, LLVMTypeOf(pv)));
      continue;
    }
    if (!lt_is_dup(r->act[p])) {
      continue;
    }
    LLVMValueRef lanes[64];
    for (unsigned k = 0; k < t->W; k++) {
      lanes[k] = LLVMGetParam(t->T, n++);
      LLVMSetValueName2(lanes[k], "tangent", 7);
    }
    LLVMValueRef pv = LLVMGetParam(g->P, p);
    int ptr = lt_is_ptr_ty(LLVMTypeOf(pv));
    lt_map_put(ptr ? &t->sh : &t->tan, pv, lt_tg_join(t, lanes, LLVMTypeOf(pv)));
  }
  if (plan_calls(t) || body(t))
    return -1;
  returns(t, want_primal, ret_tan);
  lt_scratch_free_at_returns(c, t->T, own, nown);
  return verify(c, t->T, r->call);
}

LtDeriv *lt_tangent_derive(LtCtx *c, const LtRequest *r) {
  unsigned W = r->width ? r->width : 1;
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(r->fn));
  int sub = r->mode == LT_FWDSUB;
  int want_primal = sub ? r->want_primal : r->primal_return && LLVMGetTypeKind(rt) != LLVMVoidTypeKind;
  int ret_tan = sub ? r->tan_used : lt_is_diff_ty(rt) || lt_is_ptr_ty(rt);
  char tail[32];
  snprintf(tail, sizeof tail, "/fwd%u%c%c%c", W, want_primal ? 'p' : '-', ret_tan ? 't' : '-',
           r->parallel ? 'P' : '-');
  int fresh;
  LtDeriv *d = lt_deriv_entry(c, r, NULL, tail, &fresh);
  if (!fresh)
    return d;
  d->want_primal = want_primal;
  d->ret_shadow = ret_tan; /* forward mode: T returns the result's tangent */
  d->nouts = W;
  d->act = lt_xcalloc(r->nparams + 1, sizeof *d->act);
  memcpy(d->act, r->act, r->nparams * sizeof *d->act);
  char name[300];
  snprintf(name, sizeof name, "%s.lt.tan%s", LLVMGetValueName2(r->fn, &(size_t){0}),
           W > 1 ? "v" : "");
  d->aug = lt_clone_decl(r->fn, name, tan_type(c, r->fn, r->act, W, want_primal, ret_tan));
  keep_byval(c, r->fn, d->aug, r->act, W);
  d->building = 1;
  lt_vec_push(&c->derivs, d); /* before the body: recursion finds it */
  LtGen g;
  memset(&g, 0, sizeof g);
  g.c = c;
  g.at = r->call;
  g.sub = sub;
  g.nparams = r->nparams;
  LtAct *aact = lt_xcalloc(r->nparams + 1, sizeof *aact);
  for (unsigned p = 0; p < r->nparams; p++)
    aact[p] = analysis_act(r->fn, p, r->act[p]);
  g.act = aact;
  int nerr = c->nerrors, ok = 0;
  LtTg t;
  memset(&t, 0, sizeof t);
  t.g = &g;
  t.c = c;
  t.W = W;
  t.T = d->aug;
  int fw = c->forward;
  c->forward = 1;
  g.P = lt_preprocess(c, r->fn, r->call);
  c->forward = fw;
  if (g.P) {
    /* no loop analysis: forward mode needs none (irreducible flow is fine) */
    lt_cfg_build(&g.g, g.P);
    g.act_of.scratch_ok = !sub && lt_scratch_target(c);
    int rc = lt_activity_run(c, &g.act_of, g.P, &g.g, aact, r->pflags);
    if (rc == 2) { /* enzyme_const memory that needs a tangent: its own */
      t.scratch = g.act_of.scratch;
      g.act_of.scratch = NULL;
      lt_activity_free(&g.act_of);
      memset(&g.act_of, 0, sizeof g.act_of);
      for (unsigned p = 0; p < r->nparams; p++)
        if (t.scratch[p]) {
          lt_scratch_remark(c, r->call, r->fn, p, "tangent function");
          aact[p] = LT_DUP;
        }
      rc = lt_activity_run(c, &g.act_of, g.P, &g.g, aact, r->pflags);
    }
    if (!rc)
      ok = !build(&t, r, want_primal, ret_tan);
  }
  if (!ok && c->nerrors == nerr)
    lt_internal_error(c, r->call, "could not build the tangent function");
  if (t.b)
    LLVMDisposeBuilder(t.b);
  lt_map_free(&t.vm);
  lt_map_free(&t.tan);
  lt_map_free(&t.sh);
  lt_map_free(&t.kept);
  lt_map_free(&t.phis);
  if (g.P) {
    lt_activity_free(&g.act_of);
    lt_cfg_free(&g.g);
    lt_bury(c, g.P);
  }
  free(aact);
  free(t.scratch);
  d->building = 0;
  if (!ok) {
    /* callers may reference it: it goes with them, after the diagnostics */
    d->key[0] = 0;
    lt_bury(c, d->aug);
    return NULL;
  }
  if (lt_run_pipeline(c, d->aug, cleanup))
    return NULL;
  char msg[400], wbuf[32] = "";
  if (W > 1)
    snprintf(wbuf, sizeof wbuf, ", width %u", W);
  snprintf(msg, sizeof msg, "derivative of '%s' (%s mode%s): tangents, no tape",
           LLVMGetValueName2(r->fn, &(size_t){0}), sub ? "forward, called" : "forward",
           wbuf);
  lt_remark_emit(c, r->call, "leantape", "TangentFunction", msg);
  return d;
}
