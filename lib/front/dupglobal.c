/* dupglobal.c: a global passed as enzyme_dup and also used by name.
 *
 * Globals the differentiated code reads by name and never writes are
 * constants to the derivative (README, Globals). When the same global is
 * an enzyme_dup argument, the function reads the caller's active data
 * twice: through the parameter, with the shadow the call passes, and by
 * name, with none, so the derivative through the second is lost (or,
 * written by name, the shadow misses the write): a silently wrong
 * gradient. Enzyme stops there too ("cannot compute with global variable
 * that doesn't have marked shadow global"). The call is refused, with the
 * function that names the global, unless the user declared it inactive
 * (__enzyme_inactive_global: no derivative by their word) or gave it a
 * shadow of their own (enzyme_shadow).
 */
#include "lt.h"

#include <stdlib.h>

/* The global v is an address into (through constant GEPs and casts), or
 * NULL. */
static LLVMValueRef global_base(LLVMValueRef v) {
  for (int k = 0; v && k < 16; k++) {
    if (LLVMIsAGlobalVariable(v))
      return v;
    if (LLVMIsAGetElementPtrInst(v) || LLVMIsACastInst(v))
      v = LLVMGetOperand(v, 0);
    else if (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMGetElementPtr ||
                                        LLVMGetConstOpcode(v) == LLVMBitCast ||
                                        LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
      v = LLVMGetOperand(v, 0);
    else
      return NULL;
  }
  return NULL;
}

/* Does constant or operand v name g (inside constant expressions too)? */
static int names(LLVMValueRef v, LLVMValueRef g, int depth) {
  if (v == g)
    return 1;
  if (depth > 4 || !LLVMIsAConstantExpr(v))
    return 0;
  for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
    if (names(LLVMGetOperand(v, (unsigned)k), g, depth + 1))
      return 1;
  return 0;
}

/* The first function reachable from fn through direct calls (fn
 * included) that names g, or NULL. */
static LLVMValueRef user_of(LLVMValueRef fn, LLVMValueRef g) {
  LtVec work = {0};
  LtMap seen;
  lt_map_init(&seen, 16);
  lt_vec_push(&work, fn);
  LLVMValueRef found = NULL;
  for (size_t w = 0; w < work.n && !found && w < 4096; w++) {
    LLVMValueRef f = work.v[w];
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !found;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !found;
           i = LLVMGetNextInstruction(i)) {
        int n = LLVMGetNumOperands(i);
        if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) {
          LLVMValueRef callee = LLVMGetCalledValue(i);
          if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) &&
              !lt_map_get(&seen, callee)) {
            lt_map_put(&seen, callee, (void *)1);
            lt_vec_push(&work, callee);
          }
          n = (int)LLVMGetNumArgOperands(i);
        }
        for (int k = 0; k < n && !found; k++)
          if (names(LLVMGetOperand(i, (unsigned)k), g, 0))
            found = f;
      }
  }
  lt_vec_free(&work);
  lt_map_free(&seen);
  return found;
}

int lt_dup_global_used(LtCtx *c, LLVMValueRef call, const LtRequest *r) {
  for (unsigned p = 0; p < r->nparams; p++) {
    if (!lt_is_dup(r->act[p]) || !r->arg[p])
      continue;
    LLVMValueRef g = global_base(r->arg[p]);
    if (!g || lt_map_get(&c->inactive_globals, g) || lt_map_get(&c->user_shadow, g))
      continue;
    LLVMValueRef u = user_of(r->fn, g);
    if (!u)
      continue;
    lt_error(c, call, "the global '%s' is passed as enzyme_dup (parameter %u of '%s') "
                      "and '%s' also uses it by name, without its shadow: the "
                      "derivative through that use would be lost; reach it only "
                      "through the parameter, or pass a copy",
             LLVMGetValueName2(g, &(size_t){0}), p + 1, LLVMGetValueName2(r->fn, &(size_t){0}),
             LLVMGetValueName2(u, &(size_t){0}));
    return -1;
  }
  return 0;
}
