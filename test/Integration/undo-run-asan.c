// undo-run.c under AddressSanitizer: a run entry saves the accumulator's
// slot only in runs where the loop writes it (x is allocated to size, and
// a row whose inner loop does not run saves nothing), and the reverse
// pass puts it back without reading outside x.
// REQUIRES: asan
// RUN: %ltclang -O0 -g -fsanitize=address %S/undo-run.c -o %t.O0 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O0
// RUN: %ltclang -O1 -g -fsanitize=address %S/undo-run.c -o %t.O1 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O1
// RUN: %ltclang -O2 -g -fsanitize=address %S/undo-run.c -o %t.O2 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O2
