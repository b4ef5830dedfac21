/* heap.c: shadows of heap memory.
 *
 * The shadow of a heap allocation (malloc, calloc, realloc, aligned_alloc,
 * posix_memalign, operator new) is zeroed memory of the same size and
 * alignment with a small header in front: its size and the header's own
 * size, so that realloc can copy a shadow it did not see allocated. The
 * primal's realloc may free the old block, but the reverse pass still
 * accumulates into the old shadow, so a shadow realloc allocates a new
 * shadow, copies the old one (zeros and shadow pointers, in the forward
 * pass) and keeps it; the reverse of the realloc moves the new shadow's
 * adjoints back into the old one and frees the new shadow. Each shadow is
 * freed at the reverse of its allocation, exactly once.
 * A block of operator new whose address may outlive the function (a node
 * linked into the caller's std::map) has a plain shadow instead: the same
 * operator new, zeroed, never freed by the derivative, since it belongs to
 * the caller's shadow container, whose own delete frees it.
 *   ptr  lt.shadow.alloc(i64 size, i64 align, ptr primal)
 *        (the shadow's address is the primal's modulo 64)
 *   void lt.shadow.free(ptr)                     (null: nothing)
 *   ptr  lt.shadow.realloc(ptr old, i64 size, ptr primal)  (old kept)
 *   i64  lt.shadow.size(ptr)
 */
#include "lt.h"

#include <string.h>

/* The heap helper `name` (ret (pt[0..n))), defined once: fill builds its
 * body, the builder standing in the entry block. */
static LLVMValueRef helper(LtCtx *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *pt,
                           unsigned n, void (*fill)(LtCtx *, LLVMValueRef, LLVMBuilderRef)) {
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(ret, pt, n, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, e);
  fill(c, f, b);
  LLVMDisposeBuilder(b);
  return f;
}

/* A helper that does nothing to a null shadow (f's parameter 0): b, in
 * the entry, branches to a new block go_name, where it then stands, or,
 * for null, to the new block *none (none_name). */
static void unless_null(LtCtx *c, LLVMValueRef f, LLVMBuilderRef b, const char *go_name,
                        const char *none_name, LLVMBasicBlockRef *none) {
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(c->llctx, f, go_name);
  *none = LLVMAppendBasicBlockInContext(c->llctx, f, none_name);
  LLVMValueRef p = LLVMGetParam(f, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, p, LLVMConstNull(c->ptr), ""), *none, go);
  LLVMPositionBuilderAtEnd(b, go);
}

static LLVMValueRef at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, long long off) {
  LLVMValueRef o = LLVMConstInt(c->i64, (unsigned long long)off, 1);
  return LLVMBuildGEP2(b, c->i8, p, &o, 1, "");
}

/* The block's offset from a 64-byte boundary is the primal's (the primal
 * may round its address to a stricter alignment through an integer, as
 * Eigen's handmade_aligned_malloc does, and the shadow's address follows
 * by the same offset: shadow words, ptrword.c), and an alignment above 64 is
 * kept. */
static void fill_alloc(LtCtx *c, LLVMValueRef f, LLVMBuilderRef b) {
  LLVMValueRef n = LLVMGetParam(f, 0), al = LLVMGetParam(f, 1), primal = LLVMGetParam(f, 2);
  LLVMValueRef sixtyfour = LLVMConstInt(c->i64, 64, 0);
  LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGT, al, sixtyfour, "");
  LLVMValueRef A = LLVMBuildSelect(b, big, al, sixtyfour, "");
  LLVMValueRef phase = LLVMBuildAnd(b, LLVMBuildPtrToInt(b, primal, c->i64, ""),
                                    LLVMConstInt(c->i64, 63, 0), "");
  LLVMValueRef hdr = LLVMBuildAdd(b, A, phase, "");
  LLVMValueRef mask = LLVMBuildSub(b, A, LLVMConstInt(c->i64, 1, 0), "");
  LLVMValueRef total = LLVMBuildAnd(
      b, LLVMBuildAdd(b, LLVMBuildAdd(b, n, hdr, ""), mask, ""),
      LLVMBuildNot(b, mask, ""), "");
  LLVMTypeRef at2[2] = {c->i64, c->i64};
  LLVMTypeRef aty = LLVMFunctionType(c->ptr, at2, 2, 0);
  LLVMValueRef args[2] = {A, total};
  LLVMValueRef base = LLVMBuildCall2(b, aty, lt_decl_fn(c->mod, "aligned_alloc", aty),
                                     args, 2, "");
  LLVMBuildMemSet(b, base, LLVMConstInt(c->i8, 0, 0), total, 64);
  LLVMValueRef p = LLVMBuildGEP2(b, c->i8, base, &hdr, 1, "");
  LLVMBuildStore(b, hdr, at(c, b, p, -16));
  LLVMBuildStore(b, n, at(c, b, p, -8));
  LLVMBuildRet(b, p);
}

static LLVMValueRef alloc_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->i64, c->i64, c->ptr};
  return helper(c, "lt.shadow.alloc", c->ptr, pt, 3, fill_alloc);
}

static void fill_free(LtCtx *c, LLVMValueRef f, LLVMBuilderRef b) {
  LLVMBasicBlockRef x;
  unless_null(c, f, b, "free", "exit", &x);
  LLVMValueRef p = LLVMGetParam(f, 0);
  LLVMValueRef hdr = LLVMBuildLoad2(b, c->i64, at(c, b, p, -16), "");
  LLVMValueRef base = LLVMBuildGEP2(b, c->i8, p, (LLVMValueRef[]){LLVMBuildNeg(b, hdr, "")},
                                    1, "");
  lt_build_free(b, c->mod, base);
  LLVMBuildBr(b, x);
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildRetVoid(b);
}

static LLVMValueRef free_fn(LtCtx *c) {
  return helper(c, "lt.shadow.free", c->vd, &c->ptr, 1, fill_free);
}

static void fill_size(LtCtx *c, LLVMValueRef f, LLVMBuilderRef b) {
  LLVMBasicBlockRef x;
  unless_null(c, f, b, "read", "none", &x);
  LLVMBuildRet(b, LLVMBuildLoad2(b, c->i64, at(c, b, LLVMGetParam(f, 0), -8), ""));
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildRet(b, LLVMConstInt(c->i64, 0, 0));
}

static LLVMValueRef size_fn(LtCtx *c) {
  return helper(c, "lt.shadow.size", c->i64, &c->ptr, 1, fill_size);
}

static void fill_realloc(LtCtx *c, LLVMValueRef f, LLVMBuilderRef b) {
  LLVMValueRef old = LLVMGetParam(f, 0), n = LLVMGetParam(f, 1);
  LLVMValueRef af = alloc_fn(c), sf = size_fn(c);
  LLVMValueRef args[3] = {n, LLVMConstInt(c->i64, 16, 0), LLVMGetParam(f, 2)};
  LLVMValueRef p = LLVMBuildCall2(b, LLVMGlobalGetValueType(af), af, args, 3, "");
  LLVMValueRef m = LLVMBuildCall2(b, LLVMGlobalGetValueType(sf), sf, &old, 1, "");
  LLVMValueRef less = LLVMBuildICmp(b, LLVMIntULT, m, n, "");
  LLVMBuildMemCpy(b, p, 1, old, 1, LLVMBuildSelect(b, less, m, n, ""));
  LLVMBuildRet(b, p);
}

static LLVMValueRef realloc_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i64, c->ptr};
  return helper(c, "lt.shadow.realloc", c->ptr, pt, 3, fill_realloc);
}

LLVMValueRef lt_shadow_alloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef size,
                             LLVMValueRef align, LLVMValueRef primal) {
  LLVMValueRef f = alloc_fn(c);
  LLVMValueRef args[3] = {LLVMBuildZExtOrBitCast(b, size, c->i64, ""),
                          align ? LLVMBuildZExtOrBitCast(b, align, c->i64, "")
                                : LLVMConstInt(c->i64, 16, 0),
                          primal ? primal : LLVMConstNull(c->ptr)};
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
}

/* A local that vectorised code may walk (an array, a struct, a vector, a
 * run-time count of elements; 16 bytes or more) and its shadow are both
 * aligned to 64 bytes: a program that picks its first aligned element from
 * the primal's address at run time (Eigen's vectorised loops over a
 * 24-byte Matrix<double, Dynamic, 1, 0, 3, 1>) then finds the shadow
 * aligned alike, and its aligned vector accesses copied onto the shadow
 * hold there too (a shadow at 8 mod 16 beside a primal at 0 mod 16 was a
 * segfault at -O0: fuzz --eigen seed 400003). Heap shadows keep the
 * primal's address modulo 64 the same way (above). */
unsigned lt_local_align(LtCtx *c, LLVMValueRef alloca) {
  unsigned al = LLVMGetAlignment(alloca);
  LLVMTypeRef t = LLVMGetAllocatedType(alloca);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  LLVMValueRef n = LLVMGetOperand(alloca, 0);
  unsigned long long cnt = LLVMIsAConstantInt(n) ? LLVMConstIntGetZExtValue(n) : 0;
  if (cnt == 1 && k != LLVMArrayTypeKind && k != LLVMStructTypeKind &&
      k != LLVMVectorTypeKind)
    return al;
  if (cnt && LLVMABISizeOfType(c->td, t) * cnt < 16)
    return al;
  return al < 64 ? 64 : al;
}

void lt_shadow_free(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p) {
  LLVMValueRef f = free_fn(c);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &p, 1, "");
}

LLVMValueRef lt_shadow_realloc(LtCtx *c, LLVMBuilderRef b, LLVMValueRef old,
                               LLVMValueRef size, LLVMValueRef primal) {
  LLVMValueRef f = realloc_fn(c);
  LLVMValueRef args[3] = {old, LLVMBuildZExtOrBitCast(b, size, c->i64, ""),
                          primal ? primal : LLVMConstNull(c->ptr)};
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
}

LLVMValueRef lt_shadow_size(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p) {
  LLVMValueRef f = size_fn(c);
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &p, 1, "");
}

int lt_shadow_plain(LtActivity *a, LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  const LtAllocFn *af = LLVMIsACallInst(call) ? lt_alloc_fn(call) : NULL;
  return af && af->old_arg < 0 && af->out_arg < 0 && len > 3 && !strncmp(n, "_Zn", 3) &&
         lt_points_escapes(&a->pts, call);
}

LLVMValueRef lt_shadow_alloc_plain(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call,
                                   LLVMValueRef size) {
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMValueRef args[4];
  for (unsigned k = 0; k < n && k < 4; k++)
    args[k] = LLVMGetOperand(call, k);
  LLVMValueRef s = LLVMBuildCall2(b, LLVMGetCalledFunctionType(call), LLVMGetCalledValue(call),
                                  args, n < 4 ? n : 4, "");
  LLVMBuildMemSet(b, s, LLVMConstInt(c->i8, 0, 0), size, 1);
  return s;
}
