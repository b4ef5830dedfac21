; A vector constant with a poison lane, as InstCombine leaves it where the
; lane's result is unused (Eigen with -mavx2 -mfma at -O2, fuzz --eigen
; seed 1040095): `fmul <2 x double> %v, <3.0, poison>`, lane 0 splatted.
; The adjoint of %v's lane 1 through it is zero times poison: poison,
; which the optimiser may make anything (dy[6] was 0.448 for 0.428). R
; uses the constant with 1.0 in its poison lanes (gen/materialize.c).
; f(x) = 3 x0 + 3 x0 + x1^2: df/dx0 = 6, df/dx1 = 2 x1; g the same with
; x0 / 4 (a poison divisor lane: its value must not be 0, or the unused
; lane's adjoint would be 0 / 0, NaN).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes='leantape,default<O2>' -S %s -o %t.ll && lli %t.ll
; CHECK-LABEL: define internal {{.*}} @f.lt.grad(
; CHECK: fmul <2 x double> %{{[0-9]+}}, <double 3.000000e+00, double 1.000000e+00>
; CHECK: {{^}$}}
define double @f(ptr %x) {
  %v = load <2 x double>, ptr %x, align 8
  %m = fmul <2 x double> %v, <double 3.000000e+00, double poison>
  %s = shufflevector <2 x double> %m, <2 x double> poison, <2 x i32> zeroinitializer
  %a = extractelement <2 x double> %s, i64 0
  %b = extractelement <2 x double> %s, i64 1
  %x1 = extractelement <2 x double> %v, i64 1
  %q = fmul double %x1, %x1
  %ab = fadd double %a, %b
  %r = fadd double %ab, %q
  ret double %r
}

define double @g(ptr %x) {
  %v = load <2 x double>, ptr %x, align 8
  %m = fdiv <2 x double> %v, <double 4.000000e+00, double poison>
  %s = shufflevector <2 x double> %m, <2 x double> poison, <2 x i32> zeroinitializer
  %a = extractelement <2 x double> %s, i64 0
  %b = extractelement <2 x double> %s, i64 1
  %x1 = extractelement <2 x double> %v, i64 1
  %q = fmul double %x1, %x1
  %ab = fadd double %a, %b
  %r = fadd double %ab, %q
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [16 x i8] c"dx %.17g %.17g\0A\00"

define i32 @main() {
  %x = alloca [2 x double], align 16
  %dx = alloca [2 x double], align 16
  store <2 x double> <double 0.5, double 1.5>, ptr %x, align 16
  store <2 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  %g0 = load double, ptr %dx
  %d1p = getelementptr inbounds double, ptr %dx, i64 1
  %g1 = load double, ptr %d1p
  call i32 (ptr, ...) @printf(ptr @fmt, double %g0, double %g1)
  %ok0 = fcmp oeq double %g0, 6.0
  %ok1 = fcmp oeq double %g1, 3.0
  %ok = and i1 %ok0, %ok1
  store <2 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %x, ptr %dx)
  %h0 = load double, ptr %dx
  %h1 = load double, ptr %d1p
  call i32 (ptr, ...) @printf(ptr @fmt, double %h0, double %h1)
  %ok2 = fcmp oeq double %h0, 0.5
  %ok3 = fcmp oeq double %h1, 3.0
  %okg = and i1 %ok2, %ok3
  %all = and i1 %ok, %okg
  %r = select i1 %all, i32 0, i32 1
  ret i32 %r
}
