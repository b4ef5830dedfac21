/* ptrword.c: integers that hold the address of memory with a shadow.
 *
 * activity.c, points.c, bits.c and memlayout.c call each other: they are
 * one fixpoint; this is the part of it that bits.c's pointer groups feed.
 */
#include "lt.h"

/* Pointer words: 64-bit integers that hold the address of memory with a
 * shadow. Clang and Eigen move pointers as integers (at -O1 an Eigen
 * Product stores `ptrtoint %v` into its i64 slot and later loads the slot
 * as a ptr; handmade_aligned_malloc rounds the address up through an
 * integer). Such an integer's shadow is the same word of the shadow
 * address: a ptrtoint of the shadow, a load from shadow memory, or, for
 * arithmetic on one pointer word b, shadow(b) + (v - b) (the shadow block
 * mirrors the primal's byte for byte, so an offset carries over, whatever
 * the arithmetic: rounding up to an alignment included). */
static int word_operand(const LtActivity *a, LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) && lt_map_get(&a->ptr_words, v);
}

/* The operand of arithmetic v that carries the pointer, or NULL: exactly
 * one operand is a pointer word (p - q of two words is a distance). */
LLVMValueRef lt_ptr_word_base(const LtActivity *a, LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMOr:
  case LLVMXor:
  case LLVMAnd: {
    int w0 = word_operand(a, LLVMGetOperand(v, 0)), w1 = word_operand(a, LLVMGetOperand(v, 1));
    return w0 == w1 ? NULL : LLVMGetOperand(v, w0 ? 0 : 1);
  }
  case LLVMSub:
    return word_operand(a, LLVMGetOperand(v, 0)) && !word_operand(a, LLVMGetOperand(v, 1))
               ? LLVMGetOperand(v, 0)
               : NULL;
  default:
    return NULL;
  }
}

/* Bits per element of a vector of integers or floats, 0 otherwise. */
static unsigned lane_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  LLVMTypeRef e = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(e)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(e);
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
    return 16;
  case LLVMFloatTypeKind:
    return 32;
  case LLVMDoubleTypeKind:
    return 64;
  default:
    return 0;
  }
}

/* The scalar whose 8 bytes are bytes [off, off + 8) of v, through
 * bitcasts, lane extracts and inserts and shuffles with constant lanes,
 * or NULL. The SLP vectoriser packs pointers this way: ptrtoint, bitcast
 * to <4 x i16>, shuffled into a <16 x i16> beside other data, bitcast to
 * <4 x i64>, a lane extracted and inttoptr'd (Eigen at -O2). Bitcasts
 * between vector types keep memory order, which for a little-endian
 * target is lane order. */
static LLVMValueRef word_at(LLVMValueRef v, unsigned off, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (depth > 16)
    return NULL;
  if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind) {
    if (off != 0 || LLVMGetIntTypeWidth(t) != 64)
      return NULL;
    if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMBitCast &&
        lane_bits(LLVMTypeOf(LLVMGetOperand(v, 0))))
      return word_at(LLVMGetOperand(v, 0), 0, depth + 1);
    return v;
  }
  unsigned eb = lane_bits(t) / 8;
  if (!eb || !LLVMIsAInstruction(v))
    return NULL;
  unsigned n = LLVMGetVectorSize(t);
  if (off + 8 > n * eb)
    return NULL;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMBitCast: {
    LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(v, 0));
    if (LLVMGetTypeKind(st) == LLVMIntegerTypeKind && off == 0 && n * eb == 8)
      return word_at(LLVMGetOperand(v, 0), 0, depth + 1);
    return lane_bits(st) ? word_at(LLVMGetOperand(v, 0), off, depth + 1) : NULL;
  }
  case LLVMInsertElement: {
    LLVMValueRef k = LLVMGetOperand(v, 2);
    if (!LLVMIsAConstantInt(k))
      return NULL;
    unsigned lo = (unsigned)LLVMConstIntGetZExtValue(k) * eb;
    if (off >= lo + eb || off + 8 <= lo)
      return word_at(LLVMGetOperand(v, 0), off, depth + 1);
    return off == lo && eb == 8 ? word_at(LLVMGetOperand(v, 1), 0, depth + 1) : NULL;
  }
  case LLVMShuffleVector: {
    /* every lane the bytes cover comes from the same operand, in order */
    unsigned na = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(v, 0)));
    unsigned j0 = off / eb, j1 = (off + 7) / eb;
    int m0 = LLVMGetMaskValue(v, j0);
    if (m0 < 0 || m0 == LLVMGetUndefMaskElem())
      return NULL;
    for (unsigned j = j0 + 1; j <= j1; j++) {
      int m = LLVMGetMaskValue(v, j);
      if (m != m0 + (int)(j - j0) || ((unsigned)m < na) != ((unsigned)m0 < na))
        return NULL;
    }
    unsigned src = (unsigned)m0 < na ? 0 : 1, lane = (unsigned)m0 - src * na;
    return word_at(LLVMGetOperand(v, src), lane * eb + off % eb, depth + 1);
  }
  default:
    return NULL;
  }
}

static int little_endian(LLVMValueRef i) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)));
  const char *dl = LLVMGetDataLayoutStr(m);
  return !dl || dl[0] != 'E';
}

LLVMValueRef lt_word_source(LLVMValueRef v) {
  if (!LLVMIsAExtractElementInst(v) || !little_endian(v))
    return NULL;
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef k = LLVMGetOperand(v, 1);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != 64 ||
      !LLVMIsAConstantInt(k))
    return NULL;
  LLVMValueRef s = word_at(LLVMGetOperand(v, 0), (unsigned)LLVMConstIntGetZExtValue(k) * 8, 0);
  return s && LLVMIsAInstruction(s) ? s : NULL;
}

static int is_ptr_word(LtActivity *a, LLVMValueRef i) {
  LLVMTypeRef t = LLVMTypeOf(i);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != 64)
    return 0;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMPtrToInt:
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMLoad:
    return lt_map_get(&a->bits_ptr, i) && lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (word_operand(a, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  case LLVMSelect:
    return word_operand(a, LLVMGetOperand(i, 1)) || word_operand(a, LLVMGetOperand(i, 2));
  case LLVMFreeze:
    return word_operand(a, LLVMGetOperand(i, 0));
  case LLVMExtractElement:
    return word_operand(a, lt_word_source(i));
  default:
    return lt_ptr_word_base(a, i) != NULL;
  }
}

void lt_ptr_words_run(LtActivity *a, const LtCfg *g) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned bi = 0; bi < g->nblocks; bi++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[bi]); i;
           i = LLVMGetNextInstruction(i))
        if (!lt_map_get(&a->ptr_words, i) && is_ptr_word(a, i)) {
          lt_map_put(&a->ptr_words, i, (void *)1);
          changed = 1;
        }
  }
}

int lt_is_ptr_word(const LtActivity *a, LLVMValueRef v) { return word_operand(a, v); }
