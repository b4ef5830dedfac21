; The layouts of copies that nothing types, in IR optimised before the
; pass runs (the shape of std::vector<S> at -O3, S {double w; double *p;
; int k}: i8 GEPs only). A constant copy of three S (72 bytes) is laid out
; from the stores that filled its source, as one S repeated (before: only
; copies of up to 64 bytes were, and this one was the clean error "copies
; memory that may hold both pointers ... and its layout is unknown"); a
; copy of a run-time length from the block it filled, whose byte count is
; a multiple of 24 (sdiv exact), takes that layout (fuzz --structvec -X
; seeds 402 and 434 at -O3). The pointers' shadows travel with them.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

declare double @__enzyme_autodiff(...)
declare noalias ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare double @llvm.fabs.f64(double)

; f(x, y, n) = sum over k < n of x[k] y[k] * x[2 - k] (n = 3), with
; S[k] = {x[k] y[k], x + 2 - k, k} stored in b field by field at
; constant offsets (an unrolled push_back), copied to c (72 bytes),
; then to d (n * 24 bytes, as pointer difference) and read from d.
define double @f(ptr %x, ptr %y, i64 %n) {
entry:
  %b = call ptr @malloc(i64 192)
  %x0.p = getelementptr inbounds double, ptr %x, i64 0
  %y0.p = getelementptr inbounds double, ptr %y, i64 0
  %x0 = load double, ptr %x0.p
  %y0 = load double, ptr %y0.p
  %w0 = fmul double %x0, %y0
  store double %w0, ptr %b, align 8
  %sp0 = getelementptr inbounds i8, ptr %b, i64 8
  %pj0 = getelementptr inbounds double, ptr %x, i64 2
  store ptr %pj0, ptr %sp0, align 8
  %sk0 = getelementptr inbounds i8, ptr %b, i64 16
  store i32 0, ptr %sk0, align 8
  %x1.p = getelementptr inbounds double, ptr %x, i64 1
  %y1.p = getelementptr inbounds double, ptr %y, i64 1
  %x1 = load double, ptr %x1.p
  %y1 = load double, ptr %y1.p
  %w1 = fmul double %x1, %y1
  %sw1 = getelementptr inbounds i8, ptr %b, i64 24
  store double %w1, ptr %sw1, align 8
  %sp1 = getelementptr inbounds i8, ptr %b, i64 32
  %pj1 = getelementptr inbounds double, ptr %x, i64 1
  store ptr %pj1, ptr %sp1, align 8
  %sk1 = getelementptr inbounds i8, ptr %b, i64 40
  store i32 1, ptr %sk1, align 8
  %x2.p = getelementptr inbounds double, ptr %x, i64 2
  %y2.p = getelementptr inbounds double, ptr %y, i64 2
  %x2 = load double, ptr %x2.p
  %y2 = load double, ptr %y2.p
  %w2 = fmul double %x2, %y2
  %sw2 = getelementptr inbounds i8, ptr %b, i64 48
  store double %w2, ptr %sw2, align 8
  %sp2 = getelementptr inbounds i8, ptr %b, i64 56
  %pj2 = getelementptr inbounds double, ptr %x, i64 0
  store ptr %pj2, ptr %sp2, align 8
  %sk2 = getelementptr inbounds i8, ptr %b, i64 64
  store i32 2, ptr %sk2, align 8
  br label %copy

copy:
  %c = call ptr @malloc(i64 72)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %c, ptr align 8 %b, i64 72, i1 false)
  %cn = mul i64 %n, 24
  %cend = getelementptr inbounds i8, ptr %c, i64 %cn
  %e = ptrtoint ptr %cend to i64
  %s = ptrtoint ptr %c to i64
  %len = sub i64 %e, %s
  %cnt = sdiv exact i64 %len, 24
  %d = call ptr @malloc(i64 %len)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %c, i64 %len, i1 false)
  br label %sum

sum:
  %q = phi i64 [ 0, %copy ], [ %q1, %sum ]
  %acc = phi double [ 0.0, %copy ], [ %acc1, %sum ]
  %qo = mul i64 %q, 24
  %dw = getelementptr inbounds i8, ptr %d, i64 %qo
  %wq = load double, ptr %dw, align 8
  %qpo = add i64 %qo, 8
  %dp = getelementptr inbounds i8, ptr %d, i64 %qpo
  %pq = load ptr, ptr %dp, align 8
  %v = load double, ptr %pq
  %t = fmul double %wq, %v
  %acc1 = fadd double %acc, %t
  %q1 = add i64 %q, 1
  %again = icmp ult i64 %q1, %cnt
  br i1 %again, label %sum, label %done

done:
  call void @free(ptr %b)
  call void @free(ptr %c)
  call void @free(ptr %d)
  ret double %acc1
}

; both copies move S's double and pointer shadows, 24 bytes at a time
; CHECK-LABEL: define internal {{.*}}@f.lt.{{grad|aug}}(
; CHECK: call void @lt.fwd.copy.24.0double.8ptr(
; CHECK: call void @lt.fwd.copy.24.0double.8ptr(

@x = global [3 x double] [double 0.5, double 1.5, double -0.7]
@y = global [3 x double] [double 2.0, double -1.0, double 0.3]
@dx = global [3 x double] zeroinitializer
@dy = global [3 x double] zeroinitializer

define i1 @near(double %a, double %b) {
  %d = fsub double %a, %b
  %m = call double @llvm.fabs.f64(double %d)
  %ok = fcmp olt double %m, 1.0e-12
  ret i1 %ok
}

; df/dx = (y0 x2 + x2 y2, 2 x1 y1, x0 y0 + y2 x0) = (-1.61, -3, 1.15),
; df/dy = (x0 x2, x1^2, x2 x0) = (-0.35, 2.25, -0.35)
define i32 @main() {
  call double (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr @x, ptr @dx, metadata !"enzyme_dup", ptr @y, ptr @dy, i64 3)
  %a0 = load double, ptr @dx
  %a1 = load double, ptr getelementptr (double, ptr @dx, i64 1)
  %a2 = load double, ptr getelementptr (double, ptr @dx, i64 2)
  %b0 = load double, ptr @dy
  %b1 = load double, ptr getelementptr (double, ptr @dy, i64 1)
  %b2 = load double, ptr getelementptr (double, ptr @dy, i64 2)
  %o0 = call i1 @near(double %a0, double -1.61)
  %o1 = call i1 @near(double %a1, double -3.0)
  %o2 = call i1 @near(double %a2, double 1.15)
  %o3 = call i1 @near(double %b0, double -0.35)
  %o4 = call i1 @near(double %b1, double 2.25)
  %o5 = call i1 @near(double %b2, double -0.35)
  %p01 = and i1 %o0, %o1
  %p23 = and i1 %o2, %o3
  %p45 = and i1 %o4, %o5
  %p03 = and i1 %p01, %p23
  %ok = and i1 %p03, %p45
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
