/* scopes.c: alias scopes of R's memory accesses (issue 17).
 *
 * R re-reads primal memory and adds into shadow memory; where LLVM cannot
 * tell these apart, a reverse loop keeps every load in the loop and
 * vectorises only behind run-time checks, or not at all. Two facts, each a
 * domain of scoped-noalias metadata (LangRef, "noalias and alias.scope
 * Metadata"):
 *  - shadow memory is never primal memory (Enzyme's convention: an
 *    enzyme_dup shadow, a shadow allocation or global is memory of its
 *    own): R's shadow accesses and its re-loads are each !noalias the other;
 *  - shadows alias as their primals do (Enzyme's convention), and C's
 *    restrict says that memory the call modifies through a restrict
 *    parameter j is accessed through pointers based on j only. So the
 *    shadow of a location P modifies through j (a store through j only, or
 *    a load of the address a store in the same block writes later) gets
 *    j's scope, and shadow accesses through pointers the points-to sets
 *    show are not based on j are !noalias it. Locations only read through
 *    j get none: restrict lets read-only arrays overlap (dot(x, x)), and
 *    their shadows, which R writes, overlap then too.
 *  - a parameter the caller knows apart from every other (LT_PF_DISTINCT:
 *    a versioned gradient's run-time test said so, gen/version.c) is
 *    restrict and more: no other parameter reaches its bytes, read or
 *    written, so the shadow of any location P reaches only through it
 *    gets its scope.
 *  - the tape (its slots and loop caches: Leantape's own allocations, or
 *    storage the caller gave for it alone) is neither primal nor shadow
 *    memory: R's tape loads get a scope of their own, and its shadow
 *    accesses and re-loads are !noalias it. Without it a reverse loop
 *    that reads its cache keeps the order of every shadow access
 *    (gather.c could not move a stencil's additions past the cache's
 *    loads, nor could the vectoriser).
 * An llvm.experimental.noalias.scope.decl at R's entry declares the
 * scopes, so the inliner and the loop unroller give every copy of R scopes
 * of its own. Undo-log and adjoint accesses, atomics and the undo log's
 * restores stay untagged, which LLVM takes to alias everything.
 */
#include "lt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A scope !{!self, !domain, !"name"}, or a domain !{!self, !"name"},
 * made with a temporary node that the node itself replaces (the C API
 * makes no distinct nodes; a node naming itself is unique anyway). */
LLVMMetadataRef lt_self_md_node(LLVMContextRef c, LLVMMetadataRef domain, const char *name) {
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(c, NULL, 0);
  LLVMMetadataRef str = LLVMMDStringInContext2(c, name, strlen(name));
  LLVMMetadataRef ops[3] = {tmp, domain ? domain : str, str};
  LLVMMetadataRef n = LLVMMDNodeInContext2(c, ops, domain ? 3 : 2);
  LLVMMetadataReplaceAllUsesWith(tmp, n);
  return n;
}

static int distinct_param(LtGen *g, unsigned p) {
  return g->pf && (g->pf[p] & LT_PF_DISTINCT);
}

/* (Not in a parallel region: restrict speaks of one thread's accesses.) */
static int noalias_param(LtGen *g, unsigned p) {
  return !g->parallel && lt_is_dup(g->act[p]) &&
         (distinct_param(g, p) ||
          LLVMGetEnumAttributeAtIndex(g->P, p + 1, LLVMGetEnumAttributeKindForName("noalias", 7)));
}

static void declare(LtGen *g, LLVMMetadataRef *s, unsigned n) {
  LtCtx *c = g->c;
  unsigned id = LLVMLookupIntrinsicID("llvm.experimental.noalias.scope.decl", 36);
  if (!id || !n)
    return;
  LLVMValueRef decl = LLVMGetIntrinsicDeclaration(c->mod, id, NULL, 0);
  LLVMTypeRef ft = LLVMIntrinsicGetType(c->llctx, id, NULL, 0);
  LLVMValueRef a = LLVMMetadataAsValue(c->llctx, LLVMMDNodeInContext2(c->llctx, s, n));
  LLVMBuildCall2(g->eb, ft, decl, &a, 1, "");
}

/* The scopes, made and declared at R's entry on first use. */
static void make_scopes(LtGen *g) {
  if (g->sc_shadow)
    return;
  LLVMContextRef x = g->c->llctx;
  LLVMMetadataRef dom = lt_self_md_node(x, NULL, "lt.reverse");
  g->sc_primal = lt_self_md_node(x, dom, "lt.primal");
  g->sc_shadow = lt_self_md_node(x, dom, "lt.shadow");
  g->sc_tape = lt_self_md_node(x, dom, "lt.tape");
  declare(g, &g->sc_primal, 1);
  declare(g, &g->sc_shadow, 1);
  declare(g, &g->sc_tape, 1);
  g->sc_excl = lt_xcalloc(g->nparams ? g->nparams : 1, sizeof *g->sc_excl);
  LLVMMetadataRef rdom = NULL;
  for (unsigned p = 0; p < g->nparams; p++)
    if (noalias_param(g, p)) {
      char name[64];
      snprintf(name, sizeof name, "lt.restrict.%u", p);
      if (!rdom)
        rdom = lt_self_md_node(x, NULL, "lt.restrict");
      g->sc_excl[p] = lt_self_md_node(x, rdom, name);
      declare(g, &g->sc_excl[p], 1);
    }
}

/* Does P modify the location its access i reads or writes: i is a store,
 * or a load whose address a store later in its block writes, with no call
 * between (which might not return)? */
static int modified(LLVMValueRef i) {
  if (LLVMIsAStoreInst(i))
    return !LLVMGetVolatile(i);
  if (!LLVMIsALoadInst(i) || LLVMGetVolatile(i))
    return 0;
  LLVMValueRef p = LLVMGetOperand(i, 0);
  for (LLVMValueRef n = LLVMGetNextInstruction(i); n; n = LLVMGetNextInstruction(n)) {
    if (LLVMIsACallInst(n) && !LLVMIsAIntrinsicInst(n))
      return 0;
    if (LLVMIsAStoreInst(n) && LLVMGetOperand(n, 1) == p && !LLVMGetVolatile(n))
      return 1;
  }
  return 0;
}

static void tag(LtGen *g, LLVMValueRef inst, LLVMMetadataRef *scope, unsigned ns,
                LLVMMetadataRef *other, unsigned no) {
  LLVMContextRef x = g->c->llctx;
  LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(x, "alias.scope", 11),
                  LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, scope, ns)));
  LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(x, "noalias", 7),
                  LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, other, no)));
}

static int taggable(LLVMValueRef inst) {
  return inst && (LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) &&
         LLVMGetOrdering(inst) == LLVMAtomicOrderingNotAtomic;
}

void lt_scope_shadow(LtGen *g, LLVMValueRef inst, LLVMValueRef from) {
  if (!taggable(inst))
    return;
  make_scopes(g);
  LLVMMetadataRef sc[2] = {g->sc_shadow}, *no = lt_xcalloc(g->nparams + 2, sizeof *no);
  unsigned ns = 1, nn = 0;
  no[nn++] = g->sc_primal;
  no[nn++] = g->sc_tape;
  LLVMValueRef p = NULL;
  if (from && (LLVMIsALoadInst(from) || LLVMIsAStoreInst(from)))
    p = LLVMGetOperand(from, LLVMIsAStoreInst(from) ? 1 : 0);
  LtPoints *pt = &g->act_of.pts;
  for (unsigned k = 0; p && k < g->nparams; k++) {
    if (!g->sc_excl[k])
      continue;
    if (!lt_points_may_be_param(pt, p, k))
      no[nn++] = g->sc_excl[k];
    else if (ns == 1 && lt_points_only_param(pt, p, k) &&
             (distinct_param(g, k) || modified(from)))
      sc[ns++] = g->sc_excl[k];
  }
  tag(g, inst, sc, ns, no, nn);
  free(no);
}

void lt_scope_primal(LtGen *g, LLVMValueRef inst) {
  if (!taggable(inst))
    return;
  make_scopes(g);
  LLVMMetadataRef no[2] = {g->sc_shadow, g->sc_tape};
  tag(g, inst, &g->sc_primal, 1, no, 2);
}

void lt_scope_tape(LtGen *g, LLVMValueRef inst) {
  if (!taggable(inst))
    return;
  make_scopes(g);
  LLVMMetadataRef no[2] = {g->sc_primal, g->sc_shadow};
  tag(g, inst, &g->sc_tape, 1, no, 2);
}

/* R's calls of the undo log's helpers (undort.c) swap logged primal
 * memory with the log's entries: no shadow, no tape. Said, so that LLVM
 * keeps a reverse loop's cache loads and shadow additions apart from a
 * restore in the loop (LICM hoists the loads of what an outer loop
 * cached, gather.c moves the additions). Not lt.undo.finish, which may
 * pop the arena the loop caches live in. */
void lt_scope_undo_calls(LtGen *g) {
  if (!g->sc_shadow || !g->r_undo)
    return;
  LLVMContextRef x = g->c->llctx;
  LLVMMetadataRef no[2] = {g->sc_shadow, g->sc_tape};
  LLVMValueRef node = LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, no, 2));
  unsigned kind = LLVMGetMDKindIDInContext(x, "noalias", 7);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->R); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef f = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
      size_t n;
      const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : "";
      if (!strncmp(name, "lt.undo.", 8) && strcmp(name, "lt.undo.finish"))
        LLVMSetMetadata(i, kind, node);
    }
}

/* inst's !noalias list with s[0 .. ns) added */
static void add_noalias(LLVMContextRef x, LLVMValueRef inst, const LLVMMetadataRef *s, unsigned ns) {
  unsigned kind = LLVMGetMDKindIDInContext(x, "noalias", 7);
  LLVMValueRef old = LLVMGetMetadata(inst, kind);
  unsigned n = old ? LLVMGetMDNodeNumOperands(old) : 0;
  LLVMValueRef *ops = lt_xcalloc(n + 1, sizeof *ops);
  LLVMMetadataRef *md = lt_xcalloc(n + ns, sizeof *md);
  if (n)
    LLVMGetMDNodeOperands(old, ops);
  for (unsigned k = 0; k < n; k++)
    md[k] = LLVMValueAsMetadata(ops[k]);
  for (unsigned k = 0; k < ns; k++)
    md[n + k] = s[k];
  LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, md, n + ns)));
  free(md);
  free(ops);
}

/* A: the tape (Leantape's allocations, or storage the caller gave for it
 * alone) is no memory of the program's, in any call: a domain of its own,
 * with no declaration (the fact holds for every copy of A). Within it, no
 * two slots of a record share a byte in any two records (layout.c packs a
 * scope's slots at offsets of their own; every loop has its own buffer), so
 * each slot of a loop's record gets a scope of its own (the first
 * MAX_SLOT_SCOPES; the rest share one), the header's slots one. Without
 * this the loop vectoriser put the tape's stores in one alias set with the
 * program's accesses and, checking every pair at run time, a record's
 * interleaved slots against one another too: that check always fails, so
 * a loop that caches two values per iteration ran scalar. */
#define MAX_SLOT_SCOPES 32
void lt_scope_forward(LtGen *g) {
  if (!g->tape_stores.n)
    return;
  /* which[slot]: 0 not seen, else 1 + its scope (0 the header's, 1 the
   * rest's, 2 + k slot k's); used[w]: scope w tags a store */
  unsigned nsc = 0, *which = lt_xcalloc(g->plan.slot_ty.n + 1, sizeof *which);
  int used[MAX_SLOT_SCOPES + 2] = {0};
  for (size_t k = 0; k + 1 < g->tape_stores.n; k += 2) {
    unsigned slot = (unsigned)(size_t)g->tape_stores.v[k + 1], w;
    if (which[slot])
      continue;
    if (lt_plan_slot_scope(&g->plan, slot) < 0)
      w = 0;
    else if (nsc < MAX_SLOT_SCOPES)
      w = 2 + nsc++;
    else
      w = 1;
    which[slot] = w + 1;
    used[w] = 1;
  }
  if (!nsc) { /* no loop's record: the header alone, an alloca in combined mode */
    free(which);
    return;
  }
  LLVMContextRef x = g->c->llctx;
  LLVMMetadataRef dom = lt_self_md_node(x, NULL, "lt.forward");
  LLVMMetadataRef sc[MAX_SLOT_SCOPES + 2] = {0};
  for (unsigned k = 0; k < nsc + 2; k++) {
    char name[48];
    if (!used[k])
      continue;
    snprintf(name, sizeof name, k == 0 ? "lt.tape.header" : k == 1 ? "lt.tape.slots" : "lt.tape.slot.%u", k - 2);
    sc[k] = lt_self_md_node(x, dom, name);
  }
  unsigned as = LLVMGetMDKindIDInContext(x, "alias.scope", 11),
           na = LLVMGetMDKindIDInContext(x, "noalias", 7);
  LLVMMetadataRef other[MAX_SLOT_SCOPES + 2];
  for (size_t k = 0; k + 1 < g->tape_stores.n; k += 2) {
    unsigned w = which[(size_t)g->tape_stores.v[k + 1]] - 1, no = 0;
    for (unsigned j = 0; j < nsc + 2; j++)
      if (j != w && sc[j])
        other[no++] = sc[j];
    LLVMSetMetadata(g->tape_stores.v[k], as, LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, &sc[w], 1)));
    LLVMSetMetadata(g->tape_stores.v[k], na, LLVMMetadataAsValue(x, LLVMMDNodeInContext2(x, other, no)));
  }
  free(which);
  LLVMMetadataRef all[MAX_SLOT_SCOPES + 2];
  unsigned nall = 0;
  for (unsigned j = 0; j < nsc + 2; j++)
    if (sc[j])
      all[nall++] = sc[j];
  /* A's copies of P's loads and stores (looked up in A, not followed:
   * a copy may have been replaced since) */
  LtMap mine;
  lt_map_init(&mine, 64);
  for (unsigned bi = 0; bi < g->g.nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[bi]); i;
         i = LLVMGetNextInstruction(i))
      if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && lt_map_get(&g->fmap, i))
        lt_map_put(&mine, lt_map_get(&g->fmap, i), (void *)1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g->A); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && lt_map_get(&mine, i))
        add_noalias(x, i, all, nall);
  lt_map_free(&mine);
}
