/* memuse.c: how a function accesses the objects a copy moves: the float
 * or pointer type its loads, stores and GEPs use there (the fill of
 * memlayout.c's layouts), and whether it moves both floats and pointers
 * there (the copy's layout must then say which bytes are which); and
 * what the function's other copies of the same block say: the layout of
 * a copy of a run-time length, and whether a block holds both kinds.
 */
#include "lt.h"

#include <string.h>

LLVMValueRef lt_mem_access(LLVMValueRef i, LLVMTypeRef *t) {
  if (LLVMIsALoadInst(i)) {
    *t = LLVMTypeOf(i);
    return LLVMGetOperand(i, 0);
  }
  if (LLVMIsAStoreInst(i)) {
    *t = LLVMTypeOf(LLVMGetOperand(i, 0));
    return LLVMGetOperand(i, 1);
  }
  return NULL;
}

/* How fn accesses the objects b1 and b2: the first float type a load,
 * store or GEP into them has (of a vector's elements too), the last
 * pointer type a load reads, and whether loads and stores move floats,
 * pointers or both there. With a copy `call` of n bytes (0: not constant),
 * accesses at a constant offset from one of its ends that lie outside
 * the copied bytes do not count: Eigen's aligned malloc keeps the block's
 * own pointer 8 bytes before the data it returns, and the load that frees
 * it made a copy of doubles a copy of pointers (their adjoints dropped,
 * silently, where the doubles were stored as <4 x double> and read back
 * through a pointer loaded from the vector object; fuzz --eigen seed
 * 1122025 at -O3). */
typedef struct {
  LLVMTypeRef fl, pt;
  int any_fl, any_pt;
} Uses;

static int outside_copy(LLVMTargetDataRef td, LLVMValueRef call, unsigned long long n,
                        LLVMValueRef addr, LLVMTypeRef t) {
  long long o;
  LLVMValueRef at = call ? lt_const_offset(td, addr, &o) : NULL;
  if (!at)
    return 0;
  for (unsigned e = 0; e < 2 && e < LLVMGetNumArgOperands(call); e++) {
    long long oe;
    LLVMValueRef end = LLVMGetOperand(call, e);
    if (!lt_is_ptr_ty(LLVMTypeOf(end)) || lt_const_offset(td, end, &oe) != at)
      continue;
    long long r = o - oe;
    return r + (long long)LLVMABISizeOfType(td, t) <= 0 || (n && r >= (long long)n);
  }
  return 0;
}

/* GEP i has a constant negative index */
static int negative_index(LLVMValueRef i) {
  for (unsigned k = 1, n = LLVMGetNumOperands(i); k < n; k++) {
    LLVMValueRef ix = LLVMGetOperand(i, k);
    if (LLVMIsAConstantInt(ix) && LLVMConstIntGetSExtValue(ix) < 0)
      return 1;
  }
  return 0;
}

static Uses uses_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2, LLVMTargetDataRef td,
                    LLVMValueRef call, unsigned long long n) {
  Uses u = {NULL, NULL, 0, 0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = NULL;
      LLVMValueRef addr = lt_mem_access(i, &t);
      int moves = addr != NULL;
      if (!addr && LLVMIsAGetElementPtrInst(i)) {
        addr = i;
        t = LLVMGetGEPSourceElementType(i);
      }
      if (!addr || !t)
        continue;
      LLVMValueRef base = lt_base_of(addr);
      if (base != b1 && base != b2)
        continue;
      if (moves && outside_copy(td, call, n, addr, t))
        continue;
      if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && lt_is_float_ty(LLVMGetElementType(t)))
        t = LLVMGetElementType(t);
      if (lt_is_float_ty(t) && !u.fl)
        u.fl = t;
      /* pointers loaded or stored there, or the block indexed as an array
       * of pointers (a vector of pointers grown by insert: the element
       * stored just past what the copy moves is the only other access;
       * not at a negative index: Eigen's aligned malloc keeps the block's
       * own pointer just below its data) */
      if (lt_is_ptr_ty(t) && (moves || !negative_index(i)))
        u.pt = t;
      u.any_fl |= moves && lt_is_float_ty(t);
      u.any_pt |= moves && lt_is_ptr_ty(t);
    }
  return u;
}

/* The allocation `block` (an instruction of fn) holds both floats and
 * pointers: the function stores or loads both through addresses based on
 * it, or copies into or out of it with a layout of its own (not guessed)
 * that has both. Copies elsewhere in the function whose layout is a guess
 * then cannot be taken for uniform floats: after `tmp = sv` at -O3 the
 * copy from sv's data (a PHI of two blocks, both filled with S
 * {double, double *, int} by stores and known copies) was taken for
 * doubles, the shadows of S's pointers were left behind, and the gradient
 * read a null shadow (a segfault; fuzz --structvec -X seed 441). */
int lt_mem_block_mixed(LtCtx *c, LLVMValueRef fn, LLVMValueRef block) {
  Uses u = uses_of(fn, block, block, NULL, NULL, 0);
  int fl = u.any_fl, pt = u.any_pt;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !(fl && pt);
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !(fl && pt);
         i = LLVMGetNextInstruction(i)) {
      if (!lt_is_copy_call(i) ||
          !LLVMIsAConstantInt(LLVMGetOperand(i, 2)) ||
          (lt_base_of(LLVMGetOperand(i, 0)) != block && lt_base_of(LLVMGetOperand(i, 1)) != block))
        continue;
      LtMemLayout L;
      if (lt_mem_layout(c, NULL, i, &L) || L.guessed)
        continue;
      fl |= lt_mem_layout_has(&L, 0);
      pt |= lt_mem_layout_has(&L, 1);
    }
  return fl && pt;
}

LLVMTypeRef lt_elem_type_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2) {
  Uses u = uses_of(fn, b1, b2, NULL, NULL, 0);
  return u.fl ? u.fl : u.pt;
}

/* Every pointer fn loads or stores in the object of `end` lies at a
 * constant offset below end's: a copy starting at end moves none of them
 * (a std::string's characters copied into a map node, after the node's
 * links and the string's own pointer). */
static int ptrs_before(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef end) {
  long long at, off;
  LLVMValueRef base = lt_const_offset(td, end, &at);
  if (!base)
    return 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = NULL;
      LLVMValueRef addr = lt_mem_access(i, &t);
      if (!addr || !lt_is_ptr_ty(t) || lt_base_of(addr) != lt_base_of(base))
        continue;
      if (lt_const_offset(td, addr, &off) != base ||
          off + (long long)LLVMABISizeOfType(td, t) > at)
        return 0;
    }
  return 1;
}

int lt_mem_mixed(LLVMTargetDataRef td, LLVMValueRef call) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  Uses u = uses_of(fn, lt_base_of(LLVMGetOperand(call, 0)), lt_base_of(LLVMGetOperand(call, 1)),
                   NULL, NULL, 0);
  return u.any_fl && u.any_pt &&
         !(ptrs_before(td, fn, LLVMGetOperand(call, 0)) &&
           ptrs_before(td, fn, LLVMGetOperand(call, 1)));
}

LLVMTypeRef lt_mem_elem_type(LLVMTargetDataRef td, LLVMValueRef call) {
  LLVMValueRef b1 = lt_base_of(LLVMGetOperand(call, 0));
  LLVMValueRef b2 = LLVMGetNumArgOperands(call) > 1 &&
                            lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, 1)))
                        ? lt_base_of(LLVMGetOperand(call, 1))
                        : b1;
  LLVMValueRef size = LLVMGetOperand(call, 2);
  Uses u = uses_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), b1, b2, td, call,
                   LLVMIsAConstantInt(size) ? LLVMConstIntGetZExtValue(size) : 0);
  return u.fl ? u.fl : u.pt;
}

static int overlap(LLVMTargetDataRef td, const LtMemLayout *A, unsigned i,
                   const LtMemLayout *B, unsigned j) {
  unsigned long long a = A->f[i].off, b = B->f[j].off;
  return a < b + LLVMABISizeOfType(td, B->f[j].ty) && b < a + LLVMABISizeOfType(td, A->f[i].ty);
}

/* whether field j of B covers every byte of field i of A */
static int covers(LLVMTargetDataRef td, const LtMemLayout *B, unsigned j, const LtMemLayout *A,
                  unsigned i) {
  unsigned long long a = A->f[i].off, b = B->f[j].off;
  return b <= a && a + LLVMABISizeOfType(td, A->f[i].ty) <= b + LLVMABISizeOfType(td, B->f[j].ty);
}

/* L becomes the union of layouts L and M of one period, when they agree:
 * the same pointer fields, and floats where the other has the same float
 * or nothing. A float guessed for bytes nothing else said (`filled`: the
 * four bytes after S's int k, taken for a float by one copy, where another
 * took all eight for a double) yields to a field that is not a guess, and
 * to a guess that covers its bytes. */
static int merge_layout(LLVMTargetDataRef td, LtMemLayout *L, const LtMemLayout *M) {
  if (L->period != M->period)
    return 0;
  LtMemLayout U;
  memset(&U, 0, sizeof U);
  U.period = L->period;
  for (int pass = 0; pass < 2; pass++) {
    const LtMemLayout *A = pass ? M : L, *B = pass ? L : M;
    for (unsigned i = 0; i < A->n; i++) {
      int keep = 1, same = -1;
      for (unsigned j = 0; j < B->n && keep; j++) {
        if (!overlap(td, A, i, B, j))
          continue;
        if (B->f[j].off == A->f[i].off && B->f[j].ty == A->f[i].ty) {
          same = (int)j;
          continue;
        }
        if (lt_is_ptr_ty(A->f[i].ty) || lt_is_ptr_ty(B->f[j].ty))
          return 0; /* a pointer where the other says otherwise */
        if (!A->f[i].filled && !B->f[j].filled)
          return 0; /* two types */
        if (A->f[i].filled && !B->f[j].filled)
          keep = 0;
        else if (A->f[i].filled && B->f[j].filled) {
          if (covers(td, B, j, A, i) && covers(td, A, i, B, j))
            return 0; /* the same bytes, two types */
          if (covers(td, B, j, A, i))
            keep = 0;
          else if (!covers(td, A, i, B, j))
            return 0; /* guesses across each other */
        }
      }
      if (!keep || (same >= 0 && pass)) /* each common field once */
        continue;
      if (same < 0 && lt_is_ptr_ty(A->f[i].ty))
        return 0; /* a pointer only one of them has */
      if (U.n == LT_MEM_FIELDS)
        return 0;
      unsigned at = U.n++;
      while (at > 0 && U.f[at - 1].off > A->f[i].off) {
        U.f[at] = U.f[at - 1];
        at--;
      }
      U.f[at] = A->f[i];
      U.f[at].filled = A->f[i].filled && (same < 0 || B->f[same].filled);
    }
  }
  *L = U;
  return 1;
}

/* p's base at a constant offset, through a PHI whose other incoming
 * values are null: the begin pointer of a vector that may be empty,
 * `phi [null, %empty], [%new, %copied]`. */
static LLVMValueRef copy_base(LLVMTargetDataRef td, LLVMValueRef p, long long *at) {
  LLVMValueRef b = lt_const_offset(td, p, at);
  if (!b || !LLVMIsAPHINode(b))
    return b;
  LLVMValueRef one = NULL;
  for (unsigned k = 0, n = LLVMCountIncoming(b); k < n; k++) {
    LLVMValueRef v = LLVMGetIncomingValue(b, k);
    if (LLVMIsAConstantPointerNull(v) || v == b)
      continue;
    if (one && v != one)
      return b;
    one = v;
  }
  if (!one)
    return b;
  long long o;
  LLVMValueRef ob = lt_const_offset(td, one, &o);
  if (!ob || LLVMIsAPHINode(ob))
    return b;
  *at += o;
  return ob;
}

/* The layout of a copy of a run-time length (or a constant one that its
 * accesses cannot lay out, memlayout.c) from the other copies of its
 * objects: one with a layout of its own (not guessed)
 * that has pointer fields, copying whole elements to or from the same
 * base at a whole number of its elements from this copy's end, when this
 * copy's byte count is made of that element size or is a whole number of
 * them (the distance between two pointers at element starts: assign from
 * a range). std::vector's copy
 * constructor at -O3 copies 72 bytes from a block that a memcpy of five S
 * {double, double *, int} (120 bytes, laid out from the stores that
 * filled its source) had filled, and that nothing indexes but i8 GEPs:
 * the copy was taken for doubles and the shadows of the pointers stayed
 * behind (fuzz --structvec -X seed 434 at -O3, a silent wrong gradient).
 * A copy of a run-time length counts too, when its layout is its own
 * (found the same way, a few copies deep), and a base seen
 * through `phi [null, %block]` is the block: at -O3, `std::vector o(b,
 * e)` after a copy constructor memcpys from such a PHI, while the copy
 * constructor's memmove into the same block knew its layout from the
 * vector it copied (fuzz --structvec -X seeds 13903, a segfault, and
 * 14338, adjoints given to the wrong elements, at -O3).
 * All such copies must agree. */
int lt_mem_layout_from_copies(LtCtx *c, const LtActivity *a, LLVMValueRef call,
                              LtMemLayout *L) {
  /* The copies being laid out, outermost first: a copy asked again
   * while its own layout is open (two copies of one block) says nothing,
   * and the chain is cut at LT_COPY_DEPTH copies and LT_COPY_ASKS
   * questions from one outermost copy. */
  enum { LT_COPY_DEPTH = 4, LT_COPY_ASKS = 64 };
  static LLVMValueRef open[LT_COPY_DEPTH];
  static unsigned depth, asks;
  LLVMTargetDataRef td = c->td;
  unsigned long long stride = lt_mem_size_stride(call);
  LLVMValueRef size = LLVMGetOperand(call, 2);
  /* for a constant copy, only copies clang tagged with their struct: the
   * others' layouts cost a walk of the function each */
  int constant = LLVMIsAConstantInt(size) != NULL;
  unsigned tbaa_struct = LLVMGetMDKindIDInContext(c->llctx, "tbaa.struct", 11);
  if (depth == LT_COPY_DEPTH)
    return 0;
  for (unsigned k = 0; k < depth; k++)
    if (open[k] == call)
      return 0;
  if (!depth)
    asks = 0;
  else if (++asks > LT_COPY_ASKS)
    return 0;
  LLVMValueRef base[2];
  long long at[2];
  for (unsigned e = 0; e < 2; e++)
    base[e] = copy_base(td, LLVMGetOperand(call, e), &at[e]);
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  int found = 0;
  open[depth++] = call;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && found >= 0;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && found >= 0;
         i = LLVMGetNextInstruction(i)) {
      const LtRule *r;
      if (i == call || !LLVMIsACallInst(i) || (constant && !LLVMGetMetadata(i, tbaa_struct)) ||
          lt_call_kind(i, &r) != LT_CALL_MEMCPY || lt_mem_partial_struct(c, i))
        continue; /* a prefix of an element is not one */
      int same = 0;
      long long o = 0, from = 0;
      for (unsigned f = 0; f < 2 && !same; f++) {
        LLVMValueRef b = copy_base(td, LLVMGetOperand(i, f), &o);
        for (unsigned e = 0; e < 2 && !same; e++)
          if (b && base[e] && b == base[e]) {
            same = 1;
            from = at[e] - o;
          }
      }
      if (!same)
        continue;
      LtMemLayout M;
      if (lt_mem_layout(c, a, i, &M) || M.guessed || M.overflow || !lt_mem_layout_has(&M, 1) ||
          !M.period || from % (long long)M.period ||
          !(stride ? stride % M.period == 0 : lt_mem_multiple_of(td, size, M.period)))
        continue;
      if (!found) {
        *L = M;
        found = 1;
      } else if (!merge_layout(td, L, &M)) {
        found = -1; /* they disagree */
        break;
      }
    }
  depth--;
  if (found < 0)
    memset(L, 0, sizeof *L);
  return found > 0;
}
