/* version.c: gradients over plain pointers, versioned at run time.
 *
 * Most programs pass plain pointers, which may alias as far as the
 * compiler knows, and are almost always apart. A reverse loop that adds
 * into the shadow of one array while it reads another then keeps every
 * access in order, and LLVM's vectoriser gives up on the sums into one
 * location (gemm's dA[i][k] += dC[i][j] B[k][j] over j); with restrict the
 * same gradient takes a third of the time. So an __enzyme_autodiff
 * request whose function has pointer parameters without restrict gets a
 * second derivative that takes all of them apart (LT_PF_CHECK: the
 * analyses see them DISTINCT, scopes.c gives every shadow a scope of its
 * own), and the call runs it when a run-time test says the bytes the
 * function touches through each pointer are disjoint from those through
 * every other (ompcheck.c: the ranges of affine accesses over loops whose
 * trip counts are known at entry, as LLVM's loop versioning does). The
 * test runs twice, on the primal pointers and on the shadows in their
 * places: shadows usually alias as their primals do (Enzyme's
 * convention), but a caller may pass one gradient buffer for two inputs,
 * and the apart version must then not run.
 *
 * Only where it pays: optimised compiles (at -O0 nothing vectorises),
 * functions with loops, combined mode (split mode's two halves share one
 * tape layout), and when the test can be built at all, which the first derivative's analysis
 * finds out (derive.c, LtDeriv.apart_test), so that a function no test
 * can bound costs no second derivative; otherwise the request's one
 * derivative is all there is. The second derivative's remarks are not
 * repeated, and its errors, had it any, would be dropped with it.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>

static int noalias_attr(LLVMValueRef fn, unsigned p) {
  return LLVMGetEnumAttributeAtIndex(fn, p + 1,
                                     LLVMGetEnumAttributeKindForName("noalias", 7)) != NULL;
}

/* NULL when versioning cannot pay: fewer than two pointers, or all of
 * them restrict already. */
unsigned char *lt_version_flags(LtCtx *c, const LtRequest *r) {
  if (r->mode != LT_AUTODIFF || r->pflags || c->opt_level == 0)
    return NULL;
  unsigned nptr = 0, plain = 0;
  for (unsigned p = 0; p < r->nparams; p++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(r->fn, p)))) {
      nptr++;
      plain += !noalias_attr(r->fn, p);
      if (r->act[p] == LT_DUPNULL)
        return NULL;
    }
  if (nptr < 2 || !plain)
    return NULL;
  return lt_check_pointers(r);
}

unsigned char *lt_check_pointers(const LtRequest *r) {
  unsigned char *f = lt_xcalloc(r->nparams + 1, 1);
  for (unsigned p = 0; p < r->nparams; p++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(r->fn, p))))
      f[p] = LT_PF_CHECK;
  return f;
}

/* <f>.lt.grad.v(grad's parameters): the apart derivative's gradient when
 * apart(primals) and apart(shadows in the primals' places), else the
 * general one's. */
static LLVMValueRef dispatcher(LtCtx *c, const LtRequest *r, const LtDeriv *d,
                               const LtDeriv *d2) {
  char name[300];
  snprintf(name, sizeof name, "%s.v", LLVMGetValueName2(d->grad, &(size_t){0}));
  LLVMTypeRef ft = LLVMGlobalGetValueType(d->grad);
  LLVMValueRef fn = LLVMAddFunction(c->mod, name, ft);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  unsigned n = LLVMCountParams(fn), np = r->nparams;
  LLVMValueRef *all = lt_xcalloc(n + 1, sizeof *all), *pa = lt_xcalloc(np + 1, sizeof *pa),
               *sa = lt_xcalloc(np + 1, sizeof *sa);
  for (unsigned k = 0; k < n; k++)
    all[k] = LLVMGetParam(fn, k);
  /* grad's parameters: P's, then the shadows of the dup ones in order */
  for (unsigned p = 0, s = np; p < np; p++) {
    pa[p] = sa[p] = all[p];
    if (lt_is_dup(r->act[p]) && s < n)
      sa[p] = all[s++];
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, fn, "entry"),
                    fast = LLVMAppendBasicBlockInContext(c->llctx, fn, "apart"),
                    slow = LLVMAppendBasicBlockInContext(c->llctx, fn, "general");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMTypeRef tt = LLVMGlobalGetValueType(d->apart_test);
  LLVMValueRef t1 = LLVMBuildCall2(b, tt, d->apart_test, pa, np, "");
  LLVMValueRef t2 = LLVMBuildCall2(b, tt, d->apart_test, sa, np, "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, t1, t2, "lt.apart"), fast, slow);
  const LtDeriv *pick[2] = {d2, d};
  LLVMBasicBlockRef at[2] = {fast, slow};
  for (int k = 0; k < 2; k++) {
    LLVMPositionBuilderAtEnd(b, at[k]);
    LLVMValueRef v = LLVMBuildCall2(b, ft, pick[k]->grad, all, n, "");
    if (LLVMGetTypeKind(LLVMGetReturnType(ft)) == LLVMVoidTypeKind)
      LLVMBuildRetVoid(b);
    else
      LLVMBuildRet(b, v);
  }
  LLVMDisposeBuilder(b);
  free(all);
  free(pa);
  free(sa);
  return fn;
}

LtDeriv *lt_derive_versioned(LtCtx *c, const LtRequest *r) {
  LtDeriv *d = lt_derive(c, r);
  if (!d || d->versioned || !d->apart_test)
    return d;
  d->versioned = 1;
  unsigned char *flags = lt_version_flags(c, r);
  LtRequest r2 = *r;
  r2.pflags = flags;
  /* its diagnostics are d's again, or, where d's analysis was less sure,
   * nothing a user must see: dropped with the derivative */
  size_t ndiag = c->diags.n;
  int nerr = c->nerrors;
  c->quiet++;
  LtDeriv *d2 = lt_derive(c, &r2);
  c->quiet--;
  free(flags);
  if (c->diags.n > ndiag) {
    lt_diag_drop(c, ndiag);
    c->nerrors = nerr;
    d2 = NULL;
  }
  if (d2 && d2->apart)
    lt_bury(c, d2->apart); /* d's test is the same */
  if (!d2 || !d2->apart || !d2->grad) {
    lt_bury(c, d->apart_test);
    return d;
  }
  /* what the test shows, as LLVM's own analyses read it: in the apart
   * gradient no pointer parameter's bytes are another's (shadows are
   * never primal memory: Enzyme's convention) */
  unsigned na = LLVMCountParams(d2->grad);
  for (unsigned k = 0; k < na; k++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(d2->grad, k))))
      LLVMAddAttributeAtIndex(d2->grad, k + 1,
                              LLVMCreateEnumAttribute(c->llctx,
                                                      LLVMGetEnumAttributeKindForName("noalias", 7), 0));
  d->grad = dispatcher(c, r, d, d2);
  char msg[300];
  snprintf(msg, sizeof msg,
           "the gradient of '%s' has a second version for pointer arguments "
           "apart (and their shadows), chosen at run time",
           LLVMGetValueName2(r->fn, &(size_t){0}));
  lt_remark_emit(c, r->call, "leantape", "Versioned", msg);
  return d;
}
