/* derive.c: one derivative, from primal to finished functions.
 *
 * Preprocess the primal, analyse it (CFG, activity), build the reverse
 * function R first (it decides which values the tape holds), then the
 * augmented forward A and its tape stores. Combined mode wraps A and R in a
 * gradient function with the tape on the stack and inlines both, so SROA
 * turns the tape into registers; split mode keeps A and R apart with a heap
 * tape that R frees. Derivatives are cached per function, activity and mode.
 *
 * derive.c and callee.c call each other: they are one concept, a
 * derivative and the derivatives of the calls it keeps, built recursively
 * (a callee's is built while its caller's is; recursion finds its own).
 * The plan (plan/) is built after the analyses and consulted by R.
 */
#include "lt.h"

#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cleanup =
    "sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,dse,early-cse<memssa>,simplifycfg,adce";
/* ... and, at -O2 and up, where the undo log's calls are guarded by its
 * run-time test (undo.c, lt_undo_guard), a loop copy without them */
static const char *cleanup_unswitch =
    "sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,dse,early-cse<memssa>,simplifycfg,adce,"
    "loop-mssa(simple-loop-unswitch<nontrivial>),simplifycfg,instcombine<no-verify-fixpoint>";

/* The key's tail in reverse mode: the mode (called, split, combined),
 * what A returns, who frees the tape, LIFO sub-tapes, parallel. */
static void key_tail(const LtRequest *r, int split, char tail[6]) {
  tail[0] = r->mode == LT_SUBCALL ? 'u' : split ? 's' : 'c';
  tail[1] = r->ret_shadow ? 'r' : r->want_primal ? 'p' : '-';
  tail[2] = r->nofree ? 'n' : r->mode == LT_REVERSE && r->tape_ptr && r->allocated ? 'k' : '-';
  tail[3] = r->mode == LT_SUBCALL && r->lifo ? 'l' : r->nested ? 'N' : '-';
  tail[4] = r->parallel ? 'P' : '-';
  tail[5] = 0;
}

static LLVMTypeRef outs_type(LtCtx *c, const LtRequest *r, unsigned *nouts) {
  LLVMTypeRef t[256];
  unsigned n = 0;
  for (unsigned p = 0; p < r->nparams && n < 256; p++)
    if (r->act[p] == LT_OUT)
      t[n++] = LLVMTypeOf(LLVMGetParam(r->fn, p));
  *nouts = n;
  if (n == 0)
    return c->vd;
  if (n == 1)
    return t[0];
  return LLVMStructTypeInContext(c->llctx, t, n, 0);
}

/* A returns the primal result only when a call asks for it: a dead result
 * lets the cleanup delete the work that computes it. */
static void drop_return_values(LLVMValueRef f, LLVMContextRef ctx) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t)) {
      LLVMPositionBuilderBefore(b, t);
      LLVMBuildRetVoid(b);
      LLVMInstructionEraseFromParent(t);
    }
  }
  LLVMDisposeBuilder(b);
}

static LLVMValueRef build_grad(LtGen *g, LtDeriv *d, const char *name) {
  LtCtx *c = g->c;
  unsigned na = LLVMCountParams(g->A), nr = LLVMCountParams(g->R);
  if (nr > 260)
    return NULL;
  /* R's parameters but the tape, less the shadows the gradient makes
   * itself (scratchshadow.c): at[k], its place among the gradient's, or -1 */
  int at[260];
  unsigned char mine[260] = {0};
  for (unsigned q = 0, j = g->nparams; q < g->nparams && j < 260; q++)
    if (lt_is_dup(g->act[q]))
      mine[j++] = g->scratch && g->scratch[q];
  unsigned m = 0;
  LLVMTypeRef pt[260];
  for (unsigned k = 0; k + 1 < nr; k++) {
    at[k] = mine[k] ? -1 : (int)m;
    if (!mine[k])
      pt[m++] = LLVMTypeOf(LLVMGetParam(g->R, k));
  }
  LLVMValueRef f = lt_clone_decl(g->P, name, LLVMFunctionType(d->outs_ty, pt, m, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->llctx, f, "entry"));
  unsigned long long sz = d->tape_size ? d->tape_size : 1;
  LLVMValueRef tape = lt_build_slot(b, LLVMArrayType2(c->i8, sz), 16, "tape");
  LLVMValueRef args[260], own[260];
  for (unsigned k = 0; k + 1 < nr; k++)
    own[k] = at[k] < 0 ? lt_scratch_new(c, b) : NULL;
  for (unsigned k = 0; k + 1 < na; k++)
    args[k] = at[k] < 0 ? own[k] : LLVMGetParam(f, (unsigned)at[k]);
  args[na - 1] = tape;
  LLVMValueRef ca = LLVMBuildCall2(b, LLVMGlobalGetValueType(g->A), g->A, args, na, "");
  for (unsigned k = 0; k + 1 < nr; k++)
    args[k] = at[k] < 0 ? own[k] : LLVMGetParam(f, (unsigned)at[k]);
  args[nr - 1] = tape;
  LLVMValueRef cr = LLVMBuildCall2(b, LLVMGlobalGetValueType(g->R), g->R, args, nr, "");
  for (unsigned k = 0; k + 1 < nr; k++)
    if (own[k])
      lt_scratch_free(c, b, own[k]);
  if (g->lifo) { /* the arena's first chunk for this gradient */
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
    LLVMValueRef at = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
    while (LLVMIsAAllocaInst(at))
      at = LLVMGetNextInstruction(at); /* the entry's allocas stay first */
    LLVMPositionBuilderBefore(eb, at);
    lt_arena_hint(c, f, eb, b);
    LLVMDisposeBuilder(eb);
  }
  if (LLVMGetTypeKind(d->outs_ty) == LLVMVoidTypeKind)
    LLVMBuildRetVoid(b);
  else
    LLVMBuildRet(b, cr);
  LLVMDisposeBuilder(b);
  if (lt_inline_call(c, ca, 0) || lt_inline_call(c, cr, 0))
    return NULL;
  return f;
}

static int verify(LtCtx *c, LLVMValueRef f, LLVMValueRef at) {
  if (!LLVMVerifyFunction(f, getenv("LEANTAPE_DEBUG") ? LLVMPrintMessageAction : LLVMReturnStatusAction))
    return 0;
  lt_internal_error(c, at, "generated code does not verify");
  return -1;
}

static void gen_free(LtGen *g) {
  free(g->pf);
  free(g->act_own);
  free(g->scratch);
  lt_cfg_free(&g->g);
  lt_activity_free(&g->act_of);
  lt_map_free(&g->fmap);
  lt_map_free(&g->fshadow);
  lt_map_free(&g->fchoice);
  lt_map_free(&g->fentry);
  lt_map_free(&g->rloop_val);
  lt_map_free(&g->rloop_bb);
  lt_map_free(&g->rsloop_val);
  lt_map_free(&g->rsloop_bb);
  lt_map_free(&g->ivx_loop);
  lt_map_free(&g->callee);
  lt_map_free(&g->apart);
  lt_map_free(&g->subtape_ph);
  lt_map_free(&g->ckpt_ctx);
  lt_map_free(&g->ckpt_tape);
  lt_map_free(&g->custom_tape);
  lt_vec_free(&g->slot_access);
  lt_vec_free(&g->tape_stores);
  free(g->sc_excl);
  if (g->plan.f)
    lt_plan_free(&g->plan);
  free(g->loop_iv);
  free(g->r_m);
  free(g->r_iv);
  free(g->r_buf);
  free(g->r_rs);
  free(g->r_enter);
  free(g->r_free);
  free(g->priv);
  if (g->priv)
    lt_map_free(&g->priv_of);
  free(g->a_n);
  free(g->a_cur);
  free(g->a_buf);
  if (g->ind.ls)
    lt_induction_free(&g->ind);
  lt_overwrite_free(&g->ow);
  lt_vec_free(&g->undo_calls);
  lt_vec_free(&g->undo_order);
  lt_map_free(&g->undo_loads);
  lt_map_free(&g->undo_need);
  lt_map_free(&g->undo_tri);
  lt_map_free(&g->undo_block);
  lt_map_free(&g->undo_run);
  lt_map_free(&g->undo_runblock);
  lt_map_free(&g->undo_apart);
  lt_vec_free(&g->undo_skip);
  lt_vec_free(&g->undo_enter);
  if (g->loops.loop)
    lt_loops_free(&g->loops);
  lt_map_free(&g->rprimal);
  lt_map_free(&g->rshadow);
  lt_map_free(&g->adj);
  lt_map_free(&g->adj_ssa);
  lt_map_free(&g->adj_local);
  lt_map_free(&g->reversed);
  lt_map_free(&g->rblock);
  if (g->eb)
    LLVMDisposeBuilder(g->eb);
  if (g->b)
    LLVMDisposeBuilder(g->b);
}

/* LT_PF_CHECK parameters: the run-time test that they are apart (d->apart),
 * and the facts the analyses then take (DISTINCT); 1 when no test can be
 * built, and the caller does without this derivative. */
static int checked_flags(LtGen *g, const LtRequest *r, LtDeriv *d, unsigned char *pf) {
  int any = 0;
  for (unsigned p = 0; r->pflags && p < r->nparams; p++) {
    pf[p] = r->pflags[p];
    any |= pf[p] & LT_PF_CHECK;
  }
  if (!any)
    return 0;
  LtFacts f = {g->c, g->P, g->nparams, g->split, g->keep, &g->g, &g->loops, &g->ind,
               NULL, NULL, g->loop_iv, &g->ivx_loop, 0, 0};
  d->apart = lt_omp_check_build(g->c, &f, r->pflags, r->parallel ? 2 : 0,
                                LLVMGetValueName2(r->fn, &(size_t){0}));
  for (unsigned p = 0; p < r->nparams; p++)
    if (pf[p] & LT_PF_CHECK)
      pf[p] = (unsigned char)((pf[p] & ~LT_PF_CHECK) | LT_PF_DISTINCT);
  return !d->apart;
}

/* A checkpointed step's test guards ckptdead.c's copy of its A instead
 * (two pointer parameters or more). */
static unsigned char *step_flags(const LtRequest *r) {
  unsigned nptr = 0;
  for (unsigned p = 0; p < r->nparams; p++)
    nptr += lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(r->fn, p)));
  return nptr < 2 ? NULL : lt_check_pointers(r);
}

/* A gradient that version.c may version: the run-time test that its
 * pointer parameters are apart, built now that the facts are at hand (a
 * second derivative is built only where the test exists). */
/* Versioning pays only where a reverse loop may vectorise: a function
 * without loops gets no second derivative (version.c). */
static void version_test(LtGen *g, const LtRequest *r, LtDeriv *d) {
  if (!g->loops.nloops)
    return;
  unsigned char *pf = !r->ckpt ? lt_version_flags(g->c, r) : g->c->opt_level ? step_flags(r) : NULL;
  if (!pf)
    return;
  LtFacts f = {g->c, g->P, g->nparams, g->split, g->keep, &g->g, &g->loops, &g->ind,
               NULL, NULL, g->loop_iv, &g->ivx_loop, 0, 0};
  d->apart_test = lt_omp_check_build(g->c, &f, pf, 0, LLVMGetValueName2(r->fn, &(size_t){0}));
  free(pf);
}

/* Enzyme_const parameters whose memory the function stores active values
 * in and reads back (analysis/scratch.c): the gradient gives them shadows
 * of its own (build_grad), so A and R take them as dup; the call keeps its
 * arguments. The analyses run again with them dup. */
static int scratch_shadows(LtGen *g, const LtRequest *r, const unsigned char *pf) {
  unsigned char *mask = g->act_of.scratch;
  g->act_of.scratch = NULL;
  lt_activity_free(&g->act_of);
  memset(&g->act_of, 0, sizeof g->act_of);
  g->act_of.ret_shadow = r->ret_shadow;
  g->act_own = lt_xcalloc(r->nparams + 1, sizeof *g->act_own);
  memcpy(g->act_own, r->act, r->nparams * sizeof *g->act_own);
  g->nshadows = 0;
  for (unsigned p = 0; p < r->nparams; p++) {
    if (mask[p]) {
      lt_scratch_remark(g->c, r->call, r->fn, p, "gradient");
      g->act_own[p] = LT_DUP;
    }
    g->nshadows += lt_is_dup(g->act_own[p]);
  }
  g->act = g->act_own;
  g->scratch = mask;
  return lt_activity_run(g->c, &g->act_of, g->P, &g->g, g->act, pf);
}

static int analyse(LtGen *g, const LtRequest *r, LtDeriv *d) {
  lt_cfg_build(&g->g, g->P);
  if (lt_loopform(g->c, r->fn, &g->g, &g->loops, &g->loop_iv, &g->ivx_loop))
    return -1;
  lt_induction_build(&g->ind, &g->loops);
  version_test(g, r, d);
  g->act_of.ret_shadow = r->ret_shadow;
  g->act_of.scratch_ok = r->mode == LT_AUTODIFF && !g->split && lt_scratch_target(g->c);
  unsigned char *pf = lt_xcalloc(r->nparams + 1, 1);
  int no = checked_flags(g, r, d, pf);
  int bad = no ? 1 : lt_activity_run(g->c, &g->act_of, g->P, &g->g, r->act,
                                     r->pflags ? pf : NULL);
  if (bad == 2) /* enzyme_const memory that needs a shadow: give it one */
    bad = scratch_shadows(g, r, r->pflags ? pf : NULL);
  if (r->pflags)
    g->pf = pf;
  else
    free(pf);
  if (bad)
    return no ? 1 : -1;
  g->fx = (LtFacts){g->c,     g->P,         g->nparams, g->split, g->keep,
                    &g->g,     &g->loops,    &g->ind,    &g->act_of, &g->ow,
                    g->loop_iv, &g->ivx_loop, 0, 0};
  if (r->ckpt) { /* a time loop's step: its snapshots (snapshot.c) */
    char why[300] = "", msg[640];
    d->snap = lt_ckpt_snap_build(g->c, &g->fx, LLVMGetValueName2(r->fn, &(size_t){0}), why,
                                 sizeof why);
    if (!d->snap)
      snprintf(msg, sizeof msg, "this loop is not checkpointed: %s; its steps are taped",
               why);
    else
      snprintf(msg, sizeof msg, "this loop is checkpointed under a tape budget "
                                "(LEANTAPE_TAPE_BUDGET, or -leantape-checkpoint=BUDGET, or "
                                "enzyme_tape_budget): a "
                                "snapshot holds the memory its steps write%s%s%s; "
                                "LEANTAPE_REPORT=1 prints the schedule",
               *why ? " (" : "", why, *why ? ")" : "");
    lt_remark_emit(g->c, r->call, "leantape", "checkpoint", msg);
  }
  lt_overwrite_build(&g->ow, &g->fx);
  /* the header is an alloca or heap block of ours, except a callee's
   * (placed in its caller's tape) and the caller's enzyme_tape storage */
  lt_plan_init(&g->plan, &g->fx, g->sub || g->keep_header ? 1 : 16);
  return lt_callees_plan(g);
}

static int generate(LtGen *g, LtDeriv *d, const char *base) {
  char name[300];
  snprintf(name, sizeof name, "%s.lt.aug", base);
  if (lt_forward_build(g, name))
    return -1;
  snprintf(name, sizeof name, "%s.lt.rev", base);
  if (lt_reverse_build(g, name, d->outs_ty))
    return -1;
  lt_forward_loop_state(g);
  lt_undo_forward(g);
  lt_tape_store_all(g);
  lt_scope_forward(g);
  lt_forward_loop_headers(g);
  lt_undo_skip_runs(g);
  const char *clean = g->c->opt_level >= 2 && lt_undo_guard(g) ? cleanup_unswitch : cleanup;
  if (!g->want_primal && !g->ret_shadow)
    drop_return_values(g->A, g->c->llctx);
  d->tape_size = g->plan.tape_size;
  if (g->failed || verify(g->c, g->A, d->fn) || verify(g->c, g->R, d->fn))
    return -1;
  LtPlanReport rp = {base, g->sub ? "called" : g->split ? "split" : "combined",
                     d->fn, g->c->host->explain};
  lt_plan_report(&g->plan, &rp);
  if (g->split) {
    d->aug = g->A;
    d->rev = g->R;
    if (lt_run_pipeline(g->c, g->A, clean) || lt_run_pipeline(g->c, g->R, clean))
      return -1;
    return 0;
  }
  snprintf(name, sizeof name, "%s.lt.grad", base);
  d->grad = build_grad(g, d, name);
  lt_bury(g->c, g->A);
  lt_bury(g->c, g->R);
  if (!d->grad || verify(g->c, d->grad, d->fn))
    return -1;
  return lt_run_pipeline(g->c, d->grad, clean);
}

/* A callee's derivative is declared before its body is built, so that
 * recursive calls reached while building it can call it. */
static void declare(LtCtx *c, LtGen *g, LtDeriv *d, const LtRequest *r) {
  char name[300];
  size_t len;
  const char *base = LLVMGetValueName2(r->fn, &len);
  d->act = lt_xcalloc(r->nparams + 1, sizeof *d->act);
  memcpy(d->act, r->act, r->nparams * sizeof *d->act);
  snprintf(name, sizeof name, "%s.lt.aug", base);
  g->A = d->aug = lt_clone_decl(r->fn, name,
                                lt_aug_type(c, r->fn, r->act, r->want_primal, r->ret_shadow));
  snprintf(name, sizeof name, "%s.lt.rev", base);
  g->R = d->rev = lt_clone_decl(r->fn, name, lt_rev_type(c, r->fn, r->act, d->outs_ty));
  d->building = 1;
}

LtDeriv *lt_derive(LtCtx *c, const LtRequest *r) {
  int split = r->mode != LT_AUTODIFF;
  char tail[6];
  key_tail(r, split, tail);
  /* upper case for memory kept between the halves (enzyme_not_overwritten):
   * __enzyme_augmentfwd and __enzyme_reverse must share the prefix */
  int fresh;
  LtDeriv *d = lt_deriv_entry(c, r, r->keep, tail, &fresh);
  if (!fresh)
    return d;
  d->want_primal = r->want_primal;
  d->ret_shadow = r->ret_shadow;
  d->parallel = r->parallel;
  d->outs_ty = outs_type(c, r, &d->nouts);
  LtGen g;
  memset(&g, 0, sizeof g);
  g.c = c;
  g.act = r->act;
  g.keep = r->keep;
  g.at = r->call;
  g.split = split;
  g.sub = r->mode == LT_SUBCALL;
  g.parallel = r->parallel;
  g.want_primal = r->want_primal;
  g.ret_shadow = r->ret_shadow;
  g.nofree = r->nofree;
  g.lifo = (r->mode == LT_AUTODIFF && !r->nested) || (r->mode == LT_SUBCALL && r->lifo);
  g.keep_header = r->mode == LT_REVERSE && r->tape_ptr && r->allocated;
  g.nparams = r->nparams;
  for (unsigned p = 0; p < r->nparams; p++)
    g.nshadows += lt_is_dup(r->act[p]);
  size_t first = c->derivs.n;
  if (g.sub) {
    declare(c, &g, d, r);
    lt_vec_push(&c->derivs, d);
  }
  int nerr = c->nerrors;
  double t0 = lt_now();
  g.P = lt_preprocess(c, r->fn, r->call);
  if (g.P)
    lt_forward_local_stores(c, g.P);
  if (g.P && !split)
    lt_frame_locals(g.P);
  if (g.P && r->pflags && !r->parallel) {
    /* a version that runs when its pointers are apart (version.c) */
    unsigned char *ap = lt_xcalloc(r->nparams + 1, 1);
    for (unsigned p = 0; p < r->nparams; p++)
      ap[p] = (r->pflags[p] & (LT_PF_CHECK | LT_PF_DISTINCT)) != 0;
    if (lt_prep_apart(c, g.P, ap) < 0) {
      lt_bury(c, g.P);
      g.P = NULL;
    }
    free(ap);
  }
  /* -leantape-checkpoint[=N] for every call, enzyme_tape_budget N for this one */
  g.checkpoint = c->host->checkpoint || r->budget > 0;
  g.budget = r->budget > 0 ? r->budget : c->host->tape_budget;
  if (g.P && (c->host->outline_steps || g.checkpoint) && !g.sub &&
      lt_outline_wanted(c, r->call, g.checkpoint) && lt_outline_time_loops(c, g.P) < 0) {
    lt_bury(c, g.P);
    g.P = NULL;
  }
  if (g.P && getenv("LEANTAPE_DUMP")) /* debugging: the canonical clone */
    LLVMDumpValue(g.P);
  double t1 = lt_now();
  int an = g.P ? analyse(&g, r, d) : -1;
  int ok = an == 0;
  double t2 = lt_now();
  ok = ok && !generate(&g, d, LLVMGetValueName2(r->fn, &(size_t){0}));
  if (getenv("LEANTAPE_TIME")) /* debugging: where compile time goes */
    fprintf(stderr, "leantape time: '%s': preprocess %.3f s, analyses %.3f s, "
                    "generation %.3f s\n",
            LLVMGetValueName2(r->fn, &(size_t){0}), t1 - t0, t2 - t1, lt_now() - t2);
  /* (an == 1: no run-time test for LT_PF_CHECK, not an error) */
  if (!ok && c->nerrors == nerr && an != 1)
    lt_internal_error(c, r->call, "could not build the derivative");
  if (!ok) {
    LLVMValueRef made[3] = {d->grad, g.A, g.R};
    for (int k = 0; k < 3; k++)
      if (made[k])
        lt_bury(c, made[k]);
  }
  if (g.P)
    lt_bury(c, g.P);
  gen_free(&g);
  if (!ok) {
    /* Derivatives built meanwhile may call this one: drop them too. */
    for (size_t k = first; k < c->derivs.n; k++) {
      LtDeriv *e = c->derivs.v[k];
      if (e == d)
        continue;
      LLVMValueRef made[3] = {e->grad, e->aug, e->rev};
      for (int m = 0; m < 3; m++)
        if (made[m])
          lt_bury(c, made[m]);
      lt_deriv_free(e);
    }
    c->derivs.n = first;
    lt_deriv_free(d);
    return NULL;
  }
  if (g.sub)
    lt_callee_done(c, d);
  else
    lt_vec_push(&c->derivs, d);
  return d;
}

/* The cache key: r's function, '/', one letter per parameter's activity
 * (LtAct order; upper case where keep says its memory is kept), tail. */
static char *make_key(const LtRequest *r, const unsigned char *keep, const char *tail) {
  size_t len, nt = strlen(tail);
  const char *name = LLVMGetValueName2(r->fn, &len);
  char *k = lt_xcalloc(len + 2 * r->nparams + nt + 24, 1);
  memcpy(k, name, len);
  k[len] = '/';
  for (unsigned p = 0; p < r->nparams; p++)
    k[len + 1 + p] = (keep && keep[p] ? "CDNOM" : "cdnom")[r->act[p]];
  memcpy(k + len + 1 + r->nparams, tail, nt);
  /* what the caller knows of the parameters (LtRequest.pflags) */
  for (unsigned p = 0; r->pflags && p < r->nparams; p++)
    k[len + 1 + r->nparams + nt + p] = "-xnXcCkK"[r->pflags[p] & 7];
  if (r->budget > 0) /* enzyme_tape_budget N */
    snprintf(k + strlen(k), 22, "@%lld", r->budget);
  return k;
}

LtDeriv *lt_deriv_entry(LtCtx *c, const LtRequest *r, const unsigned char *keep,
                        const char *tail, int *fresh) {
  char *key = make_key(r, keep, tail);
  for (size_t i = 0; i < c->derivs.n; i++) {
    LtDeriv *d = c->derivs.v[i];
    if (!strcmp(d->key, key)) {
      free(key);
      *fresh = 0;
      return d;
    }
  }
  LtDeriv *d = lt_xcalloc(1, sizeof *d);
  d->fn = r->fn;
  d->key = key;
  d->mode = r->mode;
  *fresh = 1;
  return d;
}

void lt_deriv_free(LtDeriv *d) {
  free(d->key);
  free(d->act);
  free(d);
}
