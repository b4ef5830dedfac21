; A pointer moved as an i64 into a field of a local, addressed by an i8 GEP
; (what SROA leaves of an Eigen expression's copy at -O0: fuzz --eigen
; seed 1060124, q^T (a b^T) q with q = y .* y): the source is a parameter's
; memory (nothing typed there), the destination a field the alloca's type
; declares a pointer. The word must move the shadow pointer; taken for a
; double it left the field's shadow null, and the reverse skipped the
; adjoint through it (a silent wrong gradient; a segfault where the
; reverse did not check). The declared type of an alloca at a constant
; offset is read through i8 GEPs now (analysis/bits.c byte_decl_class).
; f(h) = (*h)[0]^2 with h holding &x: df/dx = 2 x = 6 (use is recursive,
; so it stays a call and the field is read only there).
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

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [9 x i8] c"dx %.17g\00"
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
  call i32 (ptr, ...) @printf(ptr @nl)
  %ok = fcmp oeq double %g, 6.0
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
