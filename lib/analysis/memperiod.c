/* memperiod.c: copies of whole elements. A constant copy's layout
 * (memlayout.c) is one element's when the fields its accesses show repeat
 * with a period, or when the copy moves one element of an allocation of
 * whole elements whose other elements the function accesses.
 */
#include "lt.h"

/* The fields an array of elements of p bytes has at r, by the fields
 * seen at r's images in the other elements: 1 when those seen agree and
 * none overlaps another's bytes. */
static int period_fits(LLVMTargetDataRef td, LLVMTypeRef *field, unsigned long long n,
                       unsigned long long p) {
  for (unsigned long long r = 0; r < n; r++) {
    if (!field[r])
      continue;
    unsigned long long ts = LLVMABISizeOfType(td, field[r]);
    if (r % p + ts > p)
      return 0; /* a field across two elements */
    for (unsigned long long q = r % p; q < n; q += p) {
      if (field[q] && field[q] != field[r])
        return 0;
      for (unsigned long long b = q + 1; b < q + ts && b < n; b++)
        if (field[b])
          return 0;
    }
  }
  return 1;
}

/* Bytes no access covers, in a copy of whole elements of which others
 * are accessed, are what those others have there: push_back at -O3 copies
 * an S {double, double *, int} into the grown block as 48 bytes whose
 * second element alone the function stores, field by field; the first
 * element's pointer was taken for a double and its shadow left behind
 * (a segfault in the gradient; fuzz --structvec seed 128). The period is
 * the smallest that the fields seen agree with, and only fields of more
 * than one kind (floats, pointers, integers) say there is one: a lone
 * pointer field does not make its neighbours pointers. */
unsigned long long lt_mem_periodic_fill(LLVMTargetDataRef td, LLVMTypeRef *field,
                                        unsigned long long n) {
  int kinds = 0;
  for (unsigned long long r = 0; r < n; r++)
    if (field[r])
      kinds |= lt_is_float_ty(field[r]) ? 1 : lt_is_ptr_ty(field[r]) ? 2 : 4;
  if (kinds == 1 || kinds == 2 || kinds == 4)
    return 0;
  for (unsigned long long p = 16; p <= n / 2; p += 8) {
    if (n % p || !period_fits(td, field, n, p))
      continue;
    for (unsigned long long r = 0; r < p; r++) {
      LLVMTypeRef t = NULL;
      for (unsigned long long q = r; q < n && !t; q += p)
        t = field[q];
      for (unsigned long long q = r; t && q < n; q += p)
        field[q] = t;
    }
    return p;
  }
  return 0;
}

/* Is base, whose bytes [at, at + n) a copy moves, an allocation of whole
 * n-byte elements (`new(k * 24)`, a vector's storage) with the copy at an
 * element's start? Then the function's accesses to other elements say
 * what the copied one holds: an insert into a full std::vector<S> at -O3
 * stores the new S at index 1 of the grown block field by field and
 * copies S number 0 there with a 24-byte memcpy that nothing else types
 * (fuzz --structvec seed 74308 at -O3: "copies memory that may hold both
 * pointers ..."). */
int lt_mem_array_of(LLVMTargetDataRef td, LLVMValueRef base, long long at,
                    unsigned long long n) {
  const LtRule *r;
  if (!base || !n || at % (long long)n || !LLVMIsACallInst(base) ||
      lt_call_kind(base, &r) != LT_CALL_MALLOC)
    return 0;
  const LtAllocFn *af = lt_alloc_fn(base);
  return af && af->count_arg < 0 && af->size_arg >= 0 && af->old_arg < 0 &&
         !LLVMIsAConstant(LLVMGetOperand(base, (unsigned)af->size_arg)) &&
         lt_mem_multiple_of(td, LLVMGetOperand(base, (unsigned)af->size_arg), n);
}
