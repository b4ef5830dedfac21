/* omp.c: OpenMP parallel regions in the generated code.
 *
 * A parallel call (prep/omp.c: the outlined function called with null
 * thread ids) has the outlined function's own derivative, built in
 * parallel mode, like any kept call (callee.c); here it runs on a team.
 * A forks a wrapper that finds the thread's tape header in a region tape
 * (32 bytes: capacity, team size, header stride; then one header per
 * thread, allocated before the fork for omp_get_max_threads() threads, or
 * the num_threads clause's) and calls A_f. R forks a wrapper that checks
 * the team has the same size, so that thread t reverses what thread t did
 * forward, and calls R_f on header t. What the reverse does inside the
 * parallel derivative (mirrored synchronisation, adjoints added into
 * shared memory) is ompsync.c's.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* region tape: capacity, team size, stride, header size; then the turn
 * counters' values at the end of the forward region, one per counter;
 * then the sums over the team of the adjoints of the region's float
 * parameters (firstprivate), 8 bytes each */
#define HEADER 32

/* Where the region tape keeps the adjoint sums (after the turns). */
static unsigned long long outs_at(LtCtx *c, LLVMValueRef region) {
  LtVec turns = {0};
  lt_omp_turns(c, region, &turns);
  unsigned long long at = HEADER + 8 * turns.n;
  lt_vec_free(&turns);
  return at;
}

/* The type of out k of d (its float parameters by value, in order). */
static LLVMTypeRef out_type(const LtDeriv *d, unsigned k) {
  return d->nouts == 1 ? d->outs_ty : LLVMStructGetTypeAtIndex(d->outs_ty, k);
}

LLVMValueRef lt_omp_decl(LtCtx *c, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *pt, unsigned n, int va) {
  return lt_decl_fn(c->mod, name, LLVMFunctionType(ret, pt, n, va));
}

LLVMValueRef lt_omp_call(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef *a,
                         unsigned n) {
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, n, "");
}

LLVMValueRef lt_omp_i64(LtCtx *c, unsigned long long v) {
  return LLVMConstInt(c->i64, v, 0);
}

LLVMValueRef lt_omp_at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef off) {
  return LLVMBuildGEP2(b, c->i8, p, &off, 1, "");
}

/* lt.omp.fail(msg): a run-time error of the generated code. */
static void fail(LtCtx *c, LLVMBuilderRef b, const char *msg) {
  LLVMTypeRef wt[3] = {c->i32, c->ptr, c->i64};
  LLVMValueRef w = lt_omp_decl(c, "write", c->i64, wt, 3, 0);
  LLVMValueRef s = LLVMBuildGlobalString(b, msg, "lt.omp.msg");
  LLVMValueRef a[3] = {LLVMConstInt(c->i32, 2, 0), s, lt_omp_i64(c, strlen(msg))};
  lt_omp_call(b, w, a, 3);
  lt_omp_call(b, lt_omp_decl(c, "abort", c->vd, NULL, 0, 0), NULL, 0);
  LLVMBuildUnreachable(b);
}

static LLVMValueRef thread_num(LtCtx *c, LLVMBuilderRef b) {
  LLVMValueRef f = lt_omp_decl(c, "omp_get_thread_num", c->i32, NULL, 0, 0);
  return LLVMBuildSExt(b, lt_omp_call(b, f, NULL, 0), c->i64, "lt.tid");
}

static LLVMValueRef team_size(LtCtx *c, LLVMBuilderRef b) {
  LLVMValueRef f = lt_omp_decl(c, "omp_get_num_threads", c->i32, NULL, 0, 0);
  return LLVMBuildSExt(b, lt_omp_call(b, f, NULL, 0), c->i64, "lt.nthreads");
}

/* A wrapper of the derivative's A (rev 0) or R (rev 1) that the team runs:
 * the same parameters, the last the region tape instead of a header. */
static LLVMValueRef team_wrapper(LtCtx *c, const LtDeriv *d, int rev) {
  LLVMValueRef target = rev ? d->rev : d->aug;
  char name[300];
  snprintf(name, sizeof name, "%s.team", LLVMGetValueName2(target, &(size_t){0}));
  LLVMTypeRef tt = LLVMGlobalGetValueType(target);
  unsigned np = LLVMCountParamTypes(tt);
  LLVMTypeRef pt[np + 1];
  LLVMGetParamTypes(tt, pt);
  LLVMBasicBlockRef entry;
  LLVMValueRef w = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, np, 0), &entry);
  if (!entry)
    return w;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(c->llctx, w, "bad");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(c->llctx, w, "ok");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef rt = LLVMGetParam(w, np - 1);
  LLVMValueRef t = thread_num(c, b), n = team_size(c, b);
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, rt, "lt.cap");
  LLVMValueRef stride =
      LLVMBuildLoad2(b, c->i64, lt_omp_at(c, b, rt, lt_omp_i64(c, 16)), "lt.stride");
  LLVMValueRef bad_team;
  if (rev) {
    LLVMValueRef had = LLVMBuildLoad2(b, c->i64, lt_omp_at(c, b, rt, lt_omp_i64(c, 8)), "lt.had");
    bad_team = LLVMBuildICmp(b, LLVMIntNE, n, had, "");
  } else {
    bad_team = LLVMBuildICmp(b, LLVMIntUGE, t, cap, "");
  }
  LLVMBuildCondBr(b, bad_team, bad, ok);
  LLVMPositionBuilderAtEnd(b, bad);
  fail(c, b, rev ? "leantape: the reverse of a parallel region ran on a team of "
                   "another size than the forward pass (set OMP_DYNAMIC=false)\n"
                 : "leantape: a parallel region ran on more threads than "
                   "omp_get_max_threads() or its num_threads clause said\n");
  LLVMPositionBuilderAtEnd(b, ok);
  if (!rev) {
    /* thread 0 records the team's size for the reverse pass */
    LLVMBasicBlockRef rec = LLVMAppendBasicBlockInContext(c->llctx, w, "record");
    LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(c->llctx, w, "go");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, t, lt_omp_i64(c, 0), ""), rec, go);
    LLVMPositionBuilderAtEnd(b, rec);
    LLVMBuildStore(b, n, lt_omp_at(c, b, rt, lt_omp_i64(c, 8)));
    LLVMBuildBr(b, go);
    LLVMPositionBuilderAtEnd(b, go);
  }
  LLVMValueRef hsize =
      LLVMBuildLoad2(b, c->i64, lt_omp_at(c, b, rt, lt_omp_i64(c, 24)), "lt.hsize");
  LLVMValueRef hdr =
      lt_omp_at(c, b, rt, LLVMBuildAdd(b, hsize, LLVMBuildMul(b, t, stride, ""), ""));
  LLVMValueRef a[np + 1];
  for (unsigned k = 0; k + 1 < np; k++)
    a[k] = LLVMGetParam(w, k);
  a[np - 1] = hdr;
  LLVMValueRef r = lt_omp_call(b, target, a, np);
  /* the thread's adjoints of the float parameters, summed over the team */
  for (unsigned k = 0; rev && k < d->nouts; k++) {
    LLVMValueRef v = d->nouts == 1 ? r : LLVMBuildExtractValue(b, r, k, "");
    LLVMValueRef sum = lt_omp_at(c, b, rt, lt_omp_i64(c, outs_at(c, d->fn) + 8 * k));
    LLVMValueRef s = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpFAdd, sum, v,
                                        LLVMAtomicOrderingMonotonic, 0);
    LLVMSetAlignment(s, (unsigned)LLVMABIAlignmentOfType(c->td, LLVMTypeOf(v)));
  }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return w;
}

static LLVMValueRef fork_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i32, c->ptr};
  return lt_omp_decl(c, "__kmpc_fork_call", c->vd, pt, 3, 1);
}

/* A value as the runtime passes a captured variable (a pointer-sized
 * word: __kmpc_fork_call is variadic, and a double there would travel in
 * a float register the runtime never reads), and back. Clang passes
 * pointers and integers of at most 64 bits, and the region's clone turns
 * some of them into doubles and floats (prep/omp.c): all fit a word. */
static LLVMValueRef to_word(LtCtx *c, LLVMBuilderRef b, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (lt_is_ptr_ty(t))
    return v;
  if (LLVMGetTypeKind(t) == LLVMFloatTypeKind)
    v = LLVMBuildBitCast(b, v, c->i32, "");
  else if (lt_is_float_ty(t))
    v = LLVMBuildBitCast(b, v, LLVMIntTypeInContext(c->llctx, (unsigned)LLVMSizeOfTypeInBits(c->td, t)), "");
  return LLVMBuildZExtOrBitCast(b, v, c->i64, "");
}

static LLVMValueRef from_word(LtCtx *c, LLVMBuilderRef b, LLVMValueRef w, LLVMTypeRef t) {
  if (lt_is_ptr_ty(t))
    return w;
  if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
    return LLVMBuildTruncOrBitCast(b, w, t, "");
  LLVMTypeRef it = LLVMIntTypeInContext(c->llctx, (unsigned)LLVMSizeOfTypeInBits(c->td, t));
  return LLVMBuildBitCast(b, LLVMBuildTruncOrBitCast(b, w, it, ""), t, "");
}

/* w's microtask: w with every parameter a word. */
static LLVMValueRef microtask(LtCtx *c, LLVMValueRef w) {
  char name[300];
  snprintf(name, sizeof name, "%s.fork", LLVMGetValueName2(w, &(size_t){0}));
  LLVMTypeRef wt = LLVMGlobalGetValueType(w);
  unsigned np = LLVMCountParamTypes(wt);
  LLVMTypeRef pt[np + 1], mt[np + 1];
  LLVMGetParamTypes(wt, pt);
  for (unsigned k = 0; k < np; k++)
    mt[k] = lt_is_ptr_ty(pt[k]) ? c->ptr : c->i64;
  LLVMBasicBlockRef entry;
  LLVMValueRef m = lt_helper_fn(c, name, LLVMFunctionType(c->vd, mt, np, 0), &entry);
  if (!entry)
    return m;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a[np + 1];
  for (unsigned k = 0; k < np; k++)
    a[k] = from_word(c, b, LLVMGetParam(m, k), pt[k]);
  lt_omp_call(b, w, a, np);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return m;
}

/* Fork w, or w2 where the run-time test apart (an i1) says so. */
static LLVMValueRef fork2(LtCtx *c, LLVMBuilderRef b, LLVMValueRef loc, LLVMValueRef w,
                          LLVMValueRef w2, LLVMValueRef apart, LLVMValueRef *args,
                          unsigned n) {
  LLVMValueRef a[n + 3];
  a[0] = loc;
  a[1] = LLVMConstInt(c->i32, n, 0);
  a[2] = microtask(c, w);
  if (w2)
    a[2] = LLVMBuildSelect(b, apart, microtask(c, w2), a[2], "lt.variant");
  for (unsigned k = 0; k < n; k++)
    a[k + 3] = to_word(c, b, args[k]);
  return lt_omp_call(b, fork_fn(c), a, n + 3);
}

LLVMValueRef lt_omp_fork(LtCtx *c, LLVMBuilderRef b, LLVMValueRef loc, LLVMValueRef w,
                         LLVMValueRef *args, unsigned n) {
  return fork2(c, b, loc, w, NULL, NULL, args, n);
}

/* The derivative for arguments apart, if the call has one, and then the
 * run-time test at b on the arguments: those of ac (A's copy of the call),
 * or else as R recomputes them (the test reads no memory: the same). */
static const LtDeriv *apart_of(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef ac,
                               LLVMValueRef *test) {
  const LtDeriv *d2 = lt_map_get(&g->apart, call);
  if (!d2)
    return NULL;
  unsigned np = LLVMGetNumArgOperands(call);
  LLVMValueRef a[np + 1];
  for (unsigned p = 0; p < np; p++)
    a[p] = p < 2 ? LLVMConstNull(LLVMTypeOf(LLVMGetOperand(call, p)))
           : ac  ? LLVMGetOperand(ac, p)
                 : lt_rv(g, LLVMGetOperand(call, p));
  *test = lt_omp_call(b, d2->apart, a, np);
  return d2;
}

static unsigned long long stride_of(const LtDeriv *d) {
  unsigned long long s = d->tape_size ? d->tape_size : 1;
  return (s + 15) / 16 * 16;
}

LLVMValueRef lt_omp_region_tape(LtGen *g, LLVMBuilderRef b, LLVMValueRef call) {
  LtCtx *c = g->c;
  const LtDeriv *d = lt_map_get(&g->callee, call);
  LLVMValueRef cap = LLVMBuildSExt(
      b, lt_omp_call(b, lt_omp_decl(c, "omp_get_max_threads", c->i32, NULL, 0, 0), NULL, 0),
      c->i64, "");
  /* a num_threads clause: __kmpc_push_num_threads before this fork in P,
   * after the one before it. (Searched from the end of A's block, it found
   * the clause of a later region in the same block: a region with
   * num_threads(2) before one with num_threads(1) under OMP_NUM_THREADS=1
   * was sized for one thread and aborted.) */
  for (LLVMValueRef i = LLVMGetPreviousInstruction(call); i; i = LLVMGetPreviousInstruction(i)) {
    size_t len = 0;
    const char *nm = LLVMIsACallInst(i) ? lt_callee_name(i, &len) : NULL;
    if (nm && lt_call_is_parallel(i))
      break;
    if (nm && len == 23 && !strncmp(nm, "__kmpc_push_num_threads", 23)) {
      LLVMValueRef k = LLVMGetOperand(i, 2), ak = lt_map_get(&g->fmap, k);
      k = LLVMBuildSExt(b, ak ? ak : k, c->i64, "");
      cap = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, k, cap, ""), k, cap, "");
      break;
    }
  }
  unsigned long long hsize = outs_at(c, lt_called_fn(call)) + 8 * d->nouts;
  /* room for either derivative's tapes (the fork writes which one's
   * stride: lt_omp_forward) */
  const LtDeriv *d2 = lt_map_get(&g->apart, call);
  unsigned long long st = stride_of(d);
  if (d2 && stride_of(d2) > st)
    st = stride_of(d2);
  LLVMValueRef size = LLVMBuildAdd(b, lt_omp_i64(c, hsize),
                                   LLVMBuildMul(b, cap, lt_omp_i64(c, st), ""), "");
  LLVMValueRef rt = g->lifo ? lt_arena_push(c, b, size) : lt_build_malloc(b, c->mod, size);
  LLVMBuildStore(b, cap, rt);
  LLVMBuildStore(b, lt_omp_i64(c, 0), lt_omp_at(c, b, rt, lt_omp_i64(c, 8)));
  LLVMBuildStore(b, lt_omp_i64(c, stride_of(d)), lt_omp_at(c, b, rt, lt_omp_i64(c, 16)));
  LLVMBuildStore(b, lt_omp_i64(c, hsize), lt_omp_at(c, b, rt, lt_omp_i64(c, 24)));
  return rt;
}

LLVMValueRef lt_omp_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                            LLVMValueRef (*shadow)(LtGen *, LLVMValueRef)) {
  LtCtx *c = g->c;
  const LtDeriv *d = lt_map_get(&g->callee, call);
  LLVMValueRef ac = lt_map_get(&g->fmap, call);
  unsigned np = LLVMGetNumArgOperands(call), n = 0;
  LLVMValueRef args[2 * np + 2];
  for (unsigned p = 2; p < np; p++)
    args[n++] = LLVMGetOperand(ac, p);
  for (unsigned p = 2; p < np; p++)
    if (lt_is_dup(d->act[p]))
      args[n++] = shadow(g, LLVMGetOperand(call, p));
  LLVMPositionBuilderBefore(b, ac);
  LLVMValueRef ph = LLVMBuildFreeze(b, LLVMGetPoison(c->ptr), "lt.region");
  lt_map_put(&g->subtape_ph, call, ph);
  args[n++] = ph;
  LLVMValueRef apart = NULL;
  const LtDeriv *d2 = apart_of(g, b, call, ac, &apart);
  if (d2)
    LLVMBuildStore(b,
                   LLVMBuildSelect(b, apart, lt_omp_i64(c, stride_of(d2)),
                                   lt_omp_i64(c, stride_of(d)), ""),
                   lt_omp_at(c, b, ph, lt_omp_i64(c, 16)));
  fork2(c, b, lt_omp_loc(c, call), team_wrapper(c, d, 0), d2 ? team_wrapper(c, d2, 0) : NULL,
        apart, args, n);
  LLVMValueRef f = LLVMGetLastInstruction(LLVMGetInsertBlock(b));
  LLVMInstructionSetDebugLoc(f, LLVMInstructionGetDebugLoc(ac));
  /* the turn counters as the region left them: its reverse starts there,
   * whatever ran in between (tickets, prep/omp.c) */
  LtVec turns = {0};
  lt_omp_turns(c, lt_called_fn(call), &turns);
  for (size_t k = 0; k < turns.n; k++)
    LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, turns.v[k], ""),
                   lt_omp_at(c, b, ph, lt_omp_i64(c, HEADER + 8 * k)));
  lt_vec_free(&turns);
  LLVMInstructionEraseFromParent(ac);
  lt_map_put(&g->fmap, call, NULL);
  return f;
}

int lt_omp_reverse(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  const LtDeriv *d = lt_map_get(&g->callee, call);
  if (!d)
    return -1;
  for (unsigned k = 0; k < d->nouts; k++)
    if (!lt_is_float_ty(out_type(d, k))) {
      lt_error(c, call, "an active value other than a float or double passed by "
                        "value into a parallel region (firstprivate) is not "
                        "supported; pass it by reference (shared)");
      return -1;
    }
  LLVMValueRef rt = lt_tape_load(g, LT_SLOT_SUBPTR, call, c->ptr);
  LLVMValueRef loc = lt_omp_loc(c, call);
  LLVMValueRef team =
      LLVMBuildLoad2(g->b, c->i64, lt_omp_at(c, g->b, rt, lt_omp_i64(c, 8)), "lt.team");
  LLVMTypeRef gt[1] = {c->ptr};
  LLVMValueRef gtid =
      lt_omp_call(g->b, lt_omp_decl(c, "__kmpc_global_thread_num", c->i32, gt, 1, 0), &loc, 1);
  LLVMTypeRef pt[3] = {c->ptr, c->i32, c->i32};
  LLVMValueRef push[3] = {loc, gtid, LLVMBuildTrunc(g->b, team, c->i32, "")};
  lt_omp_call(g->b, lt_omp_decl(c, "__kmpc_push_num_threads", c->vd, pt, 3, 0), push, 3);
  unsigned np = LLVMGetNumArgOperands(call), n = 0;
  LLVMValueRef args[2 * np + 2];
  for (unsigned p = 2; p < np; p++)
    args[n++] = lt_rv(g, LLVMGetOperand(call, p));
  for (unsigned p = 2; p < np; p++)
    if (lt_is_dup(d->act[p])) {
      LLVMValueRef s = lt_rs(g, LLVMGetOperand(call, p));
      args[n++] = s ? s : LLVMConstNull(LLVMTypeOf(LLVMGetOperand(call, p)));
    }
  args[n++] = rt;
  /* the turn counters as the forward region left them, for the reverse;
   * afterwards as they were, for whatever comes next (other forward
   * passes may have moved them: split mode, forward mode in between) */
  LtVec turns = {0};
  lt_omp_turns(c, lt_called_fn(call), &turns);
  LLVMValueRef *cur = lt_xcalloc(turns.n + 1, sizeof *cur);
  for (size_t k = 0; k < turns.n; k++) {
    cur[k] = LLVMBuildLoad2(g->b, c->i64, turns.v[k], "");
    LLVMValueRef had = lt_omp_at(c, g->b, rt, lt_omp_i64(c, HEADER + 8 * k));
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, c->i64, had, ""), turns.v[k]);
  }
  unsigned long long oat = outs_at(c, d->fn);
  for (unsigned k = 0; k < d->nouts; k++)
    LLVMBuildStore(g->b, LLVMConstNull(out_type(d, k)),
                   lt_omp_at(c, g->b, rt, lt_omp_i64(c, oat + 8 * k)));
  LLVMValueRef apart = NULL;
  const LtDeriv *d2 = apart_of(g, g->b, call, NULL, &apart);
  fork2(c, g->b, loc, team_wrapper(c, d, 1), d2 ? team_wrapper(c, d2, 1) : NULL, apart, args,
        n);
  for (size_t k = 0; k < turns.n; k++)
    LLVMBuildStore(g->b, cur[k], turns.v[k]);
  /* the float parameters' adjoints, summed by the team */
  for (unsigned p = 2, k = 0; p < np; p++)
    if (d->act[p] == LT_OUT) {
      LLVMTypeRef t = out_type(d, k);
      lt_adj_add(g, LLVMGetOperand(call, p),
                 LLVMBuildLoad2(g->b, t, lt_omp_at(c, g->b, rt, lt_omp_i64(c, oat + 8 * k++)), ""));
    }
  free(cur);
  lt_vec_free(&turns);
  if (g->lifo)
    lt_arena_pop(c, g->b, rt);
  else
    lt_build_free(g->b, c->mod, rt);
  return 0;
}
