; enzyme_dup and enzyme_const on pointer arguments: only the dup array
; gets a gradient; the const array is read but has no shadow.
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s --check-prefix=NOCALL
; lli is that of the plugin's LLVM (lit puts its bin directory first on PATH).
; FileCheck: the call site and the shape of the generated gradient (below);
; lli: main returns 1 on a mismatch with the hand-computed analytic gradient.
; NOCALL-NOT: call {{.*}}@__enzyme_autodiff

; f(a, b) = a0 b0 + a1^2 b1 + sin(a0), a dup, b const
; a = [0.5, -2], b = [3, 0.25], da = [1, 1]
;   da0 = 1 + b0 + cos(a0) = 4 + cos(0.5) = 4.8775825618903728
;   da1 = 1 + 2 a1 b1      = 1 - 1        = 0
; b is unchanged.

define double @f(ptr %a, ptr %b) {
entry:
  %a0 = load double, ptr %a
  %pa1 = getelementptr inbounds double, ptr %a, i64 1
  %a1 = load double, ptr %pa1
  %b0 = load double, ptr %b
  %pb1 = getelementptr inbounds double, ptr %b, i64 1
  %b1 = load double, ptr %pb1
  %t0 = fmul double %a0, %b0
  %sq = fmul double %a1, %a1
  %t1 = fmul double %sq, %b1
  %s = call double @llvm.sin.f64(double %a0)
  %u = fadd double %t0, %t1
  %r = fadd double %u, %s
  ret double %r
}

; Only a has a shadow: the gradient takes a, b, da and the seed, accumulates
; into da[0] and da[1] (load, add, store), reads b, and writes neither a nor b.
; CHECK-LABEL: define double @test(ptr %a, ptr %da, ptr %b)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @f.lt.grad(ptr %a, ptr %b, ptr %da, double 1.000000e+00)
; CHECK-LABEL: define internal void @f.lt.grad(ptr %a, ptr %b, ptr %0, double %1)
; CHECK-NOT:     {{alloca|store}}
; CHECK:         [[B0:%.+]] = load double, ptr %b
; CHECK-NOT:     {{alloca|store}}
; CHECK:         [[DA1:%.+]] = getelementptr i8, ptr %0, i64 8
; CHECK-NOT:     {{alloca|store}}
; CHECK:         call double @llvm.cos.f64(double %a0)
; CHECK-NOT:     {{alloca|store}}
; CHECK:         [[D0:%.+]] = load double, ptr %0
; CHECK-NEXT:    [[S0:%.+]] = fadd reassoc nsz double [[D0]],
; CHECK-NEXT:    store double [[S0]], ptr %0
; CHECK-NEXT:    [[D1:%.+]] = load double, ptr [[DA1]]
; CHECK-NEXT:    [[S1:%.+]] = fadd reassoc nsz double [[D1]],
; CHECK-NEXT:    store double [[S1]], ptr [[DA1]]
; CHECK-NEXT:    ret void
define double @test(ptr %a, ptr %da, ptr %b) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %a, ptr %da, metadata !"enzyme_const", ptr %b)
  %d0 = load double, ptr %da
  ret double %d0
}

define i32 @main() {
entry:
  %a = alloca [2 x double]
  %da = alloca [2 x double]
  %b = alloca [2 x double]
  %a1p = getelementptr inbounds double, ptr %a, i64 1
  %da1p = getelementptr inbounds double, ptr %da, i64 1
  %b1p = getelementptr inbounds double, ptr %b, i64 1
  store double 0.5, ptr %a
  store double -2.0, ptr %a1p
  store double 1.0, ptr %da
  store double 1.0, ptr %da1p
  store double 3.0, ptr %b
  store double 0.25, ptr %b1p
  %g = call double @test(ptr %a, ptr %da, ptr %b)
  %c0 = call i32 @check(double %g, double 4.8775825618903728)
  %d1 = load double, ptr %da1p
  %c1 = call i32 @check(double %d1, double 0.0)
  %b0 = load double, ptr %b
  %c2 = call i32 @check(double %b0, double 3.0)
  %b1 = load double, ptr %b1p
  %c3 = call i32 @check(double %b1, double 0.25)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %c2, %c3
  %s = add i32 %s1, %s2
  %bad = icmp ne i32 %s, 0
  %r = zext i1 %bad to i32
  ret i32 %r
}

declare double @llvm.sin.f64(double)

; |got - want| <= 1e-12 |want| + 1e-14 (NaN fails); returns 1 on mismatch.
define internal i32 @check(double %got, double %want) {
entry:
  %d = fsub double %got, %want
  %a = call double @llvm.fabs.f64(double %d)
  %w = call double @llvm.fabs.f64(double %want)
  %t = fmul double %w, 1.0e-12
  %tol = fadd double %t, 1.0e-14
  %bad = fcmp ugt double %a, %tol
  %r = zext i1 %bad to i32
  ret i32 %r
}

declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)
