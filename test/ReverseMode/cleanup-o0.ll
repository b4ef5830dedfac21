; Input from `clang-22 -O0 -S -emit-llvm` of:
;   double f(double x, double y) {
;     double t = x * y;
;     if (t > 1.0) t = t * x;
;     return t + y;
;   }
;   double df(double x, double y) {
;     return __enzyme_autodiff((void *)f, x, enzyme_const, y);
;   }
; f is optnone noinline and full of allocas; the generated gradient must not
; inherit optnone/noinline, and the plugin's own cleanup must promote every
; alloca (nothing else runs at -O0). The if is recomputed from t > 1.0.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

; The primal keeps its attributes.
; CHECK-LABEL: define dso_local double @f(
; CHECK-SAME:    #[[OPTNONE:[0-9]+]]
; CHECK-LABEL: define dso_local double @df(
; CHECK:         call double @[[G:f\.lt\.grad[.0-9]*]](double %{{[0-9]+}}, double %{{[0-9]+}}, double 1.000000e+00)
; CHECK-NOT:     @__enzyme_autodiff
; CHECK:       define internal double @[[G]](double %0, double %1, double %2) #[[GATTR:[0-9]+]] {
; CHECK-NOT:     alloca
; CHECK-NOT:     load
; CHECK-NOT:     store
; CHECK-NOT:     br
; CHECK:         fcmp ogt double %{{.*}}, 1.000000e+00
; CHECK-NOT:     alloca
; CHECK-NOT:     load
; CHECK-NOT:     store
; CHECK:         ret double
; CHECK-NEXT:  }
; CHECK:       attributes #[[OPTNONE]] = { {{.*}}noinline{{.*}}optnone
; CHECK-NOT:   attributes #[[GATTR]] = { {{.*}}optnone
; CHECK-NOT:   attributes #[[GATTR]] = { {{.*}}noinline
; CHECK:       attributes #[[GATTR]] = {
; CHECK-NOT:   optnone
; CHECK-NOT:   noinline
; CHECK-SAME:  }
source_filename = "o0.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_const = external global i32, align 4

; Function Attrs: noinline nounwind optnone uwtable
define dso_local double @f(double noundef %0, double noundef %1) #0 {
  %3 = alloca double, align 8
  %4 = alloca double, align 8
  %5 = alloca double, align 8
  store double %0, ptr %3, align 8
  store double %1, ptr %4, align 8
  %6 = load double, ptr %3, align 8
  %7 = load double, ptr %4, align 8
  %8 = fmul double %6, %7
  store double %8, ptr %5, align 8
  %9 = load double, ptr %5, align 8
  %10 = fcmp ogt double %9, 1.000000e+00
  br i1 %10, label %11, label %15

11:                                               ; preds = %2
  %12 = load double, ptr %5, align 8
  %13 = load double, ptr %3, align 8
  %14 = fmul double %12, %13
  store double %14, ptr %5, align 8
  br label %15

15:                                               ; preds = %11, %2
  %16 = load double, ptr %5, align 8
  %17 = load double, ptr %4, align 8
  %18 = fadd double %16, %17
  ret double %18
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local double @df(double noundef %0, double noundef %1) #0 {
  %3 = alloca double, align 8
  %4 = alloca double, align 8
  store double %0, ptr %3, align 8
  store double %1, ptr %4, align 8
  %5 = load double, ptr %3, align 8
  %6 = load i32, ptr @enzyme_const, align 4
  %7 = load double, ptr %4, align 8
  %8 = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @f, double noundef %5, i32 noundef %6, double noundef %7)
  ret double %8
}

declare double @__enzyme_autodiff(ptr noundef, ...) #1

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
