/* calls.c: what a call in differentiated code means for AD.
 *
 * Every call in the preprocessed clone is an intrinsic or an external
 * function (defined callees were inlined). This file sorts them: scalar math
 * with a rule, zero-derivative math, memory transfer, allocation, known
 * inactive library functions (I/O, assertions, hints), or unknown.
 */
#include "lt.h"

#include <string.h>

static int name_is(const char *n, size_t len, const char *want) {
  return strlen(want) == len && !strncmp(n, want, len);
}

static int has_prefix(const char *n, size_t len, const char *p) {
  size_t pl = strlen(p);
  return len >= pl && !strncmp(n, p, pl);
}

static const char *const inactive_names[] = {
    "printf",   "fprintf",  "sprintf", "snprintf", "puts",     "fputs",
    "putchar",  "fputc",    "putc",    "fflush",   "perror",   "exit",
    "abort",    "__assert_fail",       "time",     "clock",    "rand",
    "srand",    "fopen",    "fclose",  "fwrite",   "getenv",   "atexit",
    "clock_gettime",        "gettimeofday",        "__printf_chk",
    "__fprintf_chk",        "__sprintf_chk",       "__snprintf_chk",
    "strlen",   "strcmp",   "strncmp", "atoi",     "atol",     "abs",
    "labs",     "llabs",
};

static const char *const inactive_intrinsics[] = {
    "llvm.lifetime.", "llvm.dbg.",  "llvm.assume",    "llvm.expect",
    "llvm.prefetch",  "llvm.invariant.", "llvm.experimental.noalias",
    "llvm.stacksave", "llvm.stackrestore", "llvm.donothing",
    "llvm.sideeffect", "llvm.trap", "llvm.debugtrap", "llvm.ubsantrap",
    "llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin.", "llvm.abs.",
    "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.bswap.",
    "llvm.sadd.", "llvm.uadd.", "llvm.ssub.", "llvm.usub.", "llvm.smul.",
    "llvm.umul.", "llvm.fshl.", "llvm.fshr.", "llvm.is.fpclass.",
    "llvm.lround.", "llvm.llround.", "llvm.lrint.", "llvm.llrint.",
    "llvm.fptosi.sat.", "llvm.fptoui.sat.", "llvm.annotation.",
    "llvm.var.annotation.", "llvm.ptr.annotation.", "llvm.objectsize.",
};

LtCallKind lt_call_kind(LLVMValueRef call, const LtRule **rule) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  *rule = NULL;
  if (!len)
    return LT_CALL_UNKNOWN;
  if (has_prefix(n, len, "llvm.memcpy.") || has_prefix(n, len, "llvm.memmove.") ||
      name_is(n, len, "memcpy") || name_is(n, len, "memmove") ||
      name_is(n, len, "__memcpy_chk") || name_is(n, len, "__memmove_chk"))
    return LT_CALL_MEMCPY;
  if (has_prefix(n, len, "llvm.memset.") || name_is(n, len, "memset") ||
      name_is(n, len, "__memset_chk"))
    return LT_CALL_MEMSET;
  if (has_prefix(n, len, "__ubsan_handle_") || has_prefix(n, len, "__asan_"))
    return LT_CALL_INACTIVE;
  if (name_is(n, len, "malloc") || name_is(n, len, "calloc"))
    return LT_CALL_MALLOC;
  if (name_is(n, len, "free"))
    return LT_CALL_FREE;
  if ((*rule = lt_rules_find(n, len)))
    return LT_CALL_RULE;
  if (lt_rules_is_zero_derivative(n, len))
    return LT_CALL_ZERO;
  for (size_t i = 0; i < sizeof inactive_names / sizeof *inactive_names; i++)
    if (name_is(n, len, inactive_names[i]))
      return LT_CALL_INACTIVE;
  for (size_t i = 0;
       i < sizeof inactive_intrinsics / sizeof *inactive_intrinsics; i++)
    if (has_prefix(n, len, inactive_intrinsics[i]))
      return LT_CALL_INACTIVE;
  return LT_CALL_UNKNOWN;
}
