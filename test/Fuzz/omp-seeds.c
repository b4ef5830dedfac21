// Random differential testing of OpenMP programs (issue 15): fixed seeds
// of tools/fuzz/gen.py --omp, whose f has parallel loops (parallel for, or
// a parallel region of omp for loops with single/master and barrier;
// schedules static/dynamic/guided, collapse(2), reduction(+ * max min),
// critical sections, atomic updates; see tools/fuzz/ltfuzz/omp.py), each
// compiled at -O0 and -O2 with %openmp through the plugin and checked
// against central finite differences, with 2 threads and with 1. -S: a
// program the plugin rejects counts as a failure. Long runs by hand:
//   OMP_NUM_THREADS=2 bash tools/fuzz/run.sh -n 400 -s 1 -O "0 1 2 3" -j 2 -g --omp
// (-T: under ThreadSanitizer with Archer, a data race is a failure)
// REQUIRES: openmp
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 8 -s 1 -O "0 2" -j 2 -g --omp
// RUN: env OMP_NUM_THREADS=1 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 3 -s 1 -O "0 2" -j 2 -g --omp
// Forward mode, helpers (calls inside parallel loops), split mode
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--omp --fwd"
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 3 -s 1 -O "0 2" -j 2 -g "--omp --calls"
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 2 -s 1 -O "0 2" -j 2 -g "--omp --fwd --calls"
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 2 -s 1 -O "0 2" -j 2 -g "--omp --split"
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 1 -s 5007 -O "0 2" -g "--omp --fwd --pointers"
// Seed 23003 (--omp --calls): a reduction beside a call through a function
// pointer hung in the reverse at every level (omp-indirect-critical.c)
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 1 -s 23003 -O "0 2" -g "--omp --calls"
// --omp --alias: x and y overlap in main (y == x, y = x + k, adjacent), the
// parallel loops race-free under the layout; regions over them pick their
// derivative by the run-time test of gen/ompcheck.c
// RUN: env OMP_NUM_THREADS=2 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 4 -s 21000 -O "0 2" -j 2 -g "--omp --alias"
// seed 51100 --omp --alias with OMP_NUM_THREADS=1: a num_threads(2)
// region before a num_threads(1) one took the latter's clause for its
// tape and aborted (Integration/omp-num-threads-regions.c)
// RUN: env OMP_NUM_THREADS=1 FUZZ_OPENMP="%openmp" bash %S/../../tools/fuzz/run.sh -S -n 1 -s 51100 -O "0 2" -g "--omp --alias"
