/* report.c: the tape report, read from the plan.
 *
 * After a derivative is built, says per function and per loop what the
 * reverse pass reads from where: which values are cached (with their bytes
 * per iteration), how many are recomputed, re-loaded or rebuilt from the
 * loop counters, and whether each loop cache is allocated once from the
 * trip count or grows; on request (-leantape-explain), one remark per taped
 * value with the reason its record gives. Delivered as optimisation
 * analysis remarks under the pass name "leantape" (clang
 * -Rpass-analysis=leantape, opt -pass-remarks-analysis=leantape), located
 * at the loop header (or the taped value).
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

typedef struct Buf {
  char s[2048];
  size_t n;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void put(Buf *b, const char *fmt, ...) {
  if (b->n >= sizeof b->s - 1)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0)
    b->n += (size_t)k < sizeof b->s - b->n ? (size_t)k : sizeof b->s - b->n - 1;
}

/* "%name (double, line 7)" for a slot. */
static void describe(Buf *b, const LtPlan *g, unsigned i) {
  LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
  void *src = g->slot_src.v[i];
  char *ty = LLVMPrintTypeToString(g->slot_ty.v[i]);
  size_t len = 0;
  switch (kind) {
  case LT_SLOT_CHOICE:
    put(b, "branch choice into %%%s", LLVMGetBasicBlockName(src));
    break;
  case LT_SLOT_EXIT:
    put(b, "which return");
    break;
  case LT_SLOT_LOOPBUF:
  case LT_SLOT_LOOPCOUNT:
    put(b, "%s of a loop", kind == LT_SLOT_LOOPBUF ? "cache" : "count");
    break;
  case LT_SLOT_UNDOLOG:
  case LT_SLOT_UNDOCOUNT:
  case LT_SLOT_UNDOBASE:
    put(b, "%s", kind == LT_SLOT_UNDOLOG     ? "the undo log"
                 : kind == LT_SLOT_UNDOCOUNT ? "its entries"
                                             : "its arena block");
    break;
  case LT_SLOT_CUSTOMTAPE: {
    const LtRule *rule;
    const char *cn = lt_callee_name(src, &len);
    if (lt_call_kind(src, &rule) != LT_CALL_BLAS) {
      put(b, "tape of the custom derivative of '%.*s'", (int)len, cn);
      break;
    }
    /* the block of copies a BLAS call's reverse reads: say which */
    LtBlasNeed nd;
    lt_plan_blas(g->f, src, &nd);
    unsigned line = LLVMGetDebugLocLine(src);
    put(b, "record of '%.*s'", (int)len, cn);
    if (line)
      put(b, " (line %u)", line);
    const char *sep = ": copies ";
    for (int r = 0; r < LT_BR_N; r++)
      if (nd.cache[r]) {
        put(b, "%sargument %d (%s%s%s)", sep, nd.op[r] + 1,
            lt_blas_is_lapack(nd.d.kind) ? lt_plan_lapack_role(&nd.d, r) : "",
            lt_blas_is_lapack(nd.d.kind) ? ", after the call: " : "",
            lt_plan_blas_why(nd.cache[r]));
        sep = ", ";
      }
    /* a solve that reads its factorisation's copies */
    sep = sep[0] == ',' ? "; reads " : ": reads ";
    for (int r = 0; r < LT_BR_N; r++)
      if (nd.from[r]) {
        size_t fl;
        const char *fn = lt_callee_name(nd.from[r], &fl);
        put(b, "%sargument %d (%s) from the copy of '%.*s'", sep, nd.op[r] + 1,
            lt_plan_lapack_role(&nd.d, r), (int)fl, fn);
        sep = ", ";
      }
    break;
  }
  case LT_SLOT_CKPT:
  case LT_SLOT_CKPTTAPE: {
    const char *cn = lt_callee_name(src, &len);
    put(b, "%s of the checkpointed step '%.*s'",
        kind == LT_SLOT_CKPT ? "context" : "tape pointer", (int)len, cn);
    break;
  }
  case LT_SLOT_SUBTAPE:
  case LT_SLOT_SUBPTR: {
    const char *cn = lt_callee_name(src, &len);
    unsigned line = LLVMGetDebugLocLine(src);
    put(b, "tape of the call to '%.*s'", (int)len, cn);
    if (kind == LT_SLOT_SUBTAPE)
      put(b, " (%llu bytes in place", LLVMABISizeOfType(g->f->c->td, g->slot_ty.v[i]));
    else
      put(b, " (a pointer to it on the heap");
    if (line)
      put(b, ", line %u", line);
    put(b, ")");
    break;
  }
  default: {
    const char *nm = LLVMGetValueName2(src, &len);
    unsigned line = LLVMIsAInstruction(src) ? LLVMGetDebugLocLine(src) : 0;
    const char *what = LLVMIsAPHINode(src)    ? "phi"
                       : LLVMIsALoadInst(src) ? "load"
                       : LLVMIsACallInst(src) ? "call"
                                              : "value";
    put(b, "%s", kind == LT_SLOT_SHADOW ? "shadow of " : "");
    if (len)
      put(b, "%%%.*s (%s", (int)len, nm, ty);
    else
      put(b, "%s (%s", what, ty);
    if (line)
      put(b, ", line %u", line);
    put(b, ")");
  }
  }
  LLVMDisposeMessage(ty);
}

static void list_slots(Buf *b, const LtPlan *g, int scope) {
  int first = 1;
  for (unsigned i = 0; i < g->slot_ty.n; i++) {
    if ((int)(size_t)g->slot_scope.v[i] - 1 != scope)
      continue;
    LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
    if (scope < 0 && (kind == LT_SLOT_LOOPBUF || kind == LT_SLOT_LOOPCOUNT))
      continue;
    put(b, first ? ": " : ", ");
    describe(b, g, i);
    first = 0;
  }
}

/* What the reverse pass does instead of taping, counted from the records. */
static void stats(Buf *b, const LtPlan *g, int scope) {
  unsigned re = 0, ld = 0, ctr = 0;
  for (size_t k = 0; k < g->recs.n; k++) {
    const LtPlanRec *r = g->recs.v[k];
    if (r->shadow || r->scope != scope)
      continue;
    re += r->src == LT_SRC_RECOMPUTE;
    ld += r->src == LT_SRC_RELOAD || r->src == LT_SRC_RELOAD_LOG;
    ctr += r->src == LT_SRC_EXIT || r->src == LT_SRC_AFFINE;
  }
  put(b, "; %u recomputed, %u re-loaded, %u from loop counters", re, ld, ctr);
}

/* One remark per taped value: where, what, why. */
static void explain(const LtPlan *g, const LtPlanReport *rp) {
  for (size_t k = 0; k < g->recs.n; k++) {
    const LtPlanRec *r = g->recs.v[k];
    if (r->slot < 0)
      continue;
    Buf b = {{0}, 0};
    describe(&b, g, (unsigned)r->slot);
    if (r->scope >= 0) {
      const char *hn = LLVMGetBasicBlockName(
          g->f->g->block[g->f->loops->loop[r->scope].header]);
      put(&b, " is taped once per iteration of loop%s%s", *hn ? " %" : "", hn);
    } else {
      put(&b, " is taped once");
    }
    put(&b, " in '%s': %s", rp->fname, lt_plan_why(r->why));
    lt_remark_emit(g->f->c, LLVMIsAInstruction(r->v) ? r->v : rp->at, "leantape",
                   "TapeValue", b.s);
  }
}

void lt_plan_report(const LtPlan *g, const LtPlanReport *rp) {
  const LtFacts *f = g->f;
  const char *fname = rp->fname;
  Buf b = {{0}, 0};
  unsigned long long hdr = 0;
  for (unsigned i = 0; i < g->slot_ty.n; i++) {
    LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
    if ((size_t)g->slot_scope.v[i] == 0 && kind != LT_SLOT_LOOPBUF &&
        kind != LT_SLOT_LOOPCOUNT)
      hdr += LLVMABISizeOfType(g->f->c->td, g->slot_ty.v[i]);
  }
  put(&b, "derivative of '%s' (%s mode): %llu bytes of values outside loops",
      fname, rp->mode, hdr);
  list_slots(&b, g, -1);
  stats(&b, g, -1);
  put(&b, "; %u loop(s)", f->loops->nloops);
  /* split mode: arguments whose memory the reverse may read again */
  int nk = 0;
  for (unsigned p = 0; !strcmp(rp->mode, "split") && f->keep && p < f->nparams; p++)
    if (f->keep[p]) {
      size_t n;
      const char *pn = LLVMGetValueName2(LLVMGetParam(f->P, p), &n);
      put(&b, "%s%u%s%.*s%s", nk++ ? ", " : "; memory of parameter(s) ", p + 1,
          n ? " ('" : "", (int)n, pn, n ? "')" : "");
    }
  if (nk)
    put(&b, " unchanged between the halves (enzyme_not_overwritten, or nothing "
            "between the calls writes memory)");
  lt_remark_emit(f->c, rp->at, "leantape", "TapeFunction", b.s);
  for (unsigned l = 0; l < f->loops->nloops; l++) {
    const LtLoop *L = &f->loops->loop[l];
    LLVMBasicBlockRef h = f->g->block[L->header];
    b.n = 0;
    b.s[0] = 0;
    const char *hn = LLVMGetBasicBlockName(h);
    put(&b, "loop%s%s (depth %u) in '%s': ", *hn ? " %" : "", hn, L->depth, fname);
    if (!g->rec_size[l])
      put(&b, "caches nothing per iteration");
    else
      put(&b, "caches %llu bytes per iteration", g->rec_size[l]);
    list_slots(&b, g, (int)l);
    stats(&b, g, (int)l);
    if (g->rec_size[l])
      put(&b, g->prealloc[l] ? "; cache preallocated once from the trip count"
                             : "; cache grows geometrically (trip count not "
                               "known before the loop nest)");
    lt_remark_emit(f->c, lt_first_non_phi(h), "leantape", "TapeLoop", b.s);
  }
  if (rp->explain)
    explain(g, rp);
}
