/* reduce.c: vector reductions written out lane by lane.
 *
 * IR optimised before the pass runs (opt -passes=leantape on -O2/-O3
 * output, -ffast-math loops vectorised) sums and bounds a vector with
 * llvm.vector.reduce.{fadd,fmul,fmax,fmin,fmaximum,fminimum}: a
 * scalar of a vector, which no scalar rule fits ("no derivative rule for
 * 'llvm.vector.reduce.fadd.v2f64'"). Each becomes the ordered chain of its
 * lanes, ((start + v0) + v1) + ..., or maxnum / minnum / maximum / minimum
 * of lane after lane: the sequential order is a valid result of every
 * form (reassoc only allows others), and the chain's fadds, fmuls and
 * intrinsics have derivatives in both modes. Ties of a max go to the
 * first lane, as the scalar rule's do.
 */
#include "lt.h"

#include <string.h>

static const struct {
  const char *name; /* after "llvm.vector.reduce." */
  const char *intr; /* the binary intrinsic, or NULL: fadd / fmul */
  int has_start;
} kinds[] = {
    {"fadd", NULL, 1},       {"fmul", NULL, 1},         {"fmax", "llvm.maxnum", 0},
    {"fmin", "llvm.minnum", 0}, {"fmaximum", "llvm.maximum", 0}, {"fminimum", "llvm.minimum", 0},
};

static int kind_of(LLVMValueRef call) {
  LLVMValueRef f = LLVMGetCalledValue(call);
  size_t n;
  const char *s = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : NULL;
  static const char pre[] = "llvm.vector.reduce.";
  if (!s || n <= sizeof pre - 1 || strncmp(s, pre, sizeof pre - 1))
    return -1;
  s += sizeof pre - 1;
  n -= sizeof pre - 1;
  for (int k = 0; k < (int)(sizeof kinds / sizeof *kinds); k++) {
    size_t l = strlen(kinds[k].name);
    if (n > l && !strncmp(s, kinds[k].name, l) && s[l] == '.')
      return k;
  }
  return -1;
}

void lt_expand_reductions(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      int k = LLVMIsACallInst(i) ? kind_of(i) : -1;
      if (k < 0)
        continue;
      LLVMValueRef v = LLVMGetOperand(i, (unsigned)kinds[k].has_start);
      LLVMTypeRef vt = LLVMTypeOf(v), ft = LLVMTypeOf(i);
      if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind || !lt_is_float_ty(ft))
        continue; /* scalable vectors: left for the usual error */
      unsigned lanes = LLVMGetVectorSize(vt);
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef acc = kinds[k].has_start ? LLVMGetOperand(i, 0) : NULL;
      LLVMValueRef intr = NULL;
      LLVMTypeRef it = NULL;
      if (kinds[k].intr) {
        unsigned id = LLVMLookupIntrinsicID(kinds[k].intr, strlen(kinds[k].intr));
        intr = LLVMGetIntrinsicDeclaration(c->mod, id, &ft, 1);
        it = LLVMIntrinsicGetType(c->llctx, id, &ft, 1);
      }
      for (unsigned l = 0; l < lanes; l++) {
        LLVMValueRef e = LLVMBuildExtractElement(b, v, LLVMConstInt(c->i32, l, 0), "");
        if (!acc) {
          acc = e;
        } else if (intr) {
          LLVMValueRef args[2] = {acc, e};
          acc = LLVMBuildCall2(b, it, intr, args, 2, "");
        } else {
          acc = k == 0 ? LLVMBuildFAdd(b, acc, e, "") : LLVMBuildFMul(b, acc, e, "");
        }
      }
      if (!acc)
        continue;
      LLVMSetValueName2(acc, "lt.reduce", 9);
      LLVMReplaceAllUsesWith(i, acc);
      LLVMInstructionEraseFromParent(i);
    }
  LLVMDisposeBuilder(b);
}

/* Running extremes. m = maxnum(m, x) around a loop (a PHI m the call's
 * result flows back into; fmax, fminf, llvm.minnum and the like) becomes
 * select(c, m, x) with c = m >= x or x is NaN (<= for a minimum): the
 * value maxnum gives (but the sign of a zero tie, which it leaves open)
 * and the derivative rule's own choice (rules.c pick), so the gradient is
 * the same. The reverse of a select reads its condition only, and the
 * plan tapes that i1 (plan/source.c) where the call's reverse read both
 * operands and so taped the maximum so far: 1 byte an iteration, not 8. */
static int extreme_kind(LLVMValueRef call) {
  size_t n;
  const char *s = lt_callee_name(call, &n);
  if (!s)
    return 0;
  if (n > 12 && (!strncmp(s, "llvm.maxnum.", 12) || !strncmp(s, "llvm.minnum.", 12)))
    return s[6] == 'a' ? 1 : -1;
  if ((n == 4 || (n == 5 && s[4] == 'f')) && (!strncmp(s, "fmax", 4) || !strncmp(s, "fmin", 4)))
    return s[2] == 'a' ? 1 : -1;
  return 0;
}

/* Is the call's operand k a PHI that the call's result flows back into? */
static int carried(LLVMValueRef call, unsigned k) {
  LLVMValueRef p = LLVMGetOperand(call, k);
  if (!LLVMIsAPHINode(p))
    return 0;
  for (unsigned j = 0, n = LLVMCountIncoming(p); j < n; j++)
    if (LLVMGetIncomingValue(p, j) == call)
      return 1;
  return 0;
}

void lt_select_extremes(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      int k = LLVMIsACallInst(i) && LLVMGetNumArgOperands(i) == 2 ? extreme_kind(i) : 0;
      if (!k || !lt_is_float_ty(LLVMTypeOf(i)) || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVectorTypeKind ||
          (!carried(i, 0) && !carried(i, 1)))
        continue;
      LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef first =
          LLVMBuildOr(b, LLVMBuildFCmp(b, k > 0 ? LLVMRealOGE : LLVMRealOLE, x, y, ""),
                      LLVMBuildFCmp(b, LLVMRealUNO, y, y, ""), "lt.first");
      LLVMValueRef r = LLVMBuildSelect(b, first, x, y, "lt.extreme");
      LLVMReplaceAllUsesWith(i, r);
      LLVMInstructionEraseFromParent(i);
    }
  LLVMDisposeBuilder(b);
}
