; Pointer words packed into a vector: clang's SLP vectoriser (Eigen at
; -O2 with -mavx2, fuzz seed 730009 of --eigen) moves two pointers as
; ptrtoint, bitcast to <4 x i16>, shuffled into a <16 x i16> beside the
; bits of a double constant, bitcast to <4 x i64>, and takes each back out
; with extractelement and inttoptr. Before, that inttoptr was "made from
; an integer" and the call failed to compile. The shadow of an extracted
; lane is the shadow of the scalar word whose bytes it is. Reverse and
; forward mode checked under lli against the analytic gradient; a lane
; assembled from two pointers' halves stays a clean error (Diagnostics).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

; f(x, y) = c x0 x1 y0^2, c = 2.5 taken from the vector's lane 0
define double @f(ptr %x, ptr %y) {
entry:
  %px = ptrtoint ptr %x to i64
  %vx = bitcast i64 %px to <4 x i16>
  %wx = shufflevector <4 x i16> %vx, <4 x i16> poison, <16 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison>
  %m1 = shufflevector <16 x i16> <i16 0, i16 0, i16 0, i16 16388, i16 poison, i16 poison, i16 poison, i16 poison, i16 poison, i16 undef, i16 undef, i16 undef, i16 poison, i16 poison, i16 poison, i16 poison>, <16 x i16> %wx, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 20, i32 21, i32 22, i32 23, i32 poison, i32 9, i32 10, i32 11, i32 poison, i32 poison, i32 poison, i32 poison>
  %py = ptrtoint ptr %y to i64
  %vy = bitcast i64 %py to <4 x i16>
  %wy = shufflevector <4 x i16> %vy, <4 x i16> poison, <16 x i32> <i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 poison, i32 0, i32 1, i32 2, i32 3>
  %m = shufflevector <16 x i16> %m1, <16 x i16> %wy, <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 28, i32 29, i32 30, i32 31>
  %d = bitcast <16 x i16> %m to <4 x double>
  %w = bitcast <16 x i16> %m to <4 x i64>
  %e3 = extractelement <4 x i64> %w, i64 3
  %qy = inttoptr i64 %e3 to ptr
  %e1 = extractelement <4 x i64> %w, i64 1
  %qx = inttoptr i64 %e1 to ptr
  %c = extractelement <4 x double> %d, i64 0
  %xv = load <2 x double>, ptr %qx, align 8
  %yv = load double, ptr %qy, align 8
  %ys = insertelement <2 x double> poison, double %yv, i64 0
  %yy = shufflevector <2 x double> %ys, <2 x double> poison, <2 x i32> zeroinitializer
  %p = fmul <2 x double> %xv, %yy
  %p0 = extractelement <2 x double> %p, i64 0
  %p1 = extractelement <2 x double> %p, i64 1
  %s = fmul double %p0, %p1
  %r = fmul double %s, %c
  ret double %r
}

; CHECK-LABEL: define double @grad(
; CHECK:         call void @[[G:f\.lt\.grad[.0-9]*]](
define double @grad(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy)
  ret double %g
}

; CHECK-LABEL: define double @tangent(
; CHECK:         call {{.*}}@[[T:f\.lt\.tan[.0-9]*]](
define double @tangent(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy)
  ret double %t
}

; The shadow of each extracted lane is the shadow of the pointer whose
; bytes it holds (inttoptr of ptrtoint of it folds away): the adjoints go
; to the shadow arguments themselves, the tangents come from them.
; CHECK:       define internal void @[[G]](ptr %x, ptr %y, ptr %0, ptr %1, double %2)
; CHECK:         store <2 x double> {{.*}}, ptr %0
; CHECK:         store double {{.*}}, ptr %1
; CHECK:         ret void
; CHECK:       define internal double @[[T]](ptr %x, ptr %y, ptr %tangent, ptr %tangent1)
; CHECK:         load <2 x double>, ptr %tangent,
; CHECK:         load double, ptr %tangent1,
; CHECK:         ret double

@gx = global [2 x double] [double 1.5, double -2.0]
@gy = global [1 x double] [double 3.0]
@gdx = global [2 x double] zeroinitializer
@gdy = global [1 x double] zeroinitializer
@tx = global [2 x double] [double 1.0, double 0.0]
@ty = global [1 x double] [double 1.0]

define i32 @main() {
entry:
  ; dx = (c x1 y0^2, c x0 y0^2) = (-45, 33.75), dy0 = 2 c x0 x1 y0 = -45
  %g = call double @grad(ptr @gx, ptr @gdx, ptr @gy, ptr @gdy)
  %dx0 = load double, ptr @gdx
  %c0 = call i32 @check(double %dx0, double -45.0)
  %pdx1 = getelementptr inbounds double, ptr @gdx, i64 1
  %dx1 = load double, ptr %pdx1
  %c1 = call i32 @check(double %dx1, double 33.75)
  %dy0 = load double, ptr @gdy
  %c2 = call i32 @check(double %dy0, double -45.0)
  ; tangent along dx = (1, 0), dy = 1: -45 - 45
  %t = call double @tangent(ptr @gx, ptr @tx, ptr @gy, ptr @ty)
  %c3 = call i32 @check(double %t, double -90.0)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  %bad = icmp ne i32 %s3, 0
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
declare double @__enzyme_fwddiff(ptr, ...)
