/* inductionprint.c: the printer of induction.c's results (loop
 * counters, trip counts, affine address forms), for the analysis tests
 * (-passes="print<leantape-induction>").
 */
#include "lt.h"

#include <stdio.h>

static int const_int(LLVMValueRef v, long long *out) {
  if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
    return 0;
  *out = LLVMConstIntGetSExtValue(v);
  return 1;
}

static void pv(LLVMValueRef v) {
  long long c;
  if (const_int(v, &c))
    fprintf(stderr, "%lld", c);
  else
    lt_print_name(v);
}

static void pblock(LLVMBasicBlockRef bb) {
  lt_print_name(LLVMBasicBlockAsValue(bb));
}

/* One term c*x of a sum; x printed by the caller. */
static void term(long long c, int *first) {
  if (*first && c == -1)
    fprintf(stderr, "-");
  else if (*first && c != 1)
    fprintf(stderr, "%lld*", c);
  else if (*first)
    ;
  else if (c < 0)
    fprintf(stderr, c == -1 ? " - " : " - %lld*", -c);
  else
    fprintf(stderr, c == 1 ? " + " : " + %lld*", c);
  *first = 0;
}

static void print_affine(const LtLoops *ls, const LtAffine *a) {
  int first = 1;
  for (unsigned i = 0; i < a->ninv; i++)
    if (a->icoef[i]) {
      term(a->icoef[i], &first);
      pv(a->inv[i]);
    }
  for (unsigned l = 0; l < ls->nloops; l++) /* outer loops first */
    for (unsigned i = 0; i < a->nterm; i++)
      if (a->loop[i] == l && a->coef[i]) {
        term(a->coef[i], &first);
        fprintf(stderr, "{");
        pblock(ls->g->block[ls->loop[l].header]);
        fprintf(stderr, "}");
      }
  if (first)
    fprintf(stderr, "%lld", a->off);
  else if (a->off)
    fprintf(stderr, a->off < 0 ? " - %lld" : " + %lld",
            a->off < 0 ? -a->off : a->off);
}

static const char *pred_name(LLVMIntPredicate p) {
  static const char *const names[] = {"eq",  "ne",  "ugt", "uge", "ult",
                                      "ule", "sgt", "sge", "slt", "sle"};
  return p >= LLVMIntEQ && p <= LLVMIntSLE ? names[p - LLVMIntEQ] : "?";
}

/* Emit the trip count into a scratch block, print it, and delete it. */
static void print_trip_ir(LLVMValueRef fn, const LtTrip *t) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(cx, fn, "lt.scratch");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderAtEnd(b, bb);
  LLVMValueRef r = lt_trip_emit(b, t);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
       i = LLVMGetNextInstruction(i)) {
    char *s = LLVMPrintValueToString(i), *p = s;
    while (*p == ' ')
      p++;
    fprintf(stderr, "      %s\n", p);
    LLVMDisposeMessage(s);
  }
  fprintf(stderr, "      result ");
  pv(r);
  fprintf(stderr, "\n");
  for (LLVMValueRef i = LLVMGetLastInstruction(bb); i;) {
    LLVMValueRef prev = LLVMGetPreviousInstruction(i);
    LLVMInstructionEraseFromParent(i);
    i = prev;
  }
  LLVMDeleteBasicBlock(bb);
  LLVMDisposeBuilder(b);
}

static void print_loop(const LtInduction *ind, LLVMTargetDataRef td,
                       LLVMValueRef fn, unsigned l) {
  const LtLoops *ls = ind->ls;
  LLVMBasicBlockRef h = ls->g->block[ls->loop[l].header];
  fprintf(stderr, "  loop ");
  pblock(h);
  fprintf(stderr, " depth %u\n", ls->loop[l].depth);
  for (LLVMValueRef i = LLVMGetFirstInstruction(h); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    fprintf(stderr, "    phi ");
    pv(i);
    unsigned k = 0;
    while (k < ind->nctr[l] && ind->ctr[l][k].phi != i)
      k++;
    LtAffine a;
    if (k < ind->nctr[l] && ind->ctr[l][k].vstep) {
      fprintf(stderr, ": counter start ");
      pv(ind->ctr[l][k].start);
      fprintf(stderr, " step ");
      pv(ind->ctr[l][k].vstep);
      fprintf(stderr, " (not affine)\n");
    } else if (k == 0 && ind->nctr[l]) {
      fprintf(stderr, ": counter start ");
      pv(ind->ctr[l][0].start);
      if (ind->ctr[l][0].vstep) {
        fprintf(stderr, " step ");
        pv(ind->ctr[l][0].vstep);
        fprintf(stderr, "\n");
      } else {
        fprintf(stderr, " step %lld\n", ind->ctr[l][0].step);
      }
    } else if (k < ind->nctr[l] && !lt_affine_of(ind, td, i, (int)l, &a)) {
      fprintf(stderr, ": affine ");
      print_affine(ls, &a);
      fprintf(stderr, "\n");
      lt_affine_free(&a);
    } else {
      fprintf(stderr, ": other\n");
    }
  }
  const LtTrip *t = &ind->trip[l];
  if (!t->known) {
    fprintf(stderr, "    trip count: unknown\n");
    return;
  }
  fprintf(stderr, "    trip count: exit test ");
  pv(t->cmp);
  fprintf(stderr, ", continue while %s %s ",
          t->on_next ? "next" : "phi", pred_name(t->pred));
  pv(t->bound);
  fprintf(stderr, ", start ");
  pv(t->start);
  if (t->vstep) {
    fprintf(stderr, " step ");
    pv(t->vstep);
    fprintf(stderr, "\n");
  } else {
    fprintf(stderr, " step %lld\n", t->step);
  }
  print_trip_ir(fn, t);
}

void lt_print_induction(LLVMValueRef fn) {
  if (!LLVMCountBasicBlocks(fn))
    return;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  fprintf(stderr, "leantape-induction: function @%.*s\n", (int)len, name);
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
  LtCfg g;
  LtLoops ls;
  LtInduction ind;
  lt_cfg_build(&g, fn);
  lt_loops_build(&ls, &g);
  lt_induction_build(&ind, &ls);
  for (unsigned l = 0; l < ls.nloops; l++)
    print_loop(&ind, td, fn, l);
  for (unsigned b = 0; b < g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g.block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAGetElementPtrInst(i))
        continue;
      LtAffine a;
      fprintf(stderr, "  gep ");
      pv(i);
      if (lt_affine_of(&ind, td, i, lt_loop_of(&ls, b), &a)) {
        fprintf(stderr, ": unknown\n");
        continue;
      }
      fprintf(stderr, ": ");
      print_affine(&ls, &a);
      fprintf(stderr, "\n");
      lt_affine_free(&a);
    }
  lt_induction_free(&ind);
  lt_loops_free(&ls);
  lt_cfg_free(&g);
}
