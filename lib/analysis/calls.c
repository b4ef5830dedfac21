/* calls.c: what a call in differentiated code means for AD.
 *
 * Every call in the preprocessed clone is an intrinsic or an external
 * function (defined callees were inlined). This file sorts them: scalar math
 * with a rule, zero-derivative math, complex arithmetic runtime calls,
 * memory transfer, allocation, known inactive library functions (I/O,
 * assertions, hints), or unknown; and which names are Enzyme's.
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

int lt_is_enzyme_name(const char *name, size_t len) {
  const char *want = "__enzyme_";
  size_t wl = strlen(want);
  for (size_t i = 0; i + wl <= len; i++)
    if (!memcmp(name + i, want, wl))
      return 1;
  return 0;
}

/* Enzyme's __enzyme_iter(a, b): a, plus b for each time the code around it
 * has been differentiated (a Taylor series that needs more terms in its
 * derivatives); the caller differentiates it in prep, driver.c lowers it
 * to its first argument at the end. Enzyme: PreProcessCache::
 * preprocessForClone adds the second argument to the first in every clone
 * it differentiates (Enzyme's test Integration/ReverseMode/mycos.c). */
int lt_is_iter_hint(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  const char *want = "__enzyme_iter";
  size_t wl = strlen(want);
  int named = 0;
  for (size_t i = 0; i + wl <= len && !named; i++)
    named = !memcmp(n + i, want, wl);
  LLVMValueRef f = named ? lt_called_fn(call) : NULL;
  if (!f || !LLVMIsDeclaration(f) || !LLVMIsACallInst(call) ||
      LLVMGetNumArgOperands(call) != 2)
    return 0;
  LLVMTypeRef t = LLVMTypeOf(call);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
         LLVMTypeOf(LLVMGetOperand(call, 0)) == t && LLVMTypeOf(LLVMGetOperand(call, 1)) == t;
}

/* clang lowers complex * and / (C _Complex, std::complex) to inline code
 * with a fallback call to __muldc3/__divdc3 (float: __mulsc3/__divsc3,
 * long double: __mulxc3/__divxc3, __float128: __multc3/__divtc3); cabsf
 * on x86-64 takes a <2 x float>. Their adjoints: gen/cplx.c. */
static const char *const names[] = {"__muldc3", "__divdc3", "__mulsc3",
                                    "__divsc3", "__mulxc3", "__divxc3",
                                    "__multc3", "__divtc3"};

int lt_is_complex_call(LLVMValueRef call, int *is_div) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  if (len == 5 && !strncmp(n, "cabsf", 5) && LLVMGetNumArgOperands(call) == 1 &&
      LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(call, 0))) == LLVMVectorTypeKind) {
    *is_div = 2;
    return 1;
  }
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    if (strlen(names[k]) == len && !strncmp(n, names[k], len)) {
      *is_div = n[2] == 'd';
      return LLVMGetNumArgOperands(call) == 4;
    }
  return 0;
}


static const char *const inactive_names[] = {
    "printf",   "fprintf",  "sprintf", "snprintf", "puts",     "fputs",
    "putchar",  "fputc",    "putc",    "fflush",   "perror",   "exit",
    "abort",    "__assert_fail",       "time",     "clock",    "rand",
    "srand",    "fopen",    "fclose",  "fwrite",   "getenv",   "atexit",
    "clock_gettime",        "gettimeofday",        "__printf_chk",
    "__fprintf_chk",        "__sprintf_chk",       "__snprintf_chk",
    "strlen",   "strcmp",   "strncmp", "atoi",     "atol",     "abs",
    "labs",     "llabs",    "fputs_unlocked",      "vprintf",  "vfprintf",
    "memcmp",   "bcmp",     "strnlen",
    "madvise", /* advice on pages: the arena's huge pages (gen/arena.c) */
    /* the arena's kept chunk (gen/arenakeep.c): its limit, its key */
    "strtoll",  "pthread_once",        "pthread_key_create", "pthread_setspecific",
    /* C++: hashing and comparing of keys, the hashtable's bucket counts,
     * throwing, terminate */
    "_ZSt11_Hash_bytesPKvmm", "_ZSt15_Fnv_hash_bytesPKvmm",
    "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
    "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
    "__cxa_throw", "__cxa_allocate_exception", "__cxa_free_exception",
    "__cxa_rethrow", "__clang_call_terminate", "_ZSt9terminatev",
};

/* Families of C++ library functions that only print or throw: stream
 * output (std::ostream members and operator<<), stream state, and the
 * std::__throw_* helpers. Enzyme treats these as inactive too. */
static const char *const inactive_prefixes[] = {
    "_ZNSo",          /* std::ostream members: operator<<, put, write, flush */
    "_ZStls",         /* operator<<(ostream&, ...) */
    "_ZSt16__ostream_insert",
    "_ZNSt13basic_ostreamIwSt11char_traitsIwEE", /* std::wostream */
    "_ZSt4endl",
    "_ZNSt9basic_ios",
    "_ZNKSt9basic_ios",
    "_ZNSt8ios_base",
    "_ZNKSt5ctype",
    "_ZSt20__throw_",
    "_ZSt19__throw_",
    "_ZSt21__throw_",
    "_ZSt24__throw_",
    "_ZSt25__throw_",
    "_ZSt16__throw_",
    "_ZSt17__throw_",
    "_ZSt18__throw_",
    /* std::string (characters only: nothing to differentiate), both ABIs */
    "_ZNSt7__cxx1112basic_string", "_ZNKSt7__cxx1112basic_string",
    "_ZNSs", "_ZNKSs", "_ZNSt11char_traitsIcE",
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

/* libstdc++'s out-of-line functions that link nodes into, or walk, a
 * red-black tree (std::map, std::set) or a list (std::list). They move
 * pointers only: the shadow structure has the same shape as the primal
 * one (Enzyme's convention: the shadow container holds the same keys), so
 * the derivative does the same to the shadows (the shadow node is linked
 * into the shadow tree; a walk from a shadow node ends at the shadow of
 * where the primal walk ends), and has no adjoint. */
static const char *const link_names[] = {
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
    "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
    "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
    "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
    "_ZNSt8__detail15_List_node_base9_M_unhookEv",
};

int lt_is_link_call(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  LLVMValueRef f = lt_called_fn(call);
  if (!f || !LLVMIsDeclaration(f))
    return 0;
  for (size_t i = 0; i < sizeof link_names / sizeof *link_names; i++)
    if (name_is(n, len, link_names[i]))
      return 1;
  return 0;
}

/* std::string's allocation of a new character buffer (both ABIs): its
 * result addresses fresh memory holding characters only. */
int lt_is_char_alloc(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  return lt_is_ptr_ty(LLVMTypeOf(call)) &&
         (name_is(n, len, "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm") ||
          name_is(n, len, "_ZNSs4_Rep9_S_createEmmRKSaIcE"));
}

/* Preprocessing marks the calls it keeps (preprocess.c): "diff" (a
 * defined function differentiated on its own), "custom", "inactive",
 * "like=<name>" (__enzyme_function_like: treated as a call of <name>), or
 * "fallback" (an indirect call no known function answered, indirect.c). */
static const char *mark_of(LLVMValueRef call, unsigned *len) {
  LLVMAttributeRef a = LLVMGetCallSiteStringAttribute(
      call, LLVMAttributeFunctionIndex, LT_MARK_ATTR, sizeof LT_MARK_ATTR - 1);
  return a ? LLVMGetStringAttributeValue(a, len) : NULL;
}

void lt_mark_call(LLVMValueRef call, const char *what) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
  LLVMAddCallSiteAttribute(
      call, LLVMAttributeFunctionIndex,
      LLVMCreateStringAttribute(c, LT_MARK_ATTR, sizeof LT_MARK_ATTR - 1, what,
                                (unsigned)strlen(what)));
}

int lt_call_marked(LLVMValueRef call) {
  unsigned len;
  return mark_of(call, &len) != NULL;
}

int lt_call_is_fallback(LLVMValueRef call) {
  unsigned len;
  const char *m = mark_of(call, &len);
  return m && len == 8 && !strncmp(m, "fallback", 8);
}

LLVMValueRef lt_fallback_check(LLVMValueRef call) {
  for (LLVMValueRef i = LLVMGetPreviousInstruction(call); i;
       i = LLVMGetPreviousInstruction(i)) {
    size_t len;
    const char *n = LLVMIsACallInst(i) ? lt_callee_name(i, &len) : "";
    if (!strcmp(n, LT_UNKNOWN_CALLEE))
      return i;
  }
  return NULL;
}

int lt_call_is_parallel(LLVMValueRef call) {
  unsigned len;
  const char *m = mark_of(call, &len);
  return m && len == 8 && !strncmp(m, "parallel", 8);
}

/* Allocation functions: where their size, element count and alignment
 * are. C++'s operator new/new[] in every form (nothrow, aligned; m is
 * size_t on LP64, j on 32-bit targets) behaves as malloc, as in Enzyme's
 * isAllocationName. */
static const LtAllocFn alloc_fns[] = {
    {"malloc", 0, -1, -1, 0, -1, -1},
    {"calloc", 1, 0, -1, 1, -1, -1},
    {"aligned_alloc", 1, -1, 0, 0, -1, -1},
    {"realloc", 1, -1, -1, 0, 0, -1},
    {"posix_memalign", 2, -1, 1, 0, -1, 0},
    {"_Znwm", 0, -1, -1, 0, -1, -1},
    {"_Znam", 0, -1, -1, 0, -1, -1},
    {"_Znwj", 0, -1, -1, 0, -1, -1},
    {"_Znaj", 0, -1, -1, 0, -1, -1},
    {"_ZnwmRKSt9nothrow_t", 0, -1, -1, 0, -1, -1},
    {"_ZnamRKSt9nothrow_t", 0, -1, -1, 0, -1, -1},
    {"_ZnwjRKSt9nothrow_t", 0, -1, -1, 0, -1, -1},
    {"_ZnajRKSt9nothrow_t", 0, -1, -1, 0, -1, -1},
    {"_ZnwmSt11align_val_t", 0, -1, 1, 0, -1, -1},
    {"_ZnamSt11align_val_t", 0, -1, 1, 0, -1, -1},
    {"_ZnwjSt11align_val_t", 0, -1, 1, 0, -1, -1},
    {"_ZnajSt11align_val_t", 0, -1, 1, 0, -1, -1},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", 0, -1, 1, 0, -1, -1},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", 0, -1, 1, 0, -1, -1},
    {"_ZnwjSt11align_val_tRKSt9nothrow_t", 0, -1, 1, 0, -1, -1},
    {"_ZnajSt11align_val_tRKSt9nothrow_t", 0, -1, 1, 0, -1, -1},
};

/* free and operator delete/delete[] (sized, aligned, nothrow): the
 * pointer is always the first argument. */
static const char *const free_fns[] = {
    "free",
    "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm", "_ZdlPvj", "_ZdaPvj",
    "_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t",
    "_ZdlPvmSt11align_val_t", "_ZdaPvmSt11align_val_t",
    "_ZdlPvjSt11align_val_t", "_ZdaPvjSt11align_val_t",
    "_ZdlPvRKSt9nothrow_t", "_ZdaPvRKSt9nothrow_t",
    "_ZdlPvSt11align_val_tRKSt9nothrow_t",
    "_ZdaPvSt11align_val_tRKSt9nothrow_t",
};

const LtAllocFn *lt_alloc_fn(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  unsigned ml;
  const char *mark = mark_of(call, &ml);
  if (mark && ml > 5 && !strncmp(mark, "like=", 5)) {
    n = mark + 5;
    len = ml - 5;
  }
  for (size_t i = 0; i < sizeof alloc_fns / sizeof *alloc_fns; i++)
    if (name_is(n, len, alloc_fns[i].name) &&
        LLVMGetNumArgOperands(call) > (unsigned)alloc_fns[i].size_arg)
      return &alloc_fns[i];
  return NULL;
}

static int is_free_fn(const char *n, size_t len) {
  for (size_t i = 0; i < sizeof free_fns / sizeof *free_fns; i++)
    if (name_is(n, len, free_fns[i]))
      return 1;
  return 0;
}

/* A masked store or scatter of integers (the loop vectoriser's under
 * -mavx2: PartialPivLU's permutation indices 0..3) writes no floating
 * point: inactive, as a plain store of integers is. (Integers that carry a
 * float's bits are active values: activity.c refuses those.) */
int lt_masked_int_store(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  if (!len || (!has_prefix(n, len, "llvm.masked.store.") &&
               !has_prefix(n, len, "llvm.masked.scatter.")) ||
      LLVMGetNumArgOperands(call) < 1)
    return 0;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, 0));
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
         LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind;
}

int lt_is_copy_call(LLVMValueRef call) {
  size_t len;
  const LtRule *r;
  if (!LLVMIsACallInst(call))
    return 0;
  const char *n = lt_callee_name(call, &len);
  if (!has_prefix(n, len, "llvm.mem") && !has_prefix(n, len, "mem") &&
      !has_prefix(n, len, "__mem") && !lt_call_marked(call))
    return 0; /* no copy, and none by a mark: the long way for those */
  return lt_call_kind(call, &r) == LT_CALL_MEMCPY;
}

LtCallKind lt_call_kind(LLVMValueRef call, const LtRule **rule) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  *rule = NULL;
  unsigned ml;
  const char *mark = mark_of(call, &ml);
  /* the last branch of an indirect call's dispatcher (prep/indirect.c):
   * it runs as it is; where it is active, the check before it stops the
   * derivative at run time (activity.c arms it) */
  if (mark && ml == 8 && !strncmp(mark, "fallback", 8))
    return LT_CALL_INACTIVE;
  if (!len)
    return LT_CALL_UNKNOWN;
  if (mark) {
    if ((ml == 4 && !strncmp(mark, "diff", 4)) ||
        (ml == 8 && !strncmp(mark, "parallel", 8)))
      return LT_CALL_DIFF;
    if (ml == 6 && !strncmp(mark, "custom", 6))
      return LT_CALL_CUSTOM;
    if (ml == 8 && !strncmp(mark, "inactive", 8))
      return LT_CALL_INACTIVE;
    if (ml > 5 && !strncmp(mark, "like=", 5)) {
      n = mark + 5;
      len = ml - 5;
    }
  }
  if (has_prefix(n, len, "llvm.memcpy.") || has_prefix(n, len, "llvm.memmove.") ||
      name_is(n, len, "memcpy") || name_is(n, len, "memmove") ||
      name_is(n, len, "__memcpy_chk") || name_is(n, len, "__memmove_chk"))
    return LT_CALL_MEMCPY;
  if (has_prefix(n, len, "llvm.memset.") || name_is(n, len, "memset") ||
      name_is(n, len, "__memset_chk"))
    return LT_CALL_MEMSET;
  if (has_prefix(n, len, "__ubsan_handle_") || has_prefix(n, len, "__asan_") ||
      lt_is_iter_hint(call))
    return LT_CALL_INACTIVE;
  switch (lt_omp_kind(call, NULL)) {
  case LT_OMP_INERT:
    return LT_CALL_INACTIVE;
  case LT_OMP_BARRIER:
  case LT_OMP_TICKET:
  case LT_OMP_TICKET_END:
    return LT_CALL_SYNC;
  case LT_OMP_NONE:
    break;
  default:
    return LT_CALL_UNKNOWN; /* lowered by prep/omp.c, or unsupported */
  }
  switch (lt_mpi_call(call, NULL)) {
  case LT_MPI_NONE:
    break;
  case LT_MPI_INERT:
    return LT_CALL_INACTIVE;
  default:
    return LT_CALL_MPI;
  }
  /* a library routine: a function of the module with a BLAS name is the
   * user's own code, inlined and differentiated as written */
  LLVMValueRef callee = lt_called_fn(call);
  if (callee && LLVMIsDeclaration(callee))
    switch (lt_blas_call(call, NULL)) {
    case LT_BLAS_NONE:
      break;
    case LT_BLAS_INERT:
      return LT_CALL_INACTIVE;
    default:
      return LT_CALL_BLAS;
    }
  if (lt_alloc_fn(call))
    return LT_CALL_MALLOC;
  if (lt_is_link_call(call))
    return LT_CALL_LINK;
  if (is_free_fn(n, len))
    return LT_CALL_FREE;
  int is_div;
  if (lt_is_complex_call(call, &is_div))
    return LT_CALL_COMPLEX;
  if (lt_masked_int_store(call))
    return LT_CALL_INACTIVE;
  if ((*rule = lt_rules_find(n, len))) {
    /* A rule fits only calls of its arity on scalars (cabsf takes a
     * <2 x float> on x86-64, a vectorised sin takes vectors). */
    LLVMTypeRef t = LLVMTypeOf(call);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && !strncmp(n, "llvm.", 5))
      t = LLVMGetElementType(t); /* intrinsics work lane by lane */
    if (LLVMGetNumArgOperands(call) == (*rule)->nargs && lt_is_float_ty(t))
      return LT_CALL_RULE;
    *rule = NULL;
    return LT_CALL_UNKNOWN;
  }

  if (lt_rules_is_zero_derivative(n, len))
    return LT_CALL_ZERO;
  for (size_t i = 0; i < sizeof inactive_names / sizeof *inactive_names; i++)
    if (name_is(n, len, inactive_names[i]))
      return LT_CALL_INACTIVE;
  for (size_t i = 0; i < sizeof inactive_prefixes / sizeof *inactive_prefixes; i++)
    if (has_prefix(n, len, inactive_prefixes[i]))
      return LT_CALL_INACTIVE;
  for (size_t i = 0;
       i < sizeof inactive_intrinsics / sizeof *inactive_intrinsics; i++)
    if (has_prefix(n, len, inactive_intrinsics[i]))
      return LT_CALL_INACTIVE;
  return LT_CALL_UNKNOWN;
}
