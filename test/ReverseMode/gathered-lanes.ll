; Two doubles loaded as one i128 and gathered into a <2 x double> through
; integer lanes: insertelement of the i128 and of its lshr by 64 into a
; <2 x i128>, trunc to <2 x i64>, bitcast to <2 x double>. InstCombine
; writes an Eigen Vector2d read from unaligned memory so under -X (fuzz
; --eigen seed 8107 at -O2/-O3: "an active floating-point value is
; reinterpreted as bits and used in integer arithmetic"). The clone loads
; the doubles as a <2 x double> and the gathered vector is a shuffle of it
; (prep/floatlanes.c): @gather in lane order, @swapped with the lanes
; crossed; @splat takes each double out by trunc (and lshr), puts it into
; lane 0 of a <2 x i64>, bitcasts and splats it (fuzz --eigen -X seed 8338);
; @words takes lanes 1-2 and 2-3 of a computed <4 x double> through an
; i256 splatted into a <2 x i256>, shifted by <64, 128>, bitcast to
; <4 x i128>, words 0 and 2 (Eigen with -mavx2 -mfma, seed 8879: followed
; slot by slot, prep/lanetrack.c).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

declare void @__enzyme_autodiff(...)
declare double @sin(double)
declare double @cos(double)
declare double @llvm.fabs.f64(double)

; gather(x) = sin(x[1]) * x[2]^2 from <x[1], x[2]>
define double @gather(ptr %x) {
  %p = getelementptr inbounds i8, ptr %x, i64 8
  %w = load i128, ptr %p, align 1
  %s = lshr i128 %w, 64
  %v0 = insertelement <2 x i128> poison, i128 %w, i64 0
  %v1 = insertelement <2 x i128> %v0, i128 %s, i64 1
  %t = trunc <2 x i128> %v1 to <2 x i64>
  %d = bitcast <2 x i64> %t to <2 x double>
  %a = extractelement <2 x double> %d, i64 0
  %b = extractelement <2 x double> %d, i64 1
  %sa = call double @sin(double %a)
  %bb = fmul double %b, %b
  %r = fmul double %sa, %bb
  ret double %r
}

; swapped(y): lane 0 is y[1], lane 1 is y[0]:
; swapped(y) = y[1]^3 * y[0]
define double @swapped(ptr %x) {
  %w = load i128, ptr %x, align 8
  %s = lshr i128 %w, 64
  %v0 = insertelement <2 x i128> poison, i128 %s, i64 0
  %v1 = insertelement <2 x i128> %v0, i128 %w, i64 1
  %t = trunc <2 x i128> %v1 to <2 x i64>
  %d = bitcast <2 x i64> %t to <2 x double>
  %sq = fmul <2 x double> %d, %d
  %a = extractelement <2 x double> %d, i64 0
  %a2 = extractelement <2 x double> %sq, i64 0
  %b = extractelement <2 x double> %d, i64 1
  %a3 = fmul double %a2, %a
  %r = fmul double %a3, %b
  ret double %r
}

; splat(z) = sum of the lanes of <z0, z0> * <z1, z1> = 2 z0 z1
define double @splat(ptr %z) {
  %w = load i128, ptr %z, align 8
  %hi = lshr i128 %w, 64
  %t1 = trunc i128 %hi to i64
  %t0 = trunc i128 %w to i64
  %i0 = insertelement <2 x i64> poison, i64 %t0, i64 0
  %d0 = bitcast <2 x i64> %i0 to <2 x double>
  %s0 = shufflevector <2 x double> %d0, <2 x double> poison, <2 x i32> zeroinitializer
  %i1 = insertelement <2 x i64> poison, i64 %t1, i64 0
  %d1 = bitcast <2 x i64> %i1 to <2 x double>
  %s1 = shufflevector <2 x double> %d1, <2 x double> poison, <2 x i32> zeroinitializer
  %m = fmul <2 x double> %s0, %s1
  %a = extractelement <2 x double> %m, i64 0
  %b = extractelement <2 x double> %m, i64 1
  %r = fadd double %a, %b
  ret double %r
}

; words(w) with q = w * w (4 lanes): <q1, q2> . <q2, q3> = q1 q2 + q2 q3
define double @words(ptr %w) {
  %v = load <4 x double>, ptr %w, align 8
  %q = fmul <4 x double> %v, %v
  %i = bitcast <4 x double> %q to i256
  %s0 = insertelement <2 x i256> poison, i256 %i, i64 0
  %s = shufflevector <2 x i256> %s0, <2 x i256> poison, <2 x i32> zeroinitializer
  %sh = lshr <2 x i256> %s, <i256 64, i256 128>
  %h = bitcast <2 x i256> %sh to <4 x i128>
  %w0 = extractelement <4 x i128> %h, i64 0
  %a = bitcast i128 %w0 to <2 x double>
  %w2 = extractelement <4 x i128> %h, i64 2
  %b = bitcast i128 %w2 to <2 x double>
  %m = fmul <2 x double> %a, %b
  %m0 = extractelement <2 x double> %m, i64 0
  %m1 = extractelement <2 x double> %m, i64 1
  %r = fadd double %m0, %m1
  ret double %r
}

; CHECK-LABEL: define internal void @gather.lt.grad(
; CHECK-NOT: i128
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @swapped.lt.grad(
; CHECK-NOT: i128
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @splat.lt.grad(
; CHECK-NOT: i128
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @words.lt.grad(
; CHECK-NOT: i256
; CHECK: {{^}$}}

define i1 @near(double %a, double %b) {
  %d = fsub double %a, %b
  %m = call double @llvm.fabs.f64(double %d)
  %ok = fcmp olt double %m, 1.0e-12
  ret i1 %ok
}

@x = global [3 x double] [double 0.3, double 0.9, double -1.2]
@dx = global [3 x double] zeroinitializer
@y = global [2 x double] [double 1.5, double -0.5]
@dy = global [2 x double] zeroinitializer
@z = global [2 x double] [double 0.75, double -2.0]
@dz = global [2 x double] zeroinitializer
@w = global [4 x double] [double 0.5, double -1.5, double 2.0, double 0.25]
@dw = global [4 x double] zeroinitializer

define i32 @main() {
  call void (...) @__enzyme_autodiff(ptr @gather, metadata !"enzyme_dup", ptr @x, ptr @dx)
  call void (...) @__enzyme_autodiff(ptr @swapped, metadata !"enzyme_dup", ptr @y, ptr @dy)
  call void (...) @__enzyme_autodiff(ptr @splat, metadata !"enzyme_dup", ptr @z, ptr @dz)
  call void (...) @__enzyme_autodiff(ptr @words, metadata !"enzyme_dup", ptr @w, ptr @dw)
  ; d gather = (0, cos(x1) x2^2, 2 sin(x1) x2)
  %g0 = load double, ptr @dx
  %g1 = load double, ptr getelementptr (double, ptr @dx, i64 1)
  %g2 = load double, ptr getelementptr (double, ptr @dx, i64 2)
  %c1 = call double @cos(double 0.9)
  %s1 = call double @sin(double 0.9)
  %e1 = fmul double %c1, 1.44
  %e2 = fmul double %s1, -2.4
  ; d swapped = (y1^3, 3 y1^2 y0) = (-0.125, 1.125)
  %h0 = load double, ptr @dy
  %h1 = load double, ptr getelementptr (double, ptr @dy, i64 1)
  %o0 = call i1 @near(double %g0, double 0.0)
  %o1 = call i1 @near(double %g1, double %e1)
  %o2 = call i1 @near(double %g2, double %e2)
  %o3 = call i1 @near(double %h0, double -0.125)
  %o4 = call i1 @near(double %h1, double 1.125)
  %a01 = and i1 %o0, %o1
  %a23 = and i1 %o2, %o3
  ; d splat = (2 z1, 2 z0) = (-4, 1.5)
  %k0 = load double, ptr @dz
  %k1 = load double, ptr getelementptr (double, ptr @dz, i64 1)
  %o5 = call i1 @near(double %k0, double -4.0)
  %o6 = call i1 @near(double %k1, double 1.5)
  %a03 = and i1 %a01, %a23
  %a56 = and i1 %o5, %o6
  %a46 = and i1 %o4, %a56
  ; d words = (0, 2 w1 q2, 2 w2 (q1 + q3), 2 w3 q2) with q = w^2
  ;         = (0, 2 (-1.5) 4, 2 (2) (2.25 + 0.0625), 2 (0.25) 4) = (0, -12, 9.25, 2)
  %n0 = load double, ptr @dw
  %n1 = load double, ptr getelementptr (double, ptr @dw, i64 1)
  %n2 = load double, ptr getelementptr (double, ptr @dw, i64 2)
  %n3 = load double, ptr getelementptr (double, ptr @dw, i64 3)
  %p0 = call i1 @near(double %n0, double 0.0)
  %p1 = call i1 @near(double %n1, double -12.0)
  %p2 = call i1 @near(double %n2, double 9.25)
  %p3 = call i1 @near(double %n3, double 2.0)
  %b01 = and i1 %p0, %p1
  %b23 = and i1 %p2, %p3
  %b03 = and i1 %b01, %b23
  %a47 = and i1 %a46, %b03
  %ok = and i1 %a03, %a47
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
