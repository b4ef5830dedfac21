/* snapshot.c: what a checkpointed time loop's step writes, as a function.
 *
 * For checkpointing (issue 20; the call site in ckpt.c, the schedule in
 * ckptrt.c) a step of a time loop must be saved and restored as a whole.
 * While the step's facts are at hand, this file builds
 * <step>.lt.snap(params, buf, op, T): the bytes the step writes, as one
 * interval per pointer parameter computed where the step starts
 * (analysis/range.c), counted (op 0), saved into buf (1) or restored from
 * it (2); ops 3, 4 and 5 do the same for the bytes the steps read that
 * code after the loop may change (the caller's overwrite analysis); op 6
 * counts what the steps write, without leaving out what a step writes
 * first through a rotated pointer (ckptrt.c's estimate of a step's tape). A step
 * whose writes have no such interval (a pointer loaded from memory, a
 * global, a call that writes), or that calls what running a step again
 * would repeat (I/O, allocation), gets none, and its loop is taped as
 * usual; the remark says why.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int param_of(const LtFacts *f, LLVMValueRef v) {
  for (unsigned p = 0; p < f->nparams; p++)
    if (LLVMGetParam(f->P, p) == v)
      return (int)p;
  return -1;
}

/* The writes of a step, grouped by the pointer they are based on: a
 * parameter, or one a noalias parameter holds at the step's start (what
 * the iterations carry, prep/outline.c: two buffers swapped each step). */
typedef struct Groups {
  LtVec base;  /* the bases */
  LtVec guard; /* per group: the zero-trip test its accesses run under, or
                  NULL (lt_step_always_runs) */
  LtVec *acc;  /* per base: (inst, addr) pairs */
  size_t cap;
} Groups;

static LtVec *group_of(Groups *gr, LLVMValueRef base, LLVMValueRef guard) {
  for (size_t k = 0; k < gr->base.n; k++)
    if (gr->base.v[k] == base && gr->guard.v[k] == guard)
      return &gr->acc[k];
  if (gr->base.n == gr->cap) {
    gr->cap = gr->cap ? 2 * gr->cap : 8;
    LtVec *n = lt_xcalloc(gr->cap, sizeof *n);
    for (size_t k = 0; k < gr->base.n; k++)
      n[k] = gr->acc[k];
    free(gr->acc);
    gr->acc = n;
  }
  lt_vec_push(&gr->base, base);
  lt_vec_push(&gr->guard, guard);
  return &gr->acc[gr->base.n - 1];
}

/* A load of the step whose memory code after the loop may change (the
 * caller's overwrite analysis: f->keep): what the step reads there must be
 * put back while steps run again in R. Into rd, by base parameter; 0 with
 * why[] when it cannot be bounded. Reads through the rotated buffers are
 * the writes' (all buffers are saved); through the step's own allocas and
 * constant globals nothing changes. */
static int read_group(const LtFacts *f, LLVMValueRef i, Groups *rd, int rotates, char *why,
                      size_t whysz) {
  /* a load's address, or a memcpy's source */
  LLVMValueRef a = LLVMGetOperand(i, LLVMIsALoadInst(i) ? 0 : 1), base = lt_base_of(a);
  if (LLVMIsAAllocaInst(base) || (LLVMIsAGlobalVariable(base) && LLVMIsGlobalConstant(base)))
    return 1;
  if (LLVMIsALoadInst(base) && rotates && LLVMIsAArgument(LLVMGetOperand(base, 0)))
    return 1;
  int p = param_of(f, base);
  if (p >= 0 && f->keep && f->keep[p])
    return 1;
  int from;
  if (p < 0 || !lt_range_ok(f, i, a) || !lt_step_always_runs(f, i, &from)) {
    if (getenv("LEANTAPE_DEBUG")) /* debugging: which read */
      LLVMDumpValue(i), fprintf(stderr, " <- cannot be put back (%d %d)\n", p,
                                p >= 0 && lt_range_ok(f, i, a));
    snprintf(why, whysz, "a step reads memory that code after the loop may change and whose "
                         "extent is not known where the loop starts (%s)",
             p < 0 ? "a global or a pointer loaded from memory"
                   : !lt_range_ok(f, i, a) ? "at addresses not affine in its loop counters"
                                           : "under a branch, or in a loop left early");
    return 0;
  }
  LtVec *v = group_of(rd, base, (LLVMValueRef)(size_t)(from + 1));
  lt_vec_push(v, i);
  lt_vec_push(v, a);
  return 1;
}

/* Sort the writes of the step into groups (and its reads, read_group);
 * 0 with why[] when one cannot be bounded where the step starts. */
static int writes(LtCtx *c, const LtFacts *f, Groups *gr, Groups *rd, char *why,
                  size_t whysz) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->P); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsACallInst(i) && !LLVMIsAIntrinsicInst(i)) {
        const LtRule *r;
        LtCallKind k = lt_call_kind(i, &r);
        if (k != LT_CALL_RULE && k != LT_CALL_ZERO && k != LT_CALL_MEMCPY &&
            k != LT_CALL_MEMSET) {
          snprintf(why, whysz, "a step calls '%s', which running it again would repeat",
                   lt_callee_name(i, &(size_t){0}));
          return 0;
        }
      }
      LLVMValueRef out[6];
      unsigned n = lt_writes_of(c, i, out);
      for (unsigned k = 0; k < n; k++) {
        if (out[k] == LT_CLOBBER) {
          snprintf(why, whysz, "a step calls what may write any memory");
          return 0;
        }
        LLVMValueRef base = lt_base_of(out[k]);
        if (LLVMIsAAllocaInst(base))
          continue; /* the step's own */
        int from;
        if (!lt_range_ok(f, i, out[k]) || !lt_step_always_runs(f, i, &from)) {
          if (getenv("LEANTAPE_DEBUG")) /* debugging: which write */
            LLVMDumpValue(i), fprintf(stderr, " <- cannot be snapshotted\n");
          snprintf(why, whysz, "a step writes memory whose extent is not known where it "
                               "starts (%s)",
                   !lt_range_ok(f, i, out[k])
                       ? !LLVMIsAStoreInst(i) ? "by a call"
                                              : "through a pointer loaded from memory, a "
                                                "global, or at addresses not affine in its "
                                                "loop counters"
                       : "under a branch, or in a loop left early");
          return 0;
        }
        LtVec *v = group_of(gr, base, (LLVMValueRef)(size_t)(from + 1));
        lt_vec_push(v, i);
        lt_vec_push(v, out[k]);
      }
    }
  int rotates = 0;
  for (size_t k = 0; k < gr->base.n; k++)
    rotates |= LLVMIsALoadInst(gr->base.v[k]) != NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->P); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const LtRule *r;
      int copies = LLVMIsACallInst(i) && lt_call_kind(i, &r) == LT_CALL_MEMCPY;
      if ((LLVMIsALoadInst(i) || copies) && !read_group(f, i, rd, rotates, why, whysz))
        return 0;
    }
  return 1;
}

/* [lo, hi) of group k's writes at b, as len = max(hi - lo, 0); 0 when
 * not computable. */
static int group_range(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b, Groups *gr,
                       size_t k, LLVMValueRef *lo, LLVMValueRef *len) {
  LLVMValueRef hi, zero = LLVMConstInt(f->c->i64, 0, 0);
  if (!lt_range_hull(f, fn, b, (LLVMValueRef *)gr->acc[k].v, gr->acc[k].n, lo, &hi))
    return 0;
  LLVMValueRef d = LLVMBuildSub(b, hi, *lo, "");
  *len = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, d, zero, ""), d, zero, "lt.len");
  int from = (int)(size_t)gr->guard.v[k] - 1;
  if (from >= 0) { /* the conditions the accesses run under, where the step starts */
    LtVec conds = {0};
    int ok = lt_step_path_conds(f, (unsigned)from, 0, &conds);
    for (size_t m = 0; ok && m < conds.n; m += 2) {
      LLVMValueRef cmp = conds.v[m], c;
      if (LLVMIsAArgument(cmp)) {
        LLVMValueRef x = lt_range_point(f, fn, b, cmp);
        ok = x != NULL;
        if (!ok)
          break;
        c = LLVMBuildICmp(b, LLVMIntNE, x, zero, "");
      } else {
        LLVMValueRef x = lt_range_point(f, fn, b, LLVMGetOperand(cmp, 0));
        LLVMValueRef y = lt_range_point(f, fn, b, LLVMGetOperand(cmp, 1));
        ok = x && y;
        if (!ok)
          break;
        c = LLVMBuildICmp(b, LLVMGetICmpPredicate(cmp), x, y, "");
      }
      if (conds.v[m + 1])
        c = LLVMBuildNot(b, c, "");
      *len = LLVMBuildSelect(b, c, *len, zero, "");
    }
    lt_vec_free(&conds);
    if (!ok)
      return 0;
  }
  return 1;
}

/* save (buf <- mem) or restore (mem <- buf) len bytes at buf + *off */
static void copy(LtCtx *c, LLVMBuilderRef b, LLVMValueRef save, LLVMValueRef buf,
                 LLVMValueRef *off, LLVMValueRef lo, LLVMValueRef len) {
  LLVMValueRef mem = LLVMBuildIntToPtr(b, lo, c->ptr, "");
  LLVMValueRef at = LLVMBuildGEP2(b, c->i8, buf, off, 1, "");
  LLVMBuildMemCpy(b, LLVMBuildSelect(b, save, at, mem, ""), 1, LLVMBuildSelect(b, save, mem, at, ""),
                  1, len);
  *off = LLVMBuildAdd(b, *off, len, "");
}

/* copy for the reads (ops 4, 5), but putting back (!save) only a group
 * whose bytes differ. What the steps only read may be read-only (a static
 * const table passed as a pointer, in .rodata): a read group exists
 * because later code may write it (an alias of what it writes is not
 * ruled out), not because it does. Bytes that differ were written by the
 * program, so they are writable, and a group lies in one object: one
 * comparison per group does. */
static void put_back(LtCtx *c, LLVMBuilderRef b, LLVMValueRef save, LLVMValueRef buf,
                     LLVMValueRef *off, LLVMValueRef lo, LLVMValueRef len) {
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMTypeRef cp[3] = {c->ptr, c->ptr, c->i64}, ct = LLVMFunctionType(c->i32, cp, 3, 0);
  LLVMValueRef ca[3] = {LLVMBuildIntToPtr(b, lo, c->ptr, ""),
                        LLVMBuildGEP2(b, c->i8, buf, off, 1, ""),
                        LLVMBuildSelect(b, save, zero, len, "")};
  LLVMValueRef d = LLVMBuildCall2(b, ct, lt_decl_fn(c->mod, "memcmp", ct), ca, 3, "");
  LLVMValueRef differs = LLVMBuildICmp(b, LLVMIntNE, d, LLVMConstInt(c->i32, 0, 0), "");
  LLVMValueRef n = LLVMBuildSelect(b, LLVMBuildOr(b, save, differs, ""), len, zero, "");
  LLVMValueRef at = *off;
  copy(c, b, save, buf, &at, lo, n);
  *off = LLVMBuildAdd(b, *off, len, "");
}

/* Return v when op is k; the builder goes on in a new block otherwise. */
static void ret_if_op(LtCtx *c, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef op,
                      unsigned k, LLVMValueRef v) {
  LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(c->llctx, fn, "op.ret");
  LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(c->llctx, fn, "op.other");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, op, LLVMConstInt(LLVMTypeOf(op), k, 0), ""),
                  yes, no);
  LLVMPositionBuilderAtEnd(b, yes);
  LLVMBuildRet(b, v);
  LLVMPositionBuilderAtEnd(b, no);
}

static int cell_index(const LtFacts *f, const LtVec *cells, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v))
    return -1;
  int p = param_of(f, LLVMGetOperand(v, 0));
  for (size_t m = 0; p >= 0 && m < cells->n; m++)
    if ((size_t)cells->v[m] == (size_t)p)
      return (int)m;
  return -1;
}

/* Group k, written through the pointer that cell wc holds (two buffers
 * swapped each step, a permutation: prep/outline.c), which the step writes
 * before it reads it: i1, true when no other read of the step reaches
 * those bytes whichever buffer each cell holds, so that every step agrees
 * on the snapshot's size; NULL when that cannot be told. Then the buffer
 * the step writes into need not be saved (what it holds is dead to the
 * step), and a double-buffered stencil's snapshot is its state, not both
 * buffers. */
static LLVMValueRef rotated_first(const LtFacts *f, LLVMValueRef fn, LLVMBuilderRef b,
                                  Groups *gr, size_t k, int wc, const LtVec *cells,
                                  LLVMValueRef *cv) {
  LtVec rds = {0}, one = {0};
  LLVMValueRef base = gr->base.v[k], excl = NULL;
  if (!lt_step_write_first(f, base, &gr->acc[k]) || !lt_step_other_reads(f, base, &rds))
    goto out;
  LLVMValueRef ov = LLVMConstInt(LLVMInt1TypeInContext(f->c->llctx), 0, 0);
  LtMap done;
  lt_map_init(&done, 8);
  for (size_t r = 0; ov && r < rds.n; r += 2) { /* by the base they read through */
    LLVMValueRef rb = lt_base_of(rds.v[r + 1]);
    if (lt_map_get(&done, rb))
      continue;
    lt_map_put(&done, rb, rb);
    one.n = 0;
    for (size_t q = r; q < rds.n; q += 2)
      if (lt_base_of(rds.v[q + 1]) == rb) {
        lt_vec_push(&one, rds.v[q]);
        lt_vec_push(&one, rds.v[q + 1]);
      }
    LLVMValueRef o = lt_range_overlap_cells(f, fn, b, (LLVMValueRef *)gr->acc[k].v,
                                            gr->acc[k].n, wc, (LLVMValueRef *)one.v, one.n,
                                            cell_index(f, cells, rb), cv, cells->n);
    if (!o && getenv("LEANTAPE_DEBUG"))
      LLVMDumpValue(rb), fprintf(stderr, " <- rotated_first: no range\n");
    ov = o ? LLVMBuildOr(b, ov, o, "") : NULL;
  }
  lt_map_free(&done);
  if (ov)
    excl = LLVMBuildNot(b, ov, "lt.first");
out:
  lt_vec_free(&rds);
  lt_vec_free(&one);
  return excl;
}

LLVMValueRef lt_ckpt_snap_build(LtCtx *c, const LtFacts *facts, const char *base, char *why,
                                size_t whysz) {
  LtFacts fa = *facts, *f = &fa;
  fa.entry_loads = 1;
  /* the step number (prep/outline.c) spans all steps: what they all write */
  for (unsigned p = 0; p < f->nparams; p++)
    if (LLVMGetStringAttributeAtIndex(f->P, p + 1, "leantape-step", 13))
      fa.span_param = (int)p + 1;
  Groups gr = {{0}, {0}, NULL, 0}, rd = {{0}, {0}, NULL, 0};
  LLVMValueRef fn = NULL, *excl = NULL, *cv = NULL;
  LtVec cells = {0};
  if (!writes(c, f, &gr, &rd, why, whysz))
    goto done;
  char name[300];
  snprintf(name, sizeof name, "%s.lt.snap", base);
  LLVMTypeRef ft = LLVMGlobalGetValueType(f->P);
  unsigned np = LLVMCountParamTypes(ft);
  LLVMTypeRef *pt = lt_xcalloc(np + 4, sizeof *pt);
  LLVMGetParamTypes(ft, pt);
  pt[np] = c->ptr;
  pt[np + 1] = LLVMInt32TypeInContext(c->llctx);
  pt[np + 2] = c->i64; /* the number of steps (span_param) */
  fn = LLVMAddFunction(c->mod, name, LLVMFunctionType(c->i64, pt, np + 3, 0));
  free(pt);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  /* the cells of rotated pointers (noalias pointer parameters loaded as
   * pointers, prep/outline.c): a group based on what one holds is taken at
   * the value of each, at its offset from the base */
  unsigned na = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned p = 0; p < np; p++) {
    LLVMValueRef a = LLVMGetParam(f->P, p);
    if (!lt_is_ptr_ty(LLVMTypeOf(a)) || !LLVMGetEnumAttributeAtIndex(f->P, p + 1, na))
      continue;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u))
      if (LLVMIsALoadInst(LLVMGetUser(u)) && lt_is_ptr_ty(LLVMTypeOf(LLVMGetUser(u)))) {
        lt_vec_push(&cells, (void *)(size_t)p);
        break;
      }
  }
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, fn, "entry");
  LLVMBasicBlockRef cp = LLVMAppendBasicBlockInContext(c->llctx, fn, "copy");
  LLVMBasicBlockRef size = LLVMAppendBasicBlockInContext(c->llctx, fn, "size");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef buf = LLVMGetParam(fn, np), op = LLVMGetParam(fn, np + 1);
  LLVMValueRef total = LLVMConstInt(c->i64, 0, 0);
  LLVMValueRef ncells = LLVMConstInt(c->i64, cells.n, 0), zero = total;
  /* groups every step writes before it reads them (lt_step_write_first): out of
   * the states where no other read reaches them (excl[k], an i1), and
   * with the reads instead, so that R leaves them as it found them */
  excl = lt_xcalloc(gr.base.n + 1, sizeof *excl);
  int permuted = cells.n > 0;
  cv = lt_xcalloc(cells.n + 1, sizeof *cv);
  for (size_t m = 0; m < cells.n; m++) {
    unsigned p = (unsigned)(size_t)cells.v[m];
    permuted &= LLVMGetStringAttributeAtIndex(f->P, p + 1, "leantape-permuted", 17) != NULL;
    cv[m] = LLVMBuildPtrToInt(b, LLVMBuildLoad2(b, c->ptr, LLVMGetParam(fn, p), ""), c->i64, "");
  }
  for (size_t k = 0; k < gr.base.n; k++) {
    LLVMValueRef base = gr.base.v[k];
    size_t same = 0;
    for (size_t q = 0; q < gr.base.n; q++)
      same += gr.base.v[q] == base;
    int wc = cell_index(f, &cells, base);
    if (permuted && wc >= 0 && same == 1) {
      excl[k] = rotated_first(f, fn, b, &gr, k, wc, &cells, cv);
      continue;
    }
    LtVec rds = {0};
    if (LLVMIsAArgument(base) && same == 1 && lt_step_write_first(f, base, &gr.acc[k]) &&
        lt_step_other_reads(f, base, &rds)) {
      LLVMValueRef ov = rds.n ? lt_range_overlap(f, fn, b, (LLVMValueRef *)gr.acc[k].v,
                                                 gr.acc[k].n, (LLVMValueRef *)rds.v, rds.n)
                              : LLVMConstInt(LLVMInt1TypeInContext(c->llctx), 0, 0);
      if (ov)
        excl[k] = LLVMBuildNot(b, ov, "lt.first");
    }
    lt_vec_free(&rds);
  }
  int ok = 1;
  LLVMValueRef left = NULL; /* the bytes of the rotated exclusions */
  for (size_t k = 0; ok && k < gr.base.n; k++) {
    LLVMValueRef lo, len;
    ok = group_range(f, fn, b, &gr, k, &lo, &len);
    if (ok && LLVMIsALoadInst(gr.base.v[k])) { /* at each cell, but the excluded one */
      LLVMValueRef all = LLVMBuildMul(b, len, ncells, "");
      if (excl[k]) {
        LLVMValueRef l = LLVMBuildSelect(b, excl[k], len, zero, "");
        all = LLVMBuildSub(b, all, l, "");
        left = left ? LLVMBuildAdd(b, left, l, "") : l;
      }
      total = LLVMBuildAdd(b, total, all, "");
      continue;
    }
    if (ok && excl[k])
      len = LLVMBuildSelect(b, excl[k], zero, len, "");
    if (ok)
      total = LLVMBuildAdd(b, total, len, "");
  }
  LLVMValueRef full = left ? LLVMBuildAdd(b, total, left, "") : total; /* op 6 */
  /* op 6: the state's bytes as the estimate of a step's tape (ckptrt.c);
   * ops 3, 4, 5: the reads' size, save, restore (read_group, put_back) */
  LLVMBasicBlockRef state = LLVMAppendBasicBlockInContext(c->llctx, fn, "state");
  LLVMBasicBlockRef reads = LLVMAppendBasicBlockInContext(c->llctx, fn, "reads");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, op, LLVMConstInt(LLVMTypeOf(op), 3, 0), ""),
                  reads, state);
  LLVMPositionBuilderAtEnd(b, reads);
  {
    ret_if_op(c, b, fn, op, 6, full);
    size_t nr = rd.base.n + gr.base.n;
    LLVMValueRef rt = LLVMConstInt(c->i64, 0, 0), lo[nr + 1], len[nr + 1];
    int rotk[nr + 1]; /* a rotated group's: lo is its offset from its cell's buffer */
    memset(rotk, -1, sizeof rotk);
    for (size_t k = 0; ok && k < rd.base.n; k++) {
      ok = group_range(f, fn, b, &rd, k, &lo[k], &len[k]);
      if (ok)
        rt = LLVMBuildAdd(b, rt, len[k], "");
    }
    for (size_t k = 0; ok && k < gr.base.n; k++) { /* the groups out of the states */
      size_t at = rd.base.n + k;
      len[at] = NULL;
      if (!excl[k])
        continue;
      ok = group_range(f, fn, b, &gr, k, &lo[at], &len[at]);
      if (!ok)
        break;
      len[at] = LLVMBuildSelect(b, excl[k], len[at], zero, "");
      if ((rotk[at] = cell_index(f, &cells, gr.base.v[k])) >= 0) { /* at every cell */
        lo[at] = LLVMBuildSub(b, lo[at], cv[rotk[at]], "");
        rt = LLVMBuildAdd(b, rt, LLVMBuildMul(b, len[at], ncells, ""), "");
        continue;
      }
      rt = LLVMBuildAdd(b, rt, len[at], "");
    }
    ret_if_op(c, b, fn, op, 3, rt);
    LLVMValueRef rsave = LLVMBuildICmp(b, LLVMIntEQ, op, LLVMConstInt(LLVMTypeOf(op), 4, 0), "");
    LLVMValueRef roff = LLVMConstInt(c->i64, 0, 0);
    for (size_t k = 0; ok && k < nr; k++) {
      if (!len[k])
        continue;
      if (rotk[k] < 0) {
        put_back(c, b, rsave, buf, &roff, lo[k], len[k]);
        continue;
      }
      /* each buffer's bytes at its place among the buffers in address
       * order: the cells may hold them in another order when they are
       * put back than when they were saved */
      for (size_t m = 0; m < cells.n; m++) {
        LLVMValueRef rank = zero;
        for (size_t m2 = 0; m2 < cells.n; m2++) {
          if (m2 == m)
            continue;
          LLVMValueRef before = LLVMBuildICmp(b, LLVMIntULT, cv[m2], cv[m], "");
          if (m2 < m)
            before = LLVMBuildOr(b, before, LLVMBuildICmp(b, LLVMIntEQ, cv[m2], cv[m], ""), "");
          rank = LLVMBuildAdd(b, rank, LLVMBuildZExt(b, before, c->i64, ""), "");
        }
        LLVMValueRef at = LLVMBuildAdd(b, roff, LLVMBuildMul(b, rank, len[k], ""), "");
        put_back(c, b, rsave, buf, &at, LLVMBuildAdd(b, cv[m], lo[k], ""), len[k]);
      }
      roff = LLVMBuildAdd(b, roff, LLVMBuildMul(b, len[k], ncells, ""), "");
    }
    LLVMBuildRet(b, rt);
  }
  LLVMPositionBuilderAtEnd(b, state);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, op, LLVMConstInt(LLVMTypeOf(op), 0, 0), ""),
                  size, cp);
  LLVMPositionBuilderAtEnd(b, size);
  LLVMBuildRet(b, total);
  /* The copies, the fixed segments (based on parameters) first: restoring,
   * the rotated cells get their old values back before the rotated
   * buffers' addresses are read from them (else each buffer's bytes would
   * go to the one its cell holds now). */
  LLVMPositionBuilderAtEnd(b, cp);
  LLVMValueRef save = LLVMBuildICmp(b, LLVMIntEQ, op, LLVMConstInt(LLVMTypeOf(op), 1, 0), "");
  LLVMValueRef off = LLVMConstInt(c->i64, 0, 0);
  for (int rot = 0; ok && rot < 2; rot++)
    for (size_t k = 0; ok && k < gr.base.n; k++) {
      LLVMValueRef based = gr.base.v[k], lo, len;
      if ((LLVMIsALoadInst(based) != NULL) != rot)
        continue;
      ok = group_range(f, fn, b, &gr, k, &lo, &len);
      if (!ok)
        break;
      if (!rot) {
        if (excl[k])
          len = LLVMBuildSelect(b, excl[k], zero, len, "");
        copy(c, b, save, buf, &off, lo, len);
        continue;
      }
      int q = param_of(f, LLVMGetOperand(based, 0));
      LLVMValueRef bv = LLVMBuildPtrToInt(
          b, LLVMBuildLoad2(b, c->ptr, LLVMGetParam(fn, (unsigned)q), ""), c->i64, "");
      LLVMValueRef rel = LLVMBuildSub(b, lo, bv, "");
      for (size_t m = 0; m < cells.n; m++) {
        LLVMValueRef at = LLVMBuildPtrToInt(
            b, LLVMBuildLoad2(b, c->ptr, LLVMGetParam(fn, (unsigned)(size_t)cells.v[m]), ""),
            c->i64, "");
        LLVMValueRef n = len;
        if (excl[k] && (size_t)cells.v[m] == (size_t)q) /* the buffer it writes first */
          n = LLVMBuildSelect(b, excl[k], zero, len, "");
        copy(c, b, save, buf, &off, LLVMBuildAdd(b, at, rel, ""), n);
      }
    }
  LLVMBuildRet(b, total);
  LLVMDisposeBuilder(b);
  if (!ok)
    snprintf(why, whysz, "a step writes memory whose extent is not known where it starts");
  /* online (prep/outline.c), the number of steps is not known when the
   * snapshots are taken: what they copy must not depend on it */
  if (ok && LLVMGetStringAttributeAtIndex(f->P, LLVMAttributeFunctionIndex, "leantape-online",
                                          15) &&
      LLVMGetFirstUse(LLVMGetParam(fn, np + 2))) {
    snprintf(why, whysz, "its number of steps is not known when it starts, and a step "
                         "writes or reads memory at addresses that depend on the step number");
    ok = 0;
  }
  if (!ok) {
    LLVMDeleteFunction(fn);
    fn = NULL;
  } else if (!lt_run_pipeline(c, fn, "instcombine")) {
    /* for the remark: its size, when that folds to a constant (the
     * extents' ends are offsets from the same pointers) */
    LLVMValueRef rt = LLVMGetBasicBlockTerminator(size);
    LLVMValueRef v = rt && LLVMGetNumOperands(rt) ? LLVMGetOperand(rt, 0) : NULL;
    if (v && LLVMIsAConstantInt(v))
      snprintf(why, whysz, "%llu bytes", LLVMConstIntGetZExtValue(v));
    else if (v && LLVMIsASelectInst(v) && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) &&
             LLVMIsAConstantInt(LLVMGetOperand(v, 2))) { /* excl: one group or none */
      unsigned long long x = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1));
      unsigned long long y = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 2));
      snprintf(why, whysz, "%llu bytes, without what each step writes before it reads it; "
                           "%llu where another pointer may read that",
               x < y ? x : y, x < y ? y : x);
    }
  }
done:
  free(excl);
  free(cv);
  lt_vec_free(&cells);
  for (size_t k = 0; k < gr.base.n; k++)
    lt_vec_free(&gr.acc[k]);
  free(gr.acc);
  lt_vec_free(&gr.base);
  lt_vec_free(&gr.guard);
  for (size_t k = 0; k < rd.base.n; k++)
    lt_vec_free(&rd.acc[k]);
  free(rd.acc);
  lt_vec_free(&rd.base);
  lt_vec_free(&rd.guard);
  return fn;
}
