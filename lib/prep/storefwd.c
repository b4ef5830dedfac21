/* storefwd.c: a local array's loads recomputed from its one store.
 *
 * A temporary filled by one loop and read by the next (GradBench's gmm:
 * xc[d] = x[i][d] - means[k][d], then Q xc in two loops) is memory the
 * next point overwrites, so the reverse pass tapes every read of it (two
 * reads of xc per element: 4 of gmm's 8.4 MB of tape). Where the value
 * read is the one stored in the same run of the filling loop, and that
 * value is made of loads of memory nothing in the function writes, the
 * load becomes the stored expression itself, its counter replaced by the
 * reader's index: the reverse pass then recomputes it from memory it may
 * read again, and the primal computes it again (a subtraction for a load).
 *
 * When, for a static local A (an alloca of the entry block whose address
 * is only used to load and store its elements through GEPs of one index,
 * or by lifetime markers) and its one store S,
 *  - S writes A[i] in loop Ls, i Ls's counter from 0 by 1, in every
 *    iteration (S's block dominates the latch, the only exiting block);
 *  - a load L of A[j], outside Ls, j the counter (from 0 by 1) of a loop
 *    around L with the same trip count as Ls's (the same exit test on
 *    the same bound), so j < T where Ls wrote A[0 .. T);
 *  - L lies in the loop around Ls (or Ls is outermost), and within one
 *    iteration of it every path to L passes Ls's preheader: what L reads
 *    was written by that run of Ls, in the same iteration around it;
 *  - S's value is a tree of at most 16 operations made in Ls (arithmetic,
 *    fmuladd, casts, GEPs, compares, selects, loads of memory that
 *    nothing may write between S and L: no write in a block on a path
 *    from Ls to L within one iteration around Ls may alias it), of i,
 *    and of values made before Ls;
 * then L is replaced by the tree, i by j. Calls in the tree (exp) are not
 * repeated. In every mode: the rewrite is the primal's own arithmetic.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 16

typedef struct Fwd {
  LtCtx *c;
  LLVMValueRef P;
  const LtCfg *g;
  const LtLoops *ls;
  const LtInduction *ind;
  LtVec writes; /* (instruction, address or CLOBBER) of every write of P */
} Fwd;

static int block_of(const Fwd *x, LLVMValueRef v) {
  return LLVMIsAInstruction(v) ? lt_cfg_id(x->g, LLVMGetInstructionParent(v)) : -1;
}

/* The element index of g, a GEP of A: `gep T, A, i` (T A's element
 * type) or `gep [n x T], A, 0, i` (LLVM 19's form for a local array);
 * NULL for any other. */
static LLVMValueRef index_of(LLVMValueRef A, LLVMValueRef g) {
  LLVMTypeRef at = LLVMGetAllocatedType(A), st = LLVMGetGEPSourceElementType(g);
  LLVMTypeRef et = LLVMGetTypeKind(at) == LLVMArrayTypeKind ? LLVMGetElementType(at) : at;
  unsigned n = (unsigned)LLVMGetNumOperands(g);
  long long z;
  if (LLVMGetOperand(g, 0) != A)
    return NULL;
  if (n == 2 && st == et)
    return LLVMGetOperand(g, 1);
  if (n == 3 && st == at && LLVMGetTypeKind(at) == LLVMArrayTypeKind &&
      lt_induction_const_int(LLVMGetOperand(g, 1), &z) && z == 0)
    return LLVMGetOperand(g, 2);
  return NULL;
}

/* The accesses of A: its stores and loads of its element type, through
 * GEPs index_of reads; 0 when A has any other use. */
static int accesses(LLVMValueRef A, LtVec *stores, LtVec *loads) {
  LLVMTypeRef at = LLVMGetAllocatedType(A);
  LLVMTypeRef et = LLVMGetTypeKind(at) == LLVMArrayTypeKind ? LLVMGetElementType(at) : at;
  for (LLVMUseRef u = LLVMGetFirstUse(A); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (lt_lifetime_marker(w))
      continue;
    if (!LLVMIsAGetElementPtrInst(w) || !index_of(A, w))
      return 0;
    for (LLVMUseRef v = LLVMGetFirstUse(w); v; v = LLVMGetNextUse(v)) {
      LLVMValueRef a = LLVMGetUser(v);
      if (LLVMIsALoadInst(a) && !LLVMGetVolatile(a) && !LLVMIsAtomic(a) &&
          LLVMTypeOf(a) == et)
        lt_vec_push(loads, a);
      else if (LLVMIsAStoreInst(a) && LLVMGetOperand(a, 1) == w && !LLVMGetVolatile(a) &&
               !LLVMIsAtomic(a) && LLVMTypeOf(LLVMGetOperand(a, 0)) == et)
        lt_vec_push(stores, a);
      else
        return 0;
    }
  }
  return 1;
}

/* phi = 0 + 1 * {l}, a counter of loop l */
static int unit_counter(const Fwd *x, unsigned l, LLVMValueRef phi) {
  long long s;
  for (unsigned k = 0; k < x->ind->nctr[l]; k++) {
    const LtCounter *ct = &x->ind->ctr[l][k];
    if (ct->phi == phi)
      return ct->step == 1 && !ct->vstep && lt_induction_const_int(ct->start, &s) && s == 0;
  }
  return 0;
}

/* Do loops a and b run their headers the same number of times? */
static int same_trip(const Fwd *x, unsigned a, unsigned b) {
  const LtTrip *p = &x->ind->trip[a], *q = &x->ind->trip[b];
  const LtCounter *cp = &x->ind->ctr[a][p->counter], *cq = &x->ind->ctr[b][q->counter];
  long long sp, sq;
  int starts = cp->start == cq->start || (lt_induction_const_int(cp->start, &sp) &&
                                          lt_induction_const_int(cq->start, &sq) && sp == sq);
  return p->known && q->known && p->pred == q->pred && p->bound == q->bound &&
         p->on_next == q->on_next && p->step == q->step && !p->vstep && !q->vstep &&
         cp->step == cq->step && !cp->vstep && !cq->vstep && starts &&
         LLVMTypeOf(cp->phi) == LLVMTypeOf(cq->phi);
}

/* May an instruction of P in a block marked in `between` write what load
 * ld reads? */
static int written(const Fwd *x, const unsigned char *between, LLVMValueRef ld) {
  LLVMValueRef p = LLVMGetOperand(ld, 0), pb = lt_base_of(p);
  for (size_t k = 0; k < x->writes.n; k += 2) {
    LLVMValueRef w = x->writes.v[k], wa = x->writes.v[k + 1];
    if (!between[block_of(x, w)])
      continue;
    if (wa == LT_CLOBBER)
      return 1;
    LLVMValueRef wb = lt_base_of(wa);
    if (wb != pb && LLVMIsAAllocaInst(wb) && (LLVMIsAArgument(pb) || LLVMIsAGlobalVariable(pb) ||
                                              LLVMIsAAllocaInst(pb)))
      continue; /* a local against another object: apart */
    if (lt_llvm_may_alias(x->c, w, wa, ld, p))
      return 1;
  }
  return 0;
}

/* The blocks that may run between S (in loop ls) and the load's block
 * lb in one iteration of the loop around ls (pl; the whole function when
 * ls is outermost): reachable from ls's header and reaching lb, inside
 * pl, not through pl's header. */
static void mark_between(const Fwd *x, unsigned ls, unsigned lb, unsigned char *between) {
  const LtCfg *g = x->g;
  int pl = x->ls->loop[ls].parent;
  int ph = pl >= 0 ? (int)x->ls->loop[pl].blocks[0] : -1;
  unsigned char *fw = lt_xcalloc(g->nblocks, 1);
  unsigned *stack = lt_xcalloc(g->nblocks + 1, sizeof *stack), n = 0;
  unsigned h = x->ls->loop[ls].blocks[0];
  fw[h] = 1;
  stack[n++] = h;
  while (n) {
    unsigned v = stack[--n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->block[v]);
    for (unsigned s = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; s < ns; s++) {
      int w = lt_cfg_id(g, LLVMGetSuccessor(t, s));
      if (w < 0 || fw[w] || w == ph || (pl >= 0 && !lt_loop_contains(x->ls, (unsigned)pl, (unsigned)w)))
        continue;
      fw[w] = 1;
      stack[n++] = (unsigned)w;
    }
  }
  memset(between, 0, g->nblocks);
  between[lb] = fw[lb];
  stack[n++] = lb;
  while (n) {
    unsigned v = stack[--n];
    for (unsigned k = 0; k < g->npred[v]; k++) {
      unsigned w = g->pred[v][k];
      if (between[w] || !fw[w] || (int)w == ph)
        continue;
      between[w] = 1;
      stack[n++] = w;
    }
  }
  free(fw);
  free(stack);
}

/* An operation made again without effects (no integer division, no call
 * but fmuladd and fma). */
static int pure_op(LLVMValueRef v) {
  if (LLVMIsACallInst(v)) {
    size_t len;
    const char *n = lt_callee_name(v, &len);
    return !strncmp(n, "llvm.fmuladd.", 13) || !strncmp(n, "llvm.fma.", 9);
  }
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul:
  case LLVMFDiv: case LLVMFNeg: case LLVMTrunc: case LLVMZExt: case LLVMSExt:
  case LLVMFPTrunc: case LLVMFPExt: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPToSI:
  case LLVMFPToUI: case LLVMBitCast: case LLVMGetElementPtr: case LLVMICmp: case LLVMFCmp:
  case LLVMSelect: case LLVMFreeze:
    return 1;
  default:
    return 0;
  }
}

/* Can v, S's value or an operand of it, be made again at the load (i
 * the store's counter, loop ls)? *ops counts the operations made in ls. */
static int remakeable(const Fwd *x, const unsigned char *between, LLVMValueRef v,
                      LLVMValueRef i, unsigned ls, int *ops) {
  if (v == i || LLVMIsAConstant(v) || LLVMIsAArgument(v))
    return 1;
  if (!LLVMIsAInstruction(v))
    return 0;
  int b = block_of(x, v);
  if (b < 0)
    return 0;
  if (!lt_loop_contains(x->ls, ls, (unsigned)b))
    return 1; /* made before the loop: it dominates the load */
  if (++*ops > MAX_OPS)
    return 0;
  if (LLVMIsALoadInst(v)) {
    if (LLVMGetVolatile(v) || LLVMIsAtomic(v) || written(x, between, v))
      return 0;
  } else if (!pure_op(v)) {
    return 0;
  }
  for (unsigned k = 0, n = (unsigned)LLVMGetNumOperands(v); k < n; k++)
    if (!remakeable(x, between, LLVMGetOperand(v, k), i, ls, ops))
      return 0;
  return 1;
}

/* v made again before at, i replaced by j (memo: vm). */
static LLVMValueRef remake(const Fwd *x, LLVMBuilderRef b, LtMap *vm, LLVMValueRef v,
                           LLVMValueRef i, LLVMValueRef j, unsigned ls) {
  if (v == i)
    return j;
  int bl = block_of(x, v);
  if (bl < 0 || !lt_loop_contains(x->ls, ls, (unsigned)bl))
    return v;
  LLVMValueRef m = lt_map_get(vm, v);
  if (m)
    return m;
  LLVMValueRef n = LLVMInstructionClone(v);
  /* scoped noalias facts of the code around S need not hold at L */
  static const char *scoped[2] = {"alias.scope", "noalias"};
  for (int k = 0; k < 2; k++)
    LLVMSetMetadata(n, LLVMGetMDKindIDInContext(x->c->llctx, scoped[k], (unsigned)strlen(scoped[k])),
                    NULL);
  for (unsigned k = 0, no = (unsigned)LLVMGetNumOperands(v); k < no; k++)
    LLVMSetOperand(n, k, remake(x, b, vm, LLVMGetOperand(v, k), i, j, ls));
  LLVMInsertIntoBuilderWithName(b, n, "lt.fwd");
  lt_map_put(vm, v, n);
  return n;
}

/* Does every path from the top of loop pl's iteration (its header; the
 * entry when pl < 0) to block to pass block via? */
static int passes(const Fwd *x, int pl, unsigned via, unsigned to) {
  const LtCfg *g = x->g;
  unsigned start = pl >= 0 ? x->ls->loop[pl].blocks[0] : 0;
  if (start == via)
    return 1; /* Ls's preheader is the iteration's first block */
  if (start == to)
    return 0;
  unsigned char *seen = lt_xcalloc(g->nblocks, 1);
  unsigned *stack = lt_xcalloc(g->nblocks + 1, sizeof *stack), n = 0;
  seen[start] = 1;
  stack[n++] = start;
  int ok = 1;
  while (n && ok) {
    unsigned v = stack[--n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->block[v]);
    for (unsigned s = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; s < ns && ok; s++) {
      int w = lt_cfg_id(g, LLVMGetSuccessor(t, s));
      if (w < 0 || seen[w] || (unsigned)w == via || (unsigned)w == start ||
          (pl >= 0 && !lt_loop_contains(x->ls, (unsigned)pl, (unsigned)w)))
        continue;
      if ((unsigned)w == to)
        ok = 0;
      seen[w] = 1;
      stack[n++] = (unsigned)w;
    }
  }
  free(seen);
  free(stack);
  return ok;
}

/* The loop around block lb whose unit counter is j with ls's trip count,
 * else -1. */
static int reader_loop(const Fwd *x, unsigned lb, LLVMValueRef j, unsigned ls) {
  for (int l = lt_loop_of(x->ls, lb); l >= 0; l = x->ls->loop[l].parent)
    if (unit_counter(x, (unsigned)l, j))
      return same_trip(x, (unsigned)l, ls) ? l : -1;
  return -1;
}

static unsigned forward_local(Fwd *x, LLVMValueRef A) {
  LtVec stores = {0}, loads = {0};
  unsigned done = 0;
  if (!accesses(A, &stores, &loads) || stores.n != 1 || !loads.n)
    goto out;
  LLVMValueRef S = stores.v[0], i = index_of(A, LLVMGetOperand(S, 1));
  int sb = block_of(x, S);
  int l = sb >= 0 ? lt_loop_of(x->ls, (unsigned)sb) : -1;
  if (l < 0 || !LLVMIsAPHINode(i) || !unit_counter(x, (unsigned)l, i))
    goto out;
  const LtLoop *Ls = &x->ls->loop[l];
  if (Ls->latch < 0 || Ls->preheader < 0 || Ls->nexiting != 1 ||
      Ls->exiting[0] != (unsigned)Ls->latch || !lt_cfg_dominates(x->g, (unsigned)sb, (unsigned)Ls->latch))
    goto out;
  unsigned char *between = lt_xcalloc(x->g->nblocks, 1);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(x->c->llctx);
  for (size_t k = 0; k < loads.n; k++) {
    LLVMValueRef L = loads.v[k], j = index_of(A, LLVMGetOperand(L, 0));
    int lb = block_of(x, L);
    if (lb < 0 || lb == Ls->preheader || lt_loop_contains(x->ls, (unsigned)l, (unsigned)lb) ||
        LLVMTypeOf(j) != LLVMTypeOf(i) ||
        (Ls->parent >= 0 && !lt_loop_contains(x->ls, (unsigned)Ls->parent, (unsigned)lb)) ||
        reader_loop(x, (unsigned)lb, j, (unsigned)l) < 0 ||
        !passes(x, Ls->parent, (unsigned)Ls->preheader, (unsigned)lb))
      continue;
    int ops = 0;
    mark_between(x, (unsigned)l, (unsigned)lb, between);
    if (!remakeable(x, between, LLVMGetOperand(S, 0), i, (unsigned)l, &ops))
      continue;
    LtMap vm;
    lt_map_init(&vm, 8);
    LLVMPositionBuilderBefore(b, L);
    LLVMValueRef v = remake(x, b, &vm, LLVMGetOperand(S, 0), i, j, (unsigned)l);
    lt_map_free(&vm);
    char msg[160];
    snprintf(msg, sizeof msg,
             "a read of a local array is recomputed from what its loop stored (line %u), "
             "not taped",
             LLVMGetDebugLocLine(S));
    lt_remark_emit(x->c, L, "leantape", "forward", msg);
    LLVMReplaceAllUsesWith(L, v);
    LLVMInstructionEraseFromParent(L);
    done++;
  }
  LLVMDisposeBuilder(b);
  free(between);
out:
  lt_vec_free(&stores);
  lt_vec_free(&loads);
  return done;
}

unsigned lt_forward_local_stores(LtCtx *c, LLVMValueRef P) {
  LtCfg g;
  LtLoops ls;
  LtInduction ind;
  lt_cfg_build(&g, P);
  lt_loops_build(&ls, &g);
  unsigned done = 0;
  if (ls.irreducible || !ls.nloops) {
    lt_loops_free(&ls);
    lt_cfg_free(&g);
    return 0;
  }
  lt_induction_build(&ind, &ls);
  Fwd x;
  memset(&x, 0, sizeof x);
  x.c = c;
  x.P = P;
  x.g = &g;
  x.ls = &ls;
  x.ind = &ind;
  for (unsigned b = 0; b < g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g.block[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(c, i, w); k < n; k++) {
        lt_vec_push(&x.writes, i);
        lt_vec_push(&x.writes, w[k]);
      }
    }
  LtVec allocas = {0};
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(P)); i;
       i = LLVMGetNextInstruction(i))
    if (lt_static_local(P, i))
      lt_vec_push(&allocas, i);
  for (size_t k = 0; k < allocas.n; k++)
    done += forward_local(&x, allocas.v[k]);
  lt_vec_free(&allocas);
  lt_vec_free(&x.writes);
  lt_induction_free(&ind);
  lt_loops_free(&ls);
  lt_cfg_free(&g);
  return done;
}
