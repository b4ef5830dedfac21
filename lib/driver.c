/* driver.c: the pass, as a pipeline.
 *
 * For every __enzyme_* call in the module: parse the request, build (or
 * reuse) its derivative, rewrite the call. A request that fails is reported
 * and its call removed, so the module stays valid; diagnostics are emitted
 * last. With no __enzyme_* calls left the pass changes nothing, so running
 * it twice (ThinLTO) is harmless.
 */
#include "lt.h"

#include <string.h>

static void init_ctx(LtCtx *c, LLVMModuleRef m, const LtHost *host,
                     int opt_level) {
  memset(c, 0, sizeof *c);
  c->host = host;
  c->mod = m;
  c->llctx = LLVMGetModuleContext(m);
  c->td = LLVMGetModuleDataLayout(m);
  c->opt_level = opt_level;
  c->i1 = LLVMInt1TypeInContext(c->llctx);
  c->i8 = LLVMInt8TypeInContext(c->llctx);
  c->i32 = LLVMInt32TypeInContext(c->llctx);
  c->i64 = LLVMInt64TypeInContext(c->llctx);
  c->ptr = LLVMPointerTypeInContext(c->llctx, 0);
  c->vd = LLVMVoidTypeInContext(c->llctx);
  c->f64 = LLVMDoubleTypeInContext(c->llctx);
}

/* Calls (and invokes) of entry points; calls of Enzyme entry points that
 * Leantape does not implement are reported and removed. */
static void find_calls(LtCtx *c, LtVec *calls, LtVec *failed, LtVec *hints) {
  LtMode mode;
  const char *what;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
           i = LLVMGetNextInstruction(i)) {
        if (lt_callsite_mode(i, &mode)) {
          lt_vec_push(calls, i);
          continue;
        }
        if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
          continue;
        if (lt_callsite_is_hint(i)) {
          lt_vec_push(hints, i);
          continue;
        }
        const char *name = lt_callsite_unsupported(i, &what);
        if (!name)
          continue;
        size_t len;
        const char *callee = lt_callee_name(i, &len);
        if (what)
          lt_error(c, i, "'%s' (%s) is not supported by Leantape yet; "
                         "reverse mode is: __enzyme_autodiff, or "
                         "__enzyme_augmentfwd with __enzyme_reverse; forward "
                         "mode: __enzyme_fwddiff",
                   name, what);
        else
          lt_error(c, i, "'%.*s' is not an entry point Leantape knows; the "
                         "entry points are __enzyme_autodiff, "
                         "__enzyme_augmentfwd, __enzyme_reverse, "
                         "__enzyme_augmentsize and __enzyme_fwddiff",
                   (int)len, callee);
        lt_vec_push(failed, i);
      }
}

/* Returns 0 when the call was rewritten; a failed call stays until its
 * diagnostic is out (the diagnostic points at it). */
static int handle(LtCtx *c, LLVMValueRef call) {
  LtMode mode;
  LtRequest r;
  lt_callsite_mode(call, &mode);
  LtDeriv *d = NULL;
  c->cur_call = call;
  int rc = (mode == LT_FWDDIFF ? lt_fwdsite_parse(c, call, &r)
                                : lt_callsite_parse(c, call, mode, &r)) ||
           !(d = mode == LT_FWDDIFF ? lt_tangent_derive(c, &r) : lt_derive_versioned(c, &r)) ||
           lt_rewrite(c, &r, d);
  lt_callsite_free(&r);
  c->cur_call = NULL;
  return rc;
}

/* An entry point used other than as a direct call cannot be rewritten. */
static void report_stray_uses(LtCtx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f;
       f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) || !lt_is_enzyme_name(n, len))
      continue;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if ((LLVMIsACallInst(user) || LLVMIsAInvokeInst(user)) &&
          lt_called_fn(user) == f)
        continue; /* a failed call: already reported */
      lt_error(c, LLVMIsAInstruction(user) ? user : NULL,
               "'%s' must be called directly (its address is taken here)", n);
      break;
    }
  }
}

/* What is left of __enzyme_iter(a, b) hints (in primal code and in the
 * generated code, where prep stepped them) is their first argument. */
static void lower_iter_hints(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        if (LLVMIsACallInst(i) && lt_is_iter_hint(i)) {
          LLVMReplaceAllUsesWith(i, LLVMGetOperand(i, 0));
          LLVMInstructionEraseFromParent(i);
        }
      }
}

/* __enzyme_virtualreverse(x) is x: Enzyme's shadow of a function pointer
 * or vtable leads to its derivatives; Leantape's derivatives find them by
 * the primal pointer (prep/indirect.c), so a shadow object may keep the
 * primal's vtable. 1 if any was lowered. */
static int lower_virtual_reverse(LLVMModuleRef m) {
  int any = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) || !strstr(n, "__enzyme_virtualreverse"))
      continue;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMUseRef u = LLVMGetFirstUse(f), next; u; u = next) {
      next = LLVMGetNextUse(u);
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || lt_called_fn(call) != f ||
          LLVMGetNumArgOperands(call) != 1)
        continue; /* reported as a stray use */
      LLVMValueRef x = LLVMGetOperand(call, 0);
      LLVMTypeRef t = LLVMTypeOf(call);
      if (LLVMGetTypeKind(t) != LLVMVoidTypeKind) {
        if (LLVMTypeOf(x) != t) {
          if (!lt_is_ptr_ty(t) || !lt_is_ptr_ty(LLVMTypeOf(x)))
            continue;
          LLVMPositionBuilderBefore(b, call);
          x = LLVMBuildPointerCast(b, x, t, "");
        }
        LLVMReplaceAllUsesWith(call, x);
      }
      LLVMInstructionEraseFromParent(call);
      any = 1;
    }
    LLVMDisposeBuilder(b);
  }
  return any;
}

/* Entry-point declarations and marker globals nobody uses any more. */
static void drop_unused_decls(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (LLVMIsDeclaration(f) && !LLVMGetFirstUse(f) && lt_is_enzyme_name(n, len))
      LLVMDeleteFunction(f);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m), next; g; g = next) {
    next = LLVMGetNextGlobal(g);
    size_t len;
    const char *n = LLVMGetValueName2(g, &len);
    if (LLVMIsDeclaration(g) && !LLVMGetFirstUse(g) && !strncmp(n, "enzyme_", 7))
      LLVMDeleteGlobal(g);
  }
}

/* Last, over the generated functions: loops copied without the undo log's
 * calls (unswitch.c), reverse loops whose iterations commute run upwards
 * (ascend.c; before sincos.c's calls, which write memory), sincos
 * (sincos.c), the accumulations of a
 * stencil's reverse loop (gather.c), and the values inner loops take from
 * downward loops (launder.c). Not earlier: a
 * derivative may itself be differentiated (nested calls, innermost first),
 * and the rule table knows sin and cos, not sincos. */
static void fuse_generated(LtCtx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (!LLVMIsDeclaration(f) && strstr(n, ".lt.")) {
      LtMap copies; /* loops left as they were behind a run-time test */
      lt_map_init(&copies, 8);
      lt_unswitch_undo(c, f);
      lt_ascend_reverse_loops(c, f, &copies);
      lt_fuse_sincos(c, f);
      lt_gather_accums(c, f, &copies);
      lt_map_free(&copies);
      lt_launder_reverse_nests(c, f);
    }
  }
}

int lt_run_module(LLVMModuleRef m, const LtHost *host, int opt_level) {
  LtCtx c;
  init_ctx(&c, m, host, opt_level);
  LtVec calls = {0}, failed = {0}, hints = {0};
  int virt = lt_restore_module(m);
  virt |= lower_virtual_reverse(m);
  lt_split_merged_calls(&c);
  find_calls(&c, &calls, &failed, &hints);
  if (!calls.n && !failed.n && !hints.n) {
    lower_iter_hints(m); /* hints in code nothing differentiates */
    if (virt)
      drop_unused_decls(m);
    return virt;
  }
  lt_annotate_module(&c);
  for (size_t i = 0; i < hints.n; i++)
    lt_rewrite_failed(&c, hints.v[i]);
  lt_vec_free(&hints);
  lt_split_pairs(&c, &calls);
  lt_schedule_calls(&calls, &c.nested_calls);
  for (size_t i = 0; i < calls.n; i++)
    if (handle(&c, calls.v[i]))
      lt_vec_push(&failed, calls.v[i]);
  lt_vec_free(&calls);
  lt_rewrite_check_tapes(&c);
  report_stray_uses(&c);
  lt_diag_flush(&c);
  for (size_t i = 0; i < failed.n; i++)
    lt_rewrite_failed(&c, failed.v[i]);
  lt_vec_free(&failed);
  lower_iter_hints(m);
  lt_annotate_drop(&c);
  drop_unused_decls(m);
  fuse_generated(&c);
  for (size_t i = 0; i < c.derivs.n; i++)
    lt_deriv_free(c.derivs.v[i]);
  lt_vec_free(&c.derivs);
  lt_annotate_free(&c);
  lt_escape_free(&c);
  lt_map_free(&c.tape_owner);
  lt_map_free(&c.split_clean);
  lt_map_free(&c.nested_calls);
  lt_map_free(&c.purity);
  lt_map_free(&c.gshadow);
  lt_map_free(&c.copy_of);
  lt_vec_free(&c.rev_calls);
  return 1;
}
