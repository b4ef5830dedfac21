/* pointsq.c: what points.c's sets say, once its fixpoint has run: whether
 * a pointer may address active or inactive memory, the stack, only this
 * function's allocations; whether two pointers may alias; whether an
 * allocation escapes; which writes the primal need not perform.
 */
#include "lt.h"
#include "analysis/points.h"

#include <stdlib.h>
#include <string.h>

int lt_points_any_active(LtPoints *pt, LLVMValueRef v) {
  const uint64_t *s = lt_points_of(pt, v);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && pt->active[o])
      return 1;
  return 0;
}

int lt_points_may_alias(LtPoints *pt, LLVMValueRef a, LLVMValueRef b) {
  const uint64_t *sa = lt_points_of(pt, a), *sb = lt_points_of(pt, b);
  int na = 0, nb = 0, xa = 0, xb = 0, ga = 0, gb = 0;
  for (unsigned o = 0; o < pt->nobj; o++) {
    int k = pt->obj[o].kind, ha = set_has(sa, o), hb = set_has(sb, o);
    if (k == O_NULL)
      continue;
    if ((ha && hb) || ((ha || hb) && k == O_UNKNOWN))
      return 1;
    na += ha;
    nb += hb;
    /* memory from outside the function, except a distinct parameter's
     * object, which aliases only itself (LT_PF_DISTINCT) */
    int outside = (k == O_ARG && !pt->distinct[o]) || k == O_ARGMEM || k == O_CALLMEM;
    xa |= ha && outside;
    xb |= hb && outside;
    ga |= ha && k == O_GLOBAL;
    gb |= hb && k == O_GLOBAL;
  }
  if (!na || !nb)
    return 1; /* nothing known */
  /* memory from outside the function may be any memory from outside */
  return (xa && (xb || gb)) || (ga && xb);
}

/* v addresses some allocation and, but for null, nothing else: no stack
 * slot either when heap_only. */
static int all_allocs(LtPoints *pt, LLVMValueRef v, int heap_only) {
  const uint64_t *s = lt_points_of(pt, v);
  int n = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o)) {
      if (pt->obj[o].kind == O_NULL)
        continue;
      if (pt->obj[o].kind != O_ALLOC || (heap_only && LLVMIsAAllocaInst(pt->obj[o].src)))
        return 0;
      n++;
    }
  return n > 0;
}

int lt_points_all_heap(LtPoints *pt, LLVMValueRef v) { return all_allocs(pt, v, 1); }

int lt_points_all_own(LtPoints *pt, LLVMValueRef v) { return all_allocs(pt, v, 0); }

int lt_points_any_stack(LtPoints *pt, LLVMValueRef v, int (*but)(void *, LLVMValueRef),
                        void *arg) {
  const uint64_t *s = lt_points_of(pt, v);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && pt->obj[o].kind == O_ALLOC &&
        LLVMIsAAllocaInst(pt->obj[o].src) && !(but && but(arg, pt->obj[o].src)))
      return 1;
  return 0;
}

int lt_points_holds_inactive(LtPoints *pt, LLVMValueRef v) {
  const uint64_t *s = lt_points_of(pt, v);
  unsigned char *seen = lt_xcalloc(pt->nobj, 1);
  unsigned *stack = lt_xcalloc(pt->nobj + 1, sizeof *stack), n = 0;
  int found = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o))
      seen[o] = 1, stack[n++] = o;
  while (n && !found) {
    const uint64_t *c = pt->contents + (size_t)stack[--n] * pt->words;
    for (unsigned q = 0; q < pt->nobj && !found; q++)
      if (set_has(c, q)) {
        found = !pt->active[q] && pt->obj[q].kind != O_NULL;
        if (!seen[q])
          seen[q] = 1, stack[n++] = q;
      }
  }
  free(seen);
  free(stack);
  return found;
}

int lt_points_any_inactive(LtPoints *pt, LLVMValueRef v) {
  const uint64_t *s = lt_points_of(pt, v);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && !pt->active[o])
      return 1;
  return 0;
}

int lt_points_any_inactive_node(LtPoints *pt, LLVMValueRef v) {
  const uint64_t *s = lt_points_of(pt, v);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && !pt->active[o] && !lt_points_holds_data(pt, o))
      return 1;
  return 0;
}

int lt_points_escapes(LtPoints *pt, LLVMValueRef alloc) {
  const uint64_t *a = lt_points_of(pt, alloc);
  uint64_t *reach = lt_xcalloc(pt->words, sizeof *reach);
  for (unsigned o = 0; o < pt->nobj; o++) {
    int k = pt->obj[o].kind;
    if ((k == O_ARG || k == O_ARGMEM || k == O_GLOBAL || k == O_UNKNOWN || k == O_CALLMEM) &&
        !lt_points_holds_data(pt, o))
      lt_points_join(pt, reach, contents(pt, o));
  }
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(alloc));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) == 1)
      lt_points_join(pt, reach, lt_points_of(pt, LLVMGetOperand(t, 0)));
  }
  for (int grew = 1; grew;) {
    grew = 0;
    for (unsigned o = 0; o < pt->nobj; o++)
      if (set_has(reach, o))
        grew |= lt_points_join(pt, reach, contents(pt, o));
  }
  int esc = 0;
  for (unsigned o = 0; o < pt->nobj && !esc; o++)
    esc = set_has(a, o) && pt->obj[o].kind == O_ALLOC && pt->obj[o].src == alloc &&
          set_has(reach, o);
  free(reach);
  return esc;
}

/* Writes the primal need not perform: stores, memset and memcpy into the
 * memory of enzyme_dupnoneed parameters that the function never reads
 * back. Enzyme's convention lets such a parameter be a null pointer when
 * only its shadow is wanted (enzyme_dupnoneed, NULL, d_out). */
void lt_points_unneeded_writes(LtPoints *pt, const LtCfg *g, const LtAct *act,
                               LtVec *out) {
  unsigned char *cand = lt_xcalloc(pt->nobj, 1);
  int any = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (pt->obj[o].kind == O_ARG && act[pt->obj[o].param] == LT_DUPNONEED)
      any = cand[o] = 1;
  const LtRule *rule;
  for (unsigned b = 0; any && b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef from = NULL;
      if (LLVMIsALoadInst(i) || LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
        from = LLVMGetOperand(i, 0);
      else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MEMCPY)
        from = LLVMGetOperand(i, 1);
      else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) != LT_CALL_MEMSET &&
               lt_call_kind(i, &rule) != LT_CALL_FREE)
        for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n; a++) {
          const uint64_t *s = lt_points_of(pt, LLVMGetOperand(i, a));
          for (unsigned o = 0; o < pt->nobj; o++)
            if (set_has(s, o))
              cand[o] = 0;
        }
      if (!from)
        continue;
      const uint64_t *s = lt_points_of(pt, from);
      for (unsigned o = 0; o < pt->nobj; o++)
        if (set_has(s, o))
          cand[o] = 0;
    }
  for (unsigned b = 0; any && b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef to = NULL;
      LtCallKind k;
      if (LLVMIsAStoreInst(i) && !LLVMGetVolatile(i))
        to = LLVMGetOperand(i, 1);
      else if (LLVMIsACallInst(i) &&
               ((k = lt_call_kind(i, &rule)) == LT_CALL_MEMCPY || k == LT_CALL_MEMSET) &&
               LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
        to = LLVMGetOperand(i, 0);
      if (!to)
        continue;
      const uint64_t *s = lt_points_of(pt, to);
      int only = nonempty(pt, s);
      for (unsigned o = 0; o < pt->nobj && only; o++)
        if (set_has(s, o) && !cand[o])
          only = 0;
      if (only)
        lt_vec_push(out, i);
    }
  free(cand);
}

/* Is o parameter p's object, or its inactive twin (LT_DUPNULL)? */
static int param_obj(const LtPoints *pt, unsigned o, unsigned p) {
  return (int)o == pt->argobj[p] || (int)o == pt->argnull[p];
}

/* Does v address parameter p's objects only (or null)? */
int lt_points_only_param(LtPoints *pt, LLVMValueRef v, unsigned p) {
  const uint64_t *s = lt_points_of(pt, v);
  int n = 0;
  if (pt->argobj[p] < 0)
    return 0;
  for (unsigned k = 0; k < pt->nobj; k++)
    if (set_has(s, k) && k != pt->null) {
      if (!param_obj(pt, k, p))
        return 0;
      n++;
    }
  return n > 0;
}

/* May v address parameter p's objects (or anything: unknown, no facts)? */
int lt_points_may_be_param(LtPoints *pt, LLVMValueRef v, unsigned p) {
  const uint64_t *s = lt_points_of(pt, v);
  int n = 0;
  if (pt->argobj[p] < 0)
    return 1;
  for (unsigned k = 0; k < pt->nobj; k++)
    if (set_has(s, k) && k != pt->null) {
      if (param_obj(pt, k, p) || k == pt->unknown)
        return 1;
      n++;
    }
  return n == 0;
}
