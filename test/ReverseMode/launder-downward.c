// The reverse pass runs loop nests downwards. LLVM's vectoriser computes
// an inner loop's run-time alias checks over the whole outer loop when its
// ranges move with the outer counter (hoist-runtime-checks), and gives up
// (checks that always fail) when the outer loop counts down: the vector
// loop never ran. gen/launder.c hands the inner loop the values it takes
// from a downward loop through an empty asm in its preheader, so its
// checks stay before it. Here: a double buffer's reverse stencil, whose
// buffers swap through pointers (no whole-function versioning can take
// them apart), rewritten by gather.c and then vectorised; the gradients
// are checked in Integration/undo-double-buffer.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ltclang -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
#include <leantape.h>

double diffuse(double *u, double *v, int n, int steps) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = a[i * n + j];
        double lap = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                     a[i * n + j + 1] - 4 * c;
        b[i * n + j] = c + 0.1 * (1 + c * c) * lap;
      }
    double *s = a;
    a = b;
    b = s;
  }
  double e = 0;
  for (int i = 0; i < n * n; i++)
    e += a[i] * a[i];
  return e;
}

void grad(double *u, double *du, double *v, double *dv, int n, int steps) {
  __enzyme_autodiff((void *)diffuse, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, n,
                    enzyme_const, steps);
}

// CHECK-LABEL: define internal void @diffuse.lt.grad(
// CHECK: call {{.*}}asm "", "=r,0"
// The gathered accumulation into row i, vectorised (a fixed-order
// recurrence: the delayed additions as shuffles).
// CHECK: shufflevector <[[W:[0-9]+]] x double>
// CHECK: fadd reassoc nsz <[[W]] x double>
// CHECK: {{^}}}
// O0-NOT: asm ""
