/* sincos.c: one sincos for a sin and a cos of the same value.
 *
 * The derivative of sin x is cos x and that of cos x is sin x, so a
 * tangent function computes both wherever the primal computes one: two
 * libm calls where the primal makes one, twice its cost. Computing both
 * at once costs little more than one (glibc's sincos). Where a generated
 * function calls sin and cos (libm or intrinsic, double or float) of the
 * same value in the same block, both are replaced by one call of the C
 * library's sincos (sincosf), on targets whose C library has it (Linux);
 * the results come back through two stack slots. Not the llvm.sincos
 * intrinsic: LLVM 22's loop vectorizer widens it into an invalid type
 * (<2 x {<2 x double>, <2 x double>}>) and VectorCombine then crashes,
 * and LLVM 19 has no such intrinsic. The driver runs this last, over
 * every generated function, once no derivative is left to build.
 *
 * First, a second sin (or cos) of the same value in a block is the first
 * one's result: a reverse block recomputes the primal's cos x and sin x
 * and its rules ask for sin x and cos x again, which the optimiser cannot
 * merge (libm calls may set errno; the same argument sets the same errno).
 * The bundle adjustment objective of tools/bench made two sincos calls in
 * its reverse block instead of one.
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

/* The target's C library has sincos and sincosf (glibc, musl: Linux). */
static int has_sincos(LtCtx *c) {
  const char *t = LLVMGetTarget(c->mod);
  return t && (strstr(t, "linux") || strstr(t, "gnu"));
}

/* void sincos(T x, T *s, T *c), declared once */
static LLVMValueRef decl(LtCtx *c, LLVMTypeRef ft, LLVMTypeRef *fty) {
  const char *name = LLVMGetTypeKind(ft) == LLVMFloatTypeKind ? "sincosf" : "sincos";
  LLVMTypeRef pt[3] = {ft, c->ptr, c->ptr};
  *fty = LLVMFunctionType(LLVMVoidTypeInContext(c->llctx), pt, 3, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f) {
    f = LLVMAddFunction(c->mod, name, *fty);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->llctx,
                                                       LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
  }
  return f;
}

/* Each sin or cos call of bb whose value an earlier call of the same kind
 * on the same operand in bb already computed takes its result (libm's sin
 * or llvm.sin: the rules call the intrinsic, the primal's copy libm). */
static void reuse_in_block(LLVMBasicBlockRef bb) {
  LLVMValueRef seen[32];
  unsigned n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMTypeRef ft, ft2;
    int kind = kind_of(i, &ft);
    if (kind == NONE)
      continue;
    LLVMValueRef same = NULL;
    for (unsigned k = 0; k < n && !same; k++)
      if (kind_of(seen[k], &ft2) == kind && ft2 == ft &&
          LLVMGetOperand(seen[k], 0) == LLVMGetOperand(i, 0))
        same = seen[k];
    if (same) {
      LLVMReplaceAllUsesWith(i, same);
      LLVMInstructionEraseFromParent(i);
    } else if (n < sizeof seen / sizeof *seen) {
      seen[n++] = i;
    }
  }
}

void lt_fuse_sincos(LtCtx *c, LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    reuse_in_block(bb);
  if (!has_sincos(c))
    return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMValueRef slot[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [float?][sin, cos] */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
      LLVMTypeRef ft;
      int k = kind_of(i, &ft);
      LLVMValueRef j = k != NONE ? partner(i, k) : NULL;
      if (!j) {
        i = LLVMGetNextInstruction(i);
        continue;
      }
      int fl = LLVMGetTypeKind(ft) == LLVMFloatTypeKind;
      if (!slot[fl][0]) {
        /* two stack slots per type, reused by every pair */
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        slot[fl][0] = lt_build_slot(b, ft, 0, "lt.sin.slot");
        slot[fl][1] = lt_build_slot(b, ft, 0, "lt.cos.slot");
      }
      LLVMPositionBuilderBefore(b, i);
      LLVMTypeRef fty;
      LLVMValueRef f = decl(c, ft, &fty);
      LLVMValueRef args[3] = {LLVMGetOperand(i, 0), slot[fl][0], slot[fl][1]};
      LLVMValueRef sc = LLVMBuildCall2(b, fty, f, args, 3, "");
      LLVMInstructionSetDebugLoc(sc, LLVMInstructionGetDebugLoc(i));
      LLVMValueRef s = LLVMBuildLoad2(b, ft, slot[fl][0], "lt.sin");
      LLVMValueRef co = LLVMBuildLoad2(b, ft, slot[fl][1], "lt.cos");
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
