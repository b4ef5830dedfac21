/* globals.c: shadow globals (-leantape-global-shadows).
 *
 * Code that keeps state in globals (a scratch array, a parameter block a
 * setup function fills) stores active values there. With the option, each
 * mutable global of the module that may hold floating-point data or
 * pointers (analysis/points.c) has a shadow global of the same type,
 * "<name>.lt.shadow", internal, zero-initialised; shadows of constant
 * expressions over it (GEPs, casts) are the same expressions over the
 * shadow. A derivative call zeroes the shadow globals its code reaches
 * before it starts (__enzyme_autodiff, __enzyme_augmentfwd and
 * __enzyme_fwddiff; __enzyme_reverse continues what its augmented call
 * began). Enzyme calls this global activity (-enzyme-global-activity) and
 * names its shadows the same way. A global with a shadow of the user's
 * (the enzyme_shadow attribute, front/annotate.c) has that one, with or
 * without the option, and it is not zeroed.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

LLVMValueRef lt_global_shadow(LtCtx *c, LLVMValueRef gv) {
  /* enzyme_shadow: the user's, never zeroed here (the user seeds and reads
   * it, as the shadow of an enzyme_dup argument) */
  LLVMValueRef s = lt_map_get(&c->user_shadow, gv);
  if (s && s != (void *)1)
    return s;
  s = lt_map_get(&c->gshadow, gv);
  if (s && s != (void *)1)
    return s;
  size_t len;
  const char *n = LLVMGetValueName2(gv, &len);
  char name[512];
  snprintf(name, sizeof name, "%.*s.lt.shadow", (int)(len < 400 ? len : 400), n);
  LLVMTypeRef t = LLVMGlobalGetValueType(gv);
  s = LLVMAddGlobalInAddressSpace(c->mod, t, name,
                                  LLVMGetPointerAddressSpace(LLVMTypeOf(gv)));
  LLVMSetInitializer(s, LLVMConstNull(t));
  LLVMSetLinkage(s, LLVMInternalLinkage);
  LLVMSetAlignment(s, LLVMGetAlignment(gv));
  LLVMSetThreadLocal(s, LLVMIsThreadLocal(gv));
  lt_map_put(&c->gshadow, gv, s);
  lt_map_put(&c->gshadow, s, (void *)1);
  return s;
}

LLVMValueRef lt_shadow_const(LtCtx *c, LLVMValueRef v) {
  if (LLVMIsAGlobalVariable(v))
    return lt_global_may_shadow(c, v) ? lt_global_shadow(c, v) : NULL;
  if (!LLVMIsAConstantExpr(v))
    return NULL;
  LLVMValueRef base = lt_shadow_const(c, LLVMGetOperand(v, 0));
  if (!base)
    return NULL;
  switch (LLVMGetConstOpcode(v)) {
  case LLVMGetElementPtr: {
    unsigned n = (unsigned)LLVMGetNumOperands(v) - 1;
    LLVMValueRef idx[16];
    if (n > 16)
      return NULL;
    for (unsigned k = 0; k < n; k++)
      idx[k] = LLVMGetOperand(v, k + 1);
    return LLVMConstGEPWithNoWrapFlags(LLVMGetGEPSourceElementType(v), base, idx, n,
                                       LLVMGEPGetNoWrapFlags(v));
  }
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    return LLVMConstPointerCast(base, LLVMTypeOf(v));
  default:
    return NULL;
  }
}

static void collect(LtCtx *c, LLVMValueRef fn, LtMap *seen, LtVec *out) {
  if (lt_map_get(seen, fn))
    return;
  lt_map_put(seen, fn, (void *)1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
        while (op && LLVMIsAConstantExpr(op))
          op = LLVMGetOperand(op, 0);
        if (!op)
          continue;
        if (LLVMIsAGlobalVariable(op) && lt_map_get(&c->gshadow, op) == (void *)1 &&
            !lt_map_get(seen, op)) {
          lt_map_put(seen, op, (void *)1);
          lt_vec_push(out, op);
        } else if (LLVMIsAFunction(op) && !LLVMIsDeclaration(op)) {
          size_t len;
          if (strstr(LLVMGetValueName2(op, &len), ".lt"))
            collect(c, op, seen, out);
        }
      }
}

void lt_zero_shadow_globals(LtCtx *c, LLVMBuilderRef b, LLVMValueRef fn) {
  if (!c->gshadow.n)
    return;
  LtMap seen;
  lt_map_init(&seen, 16);
  LtVec gs = {0};
  collect(c, fn, &seen, &gs);
  for (size_t k = 0; k < gs.n; k++) {
    LLVMValueRef s = gs.v[k];
    LLVMTypeRef t = LLVMGlobalGetValueType(s);
    LLVMBuildMemSet(b, s, LLVMConstInt(c->i8, 0, 0),
                    LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, t), 0),
                    LLVMGetAlignment(s) ? LLVMGetAlignment(s) : 1);
  }
  lt_vec_free(&gs);
  lt_map_free(&seen);
}
