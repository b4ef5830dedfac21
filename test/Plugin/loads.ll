; The plugin loads in opt-22, `-passes=leantape` parses, and a module with no
; __enzyme_* calls comes out unchanged.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes='default<O0>' -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape %s -o %t.bc
; RUN: %opt %s -o %t.ref.bc
; RUN: cmp %t.bc %t.ref.bc

define double @square(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @twice(double %x) {
entry:
  %c = call double @square(double %x)
  %a = fadd double %c, %c
  ret double %a
}

; CHECK-LABEL: define double @square(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %m = fmul double %x, %x
; CHECK-NEXT:    ret double %m
; CHECK-NEXT:  }
; CHECK-LABEL: define double @twice(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %c = call double @square(double %x)
; CHECK-NEXT:    %a = fadd double %c, %c
; CHECK-NEXT:    ret double %a
; CHECK-NEXT:  }
