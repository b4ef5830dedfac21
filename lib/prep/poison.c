/* poison.c: float vector lanes that a shuffle or an insertelement leaves
 * poison hold 1.0 instead (issue 18: fuzz --structvec -X seed 13905, a
 * silently wrong gradient).
 *
 * The SLP vectoriser leaves lanes nobody reads as poison: a shuffle's
 * mask element -1 (`shufflevector %q, poison, <1, poison>`), an
 * insertelement into a poison vector. The primal never looks at them, but
 * the reverse pass does arithmetic on whole vectors: the adjoint of `%m =
 * fmul %q, %s` adds adj(%m) * %s into %q's lane by lane, so a lane whose
 * adjoint is 0 and whose %s is poison is poison, and added to the lane
 * where the shuffle's reverse put a real contribution it took that
 * contribution with it (dy[6] = 0.97 of its value at -O2; right at -O0,
 * where nothing folds poison). Poison may be refined to any value, so in
 * the clone the plugin differentiates (A computes with it, R recomputes
 * or tapes it) those lanes get 1.0, the value gen/materialize.c gives the
 * undefined lanes of R's constants (not 0: a divisor's unused lane made
 * its adjoint 0 / 0):
 *  - a shuffle's poison mask elements pick a lane of 1.0s: the undefined
 *    operand's, which becomes a splat of 1.0 (so do lanes the mask takes
 *    from it), or, with two defined operands, a select after the shuffle;
 *  - an insertelement into an undefined vector inserts into 1.0s.
 */
#include "lt.h"

#include <stdlib.h>

static int is_fp_vector(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind && lt_is_float_ty(LLVMGetElementType(t));
}

static int undefined(LLVMValueRef v) {
  return LLVMIsAUndefValue(v) != NULL; /* poison too */
}

static LLVMValueRef ones(LLVMTypeRef t) {
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef one = LLVMConstReal(LLVMGetElementType(t), 1.0);
  LLVMValueRef *e = lt_xcalloc(n + 1, sizeof *e);
  for (unsigned k = 0; k < n; k++)
    e[k] = one;
  LLVMValueRef r = LLVMConstVector(e, n);
  free(e);
  return r;
}

/* The shuffle sh with no poison lane. */
static void define_shuffle(LtCtx *c, LLVMValueRef sh) {
  LLVMTypeRef t = LLVMTypeOf(sh), in = LLVMTypeOf(LLVMGetOperand(sh, 0));
  unsigned n = LLVMGetNumMaskElements(sh), w = LLVMGetVectorSize(in);
  if (!is_fp_vector(t) || n > 64)
    return;
  LLVMValueRef a = LLVMGetOperand(sh, 0), b = LLVMGetOperand(sh, 1);
  int ua = undefined(a), ub = undefined(b), any = 0;
  if (ua && ub)
    return;
  LLVMValueRef m[64], keep[64];
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->llctx), i1 = LLVMInt1TypeInContext(c->llctx);
  for (unsigned k = 0; k < n; k++) {
    int e = LLVMGetMaskValue(sh, k);
    int poison = e == LLVMGetUndefMaskElem() || e < 0 || (e < (int)w ? ua : ub);
    any |= poison;
    if (poison && (ua || ub)) /* the first lane of the undefined operand's 1.0s */
      e = ub ? (int)w : 0;
    m[k] = poison && !ua && !ub ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)e, 0);
    keep[k] = LLVMConstInt(i1, !poison, 0);
  }
  if (!any)
    return;
  LLVMBuilderRef bd = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(bd, sh);
  LLVMValueRef ns = LLVMBuildShuffleVector(bd, ua ? ones(in) : a, ub ? ones(in) : b,
                                           LLVMConstVector(m, n), "");
  if (!ua && !ub)
    ns = LLVMBuildSelect(bd, LLVMConstVector(keep, n), ns, ones(t), "lt.defined");
  LLVMDisposeBuilder(bd);
  LLVMReplaceAllUsesWith(sh, ns);
  LLVMInstructionEraseFromParent(sh);
}

void lt_define_lanes(LtCtx *c, LLVMValueRef fn) {
  LtVec shuffles = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAShuffleVectorInst(i))
        lt_vec_push(&shuffles, i);
      else if (LLVMIsAInsertElementInst(i) && is_fp_vector(LLVMTypeOf(i)) &&
               undefined(LLVMGetOperand(i, 0)))
        LLVMSetOperand(i, 0, ones(LLVMTypeOf(i)));
    }
  for (size_t k = 0; k < shuffles.n; k++)
    define_shuffle(c, shuffles.v[k]);
  lt_vec_free(&shuffles);
}
