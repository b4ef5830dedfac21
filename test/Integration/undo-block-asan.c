// undo-block.c under AddressSanitizer: a block copies exactly the bytes its
// loop writes (the partial range's arrays are allocated to size), and R
// swaps them back without reading outside them.
// REQUIRES: asan
// RUN: %ltclang -O0 -g -fsanitize=address %S/undo-block.c -o %t.O0 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O0
// RUN: %ltclang -O1 -g -fsanitize=address %S/undo-block.c -o %t.O1 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O1
// RUN: %ltclang -O2 -g -fsanitize=address %S/undo-block.c -o %t.O2 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O2
