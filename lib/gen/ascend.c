/* ascend.c: an innermost reverse loop runs upwards where its iterations
 * commute (issue 17, item 4: reverse loops that vectorise like the primal).
 *
 * R runs a loop's iterations from the last to the first: its counter k
 * goes from S down to 0. Vectorised, every load and store of such a loop
 * reverses its lanes (a shuffle each, on one port of x86's: the 2-D
 * stencil's reverse loop spent more on them than on its arithmetic), and
 * the hardware's prefetcher follows ascending addresses. Where the order
 * of the iterations does not matter, k goes from 0 up to S instead:
 *
 *   k = S; do { body(k); } while (k-- != 0)
 * becomes
 *   j = 0; do { body(j); } while (j++ != S)
 * (and where R tests k - 1 == 0, k from S down to 1, j from 1 up to S).
 * The header's other PHIs, inductions x + c, run from their last value
 * down by c. The test must end the iteration (after it: only the steps).
 *
 * The order does not matter when the loop carries nothing from one
 * iteration to the next but through memory, and every two accesses of
 * the loop, one of them a store, commute across iterations:
 *  - LLVM's alias analysis (with R's scopes, scopes.c) says they are
 *    apart in every iteration;
 *  - or both are accumulations (accum.c: load, fadd reassoc, store) of
 *    one type whose elements are the same or apart: additions into one
 *    element in another order, as the reassoc flag allows;
 *  - or both access the same element, affine in the loop with a step of
 *    at least their size: each iteration's own element (a shadow read
 *    and zeroed, dy[i] = 0), touched in no other iteration.
 * A plain store commutes with itself only by the last rule. Any call that
 * may touch memory, any value the loop leaves to code after it, or a PHI
 * of the header other than k leaves the loop alone.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ACCESS 96

typedef struct Access {
  LLVMValueRef i, p;
  int write;   /* a store */
  int acc;     /* the accumulation's index (load and store), or -1 */
  LLVMTypeRef t;
  LtAffine af;
  int ok_af;
} Access;

typedef struct Loop {
  LtLoopAt at; /* copies: also the loops lt_loop_version copied, left alone */
  Access a[MAX_ACCESS];
  unsigned n;
  LtAccum accs[MAX_ACCESS / 2];
  unsigned nacc;
} Loop;

static int block_inside(const Loop *L, LLVMBasicBlockRef bb) {
  int id = lt_cfg_id(L->at.g, bb);
  return id >= 0 && lt_loop_contains(L->at.ls, L->at.l, (unsigned)id);
}

static int inside(const Loop *L, LLVMValueRef v) {
  return LLVMIsAInstruction(v) && block_inside(L, LLVMGetInstructionParent(v));
}

/* Every value defined in the loop is used only in it. */
static int no_live_outs(const Loop *L) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->at.g->block[lp->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i))
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
        if (!inside(L, LLVMGetUser(u)))
          return 0;
  return 1;
}

static long long size_of(const Loop *L, LLVMTypeRef t) {
  return (long long)LLVMABISizeOfType(L->at.c->td, t);
}

/* The loop's memory accesses, accumulations matched; 0 when one is a
 * call that may touch memory, volatile or atomic, not affine, or too
 * many. */
static int collect(Loop *L) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->at.g->block[lp->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef p = lt_accum_accessed(i);
      if (!p)
        continue;
      if (p == LT_CLOBBER || L->n >= MAX_ACCESS || LLVMGetVolatile(i) ||
          LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        return 0;
      Access *a = &L->a[L->n++];
      a->i = i;
      a->p = p;
      a->write = LLVMIsAStoreInst(i) != NULL;
      a->t = a->write ? LLVMTypeOf(LLVMGetOperand(i, 0)) : LLVMTypeOf(i);
      a->acc = -1;
      a->ok_af = !lt_affine_of_run(L->at.ind, L->at.c->td, p, L->at.l, &a->af);
      /* an address with no affine form (a stride known only at run time,
       * simple_mlp's X[j * b + k]): LLVM's vectoriser versions an upward
       * loop on the stride being 1 (mem-access versioning), which b never
       * is, where downwards it gathers the elements; left as it was */
      if (!a->ok_af)
        return 0;
      if (a->write && L->nacc < MAX_ACCESS / 2 && lt_accum_match(i, &L->accs[L->nacc]))
        L->nacc++;
    }
  for (unsigned k = 0; k < L->n; k++)
    for (unsigned m = 0; m < L->nacc; m++)
      if (L->a[k].i == L->accs[m].load || L->a[k].i == L->accs[m].store)
        L->a[k].acc = (int)m;
  return 1;
}

/* x and y touch the same element, one per iteration (see the top). */
static int own_element(const Loop *L, const Access *x, const Access *y) {
  if (!x->ok_af || !y->ok_af || x->af.off != y->af.off || !lt_affine_same_terms(&x->af, &y->af))
    return 0;
  long long s = llabs(lt_affine_coef(&x->af, L->at.l));
  long long sx = size_of(L, x->t), sy = size_of(L, y->t);
  return sx == sy && s >= sx;
}

static int commute(const Loop *L, const Access *x, const Access *y) {
  if (x != y && x->acc >= 0 && x->acc == y->acc)
    return 1; /* one accumulation's load and store */
  if (x->acc >= 0 && y->acc >= 0 && x->t == y->t && x->ok_af && y->ok_af &&
      lt_affine_aligned(&x->af, &y->af, size_of(L, x->t)))
    return 1;
  if (own_element(L, x, y))
    return 1;
  return x != y && !lt_llvm_may_alias(L->at.c, x->i, x->p, y->i, y->p);
}

/* Do every two accesses commute? 1: yes; 2: yes where the plain
 * accesses mine[0 .. *nmine) are apart at run time from the
 * accumulations conf[0 .. *nconf) ((instruction, address) pairs), which
 * LLVM cannot tell (a shadow read and zeroed beside another's additions,
 * through plain pointers); 0: no. */
#define MAX_CONF 16
static int iterations_commute(const Loop *L, LLVMValueRef *mine, unsigned *nmine,
                              LLVMValueRef *conf, unsigned *nconf) {
  *nmine = *nconf = 0;
  for (unsigned k = 0; k < L->n; k++)
    for (unsigned m = k; m < L->n; m++) {
      const Access *x = &L->a[k], *y = &L->a[m];
      if (k == m) {
        if (x->write && x->acc < 0 && !own_element(L, x, x))
          return 0; /* a plain store that another iteration may overwrite */
        continue;
      }
      if (!(x->write || y->write || (x->acc >= 0 && y->acc >= 0)) || commute(L, x, y))
        continue;
      if ((x->acc >= 0) == (y->acc >= 0))
        return 0;
      /* one array's elements a few apart: a test would find them overlap
       * (a recurrence: x[i] += f(x[i-1])) */
      if (x->ok_af && y->ok_af && lt_affine_same_terms(&x->af, &y->af))
        return 0;
      const Access *pl = x->acc < 0 ? x : y, *ac = x->acc < 0 ? y : x;
      LLVMValueRef *set[2] = {mine, conf};
      unsigned *n[2] = {nmine, nconf};
      const Access *side[2] = {pl, ac};
      for (unsigned h = 0; h < 2; h++) {
        unsigned j = 0;
        while (j < *n[h] && set[h][j] != side[h]->i)
          j += 2;
        if (j < *n[h])
          continue;
        if (*n[h] >= 2 * MAX_CONF)
          return 0;
        set[h][(*n[h])++] = side[h]->i;
        set[h][(*n[h])++] = side[h]->p;
      }
    }
  return *nmine ? 2 : 1;
}

/* inst's list of kind (alias.scope or noalias) with scope s added */
static void add_scope(LLVMContextRef x, LLVMValueRef inst, const char *kind, LLVMMetadataRef s) {
  unsigned id = LLVMGetMDKindIDInContext(x, kind, (unsigned)strlen(kind));
  LLVMValueRef old = LLVMGetMetadata(inst, id);
  unsigned n = old ? LLVMGetMDNodeNumOperands(old) : 0;
  LLVMValueRef *ops = lt_xcalloc(n + 1, sizeof *ops);
  LLVMMetadataRef *md = lt_xcalloc(n + 1, sizeof *md);
  if (n)
    LLVMGetMDNodeOperands(old, ops);
  for (unsigned k = 0; k < n; k++)
    md[k] = LLVMValueAsMetadata(ops[k]);
  md[n] = s;
  LLVMSetMetadata(inst, id, LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, md, n + 1)));
  free(md);
  free(ops);
}

/* After the run-time test: mine apart from conf, said to LLVM (and to
 * gather.c) by a scope of its own, declared in the preheader (the fact
 * holds within one run of the loop, not between runs). */
static void scope_apart(LtCtx *c, LLVMBasicBlockRef pre, LLVMValueRef *mine, unsigned nmine,
                        LLVMValueRef *conf, unsigned nconf) {
  LLVMContextRef x = c->llctx;
  LLVMMetadataRef dom = lt_self_md_node(x, NULL, "lt.ascend");
  LLVMMetadataRef sc = lt_self_md_node(x, dom, "lt.ascend.apart");
  for (unsigned k = 0; k < nmine; k += 2)
    add_scope(x, mine[k], "alias.scope", sc);
  for (unsigned k = 0; k < nconf; k += 2)
    add_scope(x, conf[k], "noalias", sc);
  unsigned id = LLVMLookupIntrinsicID("llvm.experimental.noalias.scope.decl", 36);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(x);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pre));
  LLVMValueRef a = LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, &sc, 1));
  LLVMBuildCall2(b, LLVMIntrinsicGetType(x, id, NULL, 0), LLVMGetIntrinsicDeclaration(c->mod, id, NULL, 0),
                 &a, 1, "");
  LLVMDisposeBuilder(b);
}

static int is_const(LLVMValueRef v, long long want) {
  return LLVMIsAConstantInt(v) && LLVMConstIntGetSExtValue(v) == want;
}

/* The loop's counter: a PHI of the header, S from outside and k - 1 from
 * the latch, the loop left when k == 0 at its one exiting block. The
 * header's other PHIs are inductions: x0 from outside, x + c (an integer
 * of k's type) or x + c bytes (a pointer) from the latch. */
#define MAX_IND 8
typedef struct Counter {
  LLVMValueRef k, dec, start, cmp;
  unsigned d; /* the test is k - d == 0: k runs from start down to d */
  LLVMBasicBlockRef pre;
  LLVMValueRef ind[MAX_IND], step[MAX_IND]; /* the other PHIs, their x + c */
  unsigned nind;
} Counter;

/* The PHI's values from outside (pre) and from the latch. */
static int two_ways(LLVMValueRef phi, LLVMBasicBlockRef latch, LLVMValueRef *out,
                    LLVMBasicBlockRef *pre, LLVMValueRef *back) {
  if (LLVMCountIncoming(phi) != 2)
    return 0;
  *out = *back = NULL;
  for (unsigned e = 0; e < 2; e++) {
    LLVMBasicBlockRef ib = LLVMGetIncomingBlock(phi, e);
    if (ib == latch)
      *back = LLVMGetIncomingValue(phi, e);
    else {
      *out = LLVMGetIncomingValue(phi, e);
      *pre = ib;
    }
  }
  return *out && *back && LLVMIsAInstruction(*back);
}

/* x + c (add, or a GEP of one constant index) with x the PHI (the loop
 * may use it too: R's tape index m - 1) */
static int steps_by_const(LLVMValueRef phi, LLVMValueRef next) {
  if (LLVMGetInstructionOpcode(next) == LLVMAdd)
    return LLVMGetOperand(next, 0) == phi && LLVMIsAConstantInt(LLVMGetOperand(next, 1));
  return LLVMIsAGetElementPtrInst(next) && LLVMGetNumOperands(next) == 2 &&
         LLVMGetOperand(next, 0) == phi && LLVMIsAConstantInt(LLVMGetOperand(next, 1));
}

static int counter(const Loop *L, Counter *ct) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  LLVMBasicBlockRef head = L->at.g->block[lp->header], latch = L->at.g->block[lp->latch];
  /* the test runs in every iteration */
  if (!lt_cfg_dominates(L->at.g, lp->exiting[0], (unsigned)lp->latch))
    return 0;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(L->at.g->block[lp->exiting[0]]);
  if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return 0;
  LLVMValueRef cmp = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cmp) || LLVMGetICmpPredicate(cmp) != LLVMIntEQ ||
      !is_const(LLVMGetOperand(cmp, 1), 0) ||
      block_inside(L, LLVMGetSuccessor(br, 0)) || !block_inside(L, LLVMGetSuccessor(br, 1)))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(cmp); u; u = LLVMGetNextUse(u))
    if (LLVMGetUser(u) != br)
      return 0;
  ct->cmp = cmp;
  ct->k = LLVMGetOperand(cmp, 0);
  ct->d = 0;
  if (LLVMIsAInstruction(ct->k) && LLVMGetInstructionOpcode(ct->k) == LLVMAdd &&
      is_const(LLVMGetOperand(ct->k, 1), -1)) { /* (k - 1 == 0) */
    ct->k = LLVMGetOperand(ct->k, 0);
    ct->d = 1;
  }
  ct->nind = 0;
  ct->start = ct->dec = NULL;
  int found = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(head); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    LLVMValueRef out, back;
    LLVMBasicBlockRef pre;
    if (!two_ways(i, latch, &out, &pre, &back) || inside(L, out) || !steps_by_const(i, back))
      return 0;
    if (found && pre != ct->pre)
      return 0;
    ct->pre = pre;
    found = 1;
    if (i == ct->k) {
      if (LLVMGetInstructionOpcode(back) != LLVMAdd || !is_const(LLVMGetOperand(back, 1), -1))
        return 0;
      ct->start = out;
      ct->dec = back;
    } else if (ct->nind < MAX_IND &&
               (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind ||
                LLVMTypeOf(i) == LLVMTypeOf(ct->k))) {
      ct->ind[ct->nind] = i;
      ct->step[ct->nind++] = back;
    } else
      return 0;
  }
  return found && LLVMIsAPHINode(ct->k) && LLVMGetInstructionParent(ct->k) == head &&
         ct->dec && LLVMGetTypeKind(LLVMTypeOf(ct->k)) == LLVMIntegerTypeKind;
}

/* The test ends the iteration: the blocks after it (the exiting block
 * dominates them) only step the counter and the inductions and branch
 * back. (A test before the body runs it for k = S .. 1, not S .. 0.) */
static int test_is_last(const Loop *L, const Counter *ct) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  for (unsigned bi = 0; bi < lp->nblocks; bi++) {
    unsigned id = lp->blocks[bi];
    if (id == lp->exiting[0] || !lt_cfg_dominates(L->at.g, lp->exiting[0], id))
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->at.g->block[id]); i;
         i = LLVMGetNextInstruction(i)) {
      int ok = i == ct->dec || (LLVMIsABranchInst(i) && !LLVMIsConditional(i));
      for (unsigned k = 0; k < ct->nind && !ok; k++)
        ok = i == ct->step[k];
      if (!ok)
        return 0;
    }
  }
  return 1;
}

static void turn(LtCtx *c, const Loop *L, const Counter *ct) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  LLVMBasicBlockRef latch = L->at.g->block[lp->latch];
  LLVMTypeRef t = LLVMTypeOf(ct->k);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, ct->k);
  LLVMValueRef j = LLVMBuildPhi(b, t, "lt.up");
  LLVMPositionBuilderBefore(b, ct->dec);
  LLVMValueRef inc = LLVMBuildAdd(b, j, LLVMConstInt(t, 1, 0), "lt.up.next");
  LLVMValueRef v[2] = {LLVMConstInt(t, ct->d, 0), inc};
  LLVMBasicBlockRef bb[2] = {ct->pre, latch};
  LLVMAddIncoming(j, v, bb, 2);
  /* x = x0 + c (S - j): from x0 + c (S - d) down by c */
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(ct->pre));
  for (unsigned k = 0; k < ct->nind; k++) {
    LLVMValueRef x = ct->ind[k], nx = ct->step[k], x0 = NULL, c1 = LLVMGetOperand(nx, 1);
    for (unsigned e = 0; e < 2; e++)
      if (LLVMGetIncomingBlock(x, e) == ct->pre)
        x0 = LLVMGetIncomingValue(x, e);
    LLVMTypeRef ct1 = LLVMTypeOf(c1);
    unsigned ws = LLVMGetIntTypeWidth(LLVMTypeOf(ct->start)), wc = LLVMGetIntTypeWidth(ct1);
    LLVMValueRef s = ws < wc   ? LLVMBuildZExt(b, ct->start, ct1, "")
                     : ws > wc ? LLVMBuildTrunc(b, ct->start, ct1, "")
                               : ct->start;
    LLVMValueRef off = LLVMBuildMul(b, c1, LLVMBuildSub(b, s, LLVMConstInt(ct1, ct->d, 0), ""), "");
    LLVMValueRef neg = LLVMBuildNeg(b, c1, "");
    LLVMValueRef end, back;
    LLVMBuilderRef lb = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(lb, nx);
    if (LLVMGetInstructionOpcode(nx) == LLVMAdd) {
      end = LLVMBuildAdd(b, x0, off, "");
      back = LLVMBuildAdd(lb, x, neg, "");
    } else {
      LLVMTypeRef et = LLVMGetGEPSourceElementType(nx);
      end = LLVMBuildGEP2(b, et, x0, &off, 1, "");
      back = LLVMBuildGEP2(lb, et, x, &neg, 1, "");
    }
    LLVMDisposeBuilder(lb);
    LLVMBuilderRef pb = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(pb, x);
    LLVMValueRef nphi = LLVMBuildPhi(pb, LLVMTypeOf(x), "lt.up.ind");
    LLVMDisposeBuilder(pb);
    LLVMValueRef iv[2] = {end, back};
    LLVMBasicBlockRef ib[2] = {ct->pre, latch};
    LLVMAddIncoming(nphi, iv, ib, 2);
    LLVMReplaceAllUsesWith(x, nphi); /* (nx: nphi + c, as x + c was) */
    LLVMInstructionEraseFromParent(x);
    if (!LLVMGetFirstUse(nx))
      LLVMInstructionEraseFromParent(nx);
  }
  LLVMPositionBuilderBefore(b, ct->cmp);
  LLVMValueRef last = LLVMBuildICmp(b, LLVMIntEQ, j, ct->start, "lt.up.last");
  LLVMReplaceAllUsesWith(ct->cmp, last);
  LLVMInstructionEraseFromParent(ct->cmp);
  LLVMReplaceAllUsesWith(ct->k, j); /* (dec: j - 1, as k - 1 was) */
  LLVMInstructionEraseFromParent(ct->k);
  if (!LLVMGetFirstUse(ct->dec))
    LLVMInstructionEraseFromParent(ct->dec);
  LLVMDisposeBuilder(b);
}

static int try_loop(LtLoopAt *la) {
  Loop *L = (Loop *)la; /* (at: its first member) */
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  Counter ct;
  if (lp->nchildren || lp->latch < 0 || lp->nexiting != 1 || lp->nexits != 1 ||
      lt_map_get(L->at.copies, L->at.g->block[lp->header]) || !counter(L, &ct) ||
      !test_is_last(L, &ct) || !no_live_outs(L))
    return 0;
  LLVMValueRef mine[2 * MAX_CONF], conf[2 * MAX_CONF];
  unsigned nmine, nconf;
  int how = collect(L) ? iterations_commute(L, mine, &nmine, conf, &nconf) : 0;
  for (unsigned k = 0; k < L->n; k++)
    if (L->a[k].ok_af)
      lt_affine_free(&L->a[k].af);
  if (how == 2) { /* the loop as it was where the test fails */
    LLVMBasicBlockRef copy;
    if (L->at.c->opt_level < 2 || lp->preheader < 0 ||
        lt_loop_version(L->at.c, L->at.g, L->at.ls, L->at.ind, L->at.l, mine, nmine, conf, nconf, &copy))
      return 0;
    lt_map_put(L->at.copies, copy, (void *)1);
    scope_apart(L->at.c, L->at.g->block[lp->preheader], mine, nmine, conf, nconf);
  }
  if (!how)
    return 0;
  turn(L->at.c, L, &ct);
  LLVMValueRef at = NULL; /* the first instruction with a source location */
  for (unsigned bi = 0; bi < lp->nblocks && !at; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->at.g->block[lp->blocks[bi]]); i && !at;
         i = LLVMGetNextInstruction(i))
      if (LLVMInstructionGetDebugLoc(i))
        at = i;
  if (!at)
    at = LLVMGetFirstInstruction(L->at.g->block[lp->header]);
  char msg[320];
  size_t len;
  const char *fn = LLVMGetValueName2(LLVMGetBasicBlockParent(L->at.g->block[lp->header]), &len);
  if (how == 2)
    snprintf(msg, sizeof msg,
             "a loop of '%.*s' runs upwards where a run-time test finds %u access(es) apart "
             "from %u other(s) (the loop as it was otherwise)",
             (int)(len > 200 ? 200 : len), fn, nmine / 2, nconf / 2);
  else
    snprintf(msg, sizeof msg, "a loop of '%.*s' runs upwards: its iterations commute",
             (int)(len > 200 ? 200 : len), fn);
  lt_remark_emit(L->at.c, at, "leantape", "Ascend", msg);
  return 1;
}

void lt_ascend_reverse_loops(LtCtx *c, LLVMValueRef fn, LtMap *copies) {
  if (c->opt_level >= 1)
    lt_rewrite_loops(c, fn, copies, try_loop, sizeof(Loop), 256);
}
