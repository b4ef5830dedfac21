/* host.c: the host's services (LtHost, filled by plugin.cpp), called with
 * the context: diagnostics, remarks, LLVM's alias analysis and memory
 * effects, llvm.compiler.used, the analysis cache.
 */
#include "lt.h"

void lt_diag_emit(LtCtx *c, LLVMValueRef at, const char *msg, int is_error) {
  c->host->diag(c->host->self, at, msg, is_error);
}

void lt_remark_emit(LtCtx *c, LLVMValueRef at, const char *pass_name,
                    const char *remark_name, const char *msg) {
  if (c->quiet)
    return;
  c->host->remark(c->host->self, at, pass_name, remark_name, msg);
}

int lt_llvm_may_alias(LtCtx *c, LLVMValueRef ia, LLVMValueRef pa,
                      LLVMValueRef ib, LLVMValueRef pb) {
  return c->host->may_alias(c->host->self, ia, pa, ib, pb);
}

int lt_call_writes(LtCtx *c, LLVMValueRef call) {
  return c->host->call_writes(c->host->self, call);
}

void lt_keep_global(LtCtx *c, LLVMValueRef gv) {
  c->host->keep_global(c->host->self, gv);
}

void lt_llvm_forget(LtCtx *c, LLVMValueRef fn) {
  c->host->forget(c->host->self, fn);
}
