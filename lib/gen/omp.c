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
 * forward, and calls R_f on header t. Inside a parallel derivative, the
 * reverse mirrors synchronisation: a barrier's reverse is a barrier; a
 * critical section is re-entered in the opposite order of its entries
 * (tickets, prep/omp.c: the last to enter forward enters first backward,
 * waiting for the counter); adjoints added into memory another thread may
 * add to are atomic (analysis/omp.c proves thread-private locations, which
 * keep plain stores).
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

static LLVMValueRef fn(LtCtx *c, const char *name, LLVMTypeRef ret,
                       LLVMTypeRef *pt, unsigned n, int va) {
  return lt_decl_fn(c->mod, name, LLVMFunctionType(ret, pt, n, va));
}

static LLVMValueRef call0(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef *a,
                          unsigned n) {
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, n, "");
}

static LLVMValueRef i64c(LtCtx *c, unsigned long long v) {
  return LLVMConstInt(c->i64, v, 0);
}

static LLVMValueRef at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef off) {
  return LLVMBuildGEP2(b, c->i8, p, &off, 1, "");
}

/* lt.omp.fail(msg): a run-time error of the generated code. */
static void fail(LtCtx *c, LLVMBuilderRef b, const char *msg) {
  LLVMTypeRef wt[3] = {c->i32, c->ptr, c->i64};
  LLVMValueRef w = fn(c, "write", c->i64, wt, 3, 0);
  LLVMValueRef s = LLVMBuildGlobalString(b, msg, "lt.omp.msg");
  LLVMValueRef a[3] = {LLVMConstInt(c->i32, 2, 0), s, i64c(c, strlen(msg))};
  call0(b, w, a, 3);
  call0(b, fn(c, "abort", c->vd, NULL, 0, 0), NULL, 0);
  LLVMBuildUnreachable(b);
}

static LLVMValueRef thread_num(LtCtx *c, LLVMBuilderRef b) {
  return LLVMBuildSExt(b, call0(b, fn(c, "omp_get_thread_num", c->i32, NULL, 0, 0), NULL, 0),
                       c->i64, "lt.tid");
}

static LLVMValueRef team_size(LtCtx *c, LLVMBuilderRef b) {
  return LLVMBuildSExt(b, call0(b, fn(c, "omp_get_num_threads", c->i32, NULL, 0, 0), NULL, 0),
                       c->i64, "lt.nthreads");
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
  LLVMValueRef stride = LLVMBuildLoad2(b, c->i64, at(c, b, rt, i64c(c, 16)), "lt.stride");
  LLVMValueRef bad_team;
  if (rev) {
    LLVMValueRef had = LLVMBuildLoad2(b, c->i64, at(c, b, rt, i64c(c, 8)), "lt.had");
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
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, t, i64c(c, 0), ""), rec, go);
    LLVMPositionBuilderAtEnd(b, rec);
    LLVMBuildStore(b, n, at(c, b, rt, i64c(c, 8)));
    LLVMBuildBr(b, go);
    LLVMPositionBuilderAtEnd(b, go);
  }
  LLVMValueRef hsize = LLVMBuildLoad2(b, c->i64, at(c, b, rt, i64c(c, 24)), "lt.hsize");
  LLVMValueRef hdr = at(c, b, rt, LLVMBuildAdd(b, hsize, LLVMBuildMul(b, t, stride, ""), ""));
  LLVMValueRef a[np + 1];
  for (unsigned k = 0; k + 1 < np; k++)
    a[k] = LLVMGetParam(w, k);
  a[np - 1] = hdr;
  LLVMValueRef r = call0(b, target, a, np);
  /* the thread's adjoints of the float parameters, summed over the team */
  for (unsigned k = 0; rev && k < d->nouts; k++) {
    LLVMValueRef v = d->nouts == 1 ? r : LLVMBuildExtractValue(b, r, k, "");
    LLVMValueRef s = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpFAdd,
                                        at(c, b, rt, i64c(c, outs_at(c, d->fn) + 8 * k)), v,
                                        LLVMAtomicOrderingMonotonic, 0);
    LLVMSetAlignment(s, (unsigned)LLVMABIAlignmentOfType(c->td, LLVMTypeOf(v)));
  }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return w;
}

static LLVMValueRef fork_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i32, c->ptr};
  return fn(c, "__kmpc_fork_call", c->vd, pt, 3, 1);
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
  call0(b, w, a, np);
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
  return call0(b, fork_fn(c), a, n + 3);
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
  *test = call0(b, d2->apart, a, np);
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
      b, call0(b, fn(c, "omp_get_max_threads", c->i32, NULL, 0, 0), NULL, 0), c->i64, "");
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
  LLVMValueRef size = LLVMBuildAdd(b, i64c(c, hsize),
                                   LLVMBuildMul(b, cap, i64c(c, st), ""), "");
  LLVMValueRef rt = g->lifo ? lt_arena_push(c, b, size) : lt_build_malloc(b, c->mod, size);
  LLVMBuildStore(b, cap, rt);
  LLVMBuildStore(b, i64c(c, 0), at(c, b, rt, i64c(c, 8)));
  LLVMBuildStore(b, i64c(c, stride_of(d)), at(c, b, rt, i64c(c, 16)));
  LLVMBuildStore(b, i64c(c, hsize), at(c, b, rt, i64c(c, 24)));
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
                   LLVMBuildSelect(b, apart, i64c(c, stride_of(d2)), i64c(c, stride_of(d)), ""),
                   at(c, b, ph, i64c(c, 16)));
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
                   at(c, b, ph, i64c(c, HEADER + 8 * k)));
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
  LLVMValueRef team = LLVMBuildLoad2(g->b, c->i64, at(c, g->b, rt, i64c(c, 8)), "lt.team");
  LLVMTypeRef gt[1] = {c->ptr};
  LLVMValueRef gtid = call0(g->b, fn(c, "__kmpc_global_thread_num", c->i32, gt, 1, 0), &loc, 1);
  LLVMTypeRef pt[3] = {c->ptr, c->i32, c->i32};
  LLVMValueRef push[3] = {loc, gtid, LLVMBuildTrunc(g->b, team, c->i32, "")};
  call0(g->b, fn(c, "__kmpc_push_num_threads", c->vd, pt, 3, 0), push, 3);
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
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, c->i64, at(c, g->b, rt, i64c(c, HEADER + 8 * k)), ""),
                   turns.v[k]);
  }
  unsigned long long oat = outs_at(c, d->fn);
  for (unsigned k = 0; k < d->nouts; k++)
    LLVMBuildStore(g->b, LLVMConstNull(out_type(d, k)), at(c, g->b, rt, i64c(c, oat + 8 * k)));
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
                 LLVMBuildLoad2(g->b, t, at(c, g->b, rt, i64c(c, oat + 8 * k++)), ""));
    }
  free(cur);
  lt_vec_free(&turns);
  if (g->lifo)
    lt_arena_pop(c, g->b, rt);
  else
    lt_build_free(g->b, c->mod, rt);
  return 0;
}

/* lt.omp.wait(turn, want): spin (yielding) until the counter says want. */
static LLVMValueRef wait_fn(LtCtx *c) {
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, "lt.omp.wait", LLVMFunctionType(c->vd, pt, 2, 0), &entry);
  if (!entry)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef spin = LLVMAppendBasicBlockInContext(c->llctx, f, "spin");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildBr(b, spin);
  LLVMPositionBuilderAtEnd(b, spin);
  LLVMValueRef v = LLVMBuildLoad2(b, c->i64, LLVMGetParam(f, 0), "");
  LLVMSetOrdering(v, LLVMAtomicOrderingAcquire);
  LLVMSetAlignment(v, 8);
  LLVMBasicBlockRef yield = LLVMAppendBasicBlockInContext(c->llctx, f, "yield");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, v, LLVMGetParam(f, 1), ""), done, yield);
  LLVMPositionBuilderAtEnd(b, yield);
  call0(b, fn(c, "sched_yield", c->i32, NULL, 0, 0), NULL, 0);
  LLVMBuildBr(b, spin);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

int lt_omp_reverse_sync(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  LtOmpKind k = lt_omp_kind(call, NULL);
  if (k == LT_OMP_BARRIER) {
    LLVMValueRef loc = lt_rv(g, LLVMGetOperand(call, 0));
    LLVMTypeRef gt[1] = {c->ptr};
    LLVMValueRef gtid = call0(g->b, fn(c, "__kmpc_global_thread_num", c->i32, gt, 1, 0), &loc, 1);
    LLVMTypeRef pt[2] = {c->ptr, c->i32};
    LLVMValueRef a[2] = {loc, gtid};
    call0(g->b, fn(c, "__kmpc_barrier", c->vd, pt, 2, 0), a, 2);
    return 0;
  }
  LLVMValueRef turn = LLVMGetOperand(call, 3);
  if (k == LT_OMP_TICKET_END) {
    /* the reverse enters: after every later entry has left */
    LLVMValueRef t = lt_rv(g, LLVMGetOperand(call, 4));
    LLVMValueRef a[2] = {turn, LLVMBuildAdd(g->b, t, i64c(c, 1), "")};
    call0(g->b, wait_fn(c), a, 2);
    return 0;
  }
  /* the reverse of the entry leaves: the earlier entry may go */
  LLVMValueRef st = LLVMBuildStore(g->b, lt_rv(g, call), turn);
  LLVMSetOrdering(st, LLVMAtomicOrderingRelease);
  LLVMSetAlignment(st, 8);
  return 0;
}

/* *p += d, atomically when another thread may add to *p too. */
void lt_omp_accumulate(LtGen *g, LLVMValueRef p, LLVMValueRef d, unsigned align,
                       int shared, LLVMValueRef from) {
  LLVMTypeRef t = LLVMTypeOf(d);
  if (!shared) {
    LLVMValueRef old = LLVMBuildLoad2(g->b, t, p, "");
    LLVMSetAlignment(old, align);
    LLVMValueRef s = LLVMBuildStore(g->b, lt_build_accum(g->b, old, d), p);
    LLVMSetAlignment(s, align);
    lt_scope_shadow(g, old, from);
    lt_scope_shadow(g, s, from);
    return;
  }
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    for (unsigned k = 0, n = LLVMGetVectorSize(t); k < n; k++) {
      LLVMValueRef ix = LLVMConstInt(g->c->i32, k, 0);
      LLVMValueRef lane = LLVMBuildGEP2(g->b, et, p, &ix, 1, "");
      lt_omp_accumulate(g, lane, LLVMBuildExtractElement(g->b, d, ix, ""),
                        (unsigned)LLVMABIAlignmentOfType(g->c->td, et), 1, from);
    }
    return;
  }
  LLVMValueRef r = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpFAdd, p, d,
                                      LLVMAtomicOrderingMonotonic, 0);
  /* A float's natural alignment, even where the primal's access says less
   * (LICM's promoted loads say 1): a less aligned atomic is a libatomic
   * call, and C's floats are aligned. */
  unsigned nat = (unsigned)LLVMABIAlignmentOfType(g->c->td, t);
  LLVMSetAlignment(r, align > nat ? align : nat);
}

/* Thread-private adjoint buffers. A pointer parameter of a parallel
 * region that the region only reads (an array every thread reads, such as
 * the weights of a data-parallel loss or the vector of a matrix-vector
 * product) gets adjoints from every thread: atomic additions, one per
 * read. When the bytes those reads touch form a range known at R's entry
 * (the addresses do not depend on the thread's worksharing bounds), each
 * thread adds into a zeroed buffer of that range instead, plainly, and
 * adds the buffer into the shadow at R's exit, atomically, once per
 * element it touched: a reduction of the adjoint, as OpenMP reduces a
 * reduction variable. Shared reads whose range is not known stay atomic
 * (both kinds of addition commute), and reads proven thread-private stay
 * plain: no other thread's buffer has an element they touch. */
struct LtOmpPriv {
  LLVMValueRef shadow; /* R's parameter: its shadow */
  LLVMValueRef buf;    /* the thread's buffer (R's entry) */
  LLVMValueRef bias;   /* param - lo, i64: buf + (wr - shadow) + bias */
  LLVMValueRef count;  /* elements of the buffer, i64 */
  LLVMTypeRef ty;      /* the element: double or float */
};

/* The scalar float type of an adjoint of t (a float or a vector of one). */
static LLVMTypeRef element_of(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return lt_is_float_ty(t) ? t : NULL;
}

/* May an instruction of P write memory that v may address? (A buffered
 * adjoint is added back only at the end: a write's reverse in between
 * would miss what reads after the write added.) */
static int written(LtGen *g, LLVMValueRef v) {
  for (unsigned b = 0; b < g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(g->c, i, w); k < n; k++)
        if (w[k] == LT_CLOBBER || lt_points_may_alias(&g->act_of.pts, w[k], v))
          return 1;
    }
  return 0;
}

/* The reads of v (a parameter, through GEPs and casts) into *reads as
 * (load, address) pairs; 0 when v has any other use. */
static int only_reads(LLVMValueRef v, LtVec *reads, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef i = LLVMGetUser(u);
    if (LLVMIsALoadInst(i) && !LLVMGetVolatile(i) &&
        LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic) {
      lt_vec_push(reads, i);
      lt_vec_push(reads, v);
    } else if ((LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i)) && depth < 8 &&
               LLVMGetOperand(i, 0) == v) {
      if (!only_reads(i, reads, depth + 1))
        return 0;
    } else {
      return 0;
    }
  }
  return 1;
}

void lt_omp_privatize(LtGen *g) {
  LtCtx *c = g->c;
  unsigned shadow_ix = g->nparams;
  g->priv = lt_xcalloc(g->nparams + 1, sizeof *g->priv);
  lt_map_init(&g->priv_of, 16);
  for (unsigned p = 0; p < g->nparams; p++) {
    if (!lt_is_dup(g->act[p]))
      continue;
    unsigned sx = shadow_ix++;
    LLVMValueRef prm = LLVMGetParam(g->P, p);
    if (g->act[p] == LT_DUPNULL || !lt_is_ptr_ty(LLVMTypeOf(prm)))
      continue;
    LtVec all = {0}, shared = {0};
    LLVMTypeRef ty = NULL;
    int ok = only_reads(prm, &all, 0) && !written(g, prm);
    for (size_t k = 0; ok && k < all.n; k += 2) {
      LLVMValueRef ld = all.v[k], addr = LLVMGetOperand(ld, 0);
      if (!lt_is_varied(&g->act_of, ld) || lt_omp_private(&g->fx, ld, addr))
        continue;
      LLVMTypeRef et = element_of(LLVMTypeOf(ld));
      if (!et || (ty && et != ty) || !lt_range_ok(&g->fx, ld, addr))
        continue; /* stays atomic */
      ty = et;
      lt_vec_push(&shared, ld);
      lt_vec_push(&shared, addr);
    }
    LLVMValueRef lo, hi;
    if (ok && shared.n &&
        lt_range_hull(&g->fx, g->R, g->eb, (LLVMValueRef *)shared.v, shared.n, &lo, &hi)) {
      struct LtOmpPriv *q = &g->priv[g->npriv++];
      unsigned long long es = LLVMABISizeOfType(c->td, ty);
      q->shadow = LLVMGetParam(g->R, sx);
      q->ty = ty;
      /* an empty range (loops that run no iteration): no element */
      LLVMValueRef bytes = LLVMBuildSub(g->eb, hi, lo, "");
      bytes = LLVMBuildSelect(g->eb, LLVMBuildICmp(g->eb, LLVMIntSLT, bytes, i64c(c, 0), ""),
                              i64c(c, 0), bytes, "");
      q->count = LLVMBuildUDiv(g->eb, LLVMBuildAdd(g->eb, bytes, i64c(c, es - 1), ""),
                               i64c(c, es), "lt.priv.n");
      LLVMValueRef a[2] = {q->count, i64c(c, es)};
      LLVMTypeRef ct[2] = {c->i64, c->i64};
      q->buf = call0(g->eb, fn(c, "calloc", c->ptr, ct, 2, 0), a, 2);
      LLVMSetValueName2(q->buf, "lt.priv", 7);
      q->bias = LLVMBuildSub(g->eb, LLVMBuildPtrToInt(g->eb, LLVMGetParam(g->R, p), c->i64, ""),
                             lo, "lt.priv.bias");
      for (size_t k = 0; k < shared.n; k += 2)
        lt_map_put(&g->priv_of, shared.v[k], (void *)(size_t)g->npriv);
    }
    lt_vec_free(&all);
    lt_vec_free(&shared);
  }
}

LLVMValueRef lt_omp_private_shadow(LtGen *g, LLVMValueRef ld, LLVMValueRef wr) {
  size_t k = g->priv ? (size_t)lt_map_get(&g->priv_of, ld) : 0;
  if (!k)
    return NULL;
  struct LtOmpPriv *q = &g->priv[k - 1];
  LLVMValueRef off = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, wr, g->c->i64, ""),
                                  LLVMBuildPtrToInt(g->b, q->shadow, g->c->i64, ""), "");
  return at(g->c, g->b, q->buf, LLVMBuildAdd(g->b, off, q->bias, ""));
}

/* lt.omp.flush.<ty>(buf, dst, n): dst[e] += buf[e] (atomic) for each
 * element the thread touched (non-zero). */
static LLVMValueRef flush_fn(LtCtx *c, LLVMTypeRef ty) {
  char name[40];
  snprintf(name, sizeof name, "lt.omp.flush.%s",
           LLVMGetTypeKind(ty) == LLVMDoubleTypeKind ? "f64" : "f32");
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, 3, 0), &entry);
  if (!entry)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "loop");
  LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(c->llctx, f, "add");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->llctx, f, "next");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, LLVMGetParam(f, 2), i64c(c, 0), ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef e = LLVMBuildPhi(b, c->i64, "e");
  LLVMValueRef src = LLVMBuildGEP2(b, ty, LLVMGetParam(f, 0), &e, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(b, ty, src, "");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealONE, v, LLVMConstNull(ty), ""), add, next);
  LLVMPositionBuilderAtEnd(b, add);
  LLVMValueRef dst = LLVMBuildGEP2(b, ty, LLVMGetParam(f, 1), &e, 1, "");
  LLVMValueRef r = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpFAdd, dst, v, LLVMAtomicOrderingMonotonic, 0);
  LLVMSetAlignment(r, (unsigned)LLVMABIAlignmentOfType(c->td, ty));
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef e1 = LLVMBuildAdd(b, e, i64c(c, 1), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, e1, LLVMGetParam(f, 2), ""), loop, done);
  LLVMValueRef inc[2] = {i64c(c, 0), e1};
  LLVMBasicBlockRef from[2] = {entry, next};
  LLVMAddIncoming(e, inc, from, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

void lt_omp_flush(LtGen *g) {
  for (unsigned k = 0; k < g->npriv; k++) {
    struct LtOmpPriv *q = &g->priv[k];
    LLVMValueRef nb = LLVMBuildNeg(g->b, q->bias, "");
    LLVMValueRef a[3] = {q->buf, at(g->c, g->b, q->shadow, nb), q->count};
    call0(g->b, flush_fn(g->c, q->ty), a, 3);
    lt_build_free(g->b, g->c->mod, q->buf);
  }
}
