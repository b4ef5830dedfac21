; The shape of tangent functions: s += sin(x[i]) * x[i] over a loop, in
; forward mode at width 1 and (enzyme_dupv, stride 8000 bytes) width 4.
; Forward mode needs no tape: no allocation, no stack buffer but the two
; result slots of sincos, no call but one sincos per iteration (sin and
; its derivative cos of the same value come from one C library sincos, on
; a Linux target); at width 4 the tangents are <4 x double> values: one load
; per lane of the tangent memory (and one of x[i]), then vector arithmetic, the scalar
; partials broadcast once.
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s

; CHECK-LABEL: define {{.*}}double @t1(
; CHECK: call double @f.lt.tan(ptr %0, i64 %2, ptr %1)
; CHECK-LABEL: define {{.*}}void @t4(
; CHECK: getelementptr i8, ptr %2, i64 8000
; CHECK: getelementptr i8, ptr %2, i64 16000
; CHECK: getelementptr i8, ptr %2, i64 24000
; CHECK: call <4 x double> @f.lt.tanv(

; CHECK-LABEL: define internal double @f.lt.tan(
; CHECK-NEXT: %lt.sin.slot = alloca double
; CHECK-NEXT: %lt.cos.slot = alloca double
; CHECK-NOT: alloca
; CHECK-NOT: call
; CHECK: phi double
; CHECK-NOT: alloca
; CHECK-NOT: @malloc
; CHECK: call void @sincos(double [[X:%.+]], ptr %lt.sin.slot, ptr %lt.cos.slot)
; CHECK-NEXT: load double, ptr %lt.sin.slot
; CHECK-NEXT: load double, ptr %lt.cos.slot
; CHECK-NOT: call
; CHECK: ret double
; CHECK-NEXT: }

; CHECK-LABEL: define internal <4 x double> @f.lt.tanv(
; CHECK-NEXT: %lt.sin.slot = alloca double
; CHECK-NEXT: %lt.cos.slot = alloca double
; CHECK-NOT: alloca
; CHECK-NOT: call
; CHECK: phi <4 x double>
; CHECK-COUNT-5: load double, ptr
; CHECK-NOT: load
; CHECK-NOT: alloca
; CHECK: call void @sincos(double
; CHECK-NOT: call
; CHECK: fmul <4 x double>
; CHECK-NOT: call
; CHECK: ret <4 x double>
; CHECK-NEXT: }

target triple = "x86_64-pc-linux-gnu"

%struct.T4 = type { [4 x double] }

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4
@enzyme_width = external global i32, align 4
@enzyme_dupv = external global i32, align 4

define dso_local double @f(ptr noundef %0, i64 noundef %1) {
  br label %3

3:                                                ; preds = %5, %2
  %.08 = phi double [ 0.000000e+00, %2 ], [ %9, %5 ]
  %.0 = phi i64 [ 0, %2 ], [ %10, %5 ]
  %4 = icmp slt i64 %.0, %1
  br i1 %4, label %5, label %11

5:                                                ; preds = %3
  %6 = getelementptr inbounds double, ptr %0, i64 %.0
  %7 = load double, ptr %6, align 8
  %8 = call double @llvm.sin.f64(double %7)
  %9 = call double @llvm.fmuladd.f64(double %8, double %7, double %.08)
  %10 = add nuw nsw i64 %.0, 1
  br label %3

11:                                               ; preds = %3
  ret double %.08
}


declare double @llvm.sin.f64(double)

declare double @llvm.fmuladd.f64(double, double, double)


define dso_local double @t1(ptr noundef %0, ptr noundef %1, i64 noundef %2) {
  %4 = load i32, ptr @enzyme_dup, align 4
  %5 = load i32, ptr @enzyme_const, align 4
  %6 = call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i64 noundef %2)
  ret double %6
}

declare double @__enzyme_fwddiff(ptr noundef, ...)

define dso_local void @t4(ptr dead_on_unwind noalias writable sret(%struct.T4) align 8 %0, ptr noundef %1, ptr noundef %2, i64 noundef %3) {
  %5 = load i32, ptr @enzyme_width, align 4
  %6 = load i32, ptr @enzyme_dupv, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  call void (ptr, ptr, ...) @__enzyme_fwddiff4(ptr dead_on_unwind writable sret(%struct.T4) align 8 %0, ptr noundef nonnull @f, i32 noundef %5, i32 noundef 4, i32 noundef %6, i64 noundef 8000, ptr noundef %1, ptr noundef %2, i32 noundef %7, i64 noundef %3)
  ret void
}

declare void @__enzyme_fwddiff4(ptr dead_on_unwind writable sret(%struct.T4) align 8, ptr noundef, ...)



