/* ompcheck.c: functions over plain pointers, versioned at run time.
 *
 * Inside a parallel region, what the analysis cannot tell apart costs
 * most: an adjoint added into a location another thread may add to is
 * atomic, and a read-only array that another pointer may write gets no
 * per-thread buffer (gen/ompsync.c). With restrict pointers the caller knows
 * the arrays apart (LT_PF_DISTINCT); with plain ones, which most programs
 * pass, it does not, although the arrays are almost always apart. So a
 * region whose arguments are not known apart gets a second derivative that
 * assumes they are (LT_PF_CHECK: DISTINCT, checked by the caller), and
 * the caller picks one at run time with a test built here, as LLVM's loop
 * versioning does for vectorised loops: the bytes the whole team may
 * touch through each such pointer (range.c, with a worksharing loop's
 * counter over the iterations the team divides) are disjoint from those
 * touched through every other pointer argument.
 *
 * The test exists only when every access of the region has a range
 * computable where the region starts: its base is one of the region's own
 * allocas, a parameter the caller already knows apart, or a pointer
 * parameter whose accesses are affine in counters of loops with known
 * trip counts; no call receives or stores such a parameter's memory (the
 * OpenMP runtime's own calls receive allocas, and the locks of critical
 * sections and reductions, which are not data). Otherwise no second
 * derivative is built.
 *
 * The same test versions a gradient's serial function (gen/version.c):
 * there every parameter is the caller's (first = 0), where a region's
 * first two are the runtime's thread ids (first = 2).
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parameter index of v, an argument of P, or -1. */
static int param_of(const LtFacts *f, LLVMValueRef v) {
  if (!LLVMIsAArgument(v))
    return -1;
  for (unsigned p = 0; p < f->nparams; p++)
    if (LLVMGetParam(f->P, p) == v)
      return (int)p;
  return -1;
}

/* May memory reached from v, the base of an access, of a pointer given to
 * a call or of a stored pointer, be a checked parameter's, unseen by the
 * test? Not when v is an alloca of the region (the stores of checked
 * pointers into memory are refused), a constant global (OpenMP's source
 * locations), or a parameter the caller knows apart. A checked parameter
 * itself is opaque here: its accesses are grouped before asking. */
static int opaque_use(const LtFacts *f, const unsigned char *pflags, int first,
                      LLVMValueRef v) {
  int p = param_of(f, v);
  if (p >= 0) /* the runtime's thread ids, or a parameter known apart */
    return p >= first && !(pflags[p] & LT_PF_DISTINCT);
  if (LLVMIsAAllocaInst(v))
    return 0;
  if (LLVMIsAGlobalVariable(v) && LLVMIsGlobalConstant(v))
    return 0;
  const LtRule *r;
  if (LLVMIsACallInst(v) && lt_call_kind(v, &r) == LT_CALL_MALLOC)
    return 0; /* the region's own allocation */
  return !LLVMIsAConstantPointerNull(v) && !LLVMIsAFunction(v);
}

/* Is call one of the runtime's critical sections or reductions (with
 * prep/omp.c's tickets)? Their global operands are the lock and the
 * ticket counter beside it: the runtime's own words, never memory the
 * derivative reads or adds to, so they do not defeat the test. The
 * reduction's other operands are allocas (the list of private copies) and
 * a function, which opaque_use accepts. */
static int is_sync(LLVMValueRef call) {
  switch (lt_omp_kind(call, NULL)) {
  case LT_OMP_CRITICAL:
  case LT_OMP_END_CRITICAL:
  case LT_OMP_REDUCE:
  case LT_OMP_REDUCE_BARRIER:
  case LT_OMP_END_REDUCE:
  case LT_OMP_END_REDUCE_BARRIER:
  case LT_OMP_TICKET:
  case LT_OMP_TICKET_END:
    return 1;
  default:
    return 0;
  }
}

/* memset, memcpy, memmove: accesses of their pointer operands' memory
 * over their length */
static int mem_intrinsic(LLVMValueRef call) {
  size_t len;
  const char *nm = lt_callee_name(call, &len);
  return LLVMGetNumArgOperands(call) >= 3 &&
         (!strncmp(nm, "llvm.memcpy", 11) || !strncmp(nm, "llvm.memmove", 12) ||
          !strncmp(nm, "llvm.memset", 11));
}

/* Sort the accesses into groups[p] (inst, addr pairs) per checked
 * parameter p; 0 when some access or call defeats the test. */
static int collect(const LtFacts *f, const unsigned char *pflags, int first, LtVec *groups) {
  for (unsigned b = 0; b < f->g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(f->g->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef a = lt_access_addr(i);
      if (a) {
        LLVMValueRef base = lt_base_of(a);
        int p = param_of(f, base);
        if (p >= first && (pflags[p] & LT_PF_CHECK)) {
          lt_vec_push(&groups[p], i);
          lt_vec_push(&groups[p], a);
        } else if (opaque_use(f, pflags, first, base)) {
          return 0; /* a loaded pointer, a global, ...: anything */
        }
        /* a stored pointer escapes */
        if (LLVMIsAStoreInst(i) && lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, 0))) &&
            opaque_use(f, pflags, first, lt_base_of(LLVMGetOperand(i, 0))))
          return 0;
        continue;
      }
      if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) {
        unsigned n = LLVMGetNumArgOperands(i);
        int sync = is_sync(i), mem = mem_intrinsic(i);
        for (unsigned k = 0; k < n; k++) {
          LLVMValueRef op = LLVMGetOperand(i, k);
          if (sync && LLVMIsAGlobalVariable(op))
            continue; /* a lock or its ticket counter */
          int p = mem && k < 2 ? param_of(f, lt_base_of(op)) : -1;
          if (p >= first && (pflags[p] & LT_PF_CHECK)) {
            lt_vec_push(&groups[p], i); /* its length bounds it (range.c) */
            lt_vec_push(&groups[p], op);
            continue;
          }
          if (lt_is_ptr_ty(LLVMTypeOf(op)) &&
              opaque_use(f, pflags, first, lt_base_of(op)))
            return 0;
        }
        continue;
      }
      /* a pointer made from an integer, or selected among others, is
       * fine until it is accessed (then its base is not a parameter) */
    }
  return 1;
}

LLVMValueRef lt_omp_check_build(LtCtx *c, const LtFacts *f, const unsigned char *pflags,
                                unsigned first, const char *base) {
  LtVec *groups = lt_xcalloc(f->nparams + 1, sizeof *groups);
  int ok = collect(f, pflags, (int)first, groups);
  /* every pair of groups, one of them checked: computable */
  for (unsigned p = first; ok && p < f->nparams; p++)
    for (unsigned q = p + 1; ok && q < f->nparams; q++)
      if (groups[p].n && groups[q].n)
        ok = lt_range_overlap_team(f, NULL, NULL, (LLVMValueRef *)groups[p].v, groups[p].n,
                                   (LLVMValueRef *)groups[q].v, groups[q].n, 1) != NULL;
  LLVMValueRef fn = NULL;
  if (ok) {
    char name[300];
    snprintf(name, sizeof name, "%s.lt.apart", base);
    LLVMTypeRef ft = LLVMGlobalGetValueType(f->P);
    unsigned np = LLVMCountParamTypes(ft);
    LLVMTypeRef pt[np + 1];
    LLVMGetParamTypes(ft, pt);
    fn = LLVMAddFunction(c->mod, name, LLVMFunctionType(c->i1, pt, np, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->llctx, fn, "entry"));
    LLVMValueRef any = LLVMConstInt(c->i1, 0, 0);
    for (unsigned p = first; p < f->nparams; p++)
      for (unsigned q = p + 1; q < f->nparams; q++)
        if (groups[p].n && groups[q].n)
          any = LLVMBuildOr(b, any,
                            lt_range_overlap_team(f, fn, b, (LLVMValueRef *)groups[p].v,
                                                  groups[p].n, (LLVMValueRef *)groups[q].v,
                                                  groups[q].n, 1),
                            "");
    LLVMBuildRet(b, LLVMBuildNot(b, any, "lt.apart"));
    LLVMDisposeBuilder(b);
  }
  for (unsigned p = 0; p < f->nparams; p++)
    lt_vec_free(&groups[p]);
  free(groups);
  return fn;
}
