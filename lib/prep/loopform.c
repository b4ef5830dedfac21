/* loopform.c: the loop form the derivative is built on (the last step of
 * the canonical clone: it needs the clone's CFG and loops).
 *
 * Checks that every loop of the preprocessed primal is natural and in
 * loop-simplify form (preheader, one latch, dedicated exits), then gives
 * each loop a canonical i64 counter lt.iv (0, 1, ... per header execution)
 * and, in each of its exit blocks, an LCSSA copy lt.ivx of that counter:
 * the iteration in which the loop was left, from which the reverse loop
 * starts. Adds instructions only; block ids stay valid.
 */
#include "lt.h"

typedef struct Form {
  LtCtx *c;
  const LtCfg *g;
  LtLoops *loops;
  LLVMValueRef *loop_iv;
  LtMap *ivx_loop;
} Form;

static int check_form(LtCtx *c, Form *g, unsigned l) {
  const LtLoop *L = &g->loops->loop[l];
  LLVMValueRef at = lt_first_non_phi(g->g->block[L->header]);
  if (L->preheader < 0 || L->latch < 0) {
    lt_error(c, at, "this loop has several entries or back edges that could "
                    "not be simplified; write it as a single for/while loop");
    return -1;
  }
  for (unsigned e = 0; e < L->nexits; e++) {
    unsigned ex = L->exits[e];
    for (unsigned k = 0; k < g->g->npred[ex]; k++)
      if (!lt_loop_contains(g->loops, l, g->g->pred[ex][k])) {
        lt_error(c, at, "a block after this loop is also reached from "
                        "outside the loop; this loop shape is not supported");
        return -1;
      }
  }
  return 0;
}

static void add_counter(Form *g, unsigned l, LLVMBuilderRef b) {
  const LtLoop *L = &g->loops->loop[l];
  LtCtx *c = g->c;
  LLVMBasicBlockRef h = g->g->block[L->header];
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(h));
  LLVMValueRef iv = LLVMBuildPhi(b, c->i64, "lt.iv");
  LLVMValueRef lt = LLVMGetBasicBlockTerminator(g->g->block[L->latch]);
  LLVMPositionBuilderBefore(b, lt);
  LLVMValueRef next = LLVMBuildAdd(b, iv, LLVMConstInt(c->i64, 1, 0), "lt.iv.next");
  LLVMSetNUW(next, 1);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMBasicBlockRef ph = g->g->block[L->preheader];
  LLVMBasicBlockRef lb = g->g->block[L->latch];
  LLVMAddIncoming(iv, &zero, &ph, 1);
  LLVMAddIncoming(iv, &next, &lb, 1);
  g->loop_iv[l] = iv;
  for (unsigned e = 0; e < L->nexits; e++) {
    unsigned ex = L->exits[e];
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(g->g->block[ex]));
    LLVMValueRef x = LLVMBuildPhi(b, c->i64, "lt.ivx");
    for (unsigned k = 0; k < g->g->npred[ex]; k++) {
      LLVMBasicBlockRef pb = g->g->block[g->g->pred[ex][k]];
      LLVMAddIncoming(x, &iv, &pb, 1);
    }
    lt_map_put(g->ivx_loop, x, (void *)(size_t)(l + 1));
  }
}

int lt_loopform(LtCtx *c, LLVMValueRef fn, const LtCfg *cfg, LtLoops *loops,
                LLVMValueRef **loop_iv, LtMap *ivx_loop) {
  lt_loops_build(loops, cfg);
  if (loops->irreducible) {
    lt_error(c, lt_first_non_phi(loops->irr_to),
             "irreducible control flow (a cycle with several entries, e.g. "
             "from goto) in '%s' is not supported; write it as structured "
             "loops", LLVMGetValueName2(fn, &(size_t){0}));
    return -1;
  }
  *loop_iv = lt_xcalloc(loops->nloops + 1, sizeof **loop_iv);
  lt_map_init(ivx_loop, 16);
  Form g = {c, cfg, loops, *loop_iv, ivx_loop};
  for (unsigned l = 0; l < loops->nloops; l++)
    if (check_form(c, &g, l))
      return -1;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (unsigned l = 0; l < loops->nloops; l++)
    add_counter(&g, l, b);
  LLVMDisposeBuilder(b);
  return 0;
}
