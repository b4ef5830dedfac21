/* ckptol.c: online checkpointing, the run-time helpers of a time loop whose
 * number of steps T is not known until it ends (prep/outline.c's online
 * steps: `while (t < t_end)` with an adaptive step), as LLVM IR that
 * ckptrt.c links in with its own.
 *
 * The forward sweep keeps snapshots at the steps that are multiples of a
 * stride S, S = 1 at first, in at most K = max(1, s / 2) of the s slots
 * the budget gives (slot j: the state of step j S). When the next multiple
 * of S is due and the K slots are full, every other snapshot is dropped
 * (slot j takes slot 2 j) and S doubles: a doubling scheme in the spirit
 * of Stumm and Walther's online checkpointing (SIAM J. Sci. Comput. 2010),
 * simpler and with a weaker bound. When the loop ends, T is known, and the
 * reverse sweep reverses each interval [j S, min((j + 1) S, T)), the last
 * first, from its snapshot with the offline binomial treeverse of ckptrt.c
 * (lt.ckpt.tv), whose free slots are those of the intervals after it
 * (already reversed): at least s - K.
 *
 * The bound: S doubled to its last value at the step K S / 2 < T, so an
 * interval has l < 2 T / K steps (l <= T when K = 1), reversed with
 * f >= s - K free slots: besides the forward sweep and the taped run
 * before its reverse, a step runs again at most r times, r the least with
 * C(f + r + 1, f + 1) >= l (with f = 0, when s = 1: l - 1 times). Thinning
 * copies K / 2 snapshots at most log2(2 T / K) times. Offline checkpointing
 * (T known) is the case of one interval: K = 1, S = T.
 *
 * Context fields (ckptrt.c's layout): 144 S, 152 the snapshots kept, 160 K.
 */
#include "lt.h"

const char lt_ckpt_online_ir[] =
    /* lt.ckpt.online(c, k): before step k runs untaped (k > 0): its
     * snapshot if it is due */
    "define void @lt.ckpt.online(ptr %c, i64 %k) {\n"
    "entry:\n"
    "  %pS = getelementptr i8, ptr %c, i64 144\n"
    "  %pkept = getelementptr i8, ptr %c, i64 152\n"
    "  %pK = getelementptr i8, ptr %c, i64 160\n"
    "  %S = load i64, ptr %pS\n"
    "  %rem = urem i64 %k, %S\n"
    "  %due = icmp eq i64 %rem, 0\n"
    "  br i1 %due, label %isdue, label %done\n"
    "isdue:\n"
    "  %kept = load i64, ptr %pkept\n"
    "  %K = load i64, ptr %pK\n"
    "  %full = icmp uge i64 %kept, %K\n"
    "  br i1 %full, label %thin, label %save\n"
    /* slot j <- slot 2 j for 0 < j < (kept + 1) / 2; S doubles */
    "thin:\n"
    "  %psz = getelementptr i8, ptr %c, i64 24\n"
    "  %sz = load i64, ptr %psz\n"
    "  %psl = getelementptr i8, ptr %c, i64 32\n"
    "  %slots = load ptr, ptr %psl\n"
    "  %kept1 = add i64 %kept, 1\n"
    "  %half = lshr i64 %kept1, 1\n"
    "  br label %move\n"
    "move:\n"
    "  %j = phi i64 [ 1, %thin ], [ %j1, %moved ]\n"
    "  %more = icmp ult i64 %j, %half\n"
    "  br i1 %more, label %copy, label %thinned\n"
    "copy:\n"
    "  %to = mul i64 %j, %sz\n"
    "  %from = shl i64 %to, 1\n"
    "  %dst = getelementptr i8, ptr %slots, i64 %to\n"
    "  %src = getelementptr i8, ptr %slots, i64 %from\n"
    "  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %sz, i1 "
    "false)\n"
    "  br label %moved\n"
    "moved:\n"
    "  %j1 = add i64 %j, 1\n"
    "  br label %move\n"
    "thinned:\n"
    "  store i64 %half, ptr %pkept\n"
    "  %S2 = shl i64 %S, 1\n"
    "  store i64 %S2, ptr %pS\n"
    "  %rem2 = urem i64 %k, %S2\n"
    "  %due2 = icmp eq i64 %rem2, 0\n"
    "  %room = icmp ult i64 %half, %K\n"
    "  %now = and i1 %due2, %room\n"
    "  br i1 %now, label %save, label %done\n"
    "save:\n"
    "  %d = load i64, ptr %pkept\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %d, i32 1)\n"
    "  %d1 = add i64 %d, 1\n"
    "  store i64 %d1, ptr %pkept\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    /* lt.ckpt.intervals(c, T): reverse all T steps, interval by interval,
     * the last first */
    "define void @lt.ckpt.intervals(ptr %c, i64 %T) {\n"
    "entry:\n"
    "  %pS = getelementptr i8, ptr %c, i64 144\n"
    "  %S = load i64, ptr %pS\n"
    "  %pkept = getelementptr i8, ptr %c, i64 152\n"
    "  %kept = load i64, ptr %pkept\n"
    "  %last = sub i64 %kept, 1\n"
    "  %pm = getelementptr i8, ptr %c, i64 8\n"
    "  %mode = load i64, ptr %pm\n"
    "  %off = icmp eq i64 %mode, 2\n"
    "  br label %loop\n"
    "loop:\n"
    "  %j = phi i64 [ %last, %entry ], [ %jn, %loop ]\n"
    "  %hi = phi i64 [ %T, %entry ], [ %lo, %loop ]\n"
    "  %lo = mul i64 %j, %S\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %j, i32 2)\n"
    /* offline (one interval), A kept the first descent's states */
    "  call void @lt.ckpt.tv(ptr %c, i64 %lo, i64 %hi, i64 %j, i1 %off)\n"
    "  %jn = sub i64 %j, 1\n"
    "  %again = icmp sge i64 %jn, 0\n"
    "  br i1 %again, label %loop, label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n";
