/* writes.c: what an instruction writes.
 *
 * lt_writes_of gives the addresses an instruction may write (a store's,
 * a memory transfer's destination, a rule's output arguments, a BLAS
 * routine's output matrix or vector, LAPACK's pivots and info), or
 * LT_CLOBBER for memory it cannot name; a call by its kind, its memory
 * effects, or, for a function defined in the module, its body:
 *
 * Defined functions that write no memory their callers can see.
 * A call of a function defined in the module (a callee kept as a call)
 * counts as writing everything unless its attributes say otherwise, and
 * at -O0 nothing has inferred them. This looks at the body: stores and
 * memory transfers into the function's own stack or new allocations are
 * invisible to its callers; so are calls of math functions, of functions
 * whose attributes say they write nothing, and of defined functions that
 * are clean by the same test (recursively; a function being looked at
 * counts as clean while its callees are, so recursion is clean unless
 * something in the cycle writes). A write conclusion is final at once; a
 * clean one only when the outermost query finishes clean (it may rest on
 * assumptions about functions still being looked at). Memoized in
 * c->purity.
 */
#include "lt.h"

#include <string.h>

enum { UNKNOWN, WRITES, CLEAN, BUSY };

/* memory the function made itself: its stack or a new allocation */
static int own_memory(LLVMValueRef p) {
  const LtRule *r;
  LLVMValueRef b = lt_base_of(p);
  return LLVMIsAAllocaInst(b) || (LLVMIsACallInst(b) && lt_call_kind(b, &r) == LT_CALL_MALLOC &&
                                  lt_alloc_fn(b)->old_arg < 0);
}

static int visit(LtCtx *c, LLVMValueRef f, LtVec *seen);

/* glibc's lgamma, lgammaf, lgammal and their old names gamma, gammaf,
 * gammal write the sign of the gamma function to the global signgam and
 * nothing else (errno aside, which no load of the program names); LLVM
 * gives them no memory effects, so without this a call of lgamma counted
 * as writing everything, and every load before it was taped (GradBench's
 * gmm: its Wishart prior's lgamma, after the main loops, taped 18.6 MB).
 * The write is to signgam when the calling function loads it, or its
 * address is taken anywhere in the module (a pointer may reach it), else
 * to nothing the function can read. Enzyme too treats lgamma as a math
 * function of its argument alone. lgamma_r writes its pointer argument:
 * not this. Returns 1 for the family, with *sg set. */
static int lgamma_call(LLVMValueRef i, LLVMValueRef *sg) {
  size_t len;
  const char *n = lt_callee_name(i, &len);
  static const char *names[] = {"lgamma", "lgammaf", "lgammal", "gamma", "gammaf", "gammal"};
  /* the C library's: declared here (a program's own gamma(double *v),
   * defined in the module, writes what it writes: a helper's campaign
   * found one taken for glibc's, a wrong gradient), of a float, to a
   * float */
  LLVMValueRef f = LLVMGetCalledValue(i);
  if (!f || !LLVMIsAFunction(f) || !LLVMIsDeclaration(f) || LLVMGetNumArgOperands(i) != 1 ||
      !lt_is_float_ty(LLVMTypeOf(LLVMGetOperand(i, 0))) || !lt_is_float_ty(LLVMTypeOf(i)))
    return 0;
  for (unsigned k = 0; k < sizeof names / sizeof *names; k++)
    if (len == strlen(names[k]) && !strncmp(n, names[k], len)) {
      LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(i));
      LLVMValueRef g = LLVMGetNamedGlobal(LLVMGetGlobalParent(fn), "signgam");
      *sg = NULL;
      for (LLVMUseRef u = g ? LLVMGetFirstUse(g) : NULL; u && !*sg; u = LLVMGetNextUse(u)) {
        LLVMValueRef w = LLVMGetUser(u);
        if (!LLVMIsALoadInst(w) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(w)) == fn)
          *sg = g;
      }
      return 1;
    }
  return 0;
}

/* An OpenMP runtime call writes what its pointer arguments address (a
 * worksharing loop's bounds), never the program's other memory: up to 4
 * of them into out, or -1 for other calls. Synchronisation (barriers,
 * critical sections and their tickets) writes only the runtime's locks
 * and Leantape's turn counters, which the program never reads: nothing. */
static int omp_writes(LLVMValueRef i, LLVMValueRef *out) {
  LtOmpKind k = lt_omp_kind(i, NULL);
  if (k == LT_OMP_BARRIER || k == LT_OMP_CRITICAL || k == LT_OMP_END_CRITICAL ||
      k == LT_OMP_TICKET || k == LT_OMP_TICKET_END)
    return 0;
  if (k != LT_OMP_INERT)
    return -1;
  int n = 0;
  /* operand 0 of __kmpc_* is the source location, read only */
  size_t len;
  const char *name = lt_callee_name(i, &len);
  for (unsigned a = strncmp(name, "omp_", 4) ? 1 : 0, na = LLVMGetNumArgOperands(i); a < na; a++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a)))) {
      if (n == 4)
        return -1;
      out[n++] = LLVMGetOperand(i, a);
    }
  return n;
}

static int call_writes(LtCtx *c, LLVMValueRef i, LtVec *seen) {
  const LtRule *rule;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  LLVMValueRef ow[4], sg;
  if (lgamma_call(i, &sg))
    return sg != NULL;
  int now = omp_writes(i, ow);
  if (now >= 0) {
    for (int a = 0; a < now; a++)
      if (!own_memory(ow[a]))
        return 1;
    return 0;
  }
  switch (lt_call_kind(i, &rule)) {
  case LT_CALL_RULE:
    for (unsigned a = 0, na = LLVMGetNumArgOperands(i); rule->writes_arg && a < na; a++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))) && !own_memory(LLVMGetOperand(i, a)))
        return 1;
    return 0;
  case LT_CALL_MALLOC: {
    const LtAllocFn *af = lt_alloc_fn(i);
    return af->old_arg >= 0 ||
           (af->out_arg >= 0 && !own_memory(LLVMGetOperand(i, (unsigned)af->out_arg)));
  }
  case LT_CALL_ZERO:
  case LT_CALL_COMPLEX:
    return 0;
  case LT_CALL_BLAS: {
    LtBlasCall d;
    int o[2];
    if (lt_blas_call(i, &d) == LT_BLAS_UNSUPPORTED)
      break;
    for (unsigned k = 0, no = lt_blas_outputs(&d, o); k < no; k++)
      if (!own_memory(LLVMGetOperand(i, (unsigned)o[k])))
        return 1;
    for (unsigned k = 0, no = lt_blas_int_outputs(&d, o); k < no; k++)
      if (!own_memory(LLVMGetOperand(i, (unsigned)o[k])))
        return 1;
    return 0;
  }
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
    return !own_memory(LLVMGetOperand(i, 0));
  case LT_CALL_FREE:
    return 1;
  case LT_CALL_INACTIVE:
    if (lt_masked_int_store(i)) /* a store, of integers: a scatter's addresses are a vector */
      return strncmp(n, "llvm.masked.store.", 18) || !own_memory(LLVMGetOperand(i, 1));
    if (len > 5 && !strncmp(n, "llvm.", 5))
      return 0;
    break;
  default:
    break;
  }
  LLVMValueRef f = LLVMGetCalledValue(i);
  if (f && LLVMIsAFunction(f) && !LLVMIsDeclaration(f))
    return visit(c, f, seen);
  return lt_call_writes(c, i) != 0;
}

static int visit(LtCtx *c, LLVMValueRef f, LtVec *seen) {
  size_t m = (size_t)lt_map_get(&c->purity, f);
  if (m != UNKNOWN)
    return m == WRITES;
  lt_map_put(&c->purity, f, (void *)(size_t)BUSY);
  lt_vec_push(seen, f);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int w = 0;
      switch (LLVMGetInstructionOpcode(i)) {
      case LLVMStore:
        w = LLVMGetVolatile(i) || !own_memory(LLVMGetOperand(i, 1));
        break;
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg:
      case LLVMFence:
      case LLVMVAArg:
        w = 1;
        break;
      case LLVMCall:
      case LLVMInvoke:
        w = call_writes(c, i, seen);
        break;
      default:
        break;
      }
      if (w) {
        lt_map_put(&c->purity, f, (void *)(size_t)WRITES);
        return 1;
      }
    }
  return 0;
}

int lt_fn_writes(LtCtx *c, LLVMValueRef f) {
  LtVec seen = {0};
  int w = visit(c, f, &seen);
  for (size_t k = 0; k < seen.n; k++)
    if ((size_t)lt_map_get(&c->purity, seen.v[k]) == BUSY)
      lt_map_put(&c->purity, seen.v[k], (void *)(size_t)(w ? UNKNOWN : CLEAN));
  lt_vec_free(&seen);
  return w;
}

#define CLOBBER LT_CLOBBER

/* Any other call, by its memory effects (plugin.cpp) or, for a defined
 * function, its body (above): nothing, its pointer arguments' memory
 * (up to 4), or anything. */
static LLVMValueRef effects(LtCtx *c, LLVMValueRef i, unsigned *nextra, LLVMValueRef *extra) {
  int w = lt_call_writes(c, i);
  LLVMValueRef f = LLVMGetCalledValue(i);
  if (w == 0 || (w == 2 && f && LLVMIsAFunction(f) && !LLVMIsDeclaration(f) && !lt_fn_writes(c, f)))
    return NULL;
  if (w == 1) {
    for (unsigned a = 0, na = LLVMGetNumArgOperands(i); a < na; a++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a)))) {
        if (*nextra == 4)
          return CLOBBER;
        extra[(*nextra)++] = LLVMGetOperand(i, a);
      }
    return NULL;
  }
  return CLOBBER;
}

static LLVMValueRef call_write(LtCtx *c, LLVMValueRef i, unsigned *nextra,
                               LLVMValueRef *extra) {
  const LtRule *rule;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  *nextra = 0;
  LLVMValueRef sg;
  if (lgamma_call(i, &sg))
    return sg;
  int now = omp_writes(i, extra);
  if (now >= 0) {
    *nextra = (unsigned)now;
    return NULL;
  }
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
  case LT_CALL_BLAS: {
    /* a routine with a rule writes its output operands only (BLAS
     * forbids outputs that overlap inputs); others by their effects */
    LtBlasCall d;
    int o[2];
    if (lt_blas_call(i, &d) == LT_BLAS_UNSUPPORTED)
      return effects(c, i, nextra, extra);
    for (unsigned k = 0, no = lt_blas_outputs(&d, o); k < no; k++)
      extra[(*nextra)++] = LLVMGetOperand(i, (unsigned)o[k]);
    for (unsigned k = 0, no = lt_blas_int_outputs(&d, o); k < no; k++)
      extra[(*nextra)++] = LLVMGetOperand(i, (unsigned)o[k]);
    return NULL;
  }
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
  case LT_CALL_FREE:
    return LLVMGetOperand(i, 0);
  case LT_CALL_INACTIVE:
    if (lt_masked_int_store(i))
      return strncmp(n, "llvm.masked.store.", 18) ? LT_CLOBBER : LLVMGetOperand(i, 1);
    if (len > 14 && !strncmp(n, "llvm.lifetime.", 14))
      return LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1);
    return strstr(n, "printf") == NULL && strncmp(n, "llvm.", 5) &&
                   strcmp(n, "puts") && strcmp(n, "putchar")
               ? effects(c, i, nextra, extra)
               : NULL;
  default:
    return effects(c, i, nextra, extra);
  }
}

unsigned lt_writes_of(LtCtx *c, LLVMValueRef i, LLVMValueRef *out) {
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
  LLVMValueRef w = call_write(c, i, &n, out + 1);
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
