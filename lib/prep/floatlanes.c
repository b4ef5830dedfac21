/* floatlanes.c: floats moved through integers, made float lanes again.
 *
 * InstCombine moves float lanes through wide integers where a shuffle
 * cannot cross an asm barrier (Eigen's FMA asm): `bitcast (trunc (lshr
 * (bitcast <4 x double> %v to i256), 64) to i128) to <2 x double>` is
 * lanes 1 and 2 of %v; the clone takes them with a shufflevector (an
 * extractelement for one lane), which carries derivatives. So is
 * `bitcast (extractelement (bitcast <4 x double> %v to <2 x i128>), 1) to
 * <2 x double>`, lanes 2 and 3 (Eigen with AVX at -O2: fuzz --eigen seed
 * 200010). Shuffles of integer views of floats are shuffles of the floats,
 * integer loads of data used as floats are float loads, a lane of
 * computed floats taken as an integer is the float lane bitcast, and a
 * sign bit cleared or flipped through an integer mask is llvm.fabs or
 * fneg, and a float vector put together by insertelements from words of
 * a wide integer (an i128 load's halves) is a shuffle of the floats. A
 * float and a vector of one float are the same value.
 *
 * Runs after the canonicalising pipeline (which would fold them back) and
 * after lanes.c, which takes pointers out of float vectors first.
 */
#include "lt.h"

/* V for x = lshr? (bitcast V to iN), S with V a float vector (S added to
 * *shift), or NULL. */
static LLVMValueRef float_bits(LLVMValueRef x, unsigned long long *shift) {
  if (LLVMGetInstructionOpcode(x) == LLVMLShr) {
    if (!LLVMIsAConstantInt(LLVMGetOperand(x, 1)))
      return NULL;
    *shift += LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1));
    x = LLVMGetOperand(x, 0);
  }
  if (!LLVMIsABitCastInst(x))
    return NULL;
  LLVMValueRef v = LLVMGetOperand(x, 0);
  LLVMTypeRef vt = LLVMTypeOf(v);
  return LLVMGetTypeKind(vt) == LLVMVectorTypeKind && lt_is_float_ty(LLVMGetElementType(vt))
             ? v
             : NULL;
}

/* For an integer x = trunc? (lshr? (bitcast V to iN), S), or word k of
 * (bitcast V to <M x iW>) cut the same way, V a float vector: V, and in
 * *first and *m the lanes of V that x's bits are; NULL otherwise. */
static LLVMValueRef int_lanes(LtCtx *c, LLVMValueRef x, unsigned *first, unsigned *m) {
  if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind)
    return NULL;
  unsigned long long bits = LLVMGetIntTypeWidth(LLVMTypeOf(x));
  if (LLVMIsATruncInst(x))
    x = LLVMGetOperand(x, 0);
  unsigned long long shift = 0;
  if (LLVMIsAExtractElementInst(x)) { /* word k of (bitcast V to <M x iW>) */
    LLVMValueRef w = LLVMGetOperand(x, 0), k = LLVMGetOperand(x, 1);
    if (!LLVMIsAConstantInt(k) || !LLVMIsABitCastInst(w) ||
        LLVMGetTypeKind(LLVMTypeOf(w)) != LLVMVectorTypeKind)
      return NULL;
    shift = LLVMConstIntGetZExtValue(k) *
            LLVMSizeOfTypeInBits(c->td, LLVMGetElementType(LLVMTypeOf(w)));
    x = w;
  }
  LLVMValueRef v = float_bits(x, &shift);
  if (!v)
    return NULL;
  LLVMTypeRef vt = LLVMTypeOf(v);
  unsigned long long eb = LLVMSizeOfTypeInBits(c->td, LLVMGetElementType(vt));
  unsigned n = LLVMGetVectorSize(vt);
  if (!eb || shift % eb || bits % eb || shift / eb + bits / eb > n)
    return NULL;
  *first = (unsigned)(shift / eb);
  *m = (unsigned)(bits / eb);
  return v;
}

/* For r = bitcast x to T, x's bits lanes of V (int_lanes), T V's element
 * type or a shorter vector of it: V and the first lane taken; NULL
 * otherwise. */
static LLVMValueRef shifted_lanes(LtCtx *c, LLVMValueRef r, unsigned *first) {
  LLVMTypeRef rt = LLVMTypeOf(r);
  unsigned m;
  if (!LLVMIsABitCastInst(r))
    return NULL;
  LLVMValueRef v = int_lanes(c, LLVMGetOperand(r, 0), first, &m);
  if (!v)
    return NULL;
  int vec = LLVMGetTypeKind(rt) == LLVMVectorTypeKind;
  LLVMTypeRef re = vec ? LLVMGetElementType(rt) : rt;
  return re == LLVMGetElementType(LLVMTypeOf(v)) && m == (vec ? LLVMGetVectorSize(rt) : 1) ? v
                                                                                       : NULL;
}

static LLVMValueRef integer_shuffle(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r);
static LLVMValueRef sign_bits(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r);

/* r = bitcast (trunc (insertelement chain) to <N x iE>) to <N x F>, each
 * lane k inserted being (lshr? (bitcast V to iW), S_k) for one float vector
 * V of F, or r = bitcast (insertelement chain) to <N x F> with lanes
 * trunc (lshr? (bitcast V to iW), S_k): lane k of r is lane S_k / E of V,
 * poison where nothing is inserted. The shuffle of V that r is, before
 * the builder's point; NULL otherwise (float_loads made V of the `load
 * i128` such chains start from). */
static LLVMValueRef gathered_lanes(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r) {
  LLVMTypeRef rt = LLVMTypeOf(r);
  if (!LLVMIsABitCastInst(r) || LLVMGetTypeKind(rt) != LLVMVectorTypeKind ||
      !lt_is_float_ty(LLVMGetElementType(rt)) || LLVMByteOrder(c->td) != LLVMLittleEndian)
    return NULL;
  LLVMValueRef ie = LLVMGetOperand(r, 0), v = NULL;
  int wide = LLVMIsATruncInst(ie) != NULL; /* the words cut by one vector trunc */
  if (wide)
    ie = LLVMGetOperand(ie, 0);
  unsigned n = LLVMGetVectorSize(rt);
  unsigned long long eb = LLVMSizeOfTypeInBits(c->td, LLVMGetElementType(rt));
  int mask[64];
  if (n > 64 || !LLVMIsAInsertElementInst(ie) ||
      LLVMGetTypeKind(LLVMTypeOf(ie)) != LLVMVectorTypeKind)
    return NULL;
  for (unsigned k = 0; k < n; k++)
    mask[k] = -1;
  for (int depth = 0; LLVMIsAInsertElementInst(ie); depth++) {
    LLVMValueRef x = LLVMGetOperand(ie, 1), at = LLVMGetOperand(ie, 2);
    unsigned long long shift = 0;
    if (depth > 64 || !LLVMIsAConstantInt(at) || LLVMConstIntGetZExtValue(at) >= n)
      return NULL;
    if (!wide) {
      if (!LLVMIsATruncInst(x))
        return NULL;
      x = LLVMGetOperand(x, 0);
    }
    LLVMValueRef src = float_bits(x, &shift);
    if (!src)
      return NULL;
    LLVMTypeRef st = LLVMTypeOf(src);
    if ((v && src != v) || LLVMGetElementType(st) != LLVMGetElementType(rt) || shift % eb ||
        shift / eb >= LLVMGetVectorSize(st))
      return NULL;
    v = src;
    unsigned k = (unsigned)LLVMConstIntGetZExtValue(at);
    if (mask[k] < 0) /* the last insert into a lane wins */
      mask[k] = (int)(shift / eb);
    ie = LLVMGetOperand(ie, 0);
  }
  if (!v || !(LLVMIsAPoisonValue(ie) || LLVMIsAUndefValue(ie)))
    return NULL;
  LLVMValueRef m[64];
  for (unsigned k = 0; k < n; k++)
    m[k] = mask[k] < 0 ? LLVMGetPoison(c->i32)
                       : LLVMConstInt(c->i32, (unsigned long long)mask[k], 0);
  LLVMPositionBuilderBefore(b, r);
  return LLVMBuildShuffleVector(b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(m, n),
                                "lt.lanes");
}

/* Lanes [first, first + m) of float vector v, before the builder's point:
 * one lane as a scalar, more as a shorter vector. */
static LLVMValueRef take_lanes(LtCtx *c, LLVMBuilderRef b, LLVMValueRef v, unsigned first,
                               unsigned m) {
  if (m == 1)
    return LLVMBuildExtractElement(b, v, LLVMConstInt(c->i32, first, 0), "lt.lanes");
  LLVMValueRef mask[64];
  if (m > 64)
    return NULL;
  for (unsigned k = 0; k < m; k++)
    mask[k] = LLVMConstInt(c->i32, first + k, 0);
  return LLVMBuildShuffleVector(b, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, m),
                                "lt.lanes");
}

/* A store of float lanes cut out of a wide integer (int_lanes): `store
 * (trunc (lshr (bitcast <4 x double> %v to i256), 64) to i128)`, Eigen's
 * AVX packet split around its FMA asm at -O2 with -mavx2 -mfma, the
 * halves kept in a temporary (fuzz --eigen seed 71037): the lanes stored
 * as floats. The new store, or NULL. */
static LLVMValueRef stored_lanes(LtCtx *c, LLVMBuilderRef b, LLVMValueRef st) {
  unsigned first, m;
  if (!LLVMIsAStoreInst(st) || LLVMGetVolatile(st) || LLVMIsAtomic(st))
    return NULL;
  LLVMValueRef v = int_lanes(c, LLVMGetOperand(st, 0), &first, &m);
  if (!v || m > 64)
    return NULL;
  LLVMPositionBuilderBefore(b, st);
  LLVMValueRef r = take_lanes(c, b, v, first, m);
  LLVMValueRef ns = LLVMBuildStore(b, r, LLVMGetOperand(st, 1));
  LLVMSetAlignment(ns, LLVMGetAlignment(st));
  return ns;
}

/* x and the integer casts above it that nothing uses any more: they would
 * still be reported as reinterpreted bits. next is the caller's next
 * instruction, moved on past an erased one. */
static void drop_int_chain(LLVMValueRef x, LLVMValueRef *next) {
  for (LLVMValueRef up; x && LLVMIsAInstruction(x) && !LLVMGetFirstUse(x) &&
                        (LLVMIsABitCastInst(x) || LLVMIsATruncInst(x) ||
                         LLVMIsAExtractElementInst(x) || LLVMGetInstructionOpcode(x) == LLVMLShr);
       x = up) {
    up = LLVMGetOperand(x, 0);
    if (x == *next)
      *next = LLVMGetNextInstruction(x);
    LLVMInstructionEraseFromParent(x);
  }
}

static void float_lanes(LtCtx *c, LLVMValueRef fn, LLVMBuilderRef b) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      unsigned first;
      LLVMValueRef v = shifted_lanes(c, i, &first), sv;
      if (!v && stored_lanes(c, b, i)) {
        LLVMValueRef x = LLVMGetOperand(i, 0);
        LLVMInstructionEraseFromParent(i);
        drop_int_chain(x, &next);
        continue;
      }
      if (!v && ((sv = integer_shuffle(c, b, i)) || (sv = sign_bits(c, b, i)) ||
                 (sv = gathered_lanes(c, b, i)) || (sv = lt_tracked_lanes(c, b, i)))) {
        LLVMReplaceAllUsesWith(i, sv);
        LLVMInstructionEraseFromParent(i);
        continue; /* the integer casts and shuffle die with their uses */
      }
      if (!v)
        continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMTypeRef rt = LLVMTypeOf(i);
      LLVMValueRef r = take_lanes(c, b, v, first,
                                  LLVMGetTypeKind(rt) == LLVMVectorTypeKind ? LLVMGetVectorSize(rt)
                                                                            : 1);
      if (!r)
        continue;
      LLVMReplaceAllUsesWith(i, r);
      drop_int_chain(i, &next);
    }
}

/* v through bitcasts, down to the first value that is not one. */
static LLVMValueRef through_casts(LLVMValueRef v) {
  while (LLVMIsABitCastInst(v))
    v = LLVMGetOperand(v, 0);
  return v;
}

/* r = bitcast ... (shufflevector (bitcast ... a), (bitcast ... b), mask)
 * to a float vector type F, where a and b are vectors of F's element
 * type (as many lanes, or not) and the mask moves whole lanes (Eigen's SSE swizzles at -O0: _mm_shuffle_epi32 on
 * _mm_castpd_si128 of doubles): the same shuffle of a and b in lanes of F.
 * NULL otherwise. */
static LLVMValueRef integer_shuffle(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r) {
  LLVMTypeRef ft = LLVMTypeOf(r);
  if (!LLVMIsABitCastInst(r) || LLVMGetTypeKind(ft) != LLVMVectorTypeKind ||
      !lt_is_float_ty(LLVMGetElementType(ft)))
    return NULL;
  LLVMValueRef sh = through_casts(LLVMGetOperand(r, 0));
  if (!LLVMIsAShuffleVectorInst(sh))
    return NULL;
  LLVMTypeRef it = LLVMTypeOf(sh);
  LLVMValueRef a = through_casts(LLVMGetOperand(sh, 0)), bb = through_casts(LLVMGetOperand(sh, 1));
  int a_undef = LLVMIsAUndefValue(LLVMGetOperand(sh, 0)) != NULL;
  int b_undef = LLVMIsAUndefValue(LLVMGetOperand(sh, 1)) != NULL;
  /* the floats shuffled may be fewer or more than the result's (a
   * <2 x double> widened to <4 x double> through <2 x i64>: fuzz --eigen
   * seed 1140076 at -O2 with -mavx2 -mfma) */
  LLVMTypeRef fa = !a_undef ? LLVMTypeOf(a) : !b_undef ? LLVMTypeOf(bb) : NULL;
  if (!fa || LLVMGetTypeKind(fa) != LLVMVectorTypeKind ||
      LLVMGetElementType(fa) != LLVMGetElementType(ft) ||
      (!a_undef && LLVMTypeOf(a) != fa) || (!b_undef && LLVMTypeOf(bb) != fa))
    return NULL;
  unsigned long long es = LLVMABISizeOfType(c->td, LLVMGetElementType(ft));
  unsigned long long is = LLVMABISizeOfType(c->td, LLVMGetElementType(it));
  unsigned nin = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(sh, 0)));
  unsigned nout = LLVMGetNumMaskElements(sh);
  if (!is || es % is || LLVMGetVectorSize(ft) * es != nout * is ||
      nin * is != LLVMGetVectorSize(fa) * es)
    return NULL;
  unsigned r_ = (unsigned)(es / is), lanes = LLVMGetVectorSize(ft);
  LLVMValueRef mask[64];
  if (lanes > 64)
    return NULL;
  for (unsigned j = 0; j < lanes; j++) {
    int m0 = LLVMGetMaskValue(sh, j * r_);
    for (unsigned t = 1; t < r_; t++) {
      int m = LLVMGetMaskValue(sh, j * r_ + t);
      if (m0 == LLVMGetUndefMaskElem() ? m != m0 : m != m0 + (int)t)
        return NULL; /* the mask splits a lane */
    }
    if (m0 != LLVMGetUndefMaskElem() && m0 % (int)r_)
      return NULL;
    mask[j] = m0 == LLVMGetUndefMaskElem() ? LLVMGetUndef(c->i32)
                                            : LLVMConstInt(c->i32, (unsigned)m0 / r_, 0);
  }
  LLVMPositionBuilderBefore(b, r);
  return LLVMBuildShuffleVector(b, a_undef ? LLVMGetPoison(fa) : a,
                                b_undef ? LLVMGetPoison(fa) : bb,
                                LLVMConstVector(mask, lanes), "lt.lanes");
}

/* A load of integers that become floats: `load <4 x i32>, p` then
 * `bitcast to <2 x double>` (InstCombine's form of Eigen's SSE2 swizzles
 * at -O1 and above). Loaded as the floats, with a bitcast back for the
 * integer uses, the data keeps its derivative; read as integers it would
 * have none (silently: dy = 0 for the right operand of an Eigen matrix
 * product under SSE2). */
/* The float vector type, of size bytes, that the integers v become through
 * bitcasts and shuffles of whole vectors (-O1 keeps Eigen's SSE2 swizzle as
 * a shuffle of <4 x i32> between the load and the bitcast), or NULL. */
static LLVMTypeRef float_view(LtCtx *c, LLVMValueRef v, unsigned long long size, int depth) {
  if (depth > 4)
    return NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    LLVMTypeRef wt = LLVMTypeOf(w);
    if (LLVMGetTypeKind(wt) != LLVMVectorTypeKind || LLVMABISizeOfType(c->td, wt) != size)
      continue;
    if (LLVMIsABitCastInst(w) && lt_is_float_ty(LLVMGetElementType(wt)))
      return wt;
    int mask_op = (LLVMGetInstructionOpcode(w) == LLVMAnd || LLVMGetInstructionOpcode(w) == LLVMXor) &&
                  (LLVMIsAConstant(LLVMGetOperand(w, 0)) || LLVMIsAConstant(LLVMGetOperand(w, 1)));
    if (LLVMIsABitCastInst(w) || LLVMIsAShuffleVectorInst(w) || mask_op) {
      LLVMTypeRef t = float_view(c, w, size, depth + 1);
      if (t)
        return t;
    }
  }
  return NULL;
}

/* The float type F when w is an insertelement whose chain of
 * insertelements ends in a bitcast to <N x F>, after a `trunc <N x iW> to
 * <N x iE>` when w's elements are wider than F, F of E bits (a vector
 * gathered from words of a wide integer: InstCombine's form of an Eigen
 * Vector2d loaded from two unaligned doubles under -X, fuzz --eigen seed
 * 8107, or of a lane splatted from one, seed 8338), or NULL. */
static LLVMTypeRef gathered_float(LLVMValueRef w, int *trunc) {
  *trunc = 0;
  for (int depth = 0; depth < 64 && LLVMIsAInsertElementInst(w); depth++) {
    LLVMUseRef u = LLVMGetFirstUse(w);
    if (!u || LLVMGetNextUse(u))
      return NULL;
    w = LLVMGetUser(u);
  }
  LLVMTypeRef wt = LLVMTypeOf(w);
  if (LLVMGetTypeKind(wt) != LLVMVectorTypeKind)
    return NULL;
  if (LLVMIsATruncInst(w)) {
    LLVMUseRef u = LLVMGetFirstUse(w);
    if (!u || LLVMGetNextUse(u))
      return NULL;
    w = LLVMGetUser(u);
    *trunc = 1;
  }
  LLVMTypeRef ft = LLVMTypeOf(w);
  if (!LLVMIsABitCastInst(w) || LLVMGetTypeKind(ft) != LLVMVectorTypeKind ||
      !lt_is_float_ty(LLVMGetElementType(ft)))
    return NULL;
  return LLVMGetVectorSize(ft) == LLVMGetVectorSize(wt) ? LLVMGetElementType(ft) : NULL;
}

/* The float lane of w = bitcast (trunc (lshr? v, S)) to F (F a scalar
 * float type, S a multiple of its width), or of a vector gathered from
 * such words (gathered_float), or NULL. */
static LLVMTypeRef lane_float(LtCtx *c, LLVMValueRef w) {
  int trunc;
  if (LLVMIsAInsertElementInst(w)) { /* the wide word itself, cut by a trunc */
    LLVMTypeRef ft = gathered_float(w, &trunc);
    return ft && trunc ? ft : NULL;
  }
  if (LLVMGetInstructionOpcode(w) == LLVMLShr) {
    LLVMValueRef s = LLVMGetOperand(w, 1);
    LLVMUseRef u = LLVMGetFirstUse(w);
    if (!LLVMIsAConstantInt(s) || !u || LLVMGetNextUse(u))
      return NULL;
    LLVMTypeRef ft = lane_float(c, LLVMGetUser(u));
    return ft && LLVMConstIntGetZExtValue(s) % LLVMSizeOfTypeInBits(c->td, ft) == 0 ? ft
                                                                                  : NULL;
  }
  LLVMUseRef u = LLVMGetFirstUse(w);
  if (!LLVMIsATruncInst(w) || !u || LLVMGetNextUse(u))
    return NULL;
  LLVMValueRef bc = LLVMGetUser(u);
  LLVMTypeRef ft = LLVMTypeOf(bc);
  if (LLVMIsAInsertElementInst(bc) && LLVMGetOperand(bc, 1) == w) {
    ft = gathered_float(bc, &trunc); /* a truncated word put into a float vector */
    return ft && !trunc &&
                   LLVMSizeOfTypeInBits(c->td, ft) == LLVMSizeOfTypeInBits(c->td, LLVMTypeOf(w))
               ? ft
               : NULL;
  }
  return LLVMIsABitCastInst(bc) && lt_is_float_ty(ft) ? ft : NULL;
}

/* A wide integer every use of which takes one float lane out of it
 * (InstCombine's form of Eigen's _mm_loadu_pd whose lanes are used one
 * by one at -O2: `load i128`, then trunc, or lshr 64 and trunc, each
 * bitcast to double): the vector of those floats, or NULL. */
static LLVMTypeRef scalar_float_view(LtCtx *c, LLVMValueRef v) {
  LLVMTypeRef it = LLVMTypeOf(v), ft = NULL;
  if (LLVMGetTypeKind(it) != LLVMIntegerTypeKind || !LLVMGetFirstUse(v))
    return NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMTypeRef t = lane_float(c, LLVMGetUser(u));
    if (!t || (ft && t != ft))
      return NULL;
    ft = t;
  }
  unsigned w = LLVMGetIntTypeWidth(it);
  unsigned long long e = LLVMSizeOfTypeInBits(c->td, ft);
  if (w <= e || w % e)
    return NULL;
  return LLVMVectorType(ft, (unsigned)(w / e));
}

static void float_loads(LtCtx *c, LLVMValueRef fn, LLVMBuilderRef b) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef it = LLVMTypeOf(i);
      if (!LLVMIsALoadInst(i) || LLVMGetVolatile(i) || LLVMIsAtomic(i))
        continue;
      LLVMTypeRef ft = NULL;
      if (LLVMGetTypeKind(it) == LLVMIntegerTypeKind)
        ft = scalar_float_view(c, i);
      else if (LLVMGetTypeKind(it) == LLVMVectorTypeKind &&
               LLVMGetTypeKind(LLVMGetElementType(it)) == LLVMIntegerTypeKind)
        ft = float_view(c, i, LLVMABISizeOfType(c->td, it), 0);
      if (!ft)
        continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef fl = LLVMBuildLoad2(b, ft, LLVMGetOperand(i, 0), "lt.floats");
      LLVMSetAlignment(fl, LLVMGetAlignment(i));
      LLVMValueRef back = LLVMBuildBitCast(b, fl, it, "");
      for (LLVMUseRef u = LLVMGetFirstUse(i), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef w = LLVMGetUser(u);
        if (LLVMIsABitCastInst(w) && LLVMTypeOf(w) == ft)
          LLVMReplaceAllUsesWith(w, fl);
      }
      LLVMReplaceAllUsesWith(i, back);
      i = back; /* the old load dies below */
    }
}

/* Casts, shuffles and lane extracts left without uses: dead integer views
 * of floats would still be reported as reinterpreted bits. */
static void drop_dead_views(LLVMValueRef fn) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (LLVMGetFirstUse(i) ||
            !(op == LLVMBitCast || op == LLVMShuffleVector || op == LLVMExtractElement ||
              op == LLVMInsertElement ||
              op == LLVMTrunc || op == LLVMLShr || op == LLVMAnd || op == LLVMXor ||
              (op == LLVMLoad && !LLVMGetVolatile(i) && !LLVMIsAtomic(i))))
          continue;
        LLVMInstructionEraseFromParent(i);
        changed = 1;
      }
  }
}

/* r = bitcast (and|xor (bitcast v to integers), C) to v's float type,
 * where C clears or flips exactly the sign bits (Eigen's SSE2 pabs at -O0,
 * fabs written as a mask): llvm.fabs(v) or fneg v. NULL otherwise. */
static LLVMValueRef sign_bits(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r) {
  LLVMTypeRef ft = LLVMTypeOf(r);
  LLVMTypeRef fe = LLVMGetTypeKind(ft) == LLVMVectorTypeKind ? LLVMGetElementType(ft) : ft;
  if (!LLVMIsABitCastInst(r) || !lt_is_float_ty(fe))
    return NULL;
  LLVMValueRef x = LLVMGetOperand(r, 0);
  LLVMOpcode op = LLVMIsAInstruction(x) ? LLVMGetInstructionOpcode(x) : LLVMBitCast;
  if (op != LLVMAnd && op != LLVMXor)
    return NULL;
  LLVMValueRef v = LLVMGetOperand(x, 0), k = LLVMGetOperand(x, 1);
  if (LLVMIsAConstant(v)) { /* the mask first (_mm_andnot_pd at -O0) */
    LLVMValueRef t = v;
    v = k;
    k = t;
  }
  if (!LLVMIsABitCastInst(v) || LLVMTypeOf(LLVMGetOperand(v, 0)) != ft)
    return NULL;
  LLVMValueRef e = LLVMGetTypeKind(LLVMTypeOf(k)) == LLVMVectorTypeKind
                       ? (LLVMIsAConstantDataVector(k) || LLVMIsAConstantVector(k)
                              ? LLVMGetAggregateElement(k, 0)
                              : NULL)
                       : k;
  if (!e || !LLVMIsAConstantInt(e))
    return NULL;
  if (LLVMGetTypeKind(LLVMTypeOf(k)) == LLVMVectorTypeKind)
    for (unsigned q = 1, n = LLVMGetVectorSize(LLVMTypeOf(k)); q < n; q++)
      if (LLVMGetAggregateElement(k, q) != e)
        return NULL; /* not a splat */
  unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(e));
  if (bits != LLVMSizeOfTypeInBits(c->td, fe) || bits > 64)
    return NULL;
  unsigned long long sign = 1ull << (bits - 1), mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  unsigned long long kv = LLVMConstIntGetZExtValue(e) & mask;
  LLVMPositionBuilderBefore(b, r);
  LLVMValueRef src = LLVMGetOperand(v, 0);
  if (op == LLVMXor && kv == sign)
    return LLVMBuildFNeg(b, src, "lt.neg");
  if (op == LLVMAnd && kv == (mask & ~sign)) {
    unsigned id = LLVMLookupIntrinsicID("llvm.fabs", 9);
    return LLVMBuildCall2(b, LLVMIntrinsicGetType(c->llctx, id, &ft, 1),
                          LLVMGetIntrinsicDeclaration(c->mod, id, &ft, 1), &src, 1, "lt.abs");
  }
  return NULL;
}

/* A lane of computed floats taken as an integer: `extractelement (bitcast
 * <N x double> %v to <N x i64>), k` where %v is arithmetic, not memory
 * (those lanes may hold pointers, and lane_source loads them again), and
 * the i64 stored where a double goes (SLP at -O2 stores two products of
 * a 3x3 determinant's cofactors so: fuzz --eigen seed 1130099; it was "an
 * active floating-point value is reinterpreted as bits"). The lane as a
 * float, then bitcast to the integer: analysis/bits.c follows a scalar
 * bitcast's bits. */
static void computed_lanes(LLVMValueRef fn, LLVMBuilderRef b) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsAExtractElementInst(i) ||
          LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind)
        continue;
      LLVMValueRef bc = LLVMGetOperand(i, 0);
      if (!LLVMIsABitCastInst(bc))
        continue;
      LLVMValueRef v = LLVMGetOperand(bc, 0);
      LLVMTypeRef vt = LLVMTypeOf(v), it = LLVMTypeOf(bc);
      if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind ||
          !lt_is_float_ty(LLVMGetElementType(vt)) ||
          LLVMGetVectorSize(vt) != LLVMGetVectorSize(it) || LLVMIsALoadInst(v) ||
          LLVMIsAPHINode(v) || LLVMIsASelectInst(v) || LLVMIsAInsertElementInst(v) ||
          !LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) == LLVMBitCast)
        continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef lane = LLVMBuildExtractElement(b, v, LLVMGetOperand(i, 1), "lt.lane");
      LLVMValueRef r = LLVMBuildBitCast(b, lane, LLVMTypeOf(i), "lt.lane.bits");
      LLVMReplaceAllUsesWith(i, r);
      LLVMInstructionEraseFromParent(i);
      if (!LLVMGetFirstUse(bc)) {
        if (bc == next)
          next = LLVMGetNextInstruction(bc);
        LLVMInstructionEraseFromParent(bc);
      }
    }
}

/* `bitcast double %x to <1 x double>` and back: an insertelement and an
 * extractelement, which carry derivatives (opt -O2 on Eigen's SSE code
 * makes a packet of one lane so; it was "an active vector is
 * reinterpreted as another vector type": fuzz --eigen seed 1140237). */
static void single_lanes(LtCtx *c, LLVMValueRef fn, LLVMBuilderRef b) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsABitCastInst(i))
        continue;
      LLVMValueRef v = LLVMGetOperand(i, 0);
      LLVMTypeRef to = LLVMTypeOf(i), from = LLVMTypeOf(v);
      int wrap = LLVMGetTypeKind(to) == LLVMVectorTypeKind && LLVMGetVectorSize(to) == 1 &&
                 LLVMGetElementType(to) == from && lt_is_float_ty(from);
      int unwrap = LLVMGetTypeKind(from) == LLVMVectorTypeKind &&
                   LLVMGetVectorSize(from) == 1 && LLVMGetElementType(from) == to &&
                   lt_is_float_ty(to);
      if (!wrap && !unwrap)
        continue;
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef zero = LLVMConstInt(c->i32, 0, 0);
      LLVMValueRef r = wrap ? LLVMBuildInsertElement(b, LLVMGetPoison(to), v, zero, "lt.lane")
                            : LLVMBuildExtractElement(b, v, zero, "lt.lane");
      LLVMReplaceAllUsesWith(i, r);
      LLVMInstructionEraseFromParent(i);
    }
}

void lt_float_lanes(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  single_lanes(c, fn, b);
  computed_lanes(fn, b);
  float_loads(c, fn, b);
  float_lanes(c, fn, b);
  drop_dead_views(fn);
  LLVMDisposeBuilder(b);
}
