/* loops.c: natural loops and their nesting, on the dense ids of cfg.c.
 *
 * A back edge is an edge whose target dominates its source; the natural
 * loop of a header is the header plus every block that reaches one of its
 * back-edge sources without passing the header (Aho, Lam, Sethi & Ullman,
 * "Compilers", 2nd ed., §9.6.6). Loops sharing a header are merged, so loops
 * nest; ordered by header id (RPO), parents come before children. A
 * retreating edge (target at or before its source in RPO) whose target does
 * not dominate its source makes the CFG irreducible: it is reported.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned nsucc(LLVMBasicBlockRef bb) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t ? LLVMGetNumSuccessors(t) : 0;
}

static unsigned succ_id(const LtCfg *g, unsigned b, unsigned i) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(g->block[b]);
  return (unsigned)lt_cfg_id(g, LLVMGetSuccessor(t, i));
}

int lt_loop_contains(const LtLoops *ls, unsigned l, unsigned block) {
  return ls->in[(size_t)l * ls->g->nblocks + block];
}

int lt_loop_of(const LtLoops *ls, unsigned block) {
  return ls->innermost[block];
}

LLVMValueRef lt_loop_phi_same(const LtLoops *ls, LLVMValueRef phi) {
  LLVMValueRef x = LLVMIsAPHINode(phi) ? lt_phi_same(phi) : NULL;
  if (!x || !LLVMIsAInstruction(x))
    return x;
  int xb = lt_cfg_id(ls->g, LLVMGetInstructionParent(x));
  int pb = lt_cfg_id(ls->g, LLVMGetInstructionParent(phi));
  if (xb < 0 || pb < 0)
    return NULL;
  int xl = lt_loop_of(ls, (unsigned)xb);
  return xl < 0 || lt_loop_contains(ls, (unsigned)xl, (unsigned)pb) ? x : NULL;
}

int lt_loop_encloses(const LtLoops *ls, unsigned outer, int inner) {
  while (inner >= 0 && (unsigned)inner != outer)
    inner = ls->loop[inner].parent;
  return inner >= 0;
}

/* Mark the body of the loop of header h: a backward walk from the back-edge
 * sources that stops at h. Returns 1 if h has a back edge. */
static int body(const LtCfg *g, unsigned h, unsigned char *in, unsigned *work) {
  unsigned nw = 0;
  for (unsigned k = 0; k < g->npred[h]; k++) {
    unsigned p = g->pred[h][k];
    if (lt_cfg_dominates(g, h, p) && !in[p]) {
      in[p] = 1;
      work[nw++] = p;
    }
  }
  if (!nw)
    return 0;
  in[h] = 1;
  while (nw) {
    unsigned b = work[--nw];
    if (b == h)
      continue;
    for (unsigned k = 0; k < g->npred[b]; k++) {
      unsigned p = g->pred[b][k];
      if (!in[p]) {
        in[p] = 1;
        work[nw++] = p;
      }
    }
  }
  return 1;
}

static void add_unique(unsigned *arr, unsigned *n, unsigned x) {
  for (unsigned i = 0; i < *n; i++)
    if (arr[i] == x)
      return;
  unsigned i = (*n)++;
  while (i > 0 && arr[i - 1] > x) { /* keep ascending */
    arr[i] = arr[i - 1];
    i--;
  }
  arr[i] = x;
}

/* Preheader, latch, exits and exiting blocks of loop l. */
static void shape(LtLoops *ls, unsigned l) {
  const LtCfg *g = ls->g;
  LtLoop *L = &ls->loop[l];
  unsigned n = g->nblocks, nin = 0, nout = 0;
  int in_pred = -1, out_pred = -1;
  for (unsigned k = 0; k < g->npred[L->header]; k++) {
    unsigned p = g->pred[L->header][k];
    int *slot = lt_loop_contains(ls, l, p) ? &in_pred : &out_pred;
    unsigned *cnt = lt_loop_contains(ls, l, p) ? &nin : &nout;
    if (*slot != (int)p)
      (*cnt)++;
    *slot = (int)p;
  }
  L->latch = nin == 1 ? in_pred : -1;
  L->preheader = nout == 1 && nsucc(g->block[out_pred]) == 1 ? out_pred : -1;
  L->exits = lt_xcalloc(n, sizeof *L->exits);
  L->exiting = lt_xcalloc(L->nblocks, sizeof *L->exiting);
  for (unsigned i = 0; i < L->nblocks; i++) {
    unsigned b = L->blocks[i];
    for (unsigned s = 0; s < nsucc(g->block[b]); s++) {
      unsigned t = succ_id(g, b, s);
      if (lt_loop_contains(ls, l, t))
        continue;
      add_unique(L->exits, &L->nexits, t);
      add_unique(L->exiting, &L->nexiting, b);
    }
  }
}

static void irreducibility(LtLoops *ls) {
  const LtCfg *g = ls->g;
  for (unsigned b = 0; b < g->nblocks && !ls->irreducible; b++)
    for (unsigned s = 0; s < nsucc(g->block[b]); s++) {
      unsigned t = succ_id(g, b, s);
      if (t <= b && !lt_cfg_dominates(g, t, b)) {
        ls->irreducible = 1;
        ls->irr_from = g->block[b];
        ls->irr_to = g->block[t];
        break;
      }
    }
}

void lt_loops_build(LtLoops *ls, const LtCfg *g) {
  unsigned n = g->nblocks;
  ls->g = g;
  ls->nloops = 0;
  ls->irreducible = 0;
  ls->irr_from = ls->irr_to = NULL;
  ls->loop = lt_xcalloc(n, sizeof *ls->loop);
  ls->in = NULL;
  ls->innermost = lt_xcalloc(n, sizeof *ls->innermost);
  unsigned *work = lt_xcalloc(n, sizeof *work);
  for (unsigned b = 0; b < n; b++)
    ls->innermost[b] = -1;
  for (unsigned h = 0; h < n; h++) {
    unsigned l = ls->nloops;
    unsigned char *row = lt_xcalloc(n, 1);
    if (!body(g, h, row, work)) {
      free(row);
      continue;
    }
    /* One membership row per loop; the rows grow with the loop count. */
    unsigned char *in = realloc(ls->in, (size_t)(l + 1) * n);
    if (!in) {
      fputs("leantape: out of memory\n", stderr);
      abort();
    }
    ls->in = in;
    in += (size_t)l * n;
    memcpy(in, row, n);
    free(row);
    LtLoop *L = &ls->loop[ls->nloops++];
    L->header = h;
    L->blocks = lt_xcalloc(n, sizeof *L->blocks);
    for (unsigned b = 0; b < n; b++)
      if (in[b])
        L->blocks[L->nblocks++] = b;
    /* The last loop seen around h is the parent: natural loops nest, and
     * enclosing headers come earlier in RPO, outer before inner. */
    L->parent = ls->innermost[h];
    L->depth = L->parent < 0 ? 1 : ls->loop[L->parent].depth + 1;
    for (unsigned i = 0; i < L->nblocks; i++)
      ls->innermost[L->blocks[i]] = (int)l;
    L->children = lt_xcalloc(n, sizeof *L->children);
    if (L->parent >= 0) {
      LtLoop *P = &ls->loop[L->parent];
      P->children[P->nchildren++] = l;
    }
  }
  for (unsigned l = 0; l < ls->nloops; l++)
    shape(ls, l);
  irreducibility(ls);
  free(work);
}

void lt_loops_free(LtLoops *ls) {
  for (unsigned l = 0; l < ls->nloops; l++) {
    free(ls->loop[l].blocks);
    free(ls->loop[l].exits);
    free(ls->loop[l].exiting);
    free(ls->loop[l].children);
  }
  free(ls->loop);
  free(ls->in);
  free(ls->innermost);
}

/* Printer */

void lt_print_name(LLVMValueRef v) {
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  if (len) {
    fprintf(stderr, "%c%.*s", LLVMIsAGlobalValue(v) ? '@' : '%', (int)len, name);
    return;
  }
  /* Unnamed: the slot number as the IR printer shows it ("%7 = ...",
   * "\n7:" for a block, "i32 %0" for an argument). Slow, printers only. */
  char *s = LLVMPrintValueToString(v), *p = s, *e;
  if (LLVMIsAArgument(v) && strrchr(s, ' '))
    p = strrchr(s, ' ') + 1;
  while (*p == ' ' || *p == '\n')
    p++;
  for (e = p; *e && *e != ' ' && *e != ':'; e++)
    ;
  fprintf(stderr, "%s%.*s", *p == '%' ? "" : "%", (int)(e - p), p);
  LLVMDisposeMessage(s);
}

static void block_name(const LtCfg *g, unsigned b) {
  fprintf(stderr, " ");
  lt_print_name(LLVMBasicBlockAsValue(g->block[b]));
}

static void print_loop(const LtLoops *ls, unsigned l) {
  const LtCfg *g = ls->g;
  const LtLoop *L = &ls->loop[l];
  fprintf(stderr, "%*sloop", 2 * (int)L->depth, "");
  block_name(g, L->header);
  fprintf(stderr, " depth %u preheader", L->depth);
  if (L->preheader >= 0)
    block_name(g, (unsigned)L->preheader);
  else
    fprintf(stderr, " none");
  fprintf(stderr, " latch");
  if (L->latch >= 0)
    block_name(g, (unsigned)L->latch);
  else
    fprintf(stderr, " none");
  fprintf(stderr, "\n%*sblocks", 2 * (int)L->depth + 2, "");
  for (unsigned i = 0; i < L->nblocks; i++)
    block_name(g, L->blocks[i]);
  fprintf(stderr, "\n%*sexiting", 2 * (int)L->depth + 2, "");
  for (unsigned i = 0; i < L->nexiting; i++)
    block_name(g, L->exiting[i]);
  fprintf(stderr, "\n%*sexits", 2 * (int)L->depth + 2, "");
  for (unsigned i = 0; i < L->nexits; i++)
    block_name(g, L->exits[i]);
  fprintf(stderr, "\n");
  for (unsigned i = 0; i < L->nchildren; i++)
    print_loop(ls, L->children[i]);
}

void lt_print_loops(LLVMValueRef fn) {
  if (!LLVMCountBasicBlocks(fn))
    return;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  fprintf(stderr, "leantape-loops: function @%.*s\n", (int)len, name);
  LtCfg g;
  LtLoops ls;
  lt_cfg_build(&g, fn);
  lt_loops_build(&ls, &g);
  if (ls.irreducible) {
    fprintf(stderr, "  irreducible: edge");
    block_name(&g, (unsigned)lt_cfg_id(&g, ls.irr_from));
    fprintf(stderr, " ->");
    block_name(&g, (unsigned)lt_cfg_id(&g, ls.irr_to));
    fprintf(stderr, "\n");
  }
  if (!ls.nloops)
    fprintf(stderr, "  no loops\n");
  for (unsigned l = 0; l < ls.nloops; l++)
    if (ls.loop[l].parent < 0)
      print_loop(&ls, l);
  lt_loops_free(&ls);
  lt_cfg_free(&g);
}

int lt_loop_scope_block(const LtCfg *g, const LtLoops *ls, LLVMBasicBlockRef bb) {
  int id = lt_cfg_id(g, bb);
  return id < 0 ? -1 : ls->innermost[id];
}

int lt_loop_scope(const LtCfg *g, const LtLoops *ls, LLVMValueRef v) {
  return LLVMIsAInstruction(v) ? lt_loop_scope_block(g, ls, LLVMGetInstructionParent(v))
                               : -1;
}
