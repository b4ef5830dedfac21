/* tanval.c: tangent values of forward mode (the LtTg of tangent.h): a P
 * value's clone in T, its tangent (zero when it does not vary), its
 * shadow, and the W lanes of a tangent: a <W x T> for scalar floats, a
 * [W x T] for anything else, the value itself at width 1.
 */
#include "lt.h"

LLVMValueRef lt_tg_val(LtTg *t, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(&t->vm, v);
  return m ? m : v;
}

static int scalar_float(LLVMTypeRef ty) { return lt_is_float_ty(ty); }

LLVMTypeRef lt_tg_type(LtTg *t, LLVMTypeRef ty) {
  if (t->W == 1)
    return ty;
  if (scalar_float(ty))
    return LLVMVectorType(ty, t->W);
  return LLVMArrayType2(ty, t->W);
}

LLVMValueRef lt_tg_lane(LtTg *t, LLVMValueRef x, LLVMTypeRef ty, unsigned k) {
  if (t->W == 1)
    return x;
  if (scalar_float(ty))
    return LLVMBuildExtractElement(t->b, x, LLVMConstInt(t->c->i32, k, 0), "");
  return LLVMBuildExtractValue(t->b, x, k, "");
}

LLVMValueRef lt_tg_join(LtTg *t, LLVMValueRef *lanes, LLVMTypeRef ty) {
  if (t->W == 1)
    return lanes[0];
  LLVMTypeRef tt = lt_tg_type(t, ty);
  LLVMValueRef v = LLVMGetUndef(tt);
  for (unsigned k = 0; k < t->W; k++)
    v = scalar_float(ty) ? LLVMBuildInsertElement(t->b, v, lanes[k],
                                                  LLVMConstInt(t->c->i32, k, 0), "")
                         : LLVMBuildInsertValue(t->b, v, lanes[k], k, "");
  return v;
}

LLVMValueRef lt_tg_tan(LtTg *t, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(&t->tan, v);
  if (m)
    return m;
  return LLVMConstNull(lt_tg_type(t, LLVMTypeOf(v)));
}

LLVMValueRef lt_tg_shadow(LtTg *t, LLVMValueRef p) {
  LLVMValueRef m = lt_map_get(&t->sh, p);
  if (m)
    return m;
  if (LLVMIsAConstant(p) && lt_is_shadowed(&t->g->act_of, p) &&
      (m = lt_shadow_const(t->c, p))) {
    LLVMValueRef lanes[64]; /* one shadow global: the same for every lane */
    for (unsigned k = 0; k < t->W && k < 64; k++)
      lanes[k] = m;
    return lt_tg_join(t, lanes, LLVMTypeOf(p));
  }
  return LLVMConstNull(lt_tg_type(t, LLVMTypeOf(p)));
}

