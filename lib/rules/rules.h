/* rules.h: the derivative-rule table for scalar math calls.
 *
 * A rule maps a call (an LLVM intrinsic such as llvm.sin.f64 or a libm name
 * such as sin/sinf) to code that computes the adjoints of its arguments
 * from the primal arguments, optionally the primal result, and the adjoint
 * of the result. Rules only build IR at the given builder; they never look
 * at the surrounding function. Included by lt.h.
 */
#ifndef LT_RULES_H
#define LT_RULES_H

#include <llvm-c/Core.h>

#define LT_RULE_MAXARGS 3

typedef struct LtRuleIn {
  LLVMBuilderRef b;     /* positioned where the adjoint code goes */
  LLVMModuleRef mod;    /* for intrinsic / libm declarations */
  LLVMTypeRef fty;      /* the floating type of the call's result */
  unsigned nargs;       /* number of call arguments */
  LLVMValueRef x[LT_RULE_MAXARGS]; /* primal arguments, valid at b */
  LLVMValueRef y;       /* primal result, valid at b; NULL unless needs_result */
  LLVMValueRef dy;      /* adjoint of the result (type fty) */
} LtRuleIn;

typedef struct LtRule {
  const char *name;     /* canonical name: "sin", "pow", "fmuladd", ... */
  unsigned nargs;       /* call arguments */
  unsigned active_mask; /* bit k set: argument k may carry a derivative */
  int needs_result;     /* the rule reads in->y */
  /* Fill dx[k] with the adjoint contribution to argument k (type of that
   * argument), or NULL when there is none. Returns 0 on success. */
  int (*adjoint)(const LtRuleIn *in, LLVMValueRef dx[LT_RULE_MAXARGS]);
  int writes_arg;       /* stores through a pointer argument (frexp): not
                           pure, never recomputed */
} LtRule;

/* rules.c */
/* Rule for a callee name (intrinsic "llvm.sin.f64" or libm "sin"/"sinf"),
 * or NULL when there is none. */
const LtRule *lt_rules_find(const char *callee, size_t len);
/* Zero-derivative functions (floor, ceil, round, trunc, rint, ...): the
 * call is kept in the forward pass and its result has no adjoint. */
int lt_rules_is_zero_derivative(const char *callee, size_t len);
/* Does a call of f touch no memory but errno? memory(none); on LLVM 21
 * and later memory(errnomem: ...), which clang gives libm functions
 * without -fno-math-errno; on LLVM 19, which has no errno location and
 * marks them memory(write), a declared libm function of the rule table
 * that writes through no argument (not frexp). */
int lt_rules_errno_only(LLVMValueRef f);
/* x / y in derivative arithmetic (the rules', R's adjoint of a division):
 * arcp, so that a division by a constant becomes a product by its
 * reciprocal, as in Enzyme, whose reverse pass builds its arithmetic with
 * every fast-math flag (getFast(), Utils.h): the divide's latency stays out
 * of a reverse recurrence (Gauss-Seidel's d_j = (x_j + d_(j+1)) / 9). Not
 * for values the program computes, which A and R must agree on. */
LLVMValueRef lt_adj_div(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y);

#endif
