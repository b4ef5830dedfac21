/* arenakeep.c: the arena's last large chunk kept for the next gradient
 * (issue 17: the time of gradients with large tapes).
 *
 * glibc maps a block over its largest mmap threshold (32 MiB) afresh on
 * every malloc and unmaps it on free, so a gradient whose tape is larger
 * than that had every page of it faulted in and cleared by the kernel
 * again, every time: a double-buffered 300x300 diffusion (72 MB of tape)
 * spent about half of its gradient in the kernel's clear_page. Smaller
 * blocks fault in again too until glibc's dynamic thresholds catch up
 * (mapped, unmapped, then taken from fresh heap: PolyBench's durbin,
 * 1.3 MB of tape and a 100 us primal, had its first two timed gradients
 * at 6-7 times the primal, the rest at 3). The chunk an emptied arena
 * frees last is kept instead, when it is at least KEEP_MIN (128 KiB,
 * glibc's first mmap threshold) bytes and at most LEANTAPE_ARENA_KEEP
 * (bytes, with an optional K, M or G; unset: 1 GiB; 0: nothing is kept):
 * from 32 MiB its pages past the header are advised MADV_FREE, so that
 * the kernel may take them back under memory pressure (a page it took
 * comes back cleared, as a new one would; below that the advice's walk
 * of the pages would cost more than the memory is worth), and the next
 * gradient's first chunk is that one if it is large enough (else it is
 * freed). One chunk per thread at most; a pthread key's
 * destructor frees it when the thread exits (where the C library has
 * pthreads: weak references). Linux on x86-64 and AArch64 only, as the
 * huge-page advice (MADV_FREE is 8 there); elsewhere chunks are freed.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lt.arena.take(i64 need): the kept chunk (capacity at +8) if it holds
 * need bytes and LEANTAPE_ARENA_KEEP still allows it, else null (the
 * chunk is freed: with LEANTAPE_ARENA_KEEP=0 a gradient allocates its own,
 * what the benchmarks count). lt.arena.keep(ptr ch):
 * 1 when ch, emptied, is kept. */
static const char *const keep_ir =
    "@lt.arena.spare = internal thread_local global ptr null\n"
    "@lt.arena.key = internal global i32 0\n"
    "@lt.arena.once = internal global i32 0\n"
    "@lt.arena.kenv = private constant [20 x i8] c\"LEANTAPE_ARENA_KEEP\\00\"\n"
    "declare extern_weak i32 @pthread_once(ptr, ptr)\n"
    "declare extern_weak i32 @pthread_key_create(ptr, ptr)\n"
    "declare extern_weak i32 @pthread_setspecific(i32, ptr)\n"
    "declare i32 @madvise(ptr, i64, i32)\n"
    "declare void @free(ptr)\n"
    "declare ptr @getenv(ptr)\n"
    "declare i64 @strtoll(ptr, ptr, i32)\n"
    "define void @lt.arena.keyinit() {\n"
    "  %r = call i32 @pthread_key_create(ptr @lt.arena.key, ptr @free)\n"
    "  ret void\n"
    "}\n"
    /* the thread's key holds p (its destructor frees it at thread exit) */
    "define void @lt.arena.setkey(ptr %p) {\n"
    "entry:\n"
    "  %a = icmp ne ptr @pthread_once, null\n"
    "  %b = icmp ne ptr @pthread_key_create, null\n"
    "  %c = icmp ne ptr @pthread_setspecific, null\n"
    "  %ab = and i1 %a, %b\n"
    "  %abc = and i1 %ab, %c\n"
    "  br i1 %abc, label %set, label %done\n"
    "set:\n"
    "  %o = call i32 @pthread_once(ptr @lt.arena.once, ptr @lt.arena.keyinit)\n"
    "  %k = load i32, ptr @lt.arena.key\n"
    "  %s = call i32 @pthread_setspecific(i32 %k, ptr %p)\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "define i64 @lt.arena.limit() {\n"
    "  %r = call i64 @lt.arena.envbytes(ptr @lt.arena.kenv, i64 1073741824)\n"
    "  ret i64 %r\n"
    "}\n"
    "define ptr @lt.arena.take(i64 %need) {\n"
    "entry:\n"
    "  %s = load ptr, ptr @lt.arena.spare\n"
    "  %none = icmp eq ptr %s, null\n"
    "  br i1 %none, label %no, label %have\n"
    "have:\n"
    "  store ptr null, ptr @lt.arena.spare\n"
    "  call void @lt.arena.setkey(ptr null)\n"
    "  %capp = getelementptr i8, ptr %s, i64 8\n"
    "  %cap = load i64, ptr %capp\n"
    "  %big = icmp uge i64 %cap, %need\n"
    "  %lim = call i64 @lt.arena.limit()\n"
    "  %kept = icmp ule i64 %cap, %lim\n"
    "  %fits = and i1 %big, %kept\n"
    "  br i1 %fits, label %yes, label %drop\n"
    "drop:\n"
    "  call void @free(ptr %s)\n"
    "  br label %no\n"
    "yes:\n"
    "  ret ptr %s\n"
    "no:\n"
    "  ret ptr null\n"
    "}\n"
    /* header 32 bytes, then cap bytes; a chunk of KEEP_MIN (128 KiB) or
     * more, advised MADV_FREE from 32 MiB */
    "define i1 @lt.arena.keep(ptr %ch) {\n"
    "entry:\n"
    "  %capp = getelementptr i8, ptr %ch, i64 8\n"
    "  %cap = load i64, ptr %capp\n"
    "  %big = icmp uge i64 %cap, 131072\n"
    "  br i1 %big, label %limit, label %no\n"
    "limit:\n"
    "  %lim = call i64 @lt.arena.limit()\n"
    "  %fits = icmp ule i64 %cap, %lim\n"
    "  br i1 %fits, label %keep, label %no\n"
    "keep:\n"
    "  %old = load ptr, ptr @lt.arena.spare\n"
    "  %some = icmp ne ptr %old, null\n"
    "  br i1 %some, label %freeold, label %store\n"
    "freeold:\n"
    "  call void @free(ptr %old)\n"
    "  br label %store\n"
    "store:\n"
    "  store ptr %ch, ptr @lt.arena.spare\n"
    "  call void @lt.arena.setkey(ptr %ch)\n"
    "  %p = ptrtoint ptr %ch to i64\n"
    "  %lo0 = add i64 %p, 4127\n" /* 32 + 4095: the first whole page after the header */
    "  %lo = and i64 %lo0, -4096\n"
    "  %end = add i64 %p, 32\n"
    "  %end2 = add i64 %end, %cap\n"
    "  %hi = and i64 %end2, -4096\n"
    "  %any = icmp ugt i64 %hi, %lo\n"
    "  %huge = icmp uge i64 %cap, 33554432\n"
    "  %adv = and i1 %any, %huge\n"
    "  br i1 %adv, label %advise, label %done\n"
    "advise:\n"
    "  %lp = inttoptr i64 %lo to ptr\n"
    "  %n = sub i64 %hi, %lo\n"
    "  %r = call i32 @madvise(ptr %lp, i64 %n, i32 8)\n"
    "  br label %done\n"
    "done:\n"
    "  ret i1 true\n"
    "no:\n"
    "  ret i1 false\n"
    "}\n";

static int keep_target(LtCtx *c) {
  const char *t = LLVMGetTarget(c->mod);
  return t && strstr(t, "linux") && (!strncmp(t, "x86_64", 6) || !strncmp(t, "aarch64", 7));
}

static LLVMValueRef keep_fn(LtCtx *c, const char *name) {
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (f && !LLVMIsDeclaration(f))
    return f;
  if (!keep_target(c))
    return NULL;
  char *env = lt_envbytes_ir("lt.arena.envbytes");
  size_t n = strlen(env) + strlen(keep_ir) + 1;
  char *text = lt_xcalloc(n, 1);
  snprintf(text, n, "%s%s", env, keep_ir);
  free(env);
  int bad = lt_link_ir(c, text, "the arena's keeping helpers", "lt.arena.");
  free(text);
  if (bad)
    return NULL;
  return LLVMGetNamedFunction(c->mod, name);
}

LLVMValueRef lt_arena_take(LtCtx *c, LLVMBuilderRef b, LLVMValueRef need) {
  LLVMValueRef f = keep_fn(c, "lt.arena.take");
  if (!f)
    return LLVMConstNull(c->ptr);
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &need, 1, "kept");
}

LLVMValueRef lt_arena_keep(LtCtx *c, LLVMBuilderRef b, LLVMValueRef chunk) {
  LLVMValueRef f = keep_fn(c, "lt.arena.keep");
  if (!f)
    return LLVMConstInt(LLVMInt1TypeInContext(c->llctx), 0, 0);
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &chunk, 1, "keep");
}
