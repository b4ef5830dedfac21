; Combined mode (__enzyme_autodiff) on loop-free functions: the tape of the
; inlined forward+reverse is an alloca that SROA dissolves, so no .lt.grad
; function allocates, frees or keeps a stack slot. main checks the gradients
; against hand-computed analytic values.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=EXP
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; poly: f = 3x^3 + 2xy + y ; df/dx = 9x^2 + 2y ; df/dy = 2x + 1
define double @poly(double %x, double %y) {
entry:
  %x2 = fmul double %x, %x
  %x3 = fmul double %x2, %x
  %a = fmul double %x3, 3.0
  %xy = fmul double %x, %y
  %b = fmul double %xy, 2.0
  %s = fadd double %a, %b
  %r = fadd double %s, %y
  ret double %r
}
; branchy: x > 0 ? x*x : -3x  (phi)
define double @branchy(double %x) {
entry:
  %c = fcmp ogt double %x, 0.0
  br i1 %c, label %pos, label %neg
pos:
  %sq = fmul double %x, %x
  br label %join
neg:
  %m = fmul double %x, -3.0
  br label %join
join:
  %p = phi double [ %sq, %pos ], [ %m, %neg ]
  ret double %p
}
; mem: y[0] = x[0]*x[1]; y[1] = x[0] + x[1]  (through dup pointers)
define void @mem(ptr %x, ptr %y) {
entry:
  %a = load double, ptr %x
  %px1 = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %px1
  %m = fmul double %a, %b
  store double %m, ptr %y
  %s = fadd double %a, %b
  %py1 = getelementptr inbounds double, ptr %y, i64 1
  store double %s, ptr %py1
  ret void
}
; math: exp(x) * sin(x) + sqrt(x)
define double @math(double %x) {
entry:
  %e = call double @llvm.exp.f64(double %x)
  %s = call double @sin(double %x)
  %m = fmul double %e, %s
  %q = call double @llvm.sqrt.f64(double %x)
  %r = fadd double %m, %q
  ret double %r
}
declare double @llvm.exp.f64(double)
declare double @llvm.sqrt.f64(double)
declare double @sin(double)
declare double @cos(double)
declare double @exp(double)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define {{.*}} @g_poly(
; CHECK-NEXT:    call { double, double } @poly.lt.grad{{.*}}(double %x, double %y, double 1.000000e+00)
define { double, double } @g_poly(double %x, double %y) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @poly, metadata !"enzyme_out", double %x, metadata !"enzyme_out", double %y)
  ret { double, double } %g
}
; CHECK-LABEL: define {{.*}} @g_branchy(
; CHECK-NEXT:    call double @branchy.lt.grad{{.*}}(double %x, double 1.000000e+00)
define double @g_branchy(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @branchy, double %x)
  ret double %g
}
; CHECK-LABEL: define {{.*}} @g_mem(
; CHECK-NEXT:    call void @mem.lt.grad{{.*}}(ptr %x, ptr %y, ptr %dx, ptr %dy)
define void @g_mem(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @mem, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy)
  ret void
}
; CHECK-LABEL: define {{.*}} @g_math(
; CHECK-NEXT:    call double @math.lt.grad{{.*}}(double %x, double 1.000000e+00)
define double @g_math(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @math, metadata !"enzyme_out", double %x)
  ret double %g
}

define i32 @main() {
entry:
  ; poly at (2, 3): dx = 9*4 + 6 = 42, dy = 4 + 1 = 5
  %pg = call { double, double } @g_poly(double 2.0, double 3.0)
  %pdx = extractvalue { double, double } %pg, 0
  %pdy = extractvalue { double, double } %pg, 1
  %c1 = call i32 @check(double %pdx, double 42.0)
  %c2 = call i32 @check(double %pdy, double 5.0)
  ; branchy: f'(1.5) = 3, f'(-2) = -3
  %b1 = call double @g_branchy(double 1.5)
  %c3 = call i32 @check(double %b1, double 3.0)
  %b2 = call double @g_branchy(double -2.0)
  %c4 = call i32 @check(double %b2, double -3.0)
  ; mem: x = {2, 5}, dy = {1, 10} (consumed, zeroed), dx = {0.5, 0}
  ;   dx0 += dy0*x1 + dy1 = 0.5 + 5 + 10 = 15.5 ; dx1 += dy0*x0 + dy1 = 12
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  %y = alloca [2 x double]
  %dy = alloca [2 x double]
  %x1 = getelementptr double, ptr %x, i64 1
  %dx1 = getelementptr double, ptr %dx, i64 1
  %y1 = getelementptr double, ptr %y, i64 1
  %dy1 = getelementptr double, ptr %dy, i64 1
  store double 2.0, ptr %x
  store double 5.0, ptr %x1
  store double 0.5, ptr %dx
  store double 0.0, ptr %dx1
  store double 1.0, ptr %dy
  store double 10.0, ptr %dy1
  call void @g_mem(ptr %x, ptr %dx, ptr %y, ptr %dy)
  %vdx0 = load double, ptr %dx
  %vdx1 = load double, ptr %dx1
  %vy0 = load double, ptr %y
  %vy1 = load double, ptr %y1
  %vdy0 = load double, ptr %dy
  %vdy1 = load double, ptr %dy1
  %c5 = call i32 @check(double %vdx0, double 15.5)
  %c6 = call i32 @check(double %vdx1, double 12.0)
  %c7 = call i32 @check(double %vy0, double 10.0)
  %c8 = call i32 @check(double %vy1, double 7.0)
  %c9 = call i32 @check(double %vdy0, double 0.0)
  %c10 = call i32 @check(double %vdy1, double 0.0)
  ; math at x = 0.64: e^x (sin x + cos x) + 0.5 / sqrt(x) = ... + 0.625
  %m = call double @g_math(double 0.64)
  %e = call double @exp(double 0.64)
  %s = call double @sin(double 0.64)
  %co = call double @cos(double 0.64)
  %sc = fadd double %s, %co
  %es = fmul double %e, %sc
  %want = fadd double %es, 0.625
  %c11 = call i32 @check(double %m, double %want)
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %s1, %c3
  %s3 = add i32 %s2, %c4
  %s4 = add i32 %s3, %c5
  %s5 = add i32 %s4, %c6
  %s6 = add i32 %s5, %c7
  %s7 = add i32 %s6, %c8
  %s8 = add i32 %s7, %c9
  %s9 = add i32 %s8, %c10
  %s10 = add i32 %s9, %c11
  %bad = icmp ne i32 %s10, 0
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

; poly: pure arithmetic, everything recomputed from the arguments.
; CHECK-LABEL: define internal { double, double } @poly.lt.grad{{.*}}(double %x, double %y, double %0)
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK-NOT:     call {{.*}}@free
; CHECK:         ret { double, double }
; CHECK-NEXT:  }

; branchy: the phi's incoming edge is recomputed from the branch condition
; (no choice slot), leaving straight-line selects.
; CHECK-LABEL: define internal double @branchy.lt.grad{{.*}}(double %x, double %0)
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK-NOT:     call {{.*}}@free
; CHECK:         %c = fcmp ogt double %x, 0.000000e+00
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK-NOT:     call {{.*}}@free
; CHECK:         ret double
; CHECK-NEXT:  }

; mem: the loaded values stay in registers; the output shadow is read and
; zeroed, the input shadow accumulated.
; CHECK-LABEL: define internal void @mem.lt.grad{{.*}}(ptr %x, ptr %y, ptr %0, ptr %1)
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK:         %a = load double, ptr %x
; CHECK:         %b = load double, ptr %px1
; CHECK:         store double %m, ptr %y
; CHECK:         store double %s, ptr %py1
; CHECK:         store double 0.000000e+00, ptr %1
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@free
; CHECK:         ret void
; CHECK-NEXT:  }

; math: the call results live in registers across the inlined halves.
; exp(x) is called once (EXP), for the forward and both partials:
; LLVM 22 keeps the primal's call (%e), LLVM 19's EarlyCSE leaves the
; primal's (then dead) and the reverse's copy, and InstCombine deletes the
; primal's.
; CHECK-LABEL: define internal double @math.lt.grad{{.*}}(double %x, double %0)
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK-NOT:     call {{.*}}@free
; CHECK-DAG:     call double @sin(double %x)
; CHECK-DAG:     {{%e|%[0-9]+}} = call double @llvm.exp.f64(double %x)
; CHECK-DAG:     call double @llvm.cos.f64(double %x)
; CHECK-NOT:     alloca
; CHECK-NOT:     call {{.*}}@malloc
; CHECK-NOT:     call {{.*}}@free
; CHECK:         ret double
; CHECK-NEXT:  }
;
; EXP-LABEL: define internal double @math.lt.grad{{.*}}(double %x, double %0)
; EXP:         call double @llvm.exp.f64(double %x)
; EXP-NOT:     @llvm.exp
; EXP:         ret double
; EXP-NEXT:  }
