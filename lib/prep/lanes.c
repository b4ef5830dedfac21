/* lanes.c: pointers taken out of float vectors.
 *
 * The SLP vectorizer loads a small object {double, ptr} (an Eigen
 * expression holding a scalar and a Map's data pointer) as one <2 x
 * double> and gets the pointer back through the bits: `extractelement
 * (bitcast %v to <2 x i64>), 1` then inttoptr. To the analysis that is an
 * active float reinterpreted as bits. In the canonical clone such a lane
 * is loaded as an integer of its own, from the same address at the same
 * point (right after the vector load): a pointer word (analysis/ptrword.c)
 * whose shadow is the lane of the shadow memory. The same when the vector
 * is put together from scalar loads by insertelement (SROA's form of it)
 * or merged from loads by PHIs, and for integer lanes used as integers
 * (the Index beside the pointer): bits.c judges the reloaded words.
 *
 * Floats moved through integers are floatlanes.c's, which runs after.
 *
 * Runs after the canonicalising pipeline, which would fold it back.
 */
#include "lt.h"

/* The load holding bytes [off, off + es) of float vector v, and their
 * offset in it (*off on return), through insertelements of scalars with
 * constant lanes of es bytes: the vector itself loaded, or the scalar
 * inserted there loaded on its own (SROA splits the {double, ptr} copy
 * into two double loads put together again: fuzz --eigen seed 990104). */
static LLVMValueRef float_load_at(LtCtx *c, LLVMValueRef v, unsigned long long *off,
                                  unsigned long long es, int depth) {
  LLVMTypeRef vt = LLVMTypeOf(v);
  if (depth > 16 || LLVMGetTypeKind(vt) != LLVMVectorTypeKind ||
      !lt_is_float_ty(LLVMGetElementType(vt)) ||
      LLVMABISizeOfType(c->td, LLVMGetElementType(vt)) != es)
    return NULL; /* the integer lanes are not the float lanes */
  if (LLVMIsALoadInst(v))
    return LLVMGetVolatile(v) || LLVMIsAtomic(v) ? NULL : v;
  if (!LLVMIsAInsertElementInst(v) || !LLVMIsAConstantInt(LLVMGetOperand(v, 2)))
    return NULL;
  if (LLVMConstIntGetZExtValue(LLVMGetOperand(v, 2)) * es != *off)
    return float_load_at(c, LLVMGetOperand(v, 0), off, es, depth + 1);
  LLVMValueRef s = LLVMGetOperand(v, 1);
  if (!LLVMIsALoadInst(s) || LLVMGetVolatile(s) || LLVMIsAtomic(s))
    return NULL;
  *off = 0;
  return s;
}

/* Whether bytes [off, off + es) of float vector v come from memory
 * (float_load_at), also through PHIs and selects of such vectors (Eigen
 * with its assertions on keeps a {double, ptr} object in a <2 x double>
 * merged from three loads: fuzz --eigen seed 996146). seen holds the PHIs
 * and selects already met, taken as loaded (a loop's PHI reaches itself). */
static int lane_loaded(LtCtx *c, LLVMValueRef v, unsigned long long off,
                       unsigned long long es, LtMap *seen, int depth) {
  if (depth > 16)
    return 0;
  if (LLVMIsAPHINode(v) || LLVMIsASelectInst(v)) {
    if (lt_map_get(seen, v))
      return 1;
    lt_map_put(seen, v, v);
    if (LLVMIsASelectInst(v))
      return LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) != LLVMVectorTypeKind &&
             lane_loaded(c, LLVMGetOperand(v, 1), off, es, seen, depth + 1) &&
             lane_loaded(c, LLVMGetOperand(v, 2), off, es, seen, depth + 1);
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++)
      if (!lane_loaded(c, LLVMGetIncomingValue(v, k), off, es, seen, depth + 1))
        return 0;
    return 1;
  }
  unsigned long long o = off;
  return float_load_at(c, v, &o, es, depth) != NULL;
}

/* The bytes [off, off + es) of float vector v as an integer of type ity,
 * loaded again where lane_loaded found them loaded: a load right after
 * the float one, and a PHI or select of those where v merges vectors.
 * made maps v to its integer (one lane per call). */
static LLVMValueRef lane_word(LtCtx *c, LLVMBuilderRef b, LLVMValueRef v, unsigned long long off,
                              unsigned long long es, LLVMTypeRef ity, LtMap *made) {
  LLVMValueRef w = lt_map_get(made, v);
  if (w)
    return w;
  if (LLVMIsAPHINode(v)) {
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetInstructionParent(v)));
    w = LLVMBuildPhi(b, ity, "lt.lane");
    lt_map_put(made, v, w);
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++) {
      LLVMValueRef x = lane_word(c, b, LLVMGetIncomingValue(v, k), off, es, ity, made);
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(v, k);
      LLVMAddIncoming(w, &x, &from, 1);
    }
    return w;
  }
  if (LLVMIsASelectInst(v)) {
    LLVMValueRef t = lane_word(c, b, LLVMGetOperand(v, 1), off, es, ity, made);
    LLVMValueRef f = lane_word(c, b, LLVMGetOperand(v, 2), off, es, ity, made);
    LLVMPositionBuilderBefore(b, v);
    w = LLVMBuildSelect(b, LLVMGetOperand(v, 0), t, f, "lt.lane");
    lt_map_put(made, v, w);
    return w;
  }
  unsigned long long o = off;
  LLVMValueRef ld = float_load_at(c, v, &o, es, 0);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(ld));
  LLVMValueRef k = LLVMConstInt(c->i64, o, 0);
  LLVMValueRef p = LLVMBuildGEP2(b, c->i8, LLVMGetOperand(ld, 0), &k, 1, "lt.lane");
  w = LLVMBuildLoad2(b, ity, p, "");
  unsigned al = LLVMGetAlignment(ld);
  while (al > 1 && o % al)
    al /= 2;
  LLVMSetAlignment(w, al ? al : 1);
  lt_map_put(made, v, w);
  return w;
}

/* Whether lane-extract e takes the bits of loaded floats: e =
 * extractelement (bitcast V to <N x iM>), k with constant k, where lane k
 * of V is loaded (lane_loaded); *v and *off are V and the lane's byte
 * offset. Used as a pointer (inttoptr) or as an integer (a GEP index, a
 * shift: fuzz --eigen seeds 996120, 997017 take the Index after a Map's
 * data pointer), the lane is loaded again as an integer: analysis/bits.c
 * then decides what those bits are, as for any integer load. */
static int lane_source(LtCtx *c, LLVMValueRef e, LLVMValueRef *v, unsigned long long *off) {
  if (!LLVMIsAExtractElementInst(e) || !LLVMIsAConstantInt(LLVMGetOperand(e, 1)) ||
      LLVMGetTypeKind(LLVMTypeOf(e)) != LLVMIntegerTypeKind)
    return 0;
  LLVMValueRef bc = LLVMGetOperand(e, 0);
  if (!LLVMIsABitCastInst(bc) || LLVMGetTypeKind(LLVMTypeOf(bc)) != LLVMVectorTypeKind)
    return 0;
  unsigned long long es = LLVMABISizeOfType(c->td, LLVMTypeOf(e));
  *v = LLVMGetOperand(bc, 0);
  *off = LLVMConstIntGetZExtValue(LLVMGetOperand(e, 1)) * es;
  LtMap seen;
  lt_map_init(&seen, 8);
  int ok = lane_loaded(c, *v, *off, es, &seen, 0);
  lt_map_free(&seen);
  return ok;
}

/* The value inserted at lane k of vector v by a chain of insertelements
 * with constant indices (through bitcasts that keep the lane count), or
 * NULL. */
static LLVMValueRef inserted_lane(LLVMValueRef v, unsigned long long k, int depth) {
  if (depth > 16)
    return NULL;
  if (LLVMIsABitCastInst(v)) {
    LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(v, 0)), to = LLVMTypeOf(v);
    if (LLVMGetTypeKind(from) != LLVMVectorTypeKind ||
        LLVMGetVectorSize(from) != LLVMGetVectorSize(to))
      return NULL;
    return inserted_lane(LLVMGetOperand(v, 0), k, depth + 1);
  }
  if (!LLVMIsAInsertElementInst(v) || !LLVMIsAConstantInt(LLVMGetOperand(v, 2)))
    return NULL;
  if (LLVMConstIntGetZExtValue(LLVMGetOperand(v, 2)) == k)
    return LLVMGetOperand(v, 1);
  return inserted_lane(LLVMGetOperand(v, 0), k, depth + 1);
}

/* A pointer packed into a float vector and taken out again in registers
 * (Eigen keeps `0.75 * E0.transpose()` as {0.75, &E0} in a <2 x double>:
 * ptrtoint, bitcast to double, insertelement; then bitcast to <2 x i64>,
 * extractelement, inttoptr): the inttoptr is the pointer itself, which
 * keeps its shadow. Before, the address crossed a float lane and came back
 * as a pointer to unknown memory, without a shadow: the derivative of
 * everything read through it was silently lost. */
static void register_lanes(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAIntToPtrInst(i))
        continue;
      LLVMValueRef e = LLVMGetOperand(i, 0);
      if (!LLVMIsAExtractElementInst(e) || !LLVMIsAConstantInt(LLVMGetOperand(e, 1)))
        continue;
      LLVMValueRef x = inserted_lane(LLVMGetOperand(e, 0),
                                     LLVMConstIntGetZExtValue(LLVMGetOperand(e, 1)), 0);
      for (int d = 0; x && LLVMIsABitCastInst(x) && d < 4; d++)
        x = LLVMGetOperand(x, 0);
      if (x && LLVMIsAPtrToIntInst(x) &&
          LLVMTypeOf(LLVMGetOperand(x, 0)) == LLVMTypeOf(i))
        LLVMReplaceAllUsesWith(i, LLVMGetOperand(x, 0));
    }
}

void lt_pointer_lanes(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  register_lanes(fn);
  LtVec dead = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      unsigned long long off;
      LLVMValueRef v;
      if (!lane_source(c, i, &v, &off))
        continue;
      LtMap made;
      lt_map_init(&made, 8);
      LLVMValueRef w = lane_word(c, b, v, off, LLVMABISizeOfType(c->td, LLVMTypeOf(i)),
                                 LLVMTypeOf(i), &made);
      lt_map_free(&made);
      LLVMReplaceAllUsesWith(i, w);
      lt_vec_push(&dead, i);
    }
  /* the extracts, then bitcasts left without uses */
  for (size_t k = 0; k < dead.n; k++) {
    LLVMValueRef bc = LLVMGetOperand(dead.v[k], 0);
    LLVMInstructionEraseFromParent(dead.v[k]);
    dead.v[k] = bc;
  }
  for (size_t k = 0; k < dead.n; k++)
    if (dead.v[k] && !LLVMGetFirstUse(dead.v[k])) {
      for (size_t q = k + 1; q < dead.n; q++)
        if (dead.v[q] == dead.v[k])
          dead.v[q] = NULL;
      LLVMInstructionEraseFromParent(dead.v[k]);
    }
  lt_vec_free(&dead);
  LLVMDisposeBuilder(b);
}
