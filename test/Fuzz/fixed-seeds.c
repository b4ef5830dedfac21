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
// Pointer programs, and seeds that found bugs: 2043 (layouts through
// variable indices), 4056 / 4165 (struct copies losing their types), 5009
// (an SROA char slice taken for the layout: a lost adjoint), 5061.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g --pointers
// RUN: for s in 2043 4056 4165 5009 5061; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g --pointers || exit 1; done
// --copies: run-time length copies of structs and of their first member;
// seeds 134 and 137 (a gradient 0 through a struct's prefix, silently) and
// 213 and 276 (a null shadow pointer, a segfault) before the helpers took
// bytes (gen/memhelper.c)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 2 -s 1 -O "0 2" -j 2 -g --copies
// RUN: for s in 134 137 213 276; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g --copies || exit 1; done
// --structvec: std::vector of structs holding pointers into x and y
// (grown, inserted into, erased from, sorted, rotated, assigned, copied);
// with the plugin of 737e4da seeds 2, 12 and 17 were wrong gradients at
// -O0 and 7 at -O2, silently, and 4 segfaulted at -O2 and -O3
// (analysis/memelem.c, memlayout.c's periodic fields)
// RUN: for s in 2 4 7 12 17; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2 3" -g --structvec || exit 1; done
// --structvec seeds 60004 (-O0, a silently wrong gradient) and 60001
// (-O1, a segfault): a std::vector<const double *> of pointers into x and
// y grows; its relocation's memmove was taken for a copy of doubles (only
// pointer loads typed a block, and InstCombine's ptrtoint store of the
// first pointer was an integer), so the pointers' shadows stayed behind.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 60004 -O "0 3" -g --structvec
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 60001 -O 1 -g --structvec
// Seeds 60023 and 60052: an insert into the full vector of pointers
// reallocates; the copy of the elements before the new one was still
// taken for doubles (its block is only indexed as pointers: `gep ptr`),
// a segfault at -O0..-O3 with the plugin of 6f947d5.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 60023 -O "0 3" -g --structvec
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 60052 -O "1 2" -g --structvec
// Seed 60014 at -O0: points-to's null object collected the stores through
// pointers that might lack a shadow, joining a std::vector<double>'s data
// with a std::vector<S>'s; a 64-byte copy of doubles was laid out as S and
// adjoints were dropped, silently (points.c join_stored). Seeds 60037 and
// 60084 at -O3: an insert at begin() + 1 into a full vector of pointers
// moves the element before it as an i64 (wordev.c lt_wordev_elem; a
// segfault).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 60014 -O "0 2" -g --structvec
// RUN: for s in 60037 60084; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O 3 -g --structvec || exit 1; done
// --structvec seed 74308 at -O3: an insert reallocating a vector of S
// copies S number 0 into the new block with a 24-byte memcpy nothing
// types; the block's other elements do (memperiod.c lt_mem_array_of): it
// was "copies memory that may hold both pointers ..."
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 74308 -O 3 -g --structvec
// -X --structvec seeds 463 and 60186 at -O2: run-time copies between
// blocks of S that no GEP types, only constant copies of whole elements
// with layouts of their own (memelem.c layout_type): they were "copies
// memory that may hold both pointers ..."
// RUN: for s in 463 60186; do bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s $s -O 2 -g --structvec || exit 1; done
// -X: the pass run by opt on IR clang has already optimised (-E: with
// -ffast-math, so vectorised reductions and SLP lanes reach it)
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -E -n 2 -s 1 -O "0 3" -j 2 -g --pointers
// -X --structvec seed 302 at -O2: std::vector's swap moves {end,
// capacity} as one <2 x ptr>, whose shadows were left behind (a silent
// wrong gradient; prep/ptrvec.c)
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s 302 -O 2 -g --structvec
// -X --structvec seeds 402 and 434 at -O3: copies of S that nothing
// types, laid out from the stores that filled them (more than 64 bytes)
// and from the constant copies of the same block (memlayout.c, memuse.c);
// clean errors before, and 434 a silent wrong gradient on the way
// RUN: for s in 402 434; do bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s $s -O 3 -g --structvec || exit 1; done
// -X --structvec seed 13905 at -O2: a shuffle's poison lane times a zero
// adjoint lane, poison where a real contribution was (dy[6] 0.97 of its
// value, silently; prep/poison.c)
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s 13905 -O 2 -g --structvec
// -X --structvec seed 60038 at -O2: std::sort's insertion step moves two
// S up by one with a constant memmove(p + 24, p, 48) that no access can lay
// out (the loop reading the vector indexes it at run-time offsets); the
// single-element copies beside it have !tbaa.struct (memlayout.c, from
// copies; a 16-byte copy of S's prefix is no element). A clean error before.
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s 60038 -O 2 -g --structvec
// -X --structvec seed 70507 at -O2: the block vector<S>::operator=
// allocates is copied from and into the one it copies, whose type was being
// found; the answer found under that cycle ("no type") was kept
// (memelem.c object_type). A clean error before.
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s 70507 -O 2 -g --structvec
// (Asked again at once, provisional types took minutes on -X seed 60512 at
// -O3; now a second round: about 11 s there, 22 s with a88e559's plugin.)
// -X --structvec seeds 13903 and 14338 at -O3: run-time-length copies of
// S laid out from another run-time copy of the same block, through
// `phi [null, %block]` (memuse.c; a segfault and a silent swap of two
// adjoints before)
// RUN: for s in 13903 14338; do bash %S/../../tools/fuzz/run.sh -S -X -n 1 -s $s -O 3 -g --structvec || exit 1; done
// --diffuse: double-buffered 2-D time loops over a run-time row length,
// the buffers swapped through pointers (tape scopes, gather, unswitch)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g --diffuse
// RUN: bash %S/../../tools/fuzz/run.sh -S -X -n 2 -s 1 -O 3 -j 2 -g "--diffuse --alias"
// Calls (helpers, recursion, custom gradients): seed 1 found fastcc
// callees called with the C convention; --calls --pointers seeds 2 and 4
// the escape of recursive parameters; C++.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 6 -s 1 -O "0 2" -j 2 -g --calls
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--calls --pointers"
// seed 8022: a struct copy inside a heap array whose type only a loop's
// GEP names
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 8022 -O "0 2" -g "--calls --pointers"
// seed 15: a struct copied through two pointers at the bottom of a
// recursion (kept as a call): the shadow pointer was not copied at -O0
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 15 -O "0 2" -g "--calls --pointers"
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--cxx --calls"
// seeds 100066 --cxx --calls, 104048 --cxx --pointers, 114019 --structvec
// and 122131 --adaptive --cxx at -O3: the layouts of their copies asked
// each other's and their blocks' element types, more than two minutes in
// the plugin (analysis/memlayout.c LAYOUT_WORK); a few seconds now
// RUN: timeout 300 bash %S/../../tools/fuzz/run.sh -S -n 1 -s 100066 -O 3 -g "--cxx --calls"
// RUN: timeout 300 bash %S/../../tools/fuzz/run.sh -S -n 1 -s 104048 -O 3 -g "--cxx --pointers"
// RUN: timeout 300 bash %S/../../tools/fuzz/run.sh -S -n 1 -s 114019 -O 3 -g --structvec
// RUN: timeout 300 bash %S/../../tools/fuzz/run.sh -S -n 1 -s 122131 -O 3 -g "--adaptive --cxx"
// seed 9116 --calls: sin and cos fused into llvm.sincos, which LLVM 22's
// loop vectorizer widened into an invalid type (VectorCombine crashed)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 9116 -O "0 2" -g --calls
// Forward mode (__enzyme_fwddiff, widths 1, 2 and 4, dup and dupv)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 6 -s 1 -O "0 2" -j 2 -g --fwd
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 3 -s 1 -O "0 2" -j 2 -g "--fwd --calls"
// seed 12009 --fwd --calls --pointers: a kept callee's tangent function
// took a maybe-null shadow as never null (a segfault)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 12009 -O "0 2" -g "--fwd --calls --pointers"
// Split mode (__enzyme_augmentfwd then __enzyme_reverse, nothing between)
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 3 -s 1 -O "0 2" -j 2 -g "--split --pointers"
// Entry points chosen by data (--entry): seeds 2 (a function-pointer
// variable, at -O0 a local copy of a select), 5 and 7 (a constant table)
// were "first argument must be a function defined in this module"; 1 and
// 3 are if/else calls that -O2 merges.
// RUN: for s in 1 2 3 5 7; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g --entry || exit 1; done
// Kernels over plain pointers into x and y (accumulate form, overwrites
// the undo log restores), with x and y overlapping (--alias): seeds 4-7
// use the undo log at -O2.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 4 -O "0 2" -j 2 -g "--kernels --alias"
// In-place kernels (--inplace): modified Gram-Schmidt (a column read in
// one loop and overwritten in the next, with sqrt and quotients) and ADI's
// tridiagonal sweeps, in --kernels' programs: seeds 980001 (ADI, v is u)
// and 980002 (Gram-Schmidt).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 2 -s 980001 -O "0 2" -j 2 -g "--kernels --inplace"
// Triangular nests with indices such as k - i - 1 (--lagged: Durbin, a
// causal convolution, lagged products, a do-while that may run once) over
// overlapping views: seeds 400102 and 400106 are programs whose run-time
// test for pointers apart is tighter with analysis/rangetri.c.
// RUN: for s in 400102 400106; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--lagged --alias" || exit 1; done
// memcpy, memmove and memset over views read before and after, in loops
// of steps (--memops: the undo log saves their destinations as blocks):
// seeds 500100 and 500106 log 5 and 6 such blocks.
// RUN: for s in 500100 500106; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--memops --alias" || exit 1; done
// Running maxima and minima (--reductions): seeds 640102 and 640106 tape
// their compares (1 byte an iteration), not the extreme so far.
// RUN: for s in 640102 640106; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g --reductions || exit 1; done
// In-place recurrences (--sweeps: Thomas solves, x[j] from x[j - k]) over
// overlapping views: seeds 810011 and 810020 save rows read behind their
// stores as undo-log blocks (analysis/owchoice.c lt_load_behind).
// RUN: for s in 810011 810020; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--sweeps --alias" || exit 1; done
// A std::vector of structs pushed, copied, swapped and erased (--structvec):
// at -O3 LLVM 22 keeps a path where begin() + 1 of an empty vector is the
// constant address inttoptr (i64 24); seeds 770017 and 770022 were rejected
// ("stored to memory that has no shadow") for a memmove through it.
// RUN: for s in 770017 770022; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O 3 -g --structvec || exit 1; done
// Seed 874003 at -O1: the element type of a vector's new block, reached
// first too many copies away from another block's, was kept as unknown and
// the vector's copy rejected ("its layout is unknown"; memelem.c).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 874003 -O 1 -g --structvec
// --constwork: active values stored in enzyme_const memory and read back
// (a compile error with b2d6608's plugin; analysis/scratch.c).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g --constwork
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 2 -s 100 -O "1 3" -j 2 -g "--constwork --calls"
// Seeds 875012 and 875024 after the optimiser (-X) at -O1: a memmove of
// length -48 on a path never taken had no layout (prep/deadcopy.c).
// RUN: for s in 875012 875024; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O 1 -X -g --structvec || exit 1; done
// Seed 951021 at -O2 and 951527 at -O1 (and after the optimiser): std::sort's
// insertion step copies an element's first two fields through a temporary
// SROA cut to them, so a vector's block was copied into as {double, ptr}
// and as S, and its offsets stepped by PHIs (+24 a step; 0 or end - begin):
// no element type, "its layout is unknown" (memelem.c agreed_type).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 951021 -O "1 2" -g --structvec
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 951527 -O "1 2" -X -g --structvec
// --cxx --calls seed 1014509 at -O2/-O3: a store through `k % 2 ? y + j :
// v0.data() + 1` was logged for the loads of y it may overwrite, and R
// restored its entry into v0's block, deleted at the end of f: heap
// corruption, a crash (overwrite.c store_released).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 1014509 -O "2 3" -g "--cxx --calls"
// --pointers --calls seed 1014326 from -O1: an array of {const double *, double,
// int} copied by memcpy after SROA, its pointer also moved as an i64 and its
// int with padding as an i64 the bit groups call a double: the layout from
// the accesses gave up ("its layout is unknown"; memaccess.c).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 1014326 -O "1 3" -g "--pointers --calls"
// Registered functions that return an argument (--retarg).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--retarg --calls"
// Time loops (--timeloop: outlined steps, -leantape-checkpoint with a
// budget of 1 byte): --pointers seeds 80103 and 80106 segfaulted: the
// step, a kept call, read pointers into enzyme_const memory from a struct
// array its caller passed, and took their shadows as never null.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 3 -s 1 -O "0 2" -j 2 -g --timeloop
// RUN: for s in 80103 80106; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--timeloop --pointers" || exit 1; done
// Scratch arrays in time steps (--scratch): seeds 4 (y the scratch, with
// and without --alias), 17 (two scratch rows) and 21 leave memory each
// step writes before it reads out of their snapshots at -O0.
// RUN: for s in 4 17 21; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--timeloop --scratch" || exit 1; done
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 4 -O "0 2" -g "--timeloop --scratch --alias"
// Optimised time loops (--steps-var: a run-time step count, not unrolled):
// seeds 70004, 70006 and 70010 reverse their steps with the taped run
// without its dead stores (lib/gen/ckptdead.c) at -O2.
// RUN: for s in 70004 70006 70010; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "2 3" -g "--steps-var --scratch" || exit 1; done
// In split mode, 76060 passed a step a pointer into the middle of a local
// array, left pointing into A's dead frame (wrong gradients, segfaults);
// 76009 swaps local buffers through pointers (now taped, with a remark).
// RUN: for s in 76060 76009; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--steps-var --scratch --split" || exit 1; done
// 2-D sweeps in steps (--grid): seeds 1 and 5 are checkpointed at -O2 with
// the column loop under its guard inside the row loop.
// RUN: for s in 1 5; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--grid --scratch" || exit 1; done
// Double-buffered sweeps (--swap): at -O2 seed 95005's snapshots leave out
// the buffer each step writes first (328 bytes, 392 before).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 95005 -O "0 2" -g "--swap --scratch"
// Online time loops (--timeloop-while) with --pointers: seed 29 passes c
// as a static const table (in .rodata); at -O2 the snapshot put back what
// the steps read into it and segfaulted.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 29 -O "0 2" -g "--timeloop-while --pointers"
// Loops capped at run time (--capped: for (size_t i = 0; i < min(n, cap);
// i++), llvm.umin at -O1 and above) in versioned plain-pointer gradients,
// x and y overlapping: with umin read as signed in the overlap test
// (range.c before ba59f4a) seed 3 runs the apart version on overlapping
// arrays at -O2 (wrong gradient).
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--capped --alias"
// Stencil steps whose copy back is logged as blocks (--stencil: the undo
// log's blocks, lib/gen/undoblock.c), x and y overlapping: seeds 1 and 3
// log a block at -O0, seed 4 six at -O2.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 4 -s 1 -O "0 2" -j 2 -g "--stencil --alias"
// Copy loops that become an overlapping memmove at -O2 (x[i] = x[i + 1]):
// the adjoint of the move read a field after writing it (seeds 860167 and
// 860395 of --stencil --alias --pointers; Integration/memmove-overlap.c).
// RUN: for s in 860167 860395; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g "--stencil --alias --pointers" || exit 1; done
// --adaptive seed 400029 at -O1: a loop with two exits merging in a
// triangular nest's preheader; the exit-choice phi did not verify.
// RUN: bash %S/../../tools/fuzz/run.sh -S -n 1 -s 400029 -O "1" -g --adaptive
// --temps: local temporaries filled by one loop and read by the next;
// seeds 4, 6 and 29 have reads recomputed from the fill at -O2
// (prep/storefwd.c), with the shapes that must stay memory beside them.
// RUN: for s in 4 6 29; do bash %S/../../tools/fuzz/run.sh -S -n 1 -s $s -O "0 2" -g --temps || exit 1; done
