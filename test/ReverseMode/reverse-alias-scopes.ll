; R's shadow accesses and its re-loads of primal memory carry alias scopes
; of their own, each !noalias the other (gen/scopes.c): shadow memory is
; never primal memory, so LLVM may keep a re-loaded x[i] in a register
; across adjoint stores and vectorise reverse loops without run-time
; checks between the two (issue 17, item 4). Both are !noalias the tape's
; scope, which R's tape loads carry (none here: f, h and dot keep nothing).
; The primal's own accesses (in the forward part) and atomics carry none;
; the adjoint's additions are reassoc nsz.
; f(x, y, n), plain pointers: y[i] = x[i]^2, s += x[i]; returns s. x[i]
; is re-loaded in R (nothing writes x); y's shadow is read and zeroed,
; x's accumulated; the two shadows get no scopes apart.
; h(x, y, n), restrict: y[i] += x[i]^2. y[i] is modified through y, so
; its shadow accesses get y's restrict scope, and x's shadow accesses
; (not based on y) are !noalias it; dy[i] is only read.
; dot(x, y, n), restrict, both read only: restrict lets x and y overlap
; (the gradient below calls dot(x, x)), so neither shadow gets a restrict
; scope (their accesses carry the shadow scope alone).
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: FileCheck %s < %t.ll
; lli: main returns 1 unless dx = 2 x dy + 1 and dy = 0 afterwards.

define double @f(ptr %x, ptr %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %px
  %sq = fmul double %v, %v
  %py = getelementptr inbounds double, ptr %y, i64 %i
  store double %sq, ptr %py
  %s.next = fadd double %s, %v
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

; CHECK-LABEL: define internal void @f.lt.grad(
; the forward part: the primal's accesses, untagged (the sum is dead there)
; CHECK:         %v = load double, ptr %px, align 8{{$}}
; CHECK:         store double %sq, ptr %py, align 8{{$}}
; the reverse part
; CHECK:         call void @llvm.experimental.noalias.scope.decl(metadata [[PRIMAL:![0-9]+]])
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(metadata [[SHADOW:![0-9]+]])
; CHECK:         load double, ptr {{%.+}}, align 8, !alias.scope [[SHADOW]], !noalias [[NOTSH:![0-9]+]]
; CHECK-NEXT:    store double 0.000000e+00, ptr {{%.+}}, align 8, !alias.scope [[SHADOW]], !noalias [[NOTSH]]
; CHECK:         %lt.reload = load double, ptr {{%.+}}, align 8, !alias.scope [[PRIMAL]], !noalias [[NOTPR:![0-9]+]]
; CHECK:         [[OLD:%.+]] = load double, ptr {{%.+}}, align 8, !alias.scope [[SHADOW]], !noalias [[NOTSH]]
; CHECK-NEXT:    [[NEW:%.+]] = fadd reassoc nsz double [[OLD]],
; CHECK-NEXT:    store double [[NEW]], ptr {{%.+}}, align 8, !alias.scope [[SHADOW]], !noalias [[NOTSH]]
; CHECK-LABEL: define internal void @h.lt.grad(
; CHECK:         load double, ptr {{%.+}}, align 8, !alias.scope [[YX:![0-9]+]], !noalias [[NOTX:![0-9]+]]
; y[i] += x[i]^2 leaves dy[i] as it is: read, never stored (the zero and
; the sum written back are folded away, derive.c's cleanup, since the
; scopes keep dx's store apart)
; CHECK-NOT:     !alias.scope [[YX]]
; CHECK:         %lt.reload = load double, ptr {{%.+}}, align 8, !alias.scope [[HPRIMAL:![0-9]+]], !noalias [[HNOTPR:![0-9]+]]
; CHECK:         load double, ptr {{%.+}}, align 8, !alias.scope [[HSHADOW:![0-9]+]], !noalias [[NOTY:![0-9]+]]
; CHECK:         store double {{%.+}}, ptr {{%.+}}, align 8, !alias.scope [[HSHADOW]], !noalias [[NOTY]]
; CHECK-NOT:     !alias.scope [[YX]]
; CHECK:         ret void
; CHECK-LABEL: define internal void @dot.lt.grad(
; CHECK:         store double {{%.+}}, ptr {{%.+}}, align 8, !alias.scope [[DSHADOW:![0-9]+]], !noalias
; CHECK:         store double {{%.+}}, ptr {{%.+}}, align 8, !alias.scope [[DSHADOW]], !noalias
; CHECK-DAG:   [[PRIMAL]] = !{[[PS:![0-9]+]]}
; CHECK-DAG:   [[SHADOW]] = !{[[SS:![0-9]+]]}
; CHECK-DAG:   [[SS]] = distinct !{[[SS]], [[DOM:![0-9]+]], !"lt.shadow"}
; CHECK-DAG:   [[PS]] = distinct !{[[PS]], [[DOM]], !"lt.primal"}
; CHECK-DAG:   [[DOM]] = distinct !{[[DOM]], !"lt.reverse"}
; shadow accesses and re-loads are also !noalias the tape
; CHECK-DAG:   [[NOTSH]] = !{[[PS]], [[TS:![0-9]+]]}
; CHECK-DAG:   [[NOTPR]] = !{[[SS]], [[TS]]}
; CHECK-DAG:   [[TS]] = distinct !{[[TS]], [[DOM]], !"lt.tape"}
; CHECK-DAG:   [[HPRIMAL]] = !{[[HPS:![0-9]+]]}
; CHECK-DAG:   [[HSHADOW]] = !{[[HSS:![0-9]+]]}
; CHECK-DAG:   [[HNOTPR]] = !{[[HSS]], [[HTS:![0-9]+]]}
; CHECK-DAG:   [[YX]] = !{[[HSS]], [[RY:![0-9]+]]}
; CHECK-DAG:   [[NOTX]] = !{[[HPS]], [[HTS]], [[RX:![0-9]+]]}
; CHECK-DAG:   [[NOTY]] = !{[[HPS]], [[HTS]], [[RY]]}
; CHECK-DAG:   [[RY]] = distinct !{[[RY]], [[RDOM:![0-9]+]], !"lt.restrict.1"}
; CHECK-DAG:   [[RX]] = distinct !{[[RX]], [[RDOM]], !"lt.restrict.0"}
; CHECK-DAG:   [[RDOM]] = distinct !{[[RDOM]], !"lt.restrict"}
; CHECK-DAG:   [[DSHADOW]] = !{![[DSS:[0-9]+]]}{{$}}

define void @h(ptr noalias %x, ptr noalias %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %px
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %old = load double, ptr %py
  %sq = fmul double %v, %v
  %new = fadd double %old, %sq
  store double %new, ptr %py
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
define double @dot(ptr noalias %x, ptr noalias %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %a = load double, ptr %px
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %b = load double, ptr %py
  %m = fmul double %a, %b
  %s.next = fadd double %s, %m
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}
define double @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy, metadata !"enzyme_const", i64 %n)
  ret double %g
}

define void @gh(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @h, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy, metadata !"enzyme_const", i64 %n)
  ret void
}
define double @gdot(ptr %x, ptr %dx, i64 %n) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @dot, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_const", i64 %n)
  ret double %g
}
define i32 @main() {
entry:
  %x = alloca [3 x double]
  %dx = alloca [3 x double]
  %y = alloca [3 x double]
  %dy = alloca [3 x double]
  br label %init
init:
  %i = phi i64 [ 0, %entry ], [ %i.next, %init ]
  %fi = sitofp i64 %i to double
  %xv = fadd double %fi, 1.5
  %dyv = fadd double %fi, 0.25
  %px = getelementptr inbounds double, ptr %x, i64 %i
  store double %xv, ptr %px
  %pdx = getelementptr inbounds double, ptr %dx, i64 %i
  store double 0.0, ptr %pdx
  %pdy = getelementptr inbounds double, ptr %dy, i64 %i
  store double %dyv, ptr %pdy
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, 3
  br i1 %c, label %init, label %run
run:
  call double @grad(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 3)
  br label %check
check:
  %k = phi i64 [ 0, %run ], [ %k.next, %ok ]
  %bad = phi i1 [ false, %run ], [ %bad.next, %ok ]
  %fk = sitofp i64 %k to double
  %xk = fadd double %fk, 1.5
  %dyk = fadd double %fk, 0.25
  %t = fmul double %xk, %dyk
  %t2 = fmul double %t, 2.0
  %want = fadd double %t2, 1.0
  %pgk = getelementptr inbounds double, ptr %dx, i64 %k
  %got = load double, ptr %pgk
  %e1 = fcmp une double %got, %want
  %pdyk = getelementptr inbounds double, ptr %dy, i64 %k
  %dyafter = load double, ptr %pdyk
  %e2 = fcmp une double %dyafter, 0.0
  %e = or i1 %e1, %e2
  %bad.next = or i1 %bad, %e
  br label %ok
ok:
  %k.next = add i64 %k, 1
  %c2 = icmp slt i64 %k.next, 3
  br i1 %c2, label %check, label %done
done:
  %r = zext i1 %bad.next to i32
  ret i32 %r
}

declare double @__enzyme_autodiff(ptr, ...)
