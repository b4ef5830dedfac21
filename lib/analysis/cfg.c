/* cfg.c: dense block numbering, predecessors and dominators.
 *
 * Blocks reachable from the entry are numbered in reverse postorder (an
 * iterative DFS); predecessor lists hold one entry per CFG edge; immediate
 * dominators follow Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
 * Algorithm" (2001). A DFS edge to a block still on the stack is a back
 * edge, i.e. the function has a loop.
 */
#include "lt.h"

#include <stdlib.h>

int lt_cfg_id(const LtCfg *g, LLVMBasicBlockRef bb) {
  void *v = lt_map_get(&g->id, LLVMBasicBlockAsValue(bb));
  return v ? (int)((size_t)v - 1) : -1;
}

static unsigned nsucc(LLVMBasicBlockRef bb) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t ? LLVMGetNumSuccessors(t) : 0;
}

static LLVMBasicBlockRef succ(LLVMBasicBlockRef bb, unsigned i) {
  return LLVMGetSuccessor(LLVMGetBasicBlockTerminator(bb), i);
}

/* Postorder by iterative DFS; fills post[] and returns its length. */
static unsigned dfs(LtCfg *g, LLVMValueRef fn, LLVMBasicBlockRef *post,
                    unsigned nall) {
  LtMap state; /* 1 = on stack, 2 = done */
  lt_map_init(&state, nall);
  LLVMBasicBlockRef *stk = lt_xcalloc(nall + 1, sizeof *stk);
  unsigned *next = lt_xcalloc(nall + 1, sizeof *next);
  unsigned sp = 0, np = 0;
  stk[sp] = LLVMGetEntryBasicBlock(fn);
  next[sp++] = 0;
  lt_map_put(&state, LLVMBasicBlockAsValue(stk[0]), (void *)1);
  while (sp) {
    LLVMBasicBlockRef bb = stk[sp - 1];
    if (next[sp - 1] < nsucc(bb)) {
      LLVMBasicBlockRef s = succ(bb, next[sp - 1]++);
      size_t st = (size_t)lt_map_get(&state, LLVMBasicBlockAsValue(s));
      if (st == 1 && !g->has_back_edge) {
        g->has_back_edge = 1;
        g->back_edge_to = s;
      }
      if (!st) {
        lt_map_put(&state, LLVMBasicBlockAsValue(s), (void *)1);
        stk[sp] = s;
        next[sp++] = 0;
      }
      continue;
    }
    lt_map_put(&state, LLVMBasicBlockAsValue(bb), (void *)2);
    post[np++] = bb;
    sp--;
  }
  free(stk);
  free(next);
  lt_map_free(&state);
  return np;
}

static unsigned intersect(const unsigned *idom, unsigned a, unsigned b) {
  while (a != b) {
    while (a > b)
      a = idom[a];
    while (b > a)
      b = idom[b];
  }
  return a;
}

static void dominators(LtCfg *g) {
  unsigned n = g->nblocks, undef = n;
  g->idom = lt_xcalloc(n, sizeof *g->idom);
  for (unsigned i = 0; i < n; i++)
    g->idom[i] = undef;
  g->idom[0] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned b = 1; b < n; b++) {
      unsigned nd = undef;
      for (unsigned k = 0; k < g->npred[b]; k++) {
        unsigned p = g->pred[b][k];
        if (g->idom[p] == undef)
          continue;
        nd = nd == undef ? p : intersect(g->idom, p, nd);
      }
      if (nd != g->idom[b]) {
        g->idom[b] = nd;
        changed = 1;
      }
    }
  }
}

void lt_cfg_build(LtCfg *g, LLVMValueRef fn) {
  unsigned nall = LLVMCountBasicBlocks(fn);
  LLVMBasicBlockRef *post = lt_xcalloc(nall, sizeof *post);
  g->has_back_edge = 0;
  g->back_edge_to = NULL;
  unsigned n = dfs(g, fn, post, nall);
  g->nblocks = n;
  g->block = lt_xcalloc(n, sizeof *g->block);
  lt_map_init(&g->id, n);
  for (unsigned i = 0; i < n; i++) {
    g->block[i] = post[n - 1 - i];
    lt_map_put(&g->id, LLVMBasicBlockAsValue(g->block[i]), (void *)(size_t)(i + 1));
  }
  free(post);
  g->npred = lt_xcalloc(n, sizeof *g->npred);
  g->pred = lt_xcalloc(n, sizeof *g->pred);
  for (unsigned i = 0; i < n; i++)
    for (unsigned s = 0; s < nsucc(g->block[i]); s++)
      g->npred[lt_cfg_id(g, succ(g->block[i], s))]++;
  for (unsigned i = 0; i < n; i++) {
    g->pred[i] = lt_xcalloc(g->npred[i] + 1, sizeof **g->pred);
    g->npred[i] = 0;
  }
  for (unsigned i = 0; i < n; i++)
    for (unsigned s = 0; s < nsucc(g->block[i]); s++) {
      unsigned t = (unsigned)lt_cfg_id(g, succ(g->block[i], s));
      g->pred[t][g->npred[t]++] = i;
    }
  dominators(g);
}

void lt_cfg_free(LtCfg *g) {
  for (unsigned i = 0; i < g->nblocks; i++)
    free(g->pred[i]);
  free(g->pred);
  free(g->npred);
  free(g->block);
  free(g->idom);
  lt_map_free(&g->id);
}

unsigned lt_cfg_unique_preds(const LtCfg *g, unsigned b, unsigned *out) {
  unsigned n = 0;
  for (unsigned k = 0; k < g->npred[b]; k++) {
    unsigned p = g->pred[b][k], seen = 0;
    for (unsigned j = 0; j < n; j++)
      seen |= out[j] == p;
    if (!seen)
      out[n++] = p;
  }
  return n;
}

int lt_cfg_dominates(const LtCfg *g, unsigned a, unsigned b) {
  while (b > a)
    b = g->idom[b];
  return a == b;
}
