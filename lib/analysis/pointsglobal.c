/* pointsglobal.c: the globals of the points-to analysis (points.c): which
 * globals a function's constants name become objects, which hold only
 * plain data or tables of other globals' addresses, and which get a shadow
 * under -leantape-global-shadows. Part of activity.c's fixpoint (points.c
 * says how the four files split it), split from points.c for size. */
#include "lt.h"
#include "analysis/points.h"

#include <string.h>

LLVMValueRef lt_points_strip_const(LLVMValueRef v) {
  while (LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast)
      break;
    v = LLVMGetOperand(v, 0);
  }
  return v;
}

/* -leantape-global-shadows: a global of the module (defined here, not
 * constant, not Leantape's own or LLVM's, not registered inactive) whose
 * value may hold floating-point data or pointers has a shadow. */
static int may_hold_data(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMPointerTypeKind:
    return 1;
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind:
    return may_hold_data(LLVMGetElementType(t));
  case LLVMStructTypeKind:
    for (unsigned k = 0, n = LLVMCountStructElementTypes(t); k < n; k++)
      if (may_hold_data(LLVMStructGetTypeAtIndex(t, k)))
        return 1;
    return 0;
  default:
    return lt_is_float_ty(t);
  }
}

int lt_global_may_shadow(LtCtx *c, LLVMValueRef gv) {
  /* enzyme_shadow: the user's shadow, with or without the option; the
   * shadow itself is inactive memory */
  void *user = gv ? lt_map_get(&c->user_shadow, gv) : NULL;
  if (user)
    return user != (void *)1;
  if (!c->host->global_shadows || !gv || !LLVMIsAGlobalVariable(gv) ||
      LLVMIsDeclaration(gv) || LLVMIsGlobalConstant(gv) ||
      lt_map_get(&c->inactive_globals, gv) || lt_map_get(&c->gshadow, gv) == (void *)1)
    return 0;
  size_t len;
  const char *n = LLVMGetValueName2(gv, &len);
  if ((len > 3 && !strncmp(n, "lt.", 3)) || (len > 5 && !strncmp(n, "llvm.", 5)) ||
      (len > 7 && !strncmp(n, "enzyme_", 7)) || strstr(n, ".lt.shadow"))
    return 0;
  return may_hold_data(LLVMGlobalGetValueType(gv));
}

/* A constant global whose value is plain data (a string literal, a table
 * of numbers): it holds no addresses, and no store can reach it. */
int lt_points_const_data(LLVMValueRef gv) {
  LLVMValueRef init = LLVMIsAGlobalVariable(gv) && LLVMIsGlobalConstant(gv) &&
                              !LLVMIsDeclaration(gv)
                          ? LLVMGetInitializer(gv)
                          : NULL;
  return init && (LLVMIsAConstantDataSequential(init) || LLVMIsAConstantAggregateZero(init) ||
                  LLVMIsAConstantInt(init) || LLVMIsAConstantFP(init));
}

/* The globals whose addresses constant v holds, into out (up to max);
 * 0 when v may hold other addresses (functions, integers made pointers). */
static int const_refs(LLVMValueRef v, LtVec *out, int depth) {
  if (depth > 8)
    return 0;
  if (LLVMIsAConstantDataSequential(v) || LLVMIsAConstantAggregateZero(v) ||
      LLVMIsAConstantInt(v) || LLVMIsAConstantFP(v) || LLVMIsAConstantPointerNull(v) ||
      LLVMIsAUndefValue(v))
    return 1;
  if (LLVMIsAGlobalVariable(v)) {
    lt_vec_push(out, v);
    return 1;
  }
  if (LLVMIsAConstantExpr(v)) {
    LLVMValueRef base = lt_points_strip_const(v);
    return base != v && const_refs(base, out, depth + 1);
  }
  if (LLVMIsAConstantArray(v) || LLVMIsAConstantStruct(v) || LLVMIsAConstantVector(v)) {
    for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
      if (!const_refs(LLVMGetOperand(v, (unsigned)k), out, depth + 1))
        return 0;
    return 1;
  }
  return 0;
}

/* v (an internal global, or an address made from it) is only ever read. */
static int only_loaded(LLVMValueRef v, int depth) {
  if (depth > 8)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (LLVMIsALoadInst(w))
      continue;
    if ((LLVMIsAGetElementPtrInst(w) && LLVMGetOperand(w, 0) == v) ||
        (LLVMIsAConstantExpr(w) && (LLVMGetConstOpcode(w) == LLVMGetElementPtr ||
                                    LLVMGetConstOpcode(w) == LLVMBitCast))) {
      if (!only_loaded(w, depth + 1))
        return 0;
      continue;
    }
    return 0;
  }
  return 1;
}

/* A global table of string literals, constant or internal and never
 * written (clang -O0 leaves `static const char *names[]` mutable): the
 * globals it points to, or 0 when it may point elsewhere. */
int lt_points_const_table(LLVMValueRef gv, LtVec *out) {
  if (!LLVMIsAGlobalVariable(gv) || LLVMIsDeclaration(gv))
    return 0;
  LLVMLinkage l = LLVMGetLinkage(gv);
  int internal = l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
  return (LLVMIsGlobalConstant(gv) || (internal && only_loaded(gv, 0))) &&
         const_refs(LLVMGetInitializer(gv), out, 0);
}

static void add_global(LtPoints *pt, LLVMValueRef gv) {
  if (lt_map_get(&pt->gobj, gv))
    return;
  lt_map_put(&pt->gobj, gv, (void *)(size_t)(lt_points_new_obj(pt, O_GLOBAL, gv, -1) + 1));
  LtVec refs = {0};
  if (lt_points_const_table(gv, &refs))
    for (size_t k = 0; k < refs.n; k++)
      add_global(pt, refs.v[k]);
  lt_vec_free(&refs);
}

void lt_points_globals(LtPoints *pt, const LtCfg *g) {
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      for (int k = 0, n = LLVMGetNumOperands(i); k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
        if (!op || !LLVMIsAConstant(op))
          continue;
        LLVMValueRef base = lt_points_strip_const(op);
        if (LLVMIsAGlobalVariable(base))
          add_global(pt, base);
      }
}
