/* loopver.c: a loop copied, the copy taken unless a run-time test finds
 * two sets of its accesses apart.
 *
 * A rewrite of a generated loop may be right only when some of its
 * accesses do not overlap others, which LLVM's alias analysis cannot tell
 * for plain pointers (gather.c: a stencil's reverse additions and the
 * other shadow's reads). The accesses' addresses are affine in the loop's
 * iterations, its trip count is known when it starts, so the bytes each
 * touches over the whole loop are an interval the preheader computes, as
 * LLVM's loop versioning does. The preheader then branches to the loop
 * (the caller rewrites it) when the hull of the first set is apart from
 * every access of the second, and to an untouched copy otherwise. Values
 * the loop leaves to code after it get a PHI of both copies' at the exit.
 */
#include "lt.h"

#include <stdlib.h>

typedef struct Ver {
  LtCtx *c;
  const LtCfg *g;
  const LtLoops *ls;
  const LtInduction *ind;
  unsigned l;
  LtMap memo; /* loop value -> its value in the first iteration */
} Ver;

/* v's value in the loop's first iteration, emitted at b (the end of the
 * preheader): header PHIs take their start, values from outside the loop
 * stay, address arithmetic in the loop is copied; NULL for anything else. */
static LLVMValueRef at_start(Ver *V, LLVMBuilderRef b, LLVMValueRef v, unsigned depth) {
  if (!LLVMIsAInstruction(v))
    return v;
  int blk = lt_cfg_id(V->g, LLVMGetInstructionParent(v));
  if (blk < 0)
    return NULL;
  if (!lt_loop_contains(V->ls, V->l, (unsigned)blk))
    return v;
  LLVMValueRef m = lt_map_get(&V->memo, v);
  if (m || depth > 32)
    return m;
  const LtLoop *lp = &V->ls->loop[V->l];
  if (LLVMIsAPHINode(v)) {
    if ((unsigned)blk != lp->header)
      return NULL;
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++)
      if (LLVMGetIncomingBlock(v, k) == V->g->block[lp->preheader])
        return LLVMGetIncomingValue(v, k);
    return NULL;
  }
  if (!lt_run_op(LLVMGetInstructionOpcode(v)))
    return NULL;
  int nops = LLVMGetNumOperands(v);
  LLVMValueRef ops[8];
  if (nops > 8)
    return NULL;
  for (int k = 0; k < nops; k++)
    if (!(ops[k] = at_start(V, b, LLVMGetOperand(v, (unsigned)k), depth + 1)))
      return NULL;
  LLVMValueRef ni = LLVMInstructionClone(v);
  LLVMInsertIntoBuilder(b, ni);
  for (int k = 0; k < nops; k++)
    LLVMSetOperand(ni, (unsigned)k, ops[k]);
  lt_map_put(&V->memo, v, ni);
  return ni;
}

/* [*lo, *hi): the bytes access i at addr touches over the loop (last: its
 * trip count less 1), as i64; 0 when not computable. */
static int span(Ver *V, LLVMBuilderRef b, LLVMValueRef i, LLVMValueRef addr, LLVMValueRef last,
                LLVMValueRef *lo, LLVMValueRef *hi) {
  LtCtx *c = V->c;
  LtAffine af;
  if (!LLVMIsALoadInst(i) && !LLVMIsAStoreInst(i))
    return 0;
  if (lt_affine_of_run(V->ind, c->td, addr, V->l, &af))
    return 0;
  long long step = lt_affine_coef(&af, V->l);
  lt_affine_free(&af);
  LLVMValueRef a = at_start(V, b, addr, 0);
  if (!a)
    return 0;
  LLVMTypeRef t = LLVMIsAStoreInst(i) ? LLVMTypeOf(LLVMGetOperand(i, 0)) : LLVMTypeOf(i);
  LLVMValueRef a0 = LLVMBuildPtrToInt(b, a, c->i64, "");
  LLVMValueRef a1 = LLVMBuildAdd(
      b, a0, LLVMBuildMul(b, last, LLVMConstInt(c->i64, (unsigned long long)step, 1), ""), "");
  LLVMValueRef up = LLVMBuildICmp(b, LLVMIntULT, a0, a1, "");
  *lo = LLVMBuildSelect(b, up, a0, a1, "");
  *hi = LLVMBuildAdd(b, LLVMBuildSelect(b, up, a1, a0, ""),
                     LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, t), 0), "");
  return 1;
}

static LLVMValueRef umin(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  return x ? LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, x, y, ""), x, y, "") : y;
}

static LLVMValueRef umax(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  return x ? LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, x, y, ""), x, y, "") : y;
}

static int in_loop(const Ver *V, LLVMValueRef user) {
  int id = lt_cfg_id(V->g, LLVMGetInstructionParent(user));
  return id >= 0 && lt_loop_contains(V->ls, V->l, (unsigned)id);
}

/* Can the loop's values used after it be merged: none is used there but
 * by the exit's PHIs, or the exit's one predecessor is the loop? */
static int mergeable(const Ver *V, LLVMBasicBlockRef exit, LLVMBasicBlockRef exiting) {
  const LtLoop *lp = &V->ls->loop[V->l];
  int n = 0;
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(V->g->block[lp->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i))
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        n += !in_loop(V, user) &&
             !(LLVMIsAPHINode(user) && LLVMGetInstructionParent(user) == exit);
      }
  if (!n)
    return 1;
  int id = lt_cfg_id(V->g, exit);
  if (id < 0)
    return 0;
  unsigned *preds = lt_xcalloc(V->g->npred[id] + 1, sizeof *preds);
  int one = lt_cfg_unique_preds(V->g, (unsigned)id, preds) == 1 &&
            V->g->block[preds[0]] == exiting;
  free(preds);
  return one;
}

/* The test at b: the hull of a's accesses is apart from each of b's. */
static LLVMValueRef apart_test(Ver *V, LLVMBuilderRef b, LLVMValueRef *a, unsigned na,
                               LLVMValueRef *o, unsigned no, LLVMValueRef last) {
  LLVMValueRef glo = NULL, ghi = NULL, cond = NULL, lo, hi;
  for (unsigned k = 0; k + 1 < na; k += 2) {
    if (!span(V, b, a[k], a[k + 1], last, &lo, &hi))
      return NULL;
    glo = umin(b, glo, lo);
    ghi = umax(b, ghi, hi);
  }
  for (unsigned k = 0; glo && k + 1 < no; k += 2) {
    if (!span(V, b, o[k], o[k + 1], last, &lo, &hi))
      return NULL;
    LLVMValueRef ok = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntULE, ghi, lo, ""),
                                  LLVMBuildICmp(b, LLVMIntULE, hi, glo, ""), "");
    cond = cond ? LLVMBuildAnd(b, cond, ok, "") : ok;
  }
  return cond;
}

/* The copy's values join the original's at the exit: in its PHIs, and in
 * a PHI of the two for each value used after the loop. */
static void merge(Ver *V, LtMap *vm, LLVMBasicBlockRef *blocks, LLVMBasicBlockRef exit,
                  LLVMBasicBlockRef exiting, LLVMBasicBlockRef exiting2) {
  const LtLoop *lp = &V->ls->loop[V->l];
  for (LLVMValueRef i = LLVMGetFirstInstruction(exit); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i))
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (LLVMGetIncomingBlock(i, k) == exiting) {
        LLVMValueRef v = LLVMGetIncomingValue(i, k), v2 = lt_map_get(vm, v);
        v2 = v2 ? v2 : v;
        LLVMAddIncoming(i, &v2, &exiting2, 1);
        break;
      }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(V->c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(exit));
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[bi]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef phi = NULL;
      for (LLVMUseRef u = LLVMGetFirstUse(i), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (in_loop(V, user) || user == phi ||
            (LLVMIsAPHINode(user) && LLVMGetInstructionParent(user) == exit))
          continue;
        if (!phi) {
          phi = LLVMBuildPhi(b, LLVMTypeOf(i), "");
          LLVMValueRef in[2] = {i, lt_map_get(vm, i)};
          LLVMBasicBlockRef from[2] = {exiting, exiting2};
          LLVMAddIncoming(phi, in, from, 2);
        }
        for (int k = 0, n = LLVMGetNumOperands(user); k < n; k++)
          if (LLVMGetOperand(user, (unsigned)k) == i)
            LLVMSetOperand(user, (unsigned)k, phi);
      }
    }
  LLVMDisposeBuilder(b);
}

/* The loop copied: the preheader (ending in its branch term) branches to
 * the loop when cond holds, else to the copy (*copy: its header). */
static void split(Ver *V, LLVMValueRef term, LLVMValueRef cond, LLVMBasicBlockRef *copy,
                  LtMap *vm) {
  const LtLoop *lp = &V->ls->loop[V->l];
  const LtCfg *g = V->g;
  LLVMBasicBlockRef head = g->block[lp->header], exiting = g->block[lp->exiting[0]],
                    exit = g->block[lp->exits[0]];
  LLVMBasicBlockRef *blocks = lt_xcalloc(lp->nblocks, sizeof *blocks);
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    blocks[bi] = g->block[lp->blocks[bi]];
  *copy = lt_clone_blocks(vm, blocks, lp->nblocks, LLVMGetBasicBlockParent(head), exit, 1);
  LLVMBasicBlockRef exiting2 =
      LLVMValueAsBasicBlock(lt_map_get(vm, LLVMBasicBlockAsValue(exiting)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(V->c->llctx);
  LLVMPositionBuilderBefore(b, term);
  LLVMBuildCondBr(b, cond, head, *copy);
  LLVMInstructionEraseFromParent(term);
  LLVMDisposeBuilder(b);
  merge(V, vm, blocks, exit, exiting, exiting2);
  free(blocks);
}

/* Can loop l be split (a preheader ending in a plain branch, one exit)? */
static int splittable(Ver *V, LLVMValueRef *term) {
  const LtLoop *lp = &V->ls->loop[V->l];
  if (lp->preheader < 0 || lp->nexiting != 1 || lp->nexits != 1)
    return 0;
  *term = LLVMGetBasicBlockTerminator(V->g->block[lp->preheader]);
  return *term && LLVMGetNumSuccessors(*term) == 1 &&
         mergeable(V, V->g->block[lp->exits[0]], V->g->block[lp->exiting[0]]);
}

int lt_loop_version(LtCtx *c, const LtCfg *g, const LtLoops *ls, const LtInduction *ind,
                    unsigned l, LLVMValueRef *a, unsigned na, LLVMValueRef *o, unsigned no,
                    LLVMBasicBlockRef *copy) {
  Ver V = {c, g, ls, ind, l, {0}};
  LLVMValueRef term;
  if (!ind->trip[l].known || !splittable(&V, &term))
    return -1;
  lt_map_init(&V.memo, 16);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, term);
  LtTrip t = ind->trip[l];
  LLVMValueRef cond = NULL;
  if ((t.start = at_start(&V, b, t.start, 0)) && (t.bound = at_start(&V, b, t.bound, 0)) &&
      (!t.vstep || (t.vstep = at_start(&V, b, t.vstep, 0)))) {
    LLVMValueRef last = LLVMBuildSub(b, lt_trip_emit(b, &t), LLVMConstInt(c->i64, 1, 0), "");
    cond = apart_test(&V, b, a, na, o, no, last);
  }
  lt_map_free(&V.memo);
  LLVMDisposeBuilder(b);
  if (!cond)
    return -1; /* what was emitted is dead: the cleanup after the pass deletes it */
  LtMap vm;
  lt_map_init(&vm, 64);
  split(&V, term, cond, copy, &vm);
  lt_map_free(&vm);
  return 0;
}

int lt_loop_unswitch(LtCtx *c, const LtCfg *g, const LtLoops *ls, unsigned l, LLVMValueRef br) {
  Ver V = {c, g, ls, NULL, l, {0}};
  LLVMValueRef term, cond = LLVMGetCondition(br);
  LLVMBasicBlockRef copy;
  if (!splittable(&V, &term))
    return -1;
  LtMap vm;
  lt_map_init(&vm, 64);
  split(&V, term, cond, &copy, &vm);
  LLVMValueRef br2 = lt_map_get(&vm, br);
  lt_map_free(&vm);
  /* the condition holds in the loop, not in the copy */
  LLVMSetCondition(br, LLVMConstInt(LLVMInt1TypeInContext(c->llctx), 1, 0));
  if (br2)
    LLVMSetCondition(br2, LLVMConstInt(LLVMInt1TypeInContext(c->llctx), 0, 0));
  return 0;
}
