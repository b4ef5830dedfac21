; Pointers moved as <2 x ptr> vectors (the SLP vectorizer's form of
; std::vector's swap: {end, capacity} loaded and stored as one vector):
; through memory, a shufflevector, a PHI, a select, a vector GEP, an
; extractelement with a run-time lane and a vector icmp. Each lane keeps
; its shadow. Before, the vector loads and stores moved the primal
; addresses only: the shadows stayed behind and the gradient was silently
; wrong (fuzz --structvec -X seed 302: `tmp = sv; sv.swap(tmp)`).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
declare double @sin(double)
declare double @cos(double)
declare double @llvm.fabs.f64(double)

; f(x, y, n) with n = 3: a = {x, y + 1}; each of the n steps swaps a's
; lanes through memory and adds (lane 0)^2 to acc / 2: acc = 1.25 y1^2 +
; 0.5 x0^2. Then v = (n > 2 ? the last swap {y + 1, x} : a), g = v + {0,
; 1} = {y + 1, x + 1} stored to b and read back: r = y1 x1; lane n - 2 of
; (n == 3 ? g : v) is x + 1: t = sin(x1); g != a in lane 0 keeps the factor
; 1. f = acc + r + t.
define double @f(ptr %x, ptr %y, i64 %n) {
entry:
  %a = alloca [2 x ptr], align 16
  %b = alloca [2 x ptr], align 16
  %y1 = getelementptr inbounds double, ptr %y, i64 1
  %v0 = insertelement <2 x ptr> poison, ptr %x, i64 0
  %v1 = insertelement <2 x ptr> %v0, ptr %y1, i64 1
  store <2 x ptr> %v1, ptr %a, align 16
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %w = load <2 x ptr>, ptr %a, align 16
  %s = shufflevector <2 x ptr> %w, <2 x ptr> poison, <2 x i32> <i32 1, i32 0>
  store <2 x ptr> %s, ptr %a, align 16
  %p0 = extractelement <2 x ptr> %s, i64 0
  %d = load double, ptr %p0
  %dd = fmul double %d, %d
  %half = fmul double %acc, 5.000000e-01
  %acc1 = fadd double %half, %dd
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %after

after:
  %big = icmp ugt i64 %n, 2
  br i1 %big, label %left, label %join

left:
  br label %join

join:
  %v = phi <2 x ptr> [ %s, %left ], [ %w, %after ]
  %g = getelementptr inbounds double, <2 x ptr> %v, <2 x i64> <i64 0, i64 1>
  store <2 x ptr> %g, ptr %b, align 16
  %q0 = load ptr, ptr %b, align 16
  %b1 = getelementptr inbounds i8, ptr %b, i64 8
  %q1 = load ptr, ptr %b1, align 8
  %e0 = load double, ptr %q0
  %e1 = load double, ptr %q1
  %r = fmul double %e0, %e1
  %three = icmp eq i64 %n, 3
  %sel = select i1 %three, <2 x ptr> %g, <2 x ptr> %v
  %k = sub i64 %n, 2
  %pe = extractelement <2 x ptr> %sel, i64 %k
  %et = load double, ptr %pe
  %t = call double @sin(double %et)
  %a0 = load <2 x ptr>, ptr %a, align 16
  %ne = icmp ne <2 x ptr> %g, %v1
  %ne0 = extractelement <2 x i1> %ne, i64 0
  %fac = select i1 %ne0, double 1.000000e+00, double 3.000000e+00
  %rt = fadd double %r, %t
  %sum = fadd double %acc1, %rt
  %res = fmul double %sum, %fac
  ret double %res
}

; h(x, y) = x0^2 + 3 y0: b starts as {y, x} and is overwritten with a
; = {x, y} by one <2 x ptr> load and store (the swap's shape), then read.
define double @h(ptr %x, ptr %y) {
  %a = alloca [2 x ptr], align 16
  %b = alloca [2 x ptr], align 16
  %a1 = getelementptr inbounds i8, ptr %a, i64 8
  %b1 = getelementptr inbounds i8, ptr %b, i64 8
  store ptr %x, ptr %a, align 16
  store ptr %y, ptr %a1, align 8
  store ptr %y, ptr %b, align 16
  store ptr %x, ptr %b1, align 8
  %v = load <2 x ptr>, ptr %a, align 16
  store <2 x ptr> %v, ptr %b, align 16
  %p = load ptr, ptr %b, align 16
  %q = load ptr, ptr %b1, align 8
  %u = load double, ptr %p
  %w = load double, ptr %q
  %uu = fmul double %u, %u
  %w3 = fmul double %w, 3.000000e+00
  %r = fadd double %uu, %w3
  ret double %r
}

; CHECK-LABEL: define internal {{.*}}@f.lt.{{grad|aug}}(
; CHECK-NOT: x ptr>
; CHECK: ret
; CHECK-LABEL: define internal {{.*}}@h.lt.{{grad|aug}}(
; CHECK-NOT: x ptr>
; CHECK: ret

@x = global [2 x double] [double 0.7, double 1.3]
@y = global [2 x double] [double 0.4, double -0.9]
@dx = global [2 x double] zeroinitializer
@dy = global [2 x double] zeroinitializer
@hdx = global [2 x double] zeroinitializer
@hdy = global [2 x double] zeroinitializer
@tx = global [2 x double] [double 1.0, double 1.0]
@ty = global [2 x double] [double 1.0, double 1.0]

define i1 @near(double %a, double %b) {
  %d = fsub double %a, %b
  %m = call double @llvm.fabs.f64(double %d)
  %ok = fcmp olt double %m, 1.0e-12
  ret i1 %ok
}

define i32 @main() {
  call double (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr @x, ptr @dx, metadata !"enzyme_dup", ptr @y, ptr @dy, i64 3)
  %g0 = load double, ptr @dx
  %g1 = load double, ptr getelementptr (double, ptr @dx, i64 1)
  %h0 = load double, ptr @dy
  %h1 = load double, ptr getelementptr (double, ptr @dy, i64 1)
  ; df/dx0 = x0 = 0.7, df/dx1 = y1 + cos(x1), df/dy0 = 0,
  ; df/dy1 = 2.5 y1 + x1 = -0.95
  %cx1 = call double @cos(double 1.3)
  %e1 = fadd double %cx1, -0.9
  %ok0 = call i1 @near(double %g0, double 0.7)
  %ok1 = call i1 @near(double %g1, double %e1)
  %ok2 = call i1 @near(double %h0, double 0.0)
  %ok3 = call i1 @near(double %h1, double -0.95)
  ; forward mode along all ones: the sum of the gradient
  %tan = call double (...) @__enzyme_fwddiff(ptr @f, metadata !"enzyme_dup", ptr @x, ptr @tx, metadata !"enzyme_dup", ptr @y, ptr @ty, i64 3)
  %s01 = fadd double 0.7, %e1
  %sall = fadd double %s01, -0.95
  %ok4 = call i1 @near(double %tan, double %sall)
  ; dh/dx0 = 2 x0 = 1.4, dh/dy0 = 3 (before: the shadows stayed {dy, dx})
  call double (...) @__enzyme_autodiff(ptr @h, metadata !"enzyme_dup", ptr @x, ptr @hdx, metadata !"enzyme_dup", ptr @y, ptr @hdy)
  %k0 = load double, ptr @hdx
  %l0 = load double, ptr @hdy
  %ok5 = call i1 @near(double %k0, double 1.4)
  %ok6 = call i1 @near(double %l0, double 3.0)
  %ok56 = and i1 %ok5, %ok6
  %a01p = and i1 %ok0, %ok1
  %a01 = and i1 %a01p, %ok56
  %a23 = and i1 %ok2, %ok3
  %a03 = and i1 %a01, %a23
  %ok = and i1 %a03, %ok4
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
