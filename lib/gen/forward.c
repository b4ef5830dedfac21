/* forward.c: the augmented forward function A.
 *
 * A is a clone of the preprocessed primal P with extra parameters (one
 * shadow per dup argument, then the tape) and shadow computations: every
 * shadowed pointer of P gets a twin that addresses shadow memory (GEPs and
 * casts mirrored, PHIs and selects of shadows, shadow loads of stored
 * pointers, zeroed shadow allocations). Shadow memory is only written in A
 * where it holds pointers; float shadows belong to the reverse pass.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>

#include <string.h>

static LLVMValueRef amap(LtGen *g, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(&g->fmap, v);
  return m ? m : v;
}

/* Shadow of a P pointer in A: its twin, or null when the pointer only
 * addresses inactive memory (a pointer that may address active memory too
 * carries that null: guard.c). NULL when a twin should exist but does not. */
static LLVMValueRef ashadow(LtGen *g, LLVMValueRef v) {
  LLVMValueRef s = lt_map_get(&g->fshadow, v);
  if (s)
    return s;
  if (LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v))
    return v;
  if (LLVMIsAConstant(v) && lt_is_shadowed(&g->act_of, v))
    return lt_shadow_const(g->c, v); /* a shadow global's address */
  if (!lt_is_shadowed(&g->act_of, v) && !lt_is_ptr_word(&g->act_of, v))
    return LLVMConstNull(LLVMTypeOf(v));
  return NULL;
}

static LLVMValueRef need_shadow(LtGen *g, LLVMValueRef v, LLVMValueRef at) {
  LLVMValueRef s = ashadow(g, v);
  if (!s) {
    (void)at;
    lt_internal_error(g->c, g->P, "a shadowed pointer has no shadow");
    g->failed = 1;
    return LLVMGetPoison(LLVMTypeOf(v));
  }
  return s;
}

static LLVMValueRef need_shadow_at(LtGen *g, LLVMValueRef v) {
  return need_shadow(g, v, NULL);
}

static int maynull(LtGen *g, LLVMValueRef v) {
  return lt_shadow_maynull(&g->act_of, v);
}

static LLVMValueRef sink(LtGen *g) {
  if (!g->a_sink) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->A)));
    g->a_sink = lt_guard_sink(g->c, b);
    LLVMDisposeBuilder(b);
  }
  return g->a_sink;
}

static LLVMValueRef byte_size(LtGen *g, LLVMBuilderRef b, LLVMValueRef alloca) {
  LLVMTypeRef t = LLVMGetAllocatedType(alloca);
  LLVMValueRef n = LLVMBuildZExtOrBitCast(b, amap(g, LLVMGetOperand(alloca, 0)),
                                          g->c->i64, "");
  LLVMValueRef es = LLVMConstInt(g->c->i64, LLVMABISizeOfType(g->c->td, t), 0);
  return LLVMBuildMul(b, n, es, "lt.size");
}

/* The shadow of a heap allocation (heap.c), built at b. */
static LLVMValueRef heap_shadow(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  LLVMValueRef ai = amap(g, i);
  const LtAllocFn *af = lt_alloc_fn(i);
  LLVMValueRef size = LLVMBuildZExtOrBitCast(
      b, LLVMGetOperand(ai, (unsigned)af->size_arg), g->c->i64, "");
  if (af->count_arg >= 0)
    size = LLVMBuildMul(b, size,
                        LLVMBuildZExtOrBitCast(b, LLVMGetOperand(ai, (unsigned)af->count_arg),
                                               g->c->i64, ""),
                        "");
  if (af->old_arg >= 0)
    return lt_shadow_realloc(g->c, b, need_shadow(g, LLVMGetOperand(i, (unsigned)af->old_arg), i),
                             size, ai);
  if (lt_shadow_plain(&g->act_of, i))
    return lt_shadow_alloc_plain(g->c, b, ai, size);
  return lt_shadow_alloc(g->c, b, size,
                         af->align_arg >= 0 ? LLVMGetOperand(ai, (unsigned)af->align_arg) : NULL,
                         af->out_arg >= 0 ? NULL : ai);
}

/* posix_memalign: the block's shadow goes through the shadow of the
 * pointer it was stored through. */
static void out_shadow(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  const LtAllocFn *af = lt_alloc_fn(i);
  LLVMValueRef ai = amap(g, i), out = LLVMGetOperand(i, (unsigned)af->out_arg);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  LLVMValueRef s = heap_shadow(g, b, i);
  LLVMValueRef sp = need_shadow(g, out, i);
  if (maynull(g, out))
    sp = lt_guard_write(g->c, b, sp, sink(g));
  LLVMBuildStore(b, s, sp);
  lt_map_put(&g->fshadow, i, s);
}

static LLVMValueRef shadow_alloc(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  LLVMValueRef ai = amap(g, i);
  if (LLVMIsAAllocaInst(i)) /* the local and its shadow aligned alike */
    LLVMSetAlignment(ai, lt_local_align(g->c, ai));
  if (LLVMIsAAllocaInst(i) && !g->split) {
    LLVMPositionBuilderBefore(b, ai);
    LLVMValueRef s = LLVMBuildArrayAlloca(b, LLVMGetAllocatedType(i),
                                          amap(g, LLVMGetOperand(i, 0)), "");
    LLVMSetAlignment(s, LLVMGetAlignment(ai));
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
    LLVMBuildMemSet(b, s, LLVMConstInt(g->c->i8, 0, 0), byte_size(g, b, i),
                    LLVMGetAlignment(ai));
    return s;
  }
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  if (LLVMIsAAllocaInst(i) && LLVMGetAlignment(ai) > 16) {
    /* as aligned as the slot (a 32-byte Eigen Matrix4d under AVX: its
     * shadow is read with aligned vector loads); freed like calloc's */
    LtCtx *c = g->c;
    LLVMValueRef al = LLVMConstInt(c->i64, LLVMGetAlignment(ai), 0);
    LLVMValueRef m = LLVMConstInt(c->i64, LLVMGetAlignment(ai) - 1, 0);
    LLVMValueRef n = LLVMBuildAnd(b, LLVMBuildAdd(b, byte_size(g, b, i), m, ""),
                                  LLVMBuildNot(b, m, ""), "");
    LLVMTypeRef pt[2] = {c->i64, c->i64};
    LLVMTypeRef fty = LLVMFunctionType(c->ptr, pt, 2, 0);
    LLVMValueRef args[2] = {al, n};
    LLVMValueRef s = LLVMBuildCall2(b, fty, lt_decl_fn(c->mod, "aligned_alloc", fty), args, 2, "");
    LLVMBuildMemSet(b, s, LLVMConstInt(c->i8, 0, 0), n, LLVMGetAlignment(ai));
    return s;
  }
  if (LLVMIsAAllocaInst(i))
    return lt_build_calloc(b, g->c->mod, byte_size(g, b, i));
  return heap_shadow(g, b, i);
}

static LLVMValueRef shadow_of_inst(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  LLVMValueRef ai = amap(g, i);
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  const LtRule *r;
  LtCallKind k = op == LLVMCall ? lt_call_kind(i, &r) : LT_CALL_INACTIVE;
  if (k == LT_CALL_MEMCPY || k == LT_CALL_MEMSET) /* the C library's memcpy (-fno-builtin)
                                                     returns its destination */
    return need_shadow(g, LLVMGetOperand(i, 0), i);
  if (op == LLVMAlloca || op == LLVMCall)
    return shadow_alloc(g, b, i);
  if (op == LLVMPHI) {
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetInstructionParent(ai)));
    return LLVMBuildPhi(b, LLVMTypeOf(i), "");
  }
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  switch (op) {
  case LLVMGetElementPtr: {
    unsigned n = (unsigned)LLVMGetNumOperands(ai) - 1;
    LLVMValueRef idx[64];
    if (n > 64)
      break;
    for (unsigned k = 0; k < n; k++)
      idx[k] = LLVMGetOperand(ai, k + 1);
    LLVMValueRef base = need_shadow(g, LLVMGetOperand(i, 0), i);
    LLVMValueRef s = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(ai), base,
                                   idx, n, "");
    if (LLVMIsAGetElementPtrInst(s))
      LLVMSetIsInBounds(s, LLVMIsInBounds(ai));
    if (maynull(g, LLVMGetOperand(i, 0)))
      s = lt_guard_gep(g->c, b, base, s);
    return s;
  }
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    return LLVMBuildPointerCast(b, need_shadow(g, LLVMGetOperand(i, 0), i),
                                LLVMTypeOf(ai), "");
  case LLVMFreeze:
    return need_shadow(g, LLVMGetOperand(i, 0), i);
  case LLVMIntToPtr:
    if (!lt_is_ptr_word(&g->act_of, LLVMGetOperand(i, 0)))
      break;
    return LLVMBuildIntToPtr(b, need_shadow(g, LLVMGetOperand(i, 0), i), LLVMTypeOf(ai), "");
  case LLVMSelect:
    return LLVMBuildSelect(b, LLVMGetOperand(ai, 0),
                           need_shadow(g, LLVMGetOperand(i, 1), i),
                           need_shadow(g, LLVMGetOperand(i, 2), i), "");
  case LLVMLoad: {
    LLVMValueRef addr = need_shadow(g, LLVMGetOperand(i, 0), i);
    if (maynull(g, LLVMGetOperand(i, 0)))
      addr = lt_guard_read(g->c, b, addr);
    LLVMValueRef s = LLVMBuildLoad2(b, LLVMTypeOf(ai), addr, "");
    LLVMSetAlignment(s, LLVMGetAlignment(ai));
    return s;
  }
  default:
    break;
  }
  lt_error(g->c, i, "this pointer may address active memory, but its shadow "
                    "cannot be formed (%s); compute the address with "
                    "pointer arithmetic on the original array instead",
           op == LLVMIntToPtr ? "it is made from an integer"
                              : "it comes from an unsupported instruction");
  g->failed = 1;
  return LLVMGetPoison(LLVMTypeOf(i));
}

/* The shadow of a pointer word (ptrword.c): the same word of the shadow
 * address. */
static LLVMValueRef shadow_of_word(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  LLVMValueRef ai = amap(g, i);
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op == LLVMPHI) {
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetInstructionParent(ai)));
    return LLVMBuildPhi(b, LLVMTypeOf(i), "");
  }
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  LLVMTypeRef t = LLVMTypeOf(i);
  switch (op) {
  case LLVMPtrToInt:
    return LLVMBuildPtrToInt(b, need_shadow(g, LLVMGetOperand(i, 0), i), t, "");
  case LLVMLoad: {
    LLVMValueRef addr = need_shadow(g, LLVMGetOperand(i, 0), i);
    if (maynull(g, LLVMGetOperand(i, 0)))
      addr = lt_guard_read(g->c, b, addr);
    LLVMValueRef s = LLVMBuildLoad2(b, t, addr, "");
    LLVMSetAlignment(s, LLVMGetAlignment(ai));
    return s;
  }
  case LLVMSelect:
    return LLVMBuildSelect(b, LLVMGetOperand(ai, 0), need_shadow(g, LLVMGetOperand(i, 1), i),
                           need_shadow(g, LLVMGetOperand(i, 2), i), "");
  case LLVMFreeze:
    return need_shadow(g, LLVMGetOperand(i, 0), i);
  case LLVMExtractElement: /* a word packed into a vector and taken out */
    return need_shadow(g, lt_word_source(i), i);
  default: {
    LLVMValueRef base = lt_ptr_word_base(&g->act_of, i);
    if (!base)
      break;
    LLVMValueRef off = LLVMBuildSub(b, ai, amap(g, base), "");
    return LLVMBuildAdd(b, need_shadow(g, base, i), off, "");
  }
  }
  lt_internal_error(g->c, g->P, "a pointer word has no shadow rule");
  g->failed = 1;
  return LLVMGetPoison(LLVMTypeOf(i));
}

/* A link call (calls.c) is made again on the shadows of its pointer
 * arguments, right after the primal one: the shadow node goes into the
 * shadow structure where the primal node went, and a walk's result's
 * shadow is the same walk from the shadow node. */
static void link_shadow(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  LLVMValueRef ai = amap(g, i);
  unsigned n = LLVMGetNumArgOperands(i);
  LLVMValueRef args[8];
  int any = 0, mn = 0;
  if (n > 8)
    return; /* no link function has as many */
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(i, k);
    any |= lt_is_shadowed(&g->act_of, op);
    mn |= maynull(g, op);
    args[k] = lt_is_ptr_ty(LLVMTypeOf(op)) ? need_shadow(g, op, i) : LLVMGetOperand(ai, k);
  }
  if (!any)
    return;
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  LLVMValueRef s = lt_link_call(g->c, b, ai, args, mn);
  if (lt_is_ptr_ty(LLVMTypeOf(i)) && lt_is_shadowed(&g->act_of, i))
    lt_map_put(&g->fshadow, i, s);
}

/* Scalar math only sets errno, which a gradient need not preserve: marked
 * memory(none) willreturn nounwind, an unused result is deleted (combined
 * mode computes sin(x) for nothing otherwise). */
static void mark_math_pure(LtGen *g) {
  static const char *const attrs[] = {"memory", "willreturn", "nounwind"};
  const LtRule *rule;
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i))
        continue;
      LtCallKind k = lt_call_kind(i, &rule);
      if ((k != LT_CALL_RULE && k != LT_CALL_ZERO && k != LT_CALL_COMPLEX) ||
          (rule && rule->writes_arg))
        continue;
      LLVMValueRef ai = amap(g, i);
      for (unsigned a = 0; a < 3; a++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(attrs[a], strlen(attrs[a]));
        LLVMAddCallSiteAttribute(ai, LLVMAttributeFunctionIndex,
                                 LLVMCreateEnumAttribute(g->c->llctx, kind, 0));
      }
    }
}

static void fill_phis(LtGen *g) {
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]);
         i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
      LLVMValueRef s = lt_map_get(&g->fshadow, i);
      if (!s)
        continue;
      for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) {
        LLVMValueRef v =
            lt_cfg_id(&g->g, LLVMGetIncomingBlock(i, k)) < 0
                ? LLVMGetPoison(LLVMTypeOf(i))
                : need_shadow(g, LLVMGetIncomingValue(i, k), i);
        LLVMBasicBlockRef ib = LLVMValueAsBasicBlock(
            amap(g, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(i, k))));
        LLVMAddIncoming(s, &v, &ib, 1);
      }
    }
}

/* Memory at p (a local's address, or inside it) that the function only
 * writes: stores into it, copies and sets to it, lifetime markers, and
 * copies from it into other such locals. What is copied there is never
 * read, so no shadow pointer need follow it (an Eigen evaluator's dead
 * copy of an expression at -O3; at -O1 a chain of three, each copied
 * into the next: fuzz --eigen seed 101). */
static int write_only(LLVMValueRef p, int depth) {
  if (depth > 8)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    const LtRule *rule;
    size_t len;
    if (LLVMIsAGetElementPtrInst(w) && LLVMGetOperand(w, 0) == p) {
      if (!write_only(w, depth + 1))
        return 0;
      continue;
    }
    if (LLVMIsAStoreInst(w) && LLVMGetOperand(w, 1) == p && LLVMGetOperand(w, 0) != p)
      continue;
    if (!LLVMIsACallInst(w))
      return 0;
    const char *n = lt_callee_name(w, &len);
    if (n && len > 14 && !strncmp(n, "llvm.lifetime.", 14))
      continue;
    LtCallKind k = lt_call_kind(w, &rule);
    if ((k == LT_CALL_MEMCPY || k == LT_CALL_MEMSET) && LLVMGetOperand(w, 0) == p &&
        (k == LT_CALL_MEMSET || LLVMGetOperand(w, 1) != p))
      continue;
    if (k == LT_CALL_MEMCPY && LLVMGetOperand(w, 1) == p && LLVMGetOperand(w, 0) != p) {
      LLVMValueRef d = lt_base_of(LLVMGetOperand(w, 0));
      if (LLVMIsAAllocaInst(d) && write_only(d, depth + 1))
        continue; /* depth bounds a cycle of copies: then not write-only */
    }
    return 0;
  }
  return 1;
}

/* Memory that holds pointers keeps shadow pointers in its shadow: mirror
 * pointer stores and pointer-typed copies/sets in A. */
static void mirror_pointer_memory(LtGen *g, LLVMBuilderRef b, LLVMValueRef i) {
  const LtRule *rule;
  LLVMValueRef ai = amap(g, i);
  if (LLVMIsAStoreInst(i)) {
    LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
    if ((!lt_is_ptr_ty(LLVMTypeOf(v)) && !lt_is_ptr_word(&g->act_of, v)) ||
        !lt_is_shadowed(&g->act_of, p))
      return;
    LLVMValueRef sv = need_shadow(g, v, i);
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
    LLVMValueRef sp = need_shadow(g, p, i);
    if (maynull(g, p))
      sp = lt_guard_write(g->c, b, sp, sink(g));
    LLVMValueRef s = LLVMBuildStore(b, sv, sp);
    LLVMSetAlignment(s, LLVMGetAlignment(ai));
    return;
  }
  if (!LLVMIsACallInst(i))
    return;
  LtCallKind k = lt_call_kind(i, &rule);
  if (k != LT_CALL_MEMCPY && k != LT_CALL_MEMSET)
    return;
  LLVMValueRef dst = LLVMGetOperand(i, 0), src = LLVMGetOperand(i, 1);
  LtMemLayout L;
  if (!lt_is_shadowed(&g->act_of, dst) || lt_mem_layout(g->c, &g->act_of, i, &L))
    return;
  if (!lt_mem_layout_has(&L, 1)) {
    /* Pointers with shadows may be among what is copied, and nothing says
     * where: their shadows could not be moved. The layout is a guess,
     * and either the function also moves pointers there, or the
     * allocations it may copy from are structs with pointers (memelem.c;
     * the source only: what the destination held before does not matter,
     * and points-to joins a vector<double>'s data pointer with a
     * vector<S>'s through the calls both are passed to at -O0), or it
     * accesses the memory not at all and its callers pass structs with
     * pointers there, of different layouts. */
    int mixed = 0;
    if (k == LT_CALL_MEMCPY && L.guessed &&
        lt_points_contents_active(&g->act_of.pts, src) &&
        ((mixed = lt_mem_mixed(g->c->td, i)) ||
         (mixed = lt_mem_pointee_holds_ptrs(g->c, &g->act_of.pts, i)) ||
         (!lt_mem_elem_type(g->c->td, i) && lt_mem_ptrs_seen(g->c, i))) &&
        !(LLVMIsAAllocaInst(lt_base_of(dst)) && write_only(lt_base_of(dst), 0))) {
      if (getenv("LEANTAPE_DEBUG_LAYOUT"))
        LLVMDumpValue(i), fprintf(stderr, " <- no layout\n");
      lt_error(g->c, i, "this copies memory that may hold %s",
               mixed ? "both pointers to active data and floating-point "
                       "values, and its layout is unknown; copy the struct by "
                       "assignment, or its members one by one"
                     : "pointers to active data, and nothing says where: the "
                       "function never accesses it, and its callers pass "
                       "different types or untyped memory, or call it through "
                       "a pointer; copy the members one by one");
      g->failed = 1;
    }
    return;
  }
  /* The shadow pointers of the copied pointer fields (null: a memset, or
   * a source without a shadow). */
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ai));
  LLVMValueRef n = LLVMBuildZExtOrBitCast(b, LLVMGetOperand(ai, 2), g->c->i64, "");
  LLVMValueRef ss = k == LT_CALL_MEMCPY ? need_shadow(g, src, i)
                                        : LLVMConstNull(g->c->ptr);
  LLVMValueRef f = lt_mem_helper(g->c, &L, 1);
  LLVMValueRef args[3] = {
      LLVMBuildPointerCast(b, need_shadow(g, dst, i), g->c->ptr, ""),
      LLVMBuildPointerCast(b, ss, g->c->ptr, ""),
      n};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
}

/* A callee's A_f returns {result, shadow of the result}. */
static void return_shadows(LtGen *g) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(g->A));
  for (unsigned bi = 0; bi < g->g.nblocks; bi++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->g.block[bi]);
    if (!LLVMIsAReturnInst(t) || LLVMGetNumOperands(t) != 1)
      continue;
    LLVMValueRef at = amap(g, t);
    LLVMPositionBuilderBefore(b, at);
    LLVMValueRef v = LLVMGetOperand(at, 0);
    LLVMValueRef agg = LLVMBuildInsertValue(b, LLVMGetUndef(rt), v, 0, "");
    agg = LLVMBuildInsertValue(b, agg, need_shadow(g, LLVMGetOperand(t, 0), t), 1, "");
    LLVMValueRef nr = LLVMBuildRet(b, agg);
    LLVMInstructionEraseFromParent(at);
    lt_map_put(&g->fmap, t, nr);
  }
  LLVMDisposeBuilder(b);
}

int lt_forward_build(LtGen *g, const char *name) {
  LtCtx *c = g->c;
  unsigned np = g->nparams, ns = 0;
  if (np + g->nshadows + 1 > 256) {
    lt_error(c, g->at, "too many parameters: at most %d are supported",
             255 - (int)g->nshadows);
    return -1;
  }
  LLVMTypeRef fty = lt_aug_type(c, g->P, g->act, g->want_primal, g->ret_shadow);
  if (!g->A)
    g->A = lt_clone_decl(g->P, name, fty);
  lt_map_init(&g->fmap, 256);
  lt_map_init(&g->fshadow, 64);
  lt_map_init(&g->fchoice, 16);
  lt_map_init(&g->fentry, 4);
  ns = 0;
  for (unsigned p = 0; p < np; p++) {
    lt_map_put(&g->fmap, LLVMGetParam(g->P, p), LLVMGetParam(g->A, p));
    if (lt_is_dup(g->act[p])) {
      LLVMValueRef s = LLVMGetParam(g->A, np + ns++);
      lt_map_put(&g->fshadow, LLVMGetParam(g->P, p), s);
      LLVMSetValueName2(s, "shadow", 6);
    }
  }
  g->atape = LLVMGetParam(g->A, np + ns);
  LLVMSetValueName2(g->atape, "tape", 4);
  lt_clone_body(&g->fmap, g->P, g->A, NULL, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i;
         i = LLVMGetNextInstruction(i)) {
      const LtRule *rule;
      int custom = LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_CUSTOM;
      if (custom || lt_map_get(&g->callee, i)) {
        /* A kept call: A_f (or the registered augmented function)
         * computes the primal and the result's shadow. */
        LLVMValueRef rs;
        if (custom)
          lt_custom_forward(g, b, i, need_shadow_at, &rs);
        else
          lt_callee_forward(g, b, i, need_shadow_at, &rs);
        if (rs)
          lt_map_put(&g->fshadow, i, rs);
        continue;
      }
      if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_LINK)
        link_shadow(g, b, i);
      else if (lt_is_ptr_ty(LLVMTypeOf(i)) && lt_is_shadowed(&g->act_of, i))
        lt_map_put(&g->fshadow, i, shadow_of_inst(g, b, i));
      else if (lt_is_ptr_word(&g->act_of, i))
        lt_map_put(&g->fshadow, i, shadow_of_word(g, b, i));
      else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MALLOC &&
               lt_alloc_fn(i)->out_arg >= 0 && lt_points_any_active(&g->act_of.pts, i))
        out_shadow(g, b, i);
      else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MPI &&
               lt_mpi_forward(g, b, i, amap(g, i), need_shadow_at))
        g->failed = 1;
      else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_BLAS &&
               lt_blas_forward(g, i, amap(g, i)))
        g->failed = 1;
    }
  fill_phis(g);
  mark_math_pure(g);
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i;
         i = LLVMGetNextInstruction(i))
      mirror_pointer_memory(g, b, i);
  LLVMDisposeBuilder(b);
  LtVec drop = {0};
  lt_points_unneeded_writes(&g->act_of.pts, &g->g, g->act, &drop);
  for (size_t k = 0; k < drop.n; k++) {
    LLVMInstructionEraseFromParent(amap(g, drop.v[k]));
    lt_map_put(&g->fmap, drop.v[k], NULL);
  }
  lt_vec_free(&drop);
  if (g->ret_shadow)
    return_shadows(g);
  return g->failed ? -1 : 0;
}

LLVMValueRef lt_forward_choice(LtGen *g, LLVMBasicBlockRef pbb) {
  LLVMValueRef phi = lt_map_get(&g->fchoice, pbb);
  if (phi)
    return phi;
  int id = lt_cfg_id(&g->g, pbb);
  unsigned up[g->g.npred[id] + 1];
  unsigned n = lt_cfg_unique_preds(&g->g, (unsigned)id, up);
  LLVMBasicBlockRef abb = LLVMValueAsBasicBlock(amap(g, LLVMBasicBlockAsValue(pbb)));
  /* where the edges from pbb's predecessors now arrive: split before a
   * triangular nest's count (loopfwd.c), abb keeps only its terminator
   * (fuzz --adaptive seed 400029 at -O1: a merge block after a loop with
   * two exits, before such a nest; the phi did not verify) */
  LLVMBasicBlockRef entry = lt_map_get(&g->fentry, abb);
  if (entry)
    abb = entry;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(abb));
  /* One byte per execution: a block has at most 256 distinct predecessors
   * here (checked by the caller). */
  phi = LLVMBuildPhi(b, g->c->i8, "lt.from");
  LLVMDisposeBuilder(b);
  /* One incoming per CFG edge, unreachable predecessors included. */
  for (LLVMBasicBlockRef pb = LLVMGetFirstBasicBlock(g->P); pb;
       pb = LLVMGetNextBasicBlock(pb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(pb);
    int p = lt_cfg_id(&g->g, pb);
    unsigned idx = 0;
    while (p >= 0 && idx < n && up[idx] != (unsigned)p)
      idx++;
    LLVMValueRef v = LLVMConstInt(g->c->i8, p >= 0 ? idx : 0, 0);
    LLVMBasicBlockRef ib =
        LLVMValueAsBasicBlock(amap(g, LLVMBasicBlockAsValue(pb)));
    for (unsigned k = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; k < ns; k++)
      if (LLVMGetSuccessor(t, k) == pbb)
        LLVMAddIncoming(phi, &v, &ib, 1);
  }
  lt_map_put(&g->fchoice, pbb, phi);
  return phi;
}
