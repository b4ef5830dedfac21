/* memnote.c: the declared types of copies, noted before they are lost.
 *
 * The canonicalising pipeline folds the typed GEPs that say what a
 * memcpy copies, and a copy in a function kept as a call sees only its
 * parameters. Before that pipeline runs, lt_mem_note_types records on
 * each copy without !tbaa.struct the declared type of its ends: a typed
 * GEP's, else, for an end in a parameter's memory, what every caller
 * passes there (typed locals, globals, GEPs, sret/byval/byref types, the
 * callers' own parameters in turn), when the callers agree field for
 * field. memlayout.c reads the note (lt_mem_note_kind) when it lays the
 * copy out. Part of the fixpoint memlayout.c describes.
 */
#include "lt.h"

#include <string.h>

unsigned lt_mem_note_kind(LLVMContextRef ctx) {
  return LLVMGetMDKindIDInContext(ctx, "leantape.layout", 15);
}

static unsigned ptrs_kind(LLVMContextRef ctx) {
  return LLVMGetMDKindIDInContext(ctx, "leantape.ptrs", 13);
}

/* A declared place: a type, the byte offset into it, and whether the
 * address may step over an array of it (declared()). */
typedef struct {
  LLVMTypeRef t;
  unsigned long long off;
  int element;
} Place;

/* What the callers passed, over one question: whether any passes memory
 * holding a pointer there, and how many more call sites may be visited (a
 * callee of many callers, each passing its own parameters on, would
 * otherwise be asked about exponentially often). */
typedef struct {
  int ptrs;
  int budget;
} Seen;

static int param_place(LtCtx *c, LLVMValueRef fn, unsigned k, int depth, Place *out,
                       Seen *seen);

/* The place holds a pointer from its offset to its end. */
static int holds_ptr(LLVMTargetDataRef td, const Place *p) {
  LtMemLayout L;
  memset(&L, 0, sizeof L);
  unsigned long long ts = LLVMABISizeOfType(td, p->t);
  if (p->off < ts)
    lt_mem_leaves(td, p->t, 0, (long long)p->off, (long long)ts, &L, 0);
  return lt_mem_layout_has(&L, 1);
}

/* Two places hold the same fields from their offsets to their ends (an S
 * local, and the S member of a struct, passed to the same parameter).
 * Whether either may step over an array is the caller's to combine. */
static int same_place(LLVMTargetDataRef td, const Place *a, const Place *b) {
  return lt_mem_same_leaves(td, a->t, a->off, b->t, b->off);
}

/* At -O0 (before mem2reg) the value p loads from a stack slot that holds
 * one value: an alloca whose one store stores it and whose other uses
 * load it (a parameter's spill, an inlined callee's). NULL otherwise. */
static LLVMValueRef spilled(LLVMValueRef p) {
  LLVMValueRef slot = LLVMIsALoadInst(p) ? LLVMGetOperand(p, 0) : NULL;
  if (!slot || !LLVMIsAAllocaInst(slot))
    return NULL;
  LLVMValueRef v = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (LLVMIsALoadInst(w))
      continue;
    if (!LLVMIsAStoreInst(w) || LLVMGetOperand(w, 1) != slot || v)
      return NULL; /* #dbg_declare records are not uses */
    v = LLVMGetOperand(w, 0);
  }
  return v;
}

/* The parameter p is, seen through constant offsets (their sum in *off)
 * and stack slots. */
static LLVMValueRef param_at(LLVMTargetDataRef td, LLVMValueRef p, long long *off) {
  long long at;
  *off = 0;
  for (int depth = 0; p && depth < 16; depth++) {
    p = lt_const_offset(td, p, &at);
    *off += at;
    if (p && LLVMIsAArgument(p))
      return p;
    p = p ? spilled(p) : NULL;
  }
  return NULL;
}

/* The declared place at p, seen through GEPs of constant offset, stack
 * slots and, for a parameter, its function's callers. */
static int place_of(LtCtx *c, LLVMValueRef p, int depth, Place *out, Seen *seen) {
  unsigned long long total = 0;
  int whole = 1; /* no offset on the way */
  for (int hops = 0; hops < 16; hops++) {
    if ((out->t = lt_mem_declared(c->td, p, &out->off, &out->element))) {
      out->off += total;
      out->element &= whole;
      return 1;
    }
    long long at;
    LLVMValueRef base = lt_const_offset(c->td, p, &at);
    if (!base || at < 0)
      return 0;
    total += (unsigned long long)at;
    whole &= at == 0;
    if (base != p && (out->t = lt_mem_declared(c->td, base, &out->off, &out->element))) {
      out->off += total;
      out->element = 0;
      return 1;
    }
    if (LLVMIsAArgument(base)) {
      LLVMValueRef fn = LLVMGetParamParent(base);
      unsigned k = 0;
      while (LLVMGetParam(fn, k) != base)
        k++;
      if (!param_place(c, fn, k, depth + 1, out, seen))
        return 0;
      out->off += total;
      out->element &= whole;
      return 1;
    }
    if (!(p = spilled(base)))
      return 0;
  }
  return 0;
}

/* The place parameter k of fn points to: its sret, byval or byref type,
 * else the place every call of fn passes there, when all calls agree
 * (the same fields, same_place). A copy of a struct in a function kept as a call
 * (recursive, or past the inlining budget) sees only its parameters; at
 * -O0 clang gives such a copy no !tbaa.struct (Eigen's Map copy
 * constructor inside transpose(), a C struct assigned through two
 * pointers). Preprocessed clones answer for the function they copy; a
 * recursive call that passes the parameter on says nothing new. */
static int param_place(LtCtx *c, LLVMValueRef fn, unsigned k, int depth, Place *out,
                       Seen *seen) {
  static const char *const typed[] = {"sret", "byval", "byref"};
  for (unsigned a = 0; a < 3; a++) {
    LLVMAttributeRef at = LLVMGetEnumAttributeAtIndex(
        fn, k + 1, LLVMGetEnumAttributeKindForName(typed[a], strlen(typed[a])));
    if (at) {
      out->t = LLVMGetTypeAttributeValue(at);
      out->off = 0;
      out->element = 0;
      return !lt_mem_bytes_only(out->t);
    }
  }
  LLVMValueRef orig = lt_map_get(&c->copy_of, fn);
  if (orig)
    fn = orig;
  if (depth > 4)
    return 0;
  int n = 0, agree = 1;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (--seen->budget < 0)
      return 0;
    if ((!LLVMIsACallInst(call) && !LLVMIsAInvokeInst(call)) ||
        LLVMGetCalledValue(call) != fn || k >= LLVMGetNumArgOperands(call)) {
      agree = 0; /* its address is taken: callers unknown */
      continue;
    }
    LLVMValueRef arg = LLVMGetOperand(call, k);
    LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    long long at;
    if ((caller == fn || lt_map_get(&c->copy_of, caller) == fn) &&
        param_at(c->td, arg, &at) == LLVMGetParam(caller, k) && at == 0)
      continue;
    Place p;
    if (!place_of(c, arg, depth, &p, seen)) {
      agree = 0;
      continue;
    }
    seen->ptrs |= holds_ptr(c->td, &p);
    if (n++ && !same_place(c->td, &p, out))
      agree = 0;
    if (n == 1)
      *out = p;
    out->element &= p.element;
  }
  return agree && n > 0;
}

static void set_note(LtCtx *c, LLVMValueRef call, const Place *p) {
  LLVMMetadataRef ops[3] = {
      LLVMValueAsMetadata(LLVMGetPoison(p->t)),
      LLVMValueAsMetadata(LLVMConstInt(c->i64, p->off, 0)),
      LLVMValueAsMetadata(LLVMConstInt(c->i1, (unsigned long long)p->element, 0))};
  LLVMSetMetadata(call, lt_mem_note_kind(c->llctx),
                  LLVMMetadataAsValue(c->llctx, LLVMMDNodeInContext2(c->llctx, ops, 3)));
}

/* The canonicalising pipeline folds the typed GEPs that say what a copy
 * holds (st[0] = *sp at -O0 is a memcpy to `gep %struct.S, ptr %st, 0`,
 * which early-cse turns into %st). Before it runs, each copy without
 * !tbaa.struct records the declared type of its addresses as
 * !leantape.layout !{T poison, i64 offset, i1 element}: a typed GEP's,
 * else, for an address in a parameter's memory, what the callers pass
 * (param_place). */
void lt_mem_note_types(LtCtx *c, LLVMValueRef fn) {
  unsigned kind = lt_mem_note_kind(c->llctx);
  unsigned tbaa = LLVMGetMDKindIDInContext(c->llctx, "tbaa.struct", 11);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      if (!lt_is_copy_call(i) ||
          LLVMGetMetadata(i, tbaa) || LLVMGetMetadata(i, kind))
        continue;
      Place p;
      for (unsigned e = 0; e < 2 && !LLVMGetMetadata(i, kind); e++) {
        LLVMValueRef end = LLVMGetOperand(i, e);
        if (LLVMIsAAllocaInst(end) || LLVMIsAGlobalVariable(end))
          continue; /* allocas and globals keep their types */
        if ((p.t = lt_mem_declared(c->td, end, &p.off, &p.element)))
          set_note(c, i, &p);
      }
      Seen seen = {0, 1024};
      for (unsigned e = 0; e < 2 && !LLVMGetMetadata(i, kind); e++) {
        long long at;
        if (param_at(c->td, LLVMGetOperand(i, e), &at) &&
            place_of(c, LLVMGetOperand(i, e), 0, &p, &seen))
          set_note(c, i, &p);
      }
      if (seen.ptrs && !LLVMGetMetadata(i, kind))
        LLVMSetMetadata(i, ptrs_kind(c->llctx),
                        LLVMMetadataAsValue(c->llctx, LLVMMDNodeInContext2(c->llctx, NULL, 0)));
    }
}

/* Callers pass memory that holds pointers to where the copy reads or
 * writes, but not all the same layout (lt_mem_note_types). */
int lt_mem_ptrs_seen(LtCtx *c, LLVMValueRef call) {
  return LLVMGetMetadata(call, ptrs_kind(c->llctx)) != NULL;
}

LLVMTypeRef lt_mem_place(LtCtx *c, LLVMValueRef p, unsigned long long *off) {
  Place pl;
  Seen seen = {0, 1024};
  if (!place_of(c, p, 0, &pl, &seen))
    return NULL;
  *off = pl.off;
  return pl.t;
}
