// The tape of every benchmark kernel (tools/bench/kernels.c) has the same
// bytes per loop iteration at -O0, -O1, -O2 and -O3 (issue 9 item 8; the
// tape of Enzyme varies with the level, its issue 1298): the per-loop
// lines of the tape report, sorted, are identical at every level.
// RUN: %ltclang -O0 -I%S/../../tools/bench -Rpass-analysis=leantape -c %S/../../tools/bench/kernels.c -o /dev/null 2>&1 | grep -o "in '[a-z_0-9]*': caches [a-z0-9]* [a-z ]*per iteration" | sort > %t.O0
// RUN: %ltclang -O1 -I%S/../../tools/bench -Rpass-analysis=leantape -c %S/../../tools/bench/kernels.c -o /dev/null 2>&1 | grep -o "in '[a-z_0-9]*': caches [a-z0-9]* [a-z ]*per iteration" | sort > %t.O1
// RUN: %ltclang -O2 -I%S/../../tools/bench -Rpass-analysis=leantape -c %S/../../tools/bench/kernels.c -o /dev/null 2>&1 | grep -o "in '[a-z_0-9]*': caches [a-z0-9]* [a-z ]*per iteration" | sort > %t.O2
// RUN: %ltclang -O3 -I%S/../../tools/bench -Rpass-analysis=leantape -c %S/../../tools/bench/kernels.c -o /dev/null 2>&1 | grep -o "in '[a-z_0-9]*': caches [a-z0-9]* [a-z ]*per iteration" | sort > %t.O3
// RUN: diff %t.O0 %t.O2
// RUN: diff %t.O1 %t.O2
// RUN: diff %t.O3 %t.O2
// The report is not empty: kernels with and without per-iteration caches.
// RUN: FileCheck %s < %t.O2
// CHECK-DAG: in 'normalize_k': caches 8 bytes per iteration
// CHECK-DAG: in 'sum_k': caches nothing per iteration
// CHECK-DAG: in 'mlp_k': caches
// (The kernels are the benchmark's; this file holds only the checks.)
