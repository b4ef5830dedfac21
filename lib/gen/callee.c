/* callee.c: calls that stay calls.
 *
 * A call preprocessing keeps (recursive or large callees, "diff") gets the
 * callee's own augmented forward A_f and reverse R_f, built once per
 * (callee, activity) by lt_derive in LT_SUBCALL mode and reused by every
 * call site; recursion finds the derivative being built and uses its
 * declarations. The activity of a call: a float argument that varies is
 * enzyme_out, a pointer with a shadow is enzyme_dup (one whose shadow may
 * be null is LT_DUPNULL), the rest enzyme_const; A_f returns the primal
 * result when the caller uses it, and the shadow of a pointer result that
 * has one. Tapes nest: the caller keeps A_f's tape in its own tape (in
 * place when its size is known, on the heap for a derivative still being
 * built, i.e. a recursive call), one per iteration inside loops. R_f gets
 * the tape back, accumulates into shadows and returns the gradients of
 * the enzyme_out arguments, which the caller adds to their adjoints.
 *
 * callee.c and derive.c call each other (one concept: a derivative and
 * those of the calls it keeps, built recursively).
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

#define LT_SUBTAPE_INLINE 1024 /* bytes kept in place in the caller's tape */

/* Does the memory that pointer v points into stay as it is from the end
 * of the forward pass until the reverse pass is done with it, outside this
 * function? Always when this derivative is combined (nothing else runs
 * between the halves); in split mode and in callees only for the memory
 * of a parameter that is itself kept (enzyme_not_overwritten, or the
 * caller's analysis). */
static int kept_base(LtGen *g, LLVMValueRef v) {
  LLVMValueRef b = lt_base_of(v);
  return g->split ? lt_plan_kept_param(&g->fx, v)
                  : !LLVMIsAAllocaInst(b) || lt_frame_alloca(g->P, b); /* prep/frame.c */
}

/* Is v's address used only as the address of loads and stores, through
 * GEPs and casts, and as an argument of call? */
static int only_accessed(LLVMValueRef v, LLVMValueRef call, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef i = LLVMGetUser(u);
    if (i == call || LLVMIsALoadInst(i) ||
        (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 0) != v))
      continue;
    size_t len;
    if (LLVMIsACallInst(i) && !strncmp(lt_callee_name(i, &len), "llvm.lifetime.", 14))
      continue;
    if ((LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i)) && depth < 4 &&
        only_accessed(i, call, depth + 1))
      continue;
    return 0;
  }
  return 1;
}

/* Is a a parameter of its function marked noalias (C's restrict)? */
static int noalias_param(LLVMValueRef a) {
  if (!LLVMIsAArgument(a))
    return 0;
  LLVMValueRef f = LLVMGetParamParent(a);
  unsigned k = 0;
  while (k < LLVMCountParams(f) && LLVMGetParam(f, k) != a)
    k++;
  return LLVMGetEnumAttributeAtIndex(f, k + 1, LLVMGetEnumAttributeKindForName("noalias", 7)) !=
         NULL;
}

/* A parallel region's captured variables (gen/omp.c): parameter p points
 * to a stack object of the caller whose address goes nowhere but to this
 * call, once, or into the memory of a restrict parameter of the caller
 * that no other argument is based on; so inside the region it aliases no
 * other parameter's memory (a reduction's shared result does not
 * overwrite the arrays the region reads; y[i] = ... does not overwrite a
 * restrict A and x). */
static int distinct_param(LLVMValueRef call, unsigned np, unsigned p) {
  LLVMValueRef op = LLVMGetOperand(call, p), base = lt_base_of(op);
  if (!((LLVMIsAAllocaInst(base) && only_accessed(base, call, 0)) || noalias_param(base)))
    return 0;
  for (unsigned q = 0; q < np; q++)
    if (q != p && lt_base_of(LLVMGetOperand(call, q)) == base)
      return 0;
  return 1;
}

/* What the caller knows of a parallel region's pointer arguments
 * (LT_PF_*): which alias nothing else there, and which hold pointers
 * whose shadows may be null (an array of row pointers into an
 * enzyme_const array: the region's reverse must guard them, as a serial
 * caller's analysis does for the memory it sees). */
unsigned char *lt_region_pflags(LtGen *g, LLVMValueRef call, unsigned np) {
  unsigned char *f = lt_xcalloc(np + 1, 1);
  for (unsigned p = 0; p < np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    if (!lt_is_ptr_ty(LLVMTypeOf(op)))
      continue;
    f[p] = (distinct_param(call, np, p) ? LT_PF_DISTINCT : 0) |
           (lt_points_holds_inactive(&g->act_of.pts, op) ? LT_PF_NULLPTRS : 0);
  }
  return f;
}

/* What the caller knows of a kept call's pointer arguments: a parallel
 * region's flags (above); for a serial call only which hold pointers whose
 * shadows may be null (a struct holding a pointer into an enzyme_const
 * array: the callee's reverse must guard what it reaches through them),
 * NULL when none does, so such calls share derivatives as before. */
unsigned char *lt_call_pflags(LtGen *g, LLVMValueRef call, unsigned np) {
  if (lt_call_is_parallel(call))
    return lt_region_pflags(g, call, np);
  unsigned char *f = NULL;
  for (unsigned p = 0; p < np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    if (lt_is_ptr_ty(LLVMTypeOf(op)) && lt_is_shadowed(&g->act_of, op) &&
        lt_points_holds_inactive(&g->act_of.pts, op)) {
      if (!f)
        f = lt_xcalloc(np + 1, 1);
      f[p] = LT_PF_NULLPTRS;
    }
  }
  return f;
}

int lt_kept_call_request(LtGen *g, LLVMValueRef call, LtMode mode, LtRequest *r) {
  LLVMValueRef f = lt_called_fn(call);
  unsigned np = LLVMCountParams(f);
  if (np != LLVMGetNumArgOperands(call)) {
    lt_error(g->c, call, "a call with another number of arguments than '%s' "
                         "has parameters cannot be differentiated",
             LLVMGetValueName2(f, &(size_t){0}));
    return -1;
  }
  memset(r, 0, sizeof *r);
  r->call = call;
  r->fn = f;
  r->mode = mode;
  r->nparams = np;
  r->act = lt_xcalloc(np + 1, sizeof *r->act);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(f));
  r->want_primal = LLVMGetTypeKind(rt) != LLVMVoidTypeKind && LLVMGetFirstUse(call);
  r->parallel = lt_call_is_parallel(call) || g->parallel;
  return 0;
}

/* A parallel region whose pointer arguments are not known apart: its
 * derivative that assumes them apart, picked at run time (ompcheck.c). */
static void plan_apart(LtGen *g, LLVMValueRef call, LtRequest *r) {
  unsigned char *pf = r->pflags;
  int any = 0;
  for (unsigned p = 2; p < r->nparams; p++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, p))) && !(pf[p] & LT_PF_DISTINCT)) {
      pf[p] |= LT_PF_CHECK;
      any = 1;
    }
  LtDeriv *d = any ? lt_derive(g->c, r) : NULL;
  if (d && d->apart)
    lt_map_put(&g->apart, call, d);
  for (unsigned p = 0; p < r->nparams; p++)
    pf[p] &= (unsigned char)~LT_PF_CHECK;
}

/* v is an address into a local of its function, through GEPs, casts,
 * PHIs and selects. */
static int stack_based(LLVMValueRef v, int depth) {
  v = lt_base_of(v);
  if (LLVMIsAAllocaInst(v))
    return 1;
  if (depth > 8)
    return 0;
  if (LLVMIsAPHINode(v)) {
    for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
      if (LLVMGetIncomingValue(v, k) != v && stack_based(LLVMGetIncomingValue(v, k), depth + 1))
        return 1;
    return 0;
  }
  if (LLVMIsASelectInst(v))
    return stack_based(LLVMGetOperand(v, 1), depth + 1) ||
           stack_based(LLVMGetOperand(v, 2), depth + 1);
  return 0;
}

/* A time loop's step call passes a local of P (a cell) into which P
 * stores the address of a local (double buffers swapped through
 * pointers, prep/outline.c's rotated cells). */
static int stack_pointer_cell(LLVMValueRef call) {
  for (unsigned k = 0, n = LLVMGetNumArgOperands(call); k < n; k++) {
    LLVMValueRef a = LLVMGetOperand(call, k);
    if (!lt_is_ptr_ty(LLVMTypeOf(a)) || !LLVMIsAAllocaInst(lt_base_of(a)))
      continue;
    a = lt_base_of(a);
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef us = LLVMGetUser(u);
      LLVMValueRef at = us;
      if (LLVMIsAGetElementPtrInst(us)) { /* one field or element in */
        for (LLVMUseRef w = LLVMGetFirstUse(us); w; w = LLVMGetNextUse(w)) {
          LLVMValueRef st = LLVMGetUser(w);
          if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == us &&
              lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(st, 0))) &&
              stack_based(LLVMGetOperand(st, 0), 0))
            return 1;
        }
        continue;
      }
      if (LLVMIsAStoreInst(at) && LLVMGetOperand(at, 1) == a &&
          lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(at, 0))) && stack_based(LLVMGetOperand(at, 0), 0))
        return 1;
    }
  }
  return 0;
}

static int plan_call(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  LtRequest r;
  if (lt_kept_call_request(g, call, LT_SUBCALL, &r))
    return -1;
  LLVMValueRef f = r.fn;
  unsigned np = r.nparams;
  for (unsigned p = 0; p < np; p++) {
    LLVMValueRef op = LLVMGetOperand(call, p);
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(f, p));
    if (lt_is_ptr_ty(t) && lt_is_shadowed(&g->act_of, op)) {
      /* A struct passed by value is a pointer to the caller's copy here:
       * the callee's canonical clone copies it into a slot of its own
       * (prep's copy_byval), whose reverse adds the slot's adjoint into
       * the shadow passed for it, the caller's shadow struct. */
      r.act[p] = lt_shadow_maynull(&g->act_of, op) ? LT_DUPNULL : LT_DUP;
    } else if (!lt_is_ptr_ty(t) && lt_is_diff_ty(t) && lt_is_varied(&g->act_of, op)) {
      r.act[p] = LT_OUT;
    } else {
      r.act[p] = LT_CONST;
    }
  }
  r.keep = lt_xcalloc(np + 1, 1);
  for (unsigned p = 0; p < np; p++)
    r.keep[p] = lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(f, p))) &&
                lt_overwrite_call_arg(&g->ow, call, p) && kept_base(g, LLVMGetOperand(call, p));
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(f));
  r.ret_shadow = lt_is_ptr_ty(rt) && lt_is_shadowed(&g->act_of, call);
  r.lifo = g->lifo;
  /* a time loop's step (prep/outline.c) under -leantape-checkpoint */
  size_t fl;
  const char *fname = LLVMGetValueName2(f, &fl);
  r.ckpt = g->checkpoint && !g->sub && fl > 8 && !strcmp(fname + fl - 8, ".lt.step");
  if (r.ckpt && g->split && stack_pointer_cell(call)) {
    /* ckpt.c moves A's stack memory the arguments point into to the
     * context, but not the pointers to it that such memory holds */
    r.ckpt = 0;
    lt_remark_emit(c, call, "leantape", "checkpoint",
                   "this loop is not checkpointed in split mode: a step reads pointers to "
                   "the function's own local arrays (buffers swapped through pointers), "
                   "which are gone when the reverse call runs steps again; its steps "
                   "are taped");
  }
  r.pflags = lt_call_pflags(g, call, np);
  for (unsigned p = 0; p < np; p++)
    if (r.act[p] == LT_CONST && lt_is_varied(&g->act_of, LLVMGetOperand(call, p))) {
      /* float bits in an integer parameter (firstprivate scalars of
       * OpenMP pass doubles as i64): the derivative would be lost */
      lt_error(c, call, "an active value is passed to '%s' as integer bits "
                        "(parameter %u), which the derivative of a call that "
                        "stays a call cannot carry; pass it as a float or by "
                        "reference (for OpenMP: shared, not firstprivate)",
               LLVMGetValueName2(f, &(size_t){0}), p + 1);
      free(r.act);
      free(r.keep);
      free(r.pflags);
      return -1;
    }
  LtDeriv *d = lt_derive(c, &r);
  if (d && lt_call_is_parallel(call))
    plan_apart(g, call, &r);
  if (d && d->snap && !d->back) /* where checkpointing reverses it (ckptdead.c) */
    d->back = lt_ckpt_dead_aug(c, d, r.keep, np);
  free(r.act);
  free(r.keep);
  free(r.pflags);
  if (!d)
    return -1;
  lt_map_put(&g->callee, call, d);
  return 0;
}

int lt_callees_plan(LtGen *g) {
  const LtRule *rule;
  lt_map_init(&g->callee, 8);
  lt_map_init(&g->apart, 4);
  lt_map_init(&g->subtape_ph, 8);
  lt_map_init(&g->ckpt_ctx, 2);
  lt_map_init(&g->ckpt_tape, 2);
  for (unsigned b = 0; b < g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_DIFF &&
          plan_call(g, i))
        return -1;
  return 0;
}

/* Is the callee's tape kept in place in the caller's tape? (A parallel
 * region's is a region tape on the heap: one header per thread.) */
static int in_place(LLVMValueRef call, const LtDeriv *d) {
  return !d->building && !d->snap && !lt_call_is_parallel(call) &&
         d->tape_size <= LT_SUBTAPE_INLINE;
}

static LLVMTypeRef subtape_type(LtGen *g, const LtDeriv *d) {
  LLVMTypeRef i128 = LLVMIntTypeInContext(g->c->llctx, 128);
  return LLVMArrayType2(i128, (d->tape_size + 15) / 16);
}

LLVMValueRef lt_callee_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                               LLVMValueRef (*shadow)(LtGen *, LLVMValueRef),
                               LLVMValueRef *ret_shadow) {
  const LtDeriv *d = lt_map_get(&g->callee, call);
  if (lt_call_is_parallel(call)) {
    *ret_shadow = NULL;
    return lt_omp_forward(g, b, call, shadow);
  }
  if (d->snap) { /* a checkpointed step (ckpt.c) */
    *ret_shadow = NULL;
    if (lt_ckpt_forward(g, b, call, shadow))
      g->failed = 1;
    return lt_map_get(&g->ckpt_tape, call);
  }
  LLVMValueRef ac = lt_map_get(&g->fmap, call);
  unsigned np = LLVMGetNumArgOperands(call), n = 0;
  LLVMValueRef *args = lt_xcalloc(2 * np + 2, sizeof *args);
  for (unsigned p = 0; p < np; p++)
    args[n++] = LLVMGetOperand(ac, p);
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(d->act[p]))
      args[n++] = shadow(g, LLVMGetOperand(call, p));
  LLVMPositionBuilderBefore(b, ac);
  /* The tape memory is known once the caller's tape is laid out (tape.c). */
  LLVMValueRef ph = LLVMBuildFreeze(b, LLVMGetPoison(g->c->ptr), "lt.subtape");
  lt_map_put(&g->subtape_ph, call, ph);
  args[n++] = ph;
  LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug,
                                   args, n, "");
  LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ac));
  free(args);
  LLVMValueRef v = nc;
  *ret_shadow = NULL;
  if (d->ret_shadow) {
    v = LLVMBuildExtractValue(b, nc, 0, "");
    *ret_shadow = LLVMBuildExtractValue(b, nc, 1, "");
  }
  if (d->want_primal)
    LLVMReplaceAllUsesWith(ac, v);
  else if (LLVMGetTypeKind(LLVMTypeOf(ac)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(ac, LLVMGetPoison(LLVMTypeOf(ac)));
  LLVMInstructionEraseFromParent(ac);
  lt_map_put(&g->fmap, call, d->want_primal ? v : NULL);
  return nc;
}

/* The callee's tape, at the placeholder: in place in the caller's tape
 * (addr), or heap memory whose pointer the caller's tape keeps. */
void lt_callee_tape_store(LtGen *g, LLVMValueRef call, LLVMValueRef addr) {
  LLVMValueRef ph = lt_map_get(&g->subtape_ph, call);
  if (!ph)
    return;
  LLVMReplaceAllUsesWith(ph, addr);
  LLVMInstructionEraseFromParent(ph);
  lt_map_put(&g->subtape_ph, call, NULL);
}

/* The heap tape for a callee whose size is not known yet (it is being
 * built): its size is read from a global set when it is done. */
/* The heap tape's size: a global set when the callee is done for one
 * that is still being built (recursion), else its size. */
static LLVMValueRef heap_size(LtGen *g, LLVMBuilderRef b, LtDeriv *d) {
  if (d->building && !d->size_gv) {
    d->size_gv = LLVMAddGlobal(g->c->mod, g->c->i64, "lt.tapesize");
    LLVMSetLinkage(d->size_gv, LLVMPrivateLinkage);
    LLVMSetInitializer(d->size_gv, LLVMConstInt(g->c->i64, 0, 0));
  }
  if (d->size_gv)
    return LLVMBuildLoad2(b, g->c->i64, d->size_gv, "");
  return LLVMConstInt(g->c->i64, d->tape_size ? d->tape_size : 1, 0);
}

/* The heap tape for a callee whose tape is not kept in place: from the
 * arena under __enzyme_autodiff (released in reverse order), else malloc. */
LLVMValueRef lt_callee_heap_tape(LtGen *g, LLVMBuilderRef b, LLVMValueRef call) {
  LtDeriv *d = lt_map_get(&g->callee, call);
  if (lt_call_is_parallel(call))
    return lt_omp_region_tape(g, b, call);
  LLVMValueRef size = heap_size(g, b, d);
  return g->lifo ? lt_arena_push(g->c, b, size) : lt_build_malloc(b, g->c->mod, size);
}

void lt_callee_done(LtCtx *c, LtDeriv *d) {
  d->building = 0;
  if (d->size_gv) {
    LLVMSetInitializer(d->size_gv,
                       LLVMConstInt(c->i64, d->tape_size ? d->tape_size : 1, 0));
    LLVMSetGlobalConstant(d->size_gv, 1);
  }
}

int lt_callee_reverse(LtGen *g, LLVMValueRef call) {
  const LtDeriv *d = lt_map_get(&g->callee, call);
  if (!d)
    return -1;
  if (lt_call_is_parallel(call))
    return lt_omp_reverse(g, call);
  if (d->snap)
    return lt_ckpt_reverse(g, call);
  unsigned np = LLVMGetNumArgOperands(call), n = 0;
  LLVMValueRef *args = lt_xcalloc(2 * np + 3, sizeof *args);
  for (unsigned p = 0; p < np; p++)
    args[n++] = lt_rv(g, LLVMGetOperand(call, p));
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(d->act[p])) {
      LLVMValueRef s = lt_rs(g, LLVMGetOperand(call, p));
      args[n++] = s ? s : LLVMConstNull(LLVMTypeOf(LLVMGetOperand(call, p)));
    }
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(d->fn));
  if (lt_is_diff_ty(rt))
    args[n++] = lt_is_varied(&g->act_of, call) ? lt_adj_read(g, call)
                                               : LLVMConstNull(rt);
  LLVMValueRef tape = NULL;
  if (in_place(call, d)) {
    tape = d->tape_size ? lt_tape_addr(g, LT_SLOT_SUBTAPE, call, subtape_type(g, d))
                        : LLVMConstNull(g->c->ptr);
  } else {
    tape = lt_tape_load(g, LT_SLOT_SUBPTR, call, g->c->ptr);
  }
  args[n++] = tape;
  LLVMValueRef outs = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(d->rev), d->rev,
                                     args, n, "");
  free(args);
  if (!in_place(call, d) && g->lifo)
    lt_arena_pop(g->c, g->b, tape);
  else if (!in_place(call, d))
    lt_build_free(g->b, g->c->mod, tape);
  for (unsigned p = 0, k = 0; p < np; p++) {
    if (d->act[p] != LT_OUT)
      continue;
    LLVMValueRef dx = d->nouts == 1 ? outs : LLVMBuildExtractValue(g->b, outs, k, "");
    lt_adj_add(g, LLVMGetOperand(call, p), dx);
    k++;
  }
  return 0;
}

int lt_callee_in_place(LtGen *g, LLVMValueRef call) {
  const LtDeriv *d = lt_map_get(&g->callee, call);
  return d && in_place(call, d);
}
