/* clone.c: copy function bodies and inline calls, in C.
 *
 * The C API has no CloneFunctionInto or value mapper, so bodies are copied
 * in two phases: create every block and instruction (LLVMInstructionClone
 * keeps flags, attributes and metadata; PHIs are rebuilt because their
 * incoming blocks cannot be retargeted), then remap operands through the
 * value map. Inlining splits the call's block by moving the instructions
 * before the call into a new block, so no PHI elsewhere needs new incoming
 * blocks, then clones the callee between the two halves.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

/* The attributes of f at idx (freed by the caller), *n of them. */
static LLVMAttributeRef *attrs_at(LLVMValueRef f, unsigned idx, unsigned *n) {
  *n = LLVMGetAttributeCountAtIndex(f, idx);
  LLVMAttributeRef *a = lt_xcalloc(*n + 1, sizeof *a);
  if (*n)
    LLVMGetAttributesAtIndex(f, idx, a);
  return a;
}

static void copy_attrs(LLVMValueRef from, LLVMValueRef to, unsigned fidx,
                       unsigned tidx) {
  unsigned n;
  LLVMAttributeRef *a = attrs_at(from, fidx, &n);
  for (unsigned i = 0; i < n; i++)
    LLVMAddAttributeAtIndex(to, tidx, a[i]);
  free(a);
}

void lt_drop_param_attrs(LLVMValueRef f, unsigned p) {
  unsigned n;
  LLVMAttributeRef *a = attrs_at(f, p + 1, &n);
  for (unsigned i = 0; i < n; i++)
    if (LLVMIsEnumAttribute(a[i]) || LLVMIsTypeAttribute(a[i]))
      LLVMRemoveEnumAttributeAtIndex(f, p + 1, LLVMGetEnumAttributeKind(a[i]));
  free(a);
}

static void drop_fn_attr(LLVMValueRef f, const char *name) {
  unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k);
}

LLVMValueRef lt_clone_decl(LLVMValueRef src, const char *name,
                           LLVMTypeRef fty) {
  LLVMModuleRef m = LLVMGetGlobalParent(src);
  LLVMValueRef f = LLVMAddFunction(m, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  /* The C convention: Leantape's calls of its functions use it (at -O2 an
   * internal callee may be fastcc, and a call with another convention is
   * undefined behaviour, which instcombine turns into unreachable). */
  LLVMSetFunctionCallConv(f, LLVMCCallConv);
  copy_attrs(src, f, LLVMAttributeFunctionIndex, LLVMAttributeFunctionIndex);
  drop_fn_attr(f, "optnone");
  drop_fn_attr(f, "noinline");
  /* Memory effects and return attributes of src do not describe the
   * derivative, which writes shadows and returns something else. */
  drop_fn_attr(f, "memory");
  drop_fn_attr(f, "willreturn");
  drop_fn_attr(f, "nosync");
  drop_fn_attr(f, "nofree");
  drop_fn_attr(f, "speculatable");
  drop_fn_attr(f, "nocallback");
  unsigned np = LLVMCountParams(src), nf = LLVMCountParams(f);
  LLVMTypeRef want = LLVMGlobalGetValueType(src);
  if (LLVMGetReturnType(fty) == LLVMGetReturnType(want))
    copy_attrs(src, f, LLVMAttributeReturnIndex, LLVMAttributeReturnIndex);
  for (unsigned i = 0; i < np && i < nf; i++) {
    size_t len;
    const char *nm = LLVMGetValueName2(LLVMGetParam(src, i), &len);
    LLVMSetValueName2(LLVMGetParam(f, i), nm, len);
    if (fty == want) /* a faithful clone keeps noalias, nonnull, ... */
      copy_attrs(src, f, i + 1, i + 1);
  }
  return f;
}

LLVMValueRef lt_clone_fn(LLVMValueRef src, const char *name, int keep_dbg) {
  LLVMValueRef f = lt_clone_decl(src, name, LLVMGlobalGetValueType(src));
  LtMap vm;
  lt_map_init(&vm, 64);
  for (unsigned i = 0, n = LLVMCountParams(src); i < n; i++)
    lt_map_put(&vm, LLVMGetParam(src, i), LLVMGetParam(f, i));
  lt_clone_body(&vm, src, f, NULL, keep_dbg);
  lt_map_free(&vm);
  return f;
}

static LLVMValueRef map_val(LtMap *vm, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(vm, v);
  return m ? m : v;
}

static LLVMBasicBlockRef map_bb(LtMap *vm, LLVMBasicBlockRef bb) {
  return LLVMValueAsBasicBlock(map_val(vm, LLVMBasicBlockAsValue(bb)));
}

LLVMBasicBlockRef lt_clone_blocks(LtMap *vm, LLVMBasicBlockRef *blocks, unsigned n,
                                  LLVMValueRef dst, LLVMBasicBlockRef before, int keep_dbg) {
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(dst));
  LLVMBasicBlockRef first = NULL;
  for (unsigned k = 0; k < n; k++) {
    LLVMBasicBlockRef bb = blocks[k];
    const char *nm = LLVMGetBasicBlockName(bb);
    LLVMBasicBlockRef nb = before ? LLVMInsertBasicBlockInContext(c, before, nm)
                                  : LLVMAppendBasicBlockInContext(c, dst, nm);
    if (!first)
      first = nb;
    lt_map_put(vm, LLVMBasicBlockAsValue(bb), LLVMBasicBlockAsValue(nb));
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  /* Debug records are not cloned, so the assignment-tracking links that
   * point to them must go. */
  unsigned assign_id = LLVMGetMDKindIDInContext(c, "DIAssignID", 10);
  for (unsigned k = 0; k < n; k++) {
    LLVMBasicBlockRef bb = blocks[k];
    LLVMPositionBuilderAtEnd(b, map_bb(vm, bb));
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      size_t len;
      const char *nm = LLVMGetValueName2(i, &len);
      LLVMValueRef ni;
      if (LLVMIsAPHINode(i)) {
        ni = LLVMBuildPhi(b, LLVMTypeOf(i), nm);
      } else {
        ni = LLVMInstructionClone(i);
        LLVMInsertIntoBuilderWithName(b, ni, nm);
      }
      if (!LLVMIsAPHINode(i) && LLVMGetMetadata(ni, assign_id))
        LLVMSetMetadata(ni, assign_id, NULL);
      if (!keep_dbg)
        LLVMInstructionSetDebugLoc(ni, NULL);
      else
        LLVMInstructionSetDebugLoc(ni, LLVMInstructionGetDebugLoc(i));
      lt_map_put(vm, i, ni);
    }
  }
  LLVMDisposeBuilder(b);
  for (unsigned k = 0; k < n; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(blocks[k]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef ni = lt_map_get(vm, i);
      if (LLVMIsAPHINode(i)) {
        for (unsigned m = 0, nin = LLVMCountIncoming(i); m < nin; m++) {
          LLVMValueRef v = map_val(vm, LLVMGetIncomingValue(i, m));
          LLVMBasicBlockRef ib = map_bb(vm, LLVMGetIncomingBlock(i, m));
          LLVMAddIncoming(ni, &v, &ib, 1);
        }
        continue;
      }
      for (int m = 0, no = LLVMGetNumOperands(ni); m < no; m++) {
        LLVMValueRef op = LLVMGetOperand(ni, (unsigned)m);
        LLVMValueRef mo = op ? lt_map_get(vm, op) : NULL;
        if (mo)
          LLVMSetOperand(ni, (unsigned)m, mo);
      }
    }
  return first;
}

LLVMBasicBlockRef lt_clone_body(LtMap *vm, LLVMValueRef src, LLVMValueRef dst,
                                LLVMBasicBlockRef before, int keep_dbg) {
  unsigned n = LLVMCountBasicBlocks(src);
  LLVMBasicBlockRef *blocks = lt_xcalloc(n + 1, sizeof *blocks);
  LLVMGetBasicBlocks(src, blocks);
  LLVMBasicBlockRef first = lt_clone_blocks(vm, blocks, n, dst, before, keep_dbg);
  free(blocks);
  return first;
}

LLVMBasicBlockRef lt_split_before(LLVMContextRef c, LLVMValueRef at) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef pre = LLVMInsertBasicBlockInContext(c, bb, "lt.pre");
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p;
       p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    if (!t || p == pre)
      continue;
    for (unsigned s = 0, n = LLVMGetNumSuccessors(t); s < n; s++)
      if (LLVMGetSuccessor(t, s) == bb)
        LLVMSetSuccessor(t, s, pre);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMPositionBuilderAtEnd(b, pre);
  while (LLVMGetFirstInstruction(bb) != at) {
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    size_t len;
    char *nm = lt_strdup(LLVMGetValueName2(i, &len));
    LLVMInstructionRemoveFromParent(i);
    LLVMInsertIntoBuilderWithName(b, i, nm);
    free(nm);
  }
  LLVMDisposeBuilder(b);
  return pre;
}

int lt_inline_call(LtCtx *c, LLVMValueRef call, int keep_dbg) {
  LLVMValueRef callee = lt_called_fn(call);
  if (!callee || LLVMIsDeclaration(callee) ||
      LLVMIsFunctionVarArg(LLVMGlobalGetValueType(callee)))
    return -1;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
  LLVMValueRef caller = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(caller);
  LLVMBasicBlockRef pre = lt_split_before(c->llctx, call);
  if (entry == bb) {
    LLVMMoveBasicBlockBefore(pre, bb);
    entry = pre;
  }
  LtMap vm;
  lt_map_init(&vm, 64);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, pre);
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  for (unsigned i = 0, n = LLVMCountParams(callee); i < n; i++) {
    LLVMValueRef arg = LLVMGetOperand(call, i);
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(callee, i + 1, byval);
    if (bv) {
      /* A byval parameter is the callee's own copy. */
      LLVMTypeRef t = LLVMGetTypeAttributeValue(bv);
      LLVMValueRef copy = LLVMBuildAlloca(b, t, "lt.byval");
      LLVMBuildMemCpy(b, copy, 8, arg, 1,
                      LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, t), 0));
      arg = lt_ptr_as(b, copy, LLVMTypeOf(arg));
    }
    lt_map_put(&vm, LLVMGetParam(callee, i), arg);
  }
  LLVMBasicBlockRef body = lt_clone_body(&vm, callee, caller, bb, keep_dbg);
  /* `tail` promises that the callee's calls touch none of its allocas;
   * the caller's may now reach them (a std::map local to the caller, its
   * header passed to _Rb_tree_insert_and_rebalance): LICM would hoist the
   * header's loads out of the loop that inserts. LLVM's inliner drops the
   * marker too. */
  for (LLVMBasicBlockRef cb = LLVMGetFirstBasicBlock(callee); cb; cb = LLVMGetNextBasicBlock(cb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(cb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef ni = LLVMIsACallInst(i) ? lt_map_get(&vm, i) : NULL;
      if (ni && LLVMGetTailCallKind(ni) == LLVMTailCallKindTail)
        LLVMSetTailCallKind(ni, LLVMTailCallKindNone);
    }
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMBuildBr(b, body);
  /* Static allocas go to the caller's entry so mem2reg can promote them. */
  LLVMValueRef ins = LLVMGetFirstInstruction(entry);
  for (LLVMValueRef i = LLVMGetFirstInstruction(body); i;) {
    LLVMValueRef next = LLVMGetNextInstruction(i);
    if (LLVMIsAAllocaInst(i) && LLVMIsAConstant(LLVMGetOperand(i, 0)) &&
        body != entry) {
      size_t len;
      char *nm = lt_strdup(LLVMGetValueName2(i, &len));
      LLVMInstructionRemoveFromParent(i);
      LLVMPositionBuilderBefore(b, ins);
      LLVMInsertIntoBuilderWithName(b, i, nm);
      free(nm);
    }
    i = next;
  }
  /* Returns become branches to the continuation; the result is a PHI. */
  LLVMTypeRef rty = LLVMTypeOf(call);
  int has_val = LLVMGetTypeKind(rty) != LLVMVoidTypeKind;
  LLVMValueRef phi = NULL;
  if (has_val) {
    LLVMPositionBuilderBefore(b, call);
    phi = LLVMBuildPhi(b, rty, "lt.ret");
  }
  for (LLVMBasicBlockRef cb = LLVMGetFirstBasicBlock(callee); cb;
       cb = LLVMGetNextBasicBlock(cb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cb);
    if (!t || !LLVMIsAReturnInst(t))
      continue;
    LLVMValueRef nt = lt_map_get(&vm, t);
    LLVMBasicBlockRef nb = LLVMGetInstructionParent(nt);
    if (has_val) {
      LLVMValueRef v = LLVMGetOperand(nt, 0);
      LLVMAddIncoming(phi, &v, &nb, 1);
    }
    LLVMInstructionEraseFromParent(nt);
    LLVMPositionBuilderAtEnd(b, nb);
    LLVMBuildBr(b, bb);
  }
  LLVMDisposeBuilder(b);
  lt_map_free(&vm);
  if (has_val) {
    if (LLVMCountIncoming(phi) == 0) {
      LLVMReplaceAllUsesWith(phi, LLVMGetPoison(rty));
      LLVMInstructionEraseFromParent(phi);
      phi = LLVMGetPoison(rty);
    }
    LLVMReplaceAllUsesWith(call, phi);
  }
  LLVMInstructionEraseFromParent(call);
  return 0;
}
