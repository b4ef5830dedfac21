/* gather.c: a reverse loop's additions into neighbouring elements, one per
 * element (issue 17, item 4: reverse loops that vectorise like the primal).
 *
 * The reverse of a stencil  t[i] = f(u[i-1], u[i], u[i+1])  adds into
 * du[i-1], du[i] and du[i+1] in every iteration, so each element of du is
 * loaded, added to and stored three times in three successive iterations.
 * That is a dependence between iterations through memory: the loop
 * vectorizer leaves the loop scalar where the primal runs 8 lanes wide.
 *
 * Where every other access of the loop is apart from du, the additions are
 * delayed: each iteration adds to du only the element that no later
 * iteration touches, once, with what the earlier iterations computed for
 * it, carried in registers (a chain of PHIs per delay: fixed-order
 * recurrences, which the vectorizer widens with shuffles). The elements
 * still owed something when the loop ends get it after the loop:
 *
 *   for i = hi .. lo:  du[i+1] += a_i;  du[i] += b_i;  du[i-1] += c_i
 * becomes
 *   for i = hi .. lo:  du[i+1] += a_i + b_{i+1} + c_{i+2}
 *   du[lo] += b_lo + c_{lo+1};  du[lo-1] += c_lo
 * where b_{hi+1}, c_{hi+1}, c_{hi+2} are 0 (the PHIs' start).
 *
 * Only accumulations move: a load, an fadd with `reassoc` (lt_build_accum)
 * adding to it, and a store back to the same address. The program's own
 * arithmetic keeps its order; the sum of an element's contributions is
 * reassociated, as the flag allows. No element is written that the loop
 * did not write: where the offsets leave a gap (du[i+1] and du[i-1] only),
 * the element after the loop in the gap is written only when the loop ran
 * often enough to reach it. Other accumulations of the same type into
 * memory that may overlap commute with these and may stay; any other
 * access must be apart (LLVM's alias analysis: R's alias scopes, scopes.c),
 * and a call that may touch memory leaves the loop alone.
 */
#include "lt.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELAY 8 /* PHIs per delay chain: at most 36 in all */
#define MAX_ACCS 64

typedef struct Acc {
  LLVMValueRef load, add, store, addr, val;
  LLVMBasicBlockRef bb;
  int neg;        /* the store's value is load - val (fsub) */
  LtAffine af;
  int ok_af;      /* af computed */
  int group;      /* -1: none yet */
  unsigned delay;
} Acc;

typedef struct Loop {
  LtLoopAt at;    /* copies: also the loops version() copied, left alone */
  Acc acc[MAX_ACCS];
  unsigned nacc;
} Loop;

/* store (fadd reassoc (load addr), val), addr (accum.c) */
static int match(LLVMValueRef st, Acc *a) {
  LtAccum m;
  if (!lt_accum_match(st, &m))
    return 0;
  memset(a, 0, sizeof *a);
  a->load = m.load;
  a->add = m.add;
  a->store = m.store;
  a->addr = m.addr;
  a->val = m.val;
  a->bb = m.bb;
  a->neg = m.neg;
  a->group = -1;
  return 1;
}


/* Does the call leave the access acc alone by scoped-noalias metadata
 * (LangRef: every scope of acc's !alias.scope in the call's !noalias;
 * scopes.c tags R's calls of the undo log's helpers so)? */
static int spares(LtCtx *c, LLVMValueRef call, LLVMValueRef acc) {
  LLVMValueRef sc = LLVMGetMetadata(acc, LLVMGetMDKindIDInContext(c->llctx, "alias.scope", 11));
  LLVMValueRef no = LLVMGetMetadata(call, LLVMGetMDKindIDInContext(c->llctx, "noalias", 7));
  unsigned ns = sc ? LLVMGetMDNodeNumOperands(sc) : 0, nn = no ? LLVMGetMDNodeNumOperands(no) : 0;
  if (!ns || !nn || ns > 16 || nn > 16)
    return 0;
  LLVMValueRef a[16], b[16];
  LLVMGetMDNodeOperands(sc, a);
  LLVMGetMDNodeOperands(no, b);
  for (unsigned i = 0; i < ns; i++) {
    unsigned j = 0;
    while (j < nn && b[j] != a[i])
      j++;
    if (j == nn)
      return 0;
  }
  return 1;
}

/* May instruction i (accessing p) touch what group grp accesses? */
static int touches(Loop *L, int grp, LLVMValueRef i, LLVMValueRef p) {
  for (unsigned k = 0; k < L->nacc; k++) {
    const Acc *a = &L->acc[k];
    if (a->group != grp)
      continue;
    if (lt_llvm_may_alias(L->at.c, i, p, a->store, a->addr))
      return 1;
  }
  return 0;
}

/* Is every access of the loop that is not group grp's apart from it, or
 * an accumulation of the same type whose elements are the group's or
 * apart? 1: yes; 2: yes where the accesses conf[0 .. *nconf) (address
 * pairs: instruction, pointer), which may alias it as far as LLVM knows,
 * are apart at run time; 0: no. */
#define MAX_CONF 8
static int alone(Loop *L, int grp, LLVMTypeRef t, LLVMValueRef *conf, unsigned *nconf) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  const Acc *rep = NULL;
  for (unsigned k = 0; k < L->nacc; k++)
    if (L->acc[k].group == grp)
      rep = &L->acc[k];
  long long sz = (long long)LLVMABISizeOfType(L->at.c->td, t);
  *nconf = 0;
  int versioned = 0;
  for (unsigned bi = 0; bi < lp->nblocks; bi++) {
    LLVMBasicBlockRef bb = L->at.g->block[lp->blocks[bi]];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef p = lt_accum_accessed(i);
      if (!p)
        continue;
      if (p == LT_CLOBBER) {
        int ok = LLVMIsACallInst(i) != NULL;
        for (unsigned k = 0; ok && k < L->nacc; k++)
          if (L->acc[k].group == grp)
            ok = spares(L->at.c, i, L->acc[k].load) && spares(L->at.c, i, L->acc[k].store);
        if (ok)
          continue;
        return 0;
      }
      const Acc *other = NULL;
      for (unsigned k = 0; k < L->nacc; k++)
        if (L->acc[k].load == i || L->acc[k].store == i)
          other = &L->acc[k];
      if (other && other->group == grp)
        continue;
      if (other && other->ok_af && LLVMTypeOf(other->add) == t &&
          lt_affine_aligned(&other->af, &rep->af, sz))
        continue;
      if (!touches(L, grp, i, p))
        continue;
      /* an accumulation's load and store: one range */
      if (other && other->store == i)
        continue;
      if (*nconf >= 2 * MAX_CONF || other)
        return 0;
      conf[(*nconf)++] = i;
      conf[(*nconf)++] = p;
      versioned = 1;
    }
  }
  return versioned ? 2 : 1;
}

/* the flags of lt_build_accum's additions */
static LLVMValueRef fast(LLVMValueRef s) {
  if (LLVMIsAInstruction(s) && LLVMCanValueUseFastMathFlags(s))
    LLVMSetFastMathFlags(s, LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros);
  return s;
}

static LLVMValueRef fadd(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  return x ? fast(LLVMBuildFAdd(b, x, y, "")) : y;
}

/* t[addr] += v, with the load's and the store's alignment and metadata
 * from the accumulation `like` */
static void accumulate(LtCtx *c, LLVMBuilderRef b, const Acc *like, LLVMValueRef addr,
                       LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(like->add);
  LLVMValueRef ld = LLVMBuildLoad2(b, t, addr, "");
  LLVMSetAlignment(ld, LLVMGetAlignment(like->load));
  lt_copy_md(c->llctx, ld, like->load);
  LLVMValueRef st = LLVMBuildStore(b, fadd(b, ld, v), addr);
  LLVMSetAlignment(st, LLVMGetAlignment(like->store));
  lt_copy_md(c->llctx, st, like->store);
}

/* PHIs of bb that name pred name nb instead (the C API cannot change an
 * incoming block, so each PHI is rebuilt). */
static void retarget_phis(LtCtx *c, LLVMBasicBlockRef bb, LLVMBasicBlockRef pred,
                          LLVMBasicBlockRef nb) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i && LLVMIsAPHINode(i); i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMPositionBuilderBefore(b, i);
    LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(i), "");
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++) {
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(i, k);
      LLVMValueRef v = LLVMGetIncomingValue(i, k);
      if (ib == pred)
        ib = nb;
      LLVMAddIncoming(np, &v, &ib, 1);
    }
    LLVMReplaceAllUsesWith(i, np);
    LLVMInstructionEraseFromParent(i);
  }
  LLVMDisposeBuilder(b);
}

/* Rewrite group grp (see the top). */
static void rewrite(Loop *L, int grp, unsigned lead, long long s, unsigned D) {
  LtCtx *c = L->at.c;
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  LLVMBasicBlockRef head = L->at.g->block[lp->header], pre = L->at.g->block[lp->preheader],
                    latch = L->at.g->block[lp->latch], exiting = L->at.g->block[lp->exiting[0]],
                    exit = L->at.g->block[lp->exits[0]];
  const Acc *ld = &L->acc[lead];
  LLVMTypeRef t = LLVMTypeOf(ld->add);
  LLVMValueRef zero = LLVMConstReal(t, 0.0);

  /* after the group's last store */
  LLVMValueRef last = NULL;
  for (LLVMValueRef i = LLVMGetFirstInstruction(ld->bb); i; i = LLVMGetNextInstruction(i))
    for (unsigned k = 0; k < L->nacc; k++)
      if (L->acc[k].group == grp && L->acc[k].store == i)
        last = i;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(last));
  LLVMValueRef w[MAX_DELAY + 1] = {0};
  for (unsigned k = 0; k < L->nacc; k++) {
    const Acc *a = &L->acc[k];
    if (a->group != grp)
      continue;
    LLVMValueRef *sum = &w[a->delay];
    if (!a->neg)
      *sum = fadd(b, *sum, a->val);
    else if (*sum)
      *sum = fast(LLVMBuildFSub(b, *sum, a->val, ""));
    else
      *sum = fast(LLVMBuildFNeg(b, a->val, ""));
  }

  /* r[d][j]: w[d] of j iterations ago, j = 1 .. d */
  LLVMValueRef r[MAX_DELAY + 1][MAX_DELAY + 1] = {{0}};
  LLVMBuilderRef hb = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(hb, LLVMGetFirstInstruction(head));
  for (unsigned d = 1; d <= D; d++) {
    if (!w[d])
      continue;
    for (unsigned j = 1; j <= d; j++)
      r[d][j] = LLVMBuildPhi(hb, t, "lt.gather");
    for (unsigned j = 1; j <= d; j++) {
      LLVMValueRef in[2] = {zero, j == 1 ? w[d] : r[d][j - 1]};
      LLVMBasicBlockRef from[2] = {pre, latch};
      LLVMAddIncoming(r[d][j], in, from, 2);
    }
  }
  /* iterations run, where a gap's element needs them */
  LLVMValueRef count = NULL;
  for (unsigned e = 1; e <= D && !count; e++)
    if (!w[e]) {
      LLVMValueRef phi = LLVMBuildPhi(hb, c->i64, "lt.gather.n");
      count = LLVMBuildAdd(b, phi, LLVMConstInt(c->i64, 1, 0), "");
      LLVMValueRef in[2] = {LLVMConstInt(c->i64, 0, 0), count};
      LLVMBasicBlockRef from[2] = {pre, latch};
      LLVMAddIncoming(phi, in, from, 2);
    }
  LLVMDisposeBuilder(hb);

  LLVMValueRef total = w[0];
  for (unsigned d = 1; d <= D; d++)
    if (w[d])
      total = fadd(b, total, r[d][d]);
  accumulate(c, b, ld, ld->addr, total);

  /* after the loop: a block of its own on the exit edge */
  LLVMBasicBlockRef eb = LLVMInsertBasicBlockInContext(c->llctx, exit, "lt.gather.exit");
  LLVMValueRef term = LLVMGetBasicBlockTerminator(exiting);
  for (unsigned k = 0, n = LLVMGetNumSuccessors(term); k < n; k++)
    if (LLVMGetSuccessor(term, k) == exit)
      LLVMSetSuccessor(term, k, eb);
  LLVMPositionBuilderAtEnd(b, eb);
  for (unsigned e = 1; e <= D; e++) {
    LLVMValueRef v = NULL;
    for (unsigned d = e; d <= D; d++)
      if (w[d])
        v = fadd(b, v, d == e ? w[d] : r[d][d - e]);
    if (!v)
      continue;
    LLVMValueRef off = LLVMConstInt(c->i64, (unsigned long long)((long long)e * s), 1);
    LLVMValueRef addr = LLVMBuildGEP2(b, c->i8, ld->addr, &off, 1, "");
    if (w[e]) {
      accumulate(c, b, ld, addr, v);
      continue;
    }
    /* a gap: touched when an iteration reached it */
    unsigned dmin = e + 1;
    while (!w[dmin])
      dmin++;
    LLVMValueRef reach =
        LLVMBuildICmp(b, LLVMIntUGE, count, LLVMConstInt(c->i64, dmin - e + 1, 0), "");
    LLVMBasicBlockRef then = LLVMInsertBasicBlockInContext(c->llctx, exit, "lt.gather.gap");
    LLVMBasicBlockRef join = LLVMInsertBasicBlockInContext(c->llctx, exit, "lt.gather.join");
    LLVMBuildCondBr(b, reach, then, join);
    LLVMPositionBuilderAtEnd(b, then);
    accumulate(c, b, ld, addr, v);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
  }
  LLVMBasicBlockRef tail = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, exit);
  retarget_phis(c, exit, exiting, tail);
  LLVMDisposeBuilder(b);

  for (unsigned k = 0; k < L->nacc; k++)
    if (L->acc[k].group == grp) {
      LLVMInstructionEraseFromParent(L->acc[k].store);
      LLVMInstructionEraseFromParent(L->acc[k].add);
      LLVMInstructionEraseFromParent(L->acc[k].load);
    }
}

/* Where LLVM cannot tell the group from some other access (plain
 * pointers in a derivative that is not versioned as a whole, e.g. a
 * checkpointed step's or split mode's), the loop runs rewritten when the
 * bytes the group touches are apart from those each such access touches,
 * and as it was otherwise (loopver.c). 1 when versioned. */
static int version(Loop *L, int grp, LLVMValueRef *conf, unsigned nconf) {
  LLVMValueRef mine[2 * MAX_ACCS];
  unsigned n = 0;
  for (unsigned k = 0; k < L->nacc; k++)
    if (L->acc[k].group == grp) {
      mine[n++] = L->acc[k].store;
      mine[n++] = L->acc[k].addr;
    }
  LLVMBasicBlockRef copy;
  if (L->at.c->opt_level < 2 ||
      lt_loop_version(L->at.c, L->at.g, L->at.ls, L->at.ind, L->at.l, mine, n, conf, nconf, &copy))
    return 0;
  lt_map_put(L->at.copies, copy, (void *)1);
  return 1;
}

/* The number of edges from a to b. */
static unsigned edges(LLVMBasicBlockRef a, LLVMBasicBlockRef b) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(a);
  unsigned n = 0;
  for (unsigned k = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; k < ns; k++)
    n += LLVMGetSuccessor(t, k) == b;
  return n;
}

/* Give the loop a preheader: a block of its own on the one edge that
 * enters it (generated code has none where the loop's entry is another
 * loop's exit). 1 when made. */
static int make_preheader(Loop *L) {
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  const LtCfg *g = L->at.g;
  LLVMBasicBlockRef head = g->block[lp->header], from = NULL;
  for (unsigned k = 0; k < g->npred[lp->header]; k++) {
    unsigned p = g->pred[lp->header][k];
    if (lt_loop_contains(L->at.ls, L->at.l, p))
      continue;
    if (from && from != g->block[p])
      return 0;
    from = g->block[p];
  }
  LLVMValueRef t = from ? LLVMGetBasicBlockTerminator(from) : NULL;
  if (!t || !LLVMIsABranchInst(t) || edges(from, head) != 1)
    return 0;
  LLVMBasicBlockRef nb = LLVMInsertBasicBlockInContext(L->at.c->llctx, head, "lt.gather.pre");
  for (unsigned k = 0, n = LLVMGetNumSuccessors(t); k < n; k++)
    if (LLVMGetSuccessor(t, k) == head)
      LLVMSetSuccessor(t, k, nb);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(L->at.c->llctx);
  LLVMPositionBuilderAtEnd(b, nb);
  LLVMBuildBr(b, head);
  LLVMDisposeBuilder(b);
  retarget_phis(L->at.c, head, from, nb);
  return 1;
}

/* Group the accumulations of block-and-type mates with the same address
 * terms; rewrite the first group that qualifies. 1 when one was. */
static int try_loop(LtLoopAt *at) {
  Loop *L = (Loop *)at; /* (at: its first member) */
  const LtLoop *lp = &L->at.ls->loop[L->at.l];
  if (lp->nchildren || lp->latch < 0 || lp->nexiting != 1 || lp->nexits != 1 ||
      lt_map_get(L->at.copies, L->at.g->block[lp->header]) ||
      edges(L->at.g->block[lp->exiting[0]], L->at.g->block[lp->exits[0]]) != 1)
    return 0;
  for (unsigned bi = 0; bi < lp->nblocks; bi++) {
    LLVMBasicBlockRef bb = L->at.g->block[lp->blocks[bi]];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (L->nacc < MAX_ACCS && match(i, &L->acc[L->nacc])) {
        Acc *a = &L->acc[L->nacc++];
        a->ok_af = !lt_affine_of_run(L->at.ind, L->at.c->td, a->addr, L->at.l, &a->af);
      }
  }
  int ngroups = 0, done = 0;
  if (L->nacc >= 2 && lp->preheader < 0)
    done = make_preheader(L);
  if (lp->preheader < 0)
    L->nacc = 0; /* (and free the forms below) */
  for (unsigned k = 0; k < L->nacc && !done; k++) {
    Acc *a = &L->acc[k];
    long long s;
    if (a->group >= 0 || !a->ok_af || !(s = lt_affine_coef(&a->af, L->at.l)))
      continue;
    int grp = ngroups++;
    unsigned n = 0;
    /* Accumulations into a's elements and their neighbours: same terms,
     * offsets a multiple of the step apart, within MAX_DELAY steps of one
     * another. Of those, the window of MAX_DELAY + 1 steps holding a
     * with the most of them: a 2-D stencil's rows i - 1 and i + 1 are
     * elements of the same array a row (here a constant) away, and stay
     * single additions beside row i's group. */
    long long q[MAX_ACCS];
    for (unsigned j = k; j < L->nacc; j++) {
      Acc *m = &L->acc[j];
      q[j] = LLONG_MIN;
      if (m->group < 0 && m->ok_af && m->bb == a->bb && LLVMTypeOf(m->add) == LLVMTypeOf(a->add) &&
          lt_affine_same_terms(&m->af, &a->af) && (m->af.off - a->af.off) % s == 0 &&
          llabs((m->af.off - a->af.off) / s) <= MAX_DELAY)
        q[j] = (m->af.off - a->af.off) / s;
    }
    long long lo = 0;
    unsigned best = 0;
    for (long long w = -MAX_DELAY; w <= 0; w++) {
      unsigned cnt = 0;
      for (unsigned j = k; j < L->nacc; j++)
        cnt += q[j] != LLONG_MIN && q[j] >= w && q[j] <= w + MAX_DELAY;
      if (cnt > best)
        best = cnt, lo = w;
    }
    for (unsigned j = k; j < L->nacc; j++)
      if (q[j] != LLONG_MIN && q[j] >= lo && q[j] <= lo + MAX_DELAY) {
        L->acc[j].group = grp;
        n++;
      }
    unsigned blk = (unsigned)lt_cfg_id(L->at.g, a->bb);
    if (n < 2 || !lt_cfg_dominates(L->at.g, blk, (unsigned)lp->latch) ||
        !lt_cfg_dominates(L->at.g, blk, lp->exiting[0]))
      continue;
    /* the lead's element is the one no later iteration touches */
    long long sz = (long long)LLVMABISizeOfType(L->at.c->td, LLVMTypeOf(a->add));
    if (s > -sz && s < sz)
      continue;
    unsigned lead = k;
    for (unsigned j = k; j < L->nacc; j++)
      if (L->acc[j].group == grp &&
          (s < 0 ? L->acc[j].af.off > L->acc[lead].af.off : L->acc[j].af.off < L->acc[lead].af.off))
        lead = j;
    unsigned D = 0;
    int ok = 1;
    for (unsigned j = k; j < L->nacc && ok; j++) {
      Acc *m = &L->acc[j];
      if (m->group != grp)
        continue;
      long long diff = m->af.off - L->acc[lead].af.off;
      if (diff % s || diff / s < 0 || diff / s > MAX_DELAY)
        ok = 0;
      else if ((m->delay = (unsigned)(diff / s)) > D)
        D = m->delay;
    }
    LLVMValueRef conf[2 * MAX_CONF];
    unsigned nconf;
    int how = ok && D ? alone(L, grp, LLVMTypeOf(a->add), conf, &nconf) : 0;
    if (!how || (how == 2 && !version(L, grp, conf, nconf)))
      continue;
    rewrite(L, grp, lead, s, D);
    done = 1;
  }
  for (unsigned k = 0; k < MAX_ACCS; k++)
    if (L->acc[k].ok_af)
      lt_affine_free(&L->acc[k].af);
  return done;
}

void lt_gather_accums(LtCtx *c, LLVMValueRef fn, LtMap *copies) {
  if (c->opt_level >= 1)
    lt_rewrite_loops(c, fn, copies, try_loop, sizeof(Loop), 64);
}
