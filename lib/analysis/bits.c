/* bits.c: integers that move floating-point bits.
 *
 * Optimised code copies doubles through integers: a struct or array copy
 * becomes i64 loads and stores, memcpy(&bits, &x, 8) a bitcast, a union a
 * load of the other member. Integers connected by such moves (load, store,
 * phi, select, freeze, bitcast from or to a float) form a group, decided
 * as a whole from the evidence its members give, strongest first: how
 * the bits are used (a bitcast to or from a float type, inttoptr), clang's
 * TBAA access tags, and last the declared type of the memory an address
 * points into (alloca, global, typed GEP: memory in LLVM is untyped, and
 * an alloca's type is whatever the frontend or SROA chose, often a class
 * whose bytes are later reused). A weaker kind of evidence counts only
 * when the stronger ones say nothing. A group of float bits carries the
 * derivative of the float it holds (its adjoint type is that float); a
 * group used in arithmetic is an integer, and feeding it an active float
 * is reported, as the derivative would be lost; so is an active group
 * whose evidence contradicts itself (never a silent zero).
 *
 * activity.c, points.c, bits.c and memlayout.c call each other: they are
 * one fixpoint (which floats vary, which memory has shadows, which integers
 * carry float bits, what a copy moves), split by concept for size.
 */
#include "lt.h"
#include "wordev.h"

#include <stdlib.h>
#include <string.h>

/* Kinds of evidence, strongest first: uses, access tags, the accesses of
 * the same bytes as floats or pointers elsewhere in the function, the
 * declared type of the memory, and the type the function indexes the
 * memory's block with at run-time indices. */
enum { E_USE, E_TBAA, E_ADDR, E_DECL, E_ELEM, E_KINDS };

typedef struct Group {
  int cls[E_KINDS];
  LLVMTypeRef fty[E_KINDS]; /* the float type of W_FLOAT */
  int arith;            /* a member is used in integer arithmetic */
  int active;           /* a member touches active memory or active floats */
  int cut;              /* arithmetic cuts floats out of a member (lanes) */
} Group;

typedef struct Bits {
  LtMap id;             /* value -> index + 1 */
  LtVec vals;
  int *parent;
  LLVMTargetDataRef td;
  LtWordEv ev;          /* what the bytes moved are (wordev.c) */
} Bits;

static int mover_ty(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    return 0;
  unsigned w = LLVMGetIntTypeWidth(t);
  return w == 16 || w == 32 || w == 64 || w == 128;
}

static int idx(Bits *b, LLVMValueRef v) {
  size_t k = (size_t)lt_map_get(&b->id, v);
  if (k)
    return (int)k - 1;
  lt_vec_push(&b->vals, v);
  lt_map_put(&b->id, v, (void *)b->vals.n);
  return (int)b->vals.n - 1;
}

static int find(int *p, int x) {
  while (p[x] != x)
    x = p[x] = p[p[x]];
  return x;
}

static void unite(int *p, int a, int c) {
  a = find(p, a);
  c = find(p, c);
  if (a != c)
    p[a] = c;
}

/* The members of a value's group in the move graph: operands it moves. */
static int is_member(LLVMValueRef v) {
  if (!mover_ty(LLVMTypeOf(v)) || !LLVMIsAInstruction(v))
    return 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
  case LLVMPHI:
  case LLVMSelect:
  case LLVMFreeze:
    return 1;
  case LLVMBitCast:
    return LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) != LLVMIntegerTypeKind;
  default:
    return 0;
  }
}

/* What the TBAA tag of i says the access is. */
static int tbaa_class(Bits *b, LLVMValueRef i, LLVMTypeRef *fty) {
  (void)b;
  switch (lt_tbaa_class_of(i, fty)) {
  case LT_TBAA_FLOAT:
    return W_FLOAT;
  case LT_TBAA_INT:
    return W_INT;
  case LT_TBAA_PTR:
    return W_PTR;
  default:
    return W_UNKNOWN;
  }
}

static void vote(Group *g, int kind, int cls, LLVMTypeRef fty) {
  int *gc = &g->cls[kind];
  if (cls == W_UNKNOWN || *gc == W_CONFLICT)
    return;
  if (cls == W_CONFLICT) {
    *gc = W_CONFLICT;
    return;
  }
  if (*gc == W_UNKNOWN) {
    *gc = cls;
    g->fty[kind] = fty;
  } else if (kind == E_DECL && ((*gc == W_FLOAT && cls == W_INT) ||
                                (*gc == W_INT && cls == W_FLOAT))) {
    /* Declared floats and declared integers: bits moved between float
     * memory and an integer-typed slot (a coerced struct, a reused
     * alloca) are floats unless arithmetic says otherwise (below). */
    if (cls == W_FLOAT) {
      *gc = W_FLOAT;
      g->fty[kind] = fty;
    }
  } else if (*gc != cls || (cls == W_FLOAT && g->fty[kind] != fty)) {
    *gc = W_CONFLICT;
  }
}

/* The verdict: the strongest kind of evidence that says something. */
static int verdict(const Group *g, LLVMTypeRef *fty) {
  for (int k = 0; k < E_KINDS; k++)
    /* the block's element type does not outweigh integer arithmetic on
     * the word: it is about the block, not this word */
    if (g->cls[k] != W_UNKNOWN && !(k == E_ELEM && g->arith)) {
      *fty = g->fty[k];
      return g->cls[k];
    }
  *fty = NULL;
  return W_UNKNOWN;
}

/* Evidence from one memory access (load or store) of a member. */
static void access_evidence(Bits *b, Group *g, LLVMValueRef i, LLVMValueRef addr,
                            LLVMTypeRef t) {
  /* each class first, then its vote: in one call, whether the vote read
   * fty before or after the class set it would be the compiler's choice
   * (C leaves the order of arguments unspecified; one build of the plugin
   * lost every float type this way, and the adjoint of a double moved by
   * an i64 with it) */
  unsigned long long size = LLVMABISizeOfType(b->td, t);
  LLVMTypeRef fty = NULL;
  int cls = tbaa_class(b, i, &fty);
  vote(g, E_TBAA, cls, fty);
  fty = NULL;
  cls = lt_wordev_accesses(&b->ev, addr, size, &fty);
  vote(g, E_ADDR, cls, fty);
  fty = NULL;
  cls = lt_wordev_decl(&b->ev, addr, size, &fty);
  vote(g, E_DECL, cls, fty);
  fty = NULL;
  cls = lt_wordev_elem(&b->ev, addr, size, &fty);
  vote(g, E_ELEM, cls, fty);
}

/* Does integer arithmetic u (shifts and truncations) end in a bitcast to
 * floating point: a float cut out of a wider word? */
static int cut_to_float(LLVMValueRef u, int depth) {
  LLVMOpcode op = LLVMGetInstructionOpcode(u);
  if (op == LLVMBitCast)
    return depth > 0 && lt_is_float_ty(LLVMTypeOf(u));
  if (depth > 3 || (op != LLVMTrunc && op != LLVMLShr && op != LLVMAShr))
    return 0;
  for (LLVMUseRef w = LLVMGetFirstUse(u); w; w = LLVMGetNextUse(w))
    if (cut_to_float(LLVMGetUser(w), depth + 1))
      return 1;
  return 0;
}

static int move_use(LLVMValueRef v, LLVMValueRef user) {
  switch (LLVMGetInstructionOpcode(user)) {
  case LLVMStore:
    return LLVMGetOperand(user, 0) == v;
  case LLVMPHI:
  case LLVMFreeze:
    return 1;
  case LLVMSelect:
    return LLVMGetOperand(user, 0) != v;
  case LLVMBitCast:
    return LLVMGetTypeKind(LLVMTypeOf(user)) != LLVMIntegerTypeKind;
  default:
    return 0;
  }
}

void lt_bits_run(LtActivity *a, LLVMValueRef fn, const LtCfg *g, LtCtx *c) {
  LLVMTargetDataRef td = c->td;
  Bits b;
  memset(&b, 0, sizeof b);
  b.td = td;
  (void)fn;
  lt_map_init(&b.id, 64);
  for (unsigned bi = 0; bi < g->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[bi]); i;
         i = LLVMGetNextInstruction(i))
      if (is_member(i))
        idx(&b, i);
  if (!b.vals.n) {
    lt_map_free(&b.id);
    return;
  }
  lt_wordev_init(&b.ev, c, g);
  size_t n = b.vals.n;
  b.parent = lt_xcalloc(n, sizeof *b.parent);
  for (size_t k = 0; k < n; k++)
    b.parent[k] = (int)k;
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef v = b.vals.v[k];
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    unsigned first = op == LLVMSelect ? 1 : 0;
    unsigned nops = op == LLVMPHI ? LLVMCountIncoming(v)
                    : op == LLVMLoad || op == LLVMBitCast ? 0
                                                          : (unsigned)LLVMGetNumOperands(v);
    for (unsigned o = first; o < nops; o++) {
      LLVMValueRef x = op == LLVMPHI ? LLVMGetIncomingValue(v, o) : LLVMGetOperand(v, o);
      size_t j = (size_t)lt_map_get(&b.id, x);
      if (j)
        unite(b.parent, (int)k, (int)j - 1);
    }
  }
  Group *gr = lt_xcalloc(n, sizeof *gr);
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef v = b.vals.v[k];
    Group *gp = &gr[find(b.parent, (int)k)];
    /* a pointer's address moved as an integer (a phi or select of it) */
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    for (unsigned o = op == LLVMSelect ? 1 : 0,
                  no = op == LLVMPHI ? LLVMCountIncoming(v)
                       : op == LLVMLoad || op == LLVMBitCast ? 0
                                                             : (unsigned)LLVMGetNumOperands(v);
         o < no; o++)
      if (LLVMIsAPtrToIntInst(op == LLVMPHI ? LLVMGetIncomingValue(v, o) : LLVMGetOperand(v, o)))
        vote(gp, E_USE, W_PTR, NULL);
    if (LLVMIsALoadInst(v)) {
      access_evidence(&b, gp, v, LLVMGetOperand(v, 0), LLVMTypeOf(v));
      gp->active |= lt_is_shadowed(a, LLVMGetOperand(v, 0));
    } else if (LLVMIsABitCastInst(v)) {
      vote(gp, E_USE, W_FLOAT, LLVMTypeOf(LLVMGetOperand(v, 0)));
      gp->active |= lt_is_varied(a, LLVMGetOperand(v, 0));
    }
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!move_use(v, user)) {
        if (LLVMGetInstructionOpcode(user) == LLVMIntToPtr)
          vote(gp, E_USE, W_PTR, NULL);
        gp->arith = 1;
        gp->cut |= cut_to_float(user, 0);
        continue;
      }
      if (LLVMIsAStoreInst(user)) {
        access_evidence(&b, gp, user, LLVMGetOperand(user, 1), LLVMTypeOf(v));
        gp->active |= lt_is_shadowed(a, LLVMGetOperand(user, 1));
      } else if (LLVMIsABitCastInst(user)) {
        vote(gp, E_USE, W_FLOAT, LLVMTypeOf(user));
      }
    }
  }
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef v = b.vals.v[k];
    Group *gp = &gr[find(b.parent, (int)k)];
    LLVMTypeRef fty;
    int cls = verdict(gp, &fty);
    if (cls == W_UNKNOWN && gp->active && !gp->arith) {
      /* No member says what it holds: a plain copy of active memory
       * moves floats of its width (memcpy of doubles does the same). */
      unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
      LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(v));
      fty = w == 64   ? LLVMDoubleTypeInContext(c)
            : w == 32 ? LLVMFloatTypeInContext(c)
            : w == 16 ? LLVMHalfTypeInContext(c)
                      : NULL;
      cls = fty ? W_FLOAT : W_UNKNOWN;
    }
    if (cls == W_FLOAT && fty &&
        LLVMABISizeOfType(td, fty) == LLVMABISizeOfType(td, LLVMTypeOf(v))) {
      if (!gp->arith)
        lt_map_put(&a->bits_ty, v, fty);
      else if (gp->active)
        lt_map_put(&a->bits_lost, v, (void *)1);
    } else if (gp->cut && gp->active) {
      /* floats cut out of a wider word of active memory by shifts and
       * truncations that prep/lanes.c could not turn into lanes: their
       * derivative would silently be 0 */
      lt_map_put(&a->bits_lost, v, (void *)1);
    } else if (cls == W_CONFLICT && gp->active && !gp->arith &&
               gp->cls[E_USE] != W_PTR) {
      lt_map_put(&a->bits_mixed, v, (void *)1);
    } else if (cls == W_PTR && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) {
      lt_map_put(&a->bits_ptr, v, (void *)1);
    }
  }
  free(gr);
  free(b.parent);
  lt_wordev_free(&b.ev);
  lt_vec_free(&b.vals);
  lt_map_free(&b.id);
}

LLVMTypeRef lt_bits_type(const LtActivity *a, LLVMValueRef v) {
  return lt_map_get(&a->bits_ty, v);
}

LLVMTypeRef lt_adj_type(const LtActivity *a, LLVMValueRef v) {
  LLVMTypeRef t = lt_map_get(&a->bits_ty, v);
  return t ? t : LLVMTypeOf(v);
}
