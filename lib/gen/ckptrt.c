/* ckptrt.c: the run-time half of checkpointing (gen/ckpt.c), as LLVM IR
 * linked into the module once.
 *
 * A checkpointed time loop (its step a kept call of prep/outline.c's
 * <f>.lt.step) keeps a context, made at its first step in A:
 *
 *   0 T, 8 mode (1: tape every step, as without checkpointing; 2:
 *   checkpoint), 16 snapshot slots, 24 snapshot bytes, 32 the slots,
 *   40 adv(args): one step, untaped, 48 rev(args, tape, outs): its
 *   reverse, its out-gradients added into outs, 56 snap(args, buf, op):
 *   the bytes a step writes (op 0: their number; 1: save into buf; 2:
 *   restore from buf; 6: all a step writes, the estimate), 64 outs, 72 their bytes, 80 the budget, 88 steps
 *   run again in R, 96 aug(args, tape): one step, taped, 104 its tape's
 *   bytes, 112 sync(args, op): the shadows of rotated pointers (op 0:
 *   learn them at step 0; 1: set them for the primal ones, before a step
 *   run again is taped), 120 where the step number is among the arguments
 *   (-1: nowhere), 128 the reads' buffer (snap ops 3, 4, 5: what the steps
 *   read that code after the loop may change; saved once at step 0, put
 *   back while R runs steps again, as loop-time and as-now halves, where
 *   they differ: it may be read-only), 136
 *   their bytes, 144, 152, 160 the online schedule (ckptol.c: stride,
 *   snapshots kept, their limit; offline T, 1, 1), 168 the next step
 *   whose state A keeps for R's first descent (-1: none), 176 its slot,
 *   184 the step's taped run as lt.ckpt.back runs it, right before its
 *   reverse (ckptdead.c; null: aug at 96), 192 the step's arguments and
 *   shadows (the caller writes them), then
 *   sync's pairs.
 *
 * lt.ckpt.fwd runs in A at each step k: at k = 0 it reads the budget
 * (LEANTAPE_TAPE_BUDGET, bytes with an optional K, M or G; unset: the
 * compile-time one, 0 for none) and, with one that taping every step does
 * not fit (T times the step's tape and a state's bytes, an estimate),
 * takes as many snapshot slots as fit in it beside one state, the reads'
 * buffer and the tape of the step being reversed (at least one), saves
 * the state of step 0 and from then on runs the steps untaped (returning
 * null), keeping on the way the states at which lt.ckpt.tv's first
 * descent would cut [0, T) (lt.ckpt.cut: the right part's start, then its
 * right part's, ...), so that R starts from them instead of running those
 * steps again: the forward sweep is the first of the r runs the binomial
 * bound counts, as in Revolve (Griewank and Walther, ACM TOMS 26, 2000),
 * whose schedule starts with the forward sweep's advances; without a
 * budget it runs each step taped and returns its tape.
 * lt.ckpt.rev runs in R at each step k (T - 1 down to 0) with that tape:
 * it reverses the step from it, or, checkpointing, at the first call all T
 * steps at once (lt.ckpt.tv, ckpttv.c), adding their out-gradients into outs
 * (the other calls add nothing); the last call restores the state of step
 * 0 and frees everything. Online (T passed as -1: the number of steps is
 * not known until the loop ends; prep/outline.c), the context counts the
 * steps, a budget always means checkpointing (whether taping fits is not
 * known), and ckptol.c keeps snapshots as the steps run and reverses the
 * intervals between them.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The messages, as globals of their exact length (lt_ckpt_rt). */
static const char *const msgs[][2] = {
    {"lt.ckpt.env", "LEANTAPE_TAPE_BUDGET"},
    {"lt.ckpt.renv", "LEANTAPE_REPORT"},
    {"lt.ckpt.senv", "LEANTAPE_SNAPSHOTS"},
    {"lt.ckpt.msg", "leantape: checkpointing %lld steps: %lld snapshots of %lld bytes "
                    "(tape budget %lld bytes)\n"},
    {"lt.ckpt.msg2", "leantape: %lld checkpointed steps reversed, %lld steps run again; "
                     "tape memory %lld bytes (the snapshots, the reads' copy, one step's "
                     "tape)\n"},
    {"lt.ckpt.msg3", "leantape: taping %lld steps (no tape budget)\n"},
    {"lt.ckpt.msg4", "leantape: taping %lld steps (about %lld bytes, within the tape budget "
                     "of %lld bytes)\n"},
    {"lt.ckpt.msg5", "leantape: checkpointing online (steps not known in advance): %lld "
                     "snapshots of %lld bytes, at most %lld kept while the steps run (tape "
                     "budget %lld bytes)\n"},
    {"lt.ckpt.msg6", "leantape: taping the steps as they run (no tape budget)\n"},
};

static const char *const rt_ir =
    "declare ptr @malloc(i64)\n"
    /* large slot areas get 2 MiB pages (lt_ckpt_rt defines it with
     * arena.c's lt.arena.huge): 64 MB of slots faulted in 4 KiB at a time
     * was a seventh of a gradient */
    "declare void @lt.ckpt.huge(ptr, i64)\n"
    "declare ptr @calloc(i64, i64)\n"
    "declare void @free(ptr)\n"
    "declare ptr @getenv(ptr)\n"
    "declare i64 @strtoll(ptr, ptr, i32)\n"
    "declare i32 @dprintf(i32, ptr, ...)\n"
    "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
    "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
    /* lt.ckpt.get(cell, argbytes): the context, made on first use */
    "define ptr @lt.ckpt.get(ptr %cell, i64 %argbytes) {\n"
    "entry:\n"
    "  %c = load ptr, ptr %cell\n"
    "  %have = icmp ne ptr %c, null\n"
    "  br i1 %have, label %done, label %make\n"
    "make:\n"
    "  %sz = add i64 %argbytes, 192\n"
    "  %n = call ptr @calloc(i64 1, i64 %sz)\n"
    "  store ptr %n, ptr %cell\n"
    "  br label %done\n"
    "done:\n"
    "  %r = phi ptr [ %c, %entry ], [ %n, %make ]\n"
    "  ret ptr %r\n"
    "}\n"
    /* lt.ckpt.budget(dflt): LEANTAPE_TAPE_BUDGET in bytes; unset or
     * empty: the compile-time default (irtext.c) */
    "define i64 @lt.ckpt.budget(i64 %dflt) {\n"
    "entry:\n"
    "  %r = call i64 @lt.ckpt.envbytes(ptr @lt.ckpt.env, i64 %dflt)\n"
    "  ret i64 %r\n"
    "}\n"
    /* lt.ckpt.nsnap(n): LEANTAPE_SNAPSHOTS if set to a positive number
     * (a fixed slot count whatever the budget: for tests and tuning), else
     * n */
    "define i64 @lt.ckpt.nsnap(i64 %n) {\n"
    "entry:\n"
    "  %s = call ptr @getenv(ptr @lt.ckpt.senv)\n"
    "  %none = icmp eq ptr %s, null\n"
    "  br i1 %none, label %keep, label %parse\n"
    "parse:\n"
    "  %v = call i64 @strtoll(ptr %s, ptr null, i32 10)\n"
    "  %pos = icmp sgt i64 %v, 0\n"
    "  %r = select i1 %pos, i64 %v, i64 %n\n"
    "  ret i64 %r\n"
    "keep:\n"
    "  ret i64 %n\n"
    "}\n"
    /* lt.ckpt.fwd(c, k, T, adv, rev, snap, outbytes, dflt) */
    "define ptr @lt.ckpt.fwd(ptr %c, i64 %k, i64 %T, ptr %adv, ptr %aug, ptr %rev, ptr %snap,"
    " ptr %sync, i64 %outbytes, i64 %tapesize, i64 %dflt, i64 %kslot) {\n"
    "entry:\n"
    "  %args = getelementptr i8, ptr %c, i64 192\n"
    "  %online = icmp eq i64 %T, -1\n"
    "  %first = icmp eq i64 %k, 0\n"
    "  br i1 %first, label %init, label %run\n"
    "init:\n"
    "  %T0 = select i1 %online, i64 0, i64 %T\n"
    "  store i64 %T0, ptr %c\n"
    "  %pmode = getelementptr i8, ptr %c, i64 8\n"
    "  store i64 1, ptr %pmode\n"
    "  %padv = getelementptr i8, ptr %c, i64 40\n"
    "  store ptr %adv, ptr %padv\n"
    "  %prev = getelementptr i8, ptr %c, i64 48\n"
    "  store ptr %rev, ptr %prev\n"
    "  %psnap = getelementptr i8, ptr %c, i64 56\n"
    "  store ptr %snap, ptr %psnap\n"
    "  %pob = getelementptr i8, ptr %c, i64 72\n"
    "  store i64 %outbytes, ptr %pob\n"
    "  %paug = getelementptr i8, ptr %c, i64 96\n"
    "  store ptr %aug, ptr %paug\n"
    "  %pts = getelementptr i8, ptr %c, i64 104\n"
    "  store i64 %tapesize, ptr %pts\n"
    "  %psy = getelementptr i8, ptr %c, i64 112\n"
    "  store ptr %sync, ptr %psy\n"
    "  %pks = getelementptr i8, ptr %c, i64 120\n"
    "  store i64 %kslot, ptr %pks\n"
    "  call void %sync(ptr %args, i32 0)\n"
    "  %b = call i64 @lt.ckpt.budget(i64 %dflt)\n"
    "  %pb = getelementptr i8, ptr %c, i64 80\n"
    "  store i64 %b, ptr %pb\n"
    "  %rep = call ptr @getenv(ptr @lt.ckpt.renv)\n"
    "  %report = icmp ne ptr %rep, null\n"
    "  %hasb = icmp sgt i64 %b, 0\n"
    "  br i1 %hasb, label %plan, label %tapemsg\n"
    "tapemsg:\n"
    "  br i1 %report, label %tapesay, label %run\n"
    "tapesay:\n"
    "  %m3 = select i1 %online, ptr @lt.ckpt.msg6, ptr @lt.ckpt.msg3\n"
    "  %t0 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr %m3, i64 %T)\n"
    "  br label %run\n"
    "plan:\n"
    "  %sz0 = call i64 %snap(ptr %args, ptr null, i32 0)\n"
    "  %sz1 = icmp eq i64 %sz0, 0\n"
    "  %sz = select i1 %sz1, i64 1, i64 %sz0\n"
    /* taping fits when T steps of (the step's tape header and about a
     * state's worth of values: all a step writes, snap op 6) do */
    "  %szf = call i64 %snap(ptr %args, ptr null, i32 6)\n"
    "  %per = add i64 %tapesize, %szf\n"
    "  %est = mul i64 %per, %T\n"
    "  %fits0 = icmp ule i64 %est, %b\n"
    "  %fits = select i1 %online, i1 false, i1 %fits0\n"
    "  br i1 %fits, label %fitmsg, label %plan2\n"
    "fitmsg:\n"
    "  br i1 %report, label %fitsay, label %run\n"
    "fitsay:\n"
    "  %t2 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @lt.ckpt.msg4, i64 %T, i64 %est,"
    " i64 %b)\n"
    "  br label %run\n"
    "plan2:\n"
    /* the budget holds the slots, the reads' buffer (two halves) and the
     * tape of the one step being reversed; the slots get what is left */
    "  %rsz0 = call i64 %snap(ptr %args, ptr null, i32 3)\n"
    "  %rsz02 = shl i64 %rsz0, 1\n"
    "  %other = add i64 %rsz02, %tapesize\n"
    "  %room = icmp ugt i64 %b, %other\n"
    "  %bfree = sub i64 %b, %other\n"
    "  %bslots = select i1 %room, i64 %bfree, i64 0\n"
    "  %fit = udiv i64 %bslots, %sz\n"
    "  %fit1 = sub i64 %fit, 1\n"
    "  %few = icmp slt i64 %fit1, 1\n"
    "  %n1 = select i1 %few, i64 1, i64 %fit1\n"
    "  %nw = call i64 @lt.ckpt.nsnap(i64 %n1)\n"
    "  %many = icmp ugt i64 %nw, %T\n"
    "  %n = select i1 %many, i64 %T, i64 %nw\n"
    "  %n1s = add i64 %n, 1\n"
    "  %bytes = mul i64 %n1s, %sz\n"
    "  %slots = call ptr @malloc(i64 %bytes)\n"
    "  call void @lt.ckpt.huge(ptr %slots, i64 %bytes)\n"
    "  %ob1 = add i64 %outbytes, 8\n"
    "  %outs = call ptr @calloc(i64 1, i64 %ob1)\n"
    "  %ok1 = icmp ne ptr %slots, null\n"
    "  %ok2 = icmp ne ptr %outs, null\n"
    "  %ok = and i1 %ok1, %ok2\n"
    "  br i1 %ok, label %ckpt, label %nomem\n"
    "nomem:\n"
    "  call void @free(ptr %slots)\n"
    "  call void @free(ptr %outs)\n"
    "  br label %run\n"
    "ckpt:\n"
    /* online (ckptol.c): snapshots every S steps in at most K slots */
    "  %md = select i1 %online, i64 3, i64 2\n"
    "  store i64 %md, ptr %pmode\n"
    "  %S0 = select i1 %online, i64 1, i64 %T\n"
    "  %pS = getelementptr i8, ptr %c, i64 144\n"
    "  store i64 %S0, ptr %pS\n"
    "  %pkept = getelementptr i8, ptr %c, i64 152\n"
    "  store i64 1, ptr %pkept\n"
    "  %nh = lshr i64 %n, 1\n"
    "  %nh0 = icmp eq i64 %nh, 0\n"
    "  %nh1 = select i1 %nh0, i64 1, i64 %nh\n"
    "  %K = select i1 %online, i64 %nh1, i64 1\n"
    "  %pK = getelementptr i8, ptr %c, i64 160\n"
    "  store i64 %K, ptr %pK\n"
    "  %pn = getelementptr i8, ptr %c, i64 16\n"
    "  store i64 %n, ptr %pn\n"
    "  %psz = getelementptr i8, ptr %c, i64 24\n"
    "  store i64 %sz, ptr %psz\n"
    "  %psl = getelementptr i8, ptr %c, i64 32\n"
    "  store ptr %slots, ptr %psl\n"
    "  %pouts = getelementptr i8, ptr %c, i64 64\n"
    "  store ptr %outs, ptr %pouts\n"
    "  %sv = call i64 %snap(ptr %args, ptr %slots, i32 1)\n"
    /* offline: where R's first descent cuts [0, T), kept as A passes */
    "  %cs = call i64 @lt.ckpt.cut(ptr %c, i64 0, i64 %T, i64 0)\n"
    "  %cs0 = icmp eq i64 %cs, 0\n"
    "  %cnext0 = select i1 %cs0, i64 -1, i64 %cs\n"
    "  %cnext = select i1 %online, i64 -1, i64 %cnext0\n"
    "  %pcn = getelementptr i8, ptr %c, i64 168\n"
    "  store i64 %cnext, ptr %pcn\n"
    "  %pcd = getelementptr i8, ptr %c, i64 176\n"
    "  store i64 1, ptr %pcd\n"
    /* what the steps read that later code may change: saved once */
    "  %rsz = call i64 %snap(ptr %args, ptr null, i32 3)\n"
    "  %prsz = getelementptr i8, ptr %c, i64 136\n"
    "  store i64 %rsz, ptr %prsz\n"
    "  %rsz2 = shl i64 %rsz, 1\n"
    "  %rbuf = call ptr @malloc(i64 %rsz2)\n"
    "  %prbuf = getelementptr i8, ptr %c, i64 128\n"
    "  store ptr %rbuf, ptr %prbuf\n"
    "  %rs = call i64 %snap(ptr %args, ptr %rbuf, i32 4)\n"
    "  br i1 %report, label %say, label %run\n"
    "say:\n"
    "  br i1 %online, label %sayon, label %sayoff\n"
    "sayoff:\n"
    "  %t1 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @lt.ckpt.msg, i64 %T, i64 %n,"
    " i64 %sz, i64 %b)\n"
    "  br label %run\n"
    "sayon:\n"
    "  %t5 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @lt.ckpt.msg5, i64 %n, i64 %sz,"
    " i64 %K, i64 %b)\n"
    "  br label %run\n"
    "run:\n"
    "  br i1 %online, label %count, label %run2\n"
    "count:\n" /* online: the steps so far */
    "  %k1 = add i64 %k, 1\n"
    "  store i64 %k1, ptr %c\n"
    "  br label %run2\n"
    "run2:\n"
    "  %pm = getelementptr i8, ptr %c, i64 8\n"
    "  %mode = load i64, ptr %pm\n"
    "  %tape = icmp eq i64 %mode, 1\n"
    "  br i1 %tape, label %taped, label %step\n"
    "taped:\n"
    "  %ptsz = getelementptr i8, ptr %c, i64 104\n"
    "  %tsz = load i64, ptr %ptsz\n"
    "  %tp = call ptr @malloc(i64 %tsz)\n"
    "  %pg = getelementptr i8, ptr %c, i64 96\n"
    "  %g = load ptr, ptr %pg\n"
    "  call void %g(ptr %args, ptr %tp)\n"
    "  ret ptr %tp\n"
    "step:\n"
    "  %on = icmp eq i64 %mode, 3\n"
    "  %later = xor i1 %first, true\n"
    "  %keep = and i1 %on, %later\n"
    "  br i1 %keep, label %keepsnap, label %step2\n"
    "keepsnap:\n"
    "  call void @lt.ckpt.online(ptr %c, i64 %k)\n"
    "  br label %step2\n"
    "step2:\n"
    "  %pcn2 = getelementptr i8, ptr %c, i64 168\n"
    "  %cn2 = load i64, ptr %pcn2\n"
    "  %due = icmp eq i64 %cn2, %k\n"
    "  %keepc = and i1 %due, %later\n"
    "  br i1 %keepc, label %chain, label %step3\n"
    "chain:\n" /* the state of step k for R's first descent */
    "  %pcd2 = getelementptr i8, ptr %c, i64 176\n"
    "  %cd2 = load i64, ptr %pcd2\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %cd2, i32 1)\n"
    "  %T2 = load i64, ptr %c\n"
    "  %cs2 = call i64 @lt.ckpt.cut(ptr %c, i64 %k, i64 %T2, i64 %cd2)\n"
    "  %cs20 = icmp eq i64 %cs2, 0\n"
    "  %cm2 = add i64 %k, %cs2\n"
    "  %cn3 = select i1 %cs20, i64 -1, i64 %cm2\n"
    "  store i64 %cn3, ptr %pcn2\n"
    "  %cd3 = add i64 %cd2, 1\n"
    "  store i64 %cd3, ptr %pcd2\n"
    "  br label %step3\n"
    "step3:\n"
    "  %pa = getelementptr i8, ptr %c, i64 40\n"
    "  %a = load ptr, ptr %pa\n"
    "  call void %a(ptr %args)\n"
    "  %psy2 = getelementptr i8, ptr %c, i64 112\n"
    "  %sy2 = load ptr, ptr %psy2\n"
    "  call void %sy2(ptr %args, i32 1)\n"
    "  ret ptr null\n"
    "}\n"
    /* lt.ckpt.setk(c, k): the step number in the arguments (if the step
     * takes one) */
    "define void @lt.ckpt.setk(ptr %c, i64 %k) {\n"
    "entry:\n"
    "  %pks = getelementptr i8, ptr %c, i64 120\n"
    "  %ks = load i64, ptr %pks\n"
    "  %has = icmp sge i64 %ks, 0\n"
    "  br i1 %has, label %set, label %done\n"
    "set:\n"
    "  %o = add i64 %ks, 192\n"
    "  %p = getelementptr i8, ptr %c, i64 %o\n"
    "  store i64 %k, ptr %p\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    /* lt.ckpt.rev(c, k, outs) */
    "define void @lt.ckpt.rev(ptr %c, i64 %k, ptr %tp, ptr %outs) {\n"
    "entry:\n"
    "  %pm = getelementptr i8, ptr %c, i64 8\n"
    "  %mode = load i64, ptr %pm\n"
    "  %tape = icmp eq i64 %mode, 1\n"
    "  %last = icmp eq i64 %k, 0\n"
    "  br i1 %tape, label %taped, label %ckpt\n"
    "taped:\n"
    "  %args = getelementptr i8, ptr %c, i64 192\n"
    "  %pob0 = getelementptr i8, ptr %c, i64 72\n"
    "  %ob0 = load i64, ptr %pob0\n"
    "  call void @llvm.memset.p0.i64(ptr %outs, i8 0, i64 %ob0, i1 false)\n"
    "  call void @lt.ckpt.setk(ptr %c, i64 %k)\n"
    "  %pr = getelementptr i8, ptr %c, i64 48\n"
    "  %r = load ptr, ptr %pr\n"
    "  call void %r(ptr %args, ptr %tp, ptr %outs)\n"
    "  call void @free(ptr %tp)\n"
    "  br i1 %last, label %freetape, label %yes\n"
    "freetape:\n"
    "  call void @free(ptr %c)\n"
    "  br label %yes\n"
    "yes:\n"
    "  ret void\n"
    "ckpt:\n"
    "  %T = load i64, ptr %c\n"
    "  %T1 = sub i64 %T, 1\n"
    "  %firstk = icmp eq i64 %k, %T1\n"
    "  %pob = getelementptr i8, ptr %c, i64 72\n"
    "  %ob = load i64, ptr %pob\n"
    "  %po = getelementptr i8, ptr %c, i64 64\n"
    "  %acc = load ptr, ptr %po\n"
    "  br i1 %firstk, label %all, label %zero\n"
    "all:\n"
    "  %cargs = getelementptr i8, ptr %c, i64 192\n"
    "  %psn = getelementptr i8, ptr %c, i64 56\n"
    "  %snap = load ptr, ptr %psn\n"
    "  %prbuf = getelementptr i8, ptr %c, i64 128\n"
    "  %rbuf = load ptr, ptr %prbuf\n"
    "  %prsz = getelementptr i8, ptr %c, i64 136\n"
    "  %rsz = load i64, ptr %prsz\n"
    "  %now = getelementptr i8, ptr %rbuf, i64 %rsz\n"
    /* the reads as they are now aside, as the steps saw them back */
    "  %r1 = call i64 %snap(ptr %cargs, ptr %now, i32 4)\n"
    "  %r2 = call i64 %snap(ptr %cargs, ptr %rbuf, i32 5)\n"
    /* the state as it is now (what A left, after R of what followed the
     * loop) aside, in the slot past the last, and back at the end */
    "  %pns = getelementptr i8, ptr %c, i64 16\n"
    "  %nsl = load i64, ptr %pns\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %nsl, i32 1)\n"
    "  call void @lt.ckpt.intervals(ptr %c, i64 %T)\n"
    "  call void @lt.ckpt.slot(ptr %c, i64 %nsl, i32 2)\n"
    "  %r3 = call i64 %snap(ptr %cargs, ptr %now, i32 5)\n"
    "  call void @llvm.memcpy.p0.p0.i64(ptr %outs, ptr %acc, i64 %ob, i1 false)\n"
    "  br label %end\n"
    "zero:\n"
    "  call void @llvm.memset.p0.i64(ptr %outs, i8 0, i64 %ob, i1 false)\n"
    "  br label %end\n"
    "end:\n"
    "  br i1 %last, label %finish, label %no\n"
    "finish:\n"
    "  %fargs = getelementptr i8, ptr %c, i64 192\n"
    "  %psy = getelementptr i8, ptr %c, i64 112\n"
    "  %sy = load ptr, ptr %psy\n"
    "  call void %sy(ptr %fargs, i32 1)\n"
    "  %rep = call ptr @getenv(ptr @lt.ckpt.renv)\n"
    "  %report = icmp ne ptr %rep, null\n"
    "  br i1 %report, label %say, label %free\n"
    "say:\n"
    "  %ps = getelementptr i8, ptr %c, i64 88\n"
    "  %steps = load i64, ptr %ps\n"
    /* what the schedule held: n + 1 states, the reads' two halves, the
     * tape of the step being reversed */
    "  %pnn = getelementptr i8, ptr %c, i64 16\n"
    "  %nn = load i64, ptr %pnn\n"
    "  %nn1 = add i64 %nn, 1\n"
    "  %pssz = getelementptr i8, ptr %c, i64 24\n"
    "  %ssz = load i64, ptr %pssz\n"
    "  %held1 = mul i64 %nn1, %ssz\n"
    "  %prs = getelementptr i8, ptr %c, i64 136\n"
    "  %rs2 = load i64, ptr %prs\n"
    "  %rs22 = shl i64 %rs2, 1\n"
    "  %ptz = getelementptr i8, ptr %c, i64 104\n"
    "  %tz = load i64, ptr %ptz\n"
    "  %held2 = add i64 %held1, %rs22\n"
    "  %held = add i64 %held2, %tz\n"
    "  %t1 = call i32 (i32, ptr, ...) @dprintf(i32 2, ptr @lt.ckpt.msg2, i64 %T, i64 %steps,"
    " i64 %held)\n"
    "  br label %free\n"
    "free:\n"
    "  %psl = getelementptr i8, ptr %c, i64 32\n"
    "  %slots = load ptr, ptr %psl\n"
    "  call void @free(ptr %slots)\n"
    "  call void @free(ptr %acc)\n"
    "  %prb = getelementptr i8, ptr %c, i64 128\n"
    "  %rb = load ptr, ptr %prb\n"
    "  call void @free(ptr %rb)\n"
    "  call void @free(ptr %c)\n"
    "  br label %no\n"
    "no:\n"
    "  ret void\n"
    "}\n";

LLVMValueRef lt_ckpt_rt(LtCtx *c, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (f && !LLVMIsDeclaration(f))
    return f;
  size_t cap = strlen(rt_ir) + strlen(lt_ckpt_tv_ir) + strlen(lt_ckpt_online_ir) + 8192,
         len = 0;
  char *text = lt_xcalloc(cap, 1);
  for (size_t k = 0; k < sizeof msgs / sizeof *msgs; k++) {
    const char *m = msgs[k][1];
    len += (size_t)snprintf(text + len, cap - len, "@%s = private constant [%zu x i8] c\"",
                            msgs[k][0], strlen(m) + 1);
    for (; *m; m++)
      if (*m == '\n')
        len += (size_t)snprintf(text + len, cap - len, "\\0A");
      else
        text[len++] = *m;
    len += (size_t)snprintf(text + len, cap - len, "\\00\"\n");
  }
  char *env = lt_envbytes_ir("lt.ckpt.envbytes");
  snprintf(text + len, cap - len, "%s%s%s%s", env, rt_ir, lt_ckpt_tv_ir, lt_ckpt_online_ir);
  free(env);
  int bad = lt_link_ir(c, text, "the checkpointing helpers", "lt.ckpt.");
  free(text);
  if (bad)
    return NULL;
  LLVMValueRef huge = LLVMGetNamedFunction(c->mod, "lt.ckpt.huge");
  if (huge && LLVMIsDeclaration(huge)) { /* the slots' huge pages (arena.c) */
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->llctx, huge, "entry"));
    lt_arena_huge(c, b, LLVMGetParam(huge, 0), LLVMGetParam(huge, 1));
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    LLVMSetLinkage(huge, LLVMInternalLinkage);
  }
  return LLVMGetNamedFunction(c->mod, name);
}
