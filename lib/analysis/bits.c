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

#include <stdlib.h>
#include <string.h>

enum { G_UNKNOWN, G_FLOAT, G_INT, G_PTR, G_CONFLICT };

/* Kinds of evidence, strongest first: uses, access tags, the accesses of
 * the same bytes as floats or pointers elsewhere in the function, and the
 * declared type of the memory. */
enum { E_USE, E_TBAA, E_ADDR, E_DECL, E_KINDS };

typedef struct Group {
  int cls[E_KINDS];
  LLVMTypeRef fty[E_KINDS]; /* the float type of G_FLOAT */
  int arith;            /* a member is used in integer arithmetic */
  int active;           /* a member touches active memory or active floats */
  int cut;              /* arithmetic cuts floats out of a member (lanes) */
} Group;

/* A float or pointer access at a constant offset from a base. */
typedef struct Acc {
  long long off;
  unsigned long long size;
  LLVMTypeRef ty;
  struct Acc *next;     /* of the same base */
} Acc;

typedef struct Bits {
  LtMap id;             /* value -> index + 1 */
  LtVec vals;
  int *parent;
  LtCtx *c;
  LLVMTargetDataRef td;
  LtMap acc;            /* base -> its Acc list */
  LtVec owned;
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
    return G_FLOAT;
  case LT_TBAA_INT:
    return G_INT;
  case LT_TBAA_PTR:
    return G_PTR;
  default:
    return G_UNKNOWN;
  }
}

/* The scalar leaves of T that overlap bytes [off, off + size), counted
 * by kind; *ft is their float type when they are all one float type. */
typedef struct Span {
  unsigned nfloat, nother, nptr, nbyte; /* nbyte: i8 leaves (byte buffers) */
  LLVMTypeRef ft;
  int mixed_float;
} Span;

static void span_of(Bits *b, LLVMTypeRef t, long long off, long long size,
                    Span *sp, int depth) {
  long long ts = (long long)LLVMABISizeOfType(b->td, t);
  if (off >= ts || off + size <= 0)
    return;
  if (depth > LT_TYPE_DEPTH) { /* unknown leaves count as neither kind */
    sp->nother++;
    return;
  }
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind) {
    for (unsigned e = 0, n = LLVMCountStructElementTypes(t); e < n; e++) {
      long long eo = (long long)LLVMOffsetOfElement(b->td, t, e);
      span_of(b, LLVMStructGetTypeAtIndex(t, e), off - eo, size, sp, depth + 1);
    }
    return;
  }
  if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    long long es = (long long)LLVMABISizeOfType(b->td, et);
    long long n = k == LLVMArrayTypeKind ? (long long)LLVMGetArrayLength2(t)
                                         : (long long)LLVMGetVectorSize(t);
    if (es <= 0)
      return;
    long long first = off > 0 ? off / es : 0;
    for (long long e = first; e < n && e * es < off + size && e - first < 64; e++)
      span_of(b, et, off - e * es, size, sp, depth + 1);
    return;
  }
  if (lt_is_float_ty(t)) {
    if (sp->nfloat && sp->ft != t)
      sp->mixed_float = 1;
    sp->ft = t;
    sp->nfloat++;
  } else if (lt_is_ptr_ty(t)) {
    sp->nptr++;
  } else if (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8) {
    sp->nbyte++;
  } else {
    sp->nother++;
  }
}

/* The class of size bytes at offset off of T, and for floats the type the
 * bits hold: T's float, or a vector of them when several are packed. */
static int span_class(Bits *b, LLVMTypeRef t, unsigned long long off,
                      unsigned long long size, LLVMTypeRef *fty) {
  Span sp = {0, 0, 0, 0, NULL, 0};
  span_of(b, t, (long long)off, (long long)size, &sp, 0);
  /* bytes with others are what the others are; bytes alone (a union's
   * storage, an empty base's padding, SROA's [N x i8]) say nothing */
  if (sp.nbyte && !sp.nfloat && !sp.nptr && !sp.nother)
    return G_UNKNOWN;
  if (sp.nfloat && !sp.nother && !sp.nptr && !sp.mixed_float &&
      sp.nfloat * LLVMABISizeOfType(b->td, sp.ft) == size) {
    *fty = sp.nfloat == 1 ? sp.ft : LLVMVectorType(sp.ft, sp.nfloat);
    return G_FLOAT;
  }
  if (sp.nfloat)
    return G_CONFLICT; /* floats packed with other data */
  if (sp.nptr && !sp.nother)
    return G_PTR;
  return sp.nother && !sp.nptr ? G_INT : G_UNKNOWN;
}

/* An i8 GEP carries no type, but its base may: SROA and InstCombine
 * address a field of a local as `getelementptr i8, ptr %alloca, i64 16`
 * (a pointer member of an Eigen expression copied as an i64 at -O0 once
 * the prep pipeline's SROA has run; taken for a double, the copy left the
 * member's shadow null and the adjoint through it was skipped: fuzz
 * --eigen seed 1060124). Constant offsets from an alloca or a global
 * read its declared pointers and floats there; in a parameter's memory,
 * what every caller passes there (memnote.c lt_mem_place: a function kept
 * as a call that copies a struct holding a pointer through a `long`,
 * Integration/ptr-copy-through-long.c). */
static int byte_decl_class(Bits *b, LLVMValueRef addr, unsigned long long size,
                           LLVMTypeRef *fty) {
  long long off;
  LLVMValueRef base = lt_const_offset(b->td, addr, &off);
  LLVMTypeRef t;
  if (!base || off < 0)
    return G_UNKNOWN;
  unsigned long long at = (unsigned long long)off;
  if (LLVMIsAAllocaInst(base) && LLVMIsAConstantInt(LLVMGetOperand(base, 0)))
    t = LLVMGetAllocatedType(base);
  else if (LLVMIsAGlobalVariable(base))
    t = LLVMGlobalGetValueType(base);
  else if (!(t = lt_mem_place(b->c, addr, &at)))
    return G_UNKNOWN;
  if (at + size > LLVMABISizeOfType(b->td, t))
    return G_UNKNOWN;
  /* only pointers and floats: an integer member there may be a coerced
   * or reused slot, and an active word's default (the float of its width)
   * stays as it was before this evidence counted */
  int cls = span_class(b, t, at, size, fty);
  return cls == G_PTR || cls == G_FLOAT ? cls : G_UNKNOWN;
}

/* What the declared type of the memory at addr says is there. */
static int decl_class(Bits *b, LLVMValueRef addr, unsigned long long size,
                      LLVMTypeRef *fty) {
  LLVMTypeRef t = NULL;
  unsigned long long off = 0;
  if (LLVMIsAGetElementPtrInst(addr) ||
      (LLVMIsAConstantExpr(addr) && LLVMGetConstOpcode(addr) == LLVMGetElementPtr)) {
    t = LLVMGetGEPSourceElementType(addr);
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      return byte_decl_class(b, addr, size, fty);
    LLVMTypeRef cur = t;
    for (int k = 2, n = LLVMGetNumOperands(addr); k < n; k++) {
      LLVMValueRef ix = LLVMGetOperand(addr, (unsigned)k);
      if (!LLVMIsAConstantInt(ix))
        return G_UNKNOWN;
      unsigned long long v = LLVMConstIntGetZExtValue(ix);
      if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
        off += LLVMOffsetOfElement(b->td, cur, (unsigned)v);
        cur = LLVMStructGetTypeAtIndex(cur, (unsigned)v);
      } else if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind ||
                 LLVMGetTypeKind(cur) == LLVMVectorTypeKind) {
        cur = LLVMGetElementType(cur);
        off += v * LLVMABISizeOfType(b->td, cur);
      } else {
        return G_UNKNOWN;
      }
    }
  } else if (LLVMIsAAllocaInst(addr)) {
    t = LLVMGetAllocatedType(addr);
  } else if (LLVMIsAGlobalVariable(addr)) {
    t = LLVMGlobalGetValueType(addr);
  } else {
    return byte_decl_class(b, addr, size, fty); /* a parameter's memory */
  }
  /* i8 arrays (unions, byte buffers) say nothing. */
  int cls = span_class(b, t, off, size, fty);
  if (cls == G_INT && LLVMGetTypeKind(t) == LLVMArrayTypeKind &&
      LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind &&
      LLVMGetIntTypeWidth(LLVMGetElementType(t)) == 8)
    return G_UNKNOWN;
  return cls;
}

/* A float or pointer access (scalar or vector) of i: its value type and
 * address, or NULL. */
static LLVMTypeRef typed_access(LLVMValueRef i, LLVMValueRef *addr) {
  LLVMValueRef v;
  if (LLVMIsALoadInst(i)) {
    v = i;
    *addr = LLVMGetOperand(i, 0);
  } else if (LLVMIsAStoreInst(i)) {
    v = LLVMGetOperand(i, 0);
    *addr = LLVMGetOperand(i, 1);
  } else {
    return NULL;
  }
  LLVMTypeRef t = LLVMTypeOf(v), et = t;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    et = LLVMGetElementType(t);
  return lt_is_float_ty(et) || lt_is_ptr_ty(et) ? t : NULL;
}

static void add_access(Bits *b, LLVMValueRef base, long long off, LLVMTypeRef t) {
  Acc *a = lt_xcalloc(1, sizeof *a);
  a->off = off;
  a->size = LLVMABISizeOfType(b->td, t);
  a->ty = t;
  a->next = lt_map_get(&b->acc, base);
  lt_map_put(&b->acc, base, a);
  lt_vec_push(&b->owned, a);
}

/* The function a call or invoke i calls, if it has a body here. */
static LLVMValueRef defined_callee(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return NULL;
  LLVMValueRef fn = LLVMGetCalledValue(i);
  return fn && LLVMIsAFunction(fn) && !LLVMIsDeclaration(fn) ? fn : NULL;
}

#define CALLEE_DEPTH 4     /* calls followed from the function */
#define CALLEE_BUDGET 20000 /* callee instructions looked at, per function */

/* The float and pointer accesses a defined callee makes at constant
 * offsets from its parameter k, noted as accesses of base at off0 + their
 * offset; through its own calls in turn. A word the function moves into
 * memory it hands to a call says what it is by how the callee reads it:
 * an Eigen evaluator's constructor, kept as a call, loads the pointer
 * member of the expression object its caller filled with an i64 (with no
 * type at either end of the move, the word was taken for a double: its
 * shadow pointer was not copied, and the adjoint through it was lost;
 * ReverseMode/ptr-word-field.ll @g). */
static void callee_accesses(Bits *b, LLVMValueRef fn, unsigned k, LLVMValueRef base,
                            long long off0, int depth, int *budget) {
  if (depth > CALLEE_DEPTH || LLVMIsDeclaration(fn) || k >= LLVMCountParams(fn))
    return;
  LLVMValueRef p = LLVMGetParam(fn, k);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (--*budget < 0)
        return;
      LLVMValueRef addr;
      long long off;
      LLVMTypeRef t = typed_access(i, &addr);
      if (t) {
        if (lt_const_offset(b->td, addr, &off) == p)
          add_access(b, base, off0 + off, t);
        continue;
      }
      LLVMValueRef g = defined_callee(i);
      for (unsigned j = 0, n = g ? LLVMGetNumArgOperands(i) : 0; j < n && j < LLVMCountParams(g);
           j++)
        if (lt_const_offset(b->td, LLVMGetOperand(i, j), &off) == p)
          callee_accesses(b, g, j, base, off0 + off, depth + 1, budget);
    }
}

/* Every load and store of a float or pointer value (scalar or vector) at
 * a constant offset from a base, and those of the callees the base is
 * passed to (callee_accesses). */
static void note_accesses(Bits *b, const LtCfg *g) {
  int budget = CALLEE_BUDGET;
  for (unsigned bi = 0; bi < g->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[bi]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef addr, base;
      long long off;
      LLVMTypeRef t = typed_access(i, &addr);
      if (t) {
        if ((base = lt_const_offset(b->td, addr, &off)))
          add_access(b, base, off, t);
        continue;
      }
      LLVMValueRef fn = defined_callee(i);
      for (unsigned j = 0, n = fn ? LLVMGetNumArgOperands(i) : 0; j < n && j < LLVMCountParams(fn);
           j++)
        if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, j))) &&
            (base = lt_const_offset(b->td, LLVMGetOperand(i, j), &off)))
          callee_accesses(b, fn, j, base, off, 1, &budget);
    }
}

/* What the function's float and pointer accesses of the same bytes say
 * is there: one float type covering them (a vector of it when several
 * floats tile the bytes), pointers, or a conflict. */
static int acc_class(Bits *b, LLVMValueRef base, long long off, unsigned long long size,
                     LLVMTypeRef *fty) {
  if (size > 64)
    return G_UNKNOWN;
  long long end = off + (long long)size;
  LLVMTypeRef ft = NULL;
  unsigned long long covered = 0; /* bytes of the word floats cover */
  int ptr = 0, other = 0;
  for (Acc *a = lt_map_get(&b->acc, base); a; a = a->next) {
    if (a->off >= end || a->off + (long long)a->size <= off)
      continue;
    LLVMTypeRef t = a->ty;
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    int exact = a->off == off && a->size == size;
    if (lt_is_ptr_ty(et)) {
      ptr |= exact;
      other |= !exact;
      continue;
    }
    if (a->off < off || a->off + (long long)a->size > end || (ft && ft != et)) {
      other = 1; /* straddles the word, or floats of two types */
      continue;
    }
    ft = et;
    for (long long k = a->off - off; k < a->off - off + (long long)a->size; k++)
      covered |= 1ull << k;
  }
  if (other || (ptr && ft))
    return G_CONFLICT;
  if (ptr)
    return G_PTR;
  if (!ft)
    return G_UNKNOWN;
  unsigned long long es = LLVMABISizeOfType(b->td, ft);
  if (size % es || covered != (size == 64 ? ~0ull : (1ull << size) - 1))
    return G_CONFLICT; /* floats and other bytes in one word */
  *fty = size == es ? ft : LLVMVectorType(ft, (unsigned)(size / es));
  return G_FLOAT;
}

/* The typed accesses function cf makes of base, and those of its
 * callees but the ones in skip[2] (the function asking, and what it
 * copies). */
static void note_base(Bits *b, LLVMValueRef cf, LLVMValueRef base, LLVMValueRef skip[2],
                      int *budget) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(cf); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (--*budget < 0)
        return;
      LLVMValueRef addr;
      long long off;
      LLVMTypeRef t = typed_access(i, &addr);
      if (t) {
        if (lt_const_offset(b->td, addr, &off) == base)
          add_access(b, base, off, t);
        continue;
      }
      LLVMValueRef g = defined_callee(i);
      if (g == skip[0] || g == skip[1])
        continue;
      for (unsigned j = 0, n = g ? LLVMGetNumArgOperands(i) : 0; j < n && j < LLVMCountParams(g);
           j++)
        if (lt_const_offset(b->td, LLVMGetOperand(i, j), &off) == base)
          callee_accesses(b, g, j, base, off, 1, budget);
    }
}

/* What the callers of the function say of the bytes at off in the memory
 * they pass as its parameter arg: their own float and pointer accesses of
 * it and their other callees' (note_base). A function kept as a call that
 * copies a word between its parameters' memory sees no type of it; a
 * malloc'd struct holding a pointer, copied through a long, was taken for
 * a double (gradient 0 at every -O level;
 * Integration/ptr-copy-through-long.c). The callers must agree. */
static int caller_class(Bits *b, LLVMValueRef arg, long long off, unsigned long long size,
                        LLVMTypeRef *fty) {
  LLVMValueRef fn = LLVMGetParamParent(arg);
  unsigned k = 0;
  while (LLVMGetParam(fn, k) != arg)
    k++;
  LLVMValueRef fns[2] = {fn, lt_map_get(&b->c->copy_of, fn)};
  int cls = G_UNKNOWN, budget = CALLEE_BUDGET;
  LtMap scanned;
  lt_map_init(&scanned, 8);
  for (int f = 0; f < 2 && cls != G_CONFLICT; f++)
    for (LLVMUseRef u = fns[f] ? LLVMGetFirstUse(fns[f]) : NULL; u && cls != G_CONFLICT;
         u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if ((!LLVMIsACallInst(call) && !LLVMIsAInvokeInst(call)) ||
          LLVMGetCalledValue(call) != fns[f] || k >= LLVMGetNumArgOperands(call))
        continue;
      LLVMValueRef cf = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
      long long at;
      LLVMValueRef base = lt_const_offset(b->td, LLVMGetOperand(call, k), &at);
      if (!base || cf == fns[0] || cf == fns[1])
        continue; /* a recursive call passes it on */
      if (!lt_map_get(&scanned, base)) {
        lt_map_put(&scanned, base, (void *)1);
        note_base(b, cf, base, fns, &budget);
      }
      LLVMTypeRef t = NULL;
      int c2 = acc_class(b, base, at + off, size, &t);
      if (c2 == G_UNKNOWN)
        continue;
      if (cls == G_UNKNOWN) {
        cls = c2;
        *fty = t;
      } else if (c2 != cls || t != *fty) {
        cls = G_CONFLICT;
      }
    }
  lt_map_free(&scanned);
  return cls;
}

/* What the function's accesses of the bytes at addr say, and for a
 * parameter's memory its callers'. */
static int addr_class(Bits *b, LLVMValueRef addr, unsigned long long size,
                      LLVMTypeRef *fty) {
  long long off;
  LLVMValueRef base = lt_const_offset(b->td, addr, &off);
  if (!base)
    return G_UNKNOWN;
  int cls = acc_class(b, base, off, size, fty);
  if (cls == G_UNKNOWN && LLVMIsAArgument(base) && size <= 64)
    cls = caller_class(b, base, off, size, fty);
  return cls;
}

static void vote(Group *g, int kind, int cls, LLVMTypeRef fty) {
  int *gc = &g->cls[kind];
  if (cls == G_UNKNOWN || *gc == G_CONFLICT)
    return;
  if (cls == G_CONFLICT) {
    *gc = G_CONFLICT;
    return;
  }
  if (*gc == G_UNKNOWN) {
    *gc = cls;
    g->fty[kind] = fty;
  } else if (kind == E_DECL && ((*gc == G_FLOAT && cls == G_INT) ||
                                (*gc == G_INT && cls == G_FLOAT))) {
    /* Declared floats and declared integers: bits moved between float
     * memory and an integer-typed slot (a coerced struct, a reused
     * alloca) are floats unless arithmetic says otherwise (below). */
    if (cls == G_FLOAT) {
      *gc = G_FLOAT;
      g->fty[kind] = fty;
    }
  } else if (*gc != cls || (cls == G_FLOAT && g->fty[kind] != fty)) {
    *gc = G_CONFLICT;
  }
}

/* The verdict: the strongest kind of evidence that says something. */
static int verdict(const Group *g, LLVMTypeRef *fty) {
  for (int k = 0; k < E_KINDS; k++)
    if (g->cls[k] != G_UNKNOWN) {
      *fty = g->fty[k];
      return g->cls[k];
    }
  *fty = NULL;
  return G_UNKNOWN;
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
  cls = addr_class(b, addr, size, &fty);
  vote(g, E_ADDR, cls, fty);
  fty = NULL;
  cls = decl_class(b, addr, size, &fty);
  vote(g, E_DECL, cls, fty);
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
  b.c = c;
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
  note_accesses(&b, g);
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
        vote(gp, E_USE, G_PTR, NULL);
    if (LLVMIsALoadInst(v)) {
      access_evidence(&b, gp, v, LLVMGetOperand(v, 0), LLVMTypeOf(v));
      gp->active |= lt_is_shadowed(a, LLVMGetOperand(v, 0));
    } else if (LLVMIsABitCastInst(v)) {
      vote(gp, E_USE, G_FLOAT, LLVMTypeOf(LLVMGetOperand(v, 0)));
      gp->active |= lt_is_varied(a, LLVMGetOperand(v, 0));
    }
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!move_use(v, user)) {
        if (LLVMGetInstructionOpcode(user) == LLVMIntToPtr)
          vote(gp, E_USE, G_PTR, NULL);
        gp->arith = 1;
        gp->cut |= cut_to_float(user, 0);
        continue;
      }
      if (LLVMIsAStoreInst(user)) {
        access_evidence(&b, gp, user, LLVMGetOperand(user, 1), LLVMTypeOf(v));
        gp->active |= lt_is_shadowed(a, LLVMGetOperand(user, 1));
      } else if (LLVMIsABitCastInst(user)) {
        vote(gp, E_USE, G_FLOAT, LLVMTypeOf(user));
      }
    }
  }
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef v = b.vals.v[k];
    Group *gp = &gr[find(b.parent, (int)k)];
    LLVMTypeRef fty;
    int cls = verdict(gp, &fty);
    if (cls == G_UNKNOWN && gp->active && !gp->arith) {
      /* No member says what it holds: a plain copy of active memory
       * moves floats of its width (memcpy of doubles does the same). */
      unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
      LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(v));
      fty = w == 64   ? LLVMDoubleTypeInContext(c)
            : w == 32 ? LLVMFloatTypeInContext(c)
            : w == 16 ? LLVMHalfTypeInContext(c)
                      : NULL;
      cls = fty ? G_FLOAT : G_UNKNOWN;
    }
    if (cls == G_FLOAT && fty &&
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
    } else if (cls == G_CONFLICT && gp->active && !gp->arith &&
               gp->cls[E_USE] != G_PTR) {
      lt_map_put(&a->bits_mixed, v, (void *)1);
    } else if (cls == G_PTR && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) {
      lt_map_put(&a->bits_ptr, v, (void *)1);
    }
  }
  free(gr);
  free(b.parent);
  for (size_t k = 0; k < b.owned.n; k++)
    free(b.owned.v[k]);
  lt_vec_free(&b.owned);
  lt_map_free(&b.acc);
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

/* Pointer words: 64-bit integers that hold the address of memory with a
 * shadow. Clang and Eigen move pointers as integers (at -O1 an Eigen
 * Product stores `ptrtoint %v` into its i64 slot and later loads the slot
 * as a ptr; handmade_aligned_malloc rounds the address up through an
 * integer). Such an integer's shadow is the same word of the shadow
 * address: a ptrtoint of the shadow, a load from shadow memory, or, for
 * arithmetic on one pointer word b, shadow(b) + (v - b) (the shadow block
 * mirrors the primal's byte for byte, so an offset carries over, whatever
 * the arithmetic: rounding up to an alignment included). */
static int word_operand(const LtActivity *a, LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) && lt_map_get(&a->ptr_words, v);
}

/* The operand of arithmetic v that carries the pointer, or NULL: exactly
 * one operand is a pointer word (p - q of two words is a distance). */
LLVMValueRef lt_ptr_word_base(const LtActivity *a, LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMOr:
  case LLVMXor:
  case LLVMAnd: {
    int w0 = word_operand(a, LLVMGetOperand(v, 0)), w1 = word_operand(a, LLVMGetOperand(v, 1));
    return w0 == w1 ? NULL : LLVMGetOperand(v, w0 ? 0 : 1);
  }
  case LLVMSub:
    return word_operand(a, LLVMGetOperand(v, 0)) && !word_operand(a, LLVMGetOperand(v, 1))
               ? LLVMGetOperand(v, 0)
               : NULL;
  default:
    return NULL;
  }
}

/* Bits per element of a vector of integers or floats, 0 otherwise. */
static unsigned lane_bits(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return 0;
  LLVMTypeRef e = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(e)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(e);
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
    return 16;
  case LLVMFloatTypeKind:
    return 32;
  case LLVMDoubleTypeKind:
    return 64;
  default:
    return 0;
  }
}

/* The scalar whose 8 bytes are bytes [off, off + 8) of v, through
 * bitcasts, lane extracts and inserts and shuffles with constant lanes,
 * or NULL. The SLP vectoriser packs pointers this way: ptrtoint, bitcast
 * to <4 x i16>, shuffled into a <16 x i16> beside other data, bitcast to
 * <4 x i64>, a lane extracted and inttoptr'd (Eigen at -O2). Bitcasts
 * between vector types keep memory order, which for a little-endian
 * target is lane order. */
static LLVMValueRef word_at(LLVMValueRef v, unsigned off, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (depth > 16)
    return NULL;
  if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind) {
    if (off != 0 || LLVMGetIntTypeWidth(t) != 64)
      return NULL;
    if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMBitCast &&
        lane_bits(LLVMTypeOf(LLVMGetOperand(v, 0))))
      return word_at(LLVMGetOperand(v, 0), 0, depth + 1);
    return v;
  }
  unsigned eb = lane_bits(t) / 8;
  if (!eb || !LLVMIsAInstruction(v))
    return NULL;
  unsigned n = LLVMGetVectorSize(t);
  if (off + 8 > n * eb)
    return NULL;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMBitCast: {
    LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(v, 0));
    if (LLVMGetTypeKind(st) == LLVMIntegerTypeKind && off == 0 && n * eb == 8)
      return word_at(LLVMGetOperand(v, 0), 0, depth + 1);
    return lane_bits(st) ? word_at(LLVMGetOperand(v, 0), off, depth + 1) : NULL;
  }
  case LLVMInsertElement: {
    LLVMValueRef k = LLVMGetOperand(v, 2);
    if (!LLVMIsAConstantInt(k))
      return NULL;
    unsigned lo = (unsigned)LLVMConstIntGetZExtValue(k) * eb;
    if (off >= lo + eb || off + 8 <= lo)
      return word_at(LLVMGetOperand(v, 0), off, depth + 1);
    return off == lo && eb == 8 ? word_at(LLVMGetOperand(v, 1), 0, depth + 1) : NULL;
  }
  case LLVMShuffleVector: {
    /* every lane the bytes cover comes from the same operand, in order */
    unsigned na = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(v, 0)));
    unsigned j0 = off / eb, j1 = (off + 7) / eb;
    int m0 = LLVMGetMaskValue(v, j0);
    if (m0 < 0 || m0 == LLVMGetUndefMaskElem())
      return NULL;
    for (unsigned j = j0 + 1; j <= j1; j++) {
      int m = LLVMGetMaskValue(v, j);
      if (m != m0 + (int)(j - j0) || ((unsigned)m < na) != ((unsigned)m0 < na))
        return NULL;
    }
    unsigned src = (unsigned)m0 < na ? 0 : 1, lane = (unsigned)m0 - src * na;
    return word_at(LLVMGetOperand(v, src), lane * eb + off % eb, depth + 1);
  }
  default:
    return NULL;
  }
}

static int little_endian(LLVMValueRef i) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)));
  const char *dl = LLVMGetDataLayoutStr(m);
  return !dl || dl[0] != 'E';
}

LLVMValueRef lt_word_source(LLVMValueRef v) {
  if (!LLVMIsAExtractElementInst(v) || !little_endian(v))
    return NULL;
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef k = LLVMGetOperand(v, 1);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != 64 ||
      !LLVMIsAConstantInt(k))
    return NULL;
  LLVMValueRef s = word_at(LLVMGetOperand(v, 0), (unsigned)LLVMConstIntGetZExtValue(k) * 8, 0);
  return s && LLVMIsAInstruction(s) ? s : NULL;
}

static int is_ptr_word(LtActivity *a, LLVMValueRef i) {
  LLVMTypeRef t = LLVMTypeOf(i);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) != 64)
    return 0;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMPtrToInt:
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMLoad:
    return lt_map_get(&a->bits_ptr, i) && lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (word_operand(a, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  case LLVMSelect:
    return word_operand(a, LLVMGetOperand(i, 1)) || word_operand(a, LLVMGetOperand(i, 2));
  case LLVMFreeze:
    return word_operand(a, LLVMGetOperand(i, 0));
  case LLVMExtractElement:
    return word_operand(a, lt_word_source(i));
  default:
    return lt_ptr_word_base(a, i) != NULL;
  }
}

void lt_ptr_words_run(LtActivity *a, const LtCfg *g) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned bi = 0; bi < g->nblocks; bi++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[bi]); i;
           i = LLVMGetNextInstruction(i))
        if (!lt_map_get(&a->ptr_words, i) && is_ptr_word(a, i)) {
          lt_map_put(&a->ptr_words, i, (void *)1);
          changed = 1;
        }
  }
}

int lt_is_ptr_word(const LtActivity *a, LLVMValueRef v) { return word_operand(a, v); }
