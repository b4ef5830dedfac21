/* memaccess.c: a copy's layout from how the function accesses the copied
 * bytes (memlayout.c's last resort before the uniform guess): the places
 * that hold them (the copy's two ends, and the ends of other copies of
 * constant size that cover a place whole), the fields other copies with
 * layouts of their own put there, and every load and store of the places.
 */
#include "lt.h"
#include "memlayout.h"

#include <stdlib.h>
#include <string.h>

/* The places that hold the n bytes `call` copies, each a base and the
 * offset of the copy's first byte from it: the copy's two ends, then the
 * ends of other copies of constant size that cover a place whole (the
 * same bytes, copied before or after), to LT_COPY_PLACES places. */
unsigned lt_mem_copy_places(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef call,
                            unsigned long long n, LLVMValueRef *base, long long *at) {
  unsigned np = 0;
  for (unsigned e = 0; e < 2; e++) {
    base[np] = lt_const_offset(td, LLVMGetOperand(call, e), &at[np]);
    np += base[np] != NULL;
  }
  for (unsigned done = 0; done < np && np < LT_COPY_PLACES; done++)
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (i == call || !lt_is_copy_call(i) ||
            !LLVMIsAConstantInt(LLVMGetOperand(i, 2)))
          continue;
        long long m = (long long)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2)), o[2];
        LLVMValueRef b[2] = {lt_const_offset(td, LLVMGetOperand(i, 0), &o[0]),
                             lt_const_offset(td, LLVMGetOperand(i, 1), &o[1])};
        for (unsigned e = 0; e < 2 && np < LT_COPY_PLACES; e++) {
          /* this end covers place `done` whole: the other end holds it too */
          if (!b[e] || !b[!e] || b[e] != base[done] || o[e] > at[done] ||
              at[done] + (long long)n > o[e] + m)
            continue;
          long long start = o[!e] + (at[done] - o[e]);
          unsigned k = 0;
          while (k < np && !(base[k] == b[!e] && at[k] == start))
            k++;
          if (k == np) {
            base[np] = b[!e];
            at[np++] = start;
          }
        }
      }
  return np;
}

/* The fields other copies of constant size with layouts of their own put
 * into the places (the bases and offsets of copy_places) of call's n
 * bytes, into field[]; 0 when two disagree. At -O0, after the plugin's
 * SROA, an Eigen lazy product's operands are gathered into an i8 slice
 * by two copies (the tail of the left Block from the typed Product, the
 * head of the right one) and the slice is copied on whole, 48 bytes that
 * nothing loads or stores: taken for doubles, the right Block's data
 * pointer kept a null shadow, a segfault in the gradient (fuzz --eigen
 * seed 40004 at -O0, (B^T B).trace() of a block). Their layouts come
 * from the same function, two copies deep at most. */
static int copied_fields(LtCtx *c, const LtActivity *a, LLVMValueRef call, LLVMValueRef fn,
                         unsigned long long n, const LLVMValueRef *base, const long long *at,
                         unsigned np, LLVMTypeRef *field) {
  enum { DEPTH = 2 };
  static LLVMValueRef open[DEPTH];
  static unsigned depth;
  LLVMTargetDataRef td = c->td;
  if (depth == DEPTH)
    return 1;
  open[depth++] = call;
  int ok = 1;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && ok; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef m = LLVMGetFirstInstruction(bb); m && ok; m = LLVMGetNextInstruction(m)) {
      int skip = m == call;
      for (unsigned k = 0; k < depth && !skip; k++)
        skip = open[k] == m;
      if (skip || !lt_is_copy_call(m) ||
          !LLVMIsAConstantInt(LLVMGetOperand(m, 2)))
        continue;
      long long len = (long long)LLVMConstIntGetZExtValue(LLVMGetOperand(m, 2)), o[2];
      LLVMValueRef b[2];
      int near = 0;
      for (unsigned f = 0; f < 2; f++) {
        b[f] = lt_const_offset(td, LLVMGetOperand(m, f), &o[f]);
        for (unsigned e = 0; e < np; e++)
          near |= b[f] && b[f] == base[e] && o[f] < at[e] + (long long)n && at[e] < o[f] + len;
      }
      LtMemLayout M;
      if (!near || lt_mem_layout(c, a, m, &M) || M.guessed || M.overflow || !M.period)
        continue;
      for (unsigned f = 0; f < 2 && ok; f++)
        for (unsigned e = 0; e < np && ok; e++) {
          if (!b[f] || b[f] != base[e])
            continue;
          for (long long el = 0; el < len && ok; el += (long long)M.period)
            for (unsigned j = 0; j < M.n && ok; j++) {
              LLVMTypeRef t = M.f[j].ty;
              long long ts = (long long)LLVMABISizeOfType(td, t);
              long long q = o[f] + el + M.f[j].off - at[e];
              if (M.f[j].filled || q < 0 || q + ts > (long long)n || el + M.f[j].off + ts > len)
                continue;
              if (field[q] && field[q] != t)
                ok = 0; /* another type there */
              for (long long w = q + 1; w < q + ts && ok; w++)
                ok = !field[w];
              if (ok)
                field[q] = t;
            }
        }
    }
  depth--;
  return ok;
}

/* Layout from how the function accesses the copied bytes: every load and
 * store of a float or pointer at a constant offset from the base of either
 * end that falls inside the copy is a field (-O2's memcpyopt turns
 * `t = st[0]; st[1] = t` into a copy of st[0] to st[1] without
 * !tbaa.struct; the stores that filled st[0] remain). Fails when two
 * accesses disagree, or when the memory is also accessed as pointers at
 * offsets that are not constant (a pointer could be anywhere). Integer
 * accesses only occupy their bytes; aligned ranges no access covers hold
 * floats of the fill type. The same bytes copied whole by other copies of
 * the function are places too (at -O0 an Eigen evaluator copies an
 * expression into an i8 buffer, then the buffer into its member, and
 * only the member is read as a pointer). */
static int accesses_layout(LtCtx *c, const LtActivity *a, LLVMValueRef call,
                           unsigned long long n, LLVMTypeRef fill, LtMemLayout *L,
                           LLVMTypeRef *field, LLVMTypeRef *other) {
  LLVMTargetDataRef td = c->td;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  LLVMValueRef base[LT_COPY_PLACES];
  long long at[LT_COPY_PLACES];
  unsigned np = lt_mem_copy_places(td, fn, call, n, base, at);
  int elems[LT_COPY_PLACES], any_elems = 0, other_bad = 0;
  for (unsigned e = 0; e < np; e++)
    any_elems |= elems[e] = lt_mem_array_of(td, base[e], at[e], n);
  if (!any_elems)
    other = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t;
      LLVMValueRef addr = lt_mem_access(i, &t);
      if (!addr)
        continue;
      if (!lt_is_float_ty(t) && !lt_is_ptr_ty(t) &&
          LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        continue; /* integers occupy bytes that are not floats */
      /* an i64 that moves a double (vector<double> growing at -O3 copies
       * its first element so) is that double */
      LLVMTypeRef bt = a && LLVMGetTypeKind(t) == LLVMIntegerTypeKind
                           ? lt_bits_type(a, LLVMIsALoadInst(i) ? i : LLVMGetOperand(i, 0))
                           : NULL;
      if (bt && lt_is_float_ty(bt))
        t = bt;
      /* and one that moves a pointer (InstCombine stores push_back's
       * first pointer into a new vector<double *> as `ptrtoint`) is that
       * pointer: the copy into the grown block moves its shadow */
      LLVMValueRef mv = LLVMIsALoadInst(i) ? i : LLVMGetOperand(i, 0);
      if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
          LLVMABISizeOfType(td, t) == LLVMABISizeOfType(td, c->ptr) &&
          (LLVMIsAPtrToIntInst(mv) || (a && lt_is_ptr_word(a, mv))))
        t = c->ptr;
      long long o;
      LLVMValueRef b = lt_const_offset(td, addr, &o);
      for (unsigned e = 0; e < np; e++) {
        if (!base[e] || lt_base_of(addr) != lt_base_of(base[e]))
          continue;
        if (b != base[e]) {
          if (lt_is_ptr_ty(t))
            return 0; /* a pointer somewhere we cannot place */
          continue;
        }
        long long r = o - at[e];
        long long ts = (long long)LLVMABISizeOfType(td, t);
        LLVMTypeRef *into = field;
        if ((r < 0 || r + ts > (long long)n) && other) { /* the same field of another element */
          r = (r % (long long)n + (long long)n) % (long long)n;
          into = elems[e] ? other : NULL;
        }
        if (!into || r < 0 || r + ts > (long long)n)
          continue;
        /* Two accesses of one place that disagree: a pointer there also
         * moved as an integer as wide (a field copied by `load i64`, whose
         * bit groups did not call it a pointer word) is a pointer, and
         * floats and integers there are floats: either keeps the shadow
         * bytes moving with the copy, where the integer's shadow is never
         * read (fuzz --pointers --calls seed 1014326 at -O1: a struct's
         * pointer and its i32 with padding each moved by an i64). */
        if (into[r] && into[r] != t) {
          LLVMTypeRef h = into[r];
          int hint = LLVMGetTypeKind(h) == LLVMIntegerTypeKind,
              tint = LLVMGetTypeKind(t) == LLVMIntegerTypeKind;
          unsigned long long ps = LLVMABISizeOfType(td, c->ptr);
          if ((lt_is_ptr_ty(h) && tint && (unsigned long long)ts == ps) ||
              (lt_is_float_ty(h) && tint))
            continue;
          if ((lt_is_ptr_ty(t) && hint && LLVMABISizeOfType(td, h) == ps) ||
              (lt_is_float_ty(t) && hint))
            into[r] = NULL; /* t takes the place */
        }
        if (into[r] && into[r] != t) {
          if (into == other) {
            other_bad = 1;
            continue;
          }
          return 0;
        }
        for (long long q = r + 1; q < r + ts; q++)
          if (into[q]) {
            if (into == field)
              return 0;
            other_bad = 1;
          }
        into[r] = t;
      }
    }
  /* the other elements' fields, when nothing else says what the copied
   * one holds */
  if (other) {
    unsigned long long r = 0;
    while (r < n && !field[r])
      r++;
    if (r == n && !other_bad)
      memcpy(field, other, n * sizeof *field);
  }
  if (!copied_fields(c, a, call, fn, n, base, at, np, field))
    return 0;
  /* a copy of whole elements is described by one of them */
  unsigned long long period = lt_mem_periodic_fill(td, field, n);
  if (period)
    n = period;
  /* Without pointer fields the layout says something only when no 8
   * bytes in a row are left that a pointer could occupy. */
  int any = 0, run = 0, hole = 0;
  unsigned long long covered_to = 0;
  for (unsigned long long r = 0; r < n; r++) {
    any |= field[r] && lt_is_ptr_ty(field[r]);
    if (field[r] && r + LLVMABISizeOfType(td, field[r]) > covered_to)
      covered_to = r + LLVMABISizeOfType(td, field[r]);
    run = r < covered_to ? 0 : run + 1;
    hole |= run >= 8;
  }
  if (!any && hole)
    return 0; /* nothing new: the uniform layout says as much */
  unsigned long long fs = LLVMABISizeOfType(td, fill);
  for (unsigned long long r = 0; r < n;) {
    if (field[r]) {
      if (LLVMGetTypeKind(field[r]) != LLVMIntegerTypeKind)
        lt_mem_add_field(L, r, field[r], 0);
      r += LLVMABISizeOfType(td, field[r]);
      continue;
    }
    unsigned long long q = r;
    while (q < n && !field[q] && q - r < fs)
      q++;
    if (q - r == fs && r % fs == 0)
      lt_mem_add_field(L, r, fill, 1);
    r = q > r ? q : r + 1;
  }
  L->period = n;
  return !L->overflow;
}

/* The bytes a constant copy's layout is read from accesses of: push_back
 * into a vector that reserved 16 elements of 24 bytes copies 384 at -O3. */
enum { LT_ACCESS_BYTES = 4096 };

int lt_mem_from_accesses(LtCtx *c, const LtActivity *a, LLVMValueRef call,
                         unsigned long long n, LLVMTypeRef fill, LtMemLayout *L) {
  if (!n || n > LT_ACCESS_BYTES)
    return 0;
  LLVMTypeRef *field = lt_xcalloc(2 * n, sizeof *field); /* the access at each byte */
  int ok = accesses_layout(c, a, call, n, fill, L, field, field + n);
  free(field);
  return ok;
}

