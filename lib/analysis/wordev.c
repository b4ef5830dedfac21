/* wordev.c: evidence of what a word of memory holds, for bits.c.
 *
 * Two kinds, asked for the bytes an integer load or store moves: the
 * declared type of the memory (an alloca's or global's type, a typed GEP's
 * source element type; for a parameter's memory, what the callers pass)
 * and the float and pointer accesses of the same bytes elsewhere: in the
 * function, in the callees it hands the memory to, and for a parameter's
 * memory in the callers and their other callees. Memory in LLVM is
 * untyped; this is evidence, weighed by bits.c, not a verdict.
 */
#include "lt.h"
#include "wordev.h"

#include <stdlib.h>
#include <string.h>

/* A float or pointer access at a constant offset from a base. */
typedef struct Acc {
  long long off;
  unsigned long long size;
  LLVMTypeRef ty;
  struct Acc *next;     /* of the same base */
} Acc;

/* The scalar leaves of T that overlap bytes [off, off + size), counted
 * by kind; *ft is their float type when they are all one float type. */
typedef struct Span {
  unsigned nfloat, nother, nptr, nbyte; /* nbyte: i8 leaves (byte buffers) */
  LLVMTypeRef ft;
  int mixed_float;
} Span;

static void span_of(LtWordEv *b, LLVMTypeRef t, long long off, long long size,
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
static int span_class(LtWordEv *b, LLVMTypeRef t, unsigned long long off,
                      unsigned long long size, LLVMTypeRef *fty) {
  Span sp = {0, 0, 0, 0, NULL, 0};
  span_of(b, t, (long long)off, (long long)size, &sp, 0);
  /* bytes with others are what the others are; bytes alone (a union's
   * storage, an empty base's padding, SROA's [N x i8]) say nothing */
  if (sp.nbyte && !sp.nfloat && !sp.nptr && !sp.nother)
    return W_UNKNOWN;
  if (sp.nfloat && !sp.nother && !sp.nptr && !sp.mixed_float &&
      sp.nfloat * LLVMABISizeOfType(b->td, sp.ft) == size) {
    *fty = sp.nfloat == 1 ? sp.ft : LLVMVectorType(sp.ft, sp.nfloat);
    return W_FLOAT;
  }
  if (sp.nfloat)
    return W_CONFLICT; /* floats packed with other data */
  if (sp.nptr && !sp.nother)
    return W_PTR;
  return sp.nother && !sp.nptr ? W_INT : W_UNKNOWN;
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
static int byte_decl_class(LtWordEv *b, LLVMValueRef addr, unsigned long long size,
                           LLVMTypeRef *fty) {
  long long off;
  LLVMValueRef base = lt_const_offset(b->td, addr, &off);
  LLVMTypeRef t;
  if (!base || off < 0)
    return W_UNKNOWN;
  unsigned long long at = (unsigned long long)off;
  if (LLVMIsAAllocaInst(base) && LLVMIsAConstantInt(LLVMGetOperand(base, 0)))
    t = LLVMGetAllocatedType(base);
  else if (LLVMIsAGlobalVariable(base))
    t = LLVMGlobalGetValueType(base);
  else if (!(t = lt_mem_place(b->c, addr, &at)))
    return W_UNKNOWN;
  if (at + size > LLVMABISizeOfType(b->td, t))
    return W_UNKNOWN;
  /* only pointers and floats: an integer member there may be a coerced
   * or reused slot, and an active word's default (the float of its width)
   * stays as it was before this evidence counted */
  int cls = span_class(b, t, at, size, fty);
  return cls == W_PTR || cls == W_FLOAT ? cls : W_UNKNOWN;
}

/* What the declared type of the memory at addr says is there. */
int lt_wordev_decl(LtWordEv *b, LLVMValueRef addr, unsigned long long size,
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
        return W_UNKNOWN;
      unsigned long long v = LLVMConstIntGetZExtValue(ix);
      if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
        off += LLVMOffsetOfElement(b->td, cur, (unsigned)v);
        cur = LLVMStructGetTypeAtIndex(cur, (unsigned)v);
      } else if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind ||
                 LLVMGetTypeKind(cur) == LLVMVectorTypeKind) {
        cur = LLVMGetElementType(cur);
        off += v * LLVMABISizeOfType(b->td, cur);
      } else {
        return W_UNKNOWN;
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
  if (cls == W_INT && LLVMGetTypeKind(t) == LLVMArrayTypeKind &&
      LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind &&
      LLVMGetIntTypeWidth(LLVMGetElementType(t)) == 8)
    return W_UNKNOWN;
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

static void add_access(LtWordEv *b, LLVMValueRef base, long long off, LLVMTypeRef t) {
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

/* The float and pointer accesses function fn makes at constant offsets
 * from p, noted as accesses of base at off0 + their offset; through the
 * defined callees p is handed to in turn (but skip[0], skip[1]). A word
 * the function moves into memory it hands to a call says what it is by
 * how the callee reads it: an Eigen evaluator's constructor, kept as a
 * call, loads the pointer member of the expression object its caller
 * filled with an i64 (with no type at either end of the move, the word
 * was taken for a double: its shadow pointer was not copied, and the
 * adjoint through it was lost; ReverseMode/ptr-word-field.ll @g). */
static void scan_fn(LtWordEv *b, LLVMValueRef fn, LLVMValueRef p, LLVMValueRef base,
                    long long off0, LLVMValueRef *skip, int depth, int *budget) {
  if (depth > CALLEE_DEPTH)
    return;
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
      if (!g || (skip && (g == skip[0] || g == skip[1])))
        continue;
      for (unsigned j = 0, n = LLVMGetNumArgOperands(i); j < n && j < LLVMCountParams(g); j++)
        if (lt_const_offset(b->td, LLVMGetOperand(i, j), &off) == p)
          scan_fn(b, g, LLVMGetParam(g, j), base, off0 + off, skip, depth + 1, budget);
    }
}

/* Every load and store of a float or pointer value (scalar or vector) at
 * a constant offset from a base, and those of the callees the base is
 * passed to (scan_fn). */
static void note_accesses(LtWordEv *b, const LtCfg *g) {
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
          scan_fn(b, fn, LLVMGetParam(fn, j), base, off, NULL, 1, &budget);
    }
}

/* What the function's float and pointer accesses of the same bytes say
 * is there: one float type covering them (a vector of it when several
 * floats tile the bytes), pointers, or a conflict. */
static int acc_class(LtWordEv *b, LLVMValueRef base, long long off, unsigned long long size,
                     LLVMTypeRef *fty) {
  if (size > 64)
    return W_UNKNOWN;
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
    return W_CONFLICT;
  if (ptr)
    return W_PTR;
  if (!ft)
    return W_UNKNOWN;
  unsigned long long es = LLVMABISizeOfType(b->td, ft);
  if (size % es || covered != (size == 64 ? ~0ull : (1ull << size) - 1))
    return W_CONFLICT; /* floats and other bytes in one word */
  *fty = size == es ? ft : LLVMVectorType(ft, (unsigned)(size / es));
  return W_FLOAT;
}

/* What the callers of the function say of the bytes at off in the memory
 * they pass as its parameter arg: their own float and pointer accesses of
 * it and their other callees' (scan_fn). A function kept as a call that
 * copies a word between its parameters' memory sees no type of it; a
 * malloc'd struct holding a pointer, copied through a long, was taken for
 * a double (gradient 0 at every -O level;
 * Integration/ptr-copy-through-long.c). The callers must agree. */
static int caller_class(LtWordEv *b, LLVMValueRef arg, long long off, unsigned long long size,
                        LLVMTypeRef *fty) {
  LLVMValueRef fn = LLVMGetParamParent(arg);
  unsigned k = 0;
  while (LLVMGetParam(fn, k) != arg)
    k++;
  LLVMValueRef fns[2] = {fn, lt_map_get(&b->c->copy_of, fn)};
  int cls = W_UNKNOWN, budget = CALLEE_BUDGET;
  LtMap scanned;
  lt_map_init(&scanned, 8);
  for (int f = 0; f < 2 && cls != W_CONFLICT; f++)
    for (LLVMUseRef u = fns[f] ? LLVMGetFirstUse(fns[f]) : NULL; u && cls != W_CONFLICT;
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
        scan_fn(b, cf, base, base, 0, fns, 0, &budget);
      }
      LLVMTypeRef t = NULL;
      int c2 = acc_class(b, base, at + off, size, &t);
      if (c2 == W_UNKNOWN)
        continue;
      if (cls == W_UNKNOWN) {
        cls = c2;
        *fty = t;
      } else if (c2 != cls || t != *fty) {
        cls = W_CONFLICT;
      }
    }
  lt_map_free(&scanned);
  return cls;
}

/* What the function's accesses of the bytes at addr say, and for a
 * parameter's memory its callers'. */
int lt_wordev_accesses(LtWordEv *b, LLVMValueRef addr, unsigned long long size,
                      LLVMTypeRef *fty) {
  long long off;
  LLVMValueRef base = lt_const_offset(b->td, addr, &off);
  if (!base)
    return W_UNKNOWN;
  int cls = acc_class(b, base, off, size, fty);
  if (cls == W_UNKNOWN && LLVMIsAArgument(base) && size <= 64)
    cls = caller_class(b, base, off, size, fty);
  return cls;
}

/* The element the word lies in, of the type the function indexes its
 * block with: libstdc++'s insert into a full std::vector<double *> moves
 * the one element before the new one as `load i64` / `store i64` at -O3,
 * between the old block and the new, at offset 0 of each, where no other
 * access is; only the loop reading the vector (`gep ptr, %data, %i`, the
 * data a PHI of both blocks) says that they hold pointers. Taken for a
 * double, the word's shadow pointer stayed behind: a segfault in the
 * gradient (fuzz --structvec seeds 60037, 60084 at -O3). */
int lt_wordev_elem(LtWordEv *b, LLVMValueRef addr, unsigned long long size, LLVMTypeRef *fty) {
  long long off;
  LLVMValueRef base = lt_const_offset(b->td, addr, &off);
  /* a local or a global has a declared type (lt_wordev_decl) */
  if (!base || off < 0 || LLVMIsAAllocaInst(base) || LLVMIsAGlobalValue(base))
    return W_UNKNOWN;
  /* nor for a field of a struct the address steps into (an Eigen
   * product evaluator's size, loaded as an i64, at -O0) */
  for (LLVMValueRef p = addr; p != base && LLVMIsAGetElementPtrInst(p); p = LLVMGetOperand(p, 0))
    if (LLVMGetTypeKind(LLVMGetGEPSourceElementType(p)) == LLVMStructTypeKind ||
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(p)) == LLVMArrayTypeKind)
      return W_UNKNOWN;
  LLVMTypeRef t = lt_mem_scalar_element_type(base);
  unsigned long long es = t ? LLVMABISizeOfType(b->td, t) : 0;
  if (!es || (unsigned long long)off % es + size > es)
    return W_UNKNOWN;
  int cls = span_class(b, t, (unsigned long long)off % es, size, fty);
  return cls == W_PTR || cls == W_FLOAT ? cls : W_UNKNOWN;
}

void lt_wordev_init(LtWordEv *w, LtCtx *c, const LtCfg *g) {
  memset(w, 0, sizeof *w);
  w->c = c;
  w->td = c->td;
  lt_map_init(&w->acc, 64);
  note_accesses(w, g);
}

void lt_wordev_free(LtWordEv *w) {
  for (size_t k = 0; k < w->owned.n; k++)
    free(w->owned.v[k]);
  lt_vec_free(&w->owned);
  lt_map_free(&w->acc);
}
