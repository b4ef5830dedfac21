; Float vector lanes the primal never reads are poison after the SLP
; vectoriser: here a shuffle's mask element and the insertelement chain's
; base (fuzz --structvec -X seed 13905 at -O2, reduced). The reverse of
; %m = fmul %q, %s adds adj(%m) * %s into adj(%q) lane by lane: lane 1 of
; adj(%m) is 0 and lane 1 of %s is poison, so adj(%q)'s lane 1, where the
; shuffle's reverse put the real contribution of y, became poison and,
; once InstCombine folded it, the derivative w.r.t. y was 0 (silently; at
; -O0 nothing folds and it was right). prep/poison.c makes such lanes 1.0
; in the clone the plugin differentiates.
; (fails with the plugin of e5c367a: lli exits 1)
; f(y) = (y/(1+y^2)) * (c/(1+c^2)), c = 0.3 n: df/dy = (1-y^2)/(1+y^2)^2 * c/(1+c^2)
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s -o %t.ll
; RUN: %opt -passes=verify -disable-output %t.ll
; RUN: %opt -O2 -S %t.ll -o %t.O2.ll && lli %t.O2.ll

declare void @__enzyme_autodiff(...)
declare <2 x double> @llvm.fmuladd.v2f64(<2 x double>, <2 x double>, <2 x double>)
declare double @llvm.fabs.f64(double)

define double @f(ptr %y, i32 %n) {
  %a = load double, ptr %y, align 8
  %nf = sitofp i32 %n to double
  %c = fmul double %nf, 3.000000e-01
  %v0 = insertelement <2 x double> poison, double %c, i64 0
  %v = insertelement <2 x double> %v0, double %a, i64 1
  %den = call <2 x double> @llvm.fmuladd.v2f64(<2 x double> %v, <2 x double> %v, <2 x double> splat (double 1.000000e+00))
  %q = fdiv <2 x double> %v, %den
  %s = shufflevector <2 x double> %q, <2 x double> poison, <2 x i32> <i32 1, i32 poison>
  %m = fmul <2 x double> %q, %s
  %r = extractelement <2 x double> %m, i64 0
  ret double %r
}

; the clone's shuffle takes lane 1 from a vector of 1.0s
; CHECK-LABEL: define internal void @f.lt.grad(
; CHECK: shufflevector <2 x double> %q, <2 x double> <double 1.000000e+00, {{.*}}>, <2 x i32> <i32 1, i32 2>

@y = global double 0.5
@dy = global double 0.0

define i1 @near(double %a, double %b) {
  %d = fsub double %a, %b
  %ad = call double @llvm.fabs.f64(double %d)
  %ok = fcmp olt double %ad, 1.0e-12
  ret i1 %ok
}

define i32 @main() {
  call void (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr @y, ptr @dy, metadata !"enzyme_const", i32 2)
  ; y = 0.5, c = 0.6: (1 - 0.25)/(1.25^2) * 0.6/1.36 = 0.48 * 0.441176470588... = 0.211764705882353
  %g = load double, ptr @dy
  %ok = call i1 @near(double %g, double 0x3FCB1B1B1B1B1B1A)
  %r = select i1 %ok, i32 0, i32 1
  ret i32 %r
}
