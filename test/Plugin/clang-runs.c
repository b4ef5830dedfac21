// clang-22 -fpass-plugin loads the plugin at -O0 and -O2 (the OptimizerEarly
// callback runs at every level) and a program without __enzyme_* calls still
// compiles and runs correctly.
// RUN: %ltclang -O0 %s -o %t.O0 -lm
// RUN: %t.O0 | FileCheck %s
// RUN: %ltclang -O2 %s -o %t.O2 -lm
// RUN: %t.O2 | FileCheck %s
// RUN: %ltclang -O2 -g %s -S -emit-llvm -o - | FileCheck %s --check-prefix=IR

#include <math.h>
#include <stdio.h>

double poly(double x) { return 3.0 * x * x - 2.0 * x + 1.0; }

int main(void) {
  printf("poly(2) = %.3f\n", poly(2.0));
  printf("sqrt(2) = %.6f\n", sqrt(2.0));
  return 0;
}

// CHECK: poly(2) = 9.000
// CHECK-NEXT: sqrt(2) = 1.414214

// IR-LABEL: define {{.*}}double @poly(double
// IR-NOT: __enzyme
