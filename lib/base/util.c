/* util.c: containers and small IR helpers shared by every pass.
 *
 * LtMap is an open-addressing pointer map (linear probing, power-of-two
 * capacity, never shrinks); LtVec a growable pointer array. The IR helpers
 * declare libc allocation functions with correct 64-bit signatures (the C
 * API's LLVMBuildMalloc truncates sizes to i32), define the generated
 * code's internal lt.* helpers once per module, and run nested pipelines.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "lt.h"

#include <time.h>

#include <llvm-c/Transforms/PassBuilder.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *lt_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fputs("leantape: out of memory\n", stderr);
    abort();
  }
  return p;
}

char *lt_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = lt_xcalloc(n, 1);
  memcpy(p, s, n);
  return p;
}

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

void lt_map_init(LtMap *m, size_t hint) {
  size_t cap = 16;
  while (cap < hint * 2)
    cap *= 2;
  m->keys = lt_xcalloc(cap, sizeof *m->keys);
  m->vals = lt_xcalloc(cap, sizeof *m->vals);
  m->cap = cap;
  m->n = 0;
}

void lt_map_free(LtMap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

void *lt_map_get(const LtMap *m, const void *key) {
  if (!m->cap || !key)
    return NULL;
  for (size_t i = hash_ptr(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key)
      return m->vals[i];
    if (!m->keys[i])
      return NULL;
  }
}

static void grow(LtMap *m) {
  LtMap n;
  lt_map_init(&n, m->cap);
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i])
      lt_map_put(&n, m->keys[i], m->vals[i]);
  lt_map_free(m);
  *m = n;
}

void lt_map_put(LtMap *m, const void *key, void *val) {
  if (!m->cap)
    lt_map_init(m, 16);
  if ((m->n + 1) * 2 > m->cap)
    grow(m);
  for (size_t i = hash_ptr(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) {
      m->vals[i] = val;
      return;
    }
    if (!m->keys[i]) {
      m->keys[i] = (void *)key;
      m->vals[i] = val;
      m->n++;
      return;
    }
  }
}

void lt_vec_push(LtVec *v, void *p) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    void **nv = lt_xcalloc(cap, sizeof *nv);
    if (v->n)
      memcpy(nv, v->v, v->n * sizeof *nv);
    free(v->v);
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = p;
}

void lt_vec_free(LtVec *v) {
  free(v->v);
  memset(v, 0, sizeof *v);
}

int lt_is_float_ty(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMX86_FP80TypeKind:
  case LLVMFP128TypeKind:
    return 1;
  default:
    return 0;
  }
}

int lt_target_64(LLVMModuleRef m) {
  const char *t = LLVMGetTarget(m);
  return t && (!strncmp(t, "x86_64", 6) || !strncmp(t, "aarch64", 7) ||
               !strncmp(t, "arm64", 5));
}

int lt_is_ptr_ty(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind;
}

LLVMValueRef lt_called_fn(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  return callee ? LLVMIsAFunction(callee) : NULL;
}

const char *lt_callee_name(LLVMValueRef call, size_t *len) {
  LLVMValueRef f = lt_called_fn(call);
  if (!f) {
    *len = 0;
    return "";
  }
  return LLVMGetValueName2(f, len);
}

/* to gets from's metadata (!tbaa, !alias.scope, ...) and debug location */
void lt_copy_md(LLVMContextRef x, LLVMValueRef to, LLVMValueRef from) {
  size_t n = 0;
  LLVMValueMetadataEntry *e = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &n);
  for (size_t k = 0; k < n; k++)
    LLVMSetMetadata(to, LLVMValueMetadataEntriesGetKind(e, (unsigned)k),
                    LLVMMetadataAsValue(x, LLVMValueMetadataEntriesGetMetadata(e, (unsigned)k)));
  if (e)
    LLVMDisposeValueMetadataEntries(e);
  LLVMInstructionSetDebugLoc(to, LLVMInstructionGetDebugLoc(from));
}

LLVMValueRef lt_first_non_phi(LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && LLVMIsAPHINode(i))
    i = LLVMGetNextInstruction(i);
  return i;
}

LLVMValueRef lt_decl_fn(LLVMModuleRef m, const char *name, LLVMTypeRef fty) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  return f ? f : LLVMAddFunction(m, name, fty);
}

LLVMValueRef lt_helper_fn(LtCtx *c, const char *name, LLVMTypeRef fty,
                          LLVMBasicBlockRef *entry) {
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  *entry = NULL;
  if (f)
    return f;
  f = LLVMAddFunction(c->mod, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  *entry = LLVMAppendBasicBlockInContext(c->llctx, f, "entry");
  return f;
}

static LLVMTypeRef ptr_ty(LLVMModuleRef m) {
  return LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
}

static LLVMTypeRef i64_ty(LLVMModuleRef m) {
  return LLVMInt64TypeInContext(LLVMGetModuleContext(m));
}

LLVMValueRef lt_build_slot(LLVMBuilderRef b, LLVMTypeRef t, unsigned align, const char *name) {
  LLVMValueRef s = LLVMBuildAlloca(b, t, name);
  if (align)
    LLVMSetAlignment(s, align);
  return lt_ptr_as(b, s, LLVMPointerTypeInContext(LLVMGetTypeContext(t), 0));
}

LLVMValueRef lt_ptr_as(LLVMBuilderRef b, LLVMValueRef p, LLVMTypeRef t) {
  return LLVMTypeOf(p) == t ? p : LLVMBuildPointerCast(b, p, t, "");
}

LLVMValueRef lt_build_malloc(LLVMBuilderRef b, LLVMModuleRef m,
                             LLVMValueRef size) {
  LLVMTypeRef p[1] = {i64_ty(m)};
  LLVMTypeRef fty = LLVMFunctionType(ptr_ty(m), p, 1, 0);
  LLVMValueRef a[1] = {size};
  return LLVMBuildCall2(b, fty, lt_decl_fn(m, "malloc", fty), a, 1, "");
}

LLVMValueRef lt_build_calloc(LLVMBuilderRef b, LLVMModuleRef m,
                             LLVMValueRef size) {
  LLVMTypeRef p[2] = {i64_ty(m), i64_ty(m)};
  LLVMTypeRef fty = LLVMFunctionType(ptr_ty(m), p, 2, 0);
  LLVMValueRef a[2] = {LLVMConstInt(i64_ty(m), 1, 0), size};
  return LLVMBuildCall2(b, fty, lt_decl_fn(m, "calloc", fty), a, 2, "");
}

void lt_build_free(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef p) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef pt[1] = {ptr_ty(m)};
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), pt, 1, 0);
  LLVMValueRef a[1] = {p};
  LLVMBuildCall2(b, fty, lt_decl_fn(m, "free", fty), a, 1, "");
}

double lt_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int lt_run_pipeline(LtCtx *c, LLVMValueRef fn, const char *pipeline) {
  double t0 = lt_now();
  const char *dump = getenv("LEANTAPE_DUMP_MODULE"); /* debugging */
  if (dump)
    LLVMPrintModuleToFile(LLVMGetGlobalParent(fn), dump, NULL);
  LLVMErrorRef e = c->host->run_passes(c->host->self, fn, pipeline);
  if (getenv("LEANTAPE_TIME")) /* debugging: where compile time goes */
    fprintf(stderr, "leantape time: %.3f s in \"%s\" on %s\n", lt_now() - t0, pipeline,
            LLVMGetValueName2(fn, &(size_t){0}));
  if (!e)
    return 0;
  LLVMConsumeError(e);
  return -1;
}

void lt_erase_fn(LtCtx *c, LLVMValueRef fn) {
  lt_llvm_forget(c, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    while (LLVMGetLastInstruction(bb))
      LLVMInstructionEraseFromParent(LLVMGetLastInstruction(bb));
  while (LLVMGetFirstBasicBlock(fn))
    LLVMDeleteBasicBlock(LLVMGetFirstBasicBlock(fn));
  if (LLVMGetFirstUse(fn))
    LLVMReplaceAllUsesWith(fn, LLVMGetPoison(LLVMTypeOf(fn)));
  LLVMDeleteFunction(fn);
}

LLVMValueRef lt_access_addr(LLVMValueRef i) {
  if (LLVMIsALoadInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
    return LLVMGetOperand(i, 0);
  if (LLVMIsAStoreInst(i))
    return LLVMGetOperand(i, 1);
  return NULL;
}

LLVMValueRef lt_phi_same(LLVMValueRef phi) {
  LLVMValueRef v = NULL;
  for (unsigned k = 0, n = LLVMCountIncoming(phi); k < n; k++) {
    LLVMValueRef x = LLVMGetIncomingValue(phi, k);
    if (x == phi || x == v)
      continue;
    if (v)
      return NULL;
    v = x;
  }
  return v;
}

LLVMValueRef lt_base_of(LLVMValueRef p) {
  for (;;) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
        LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else if (LLVMIsAPHINode(p) && lt_phi_same(p))
      p = lt_phi_same(p); /* an LCSSA PHI (prep's pipeline ends in lcssa) */
    else if (LLVMIsAConstantExpr(p) && (LLVMGetConstOpcode(p) == LLVMGetElementPtr ||
                                        LLVMGetConstOpcode(p) == LLVMBitCast))
      p = LLVMGetOperand(p, 0);
    else
      return p;
  }
}


int lt_is_diff_ty(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMVectorTypeKind:
  case LLVMArrayTypeKind:
    return lt_is_diff_ty(LLVMGetElementType(t));
  case LLVMStructTypeKind:
    for (unsigned k = 0, n = LLVMCountStructElementTypes(t); k < n; k++)
      if (lt_is_diff_ty(LLVMStructGetTypeAtIndex(t, k)))
        return 1;
    return 0;
  default:
    return lt_is_float_ty(t);
  }
}

int lt_is_aggregate_ty(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMStructTypeKind || k == LLVMArrayTypeKind;
}

static unsigned agg_len(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMStructTypeKind
             ? LLVMCountStructElementTypes(t)
             : (unsigned)LLVMGetArrayLength2(t);
}

static LLVMTypeRef agg_elem(LLVMTypeRef t, unsigned k) {
  return LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, k)
                                                  : LLVMGetElementType(t);
}

/* A constant of type t whose floating-point leaves are v. */
static LLVMValueRef fill(LLVMTypeRef t, double v) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (lt_is_float_ty(t))
    return LLVMConstReal(t, v);
  if (k == LLVMVectorTypeKind && lt_is_float_ty(LLVMGetElementType(t))) {
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef e[64];
    if (n > 64)
      return LLVMConstNull(t);
    for (unsigned i = 0; i < n; i++)
      e[i] = LLVMConstReal(LLVMGetElementType(t), v);
    return LLVMConstVector(e, n);
  }
  if (!lt_is_aggregate_ty(t) || !lt_is_diff_ty(t))
    return LLVMConstNull(t);
  unsigned n = agg_len(t);
  LLVMValueRef *e = lt_xcalloc(n, sizeof *e);
  for (unsigned i = 0; i < n; i++)
    e[i] = fill(agg_elem(t, i), v);
  LLVMValueRef r =
      k == LLVMStructTypeKind
          ? LLVMConstNamedStruct(t, e, n)
          : LLVMConstArray2(LLVMGetElementType(t), e, n);
  if (k == LLVMStructTypeKind && !LLVMGetStructName(t))
    r = LLVMConstStructInContext(LLVMGetTypeContext(t), e, n, LLVMIsPackedStruct(t));
  free(e);
  return r;
}

LLVMValueRef lt_adj_init(LLVMTypeRef t) { return fill(t, -0.0); }
LLVMValueRef lt_const_fill(LLVMTypeRef t, double v) { return fill(t, v); }

LLVMValueRef lt_build_accum(LLVMBuilderRef b, LLVMValueRef acc, LLVMValueRef d) {
  LLVMTypeRef t = LLVMTypeOf(acc);
  if (lt_is_aggregate_ty(t)) {
    /* Field by field; fields without floats keep acc's value. */
    for (unsigned k = 0, n = agg_len(t); k < n; k++) {
      if (!lt_is_diff_ty(agg_elem(t, k)))
        continue;
      LLVMValueRef a = LLVMBuildExtractValue(b, acc, k, "");
      LLVMValueRef x = LLVMBuildExtractValue(b, d, k, "");
      acc = LLVMBuildInsertValue(b, acc, lt_build_accum(b, a, x), k, "");
    }
    return acc;
  }
  LLVMValueRef s = LLVMBuildFAdd(b, acc, d, "");
  /* reassoc: an adjoint is the sum of its contributions, added in whatever
   * order the reverse pass happens to visit them; no order is the
   * program's, so another (a vector reduction's partial sums, issue 17)
   * rounds no worse, and the program's own operations keep their flags.
   * Without it LLVM may not reorder the sum, and a reverse loop summing
   * into one adjoint (a scalar's, gemm's dA[i][k]) stays scalar. */
  if (LLVMIsAInstruction(s) && LLVMCanValueUseFastMathFlags(s))
    LLVMSetFastMathFlags(s, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
  return s;
}

/* PHIs of bb lose their incoming values from pred (one edge of it); the C
 * API cannot remove an incoming value, so each PHI is rebuilt. */
void lt_phi_drop_edge(LLVMBasicBlockRef bb, LLVMBasicBlockRef pred) {
  LLVMContextRef c = LLVMGetModuleContext(
      LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i && LLVMIsAPHINode(i);
       i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMPositionBuilderBefore(b, i);
    LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(i), "");
    int dropped = 0;
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) {
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(i, k);
      LLVMValueRef v = LLVMGetIncomingValue(i, k);
      if (ib == pred && !dropped) {
        dropped = 1;
        continue;
      }
      LLVMAddIncoming(np, &v, &ib, 1);
    }
    size_t len;
    char *nm = lt_strdup(LLVMGetValueName2(i, &len));
    LLVMReplaceAllUsesWith(i, np);
    LLVMInstructionEraseFromParent(i);
    LLVMSetValueName2(np, nm, strlen(nm));
    free(nm);
  }
  LLVMDisposeBuilder(b);
}

/* An invoke becomes a branch to its normal destination (the instructions
 * that replace it go before it); its unwind edge disappears. */
void lt_invoke_to_branch(LLVMValueRef inv) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inv);
  LLVMBasicBlockRef normal = LLVMGetNormalDest(inv);
  LLVMBasicBlockRef unwind = LLVMGetUnwindDest(inv);
  LLVMContextRef c = LLVMGetModuleContext(
      LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb)));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, inv);
  LLVMBuildBr(b, normal);
  LLVMDisposeBuilder(b);
  if (unwind != normal)
    lt_phi_drop_edge(unwind, bb);
}

static void copy_call_attrs(LLVMValueRef from, LLVMValueRef to, unsigned nargs) {
  LLVMAttributeIndex idx[] = {LLVMAttributeFunctionIndex, LLVMAttributeReturnIndex};
  for (unsigned k = 0; k < nargs + 2; k++) {
    LLVMAttributeIndex at = k < 2 ? idx[k] : k - 1;
    unsigned n = LLVMGetCallSiteAttributeCount(from, at);
    if (!n)
      continue;
    LLVMAttributeRef *a = lt_xcalloc(n, sizeof *a);
    LLVMGetCallSiteAttributes(from, at, a);
    for (unsigned i = 0; i < n; i++)
      LLVMAddCallSiteAttribute(to, at, a[i]);
    free(a);
  }
}

LLVMValueRef lt_invoke_to_call(LLVMValueRef inv) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inv);
  LLVMContextRef c = LLVMGetModuleContext(
      LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb)));
  unsigned nargs = LLVMGetNumArgOperands(inv);
  LLVMValueRef *args = lt_xcalloc(nargs + 1, sizeof *args);
  for (unsigned k = 0; k < nargs; k++)
    args[k] = LLVMGetOperand(inv, k);
  unsigned nb = LLVMGetNumOperandBundles(inv);
  LLVMOperandBundleRef *bundles = lt_xcalloc(nb + 1, sizeof *bundles);
  for (unsigned k = 0; k < nb; k++)
    bundles[k] = LLVMGetOperandBundleAtIndex(inv, k);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderBefore(b, inv);
  size_t len;
  char *nm = lt_strdup(LLVMGetValueName2(inv, &len));
  LLVMValueRef call = LLVMBuildCallWithOperandBundles(
      b, LLVMGetCalledFunctionType(inv), LLVMGetCalledValue(inv), args, nargs,
      bundles, nb, "");
  LLVMSetInstructionCallConv(call, LLVMGetInstructionCallConv(inv));
  copy_call_attrs(inv, call, nargs);
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(inv));
  for (unsigned k = 0; k < nb; k++)
    LLVMDisposeOperandBundle(bundles[k]);
  free(bundles);
  free(args);
  LLVMDisposeBuilder(b);
  if (LLVMGetTypeKind(LLVMTypeOf(inv)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(inv, call);
  lt_invoke_to_branch(inv);
  LLVMInstructionEraseFromParent(inv);
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind)
    LLVMSetValueName2(call, nm, strlen(nm));
  free(nm);
  return call;
}

/* Blocks no path from the entry reaches are deleted (after invokes became
 * calls, landing pads are left behind without predecessors). */
void lt_delete_unreachable(LLVMValueRef fn) {
  LtMap seen;
  LtVec stack = {0}, dead = {0};
  lt_map_init(&seen, 64);
  LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(fn);
  lt_map_put(&seen, e, (void *)1);
  lt_vec_push(&stack, e);
  while (stack.n) {
    LLVMBasicBlockRef bb = stack.v[--stack.n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    for (unsigned k = 0, n = t ? LLVMGetNumSuccessors(t) : 0; k < n; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      if (!lt_map_get(&seen, s)) {
        lt_map_put(&seen, s, (void *)1);
        lt_vec_push(&stack, s);
      }
    }
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    if (!lt_map_get(&seen, bb))
      lt_vec_push(&dead, bb);
  for (size_t i = 0; i < dead.n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(dead.v[i]);
    for (unsigned k = 0, n = t ? LLVMGetNumSuccessors(t) : 0; k < n; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      if (lt_map_get(&seen, s))
        lt_phi_drop_edge(s, dead.v[i]);
    }
    for (LLVMValueRef in = LLVMGetFirstInstruction(dead.v[i]); in;
         in = LLVMGetNextInstruction(in))
      if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
  }
  for (size_t i = 0; i < dead.n; i++)
    while (LLVMGetLastInstruction(dead.v[i]))
      LLVMInstructionEraseFromParent(LLVMGetLastInstruction(dead.v[i]));
  for (size_t i = 0; i < dead.n; i++)
    LLVMDeleteBasicBlock(dead.v[i]);
  lt_map_free(&seen);
  lt_vec_free(&stack);
  lt_vec_free(&dead);
}

int lt_same_layout(LLVMTypeRef a, LLVMTypeRef b) {
  if (a == b)
    return 1;
  if (!lt_is_aggregate_ty(a) || !lt_is_aggregate_ty(b) || agg_len(a) != agg_len(b))
    return 0;
  for (unsigned k = 0, n = agg_len(a); k < n; k++)
    if (!lt_same_layout(agg_elem(a, k), agg_elem(b, k)))
      return 0;
  return 1;
}

LLVMValueRef lt_convert_layout(LLVMBuilderRef b, LLVMValueRef v, LLVMTypeRef want) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (t == want)
    return v;
  LLVMValueRef r = LLVMGetUndef(want);
  for (unsigned k = 0, n = agg_len(want); k < n; k++)
    r = LLVMBuildInsertValue(
        b, r, lt_convert_layout(b, LLVMBuildExtractValue(b, v, k, ""), agg_elem(want, k)),
        k, "");
  return r;
}

static LLVMValueRef from_leaves(LLVMBuilderRef b, LLVMTypeRef t,
                                LLVMValueRef const *v, unsigned n, unsigned *k) {
  if (!lt_is_aggregate_ty(t))
    return *k < n ? v[(*k)++] : LLVMGetUndef(t);
  LLVMValueRef r = LLVMGetUndef(t);
  for (unsigned e = 0, m = agg_len(t); e < m; e++)
    r = LLVMBuildInsertValue(b, r, from_leaves(b, agg_elem(t, e), v, n, k), e, "");
  return r;
}

LLVMValueRef lt_build_from_leaves(LLVMBuilderRef b, LLVMTypeRef t,
                                  LLVMValueRef const *v, unsigned n) {
  unsigned k = 0;
  return from_leaves(b, t, v, n, &k);
}
