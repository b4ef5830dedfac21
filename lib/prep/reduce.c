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
