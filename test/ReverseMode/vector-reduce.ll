; Vector reductions, as IR optimised before the pass leaves them (opt
; -passes=leantape on -O3 -ffast-math output: a vectorised sum and max):
; llvm.vector.reduce.fadd/fmul/fmax were "no derivative rule for
; 'llvm.vector.reduce.fadd.v4f64'". prep/reduce.c writes each out as the
; ordered chain of its lanes. Reverse and forward mode.
; f(x) = (0.5 + sum x^2) + max(x) prod(x) at x = (0.5, 1.5, -2, 3):
; df = 2x + p e3 + m p / x = (-26, -6, 2.75, -3); along (1, 1, 1, 1): -32.25.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll | FileCheck %s --check-prefix=OUT
; CHECK-NOT: call {{.*}}@__enzyme_
; CHECK-LABEL: define internal void @f.lt.grad(
; CHECK-NOT: llvm.vector.reduce
; CHECK: {{^}$}}
; OUT: reverse: -26 -6 2.75 -3
; OUT: forward: -32.25

declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)

define double @f(ptr %x) {
  %v = load <4 x double>, ptr %x, align 8
  %sq = fmul fast <4 x double> %v, %v
  %s = call reassoc double @llvm.vector.reduce.fadd.v4f64(double 0.5, <4 x double> %sq)
  %m = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
  %p = call reassoc double @llvm.vector.reduce.fmul.v4f64(double 1.0, <4 x double> %v)
  %mp = fmul double %m, %p
  %r = fadd double %s, %mp
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)
@rev = private constant [25 x i8] c"reverse: %g %g %g %g\0A\00\00\00\00"
@fwd = private constant [14 x i8] c"forward: %g\0A\00\00"

define i32 @main() {
  %x = alloca <4 x double>, align 32
  %dx = alloca <4 x double>, align 32
  store <4 x double> <double 0.5, double 1.5, double -2.0, double 3.0>, ptr %x
  store <4 x double> zeroinitializer, ptr %dx
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  %g = load <4 x double>, ptr %dx
  %g0 = extractelement <4 x double> %g, i32 0
  %g1 = extractelement <4 x double> %g, i32 1
  %g2 = extractelement <4 x double> %g, i32 2
  %g3 = extractelement <4 x double> %g, i32 3
  call i32 (ptr, ...) @printf(ptr @rev, double %g0, double %g1, double %g2, double %g3)
  store <4 x double> <double 1.0, double 1.0, double 1.0, double 1.0>, ptr %dx
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %x, ptr %dx)
  call i32 (ptr, ...) @printf(ptr @fwd, double %t)
  ret i32 0
}
