; A pointer moved as an i64 into a field of a local, addressed by an i8 GEP
; (what SROA leaves of an Eigen expression's copy at -O0: fuzz --eigen
; seed 1060124, q^T (a b^T) q with q = y .* y): the source is a parameter's
; memory (nothing typed there). The word must move the shadow pointer;
; taken for a double it left the field's shadow null, and the reverse
; skipped the adjoint through it (a silent wrong gradient, dx 0; a segfault
; where the reverse did not check).
; @f: the local's type declares a pointer there, read through the i8 GEP
; (analysis/bits.c byte_decl_class). @g: the local is a byte buffer, and
; only the callee that reads the field says it is a pointer (bits.c
; callee_accesses; dx 0 before either).
; f(h) = g(h) = (*h)[0]^2 with h holding &x: d/dx = 2 x = 6 (use is
; recursive, so it stays a call and the field is read only there).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll
; RUN: %ltopt -passes='leantape,default<O2>' -S %s -o %t2.ll && lli %t2.ll
; The augmented f copies the shadow word into the shadow of the field.
; CHECK-LABEL: define internal void @f.lt.grad(
; CHECK-SAME: ptr %h, ptr [[DH:%[0-9]+]],
; CHECK: %w = load i64, ptr %h
; CHECK-NEXT: [[SW:%[0-9]+]] = load i64, ptr [[DH]]
; CHECK: store i64 %w, ptr %d
; CHECK-NEXT: store i64 [[SW]], ptr
; CHECK: call double @use.lt.aug(
; CHECK-LABEL: define internal void @g.lt.grad(
; CHECK-SAME: ptr %h, ptr [[DG:%[0-9]+]],
; CHECK: %w = load i64, ptr %h
; CHECK-NEXT: [[SG:%[0-9]+]] = load i64, ptr [[DG]]
; CHECK: store i64 %w, ptr %d
; CHECK-NEXT: store i64 [[SG]], ptr
%Holder = type { [8 x i8], ptr }

define internal double @use(ptr %s, i32 %n) {
  %more = icmp sgt i32 %n, 0
  br i1 %more, label %rec, label %leaf
rec:
  %n1 = sub i32 %n, 1
  %r = call double @use(ptr %s, i32 %n1)
  ret double %r
leaf:
  %q = getelementptr inbounds i8, ptr %s, i64 8
  %p = load ptr, ptr %q, align 8
  %v = load double, ptr %p, align 8
  %m = fmul double %v, %v
  ret double %m
}

define double @f(ptr %h) {
  %s = alloca %Holder, align 8
  %w = load i64, ptr %h, align 8
  %d = getelementptr inbounds i8, ptr %s, i64 8
  store i64 %w, ptr %d, align 8
  %r = call double @use(ptr %s, i32 2)
  ret double %r
}

define double @g(ptr %h) {
  %s = alloca [16 x i8], align 8
  %w = load i64, ptr %h, align 8
  %d = getelementptr inbounds i8, ptr %s, i64 8
  store i64 %w, ptr %d, align 8
  %r = call double @use(ptr %s, i32 2)
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [10 x i8] c"dx %.17g \00"
@nl = private constant [2 x i8] c"\0A\00"

define i32 @main() {
  %x = alloca double, align 8
  %dx = alloca double, align 8
  %h = alloca ptr, align 8
  %dh = alloca ptr, align 8
  store double 3.0, ptr %x
  store double 0.0, ptr %dx
  store ptr %x, ptr %h
  store ptr %dx, ptr %dh
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %h, ptr %dh)
  %g = load double, ptr %dx
  call i32 (ptr, ...) @printf(ptr @fmt, double %g)
  store double 0.0, ptr %dx
  call void (ptr, ...) @__enzyme_autodiff(ptr @g, metadata !"enzyme_dup", ptr %h, ptr %dh)
  %g2 = load double, ptr %dx
  call i32 (ptr, ...) @printf(ptr @fmt, double %g2)
  call i32 (ptr, ...) @printf(ptr @nl)
  %ok1 = fcmp oeq double %g, 6.0
  %ok2 = fcmp oeq double %g2, 6.0
  %ok = and i1 %ok1, %ok2
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
