; A data layout whose allocas live in address space 5 (AMDGPU's "A5"):
; Leantape's own stack slots (here the undo log of a loop that overwrites
; active memory through a generic pointer, and its helpers' temporaries)
; are allocas in addrspace(5), cast to a generic `ptr` before they are
; passed to the helpers that take `ptr` (the module did not verify: 'Call
; parameter type does not match function signature'), and the tape of a
; recursive call that stays a call. Reverse and forward mode over global
; (1), shared (3) and private (5) memory.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=REC
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1"
target triple = "amdgcn-amd-amdhsa"

declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)

; k(x, sh) = sum_i x_i^2 through shared memory, then x_(n-1) doubled
; through a generic pointer after the loop has read it (the undo log
; restores it for the reverse pass; a store in the loop itself, at the
; address it reads, would have its loads taped instead: overwrite.c)
define double @k(ptr addrspace(1) %x, ptr addrspace(3) %sh, i64 %n) {
entry:
  %t = alloca double, align 8, addrspace(5)
  store double 0.0, ptr addrspace(5) %t
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %v = load double, ptr addrspace(1) %p
  %q = getelementptr inbounds double, ptr addrspace(3) %sh, i64 %i
  store double %v, ptr addrspace(3) %q
  %w = load double, ptr addrspace(3) %q
  %a = load double, ptr addrspace(5) %t
  %m = fmul double %w, %v
  %s = fadd double %a, %m
  store double %s, ptr addrspace(5) %t
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %last = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %g = addrspacecast ptr addrspace(1) %last to ptr
  %gv = load double, ptr %g
  %gm = fmul double %gv, 2.0
  store double %gm, ptr %g
  %r = load double, ptr addrspace(5) %t
  ret double %r
}

declare double @llvm.sin.f64(double)

; rec(x, n) = sin(x_n rec(x, n - 1)), rec(x, 0) = x_0: a kept call whose
; tape the caller's derivative holds in a stack slot
define double @rec(ptr addrspace(1) %x, i64 %n) {
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %base, label %step
base:
  %v = load double, ptr addrspace(1) %x
  ret double %v
step:
  %n1 = sub i64 %n, 1
  %p = getelementptr inbounds double, ptr addrspace(1) %x, i64 %n
  %w = load double, ptr addrspace(1) %p
  %s = call double @rec(ptr addrspace(1) %x, i64 %n1)
  %m = fmul double %w, %s
  %t = call double @llvm.sin.f64(double %m)
  ret double %t
}

define double @drec(ptr addrspace(1) %x, ptr addrspace(1) %dx) {
  %r = call double (...) @__enzyme_autodiff(ptr @rec, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_const", i64 5)
  ret double %r
}

define double @d(ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(3) %sh, ptr addrspace(3) %dsh) {
  %r = call double (...) @__enzyme_autodiff(ptr @k, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_dup", ptr addrspace(3) %sh, ptr addrspace(3) %dsh, metadata !"enzyme_const", i64 8)
  %f = call double (...) @__enzyme_fwddiff(ptr @k, metadata !"enzyme_dup", ptr addrspace(1) %x, ptr addrspace(1) %dx, metadata !"enzyme_dup", ptr addrspace(3) %sh, ptr addrspace(3) %dsh, metadata !"enzyme_const", i64 8)
  %s = fadd double %r, %f
  ret double %s
}

; CHECK-LABEL: define internal void @lt.undo.restore(ptr %0)
; CHECK:         %tmp = alloca i64, align 8, addrspace(5)
; CHECK-NEXT:    addrspacecast ptr addrspace(5) %tmp to ptr
; CHECK-LABEL: define internal void @k.lt.grad(
; CHECK:         %lt.undo = alloca { ptr, i64, i64, i64, i64, ptr, ptr, ptr, i64, ptr },
; CHECK-SAME:      align 8, addrspace(5)
; CHECK:         %[[G:[0-9]+]] = addrspacecast ptr addrspace(5) %lt.undo to ptr
; CHECK:         call void @lt.undo.begin.arena(ptr {{.*}}%[[G]], i64
; CHECK:         call void @lt.undo.save(ptr {{.*}}%[[G]], ptr
; CHECK-LABEL: define internal double @k.lt.tan(
; REC-LABEL:   define internal void @rec.lt.grad(
; REC:           %tape = alloca [{{[0-9]+}} x i8], align 16, addrspace(5)
; REC:           addrspacecast ptr addrspace(5) %tape to ptr
; CHECK:         ret double
