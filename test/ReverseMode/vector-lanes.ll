; Lanes of float vectors moved through integers, as -O2 leaves them in
; Eigen code (prep/lanes.c, prep/floatlanes.c):
;   - @ptr_lane: SLP loads an expression object {double 0.72, ptr x+1} as
;     one <2 x double> and takes the pointer out of lane 1 with a bitcast to
;     <2 x i64>, extractelement and inttoptr; it was "an active
;     floating-point value is reinterpreted as bits". The lane is loaded as
;     an i64 of its own (a pointer word: its shadow is the lane of the
;     shadow memory);
;   - @ins_lane: the same object read as two double loads put together by
;     insertelement (SROA's form; fuzz --eigen seed 990104 at -O2/-O3 was
;     the same error): lane 1's own load is loaded again as an i64;
;   - @wide_lanes: lanes 1 and 2 of a <4 x double> taken through i256 (lshr
;     64, trunc to i128, bitcast to <2 x double>), as InstCombine writes a
;     shuffle next to Eigen's FMA asm: a shufflevector in the clone;
;   - @word_lanes: lanes 2 and 3 of a <4 x double> taken as word 1 of a
;     <2 x i128> (bitcast, extractelement, bitcast to <2 x double>), as
;     -O2 writes Eigen with -mavx2 -mfma (fuzz --eigen seed 200010); it
;     was "an active floating-point value is reinterpreted as bits": a
;     shufflevector in the clone;
;   - @int_lanes: two doubles loaded as one i128 and taken out one by one
;     (trunc; lshr 64 and trunc; each bitcast to double), InstCombine's
;     form of Eigen's _mm_loadu_pd at -O2 (fuzz --eigen seed 302); it was
;     "an active floating-point value is reinterpreted as bits and used in
;     integer arithmetic". Loaded as <2 x double> in the clone (its x is
;     marked enzyme_dup: read only as integers, it would be taken as const);
;   - @cof_lane: lane 1 of a computed <2 x double> (a product, not
;     memory) taken as an i64 (bitcast to <2 x i64>, extractelement) and
;     stored where a double goes, as SLP writes two of a 3x3
;     determinant's products at -O2 (fuzz --eigen seed 1130099: "an active
;     floating-point value is reinterpreted as bits"): the lane as a double,
;     bitcast to i64, in the clone;
;   - @splat_lane: lane 0 of a computed <2 x double> splat across a <4 x
;     double> through integers (bitcast to <2 x i64>, a widening shuffle to
;     <4 x i64>, bitcast to <4 x double>, then the splat), as -O2 writes
;     Eigen with -mavx2 -mfma (fuzz --eigen seed 1140076: "an active
;     floating-point value is reinterpreted as bits"): a float shuffle in
;     the clone;
;   - @idx_lane: an object {double 0.72, ptr x, i64 2} read as one <4 x
;     double>, the pointer from lane 1 and the index from lane 2, which is
;     used as an integer, not a pointer (fuzz --eigen seeds 996120 with
;     -mavx2 -mfma and 997017 with -E, -O2: the same error): lane 2 is
;     loaded again as an i64 too;
;   - @phi_lane, @sel_lane: the {double, ptr} object merged from two loads
;     by a PHI (Eigen with assertions on, seed 996146 -O2: the same error)
;     or a select: a PHI or select of the lanes loaded again as i64;
;   - @store_lanes: lanes 1 and 2 of a <4 x double> cut out through i256
;     (lshr 64, trunc to i128) and stored as the i128 into a temporary
;     that a kept callee reads as doubles, as -O2 writes Eigen's AVX
;     packets beside the FMA asm with -mavx2 -mfma (fuzz --eigen seed
;     71037: "an active floating-point value is reinterpreted as bits"):
;     the lanes stored as a <2 x double> in the clone;
;   - @one_lane: a double made a <1 x double> by bitcast and back, as opt
;     -O2 leaves Eigen's SSE code (fuzz --eigen seed 1140237 through opt:
;     "an active vector is reinterpreted as another vector type"): an
;     insertelement and an extractelement in the clone.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll
; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; CHECK-LABEL: define internal void @ptr_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @wide_lanes.lt.grad(
; CHECK-NOT: i256
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @int_lanes.lt.grad(
; CHECK-NOT: i128
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @word_lanes.lt.grad(
; CHECK-NOT: i128
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @ins_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @idx_lane.lt.grad(
; CHECK-NOT: bitcast <4 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @phi_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @sel_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @cof_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @splat_lane.lt.grad(
; CHECK-NOT: bitcast <2 x double>
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @one_lane.lt.grad(
; CHECK-NOT: bitcast
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @store_lanes.lt.grad(
; CHECK-NOT: i256
; CHECK: {{^}$}}

; f(x) = 0.72 * x[1]^2, the 0.72 and &x[1] read back from one <2 x double>
define double @ptr_lane(ptr %x) {
  %o = alloca <2 x double>, align 16
  %p1 = getelementptr inbounds i8, ptr %x, i64 8
  store double 7.200000e-01, ptr %o, align 16
  %slot = getelementptr inbounds i8, ptr %o, i64 8
  store ptr %p1, ptr %slot, align 8
  %v = load <2 x double>, ptr %o, align 16
  %bits = bitcast <2 x double> %v to <2 x i64>
  %w = extractelement <2 x i64> %bits, i64 1
  %q = inttoptr i64 %w to ptr
  %c = extractelement <2 x double> %v, i64 0
  %a = load double, ptr %q, align 8
  %aa = fmul double %a, %a
  %r = fmul double %c, %aa
  ret double %r
}

; f(x) = 0.72 * (x[2]^2 + x[3]^2), the 0.72 and &x[2] read back as two
; double loads of one {double, ptr} put together into a <2 x double>
define double @ins_lane(ptr %x) {
  %o = alloca <2 x double>, align 16
  %p2 = getelementptr inbounds i8, ptr %x, i64 16
  store double 7.200000e-01, ptr %o, align 16
  %slot = getelementptr inbounds i8, ptr %o, i64 8
  store ptr %p2, ptr %slot, align 8
  %l0 = load double, ptr %o, align 16
  %l1 = load double, ptr %slot, align 8
  %v0 = insertelement <2 x double> undef, double %l0, i32 0
  %v = insertelement <2 x double> %v0, double %l1, i32 1
  %bits = bitcast <2 x double> %v to <2 x i64>
  %w = extractelement <2 x i64> %bits, i64 1
  %q = inttoptr i64 %w to ptr
  %c = shufflevector <2 x double> %v, <2 x double> poison, <2 x i32> zeroinitializer
  %a = load <2 x double>, ptr %q, align 8
  %aa = fmul <2 x double> %a, %a
  %r2 = fmul <2 x double> %c, %aa
  %r0 = extractelement <2 x double> %r2, i64 0
  %r1 = extractelement <2 x double> %r2, i64 1
  %r = fadd double %r0, %r1
  ret double %r
}

; f(x) = 0.72 * x[2]^2, the 0.72, x and the index 2 read back from one
; <4 x double>
define double @idx_lane(ptr %x) {
  %o = alloca <4 x double>, align 32
  store double 7.200000e-01, ptr %o, align 32
  %s1 = getelementptr inbounds i8, ptr %o, i64 8
  store ptr %x, ptr %s1, align 8
  %s2 = getelementptr inbounds i8, ptr %o, i64 16
  store i64 2, ptr %s2, align 16
  %v = load <4 x double>, ptr %o, align 32
  %bits = bitcast <4 x double> %v to <4 x i64>
  %w = extractelement <4 x i64> %bits, i64 1
  %p = inttoptr i64 %w to ptr
  %k = extractelement <4 x i64> %bits, i64 2
  %q = getelementptr inbounds double, ptr %p, i64 %k
  %c = extractelement <4 x double> %v, i64 0
  %a = load double, ptr %q, align 8
  %aa = fmul double %a, %a
  %r = fmul double %c, %aa
  ret double %r
}

; f(x) = x[0] > 0 ? 0.72 * x[1]^2 : 0.5 * x[3]^2, the factor and the
; pointer read from one of two {double, ptr} objects: a PHI of the loads
define double @phi_lane(ptr %x) {
entry:
  %o1 = alloca <2 x double>, align 16
  %o2 = alloca <2 x double>, align 16
  %p1 = getelementptr inbounds i8, ptr %x, i64 8
  %p3 = getelementptr inbounds i8, ptr %x, i64 24
  store double 7.200000e-01, ptr %o1, align 16
  %s1 = getelementptr inbounds i8, ptr %o1, i64 8
  store ptr %p1, ptr %s1, align 8
  store double 5.000000e-01, ptr %o2, align 16
  %s2 = getelementptr inbounds i8, ptr %o2, i64 8
  store ptr %p3, ptr %s2, align 8
  %x0 = load double, ptr %x, align 8
  %pos = fcmp ogt double %x0, 0.0
  br i1 %pos, label %a, label %b
a:
  %va = load <2 x double>, ptr %o1, align 16
  br label %join
b:
  %vb = load <2 x double>, ptr %o2, align 16
  br label %join
join:
  %v = phi <2 x double> [ %va, %a ], [ %vb, %b ]
  %bits = bitcast <2 x double> %v to <2 x i64>
  %w = extractelement <2 x i64> %bits, i64 1
  %q = inttoptr i64 %w to ptr
  %c = extractelement <2 x double> %v, i64 0
  %l = load double, ptr %q, align 8
  %ll = fmul double %l, %l
  %r = fmul double %c, %ll
  ret double %r
}

; f(x) = x[0] < 0 ? 0.72 * x[1]^2 : 0.5 * x[3]^2, the same by a select
define double @sel_lane(ptr %x) {
  %o1 = alloca <2 x double>, align 16
  %o2 = alloca <2 x double>, align 16
  %p1 = getelementptr inbounds i8, ptr %x, i64 8
  %p3 = getelementptr inbounds i8, ptr %x, i64 24
  store double 7.200000e-01, ptr %o1, align 16
  %s1 = getelementptr inbounds i8, ptr %o1, i64 8
  store ptr %p1, ptr %s1, align 8
  store double 5.000000e-01, ptr %o2, align 16
  %s2 = getelementptr inbounds i8, ptr %o2, i64 8
  store ptr %p3, ptr %s2, align 8
  %x0 = load double, ptr %x, align 8
  %neg = fcmp olt double %x0, 0.0
  %va = load <2 x double>, ptr %o1, align 16
  %vb = load <2 x double>, ptr %o2, align 16
  %v = select i1 %neg, <2 x double> %va, <2 x double> %vb
  %bits = bitcast <2 x double> %v to <2 x i64>
  %w = extractelement <2 x i64> %bits, i64 1
  %q = inttoptr i64 %w to ptr
  %c = extractelement <2 x double> %v, i64 0
  %l = load double, ptr %q, align 8
  %ll = fmul double %l, %l
  %r = fmul double %c, %ll
  ret double %r
}

; f(x) = x[1] * x[2], both from one <4 x double> load of x through i256
; f(x) = x0 x2 + x1 x3, the products as one <2 x double>, lane 1 stored
; through its integer bits
define double @cof_lane(ptr %x) {
  %slot = alloca double, align 8
  %a = load <2 x double>, ptr %x, align 16
  %p2 = getelementptr inbounds i8, ptr %x, i64 16
  %b = load <2 x double>, ptr %p2, align 16
  %v = fmul <2 x double> %a, %b
  %bits = bitcast <2 x double> %v to <2 x i64>
  %w = extractelement <2 x i64> %bits, i64 1
  store i64 %w, ptr %slot, align 8, !tbaa !0
  %l0 = extractelement <2 x double> %v, i64 0
  %l1 = call double @read_slot(ptr %slot)
  %r = fadd double %l0, %l1
  ret double %r
}

; kept as a call (recursive): the slot stays memory
define internal double @read_slot(ptr %p) {
  %v = load double, ptr %p, align 8, !tbaa !0
  %z = fcmp olt double %v, -1.0e300
  br i1 %z, label %again, label %done
again:
  %w = call double @read_slot(ptr %p)
  ret double %w
done:
  ret double %v
}

; f(x) = sum over k of (x0 x2) x_k: the product as lane 0 of a <2 x
; double>, splat to four lanes through integers
define double @splat_lane(ptr %x) {
  %out = alloca <4 x double>, align 32
  %a = load <2 x double>, ptr %x, align 16
  %p2 = getelementptr inbounds i8, ptr %x, i64 16
  %b = load <2 x double>, ptr %p2, align 16
  %v = fmul <2 x double> %a, %b
  %bits = bitcast <2 x double> %v to <2 x i64>
  %wide = shufflevector <2 x i64> %bits, <2 x i64> poison, <4 x i32> <i32 0, i32 poison, i32 poison, i32 poison>
  %f = bitcast <4 x i64> %wide to <4 x double>
  %s = shufflevector <4 x double> %f, <4 x double> poison, <4 x i32> zeroinitializer
  %xs = load <4 x double>, ptr %x, align 16
  %m = fmul <4 x double> %s, %xs
  store <4 x double> %m, ptr %out, align 32
  %r = call double @sum4(ptr %out)
  ret double %r
}

; kept as a call (recursive): the vector stays memory
define internal double @sum4(ptr %p) {
  %v = load <4 x double>, ptr %p, align 32
  %v0 = extractelement <4 x double> %v, i64 0
  %v1 = extractelement <4 x double> %v, i64 1
  %v2 = extractelement <4 x double> %v, i64 2
  %v3 = extractelement <4 x double> %v, i64 3
  %r01 = fadd double %v0, %v1
  %r012 = fadd double %r01, %v2
  %r = fadd double %r012, %v3
  %z = fcmp olt double %r, -1.0e300
  br i1 %z, label %again, label %done
again:
  %w = call double @sum4(ptr %p)
  ret double %w
done:
  ret double %r
}

define double @wide_lanes(ptr %x) {
  %v = load <4 x double>, ptr %x, align 8
  %b = bitcast <4 x double> %v to i256
  %s = lshr i256 %b, 64
  %t = trunc i256 %s to i128
  %l = bitcast i128 %t to <2 x double>
  %l1 = extractelement <2 x double> %l, i64 0
  %l2 = extractelement <2 x double> %l, i64 1
  %r = fmul double %l1, %l2
  ret double %r
}

; f(x) = (x1 + x2) x3: lanes 1 and 2 of x stored through an i128 into a
; slot a kept callee adds up
define double @store_lanes(ptr %x) {
  %slot = alloca <2 x double>, align 16
  %v = load <4 x double>, ptr %x, align 8
  %b = bitcast <4 x double> %v to i256
  %s = lshr i256 %b, 64
  %t = trunc i256 %s to i128
  store i128 %t, ptr %slot, align 16
  %l3 = extractelement <4 x double> %v, i64 3
  %sum = call double @sum2(ptr %slot)
  %r = fmul double %sum, %l3
  ret double %r
}

; kept as a call (recursive): the slot stays memory
define internal double @sum2(ptr %p) {
  %v = load <2 x double>, ptr %p, align 16
  %v0 = extractelement <2 x double> %v, i64 0
  %v1 = extractelement <2 x double> %v, i64 1
  %r = fadd double %v0, %v1
  %z = fcmp olt double %r, -1.0e300
  br i1 %z, label %again, label %done
again:
  %w = call double @sum2(ptr %p)
  ret double %w
done:
  ret double %r
}

; f(x) = x[2] * x[3]^2, from word 1 of one <4 x double> load of x as i128s
define double @word_lanes(ptr %x) {
  %v = load <4 x double>, ptr %x, align 8
  %b = bitcast <4 x double> %v to <2 x i128>
  %w = extractelement <2 x i128> %b, i64 1
  %l = bitcast i128 %w to <2 x double>
  %l2 = extractelement <2 x double> %l, i64 0
  %l3 = extractelement <2 x double> %l, i64 1
  %q = fmul double %l3, %l3
  %r = fmul double %l2, %q
  ret double %r
}

; f(x) = x[1]^2 * x[2], both from one i128 load of x + 1
define double @int_lanes(ptr %x) {
  %p = getelementptr inbounds i8, ptr %x, i64 8
  %w = load i128, ptr %p, align 1
  %lo = trunc i128 %w to i64
  %a = bitcast i64 %lo to double
  %s = lshr i128 %w, 64
  %hi = trunc nuw i128 %s to i64
  %b = bitcast i64 %hi to double
  %aa = fmul double %a, %a
  %r = fmul double %aa, %b
  ret double %r
}

; f(x) = x0 x1 in vectors of one lane
define double @one_lane(ptr %x) {
  %a = load double, ptr %x, align 8
  %v = bitcast double %a to <1 x double>
  %p1 = getelementptr inbounds i8, ptr %x, i64 8
  %w = load <1 x double>, ptr %p1, align 8
  %m = fmul <1 x double> %v, %w
  %r = bitcast <1 x double> %m to double
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
declare double @llvm.fabs.f64(double)
@fmt = private constant [26 x i8] c"%s: got %.17g want %.17g\0A\00"
@n1 = private constant [9 x i8] c"ptr_lane\00"
@n2 = private constant [11 x i8] c"wide_lanes\00"
@n3 = private constant [10 x i8] c"int_lanes\00"
@n4 = private constant [11 x i8] c"word_lanes\00"
@n5 = private constant [9 x i8] c"ins_lane\00"
@n6 = private constant [9 x i8] c"idx_lane\00"
@n7 = private constant [9 x i8] c"phi_lane\00"
@n8 = private constant [9 x i8] c"sel_lane\00"
@n9 = private constant [9 x i8] c"cof_lane\00"
@n10 = private constant [11 x i8] c"splat_lane\00"
@n11 = private constant [9 x i8] c"one_lane\00"
@n12 = private constant [12 x i8] c"store_lanes\00"

define i32 @check(ptr %name, double %got, double %want) {
  %d = fsub double %got, %want
  %a = call double @llvm.fabs.f64(double %d)
  %bad = fcmp ugt double %a, 1.0e-12
  br i1 %bad, label %fail, label %ok
fail:
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, double %got, double %want)
  ret i32 1
ok:
  ret i32 0
}

define i32 @main() {
  %x = alloca [4 x double], align 16
  %dx = alloca [4 x double], align 16
  store <4 x double> <double 0.5, double 1.5, double -2.0, double 3.0>, ptr %x, align 16
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @ptr_lane, ptr %x, ptr %dx)
  %d1p = getelementptr inbounds double, ptr %dx, i64 1
  %g1 = load double, ptr %d1p
  ; 2 * 0.72 * 1.5
  %c1 = call i32 @check(ptr @n1, double %g1, double 2.16)
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @wide_lanes, ptr %x, ptr %dx)
  %g2 = load double, ptr %d1p
  %c2 = call i32 @check(ptr @n2, double %g2, double -2.0)
  %d2p = getelementptr inbounds double, ptr %dx, i64 2
  %g3 = load double, ptr %d2p
  %c3 = call i32 @check(ptr @n2, double %g3, double 1.5)
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @int_lanes, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ; d/dx1 = 2 x1 x2 = -6, d/dx2 = x1^2 = 2.25
  %g4 = load double, ptr %d1p
  %c4 = call i32 @check(ptr @n3, double %g4, double -6.0)
  %g5 = load double, ptr %d2p
  %c5 = call i32 @check(ptr @n3, double %g5, double 2.25)
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %s1, %c3
  %s3 = add i32 %s2, %c4
  %s4 = add i32 %s3, %c5
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @word_lanes, ptr %x, ptr %dx)
  ; x = (0.5, 1.5, -2, 3): d/dx2 = x3^2 = 9, d/dx3 = 2 x2 x3 = -12
  %g6 = load double, ptr %d2p
  %c6 = call i32 @check(ptr @n4, double %g6, double 9.0)
  %d3p = getelementptr inbounds double, ptr %dx, i64 3
  %g7 = load double, ptr %d3p
  %c7 = call i32 @check(ptr @n4, double %g7, double -12.0)
  %s5 = add i32 %s4, %c6
  %s6 = add i32 %s5, %c7
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @ins_lane, ptr %x, ptr %dx)
  ; d/dx2 = 2 * 0.72 * x2 = -2.88, d/dx3 = 2 * 0.72 * x3 = 4.32
  %g8 = load double, ptr %d2p
  %c8 = call i32 @check(ptr @n5, double %g8, double -2.88)
  %g9 = load double, ptr %d3p
  %c9 = call i32 @check(ptr @n5, double %g9, double 4.32)
  %s7 = add i32 %s6, %c8
  %s8 = add i32 %s7, %c9
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @idx_lane, ptr %x, ptr %dx)
  ; d/dx2 = 2 * 0.72 * x2 = -2.88
  %g10 = load double, ptr %d2p
  %c10 = call i32 @check(ptr @n6, double %g10, double -2.88)
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @phi_lane, ptr %x, ptr %dx)
  ; x0 = 0.5 > 0: d/dx1 = 2 * 0.72 * x1 = 2.16, d/dx3 = 0
  %g11 = load double, ptr %d1p
  %c11 = call i32 @check(ptr @n7, double %g11, double 2.16)
  %g12 = load double, ptr %d3p
  %c12 = call i32 @check(ptr @n7, double %g12, double 0.0)
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @sel_lane, ptr %x, ptr %dx)
  ; x0 = 0.5, not < 0: d/dx3 = 2 * 0.5 * x3 = 3, d/dx1 = 0
  %g13 = load double, ptr %d3p
  %c13 = call i32 @check(ptr @n8, double %g13, double 3.0)
  %g14 = load double, ptr %d1p
  %c14 = call i32 @check(ptr @n8, double %g14, double 0.0)
  %s9 = add i32 %s8, %c10
  %s10 = add i32 %s9, %c11
  %s11 = add i32 %s10, %c12
  %s12 = add i32 %s11, %c13
  %s13 = add i32 %s12, %c14
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @cof_lane, ptr %x, ptr %dx)
  ; d/dx = (x2, x3, x0, x1) = (-2, 3, 0.5, 1.5)
  %g15 = load double, ptr %dx
  %c15 = call i32 @check(ptr @n9, double %g15, double -2.0)
  %g16 = load double, ptr %d1p
  %c16 = call i32 @check(ptr @n9, double %g16, double 3.0)
  %g17 = load double, ptr %d2p
  %c17 = call i32 @check(ptr @n9, double %g17, double 0.5)
  %g18 = load double, ptr %d3p
  %c18 = call i32 @check(ptr @n9, double %g18, double 1.5)
  %s14 = add i32 %s13, %c15
  %s15 = add i32 %s14, %c16
  %s16 = add i32 %s15, %c17
  %s17 = add i32 %s16, %c18
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @splat_lane, ptr %x, ptr %dx)
  ; f = x0 x2 S, S = x0 + x1 + x2 + x3 = 3: d/dx0 = x2 S + x0 x2 = -7,
  ; d/dx1 = x0 x2 = -1, d/dx2 = x0 S + x0 x2 = 0.5, d/dx3 = -1
  %g19 = load double, ptr %dx
  %c19 = call i32 @check(ptr @n10, double %g19, double -7.0)
  %g20 = load double, ptr %d1p
  %c20 = call i32 @check(ptr @n10, double %g20, double -1.0)
  %g21 = load double, ptr %d2p
  %c21 = call i32 @check(ptr @n10, double %g21, double 0.5)
  %g22 = load double, ptr %d3p
  %c22 = call i32 @check(ptr @n10, double %g22, double -1.0)
  %s18 = add i32 %s17, %c19
  %s19 = add i32 %s18, %c20
  %s20 = add i32 %s19, %c21
  %s21 = add i32 %s20, %c22
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @one_lane, ptr %x, ptr %dx)
  ; d/dx = (x1, x0) = (1.5, 0.5)
  %g23 = load double, ptr %dx
  %c23 = call i32 @check(ptr @n11, double %g23, double 1.5)
  %g24 = load double, ptr %d1p
  %c24 = call i32 @check(ptr @n11, double %g24, double 0.5)
  %s22 = add i32 %s21, %c23
  %s23 = add i32 %s22, %c24
  store <4 x double> zeroinitializer, ptr %dx, align 16
  call void (ptr, ...) @__enzyme_autodiff(ptr @store_lanes, ptr %x, ptr %dx)
  ; x = (0.5, 1.5, -2, 3): d/dx1 = d/dx2 = x3 = 3, d/dx3 = x1 + x2 = -0.5
  %g25 = load double, ptr %d1p
  %c25 = call i32 @check(ptr @n12, double %g25, double 3.0)
  %g26 = load double, ptr %d2p
  %c26 = call i32 @check(ptr @n12, double %g26, double 3.0)
  %g27 = load double, ptr %d3p
  %c27 = call i32 @check(ptr @n12, double %g27, double -0.5)
  %g28 = load double, ptr %dx
  %c28 = call i32 @check(ptr @n12, double %g28, double 0.0)
  %s24 = add i32 %s23, %c25
  %s25 = add i32 %s24, %c26
  %s26 = add i32 %s25, %c27
  %s27 = add i32 %s26, %c28
  ret i32 %s27
}

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C++ TBAA"}
