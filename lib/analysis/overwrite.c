/* overwrite.c: may a load's memory change before the reverse pass reads it?
 *
 * The reverse pass may read a load's memory again instead of taping the
 * value when nothing that runs after the load can write that memory. Per
 * load: the writes that can run after it (later in its block, or in any
 * block reachable from it, which inside a loop is the whole loop), each
 * asked whether it may write the loaded memory. Two accesses are apart
 * when any of these says so: distinct identified objects (allocas,
 * allocations, globals, noalias parameters), the points-to sets (memory of
 * the function versus memory from outside it), or LLVM's alias analysis
 * (TBAA, scoped noalias, BasicAA; asked with unknown sizes, so that
 * accesses in different iterations are covered). Frees and lifetime ends
 * count as writes; a call that may write unknown memory writes everything.
 * Stack memory is never re-read (the forward function has returned).
 * Writes are grouped into classes (base object and AA metadata) so that an
 * unrolled loop of n stores costs one class, not n queries per load.
 * In split mode the caller may change memory between the halves, so the
 * answers hold there only for memory the caller keeps (materialize.c), and
 * no undo log is planned. All answers are computed by lt_overwrite_build;
 * LLVM's analyses of the function are forgotten afterwards.
 */
#include "lt.h"
#include "overwrite.h"

#include <stdlib.h>
#include <string.h>

static unsigned class_of(Classes *cs, LLVMValueRef inst, LLVMValueRef addr) {
  Class k;
  memset(&k, 0, sizeof k);
  k.inst = inst;
  k.addr = addr;
  k.base = lt_base_of(addr);
  k.store = LLVMIsAStoreInst(inst) != NULL;
  for (int m = 0; m < 3; m++)
    k.md[m] = LLVMGetMetadata(inst, cs->md_kind[m]);
  for (unsigned i = 0; i < cs->n; i++)
    if (cs->c[i].base == k.base && cs->c[i].store == k.store && cs->c[i].md[0] == k.md[0] &&
        cs->c[i].md[1] == k.md[1] && cs->c[i].md[2] == k.md[2])
      return i;
  if (cs->n == cs->cap) {
    cs->cap = cs->cap ? 2 * cs->cap : 16;
    Class *n = lt_xcalloc(cs->cap, sizeof *n);
    if (cs->n)
      memcpy(n, cs->c, cs->n * sizeof *n);
    free(cs->c);
    cs->c = n;
  }
  cs->c[cs->n] = k;
  return cs->n++;
}

static int is_alloc(LLVMValueRef v) {
  const LtRule *r;
  return LLVMIsAAllocaInst(v) ||
         (LLVMIsACallInst(v) && lt_call_kind(v, &r) == LT_CALL_MALLOC);
}

static int is_identified(LLVMValueRef v) {
  return is_alloc(v) || (LLVMIsAGlobalVariable(v) && !LLVMIsAGlobalAlias(v));
}

static int is_noalias_arg(LLVMValueRef v) {
  if (!LLVMIsAArgument(v))
    return 0;
  LLVMValueRef f = LLVMGetParamParent(v);
  unsigned idx = 0;
  for (unsigned i = 0, n = LLVMCountParams(f); i < n; i++)
    if (LLVMGetParam(f, i) == v)
      idx = i + 1;
  unsigned k = LLVMGetEnumAttributeKindForName("noalias", 7);
  return LLVMGetEnumAttributeAtIndex(f, idx, k) != NULL;
}

/* Distinct underlying objects. */
static int bases_may_alias(LLVMValueRef a, LLVMValueRef b) {
  if (a == b)
    return 1;
  if (is_identified(a) && is_identified(b))
    return 0;
  if ((is_alloc(a) && LLVMIsAArgument(b)) || (is_alloc(b) && LLVMIsAArgument(a)))
    return 0;
  if (LLVMIsAArgument(a) && LLVMIsAArgument(b))
    return !(is_noalias_arg(a) || is_noalias_arg(b));
  if ((is_noalias_arg(a) && is_identified(b)) || (is_noalias_arg(b) && is_identified(a)))
    return 0;
  return 1;
}


static int class_may_alias(Ctx *x, unsigned wc, unsigned lc) {
  const Class *w = &x->w.c[wc], *l = &x->l.c[lc];
  if (!bases_may_alias(w->base, l->base))
    return 0;
  if (!lt_points_may_alias(&x->g->act->pts, w->addr, l->addr))
    return 0;
  return lt_llvm_may_alias(x->g->c, w->inst, w->base, l->inst, l->base);
}

/* Stack memory R cannot read again: a local of a frame that is gone when
 * R runs, or that dies or is reused before (any local in split mode and
 * for callees kept as calls; in combined mode those prep/frame.c does
 * not keep: a VLA's, released by stackrestore, or one with lifetime
 * markers). */
static int kept_local(void *g, LLVMValueRef a) {
  const LtFacts *f = g;
  return !f->split && lt_frame_alloca(f->P, a);
}

static int stack_memory(const LtFacts *g, LLVMValueRef addr) {
  LLVMValueRef b = lt_base_of(addr);
  return (LLVMIsAAllocaInst(b) && !kept_local((void *)g, b)) ||
         lt_points_any_stack(&g->act->pts, addr, kept_local, (void *)g);
}

/* A plain store of a scalar of at most 8 bytes: its old value fits a log
 * entry; or a memcpy, memmove or memset (intrinsic or library call, not
 * volatile): its destination's old bytes fit a block entry (undo.c), a
 * time step's copy back memcpy(u, t, n) logged as the state it
 * overwrites, 8 bytes a point, where the step's loads of u taped cost 8
 * bytes a read. In address space 0 only: the log's helpers take generic
 * pointers, and what a cast from another space means depends on the
 * target. */
int lt_overwrite_block_call(LLVMValueRef i) {
  const LtRule *r;
  if (!LLVMIsACallInst(i) || LLVMGetNumArgOperands(i) < 3)
    return 0;
  LtCallKind k = lt_call_kind(i, &r);
  if (k != LT_CALL_MEMCPY && k != LT_CALL_MEMSET)
    return 0;
  size_t len;
  const char *nm = lt_callee_name(i, &len);
  LLVMValueRef vol = len > 5 && !strncmp(nm, "llvm.", 5) && LLVMGetNumArgOperands(i) > 3
                         ? LLVMGetOperand(i, 3)
                         : NULL;
  LLVMValueRef n = LLVMGetOperand(i, 2);
  return (!vol || (LLVMIsAConstantInt(vol) && !LLVMConstIntGetZExtValue(vol))) &&
         LLVMGetTypeKind(LLVMTypeOf(n)) == LLVMIntegerTypeKind &&
         LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(i, 0))) == 0;
}

/* The pointers the function's frees and reallocs release (realloc: its
 * old block), into v. */
static void released(const LtFacts *g, LtVec *v) {
  const LtCfg *cfg = g->g;
  for (unsigned b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
        continue;
      const LtRule *r;
      const LtAllocFn *af = lt_alloc_fn(i);
      if (lt_call_kind(i, &r) == LT_CALL_FREE && LLVMGetNumArgOperands(i) > 0)
        lt_vec_push(v, LLVMGetOperand(i, 0));
      else if (af && af->old_arg >= 0)
        lt_vec_push(v, LLVMGetOperand(i, (unsigned)af->old_arg));
    }
}

/* May the store at addr write memory that the function releases (a free,
 * a realloc's old block), or stack memory? R would restore its log entry
 * into memory freed before R runs, or a stack frame that has returned:
 * fuzz --cxx --calls seed 1014509 at -O2, `pq = k % 2 ? y + ... : v0 + 1;
 * pq[0] = ...` logged for the loads of y it may overwrite, restored into a
 * std::vector's block deleted at the end of f (heap corruption, a crash).
 * Stores to the locals R may read (prep/frame.c) are not logged either:
 * GradBench's gmm re-reading its xc[d], overwritten per point and
 * component, through the log took 1.51 times the hand-written gradient's
 * time against 1.31 taping its reads (tape 6.5 against 10.4 MB). */
static int store_released(const LtFacts *g, const LtVec *rel, LLVMValueRef addr) {
  if (LLVMIsAAllocaInst(lt_base_of(addr)) || lt_points_any_stack(&g->act->pts, addr, NULL, NULL))
    return 1;
  for (size_t k = 0; k < rel->n; k++)
    if (lt_points_may_alias(&g->act->pts, addr, rel->v[k]))
      return 1;
  return 0;
}

static int loggable_store(const LtFacts *g, LLVMValueRef i) {
  if (lt_overwrite_block_call(i)) {
    /* In a loop, only a copy of the same range in every iteration (a
     * time step's copy back): each block but the last is then LATER than
     * the next (undort.c), copied back rather than swapped, and not
     * replayed. PolyBench's durbin copies y[0..k) back for each k: its
     * blocks, all of them swapped and replayed, halved the tape but made
     * the gradient 3.1 -> 5.3 times the primal (MEDIUM), where taping
     * the loads streams. */
    int id = lt_cfg_id(g->g, LLVMGetInstructionParent(i));
    int l = id >= 0 ? lt_loop_of(g->loops, (unsigned)id) : -1;
    return id >= 0 && (l < 0 || (lt_invariant_value(g->ind, (unsigned)l, LLVMGetOperand(i, 0)) &&
                                 lt_invariant_value(g->ind, (unsigned)l, LLVMGetOperand(i, 2))));
  }
  if (!LLVMIsAStoreInst(i) || LLVMGetVolatile(i) || LLVMIsAtomic(i) ||
      LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(i, 1))) != 0)
    return 0;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return (k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind ||
          k == LLVMIntegerTypeKind || k == LLVMPointerTypeKind) &&
         LLVMABISizeOfType(g->c->td, t) <= 8 &&
         LLVMStoreSizeOfType(g->c->td, t) == LLVMABISizeOfType(g->c->td, t);
}


static int alias_memo(Ctx *x, unsigned wc, unsigned lc) {
  void *key = (void *)(((size_t)(wc + 1) << 32) | (size_t)(lc + 1));
  size_t m = (size_t)lt_map_get(&x->alias, key);
  if (!m) {
    m = class_may_alias(x, wc, lc) ? 1 : 2;
    lt_map_put(&x->alias, key, (void *)m);
  }
  return m == 1;
}

/* A write between `from` (exclusive) and `to` (exclusive; NULL: the end
 * of from's block; from NULL: the start of to's block) that may alias
 * load class lc. */
static int aliasing_write(Ctx *x, LLVMBasicBlockRef bb, LLVMValueRef from,
                          LLVMValueRef to, unsigned lc) {
  LLVMValueRef i = from ? LLVMGetNextInstruction(from) : LLVMGetFirstInstruction(bb);
  for (; i && i != to; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef w[5];
    for (unsigned k = 0, n = lt_writes_of(x->g->c, i, w); k < n; k++)
      if (w[k] == CLOBBER || alias_memo(x, class_of(&x->w, i, w[k]), lc))
        return 1;
  }
  return 0;
}

/* In one execution of their block, do a load and a store touch bytes
 * apart? Their addresses affine in the block's loop (or outside loops),
 * with the same terms, offsets at least the wider access apart: a
 * recurrence's load p[j - 1] and its store p[j]. */
static int apart_here(Ctx *x, LLVMValueRef load, LLVMValueRef store) {
  const LtFacts *g = x->g;
  if (!LLVMIsAStoreInst(store))
    return 0;
  int b = lt_cfg_id(g->g, LLVMGetInstructionParent(load));
  int l = b >= 0 ? lt_loop_of(g->loops, (unsigned)b) : -1;
  LtAffine a, s;
  LLVMValueRef pa = LLVMGetOperand(load, 0), ps = LLVMGetOperand(store, 1);
  if (l >= 0 ? lt_affine_of_run(g->ind, g->c->td, pa, (unsigned)l, &a)
             : lt_affine_of(g->ind, g->c->td, pa, -1, &a))
    return 0;
  if (l >= 0 ? lt_affine_of_run(g->ind, g->c->td, ps, (unsigned)l, &s)
             : lt_affine_of(g->ind, g->c->td, ps, -1, &s)) {
    lt_affine_free(&a);
    return 0;
  }
  long long la = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(load));
  long long ls = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(LLVMGetOperand(store, 0)));
  long long d = a.off - s.off, w = la > ls ? la : ls;
  int ok = lt_affine_same_terms(&a, &s) && (d >= w || -d >= w);
  lt_affine_free(&a);
  lt_affine_free(&s);
  return ok;
}

/* aliasing_write from the load to a later user in the load's block, in
 * the same execution of it: stores apart from the load there do not
 * count. */
static int aliasing_write_here(Ctx *x, LLVMValueRef load, LLVMValueRef to, unsigned lc) {
  for (LLVMValueRef i = LLVMGetNextInstruction(load); i && i != to;
       i = LLVMGetNextInstruction(i)) {
    LLVMValueRef w[5];
    for (unsigned k = 0, n = lt_writes_of(x->g->c, i, w); k < n; k++)
      if (w[k] == CLOBBER ||
          (alias_memo(x, class_of(&x->w, i, w[k]), lc) && !apart_here(x, load, i)))
        return 1;
  }
  return 0;
}

/* Blocks reachable from b's successors (dir 1) or reaching b's
 * predecessors (dir 0) without entering `avoid`. */
static void sweep(const LtCfg *cfg, unsigned b, unsigned avoid, int dir,
                  unsigned char *m, unsigned *stack) {
  unsigned n = 0;
  stack[n++] = b;
  while (n) {
    unsigned v = stack[--n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[v]);
    unsigned ns = dir ? (t ? LLVMGetNumSuccessors(t) : 0) : cfg->npred[v];
    for (unsigned k = 0; k < ns; k++) {
      int w = dir ? lt_cfg_id(cfg, LLVMGetSuccessor(t, k)) : (int)cfg->pred[v][k];
      if (w < 0 || (unsigned)w == avoid || m[w])
        continue;
      m[w] = 1;
      stack[n++] = (unsigned)w;
    }
  }
}

/* Does the reverse of user read the primal value of its operand v? Sums,
 * negations, precision casts, PHIs, returns and stores of floats only move
 * adjoints; everything else may (products, divisions, calls, addresses,
 * conditions). */
static int requests(LLVMValueRef user, LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(user)) {
  case LLVMFAdd: case LLVMFSub: case LLVMFNeg: case LLVMFPExt: case LLVMFPTrunc:
  case LLVMPHI: case LLVMRet:
    return 0;
  case LLVMStore:
    return LLVMGetOperand(user, 0) != v || lt_is_ptr_ty(LLVMTypeOf(v));
  default:
    return 1;
  }
}

/* May the reverse pass recompute u (so ask for its operands where u is
 * asked for)? Pure operations, math calls and re-read loads. */
static int recomputable(LLVMValueRef u) {
  if (LLVMGetTypeKind(LLVMTypeOf(u)) == LLVMVoidTypeKind || LLVMIsAPHINode(u) ||
      LLVMIsATerminatorInst(u))
    return 0;
  if (LLVMIsACallInst(u) || LLVMIsAInvokeInst(u)) {
    const LtRule *r;
    LtCallKind k = lt_call_kind(u, &r);
    return k == LT_CALL_RULE || k == LT_CALL_ZERO || k == LT_CALL_COMPLEX;
  }
  return 1;
}

/* Recomputation goes at most MAX_RECOMPUTE_DEPTH (materialize.c) levels
 * below an asked-for value; a little more, to be safe. */
#define REQ_REACH 32

/* How many recomputations above v something asks for a value: 0 when a
 * user's reverse reads v, else 1 + the least over recomputable users;
 * REQ_REACH + 1 when nothing within reach does. Memoised (users first:
 * blocks in reverse RPO, instructions backwards). */
static unsigned req_dist(Ctx *x, LLVMValueRef v) {
  size_t m = (size_t)lt_map_get(&x->dist, v);
  if (m)
    return (unsigned)m - 1;
  /* a math call's reverse may read its own result (exp' = exp) */
  unsigned d = LLVMIsACallInst(v) || LLVMIsAInvokeInst(v) ? 0 : REQ_REACH + 1;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && d; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (!LLVMIsAInstruction(w) || LLVMIsAPHINode(w))
      continue;
    if (requests(w, v))
      d = 0;
    else if (recomputable(w)) {
      size_t mw = (size_t)lt_map_get(&x->dist, w);
      unsigned dw = mw ? (unsigned)mw - 1 : REQ_REACH + 1; /* not yet: far */
      if (dw + 1 < d)
        d = dw + 1;
    }
  }
  lt_map_put(&x->dist, v, (void *)(size_t)(d + 1));
  return d;
}

static void req_dist_all(Ctx *x) {
  const LtCfg *cfg = x->g->g;
  for (unsigned b = cfg->nblocks; b-- > 0;)
    for (LLVMValueRef i = LLVMGetLastInstruction(cfg->block[b]); i;
         i = LLVMGetPreviousInstruction(i))
      if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
        req_dist(x, i);
}

/* The reverse pass reads a load where the reverse of an instruction that
 * uses it (directly, or through values recomputed from it) runs; there,
 * the writes after that instruction are undone, those between the load
 * and it are not. So no write that may alias the load may lie on a path
 * from the load to such a user (paths through the load's block again
 * start over). Branches do not qualify: the reverse pass recomputes their
 * conditions where the arms merge. */
static int between_ok(Ctx *x, LLVMValueRef load, unsigned lc, LtVec *closure) {
  const LtCfg *cfg = x->g->g;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(load);
  int lb = lt_cfg_id(cfg, bb);
  LtMap seen, pos;
  lt_map_init(&seen, 16);
  lt_map_init(&pos, 16);
  LtVec work = {0}, users = {0}, late = {0};
  lt_vec_push(&work, load);
  lt_map_put(&seen, load, (void *)1);
  int ok = lb >= 0 && cfg->nblocks <= 4096;
  /* the values the reverse pass may recompute from the load (late), and
   * the instructions whose reverse may ask for one of them (users) */
  while (ok && work.n) {
    LLVMValueRef v = work.v[--work.n];
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && ok; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsAPHINode(user))
        continue; /* taped or a counter: never recomputed from the load */
      if (!LLVMIsAInstruction(user) || LLVMIsATerminatorInst(user) ||
          lt_cfg_id(cfg, LLVMGetInstructionParent(user)) < 0) {
        ok = LLVMIsAReturnInst(user) != NULL; /* the result's adjoint: no value */
        continue;
      }
      if (requests(user, v) && !lt_map_get(&pos, user)) {
        lt_map_put(&pos, user, (void *)1);
        lt_vec_push(&users, user);
      }
      if (!lt_map_get(&seen, user) && recomputable(user) && req_dist(x, user) <= REQ_REACH) {
        lt_map_put(&seen, user, (void *)1);
        lt_vec_push(&late, user);
        lt_vec_push(&work, user);
      }
    }
  }
  unsigned char *m1 = NULL, *m2 = NULL;
  unsigned *stack = NULL;
  for (size_t k = 0; ok && k < users.n; k++) {
    LLVMValueRef u = users.v[k];
    LLVMBasicBlockRef ub = LLVMGetInstructionParent(u);
    if (ub == bb) {
      /* later in the block (a user earlier in it is reached around a
       * loop, through the block again: not a use of this execution) */
      ok = !aliasing_write_here(x, load, u, lc);
      continue;
    }
    unsigned c = (unsigned)lt_cfg_id(cfg, ub);
    if (!m1) {
      m1 = lt_xcalloc(cfg->nblocks, 1);
      m2 = lt_xcalloc(cfg->nblocks, 1);
      stack = lt_xcalloc(cfg->nblocks + 1, sizeof *stack);
    }
    memset(m1, 0, cfg->nblocks);
    memset(m2, 0, cfg->nblocks);
    sweep(cfg, (unsigned)lb, (unsigned)lb, 1, m1, stack);
    sweep(cfg, c, (unsigned)lb, 0, m2, stack);
    ok = !aliasing_write(x, bb, load, NULL, lc);
    for (unsigned r = 0; ok && r < cfg->nblocks; r++)
      if (m1[r] && m2[r] && r != c)
        ok = !aliasing_write(x, cfg->block[r], NULL, NULL, lc);
    /* c reaching itself (a loop around the user): all of it lies between */
    if (ok)
      ok = !aliasing_write(x, ub, NULL, m1[c] && m2[c] ? NULL : u, lc);
  }
  free(m1);
  free(m2);
  free(stack);
  lt_vec_free(&work);
  lt_vec_free(&users);
  if (ok)
    *closure = late;
  else
    lt_vec_free(&late);
  lt_map_free(&seen);
  lt_map_free(&pos);
  return ok;
}


/* A call of a function defined in the module (a callee that may stay a
 * call, with its own derivative), or a BLAS routine: both may read their
 * pointer arguments' memory again in the reverse pass. */
static int is_defined_call(LLVMValueRef i) {
  const LtRule *r;
  if (!LLVMIsACallInst(i))
    return 0;
  LLVMValueRef f = LLVMGetCalledValue(i);
  return f && LLVMIsAFunction(f) &&
         (!LLVMIsDeclaration(f) || lt_call_kind(i, &r) == LT_CALL_BLAS);
}

/* Per pointer argument of call: may a write after it change its memory?
 * (after: the writes after the call, not its own.) */
static void call_args(Ctx *x, LtOverwrite *o, LLVMValueRef call, const uint64_t *after,
                      unsigned clobber) {
  if (bit_has(after, clobber))
    return;
  unsigned long long mask = 0;
  for (unsigned k = 0, n = LLVMGetNumArgOperands(call); k < n && k < 63; k++) {
    LLVMValueRef a = LLVMGetOperand(call, k);
    if (!lt_is_ptr_ty(LLVMTypeOf(a)) || LLVMIsAConstantPointerNull(a) ||
        stack_memory(x->g, a))
      continue;
    unsigned lc = class_of(&x->l, call, a);
    int ok = 1;
    for (unsigned wc = 0; ok && wc < x->w.n; wc++)
      if (bit_has(after, wc) && alias_memo(x, wc, lc))
        ok = 0;
    if (ok)
      mask |= 1ULL << k;
  }
  lt_map_put(&o->callarg, call, (void *)(size_t)(mask + 1));
}

int lt_overwrite_call_arg(const LtOverwrite *o, LLVMValueRef call, unsigned k) {
  size_t m = (size_t)lt_map_get(&o->callarg, call);
  return m && k < 63 && (((m - 1) >> k) & 1);
}

void lt_overwrite_build(LtOverwrite *o, const LtFacts *g) {
  memset(o, 0, sizeof *o);
  lt_map_init(&o->ok, 64);
  lt_map_init(&o->cand, 16);
  lt_map_init(&o->store_class, 16);
  lt_map_init(&o->late, 16);
  lt_map_init(&o->callarg, 16);
  const LtCfg *cfg = g->g;
  Ctx x;
  memset(&x, 0, sizeof x);
  const char *names[3] = {"tbaa", "alias.scope", "noalias"};
  for (int m = 0; m < 3; m++)
    x.w.md_kind[m] = x.l.md_kind[m] =
        LLVMGetMDKindIDInContext(g->c->llctx, names[m], (unsigned)strlen(names[m]));
  x.g = g;
  lt_map_init(&x.alias, 64);
  lt_map_init(&x.dist, 256);
  req_dist_all(&x);
  /* write classes, in a first pass (the bitset width must be known) */
  for (unsigned b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(g->c, i, w); k < n; k++)
        if (w[k] != CLOBBER)
          class_of(&x.w, i, w[k]);
    }
  unsigned clobber = x.w.n;
  LtVec rel = {0};
  released(g, &rel);
  x.words = (x.w.n + 1 + 63) / 64;
  /* per block: its own writes; then reach = writes of successors, closed */
  uint64_t *own = lt_xcalloc((size_t)cfg->nblocks * x.words, sizeof *own);
  x.reach = lt_xcalloc((size_t)cfg->nblocks * x.words, sizeof *x.reach);
  for (unsigned b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(g->c, i, w); k < n; k++) {
        if (w[k] == CLOBBER) {
          bit_set(own + (size_t)b * x.words, clobber);
          continue;
        }
        unsigned wc = class_of(&x.w, i, w[k]);
        bit_set(own + (size_t)b * x.words, wc);
        Class *cl = &x.w.c[wc];
        cl->unloggable |= !loggable_store(g, i) || store_released(g, &rel, w[k]);
        lt_vec_push(&cl->members, i);
        lt_vec_push(&cl->members, w[k]);
        if (depth_of(g, b) > cl->depth)
          cl->depth = depth_of(g, b);
      }
    }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned r = cfg->nblocks; r-- > 0;) {
      unsigned b = r; /* ids are in RPO: this is backwards */
      uint64_t *rb = x.reach + (size_t)b * x.words;
      LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->block[b]);
      for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
        int sid = lt_cfg_id(cfg, LLVMGetSuccessor(term, s));
        if (sid < 0)
          continue;
        const uint64_t *os = own + (size_t)sid * x.words,
                       *rs = x.reach + (size_t)sid * x.words;
        for (unsigned w = 0; w < x.words; w++) {
          uint64_t v = rb[w] | os[w] | rs[w];
          changed |= v != rb[w];
          rb[w] = v;
        }
      }
    }
  }
  /* per load: the writes after it in its block, and those reachable */
  uint64_t *after = lt_xcalloc(x.words, sizeof *after);
  for (unsigned b = 0; b < cfg->nblocks; b++) {
    LtVec loads = {0};
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsALoadInst(i) || is_defined_call(i))
        lt_vec_push(&loads, i);
    if (!loads.n)
      continue;
    /* walk the block backwards, collecting its writes after each load */
    memcpy(after, x.reach + (size_t)b * x.words, x.words * sizeof *after);
    size_t next = loads.n;
    for (LLVMValueRef i = LLVMGetLastInstruction(cfg->block[b]); i && next;
         i = LLVMGetPreviousInstruction(i)) {
      if (i == loads.v[next - 1] && !LLVMIsALoadInst(i)) {
        next--;
        call_args(&x, o, i, after, clobber);
      } else if (i == loads.v[next - 1]) {
        next--;
        LLVMValueRef addr = LLVMGetOperand(i, 0);
        int ok = !LLVMGetVolatile(i) && !LLVMIsAtomic(i) && !stack_memory(g, addr);
        int logged = ok && !bit_has(after, clobber) && !g->split;
        ok = ok && !bit_has(after, clobber);
        if (ok) {
          unsigned lc = class_of(&x.l, i, addr);
          unsigned ld = depth_of(g, b), sd = 0;
          for (unsigned wc = 0; wc < x.w.n; wc++)
            if (bit_has(after, wc) && alias_memo(&x, wc, lc)) {
              ok = 0;
              logged &= !x.w.c[wc].unloggable;
              sd = x.w.c[wc].depth > sd ? x.w.c[wc].depth : sd;
            }
          /* A candidate for re-reading with an undo log of the writes
           * after it (decided below, once all are known). */
          LtVec closure = {0};
          /* outside loops a taped value costs nothing in combined mode
           * (the tape header becomes registers) */
          if (!ok && logged && ld >= 1 && ld >= sd && between_ok(&x, i, lc, &closure)) {
            Cand *cd = lt_xcalloc(1, sizeof *cd);
            cd->load = i;
            cd->lc = lc;
            cd->ld = ld;
            cd->sd = sd;
            cd->closure = closure;
            cd->wcs = lt_xcalloc(x.words, sizeof *cd->wcs);
            for (unsigned wc = 0; wc < x.w.n; wc++)
              if (bit_has(after, wc) && alias_memo(&x, wc, lc))
                bit_set(cd->wcs, wc);
            lt_vec_push(&x.cands, cd);
          }
        }
        lt_map_put(&o->ok, i, (void *)(size_t)(ok ? 1 : 2));
        continue;
      }
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(g->c, i, w); k < n; k++)
        bit_set(after, w[k] == CLOBBER ? clobber : class_of(&x.w, i, w[k]));
    }
    lt_vec_free(&loads);
  }
  free(after);
  lt_vec_free(&rel);
  lt_ow_decide(o, &x);
  free(own);
  free(x.reach);
  for (unsigned k = 0; k < x.w.n; k++)
    lt_vec_free(&x.w.c[k].members);
  free(x.w.c);
  free(x.l.c);
  lt_map_free(&x.alias);
  lt_map_free(&x.dist);
  lt_llvm_forget(g->c, g->P);
}

int lt_overwrite_reloadable(const LtOverwrite *o, LLVMValueRef load) {
  size_t k = (size_t)lt_map_get(&o->ok, load);
  return k == 1 ? 1 : k == 3 ? 2 : 0;
}

int lt_overwrite_late(const LtOverwrite *o, LLVMValueRef v) {
  return lt_map_get(&o->late, v) != NULL;
}

void lt_overwrite_free(LtOverwrite *o) {
  lt_map_free(&o->ok);
  lt_map_free(&o->cand);
  lt_map_free(&o->store_class);
  lt_map_free(&o->late);
  lt_map_free(&o->callarg);
  for (size_t k = 0; k < o->owned.n; k++) {
    lt_vec_free(o->owned.v[k]);
    free(o->owned.v[k]);
  }
  lt_vec_free(&o->owned);
}
