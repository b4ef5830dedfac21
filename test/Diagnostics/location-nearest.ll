; The instruction an error is about has no location (a rewrite made it, or
; the optimiser merged lines); the error is reported at the nearest
; located instruction of its block (here line 7, the address before the
; load the error is about),
; not at the __enzyme_autodiff call (line 20).
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: near.c:7:3: {{.*}}leantape: an active floating-point value is reinterpreted as bits
; CHECK-NOT: near.c:20
; CHECK-NOT: PLEASE submit a bug report
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define double @f(ptr %x) !dbg !5 {
  %p = getelementptr i8, ptr %x, i64 16, !dbg !8
  %w = load i128, ptr %p, align 8
  %lo = trunc i128 %w to i64
  %a = bitcast i64 %lo to double
  %s = lshr i128 %w, 32
  %hi = trunc i128 %s to i64
  %b = bitcast i64 %hi to double
  %r = fmul double %a, %b, !dbg !9
  ret double %r, !dbg !9
}

declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %x, ptr %dx) !dbg !10 {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx), !dbg !11
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "near.c", directory: "/tmp")
!2 = !DISubroutineType(types: !{})
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 5, type: !2, scopeLine: 5, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!8 = !DILocation(line: 7, column: 3, scope: !5)
!9 = !DILocation(line: 9, column: 3, scope: !5)
!10 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 19, type: !2, scopeLine: 19, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!11 = !DILocation(line: 20, column: 3, scope: !10)
