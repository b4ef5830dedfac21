; Pointer arguments in a non-default address space (ptr addrspace(1), and
; an enzyme_const ptr addrspace(3)): the generated functions take their
; shadows in the same address space, access shadow memory through it, and
; never cast a shadow to addrspace(0) (no addrspacecast, no inttoptr, no
; store/load of a shadow pointer re-typed as plain `ptr`). Combined mode
; with a dupnoneed null primal, split mode over a loop (the tape itself is an
; ordinary heap pointer), and shadow pointers stored in addrspace(1) memory.
; Metadata markers. The module verifies and main (with addrspace(1)
; globals, so the input has no casts either) checks the gradients under lli.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=NOCAST
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll
; NOCAST-NOT: call {{.*}}@__enzyme_
; NOCAST-NOT: addrspacecast
; NOCAST-NOT: inttoptr

; f(x, y, c): y[0] = x0 x1 c0 ; returns sin(x0)
define double @f(ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(3) %c) {
entry:
  %a = load double, ptr addrspace(1) %x
  %p1 = getelementptr inbounds double, ptr addrspace(1) %x, i64 1
  %b = load double, ptr addrspace(1) %p1
  %k = load double, ptr addrspace(3) %c
  %m = fmul double %a, %b
  %mk = fmul double %m, %k
  store double %mk, ptr addrspace(1) %y
  %s = call double @llvm.sin.f64(double %a)
  ret double %s
}

; loop(x, n) = sum_i x_i^3
define double @loop(ptr addrspace(1) %x, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %s = phi double [ 0.0, %entry ], [ %s1, %body ]
  %p = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %v = load double, ptr addrspace(1) %p
  %v2 = fmul double %v, %v
  %v3 = fmul double %v2, %v
  %s1 = fadd double %s, %v3
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret double %s1
}

; ind(pp) = *pp[0] * *pp[1], pointers held in addrspace(1) memory: the
; shadow of pp is an array of shadow pointers (addrspace(1) too).
define double @ind(ptr addrspace(1) %pp) {
entry:
  %q0 = load ptr addrspace(1), ptr addrspace(1) %pp
  %pp1 = getelementptr inbounds ptr addrspace(1), ptr addrspace(1) %pp, i64 1
  %q1 = load ptr addrspace(1), ptr addrspace(1) %pp1
  %a = load double, ptr addrspace(1) %q0
  %b = load double, ptr addrspace(1) %q1
  %m = fmul double %a, %b
  ret double %m
}

; CHECK-LABEL: define double @test_f(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @[[FG:f\.lt\.grad[.0-9]*]](ptr addrspace(1) %x, ptr addrspace(1) null, ptr addrspace(3) %c, ptr addrspace(1) %dx, ptr addrspace(1) %dy, double 1.000000e+00)
define double @test_f(ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(1) %dy, ptr addrspace(3) %c) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_dupnoneed", ptr addrspace(1) null, ptr addrspace(1) %dy, metadata !"enzyme_const", ptr addrspace(3) %c)
  ret double %g
}

; CHECK-LABEL: define void @test_split(
; CHECK:         call void @[[AUG:loop\.lt\.aug[.0-9]*]](ptr addrspace(1) %x, i64 %n, ptr addrspace(1) %dx, ptr %[[T:[0-9]+]])
; CHECK:         call void @[[REV:loop\.lt\.rev[.0-9]*]](ptr addrspace(1) %x, i64 %n, ptr addrspace(1) %dx, double %dret, ptr %[[T]])
define void @test_split(ptr addrspace(1) %x, ptr addrspace(1) %dx, i64 %n, double %dret) {
entry:
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @loop, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_const", i64 %n)
  call void (ptr, ...) @__enzyme_reverse(ptr @loop, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_const", i64 %n, double %dret, ptr %t)
  ret void
}

; CHECK-LABEL: define void @test_ind(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @[[IG:ind\.lt\.grad[.0-9]*]](ptr addrspace(1) %pp, ptr addrspace(1) %dpp, double 1.000000e+00)
define void @test_ind(ptr addrspace(1) %pp, ptr addrspace(1) %dpp) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @ind, metadata !"enzyme_dup", ptr addrspace(1) %pp, ptr addrspace(1) %dpp)
  ret void
}

; Generated functions: shadow parameters in addrspace(1), every double
; load/store of shadow memory through ptr addrspace(1) (only the split-mode
; tape, plain heap memory, is accessed through plain ptr).
; CHECK:       define internal void @[[FG]](ptr addrspace(1) %x, ptr addrspace(1) %y, ptr addrspace(3) %c, ptr addrspace(1) %0, ptr addrspace(1) %1, double %2)
; CHECK-NOT:     {{(load|store) (double|ptr)(, ptr| .*, ptr) %}}
; CHECK:         store double {{.*}}, ptr addrspace(1) %0
; CHECK-NOT:     {{(load|store) (double|ptr)(, ptr| .*, ptr) %}}
; CHECK:         ret void
; CHECK:       define internal void @[[AUG]](ptr addrspace(1) %x, i64 %n, ptr addrspace(1) %{{[a-z0-9.]+}}, ptr %tape)
; CHECK:         ret void
; CHECK:       define internal void @[[REV]](ptr addrspace(1) %x, i64 %n, ptr addrspace(1) %0, double %1, ptr %tape)
; CHECK:         getelementptr double, ptr addrspace(1) %0
; CHECK:         store double {{.*}}, ptr addrspace(1)
; CHECK:         ret void
; CHECK:       define internal void @[[IG]](ptr addrspace(1) %pp, ptr addrspace(1) %0, double %1)
; CHECK-NOT:     {{(load|store) (double|ptr)(, ptr| .*, ptr) %}}
; CHECK-NOT:     load ptr,
; CHECK:         store double {{.*}}, ptr addrspace(1)
; CHECK-NOT:     {{(load|store) (double|ptr)(, ptr| .*, ptr) %}}
; CHECK:         ret void

@gx = addrspace(1) global [2 x double] [double 0.5, double -2.0]
@gdx = addrspace(1) global [2 x double] zeroinitializer
@gdy = addrspace(1) global [1 x double] [double 3.0]
@gc = addrspace(3) global double 2.0
@gl = addrspace(1) global [3 x double] [double 1.5, double -0.5, double 2.0]
@gdl = addrspace(1) global [3 x double] [double 1.0, double 0.0, double 0.0]
@ga = addrspace(1) global [2 x double] [double 3.0, double 4.0]
@gda = addrspace(1) global [2 x double] zeroinitializer
@gpp = addrspace(1) global [2 x ptr addrspace(1)] [ptr addrspace(1) @ga, ptr addrspace(1) getelementptr inbounds (double, ptr addrspace(1) @ga, i64 1)]
@gdpp = addrspace(1) global [2 x ptr addrspace(1)] [ptr addrspace(1) @gda, ptr addrspace(1) getelementptr inbounds (double, ptr addrspace(1) @gda, i64 1)]

define i32 @main() {
entry:
  ; f: dx0 = cos(x0) + dy x1 c = cos(0.5) - 12, dx1 = dy x0 c = 3; dy consumed
  %g = call double @test_f(ptr addrspace(1) @gx, ptr addrspace(1) @gdx, ptr addrspace(1) @gdy, ptr addrspace(3) @gc)
  %dx0 = load double, ptr addrspace(1) @gdx
  %c0 = call i32 @check(double %dx0, double -11.122417438109627)
  %pdx1 = getelementptr inbounds double, ptr addrspace(1) @gdx, i64 1
  %dx1 = load double, ptr addrspace(1) %pdx1
  %c1 = call i32 @check(double %dx1, double 3.0)
  %dy = load double, ptr addrspace(1) @gdy
  %c2 = call i32 @check(double %dy, double 0.0)
  ; loop, split mode, dret 2: dl_i += 2 * 3 x_i^2 = (13.5, 1.5, 24), dl0 starts at 1
  call void @test_split(ptr addrspace(1) @gl, ptr addrspace(1) @gdl, i64 3, double 2.0)
  %l0 = load double, ptr addrspace(1) @gdl
  %c3 = call i32 @check(double %l0, double 14.5)
  %pl1 = getelementptr inbounds double, ptr addrspace(1) @gdl, i64 1
  %l1 = load double, ptr addrspace(1) %pl1
  %c4 = call i32 @check(double %l1, double 1.5)
  %pl2 = getelementptr inbounds double, ptr addrspace(1) @gdl, i64 2
  %l2 = load double, ptr addrspace(1) %pl2
  %c5 = call i32 @check(double %l2, double 24.0)
  ; ind: da = (b, a) = (4, 3)
  call void @test_ind(ptr addrspace(1) @gpp, ptr addrspace(1) @gdpp)
  %a0 = load double, ptr addrspace(1) @gda
  %c6 = call i32 @check(double %a0, double 4.0)
  %pa1 = getelementptr inbounds double, ptr addrspace(1) @gda, i64 1
  %a1 = load double, ptr addrspace(1) %pa1
  %c7 = call i32 @check(double %a1, double 3.0)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  %s4 = add i32 %s3, %c4
  %s5 = add i32 %s4, %c5
  %s6 = add i32 %s5, %c6
  %s7 = add i32 %s6, %c7
  %bad = icmp ne i32 %s7, 0
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

declare double @llvm.sin.f64(double)
declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare void @__enzyme_reverse(ptr, ...)
