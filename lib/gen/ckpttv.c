/* ckpttv.c: the reverse sweep of a checkpointed time loop (ckptrt.c's
 * context and callbacks), as LLVM IR linked in with ckptrt.c's.
 *
 * lt.ckpt.tv(c, lo, hi, d, pre) reverses steps [lo, hi) with the state of
 * lo in memory and in slot d (pre: the states of its first descent are in
 * the slots after d, kept by A): Griewank's treeverse with binomial splits
 * (Revolve): with f free slots, a range of l steps is cut at
 * lo + min(L(f, r - 1), l - C(f + r - 1, f)), where L(f, r) = C(f + r + 1,
 * f + 1) is the longest range f free slots reverse with every step run
 * again at most r times, and r is the least with L(f, r) >= l: the left
 * part at most what its slots reverse at r - 1 runs, the right part at
 * least what one slot fewer reverses at r - 1. Any cut in that range runs
 * the fewest steps again, r l - C(f + r + 1, r - 1) (Griewank and Walther,
 * ACM TOMS 26, 2000; checked against an exhaustive search of the cuts,
 * with and without the first descent's states kept by A); the largest
 * left part alone is not always in it (Burgers' 20000 steps in 124 slots:
 * 35262 steps run again, 32002 with the range). The right part is
 * reversed first from a new snapshot, then the left from slot d. With no
 * free slot, each step is reached again from slot d.
 *
 * lt.ckpt.adv runs steps untaped, lt.ckpt.slot saves or restores a
 * snapshot slot, lt.ckpt.back reverses the step whose state is in memory
 * (taped run, then its reverse).
 */
#include "lt.h"

const char lt_ckpt_tv_ir[] =
    /* lt.ckpt.adv(c, lo, n): n primal steps from step lo, counted */
    "define void @lt.ckpt.adv(ptr %c, i64 %lo, i64 %n) {\n"
    "entry:\n"
    "  %args = getelementptr i8, ptr %c, i64 192\n"
    "  %pa = getelementptr i8, ptr %c, i64 40\n"
    "  %a = load ptr, ptr %pa\n"
    "  %ps = getelementptr i8, ptr %c, i64 88\n"
    "  %s0 = load i64, ptr %ps\n"
    "  %s1 = add i64 %s0, %n\n"
    "  store i64 %s1, ptr %ps\n"
    "  %none = icmp sle i64 %n, 0\n"
    "  br i1 %none, label %done, label %loop\n"
    "loop:\n"
    "  %j = phi i64 [ 0, %entry ], [ %j1, %loop ]\n"
    "  %kj = add i64 %lo, %j\n"
    "  call void @lt.ckpt.setk(ptr %c, i64 %kj)\n"
    "  call void %a(ptr %args)\n"
    "  %j1 = add i64 %j, 1\n"
    "  %more = icmp slt i64 %j1, %n\n"
    "  br i1 %more, label %loop, label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    /* lt.ckpt.slot(c, d, op): save (op 1) or restore (op 2) slot d */
    "define void @lt.ckpt.slot(ptr %c, i64 %d, i32 %op) {\n"
    "entry:\n"
    "  %args = getelementptr i8, ptr %c, i64 192\n"
    "  %psn = getelementptr i8, ptr %c, i64 56\n"
    "  %snap = load ptr, ptr %psn\n"
    "  %psz = getelementptr i8, ptr %c, i64 24\n"
    "  %sz = load i64, ptr %psz\n"
    "  %psl = getelementptr i8, ptr %c, i64 32\n"
    "  %slots = load ptr, ptr %psl\n"
    "  %off = mul i64 %d, %sz\n"
    "  %buf = getelementptr i8, ptr %slots, i64 %off\n"
    "  %r = call i64 %snap(ptr %args, ptr %buf, i32 %op)\n"
    "  ret void\n"
    "}\n"
    /* lt.ckpt.back(c): reverse the step whose state is in memory */
    "define void @lt.ckpt.back(ptr %c, i64 %t) {\n"
    "entry:\n"
    "  call void @lt.ckpt.setk(ptr %c, i64 %t)\n"
    "  %args = getelementptr i8, ptr %c, i64 192\n"
    "  %ptsz = getelementptr i8, ptr %c, i64 104\n"
    "  %tsz = load i64, ptr %ptsz\n"
    "  %tp = call ptr @malloc(i64 %tsz)\n"
    "  %psy = getelementptr i8, ptr %c, i64 112\n"
    "  %sy = load ptr, ptr %psy\n"
    "  call void %sy(ptr %args, i32 1)\n"
    "  %pd = getelementptr i8, ptr %c, i64 184\n"
    "  %gd = load ptr, ptr %pd\n"
    "  %pg = getelementptr i8, ptr %c, i64 96\n"
    "  %g0 = load ptr, ptr %pg\n"
    "  %own = icmp ne ptr %gd, null\n"
    "  %g = select i1 %own, ptr %gd, ptr %g0\n"
    "  call void %g(ptr %args, ptr %tp)\n"
    "  %pr = getelementptr i8, ptr %c, i64 48\n"
    "  %r = load ptr, ptr %pr\n"
    "  %po = getelementptr i8, ptr %c, i64 64\n"
    "  %o = load ptr, ptr %po\n"
    "  call void %r(ptr %args, ptr %tp, ptr %o)\n"
    "  call void @free(ptr %tp)\n"
    "  ret void\n"
    "}\n"
    /* lt.ckpt.cut(c, lo, hi, d): how many steps from lo treeverse cuts
     * [lo, hi) with the state of lo in slot d; 0: it does not cut (one
     * step, or no free slot). Binomial: r least with L(f, r) >= l for the
     * f free slots; the cut at min(L(f, r - 1), l - C(f + r - 1, f)). */
    "define i64 @lt.ckpt.cut(ptr %c, i64 %lo, i64 %hi, i64 %d) {\n"
    "entry:\n"
    "  %pn = getelementptr i8, ptr %c, i64 16\n"
    "  %ns = load i64, ptr %pn\n"
    "  %ns1 = sub i64 %ns, 1\n"
    "  %f = sub i64 %ns1, %d\n"
    "  %l = sub i64 %hi, %lo\n"
    "  %one = icmp sle i64 %l, 1\n"
    "  %nofree = icmp sle i64 %f, 0\n"
    "  %no = or i1 %one, %nofree\n"
    "  br i1 %no, label %none, label %grow\n"
    "none:\n"
    "  ret i64 0\n"
    "grow:\n"
    "  %r = phi i64 [ 0, %entry ], [ %r1, %grow2 ]\n"
    "  %L = phi i64 [ 1, %entry ], [ %L1, %grow2 ]\n"
    "  %prev = phi i64 [ 1, %entry ], [ %L, %grow2 ]\n"
    "  %enough = icmp uge i64 %L, %l\n"
    "  br i1 %enough, label %cut, label %grow2\n"
    "grow2:\n"
    "  %r1 = add i64 %r, 1\n"
    "  %fr = add i64 %f, %r1\n"
    "  %fr1 = add i64 %fr, 1\n"
    "  %Lm = mul i64 %L, %fr1\n"
    "  %L1 = udiv i64 %Lm, %r1\n"
    "  br label %grow\n"
    "cut:\n"
    /* the right part keeps at least C(f + r - 1, f) = prev (f + 1) / (f + r)
     * steps */
    "  %f1 = add i64 %f, 1\n"
    "  %pf = mul i64 %prev, %f1\n"
    "  %fr0 = add i64 %f, %r\n"
    "  %b2 = udiv i64 %pf, %fr0\n"
    "  %rest = sub i64 %l, %b2\n"
    "  %over = icmp ugt i64 %prev, %rest\n"
    "  %m0 = select i1 %over, i64 %rest, i64 %prev\n"
    "  %lm1 = sub i64 %l, 1\n"
    "  %big = icmp ugt i64 %m0, %lm1\n"
    "  %s1 = select i1 %big, i64 %lm1, i64 %m0\n"
    "  %small = icmp slt i64 %s1, 1\n"
    "  %s = select i1 %small, i64 1, i64 %s1\n"
    "  ret i64 %s\n"
    "}\n"
    /* lt.ckpt.tv(c, lo, hi, d, pre): treeverse */
    "define void @lt.ckpt.tv(ptr %c, i64 %lo, i64 %hi0, i64 %d, i1 %pre0) {\n"
    "entry:\n"
    "  br label %top\n"
    "top:\n"
    "  %hi = phi i64 [ %hi0, %entry ], [ %m, %left ]\n"
    "  %pre = phi i1 [ %pre0, %entry ], [ false, %left ]\n"
    "  %l = sub i64 %hi, %lo\n"
    "  %one = icmp sle i64 %l, 1\n"
    "  br i1 %one, label %last, label %split\n"
    "last:\n"
    "  call void @lt.ckpt.back(ptr %c, i64 %lo)\n"
    "  ret void\n"
    "split:\n"
    "  %s = call i64 @lt.ckpt.cut(ptr %c, i64 %lo, i64 %hi, i64 %d)\n"
    "  %nofree = icmp eq i64 %s, 0\n"
    "  br i1 %nofree, label %each, label %cut\n"
    /* no free slot: step t from slot d, for t = hi - 1 down to lo + 1 */
    "each:\n"
    "  %hi1 = sub i64 %hi, 1\n"
    "  br label %eachstep\n"
    "eachstep:\n"
    "  %t = phi i64 [ %hi1, %each ], [ %tn, %eachstep ]\n"
    "  %adv = sub i64 %t, %lo\n"
    "  call void @lt.ckpt.adv(ptr %c, i64 %lo, i64 %adv)\n"
    "  call void @lt.ckpt.back(ptr %c, i64 %t)\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %d, i32 2)\n"
    "  %tn = sub i64 %t, 1\n"
    "  %more = icmp sgt i64 %tn, %lo\n"
    "  br i1 %more, label %eachstep, label %lastone\n"
    "lastone:\n"
    "  call void @lt.ckpt.back(ptr %c, i64 %lo)\n"
    "  ret void\n"
    "cut:\n"
    "  %m = add i64 %lo, %s\n"
    "  %d1 = add i64 %d, 1\n"
    "  br i1 %pre, label %kept, label %go\n"
    "kept:\n" /* A kept the state of m in slot d + 1 */
    "  call void @lt.ckpt.slot(ptr %c, i64 %d1, i32 2)\n"
    "  br label %right\n"
    "go:\n"
    "  call void @lt.ckpt.adv(ptr %c, i64 %lo, i64 %s)\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %d1, i32 1)\n"
    "  br label %right\n"
    "right:\n"
    "  call void @lt.ckpt.tv(ptr %c, i64 %m, i64 %hi, i64 %d1, i1 %pre)\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %d, i32 2)\n"
    "  br label %left\n"
    "left:\n"
    "  br label %top\n"
    "}\n";
