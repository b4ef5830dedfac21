; Floats moved through integers (bits.c) where nothing but their use says
; they are floats, and the reverse of a run of such loads (reverse.c).
; Shapes from boost odeint's controlled dopri5 stepper at -O1/-O2 (the
; gradient came back 0, silently): a stepper object whose type starts with
; flag bytes holds the new state at offset 144; the state is copied out as
; an i64 and only then used as a double.
;   - @run: two i64 loads in a row with a varied bitcast between them (the
;     reverse walks such a run in program order; it skipped the bitcast);
;   - @slot_i64: a double stored to an alloca of type i64 and read back as
;     an i64 and bitcast (the alloca's declared type said integer);
;   - @slot_flags: the same in an alloca of a struct whose first bytes are
;     flags ({ i8, double } at offset 0);
;   - @copy: an i64 copy between two such slots, its bits read as double
;     after the copy (the store of a double to the first slot is the only
;     evidence).
; The icmp of the object's address in the inlined @touch keeps SROA from
; promoting it, as odeint's code did.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll
; Each gradient folds to its closed form: nothing is lost on the way.
; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; CHECK-LABEL: define internal double @run.lt.grad(double %x, double %0)
; CHECK-NEXT: lt.pre:
; CHECK-NEXT: ret double %0
; CHECK-LABEL: define internal double @slot_i64.lt.grad(double %x, double %0)
; CHECK: fmul double %0, 3.0
; CHECK-LABEL: define internal double @slot_flags.lt.grad(
; CHECK: fmul double %0, %x
; CHECK-LABEL: define internal double @copy.lt.grad(
; CHECK: call double @llvm.cos.f64(double %x)
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@sink = global i64 0
%Ctl = type <{ i8, [143 x i8], double, double, [8 x i8] }>

define void @touch(ptr %from, ptr %obj, ptr %to) {
  %isnull = icmp eq ptr %obj, null
  %v = load double, ptr %from, align 8
  store double %v, ptr %to, align 8
  ret void
}

; run(x) = x
define double @run(double %x) {
  %obj = alloca %Ctl, align 8
  %new = getelementptr i8, ptr %obj, i64 144
  call void @touch(ptr %obj, ptr %obj, ptr %obj)
  store double %x, ptr %new, align 8
  %bits = load i64, ptr %new, align 8
  %d = bitcast i64 %bits to double
  %flags = load i64, ptr %obj, align 8
  store i64 %flags, ptr @sink, align 8
  ret double %d
}

; slot_i64(x) = 3 x
define double @slot_i64(double %x) {
  %s = alloca i64, align 8
  %o = alloca %Ctl, align 8
  call void @touch(ptr %o, ptr %s, ptr %o)
  %y = fmul double %x, 3.0
  store double %y, ptr %s, align 8
  %b = load i64, ptr %s, align 8
  %f = bitcast i64 %b to double
  ret double %f
}

; slot_flags(x) = x * x
define double @slot_flags(double %x) {
  %s = alloca { i8, double }, align 8
  call void @touch(ptr %s, ptr %s, ptr %s)
  %y = fmul double %x, %x
  store double %y, ptr %s, align 8
  %b = load i64, ptr %s, align 8
  %f = bitcast i64 %b to double
  ret double %f
}

; copy(x) = sin(x)
define double @copy(double %x) {
  %a = alloca %Ctl, align 8
  %b = alloca %Ctl, align 8
  call void @touch(ptr %a, ptr %a, ptr %a)
  %y = call double @llvm.sin.f64(double %x)
  store double %y, ptr %a, align 8
  %w = load i64, ptr %a, align 8
  store i64 %w, ptr %b, align 8
  %r = load double, ptr %b, align 8
  ret double %r
}

declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @__enzyme_autodiff(ptr, double)
declare i32 @printf(ptr, ...)
@fmt = private constant [26 x i8] c"%s: got %.17g want %.17g\0A\00"
@n1 = private constant [4 x i8] c"run\00"
@n2 = private constant [9 x i8] c"slot_i64\00"
@n3 = private constant [11 x i8] c"slot_flags\00"
@n4 = private constant [5 x i8] c"copy\00"

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
declare double @llvm.fabs.f64(double)

define i32 @main() {
  %g1 = call double @__enzyme_autodiff(ptr @run, double 1.5)
  %c1 = call i32 @check(ptr @n1, double %g1, double 1.0)
  %g2 = call double @__enzyme_autodiff(ptr @slot_i64, double 1.5)
  %c2 = call i32 @check(ptr @n2, double %g2, double 3.0)
  %g3 = call double @__enzyme_autodiff(ptr @slot_flags, double 1.5)
  %c3 = call i32 @check(ptr @n3, double %g3, double 3.0)
  %g4 = call double @__enzyme_autodiff(ptr @copy, double 1.5)
  %w4 = call double @llvm.cos.f64(double 1.5)
  %c4 = call i32 @check(ptr @n4, double %g4, double %w4)
  %s1 = add i32 %c1, %c2
  %s2 = add i32 %s1, %c3
  %s3 = add i32 %s2, %c4
  ret i32 %s3
}
