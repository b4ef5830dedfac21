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
 * Used in combined mode only: in split mode the caller may change memory
 * between the halves. All answers are computed by lt_overwrite_build;
 * LLVM's analyses of the function are forgotten afterwards.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

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

/* An access class: instructions with the same base pointer and AA tags. */
typedef struct Class {
  LLVMValueRef inst, addr, base;
  LLVMValueRef md[3]; /* !tbaa, !alias.scope, !noalias */
} Class;

typedef struct Classes {
  Class *c;
  unsigned n, cap;
} Classes;

static unsigned md_kind[3];

static unsigned class_of(Classes *cs, LLVMValueRef inst, LLVMValueRef addr) {
  Class k = {inst, addr, lt_base_of(addr), {0}};
  for (int m = 0; m < 3; m++)
    k.md[m] = LLVMGetMetadata(inst, md_kind[m]);
  for (unsigned i = 0; i < cs->n; i++)
    if (cs->c[i].base == k.base && cs->c[i].md[0] == k.md[0] &&
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

/* The address a write instruction writes, CLOBBER for unknown memory, or
 * NULL when it writes nothing. */
#define CLOBBER ((LLVMValueRef)1)

static LLVMValueRef call_write(LLVMValueRef i, unsigned *nextra,
                               LLVMValueRef *extra) {
  const LtRule *rule;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  *nextra = 0;
  switch (lt_call_kind(i, &rule)) {
  case LT_CALL_RULE:
    for (unsigned a = 0, na = LLVMGetNumArgOperands(i); rule->writes_arg && a < na; a++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))) && *nextra < 4)
        extra[(*nextra)++] = LLVMGetOperand(i, a);
    return NULL;
  case LT_CALL_MALLOC: {
    const LtAllocFn *af = lt_alloc_fn(i);
    if (af->old_arg >= 0)
      extra[(*nextra)++] = LLVMGetOperand(i, (unsigned)af->old_arg);
    if (af->out_arg >= 0)
      extra[(*nextra)++] = LLVMGetOperand(i, (unsigned)af->out_arg);
    return NULL;
  }
  case LT_CALL_ZERO:
  case LT_CALL_COMPLEX:
    return NULL;
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
  case LT_CALL_FREE:
    return LLVMGetOperand(i, 0);
  case LT_CALL_INACTIVE:
    if (len > 14 && !strncmp(n, "llvm.lifetime.", 14))
      return LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1);
    return strstr(n, "printf") == NULL && strncmp(n, "llvm.", 5) &&
                   strcmp(n, "puts") && strcmp(n, "putchar")
               ? CLOBBER
               : NULL;
  default:
    return CLOBBER;
  }
}

/* Writes of one instruction: up to 5 addresses, or CLOBBER. */
static unsigned writes_of(LLVMValueRef i, LLVMValueRef *out) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op == LLVMStore) {
    out[0] = LLVMGetOperand(i, 1);
    return 1;
  }
  if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) {
    out[0] = LLVMGetOperand(i, 0);
    return 1;
  }
  if (op != LLVMCall && op != LLVMInvoke)
    return 0;
  unsigned n;
  LLVMValueRef w = call_write(i, &n, out + 1);
  if (w == CLOBBER) {
    out[0] = CLOBBER;
    return 1;
  }
  if (w) {
    out[0] = w;
    return n + 1;
  }
  memmove(out, out + 1, n * sizeof *out);
  return n;
}

typedef struct Ctx {
  LtGen *g;
  Classes w, l;            /* write classes, load classes */
  unsigned words;          /* bitset words over write classes + clobber */
  uint64_t *reach;         /* block -> write classes reachable after it */
  LtMap alias;             /* (write class, load class) -> 1 may, 2 apart */
} Ctx;

static void bit_set(uint64_t *s, unsigned b) { s[b / 64] |= 1ull << (b % 64); }
static int bit_has(const uint64_t *s, unsigned b) { return (s[b / 64] >> (b % 64)) & 1; }

static int class_may_alias(Ctx *x, unsigned wc, unsigned lc) {
  const Class *w = &x->w.c[wc], *l = &x->l.c[lc];
  if (!bases_may_alias(w->base, l->base))
    return 0;
  if (!lt_points_may_alias(&x->g->act_of.pts, w->addr, l->addr))
    return 0;
  return lt_llvm_may_alias(w->inst, w->base, l->inst, l->base);
}

static int stack_memory(LtGen *g, LLVMValueRef addr) {
  return LLVMIsAAllocaInst(lt_base_of(addr)) || lt_points_any_stack(&g->act_of.pts, addr);
}

void lt_overwrite_build(LtOverwrite *o, LtGen *g) {
  memset(o, 0, sizeof *o);
  lt_map_init(&o->ok, 64);
  const char *names[3] = {"tbaa", "alias.scope", "noalias"};
  for (int m = 0; m < 3; m++)
    md_kind[m] = LLVMGetMDKindIDInContext(g->c->llctx, names[m], (unsigned)strlen(names[m]));
  const LtCfg *cfg = &g->g;
  Ctx x;
  memset(&x, 0, sizeof x);
  x.g = g;
  lt_map_init(&x.alias, 64);
  /* write classes, in a first pass (the bitset width must be known) */
  for (unsigned b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = writes_of(i, w); k < n; k++)
        if (w[k] != CLOBBER)
          class_of(&x.w, i, w[k]);
    }
  unsigned clobber = x.w.n;
  x.words = (x.w.n + 1 + 63) / 64;
  /* per block: its own writes; then reach = writes of successors, closed */
  uint64_t *own = lt_xcalloc((size_t)cfg->nblocks * x.words, sizeof *own);
  x.reach = lt_xcalloc((size_t)cfg->nblocks * x.words, sizeof *x.reach);
  for (unsigned b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = writes_of(i, w); k < n; k++)
        bit_set(own + (size_t)b * x.words,
                w[k] == CLOBBER ? clobber : class_of(&x.w, i, w[k]));
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
      if (LLVMIsALoadInst(i))
        lt_vec_push(&loads, i);
    if (!loads.n)
      continue;
    /* walk the block backwards, collecting its writes after each load */
    memcpy(after, x.reach + (size_t)b * x.words, x.words * sizeof *after);
    size_t next = loads.n;
    for (LLVMValueRef i = LLVMGetLastInstruction(cfg->block[b]); i && next;
         i = LLVMGetPreviousInstruction(i)) {
      if (i == loads.v[next - 1]) {
        next--;
        LLVMValueRef addr = LLVMGetOperand(i, 0);
        int ok = !LLVMGetVolatile(i) && !LLVMIsAtomic(i) && !stack_memory(g, addr) &&
                 !bit_has(after, clobber);
        if (ok) {
          unsigned lc = class_of(&x.l, i, addr);
          for (unsigned wc = 0; ok && wc < x.w.n; wc++)
            if (bit_has(after, wc)) {
              void *key = (void *)(((size_t)(wc + 1) << 32) | (size_t)(lc + 1));
              size_t m = (size_t)lt_map_get(&x.alias, key);
              if (!m) {
                m = class_may_alias(&x, wc, lc) ? 1 : 2;
                lt_map_put(&x.alias, key, (void *)m);
              }
              ok = m == 2;
            }
        }
        lt_map_put(&o->ok, i, (void *)(size_t)(ok ? 1 : 2));
        continue;
      }
      LLVMValueRef w[5];
      for (unsigned k = 0, n = writes_of(i, w); k < n; k++)
        bit_set(after, w[k] == CLOBBER ? clobber : class_of(&x.w, i, w[k]));
    }
    lt_vec_free(&loads);
  }
  free(after);
  free(own);
  free(x.reach);
  free(x.w.c);
  free(x.l.c);
  lt_map_free(&x.alias);
  lt_llvm_forget(g->P);
}

int lt_overwrite_reloadable(const LtOverwrite *o, LLVMValueRef load) {
  return (size_t)lt_map_get(&o->ok, load) == 1;
}

void lt_overwrite_free(LtOverwrite *o) { lt_map_free(&o->ok); }
