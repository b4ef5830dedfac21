/* sincos.c: one sincos for a sin and a cos of the same value.
 *
 * The derivative of sin x is cos x and that of cos x is sin x, so a
 * tangent function computes both wherever the primal computes one: two
 * libm calls where the primal makes one, twice its cost. Computing both
 * at once costs little more than one (glibc's sincos). Where a generated
 * function calls sin and cos (libm or intrinsic, double or float) of the
 * same value in the same block, both are replaced by one llvm.sincos,
 * which the code generator turns into the target's sincos call (or back
 * into two calls where the target has none). LLVM releases without
 * llvm.sincos (before 20) keep the two calls. The driver runs this last,
 * over every generated function, once no derivative is left to build.
 */
#include "lt.h"

#include <string.h>

enum { NONE, SIN, COS };

/* SIN, COS or NONE; *ft: the type it works on (double or float) */
static int kind_of(LLVMValueRef i, LLVMTypeRef *ft) {
  if (!LLVMIsACallInst(i) || LLVMGetNumArgOperands(i) != 1)
    return NONE;
  LLVMValueRef f = LLVMGetCalledValue(i);
  if (!f || !LLVMIsAFunction(f))
    return NONE;
  size_t n;
  const char *s = LLVMGetValueName2(f, &n);
  static const struct {
    const char *name;
    int kind;
  } names[] = {{"sin", SIN},          {"cos", COS},          {"sinf", SIN},
               {"cosf", COS},         {"llvm.sin.f64", SIN}, {"llvm.cos.f64", COS},
               {"llvm.sin.f32", SIN}, {"llvm.cos.f32", COS}};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (strlen(names[k].name) == n && !memcmp(names[k].name, s, n)) {
      *ft = LLVMTypeOf(i);
      LLVMTypeKind tk = LLVMGetTypeKind(*ft);
      if (tk != LLVMDoubleTypeKind && tk != LLVMFloatTypeKind)
        return NONE;
      if (LLVMTypeOf(LLVMGetOperand(i, 0)) != *ft)
        return NONE;
      return names[k].kind;
    }
  return NONE;
}

/* The first call of the other kind on the same operand, after i in its
 * block. */
static LLVMValueRef partner(LLVMValueRef i, int kind) {
  LLVMValueRef x = LLVMGetOperand(i, 0);
  LLVMTypeRef ft;
  for (LLVMValueRef j = LLVMGetNextInstruction(i); j; j = LLVMGetNextInstruction(j)) {
    int k = kind_of(j, &ft);
    if (k != NONE && k != kind && LLVMGetOperand(j, 0) == x && ft == LLVMTypeOf(i))
      return j;
  }
  return NULL;
}

void lt_fuse_sincos(LtCtx *c, LLVMValueRef fn) {
  unsigned id = LLVMLookupIntrinsicID("llvm.sincos", 11);
  if (!id)
    return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
      LLVMTypeRef ft;
      int k = kind_of(i, &ft);
      LLVMValueRef j = k != NONE ? partner(i, k) : NULL;
      if (!j) {
        i = LLVMGetNextInstruction(i);
        continue;
      }
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef decl = LLVMGetIntrinsicDeclaration(c->mod, id, &ft, 1);
      LLVMTypeRef dty = LLVMIntrinsicGetType(c->llctx, id, &ft, 1);
      LLVMValueRef x = LLVMGetOperand(i, 0);
      LLVMValueRef sc = LLVMBuildCall2(b, dty, decl, &x, 1, "lt.sincos");
      LLVMInstructionSetDebugLoc(sc, LLVMInstructionGetDebugLoc(i));
      LLVMValueRef s = LLVMBuildExtractValue(b, sc, 0, "lt.sin");
      LLVMValueRef co = LLVMBuildExtractValue(b, sc, 1, "lt.cos");
      LLVMReplaceAllUsesWith(k == SIN ? i : j, s);
      LLVMReplaceAllUsesWith(k == SIN ? j : i, co);
      LLVMValueRef next = LLVMGetNextInstruction(i);
      if (next == j)
        next = LLVMGetNextInstruction(j);
      LLVMInstructionEraseFromParent(j);
      LLVMInstructionEraseFromParent(i);
      i = next;
    }
  LLVMDisposeBuilder(b);
}
