/* diag.c: queued diagnostics.
 *
 * Errors are recorded while a request is processed and emitted only at the
 * end of the pass, once every failed request has been rewritten away and the
 * module verifies: under opt an error diagnostic exits the process inside
 * the emit call, so nothing may be left half-built when it is issued.
 */
#include "lt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct LtDiag {
  LLVMValueRef at;
  char *msg;
} LtDiag;

static int has_loc(LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) && LLVMGetDebugLocLine(v) > 0;
}

static void queue(LtCtx *c, LLVMValueRef at, const char *msg) {
  if (getenv("LEANTAPE_DEBUG") && at && LLVMIsAInstruction(at)) {
    fprintf(stderr, "leantape debug: %s at:", msg);
    LLVMDumpValue(at);
    fputc('\n', stderr);
  }
  /* An instruction without a location (made by a rewrite, or by the
   * optimiser from several lines) is reported at the nearest one before
   * it in its block that has one, else after it; code with none (no -g
   * there) at the __enzyme_* call being handled. */
  for (LLVMValueRef i = at; i && LLVMIsAInstruction(at) && !has_loc(at);
       i = LLVMGetPreviousInstruction(i))
    if (has_loc(i))
      at = i;
  for (LLVMValueRef i = at; i && LLVMIsAInstruction(at) && !has_loc(at);
       i = LLVMGetNextInstruction(i))
    if (has_loc(i))
      at = i;
  if (!has_loc(at) && has_loc(c->cur_call))
    at = c->cur_call;
  /* A global (a bad registration) is reported in some function of the
   * module: diagnostics need one. */
  if (!at || (!LLVMIsAInstruction(at) && !LLVMIsAFunction(at))) {
    at = c->cur_call;
    for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f && !at;
         f = LLVMGetNextFunction(f))
      if (!LLVMIsDeclaration(f))
        at = f;
  }
  LtDiag *d = lt_xcalloc(1, sizeof *d);
  d->at = at;
  d->msg = lt_strdup(msg);
  lt_vec_push(&c->diags, d);
  c->nerrors++;
}

void lt_error(LtCtx *c, LLVMValueRef at, const char *fmt, ...) {
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "leantape: ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  va_end(ap);
  queue(c, at, buf);
}

void lt_diag_drop(LtCtx *c, size_t n) {
  for (size_t i = n; i < c->diags.n; i++) {
    LtDiag *d = c->diags.v[i];
    free(d->msg);
    free(d);
  }
  if (n < c->diags.n)
    c->diags.n = n;
}

void lt_internal_error(LtCtx *c, LLVMValueRef fn, const char *what) {
  size_t len;
  const char *name = fn ? LLVMGetValueName2(fn, &len) : "?";
  lt_error(c, fn, "internal error while differentiating '%s': %s; please "
                  "report this with the input",
           name, what);
}

void lt_bury(LtCtx *c, LLVMValueRef fn) {
  for (size_t i = 0; i < c->graveyard.n; i++)
    if (c->graveyard.v[i] == fn)
      return;
  lt_vec_push(&c->graveyard, fn);
}

void lt_diag_flush(LtCtx *c) {
  for (size_t i = 0; i < c->diags.n; i++) {
    LtDiag *d = c->diags.v[i];
    lt_diag_emit(c, d->at, d->msg, 1);
    free(d->msg);
    free(d);
  }
  lt_vec_free(&c->diags);
  for (size_t i = 0; i < c->graveyard.n; i++)
    lt_erase_fn(c, c->graveyard.v[i]);
  lt_vec_free(&c->graveyard);
}
