/* libm.c: library calls the rule table knows in another form.
 *
 * sincos(x, &s, &c) and sincosf (GNU), and the llvm.sincos intrinsic
 * (LLVM 20 and later), compute sin and cos together; the rules know sin
 * and cos. In the canonical clone each becomes llvm.sin and llvm.cos of
 * the same value (stored through the two pointers, or assembled into the
 * intrinsic's {sin, cos}); sincos.c joins the pair again in the generated
 * code.
 *
 * Enzyme's __enzyme_iter(a, b) counts how often the code around it is
 * differentiated: in each canonical clone its first argument becomes a + b
 * (driver.c lowers what is left to the first argument at the end).
 */
#include "lt.h"

#include <string.h>

static int named(LLVMValueRef f, const char *want) {
  size_t n;
  const char *s = LLVMGetValueName2(f, &n);
  return strlen(want) == n && !memcmp(s, want, n);
}

static LLVMValueRef intrinsic1(LtCtx *c, LLVMBuilderRef b, const char *name, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef r = LLVMBuildCall2(b, LLVMIntrinsicGetType(c->llctx, id, &t, 1),
                                  LLVMGetIntrinsicDeclaration(c->mod, id, &t, 1), &x, 1, "");
  return r;
}

/* 1 if call was replaced */
static int split(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call) {
  LLVMValueRef f = LLVMGetCalledValue(call);
  if (!f || !LLVMIsAFunction(f))
    return 0;
  unsigned na = LLVMGetNumArgOperands(call);
  int lib = (named(f, "sincos") || named(f, "sincosf")) && na == 3 &&
            lt_is_float_ty(LLVMTypeOf(LLVMGetOperand(call, 0))) &&
            lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, 1))) &&
            lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, 2)));
  size_t n;
  const char *fname = LLVMGetValueName2(f, &n);
  int intr = n > 12 && !strncmp(fname, "llvm.sincos.", 12) && na == 1;
  if (!lib && !intr)
    return 0;
  LLVMPositionBuilderBefore(b, call);
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMValueRef s = intrinsic1(c, b, "llvm.sin", x), co = intrinsic1(c, b, "llvm.cos", x);
  LLVMInstructionSetDebugLoc(s, LLVMInstructionGetDebugLoc(call));
  LLVMInstructionSetDebugLoc(co, LLVMInstructionGetDebugLoc(call));
  if (lib) {
    LLVMBuildStore(b, s, LLVMGetOperand(call, 1));
    LLVMBuildStore(b, co, LLVMGetOperand(call, 2));
  } else {
    LLVMValueRef v = LLVMGetUndef(LLVMTypeOf(call));
    v = LLVMBuildInsertValue(b, v, s, 0, "");
    v = LLVMBuildInsertValue(b, v, co, 1, "");
    LLVMReplaceAllUsesWith(call, v);
  }
  LLVMInstructionEraseFromParent(call);
  return 1;
}

void lt_split_sincos(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (LLVMIsACallInst(i))
        split(c, b, i);
    }
  LLVMDisposeBuilder(b);
}

void lt_step_iter_hints(LtCtx *c, LLVMValueRef fn) {
  static const char *const attrs[] = {"memory", "willreturn", "nounwind"};
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) || !lt_is_iter_hint(i))
        continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMSetOperand(i, 0, LLVMBuildAdd(b, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), ""));
      for (unsigned a = 0; a < 3; a++) /* readnone, as Enzyme marks it */
        LLVMAddCallSiteAttribute(
            i, LLVMAttributeFunctionIndex,
            LLVMCreateEnumAttribute(c->llctx, LLVMGetEnumAttributeKindForName(attrs[a], strlen(attrs[a])), 0));
    }
  LLVMDisposeBuilder(b);
}
