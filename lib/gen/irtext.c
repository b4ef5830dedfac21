/* irtext.c: run-time helpers written as IR text, linked into the module
 * (ckptrt.c's checkpointing schedule, arenakeep.c's kept chunk, mpirt.c's
 * MPI helpers), and the one they share. */
#include "lt.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lt_link_ir(LtCtx *c, const char *text, const char *what, const char *prefix) {
  /* Parsed in a context of its own (the compiler's may discard value
   * names, which the text reader refuses), moved over as bitcode. */
  LLVMContextRef own = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), what);
  LLVMModuleRef tm = NULL, m = NULL;
  char *msg = NULL, err[160];
  if (LLVMParseIRInContext(own, buf, &tm, &msg)) {
    snprintf(err, sizeof err, "%s do not parse", what);
    lt_internal_error(c, NULL, msg ? msg : err);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(own);
    return -1;
  }
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(tm);
  LLVMDisposeModule(tm);
  LLVMContextDispose(own);
  int bad = LLVMParseBitcodeInContext2(c->llctx, bc, &m);
  LLVMDisposeMemoryBuffer(bc);
  if (bad) {
    snprintf(err, sizeof err, "%s do not load", what);
    lt_internal_error(c, NULL, err);
    return -1;
  }
  LLVMSetDataLayout(m, LLVMGetDataLayoutStr(c->mod));
  LLVMSetTarget(m, LLVMGetTarget(c->mod));
  if (LLVMLinkModules2(c->mod, m)) {
    snprintf(err, sizeof err, "%s do not link", what);
    lt_internal_error(c, NULL, err);
    return -1;
  }
  /* Linked with external linkage (the linker skips unreferenced local
   * symbols), local to the module from here on. */
  size_t np = strlen(prefix);
  for (LLVMValueRef g = LLVMGetFirstFunction(c->mod); g; g = LLVMGetNextFunction(g))
    if (!LLVMIsDeclaration(g) && !strncmp(LLVMGetValueName2(g, &(size_t){0}), prefix, np))
      LLVMSetLinkage(g, LLVMInternalLinkage);
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv))
    if (LLVMGetLinkage(gv) == LLVMExternalLinkage && !LLVMIsDeclaration(gv) &&
        !strncmp(LLVMGetValueName2(gv, &(size_t){0}), prefix, np))
      LLVMSetLinkage(gv, LLVMInternalLinkage);
  return 0;
}

/* i64 @<fn>(ptr name, i64 dflt): the environment variable name in bytes,
 * with an optional K, M or G (negative: 0); unset or empty: dflt. For
 * LEANTAPE_TAPE_BUDGET (ckptrt.c) and LEANTAPE_ARENA_KEEP (arenakeep.c),
 * each text its own copy under its own prefix (a helper local to the
 * module cannot be linked to from a text linked later). */
static const char *const envbytes_ir =
    "define i64 @%s(ptr %%name, i64 %%dflt) {\n"
    "entry:\n"
    "  %%endp = alloca ptr\n"
    "  %%s = call ptr @getenv(ptr %%name)\n"
    "  %%none = icmp eq ptr %%s, null\n"
    "  br i1 %%none, label %%unset, label %%set\n"
    "set:\n"
    "  %%c0 = load i8, ptr %%s\n"
    "  %%empty = icmp eq i8 %%c0, 0\n"
    "  br i1 %%empty, label %%unset, label %%parse\n"
    "unset:\n"
    "  ret i64 %%dflt\n"
    "parse:\n"
    "  %%v = call i64 @strtoll(ptr %%s, ptr %%endp, i32 10)\n"
    "  %%e = load ptr, ptr %%endp\n"
    "  %%ch = load i8, ptr %%e\n"
    "  %%lc = or i8 %%ch, 32\n"
    "  %%isk = icmp eq i8 %%lc, 107\n"
    "  %%ism = icmp eq i8 %%lc, 109\n"
    "  %%isg = icmp eq i8 %%lc, 103\n"
    "  %%s1 = select i1 %%isk, i64 10, i64 0\n"
    "  %%s2 = select i1 %%ism, i64 20, i64 %%s1\n"
    "  %%s3 = select i1 %%isg, i64 30, i64 %%s2\n"
    "  %%r = shl i64 %%v, %%s3\n"
    "  %%neg = icmp slt i64 %%r, 0\n"
    "  %%r2 = select i1 %%neg, i64 0, i64 %%r\n"
    "  ret i64 %%r2\n"
    "}\n";

char *lt_envbytes_ir(const char *fn) {
  size_t n = strlen(envbytes_ir) + strlen(fn) + 1;
  char *t = lt_xcalloc(n, 1);
  snprintf(t, n, envbytes_ir, fn);
  return t;
}
