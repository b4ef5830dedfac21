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
 * counters' values at the end of the forward region, one per counter */
#define HEADER 32

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
  LLVMValueRef w = LLVMGetNamedFunction(c->mod, name);
  if (w)
    return w;
  LLVMTypeRef tt = LLVMGlobalGetValueType(target);
  unsigned np = LLVMCountParamTypes(tt);
  LLVMTypeRef pt[np + 1];
  LLVMGetParamTypes(tt, pt);
  w = LLVMAddFunction(c->mod, name, LLVMFunctionType(c->vd, pt, np, 0));
  LLVMSetLinkage(w, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, w, "entry");
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
  call0(b, target, a, np);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return w;
}

static LLVMValueRef fork_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i32, c->ptr};
  return fn(c, "__kmpc_fork_call", c->vd, pt, 3, 1);
}

LLVMValueRef lt_omp_fork(LtCtx *c, LLVMBuilderRef b, LLVMValueRef loc, LLVMValueRef w,
                         LLVMValueRef *args, unsigned n) {
  LLVMValueRef a[n + 3];
  a[0] = loc;
  a[1] = LLVMConstInt(c->i32, n, 0);
  a[2] = w;
  for (unsigned k = 0; k < n; k++)
    a[k + 3] = args[k];
  return call0(b, fork_fn(c), a, n + 3);
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
  /* a num_threads clause: __kmpc_push_num_threads just before the fork */
  LLVMValueRef here = LLVMGetInsertBlock(b) ? LLVMGetLastInstruction(LLVMGetInsertBlock(b)) : NULL;
  for (LLVMValueRef i = here; i; i = LLVMGetPreviousInstruction(i)) {
    size_t len;
    const char *nm = LLVMIsACallInst(i) ? lt_callee_name(i, &len) : "";
    if (LLVMIsACallInst(i) && len == 23 && !strncmp(nm, "__kmpc_push_num_threads", 23)) {
      LLVMValueRef k = LLVMBuildSExt(b, LLVMGetOperand(i, 2), c->i64, "");
      cap = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, k, cap, ""), k, cap, "");
      break;
    }
  }
  LtVec turns = {0};
  lt_omp_turns(c, lt_called_fn(call), &turns);
  unsigned long long hsize = HEADER + 8 * turns.n;
  lt_vec_free(&turns);
  LLVMValueRef size = LLVMBuildAdd(b, i64c(c, hsize),
                                   LLVMBuildMul(b, cap, i64c(c, stride_of(d)), ""), "");
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
  lt_omp_fork(c, b, lt_omp_loc(c, call), team_wrapper(c, d, 0), args, n);
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
  if (d->nouts) {
    lt_error(c, call, "an active value passed by value into a parallel region "
                      "(firstprivate) is not supported; pass it by reference "
                      "(shared)");
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
  lt_omp_fork(c, g->b, loc, team_wrapper(c, d, 1), args, n);
  for (size_t k = 0; k < turns.n; k++)
    LLVMBuildStore(g->b, cur[k], turns.v[k]);
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
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, "lt.omp.wait");
  if (f)
    return f;
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  f = LLVMAddFunction(c->mod, "lt.omp.wait", LLVMFunctionType(c->vd, pt, 2, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, f, "entry");
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
                       int shared) {
  LLVMTypeRef t = LLVMTypeOf(d);
  if (!shared) {
    LLVMValueRef old = LLVMBuildLoad2(g->b, t, p, "");
    LLVMSetAlignment(old, align);
    LLVMValueRef s = LLVMBuildStore(g->b, lt_build_accum(g->b, old, d), p);
    LLVMSetAlignment(s, align);
    return;
  }
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    for (unsigned k = 0, n = LLVMGetVectorSize(t); k < n; k++) {
      LLVMValueRef ix = LLVMConstInt(g->c->i32, k, 0);
      LLVMValueRef lane = LLVMBuildGEP2(g->b, et, p, &ix, 1, "");
      lt_omp_accumulate(g, lane, LLVMBuildExtractElement(g->b, d, ix, ""),
                        (unsigned)LLVMABIAlignmentOfType(g->c->td, et), 1);
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
