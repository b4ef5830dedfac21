/* scopes.c: alias scopes of R's memory accesses (issue 17).
 *
 * R reads primal memory again (re-loads) and adds into shadow memory; LLVM
 * cannot tell the two apart, so a reverse loop whose shadow store might
 * feed its own primal loads keeps every load in the loop and vectorises
 * only behind run-time checks, or not at all. Shadow memory is never
 * primal memory (Enzyme's convention: an enzyme_dup shadow, a shadow
 * allocation or global is memory of its own), so R tags its shadow
 * accesses with one scope and its primal re-loads with another, each
 * !noalias the other (LangRef, "noalias and alias.scope Metadata"); an
 * llvm.experimental.noalias.scope.decl at R's entry declares both, so the
 * inliner and the loop unroller give every copy of R scopes of its own.
 * Only these two kinds of access are tagged: tape, undo-log and adjoint
 * accesses, atomics and the undo log's restores stay untagged, which
 * LLVM takes to alias everything.
 */
#include "lt.h"
#include <string.h>

/* A scope !{!self, !domain, !"name"}, or a domain !{!self, !"name"},
 * made with a temporary node that the node itself replaces (the C API
 * makes no distinct nodes; a node naming itself is unique anyway). */
static LLVMMetadataRef self_node(LLVMContextRef c, LLVMMetadataRef domain, const char *name) {
  LLVMMetadataRef tmp = LLVMTemporaryMDNode(c, NULL, 0);
  LLVMMetadataRef str = LLVMMDStringInContext2(c, name, strlen(name));
  LLVMMetadataRef ops[3] = {tmp, domain ? domain : str, str};
  LLVMMetadataRef n = LLVMMDNodeInContext2(c, ops, domain ? 3 : 2);
  LLVMMetadataReplaceAllUsesWith(tmp, n);
  return n;
}

static LLVMValueRef list_of(LLVMContextRef c, LLVMMetadataRef s) {
  return LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &s, 1));
}

/* Make the two scopes and declare them at R's entry, once per R. */
static int make_scopes(LtGen *g) {
  if (g->sc_shadow)
    return 1;
  LtCtx *c = g->c;
  LLVMContextRef x = c->llctx;
  LLVMMetadataRef dom = self_node(x, NULL, "lt.reverse");
  LLVMMetadataRef sp = self_node(x, dom, "lt.primal");
  LLVMMetadataRef ss = self_node(x, dom, "lt.shadow");
  g->sc_primal = list_of(x, sp);
  g->sc_shadow = list_of(x, ss);
  unsigned id = LLVMLookupIntrinsicID("llvm.experimental.noalias.scope.decl", 36);
  if (!id)
    return 1;
  LLVMValueRef decl = LLVMGetIntrinsicDeclaration(c->mod, id, NULL, 0);
  LLVMTypeRef ft = LLVMIntrinsicGetType(x, id, NULL, 0);
  LLVMValueRef lists[2] = {g->sc_primal, g->sc_shadow};
  for (int k = 0; k < 2; k++)
    LLVMBuildCall2(g->eb, ft, decl, &lists[k], 1, "");
  return 1;
}

static void tag(LtGen *g, LLVMValueRef inst, LLVMValueRef scope, LLVMValueRef other) {
  if (!inst || !(LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst)) ||
      LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic)
    return;
  LtCtx *c = g->c;
  LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(c->llctx, "alias.scope", 11), scope);
  LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(c->llctx, "noalias", 7), other);
}

void lt_scope_shadow(LtGen *g, LLVMValueRef inst) {
  if (make_scopes(g))
    tag(g, inst, g->sc_shadow, g->sc_primal);
}

void lt_scope_primal(LtGen *g, LLVMValueRef inst) {
  if (make_scopes(g))
    tag(g, inst, g->sc_primal, g->sc_shadow);
}
