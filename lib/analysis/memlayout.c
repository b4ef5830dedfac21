/* memlayout.c: what a memcpy/memmove copies, field by field.
 *
 * A copy of floats moves adjoints back in the reverse pass; a copy of
 * pointers to active memory moves shadow pointers in the forward pass;
 * integers take part in neither. The layout is a period (bytes per
 * element; the whole copy when its size is constant) and the float and
 * pointer fields in it, taken from, in order: clang's !tbaa.struct on the
 * copy (one entry per struct member), the declared type of either address
 * (alloca, global, typed GEP; recorded before the canonicalising pipeline
 * folds it, lt_mem_note_types in memnote.c), and the type of other accesses to the same
 * object (uniform). Ranges nothing describes are floats of the accesses'
 * type, as before. The helpers generated per layout (gen/memhelper.c)
 * walk the elements.
 *
 * How the function accesses the copy's objects is memuse.c's; the layout
 * read from those accesses, memaccess.c's; the element types of the blocks
 * a run-time length copy moves, memelem.c's.
 *
 * activity.c, points.c, bits.c and memlayout.c call each other: they are
 * one fixpoint (which floats vary, which memory has shadows, which integers
 * carry float bits, what a copy moves), split by concept for size.
 */
#include "lt.h"
#include "memlayout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lt_mem_add_field(LtMemLayout *L, unsigned long long off, LLVMTypeRef t, int filled) {
  if (L->n < LT_MEM_FIELDS) {
    L->f[L->n].off = off;
    L->f[L->n].ty = t;
    L->f[L->n].filled = (unsigned char)filled;
    L->n++;
  } else {
    L->overflow = 1;
  }
}

static void add(LtMemLayout *L, unsigned long long off, LLVMTypeRef t) {
  lt_mem_add_field(L, off, t, 0);
}

void lt_mem_leaves(LLVMTargetDataRef td, LLVMTypeRef t, long long base, long long lo,
                   long long hi, LtMemLayout *L, int depth) {
  long long ts = (long long)LLVMABISizeOfType(td, t);
  if (base >= hi || base + ts <= lo)
    return;
  if (depth > LT_TYPE_DEPTH) {
    L->overflow = 1; /* unknown leaves: no layout rather than a short one */
    return;
  }
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind) {
    for (unsigned e = 0, n = LLVMCountStructElementTypes(t); e < n; e++)
      lt_mem_leaves(td, LLVMStructGetTypeAtIndex(t, e),
             base + (long long)LLVMOffsetOfElement(td, t, e), lo, hi, L, depth + 1);
    return;
  }
  if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    long long es = (long long)LLVMABISizeOfType(td, et);
    long long n = k == LLVMArrayTypeKind ? (long long)LLVMGetArrayLength2(t)
                                         : (long long)LLVMGetVectorSize(t);
    for (long long e = 0; e < n && es > 0 && !L->overflow; e++)
      lt_mem_leaves(td, et, base + e * es, lo, hi, L, depth + 1);
    return;
  }
  if ((lt_is_float_ty(t) || lt_is_ptr_ty(t)) && base >= lo && base + ts <= hi)
    add(L, (unsigned long long)(base - lo), t);
}

int lt_mem_same_leaves(LLVMTargetDataRef td, LLVMTypeRef a, unsigned long long from_a,
                       LLVMTypeRef b, unsigned long long from_b) {
  if (a == b && from_a == from_b)
    return 1;
  unsigned long long ea = LLVMABISizeOfType(td, a), eb = LLVMABISizeOfType(td, b);
  if (from_a >= ea || from_b >= eb || ea - from_a != eb - from_b)
    return 0;
  LtMemLayout la, lb;
  memset(&la, 0, sizeof la);
  memset(&lb, 0, sizeof lb);
  lt_mem_leaves(td, a, 0, (long long)from_a, (long long)ea, &la, 0);
  lt_mem_leaves(td, b, 0, (long long)from_b, (long long)eb, &lb, 0);
  if (la.overflow || lb.overflow || la.n != lb.n)
    return 0;
  for (unsigned k = 0; k < la.n; k++)
    if (la.f[k].off != lb.f[k].off || la.f[k].ty != lb.f[k].ty)
      return 0;
  return 1;
}

int lt_mem_bytes_only(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t) == 8;
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind:
    return lt_mem_bytes_only(LLVMGetElementType(t));
  case LLVMStructTypeKind:
    for (unsigned k = 0, n = LLVMCountStructElementTypes(t); k < n; k++)
      if (!lt_mem_bytes_only(LLVMStructGetTypeAtIndex(t, k)))
        return 0;
    return 1;
  default:
    return 0;
  }
}

LLVMTypeRef lt_mem_declared(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long *off,
                            int *element) {
  *off = 0;
  *element = 0;
  LLVMTypeRef whole = LLVMIsAAllocaInst(p)        ? LLVMGetAllocatedType(p)
                      : LLVMIsAGlobalVariable(p) ? LLVMGlobalGetValueType(p)
                                                 : NULL;
  if (whole)
    return lt_mem_bytes_only(whole) ? NULL : whole;
  if (!LLVMIsAGetElementPtrInst(p) &&
      !(LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
    return NULL;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(p), cur = t;
  if (lt_mem_bytes_only(t))
    return NULL;
  /* An index into an array that is not a constant selects some element:
   * from there on, the layout is the element's (st[i] = st[j] copies an
   * S between two elements of an S[2]). */
  for (int k = 2, n = LLVMGetNumOperands(p); k < n; k++) {
    LLVMValueRef ix = LLVMGetOperand(p, (unsigned)k);
    if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
      if (!LLVMIsAConstantInt(ix))
        return NULL;
      unsigned v = (unsigned)LLVMConstIntGetZExtValue(ix);
      *off += LLVMOffsetOfElement(td, cur, v);
      cur = LLVMStructGetTypeAtIndex(cur, v);
    } else if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind) {
      cur = LLVMGetElementType(cur);
      if (LLVMIsAConstantInt(ix)) {
        *off += LLVMConstIntGetZExtValue(ix) * LLVMABISizeOfType(td, cur);
      } else {
        t = cur;
        *off = 0;
      }
    } else {
      return NULL;
    }
  }
  *element = 1; /* p may step over an array of t */
  return t;
}

static int from_tbaa_struct(LtCtx *c, LLVMValueRef call, unsigned long long n,
                            LtMemLayout *L, LLVMTypeRef fill) {
  unsigned kind = LLVMGetMDKindIDInContext(c->llctx, "tbaa.struct", 11);
  LLVMValueRef md = LLVMGetMetadata(call, kind);
  unsigned no = md ? LLVMGetMDNodeNumOperands(md) : 0;
  if (!no || no % 3 || no > 3 * LT_MEM_FIELDS)
    return 0;
  LLVMValueRef ops[3 * LT_MEM_FIELDS];
  LLVMGetMDNodeOperands(md, ops);
  unsigned long long fs = LLVMABISizeOfType(c->td, fill);
  for (unsigned k = 0; k < no; k += 3) {
    if (!LLVMIsAConstantInt(ops[k]) || !LLVMIsAConstantInt(ops[k + 1]))
      return 0;
    unsigned long long off = LLVMConstIntGetZExtValue(ops[k]);
    unsigned long long size = LLVMConstIntGetZExtValue(ops[k + 1]);
    LLVMTypeRef ft = NULL;
    int cls = lt_tbaa_class(c->llctx, ops[k + 2], &ft);
    if (off + size > n)
      return 0;
    if (cls == LT_TBAA_FLOAT && LLVMABISizeOfType(c->td, ft) == size)
      add(L, off, ft);
    else if (cls == LT_TBAA_PTR && size == LLVMABISizeOfType(c->td, c->ptr))
      add(L, off, c->ptr);
    else if (cls != LT_TBAA_INT) /* char or unknown: the accesses' floats */
      for (unsigned long long o = off; o + fs <= off + size; o += fs)
        lt_mem_add_field(L, o, fill, 1);
  }
  return !L->overflow;
}

/* A copy whose !tbaa access tag names one scalar type copies elements of
 * it: loop-idiom recognition turns a loop of loads and stores of doubles
 * into a memcpy tagged "double" (the loads' and stores' tags merged, so
 * any other type makes it char, which says nothing). Eigen's copy of a
 * product's result kept in the evaluator next to its data pointer had a
 * run-time length and no other evidence (fuzz --eigen seed 1140237). */
static int from_tbaa(LtCtx *c, LLVMValueRef call, int constant, unsigned long long n,
                     LtMemLayout *L) {
  LLVMTypeRef ft = NULL;
  switch (lt_tbaa_class_of(call, &ft)) {
  case LT_TBAA_FLOAT:
    break;
  case LT_TBAA_PTR:
    ft = c->ptr;
    break;
  default:
    return 0;
  }
  unsigned long long ts = LLVMABISizeOfType(c->td, ft);
  if (!ts || (constant && n % ts))
    return 0;
  memset(L, 0, sizeof *L);
  L->period = ts;
  add(L, 0, ft);
  return 1;
}

/* Layout from a declared type t, the copy starting off bytes into it
 * (element: the address may step over an array of t). */
static int from_declared(LLVMTargetDataRef td, LLVMTypeRef t,
                         unsigned long long off, int element, int constant,
                         unsigned long long n, LtMemLayout *L) {
  /* A copy of a run-time length into an array copies a prefix of its
   * elements, not whole arrays: memcpy(t, x, n * 8) into double t[4]
   * copies n doubles, and in units of the array's 32 bytes n = 1 copied
   * nothing back in the reverse pass. */
  while (!constant && LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
    t = LLVMGetElementType(t);
    element = 1;
  }
  unsigned long long ts = LLVMABISizeOfType(td, t);
  if (constant && off + n <= ts) {
    lt_mem_leaves(td, t, 0, (long long)off, (long long)(off + n), L, 0);
  } else if ((element || !constant) && off == 0 && ts && (!constant || n % ts == 0)) {
    /* an array of t; a copy of a run-time length from the start of a t
     * copies whole ones (rec(d, s, sizeof *s) kept as a call) */
    L->period = ts;
    lt_mem_leaves(td, t, 0, 0, (long long)ts, L, 0);
  } else if (element && constant && ts && (off + n) / ts < LT_MEM_FIELDS) {
    /* from inside one element of an array of t over the next ones (SROA
     * copies su[0].w .. su[1].k when it splits off su[0].p) */
    for (unsigned long long k = 0; k * ts < off + n && !L->overflow; k++)
      lt_mem_leaves(td, t, (long long)(k * ts), (long long)off, (long long)(off + n), L, 0);
  } else {
    return 0;
  }
  if (!L->overflow)
    return 1;
  memset(L, 0, sizeof *L);
  L->period = n;
  return 0;
}

static int from_note(LtCtx *c, LLVMValueRef call, int constant,
                     unsigned long long n, LtMemLayout *L) {
  LLVMValueRef md = LLVMGetMetadata(call, lt_mem_note_kind(c->llctx));
  if (!md || LLVMGetMDNodeNumOperands(md) != 3)
    return 0;
  LLVMValueRef ops[3];
  LLVMGetMDNodeOperands(md, ops);
  if (!ops[0] || !ops[1] || !ops[2] || !LLVMIsAConstantInt(ops[1]) ||
      !LLVMIsAConstantInt(ops[2]))
    return 0;
  return from_declared(c->td, LLVMTypeOf(ops[0]), LLVMConstIntGetZExtValue(ops[1]),
                       (int)LLVMConstIntGetZExtValue(ops[2]), constant, n, L);
}

static int mem_layout(LtCtx *c, const LtActivity *a, LLVMValueRef call, LtMemLayout *L);

/* How deep lt_mem_layout is in its own questions (a copy's layout asks
 * for other copies' layouts, which ask again). */
static unsigned nest;

/* How many questions one asked from outside asked in all. A copy's layout
 * asks for other copies' and for the element types of the blocks they
 * reach (memelem.c), which ask about their copies in turn: each level may
 * branch, and a C++ program with many copies of small objects at -O3 took
 * more than five minutes (fuzz --cxx --calls seed 100066). Past
 * LAYOUT_WORK a nested question gets the guess, which every asker passes
 * over (a guessed layout is never taken for another copy's). */
#define LAYOUT_WORK 64
static unsigned work;

static void guess(LtCtx *c, LLVMValueRef call, LtMemLayout *L);

int lt_mem_layout(LtCtx *c, const LtActivity *a, LLVMValueRef call, LtMemLayout *L) {
  if (!nest)
    work = 0;
  else if (++work > LAYOUT_WORK) {
    guess(c, call, L);
    return 0;
  }
  nest++;
  int rc = mem_layout(c, a, call, L);
  nest--;
  if (getenv("LEANTAPE_DEBUG_LAYOUT")) { /* debugging: each copy's layout */
    char *s = LLVMPrintValueToString(call);
    fprintf(stderr, "leantape layout: period %llu, %u fields%s:%s (in %s)\n", L->period, L->n,
            L->guessed ? ", guessed" : "", s,
            LLVMGetValueName(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))));
    for (unsigned k = 0; k < L->n && !L->guessed; k++) { /* the fields */
      char *t = LLVMPrintTypeToString(L->f[k].ty);
      fprintf(stderr, "  field %u: %s%s\n", L->f[k].off, t, L->f[k].filled ? " (filled)" : "");
      LLVMDisposeMessage(t);
    }
    LLVMDisposeMessage(s);
  }
  return rc;
}

static int mem_layout(LtCtx *c, const LtActivity *a, LLVMValueRef call, LtMemLayout *L) {
  LLVMTargetDataRef td = c->td;
  LLVMValueRef size = LLVMGetOperand(call, 2);
  int constant = LLVMIsAConstantInt(size) != NULL;
  unsigned long long n = constant ? LLVMConstIntGetZExtValue(size) : 0;
  LLVMTypeRef et = lt_mem_elem_type(td, call);
  LLVMTypeRef fill = et ? et
                     : constant && n % 8 ? LLVMFloatTypeInContext(c->llctx)
                                         : c->f64;
  memset(L, 0, sizeof *L);
  L->period = n;
  if (constant) {
    if (from_tbaa_struct(c, call, n, L, lt_is_ptr_ty(fill) ? c->f64 : fill))
      return 0;
    memset(L, 0, sizeof *L);
    L->period = n;
  }
  if (from_tbaa(c, call, constant, n, L))
    return 0;
  if (!constant && lt_mem_range_layout(c, call, L))
    return 0;
  LLVMValueRef ends[2] = {LLVMGetOperand(call, 0),
                          LLVMGetNumArgOperands(call) > 1 &&
                                  lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, 1)))
                              ? LLVMGetOperand(call, 1)
                              : NULL};
  for (int e = 0; e < 2; e++) {
    unsigned long long off;
    int element;
    LLVMTypeRef t = ends[e] ? lt_mem_declared(td, ends[e], &off, &element) : NULL;
    if (t && from_declared(td, t, off, element, constant, n, L))
      return 0;
    /* `gep i8, ptr %a, 48` into a typed alloca or global (-O2's GEPs) */
    long long at;
    LLVMValueRef base = ends[e] ? lt_const_offset(td, ends[e], &at) : NULL;
    if (base && base != ends[e] && at >= 0 &&
        (t = lt_mem_declared(td, base, &off, &element)) &&
        from_declared(td, t, (unsigned long long)at, 0, constant, n, L))
      return 0;
  }
  if (from_note(c, call, constant, n, L))
    return 0;
  /* The same bytes copied whole to or from a typed object elsewhere in the
   * function: at -O0 clang copies an Eigen expression held by a parameter
   * into an i8 buffer, then the buffer into the member of a typed
   * temporary (a scaled lazy product's right operand, a Map: its data
   * pointer's shadow was left null, a segfault in the gradient; fuzz
   * --eigen seed 990021). */
  if (constant && n) {
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), base[LT_COPY_PLACES];
    long long at[LT_COPY_PLACES];
    unsigned np = lt_mem_copy_places(td, fn, call, n, base, at);
    for (unsigned k = 0; k < np; k++) {
      unsigned long long off;
      int element;
      LLVMTypeRef t = at[k] >= 0 ? lt_mem_declared(td, base[k], &off, &element) : NULL;
      if (t && from_declared(td, t, off + (unsigned long long)at[k], element, constant, n, L))
        return 0;
    }
  }
  /* The object's element type from another access of it: at -O2 the copy
   * is `gep i8, %st, 8` while a loop reads st[i].p through
   * `gep %struct.S, %st, i`. A copy of a run-time length that starts on
   * an element copies elements (or a prefix of one): libstdc++'s vector
   * relocates its elements into new storage with memmove(new, old, n *
   * sizeof(S)), new a PHI of operator new's block that `gep %struct.S,
   * new, k` places the inserted element in; the copy was taken for
   * doubles, the shadows of S's pointers stayed behind, and the adjoints
   * went to the wrong elements (silently: push_back then insert of a
   * struct {double, double *, int} at -O0). */
  for (int e = 0; e < 2; e++) {
    long long at;
    LLVMValueRef base = ends[e] ? lt_const_offset(td, ends[e], &at) : NULL;
    LLVMTypeRef t = base && at >= 0 ? lt_mem_element_type(base) : NULL;
    unsigned long long ts = t ? LLVMABISizeOfType(td, t) : 0, st = lt_mem_size_stride(call);
    if (ts && (constant || ((unsigned long long)at % ts == 0 && (!st || st == ts))) &&
        from_declared(td, t, (unsigned long long)at % ts, 1, constant, n, L))
      return 0;
  }
  /* The element type of the allocations an end may address, when it is
   * their pointer loaded from memory or merged, at a whole number of
   * elements from it: `tmp = sv` copies sv's elements from the data
   * pointer loaded from sv; insert moves the elements after the new one
   * from old + k * sizeof(S). */
  for (int e = 0; e < 2 && a; e++) {
    LLVMTypeRef t = ends[e] ? lt_mem_pointee_element_type(c, a, (LtPoints *)&a->pts, call, ends[e])
                            : NULL;
    if (t && from_declared(td, t, 0, 1, constant, n, L))
      return 0;
  }
  if (!constant && lt_mem_layout_from_copies(c, a, call, L))
    return 0;
  memset(L, 0, sizeof *L);
  if (constant && lt_mem_from_accesses(c, a, call, n, lt_is_ptr_ty(fill) ? c->f64 : fill, L))
    return 0;
  /* A constant copy of whole elements that other copies of the same
   * block lay out: std::sort's insertion step at -O2 moves two 24-byte
   * S {double, double *, int} up by one with memmove(p + 24, p, 48) and
   * copies single elements with !tbaa.struct, while the loop reading the
   * vector indexes it at run-time offsets, so the accesses cannot place
   * its pointers (fuzz --structvec -X seeds 60038, 60128, ... at -O2: an
   * error, "this copies memory that may hold both pointers ..."). Only
   * for the copy asked about, not for those its layout asks about: the
   * accesses' copied fields and the other copies ask each other in turn
   * (minutes on a fuzz --structvec -X program at -O3). */
  if (constant && nest == 1 && lt_mem_layout_from_copies(c, a, call, L))
    return 0;
  guess(c, call, L);
  return 0;
}

/* Uniform: elements of the type the function accesses the memory as (a
 * guess). */
static void guess(LtCtx *c, LLVMValueRef call, LtMemLayout *L) {
  LLVMValueRef size = LLVMGetOperand(call, 2);
  int constant = LLVMIsAConstantInt(size) != NULL;
  unsigned long long n = constant ? LLVMConstIntGetZExtValue(size) : 0;
  LLVMTypeRef et = lt_mem_elem_type(c->td, call);
  LLVMTypeRef fill = et ? et
                     : constant && n % 8 ? LLVMFloatTypeInContext(c->llctx)
                                         : c->f64;
  memset(L, 0, sizeof *L);
  L->period = LLVMABISizeOfType(c->td, fill);
  L->guessed = 1;
  L->n = 1;
  L->f[0].off = 0;
  L->f[0].ty = fill;
}

/* realloc copies the old block: elements of the type the function
 * accesses the new block as. */
int lt_realloc_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L) {
  memset(L, 0, sizeof *L);
  const LtAllocFn *af = lt_alloc_fn(call);
  LLVMTypeRef et = lt_elem_type_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)),
                                   call, lt_base_of(LLVMGetOperand(call, (unsigned)af->old_arg)));
  if (!et || lt_is_ptr_ty(et))
    et = c->f64;
  L->period = LLVMABISizeOfType(c->td, et);
  L->n = 1;
  L->f[0].ty = et;
  return 0;
}

int lt_mem_layout_has(const LtMemLayout *L, int ptrs) {
  for (unsigned k = 0; k < L->n; k++)
    if (lt_is_ptr_ty(L->f[k].ty) == ptrs)
      return 1;
  return 0;
}
