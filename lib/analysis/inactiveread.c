/* inactiveread.c: reading back globals the user declared inactive.
 *
 * Active data stored into memory without a shadow is an error when the
 * function reads it back (activity.c): its derivative would be lost. A
 * global declared inactive (enzyme_inactive, __enzyme_inactive_global)
 * has no shadow by the user's word: its data carries no derivative, and
 * loads from it are constants to the derivative (Enzyme's convention).
 * That is only sound where no optimisation sees through it: when a store
 * of an active value may reach the load, clang's -O pipeline or our
 * preprocessing may forward the stored value to it, and the derivative
 * would then flow through the global at one -O level and not at another.
 * A read back is accepted when every such store is harmless to it:
 *  - no store of an active value into those globals can execute before
 *    the load (no path from the store to the load), or
 *  - the value read only goes back into such globals, into the place it
 *    was read from (x op= y through a pointer that may address one), or
 *    into comparisons: statistics, counters, a running maximum.
 * Requires the points-to and activity fixpoint (activity.c, points.c).
 */
#include "lt.h"
#include "analysis/points.h"

static int inactive_global(LtPoints *pt, unsigned o) {
  LLVMValueRef g = pt->obj[o].src;
  return g && LLVMIsAGlobalVariable(g) && lt_map_get(&pt->c->inactive_globals, g);
}

/* Every object addr may address that lost derivatives is such a global. */
static int lost_only_inactive(LtPoints *pt, LLVMValueRef addr) {
  const uint64_t *a = lt_points_of(pt, addr);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o) && pt->tainted && pt->tainted[o] && !inactive_global(pt, o))
      return 0;
  return 1;
}

/* addr may address some object, and only such globals. */
static int only_inactive(LtPoints *pt, LLVMValueRef addr) {
  const uint64_t *a = lt_points_of(pt, addr);
  int any = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o)) {
      if (!inactive_global(pt, o))
        return 0;
      any = 1;
    }
  return any;
}

/* a and b may address a common inactive global. */
static int share_inactive(LtPoints *pt, LLVMValueRef a, LLVMValueRef b) {
  const uint64_t *sa = lt_points_of(pt, a), *sb = lt_points_of(pt, b);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(sa, o) && set_has(sb, o) && inactive_global(pt, o))
      return 1;
  return 0;
}

static int back_to_inactive(LtActivity *a, LLVMValueRef v, LLVMValueRef from,
                            int depth) {
  if (depth > 16)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMStore:
      if (LLVMGetOperand(user, 0) != v ||
          (LLVMGetOperand(user, 1) != from &&
           !only_inactive(&a->pts, LLVMGetOperand(user, 1))))
        return 0;
      break;
    case LLVMFCmp:
      break;
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem:
    case LLVMFNeg: case LLVMFPExt: case LLVMFPTrunc: case LLVMPHI: case LLVMSelect:
      if (!back_to_inactive(a, user, from, depth + 1))
        return 0;
      break;
    default:
      return 0;
    }
  }
  return 1;
}

/* A path from instruction s (after it) to instruction l. */
static int reaches(LLVMValueRef s, LLVMValueRef l, LtMap *seen) {
  LLVMBasicBlockRef sb = LLVMGetInstructionParent(s), lb = LLVMGetInstructionParent(l);
  if (sb == lb)
    for (LLVMValueRef i = LLVMGetNextInstruction(s); i; i = LLVMGetNextInstruction(i))
      if (i == l)
        return 1;
  LtVec work = {0};
  lt_vec_push(&work, sb);
  int found = 0;
  while (work.n && !found) {
    LLVMBasicBlockRef b = work.v[--work.n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    for (unsigned k = 0, n = t ? LLVMGetNumSuccessors(t) : 0; k < n && !found; k++) {
      LLVMBasicBlockRef x = LLVMGetSuccessor(t, k);
      if (x == lb)
        found = 1;
      else if (!lt_map_get(seen, x)) {
        lt_map_put(seen, x, (void *)1);
        lt_vec_push(&work, x);
      }
    }
  }
  lt_vec_free(&work);
  return found;
}

/* A store of an active value into a global the load may read may execute
 * before it. */
static int stored_before(LtActivity *a, LLVMValueRef load, LLVMValueRef from) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(load));
  int hit = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b && !hit;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && !hit;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i))
        continue;
      LLVMValueRef v = LLVMGetOperand(i, 0);
      if (!lt_is_varied(a, v) && !lt_points_any_active(&a->pts, v))
        continue;
      if (!share_inactive(&a->pts, LLVMGetOperand(i, 1), from))
        continue;
      LtMap seen;
      lt_map_init(&seen, 16);
      hit = reaches(i, load, &seen);
      lt_map_free(&seen);
    }
  return hit;
}

int lt_inactive_readback_ok(LtActivity *a, LLVMValueRef load) {
  if (!LLVMIsALoadInst(load))
    return 0;
  LLVMValueRef from = LLVMGetOperand(load, 0);
  if (!lost_only_inactive(&a->pts, from))
    return 0;
  return !stored_before(a, load, from) || back_to_inactive(a, load, from, 0);
}
