// Random differential testing (issue 3, item 4): fixed seeds of
// tools/fuzz/gen.py (loop nests, triangular and while loops, breaks,
// branches, in-place updates, smooth math), each compiled at -O0 and -O2
// through the plugin and checked against central finite differences (see
// tools/fuzz/run.sh). -S: a program the plugin rejects counts as a failure,
// since every generated shape is supported. Long runs by hand:
//   bash tools/fuzz/run.sh -n 500 -s 1 -j 2
//
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 20 -s 1 -O "0 2" -j 2
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 5 -s 1001 -O "0 2" -j 2 -g --no-loops
