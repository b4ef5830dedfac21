/* asm.c: inline assembly whose meaning is known.
 *
 * Eigen 3.4's AVX packet math computes a*b + c with inline assembly when
 * compiled by clang with FMA (-mfma, -march=native): `__asm__("vfmadd231pd
 * %[a], %[b], %[c]" : [c] "+x"(res) : [a] "x"(a), [b] "x"(b))`
 * (Eigen/src/Core/arch/AVX/PacketMath.h, pmadd for Packet4d and Packet8f),
 * which reaches LLVM as `asm "vfmadd231pd $1, $2, $0", "=x,x,x,0,..."`.
 * vfmadd231 rounds once, as llvm.fma does: in the canonical clone such a
 * call becomes llvm.fma(a, b, c), which has a derivative rule, instead of
 * stopping every Eigen user who compiles with FMA at "inline assembly on an
 * active value". Any other inline assembly is left as it is.
 */
#include "lt.h"

#include <string.h>

static int starts(const char *s, size_t n, const char *want) {
  size_t k = strlen(want);
  return n >= k && !memcmp(s, want, k);
}

/* The asm computes op0 * op1 + op2 (op2 tied to the result), all of one
 * floating-point type. */
static int is_fma(LLVMValueRef call) {
  LLVMValueRef a = LLVMGetCalledValue(call);
  if (!a || !LLVMIsAInlineAsm(a) || LLVMGetNumArgOperands(call) != 3 ||
      LLVMGetInlineAsmDialect(a) != LLVMInlineAsmDialectATT)
    return 0;
  size_t n, m;
  const char *s = LLVMGetInlineAsmAsmString(a, &n);
  const char *k = LLVMGetInlineAsmConstraintString(a, &m);
  static const char *const forms[] = {"vfmadd231pd $1, $2, $0", "vfmadd231ps $1, $2, $0",
                                      "vfmadd231sd $1, $2, $0", "vfmadd231ss $1, $2, $0"};
  int known = 0;
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
    known |= n == strlen(forms[f]) && !memcmp(s, forms[f], n);
  if (!known || !starts(k, m, "=x,x,x,0"))
    return 0;
  /* what follows the operands may only be clobbers */
  for (size_t q = strlen("=x,x,x,0"); q < m; q++)
    if (k[q] == ',' && (q + 1 >= m || k[q + 1] != '~'))
      return 0;
  LLVMTypeRef t = LLVMTypeOf(call);
  LLVMTypeRef e = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  if (!lt_is_float_ty(e))
    return 0;
  for (unsigned q = 0; q < 3; q++)
    if (LLVMTypeOf(LLVMGetOperand(call, q)) != t)
      return 0;
  return 1;
}

void lt_known_asm(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsACallInst(i) || !is_fma(i))
        continue;
      LLVMTypeRef t = LLVMTypeOf(i);
      unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
      LLVMValueRef args[3] = {LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), LLVMGetOperand(i, 2)};
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef r = LLVMBuildCall2(b, LLVMIntrinsicGetType(c->llctx, id, &t, 1),
                                      LLVMGetIntrinsicDeclaration(c->mod, id, &t, 1), args, 3, "");
      LLVMInstructionSetDebugLoc(r, LLVMInstructionGetDebugLoc(i));
      LLVMReplaceAllUsesWith(i, r);
      LLVMInstructionEraseFromParent(i);
    }
  LLVMDisposeBuilder(b);
}
