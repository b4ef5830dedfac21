; Split mode (__enzyme_augmentfwd / __enzyme_reverse) on loop-free functions:
; pins the tape's malloc size, which values the augmented forward stores and
; at which offsets, and that the reverse frees the tape. Arguments are never
; taped, pure ops are recomputed, loads and call results the reverse needs are
; taped. main runs the pairs and checks the gradients.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

; CHECK-NOT: call {{.*}}@__enzyme_augmentfwd
; CHECK-NOT: call {{.*}}@__enzyme_reverse

; lin = 3x, sq = x*x: only the argument is needed -> empty tape (1-byte malloc)
define double @lin(double %x) {
entry:
  %m = fmul double %x, 3.0
  ret double %m
}
define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}
define double @load_sq(ptr %x) {
entry:
  %a = load double, ptr %x
  %m = fmul double %a, %a
  ret double %m
}
define double @sinx(double %x) {
entry:
  %s = call double @sin(double %x)
  %m = fmul double %s, %x
  ret double %m
}
define void @overwrite(ptr %x) {
entry:
  %a = load double, ptr %x
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %p1
  %m = fmul double %a, %b
  store double %m, ptr %x
  ret void
}
declare double @sin(double)

; CHECK-LABEL: define ptr @t_lin(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 1)
; CHECK-NEXT:    call void @lin.lt.aug{{.*}}(double %x, ptr %1)
; CHECK-NEXT:    ret ptr %1
define ptr @t_lin(double %x) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @lin, metadata !"enzyme_out", double %x)
  ret ptr %t
}
; CHECK-LABEL: define double @r_lin(
; CHECK-NEXT:    call double @lin.lt.rev{{.*}}(double %x, double 1.000000e+00, ptr %t)
define double @r_lin(double %x, ptr %t) {
  %g = call double (ptr, ...) @__enzyme_reverse(ptr @lin, metadata !"enzyme_out", double %x, double 1.0, ptr %t)
  ret double %g
}
; CHECK-LABEL: define ptr @t_sq(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 1)
define ptr @t_sq(double %x) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @sq, metadata !"enzyme_out", double %x)
  ret ptr %t
}
define double @r_sq(double %x, ptr %t) {
  %g = call double (ptr, ...) @__enzyme_reverse(ptr @sq, metadata !"enzyme_out", double %x, double 1.0, ptr %t)
  ret double %g
}
; load_sq = x[0]^2: the load is taped (8 bytes)
; CHECK-LABEL: define ptr @t_load_sq(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 8)
; CHECK-NEXT:    call void @load_sq.lt.aug{{.*}}(ptr %x, ptr %dx, ptr %1)
define ptr @t_load_sq(ptr %x, ptr %dx) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @load_sq, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret ptr %t
}
; CHECK-LABEL: define void @r_load_sq(
; CHECK-NEXT:    call void @load_sq.lt.rev{{.*}}(ptr %x, ptr %dx, double 1.000000e+00, ptr %t)
define void @r_load_sq(ptr %x, ptr %dx, ptr %t) {
  call void (ptr, ...) @__enzyme_reverse(ptr @load_sq, metadata !"enzyme_dup", ptr %x, ptr %dx, double 1.0, ptr %t)
  ret void
}
; sinx = sin(x)*x: x is an argument and sin(x) is recomputed from it, so the
; tape is empty (augmentfwd still mallocs 1 byte)
; CHECK-LABEL: define ptr @t_sinx(
; CHECK-NEXT: %1 = call ptr @malloc(i64 1)
define ptr @t_sinx(double %x) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @sinx, metadata !"enzyme_out", double %x)
  ret ptr %t
}
define double @r_sinx(double %x, ptr %t) {
  %g = call double (ptr, ...) @__enzyme_reverse(ptr @sinx, metadata !"enzyme_out", double %x, double 1.0, ptr %t)
  ret double %g
}
; overwrite: x[0] = x[0]*x[1]: both loads taped (16 bytes)
; CHECK-LABEL: define ptr @t_ow(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 16)
define ptr @t_ow(ptr %x, ptr %dx) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @overwrite, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret ptr %t
}
; CHECK-LABEL: define void @r_ow(
; CHECK-NEXT:    call void @overwrite.lt.rev{{.*}}(ptr %x, ptr %dx, ptr %t)
define void @r_ow(ptr %x, ptr %dx, ptr %t) {
  call void (ptr, ...) @__enzyme_reverse(ptr @overwrite, metadata !"enzyme_dup", ptr %x, ptr %dx, ptr %t)
  ret void
}
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_reverse(ptr, ...)
declare double @cos(double)

define i32 @main() {
entry:
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  %x1 = getelementptr double, ptr %x, i64 1
  %dx1 = getelementptr double, ptr %dx, i64 1
  ; lin: 3 ; sq at 1.5: 3
  %t1 = call ptr @t_lin(double 7.0)
  %g1 = call double @r_lin(double 7.0, ptr %t1)
  %c1 = call i32 @check(double %g1, double 3.0)
  %t2 = call ptr @t_sq(double 1.5)
  %g2 = call double @r_sq(double 1.5, ptr %t2)
  %c2 = call i32 @check(double %g2, double 3.0)
  ; load_sq at x0 = 2.5, dx0 = 1: dx0 = 1 + 5 = 6
  store double 2.5, ptr %x
  store double 1.0, ptr %dx
  %t3 = call ptr @t_load_sq(ptr %x, ptr %dx)
  call void @r_load_sq(ptr %x, ptr %dx, ptr %t3)
  %v3 = load double, ptr %dx
  %c3 = call i32 @check(double %v3, double 6.0)
  ; sinx at 0.7: sin(0.7) + 0.7 cos(0.7)
  %t4 = call ptr @t_sinx(double 0.7)
  %g4 = call double @r_sinx(double 0.7, ptr %t4)
  %s = call double @sin(double 0.7)
  %co = call double @cos(double 0.7)
  %xc = fmul double %co, 0.7
  %w4 = fadd double %s, %xc
  %c4 = call i32 @check(double %g4, double %w4)
  ; overwrite: x = {3, 4} -> x0 = 12 ; seed dx = {1, 0}: dx0 = 4, dx1 = 3
  store double 3.0, ptr %x
  store double 4.0, ptr %x1
  store double 1.0, ptr %dx
  store double 0.0, ptr %dx1
  %t5 = call ptr @t_ow(ptr %x, ptr %dx)
  %v5x = load double, ptr %x
  %c5 = call i32 @check(double %v5x, double 12.0)
  call void @r_ow(ptr %x, ptr %dx, ptr %t5)
  %v5a = load double, ptr %dx
  %v5b = load double, ptr %dx1
  %c6 = call i32 @check(double %v5a, double 4.0)
  %c7 = call i32 @check(double %v5b, double 3.0)
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %s1, %c3
  %s3 = add i32 %s2, %c4
  %s4 = add i32 %s3, %c5
  %s5 = add i32 %s4, %c6
  %s6 = add i32 %s5, %c7
  %bad = icmp ne i32 %s6, 0
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

; CHECK-LABEL: define internal void @lin.lt.aug{{.*}}(double %x, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal double @lin.lt.rev{{.*}}(double %x, double %0, ptr %tape)
; CHECK-NOT:     load
; CHECK:         call void @free(ptr %tape)
; CHECK-LABEL: define internal void @sq.lt.aug{{.*}}(double %x, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal double @sq.lt.rev{{.*}}(double %x, double %0, ptr %tape)
; CHECK-NOT:     load
; CHECK:         fmul double %0, %x
; CHECK:         call void @free(ptr %tape)

; CHECK-LABEL: define internal void @load_sq.lt.aug{{.*}}(ptr %x, ptr %shadow, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = load double, ptr %x
; CHECK-NEXT:    store double %a, ptr %tape
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @load_sq.lt.rev{{.*}}(ptr %x, ptr %0, double %1, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %lt.tape = load double, ptr %tape
; CHECK-NOT:     load double, ptr %x
; CHECK:         call void @free(ptr {{.*}}%tape)
; CHECK-NEXT:    ret void

; (the primal sin is unused in the forward half and deleted)
; CHECK-LABEL: define internal void @sinx.lt.aug{{.*}}(double %x, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal double @sinx.lt.rev{{.*}}(double %x, double %0, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NOT:     load {{.*}}%tape
; CHECK:         call double @sin(double %x)
; CHECK:         call double @llvm.cos.f64(double %x)
; CHECK:         call void @free(ptr {{.*}}%tape)

; b = x[1] is at offset 0 (the reverse asks for it first), a = x[0] at 8.
; CHECK-LABEL: define internal void @overwrite.lt.aug{{.*}}(ptr %x, ptr %shadow, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = load double, ptr %x
; CHECK-NEXT:    %[[S1:.*]] = getelementptr i8, ptr %tape, i64 8
; CHECK-NEXT:    store double %a, ptr %[[S1]]
; CHECK-NEXT:    %p1 = getelementptr inbounds {{(nuw )?}}i8, ptr %x, i64 8
; CHECK-NEXT:    %b = load double, ptr %p1
; CHECK-NEXT:    store double %b, ptr %tape
; CHECK-NEXT:    %m = fmul double %a, %b
; CHECK-NEXT:    store double %m, ptr %x
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @overwrite.lt.rev{{.*}}(ptr %x, ptr %0, ptr %tape)
; CHECK-NEXT:  entry:
; (the declarations of its alias scopes, gen/scopes.c)
; CHECK-NOT:     load
; CHECK:         %lt.tape = load double, ptr %tape
; CHECK-NEXT:    %[[S2:.*]] = getelementptr i8, ptr %tape, i64 8
; CHECK-NEXT:    %lt.tape{{[0-9]*}} = load double, ptr %[[S2]]
; CHECK-NOT:     load double, ptr %x
; CHECK:         call void @free(ptr {{.*}}%tape)
; CHECK-NEXT:    ret void
