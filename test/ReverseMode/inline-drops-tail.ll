; A callee's `tail` call promises that the call touches none of the
; callee's allocas; inlined into a caller that passes its own alloca, the
; promise no longer holds, and LICM (in the canonicalising pipeline) hoisted
; the caller's load of that alloca out of the loop around the call: the
; primal and the gradient were computed with a stale counter. Inlining drops
; `tail` from the inlined calls (LLVM's inliner does too).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

; bump(h): *h += 1, kept as a call (inactive)
define void @bump(ptr %h) #0 {
  %v = load i64, ptr %h
  %v1 = add i64 %v, 1
  store i64 %v1, ptr %h
  ret void
}

define void @helper(ptr %h) {
  tail call void @bump(ptr %h)
  ret void
}

; f(x, n) = sum_{i=0}^{n-1} x[k_i]^2 with k_i = i + 1, counted in memory
define double @f(ptr %x, i64 %n) {
entry:
  %h = alloca i64
  store i64 0, ptr %h
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  call void @helper(ptr %h)
  %k = load i64, ptr %h
  %p = getelementptr inbounds double, ptr %x, i64 %k
  %v = load double, ptr %p
  %m = fmul double %v, %v
  %s1 = fadd double %s, %m
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

; CHECK-LABEL: define internal void @f.lt.grad(
; CHECK-NOT:     tail call void @bump
; CHECK:         call void @bump(
; CHECK:         ret void

declare double @__enzyme_autodiff(...)

@x = global [4 x double] [double 0.5, double -1.5, double 2.0, double 3.0]
@dx = global [4 x double] zeroinitializer

; exit code 0 when dx = (0, 2 x1, 2 x2, 2 x3)
define i32 @main() {
  %r = call double (...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr @x, ptr @dx, metadata !"enzyme_const", i64 3)
  br label %check
check:
  %j = phi i64 [ 0, %0 ], [ %j1, %next ]
  %bad = phi i32 [ 0, %0 ], [ %bad1, %next ]
  %px = getelementptr [4 x double], ptr @x, i64 0, i64 %j
  %pd = getelementptr [4 x double], ptr @dx, i64 0, i64 %j
  %xv = load double, ptr %px
  %dv = load double, ptr %pd
  %two = fmul double %xv, 2.0
  %z = icmp eq i64 %j, 0
  %want = select i1 %z, double 0.0, double %two
  %ok = fcmp oeq double %dv, %want
  %inc = select i1 %ok, i32 0, i32 1
  %bad1 = add i32 %bad, %inc
  br label %next
next:
  %j1 = add i64 %j, 1
  %more = icmp ult i64 %j1, 4
  br i1 %more, label %check, label %done
done:
  ret i32 %bad1
}

attributes #0 = { noinline "enzyme_inactive" }
