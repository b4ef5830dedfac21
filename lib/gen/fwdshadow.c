/* fwdshadow.c: shadows of pointers and pointer words (forward mode).
 *
 * A pointer into active memory gets a shadow per lane by the same address
 * arithmetic on its operand's shadow; a pointer word (an integer holding
 * such an address, ptrword.c) the same word of the shadow address.
 */
#include "lt.h"

static LLVMValueRef shadow_lane(LtTg *t, LLVMValueRef p, unsigned k) {
  return lt_tg_lane(t, lt_tg_shadow(t, p), LLVMTypeOf(p), k);
}

/* The shadow of a pointer-valued instruction: address arithmetic on the
 * operand's shadow, per lane. */
int lt_fwd_pointer(LtTg *t, LLVMValueRef i) {
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++) {
    switch (op) {
    case LLVMGetElementPtr: {
      unsigned n = (unsigned)LLVMGetNumOperands(ti) - 1;
      LLVMValueRef idx[64];
      if (n > 64)
        goto bad;
      for (unsigned q = 0; q < n; q++)
        idx[q] = LLVMGetOperand(ti, q + 1);
      LLVMValueRef base = shadow_lane(t, LLVMGetOperand(i, 0), k);
      LLVMValueRef s = LLVMBuildGEP2(t->b, LLVMGetGEPSourceElementType(ti), base, idx, n, "");
      if (LLVMIsAGetElementPtrInst(s))
        LLVMSetIsInBounds(s, LLVMIsInBounds(ti));
      if (lt_shadow_maynull(&t->g->act_of, LLVMGetOperand(i, 0)))
        s = lt_guard_gep(t->c, t->b, base, s);
      lanes[k] = s;
      break;
    }
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
      lanes[k] = LLVMBuildPointerCast(t->b, shadow_lane(t, LLVMGetOperand(i, 0), k),
                                      LLVMTypeOf(ti), "");
      break;
    case LLVMFreeze:
      lanes[k] = shadow_lane(t, LLVMGetOperand(i, 0), k);
      break;
    case LLVMIntToPtr:
      if (!lt_is_ptr_word(&t->g->act_of, LLVMGetOperand(i, 0)))
        goto bad;
      lanes[k] = LLVMBuildIntToPtr(t->b, shadow_lane(t, LLVMGetOperand(i, 0), k),
                                   LLVMTypeOf(ti), "");
      break;
    case LLVMSelect:
      lanes[k] = LLVMBuildSelect(t->b, LLVMGetOperand(ti, 0),
                                 shadow_lane(t, LLVMGetOperand(i, 1), k),
                                 shadow_lane(t, LLVMGetOperand(i, 2), k), "");
      break;
    default:
      goto bad;
    }
  }
  lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
bad:
  lt_error(t->c, i, "this pointer may address active memory, but its shadow "
                    "cannot be formed (%s); compute the address with "
                    "pointer arithmetic on the original array instead",
           op == LLVMIntToPtr ? "it is made from an integer"
                              : "it comes from an unsupported instruction");
  return -1;
}


/* The shadow of a pointer word, per lane (loads are fwd_load's; PHIs are
 * made by tangent.c). */
int lt_fwd_word(LtTg *t, LLVMValueRef i) {
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMTypeRef ty = LLVMTypeOf(ti);
  LLVMValueRef lanes[64], base = NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op != LLVMPtrToInt && op != LLVMSelect && op != LLVMFreeze && op != LLVMExtractElement &&
      !(base = lt_ptr_word_base(&t->g->act_of, i))) {
    lt_internal_error(t->c, t->g->P, "a pointer word has no shadow rule");
    return -1;
  }
  for (unsigned k = 0; k < t->W && k < 64; k++) {
    if (op == LLVMPtrToInt)
      lanes[k] = LLVMBuildPtrToInt(t->b, shadow_lane(t, LLVMGetOperand(i, 0), k), ty, "");
    else if (op == LLVMSelect)
      lanes[k] = LLVMBuildSelect(t->b, LLVMGetOperand(ti, 0),
                                 shadow_lane(t, LLVMGetOperand(i, 1), k),
                                 shadow_lane(t, LLVMGetOperand(i, 2), k), "");
    else if (op == LLVMFreeze)
      lanes[k] = shadow_lane(t, LLVMGetOperand(i, 0), k);
    else if (op == LLVMExtractElement) /* a word packed into a vector */
      lanes[k] = shadow_lane(t, lt_word_source(i), k);
    else /* shadow(b) + (v - b): the same offset from the shadow */
      lanes[k] = LLVMBuildAdd(t->b, shadow_lane(t, base, k),
                              LLVMBuildSub(t->b, ti, lt_tg_val(t, base), ""), "");
  }
  lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}
