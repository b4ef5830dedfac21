/* cplx.c: adjoints of the complex multiply and divide runtime calls.
 *
 * clang lowers complex * and / (C _Complex, std::complex) to inline code
 * with a fallback call to __muldc3/__divdc3 (float: __mulsc3/__divsc3,
 * long double: __mulxc3/__divxc3, __float128: __multc3/__divtc3), taking
 * (a, b, c, d) for (a+bi) and (c+di) and returning the real and imaginary
 * parts as {T, T} or <2 x T>. For a holomorphic f with adjoint w of its
 * result, the adjoint of an argument z is conj(f'(z)) * w: for z*u that is
 * conj(u) w and conj(z) w; for q = z/u it is w / conj(u) and
 * -conj(q) (w / conj(u)). cabsf, which x86-64 passes a <2 x float>, has
 * the adjoint w z / |z|. Which calls these are: lt_is_complex_call
 * (analysis/calls.c).
 */
#include "lt.h"

#include <string.h>

static LLVMValueRef part(LtGen *g, LLVMValueRef v, unsigned k) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind)
    return LLVMBuildExtractElement(g->b, v, LLVMConstInt(g->c->i32, k, 0), "");
  return LLVMBuildExtractValue(g->b, v, k, "");
}

int lt_rev_complex(LtGen *g, LLVMValueRef call) {
  int is_div;
  if (!lt_is_complex_call(call, &is_div))
    return -1;
  LLVMBuilderRef b = g->b;
  LLVMValueRef w = lt_adj_read(g, call);
  if (is_div == 2) {
    LLVMValueRef z = lt_rv(g, LLVMGetOperand(call, 0)), y = lt_rv(g, call);
    LLVMValueRef s = LLVMBuildFDiv(b, w, y, ""); /* w / |z| */
    LLVMValueRef sv = LLVMBuildInsertElement(b, LLVMGetPoison(LLVMTypeOf(z)), s,
                                             LLVMConstInt(g->c->i32, 0, 0), "");
    sv = LLVMBuildInsertElement(b, sv, s, LLVMConstInt(g->c->i32, 1, 0), "");
    lt_adj_add(g, LLVMGetOperand(call, 0), LLVMBuildFMul(b, sv, z, ""));
    return 0;
  }
  LLVMValueRef wr = part(g, w, 0), wi = part(g, w, 1);
  LLVMValueRef x[4];
  for (unsigned k = 0; k < 4; k++)
    x[k] = lt_rv(g, LLVMGetOperand(call, k));
  LLVMValueRef a = x[0], bb = x[1], c = x[2], d = x[3];
  LLVMValueRef dz[2], du[2];
#define M(p, q) LLVMBuildFMul(b, p, q, "")
#define A(p, q) LLVMBuildFAdd(b, p, q, "")
#define S(p, q) LLVMBuildFSub(b, p, q, "")
  if (!is_div) {
    /* conj(c+di) w and conj(a+bi) w */
    dz[0] = A(M(c, wr), M(d, wi));
    dz[1] = S(M(c, wi), M(d, wr));
    du[0] = A(M(a, wr), M(bb, wi));
    du[1] = S(M(a, wi), M(bb, wr));
  } else {
    LLVMValueRef q = lt_rv(g, call);
    LLVMValueRef qr = part(g, q, 0), qi = part(g, q, 1);
    /* w / conj(u) = w u / |u|^2 */
    LLVMValueRef s = A(M(c, c), M(d, d));
    dz[0] = LLVMBuildFDiv(b, S(M(wr, c), M(wi, d)), s, "");
    dz[1] = LLVMBuildFDiv(b, A(M(wr, d), M(wi, c)), s, "");
    /* -conj(q) dz */
    du[0] = LLVMBuildFNeg(b, A(M(qr, dz[0]), M(qi, dz[1])), "");
    du[1] = LLVMBuildFNeg(b, S(M(qr, dz[1]), M(qi, dz[0])), "");
  }
#undef M
#undef A
#undef S
  lt_adj_add(g, LLVMGetOperand(call, 0), dz[0]);
  lt_adj_add(g, LLVMGetOperand(call, 1), dz[1]);
  lt_adj_add(g, LLVMGetOperand(call, 2), du[0]);
  lt_adj_add(g, LLVMGetOperand(call, 3), du[1]);
  return 0;
}
