; A loop record holding a <2 x double> and a double is 24 bytes, so the
; vector's slot is 16-aligned only in every other record: its tape store
; and load must say align 8, not 16 (Eigen's matrix-vector product with
; -ffast-math at -O2 crashed in movaps on the second record).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape -disable-output -pass-remarks-analysis=leantape %s 2>&1 | FileCheck %s --check-prefix=REMARK
; REMARK: loop (depth 1) in 'f': caches 24 bytes per iteration
; REMARK-SAME: %x (<2 x double>), %y (double)
; CHECK-LABEL: define internal {{.*}} @f.lt.grad(
; CHECK: store <2 x double> %x, ptr %lt.slot{{[0-9]*}}, align 8
; CHECK: load <2 x double>, ptr %lt.slot{{[0-9]*}}, align 8
; CHECK: ret
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; f(v, s, n) = sum_i (v[i] * s[i]^2) . (1, 1), and v[i] = 0 after the read
; (so v[i] is taped: 16 bytes), s[i]^2 needs s[i] (8 bytes, s is
; overwritten with 0 too).
define double @f(ptr %v, ptr %s, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <2 x double> [ zeroinitializer, %entry ], [ %acc1, %loop ]
  %pv = getelementptr inbounds <2 x double>, ptr %v, i64 %i
  %x = load <2 x double>, ptr %pv, align 16
  %ps = getelementptr inbounds double, ptr %s, i64 %i
  %y = load double, ptr %ps, align 8
  %yy = fmul double %y, %y
  %w0 = insertelement <2 x double> poison, double %yy, i64 0
  %w = shufflevector <2 x double> %w0, <2 x double> poison, <2 x i32> zeroinitializer
  %p = fmul <2 x double> %w, %x
  %acc1 = fadd <2 x double> %acc, %p
  store <2 x double> zeroinitializer, ptr %pv, align 16
  store double 0.0, ptr %ps, align 8
  %i1 = add nuw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %a = extractelement <2 x double> %acc1, i64 0
  %b = extractelement <2 x double> %acc1, i64 1
  %r = fadd double %a, %b
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
@bad = private constant [26 x i8] c"mismatch at %d: %g vs %g\0A\00"

; d/dv[i] = (s_i^2, s_i^2), d/ds[i] = 2 s_i (v_i0 + v_i1)
define i32 @main() {
  %v = alloca [8 x <2 x double>], align 16
  %dv = alloca [8 x <2 x double>], align 16
  %s = alloca [8 x double], align 8
  %ds = alloca [8 x double], align 8
  %v0 = alloca [8 x <2 x double>], align 16
  %s0 = alloca [8 x double], align 8
  br label %fill
fill:
  %k = phi i64 [ 0, %0 ], [ %k1, %fill ]
  %kf = uitofp i64 %k to double
  %a0 = fadd double %kf, 0.5
  %a1 = fmul double %kf, -0.25
  %e0 = insertelement <2 x double> poison, double %a0, i64 0
  %e1 = insertelement <2 x double> %e0, double %a1, i64 1
  %pv = getelementptr inbounds <2 x double>, ptr %v, i64 %k
  store <2 x double> %e1, ptr %pv
  %pv0 = getelementptr inbounds <2 x double>, ptr %v0, i64 %k
  store <2 x double> %e1, ptr %pv0
  %pdv = getelementptr inbounds <2 x double>, ptr %dv, i64 %k
  store <2 x double> zeroinitializer, ptr %pdv
  %sk = fadd double %kf, 1.0
  %ps = getelementptr inbounds double, ptr %s, i64 %k
  store double %sk, ptr %ps
  %ps0 = getelementptr inbounds double, ptr %s0, i64 %k
  store double %sk, ptr %ps0
  %pds = getelementptr inbounds double, ptr %ds, i64 %k
  store double 0.0, ptr %pds
  %k1 = add i64 %k, 1
  %kc = icmp ult i64 %k1, 8
  br i1 %kc, label %fill, label %run
run:
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %v, ptr %dv, ptr %s, ptr %ds, i64 8)
  br label %check
check:
  %j = phi i64 [ 0, %run ], [ %j1, %next ]
  %bad = phi i32 [ 0, %run ], [ %bad2, %next ]
  %qs = getelementptr inbounds double, ptr %s0, i64 %j
  %sj = load double, ptr %qs
  %qv = getelementptr inbounds <2 x double>, ptr %v0, i64 %j
  %vj = load <2 x double>, ptr %qv
  %vj0 = extractelement <2 x double> %vj, i64 0
  %vj1 = extractelement <2 x double> %vj, i64 1
  %sum = fadd double %vj0, %vj1
  %t = fmul double %sj, 2.0
  %wantds = fmul double %t, %sum
  %qds = getelementptr inbounds double, ptr %ds, i64 %j
  %gotds = load double, ptr %qds
  %wantdv = fmul double %sj, %sj
  %qdv = getelementptr inbounds <2 x double>, ptr %dv, i64 %j
  %gdv = load <2 x double>, ptr %qdv
  %gdv0 = extractelement <2 x double> %gdv, i64 0
  %gdv1 = extractelement <2 x double> %gdv, i64 1
  %ok1 = fcmp oeq double %gotds, %wantds
  %ok2 = fcmp oeq double %gdv0, %wantdv
  %ok3 = fcmp oeq double %gdv1, %wantdv
  %ok12 = and i1 %ok1, %ok2
  %ok = and i1 %ok12, %ok3
  br i1 %ok, label %next, label %report
report:
  %j32 = trunc i64 %j to i32
  call i32 (ptr, ...) @printf(ptr @bad, i32 %j32, double %gotds, double %wantds)
  br label %next
next:
  %bad1 = phi i32 [ %bad, %check ], [ 1, %report ]
  %bad2 = or i32 %bad1, 0
  %j1 = add i64 %j, 1
  %jc = icmp ult i64 %j1, 8
  br i1 %jc, label %check, label %done
done:
  ret i32 %bad2
}
