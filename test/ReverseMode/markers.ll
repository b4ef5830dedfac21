; Activity markers and the signature of the generated gradient: primal
; parameters in order, then one shadow per enzyme_dup/enzyme_dupnoneed
; pointer, then the return seed; several enzyme_out return a struct.
; Unmarked: pointer -> dup, double -> out, integer -> const.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; f(x, p, n, q) = x * p[0] * n + q[0]  (n integer)
define double @f(double %x, ptr %p, i32 %n, ptr %q) {
entry:
  %a = load double, ptr %p
  %m = fmul double %x, %a
  %nf = sitofp i32 %n to double
  %m2 = fmul double %m, %nf
  %b = load double, ptr %q
  %r = fadd double %m2, %b
  ret double %r
}
; h(x, y, z) = x*y + z
define double @h(double %x, double %y, double %z) {
entry:
  %m = fmul double %x, %y
  %r = fadd double %m, %z
  ret double %r
}
define void @store2(ptr %o, double %x) {
entry:
  %m = fmul double %x, %x
  store double %m, ptr %o
  ret void
}
; CHECK-LABEL: define double @explicit(
; CHECK-NEXT:    %1 = call double @[[F1:f\.lt\.grad[.0-9]*]](double %x, ptr %p, i32 %n, ptr %q, ptr %dp, double 1.000000e+00)
; CHECK-NEXT:    ret double %1
define double @explicit(double %x, ptr %p, ptr %dp, i32 %n, ptr %q) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_out", double %x, metadata !"enzyme_dup", ptr %p, ptr %dp, metadata !"enzyme_const", i32 %n, metadata !"enzyme_const", ptr %q)
  ret double %g
}
; Default activity: q is dup here, so this is a different derivative.
; CHECK-LABEL: define double @defaults(
; CHECK-NEXT:    %1 = call double @[[F2:f\.lt\.grad[.0-9]*]](double %x, ptr %p, i32 %n, ptr %q, ptr %dp, ptr %dq, double 1.000000e+00)
define double @defaults(double %x, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq)
  ret double %g
}
; Same activity written out: reuses the default-activity derivative.
; CHECK-LABEL: define double @defaults_explicit(
; CHECK-NEXT:    %1 = call double @[[F2]](double %x, ptr %p, i32 %n, ptr %q, ptr %dp, ptr %dq, double 1.000000e+00)
define double @defaults_explicit(double %x, ptr %p, ptr %dp, i32 %n, ptr %q, ptr %dq) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_out", double %x, metadata !"enzyme_dup", ptr %p, ptr %dp, metadata !"enzyme_const", i32 %n, metadata !"enzyme_dup", ptr %q, ptr %dq)
  ret double %g
}
; CHECK-LABEL: define { double, double, double } @three(
; CHECK-NEXT:    %1 = call { double, double, double } @[[H3:h\.lt\.grad[.0-9]*]](double %x, double %y, double %z, double 1.000000e+00)
define { double, double, double } @three(double %x, double %y, double %z) {
  %g = call { double, double, double } (ptr, ...) @__enzyme_autodiff(ptr @h, metadata !"enzyme_out", double %x, metadata !"enzyme_out", double %y, metadata !"enzyme_out", double %z)
  ret { double, double, double } %g
}
; A const double stays a parameter but gets no slot in the result.
; CHECK-LABEL: define { double, double } @two(
; CHECK-NEXT:    %1 = call { double, double } @[[H2:h\.lt\.grad[.0-9]*]](double %x, double %y, double %z, double 1.000000e+00)
define { double, double } @two(double %x, double %y, double %z) {
  %g = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @h, metadata !"enzyme_out", double %x, metadata !"enzyme_const", double %y, metadata !"enzyme_out", double %z)
  ret { double, double } %g
}
; void function: no seed parameter.
; CHECK-LABEL: define double @noneed(
; CHECK-NEXT:    %1 = call double @[[S:store2\.lt\.grad[.0-9]*]](ptr %o, double %x, ptr %do)
define double @noneed(ptr %o, ptr %do, double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @store2, metadata !"enzyme_dupnoneed", ptr %o, ptr %do, metadata !"enzyme_out", double %x)
  ret double %g
}
declare double @__enzyme_autodiff(ptr, ...)

; const q: never read in the reverse, its load is dead and removed.
; CHECK:       define internal double @[[F1]](double %x, ptr %p, i32 %n, ptr %q, ptr %0, double %1)
; CHECK-NOT:     load double, ptr %q
; CHECK:         store double %{{.*}}, ptr %0
; CHECK:         ret double
; CHECK:       define internal double @[[F2]](double %x, ptr %p, i32 %n, ptr %q, ptr %0, ptr %1, double %2)
; CHECK-DAG:     store double %{{.*}}, ptr %1
; CHECK-DAG:     store double %{{.*}}, ptr %0
; CHECK:         ret double
; CHECK:       define internal { double, double, double } @[[H3]](double %x, double %y, double %z, double %0)
; CHECK:         ret { double, double, double }
; CHECK:       define internal { double, double } @[[H2]](double %x, double %y, double %z, double %0)
; CHECK:         %[[DX:.*]] = fmul double %0, %y
; CHECK-NOT:     fmul double %0, %x
; CHECK:         ret { double, double }
; CHECK:       define internal double @[[S]](ptr %o, double %x, ptr %0)
; CHECK:         store double 0.000000e+00, ptr %0
; CHECK:         ret double
