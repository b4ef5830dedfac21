/* lanetrack.c: float lanes followed through integer arithmetic, slot by
 * slot.
 *
 * floatlanes.c knows the integer chains InstCombine writes most often (a
 * wide integer's words shifted and truncated, a vector gathered from
 * them). With -mavx2 -mfma, Eigen's lanes also take longer ways: an i256
 * view of a computed <4 x double> splatted into a <2 x i256>, shifted by
 * <64, 128>, bitcast to <4 x i128>, and words 0 and 2 taken as <2 x
 * double> (lanes 1-2 and 2-3; fuzz --eigen -X seed 8879: "an active
 * floating-point value is reinterpreted as bits"). Here every integer
 * value on the way is described as slots of the final float width: which
 * lane of which float vector each slot holds (or that it is poison or
 * unknown), through bitcasts, constant right shifts, truncs, and
 * insertelement, extractelement and shufflevector with constant lanes. A
 * bitcast to floats whose lanes are all lanes of one float vector is then
 * a shuffle of it. The targets are little-endian: element 0 of a vector
 * and the low bits of an integer come first.
 */
#include "lt.h"

#include <string.h>

enum { MAX_SLOTS = 64, MAX_DEPTH = 12 };

typedef struct {
  LLVMValueRef v; /* the float vector, NULL: poison (any value) */
  int lane;       /* -1 with v NULL: poison; -2: unknown bits */
} Slot;

typedef struct {
  LtCtx *c;
  unsigned long long eb; /* bits per slot */
  LLVMTypeRef et;        /* the float type of a slot */
} Track;

/* bits of one element of t (t itself when scalar) and elements */
static unsigned long long elem_bits(Track *t, LLVMTypeRef ty, unsigned *n) {
  int vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
  *n = vec ? LLVMGetVectorSize(ty) : 1;
  return LLVMSizeOfTypeInBits(t->c->td, vec ? LLVMGetElementType(ty) : ty);
}

static void unknown(Slot *s, unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    s[k].v = NULL;
    s[k].lane = -2;
  }
}

/* The slots of v (n of them, returned in *n), or 0 when v is not made of
 * whole slots. */
static int slots(Track *t, LLVMValueRef v, Slot *s, unsigned *n, int depth) {
  LLVMTypeRef ty = LLVMTypeOf(v);
  unsigned ne;
  unsigned long long ebits = elem_bits(t, ty, &ne);
  if (!ebits || ebits % t->eb || (ebits / t->eb) * ne > MAX_SLOTS)
    return 0;
  unsigned per = (unsigned)(ebits / t->eb); /* slots per element */
  *n = per * ne;
  if (LLVMIsAPoisonValue(v) || LLVMIsAUndefValue(v)) {
    for (unsigned k = 0; k < *n; k++) {
      s[k].v = NULL;
      s[k].lane = -1;
    }
    return 1;
  }
  unknown(s, *n);
  if (depth > MAX_DEPTH || !LLVMIsAInstruction(v))
    return 1;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  Slot a[MAX_SLOTS];
  unsigned na;
  if (op == LLVMBitCast) {
    LLVMValueRef x = LLVMGetOperand(v, 0);
    LLVMTypeRef xt = LLVMTypeOf(x);
    int fvec = LLVMGetTypeKind(xt) == LLVMVectorTypeKind && LLVMGetElementType(xt) == t->et;
    if (fvec || xt == t->et) { /* the floats themselves */
      for (unsigned k = 0; k < *n; k++) {
        s[k].v = x;
        s[k].lane = (int)k;
      }
      return fvec || *n == 1;
    }
    if (!slots(t, x, a, &na, depth + 1) || na != *n)
      return 0;
    memcpy(s, a, *n * sizeof *s);
    return 1;
  }
  if (op == LLVMLShr || op == LLVMTrunc) {
    if (!slots(t, LLVMGetOperand(v, 0), a, &na, depth + 1))
      return 0;
    unsigned xne;
    unsigned long long xbits = elem_bits(t, LLVMTypeOf(LLVMGetOperand(v, 0)), &xne);
    unsigned xper = (unsigned)(xbits / t->eb);
    if (xne != ne)
      return 0;
    for (unsigned e = 0; e < ne; e++) {
      unsigned long long sh = 0;
      if (op == LLVMLShr) {
        LLVMValueRef amt = LLVMGetOperand(v, 1);
        LLVMValueRef c = LLVMIsAConstant(amt) && LLVMGetTypeKind(LLVMTypeOf(amt)) == LLVMVectorTypeKind
                             ? LLVMGetAggregateElement(amt, e)
                             : amt;
        if (!c || !LLVMIsAConstantInt(c))
          return 1; /* unknown */
        sh = LLVMConstIntGetZExtValue(c);
        if (sh % t->eb)
          return 1;
      }
      unsigned skip = (unsigned)(sh / t->eb);
      for (unsigned k = 0; k < per; k++) {
        Slot *d = &s[e * per + k];
        if (k + skip < xper) {
          *d = a[e * xper + k + skip];
        } else {
          d->v = NULL; /* zeros shifted in: not a float lane */
          d->lane = -2;
        }
      }
    }
    return 1;
  }
  if (op == LLVMInsertElement || op == LLVMExtractElement) {
    LLVMValueRef at = LLVMGetOperand(v, op == LLVMInsertElement ? 2 : 1);
    if (!LLVMIsAConstantInt(at))
      return 1;
    unsigned k = (unsigned)LLVMConstIntGetZExtValue(at);
    if (!slots(t, LLVMGetOperand(v, 0), a, &na, depth + 1))
      return 0;
    if (op == LLVMExtractElement) {
      unsigned xne;
      elem_bits(t, LLVMTypeOf(LLVMGetOperand(v, 0)), &xne);
      if (k >= xne || na != xne * per)
        return 1;
      memcpy(s, a + k * per, per * sizeof *s);
      return 1;
    }
    Slot b[MAX_SLOTS];
    unsigned nb;
    if (na != *n || k >= ne || !slots(t, LLVMGetOperand(v, 1), b, &nb, depth + 1) || nb != per)
      return 0;
    memcpy(s, a, *n * sizeof *s);
    memcpy(s + k * per, b, per * sizeof *s);
    return 1;
  }
  if (op == LLVMShuffleVector) {
    Slot b[MAX_SLOTS];
    unsigned nb;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    unsigned xne;
    elem_bits(t, LLVMTypeOf(x), &xne);
    if (!slots(t, x, a, &na, depth + 1) || !slots(t, LLVMGetOperand(v, 1), b, &nb, depth + 1) ||
        na != xne * per || nb != na)
      return 0;
    for (unsigned e = 0; e < ne; e++) {
      int m = LLVMGetMaskValue(v, e);
      for (unsigned k = 0; k < per; k++) {
        Slot *d = &s[e * per + k];
        if (m == LLVMGetUndefMaskElem() || m < 0) {
          d->v = NULL;
          d->lane = -1;
        } else {
          *d = (unsigned)m < xne ? a[(unsigned)m * per + k] : b[((unsigned)m - xne) * per + k];
        }
      }
    }
    return 1;
  }
  return 1;
}

LLVMValueRef lt_tracked_lanes(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r) {
  LLVMTypeRef rt = LLVMTypeOf(r);
  int vec = LLVMGetTypeKind(rt) == LLVMVectorTypeKind;
  LLVMTypeRef et = vec ? LLVMGetElementType(rt) : rt;
  if (!LLVMIsABitCastInst(r) || !lt_is_float_ty(et) || LLVMByteOrder(c->td) != LLVMLittleEndian)
    return NULL;
  LLVMValueRef x = LLVMGetOperand(r, 0);
  LLVMTypeRef xt = LLVMTypeOf(x);
  LLVMTypeRef xe = LLVMGetTypeKind(xt) == LLVMVectorTypeKind ? LLVMGetElementType(xt) : xt;
  if (LLVMGetTypeKind(xe) != LLVMIntegerTypeKind)
    return NULL; /* only integers in between */
  Track t = {c, LLVMSizeOfTypeInBits(c->td, et), et};
  Slot s[MAX_SLOTS];
  unsigned n;
  if (!slots(&t, x, s, &n, 0) || n != (vec ? LLVMGetVectorSize(rt) : 1))
    return NULL;
  LLVMValueRef src = NULL, mask[MAX_SLOTS];
  for (unsigned k = 0; k < n; k++) {
    if (s[k].lane == -2 || (s[k].v && src && s[k].v != src))
      return NULL;
    if (s[k].v)
      src = s[k].v;
  }
  if (!src)
    return NULL;
  LLVMTypeRef st = LLVMTypeOf(src);
  int svec = LLVMGetTypeKind(st) == LLVMVectorTypeKind;
  LLVMPositionBuilderBefore(b, r);
  if (!svec) { /* a lone float moved through integers */
    if (vec)
      return NULL;
    return src;
  }
  for (unsigned k = 0; k < n; k++)
    mask[k] = s[k].v ? LLVMConstInt(c->i32, (unsigned long long)s[k].lane, 0)
                     : LLVMGetPoison(c->i32);
  if (!vec)
    return LLVMBuildExtractElement(b, src, mask[0], "lt.lanes");
  return LLVMBuildShuffleVector(b, src, LLVMGetPoison(st), LLVMConstVector(mask, n), "lt.lanes");
}
