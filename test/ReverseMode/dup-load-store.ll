; Loads and stores through enzyme_dup pointers: an input array and an
; output array whose shadow holds the seed.
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s --check-prefix=NOCALL
; lli is that of the plugin's LLVM (lit puts its bin directory first on PATH).
; FileCheck: the call site and the shape of the generated gradient (below);
; lli: main returns 1 on a mismatch with the hand-computed analytic gradient.
; NOCALL-NOT: call {{.*}}@__enzyme_autodiff

; f(x, y): y[0] = x0 * x1 ; return x1 * x1
; x = [2, 3], dx = [0.5, 0] (accumulated into), y = [0, 0], dy = [4, 0]
;   dx0 = 0.5 + 4 * x1          = 12.5
;   dx1 = 0   + 4 * x0 + 2 * x1 = 14
;   dy0 = 0 (seed consumed), y0 = 6 (primal written)

define double @f(ptr %x, ptr %y) {
entry:
  %x0 = load double, ptr %x
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %x1 = load double, ptr %p1
  %m = fmul double %x0, %x1
  store double %m, ptr %y
  %r = fmul double %x1, %x1
  ret double %r
}

; The gradient runs the primal store (y[0] = x0 x1), reads the seed dy[0]
; and zeroes it (the adjoint is consumed), and accumulates into dx[0] and
; dx[1]; no tape.
; CHECK-LABEL: define double @test(ptr %x, ptr %dx, ptr %y, ptr %dy)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @f.lt.grad(ptr %x, ptr %y, ptr %dx, ptr %dy, double 1.000000e+00)
; CHECK-LABEL: define internal void @f.lt.grad(ptr %x, ptr %y, ptr %0, ptr %1, double %2)
; CHECK-NOT:     {{alloca|call}}
; CHECK:         [[M:%.+]] = fmul double %x0, %x1
; CHECK-NEXT:    store double [[M]], ptr %y
; CHECK:         [[DY:%.+]] = load double, ptr %1
; CHECK-NEXT:    store double 0.000000e+00, ptr %1
; CHECK:         fmul double [[DY]], %x1
; CHECK:         fmul double [[DY]], %x0
; CHECK:         [[D0:%.+]] = load double, ptr %0
; CHECK-NEXT:    [[S0:%.+]] = fadd reassoc nsz double [[D0]],
; CHECK-NEXT:    store double [[S0]], ptr %0
; CHECK:         store double {{%.+}}, ptr {{%.+}}
; CHECK-NEXT:    ret void
define double @test(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy)
  %d0 = load double, ptr %dx
  ret double %d0
}

define i32 @main() {
entry:
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  %y = alloca [2 x double]
  %dy = alloca [2 x double]
  %x1p = getelementptr inbounds double, ptr %x, i64 1
  %dx1p = getelementptr inbounds double, ptr %dx, i64 1
  %y1p = getelementptr inbounds double, ptr %y, i64 1
  %dy1p = getelementptr inbounds double, ptr %dy, i64 1
  store double 2.0, ptr %x
  store double 3.0, ptr %x1p
  store double 0.5, ptr %dx
  store double 0.0, ptr %dx1p
  store double 0.0, ptr %y
  store double 0.0, ptr %y1p
  store double 4.0, ptr %dy
  store double 0.0, ptr %dy1p
  %g = call double @test(ptr %x, ptr %dx, ptr %y, ptr %dy)
  %c0 = call i32 @check(double %g, double 12.5)
  %dx1 = load double, ptr %dx1p
  %c1 = call i32 @check(double %dx1, double 14.0)
  %dy0 = load double, ptr %dy
  %c2 = call i32 @check(double %dy0, double 0.0)
  %y0 = load double, ptr %y
  %c3 = call i32 @check(double %y0, double 6.0)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %c2, %c3
  %s = add i32 %s1, %s2
  %bad = icmp ne i32 %s, 0
  %r = zext i1 %bad to i32
  ret i32 %r
}

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
