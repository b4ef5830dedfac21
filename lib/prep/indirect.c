/* indirect.c: calls through function pointers become direct calls.
 *
 * A call through a pointer (a C callback, a C++ virtual call) in the
 * canonical clone becomes a call of a dispatcher, leantape.dispatch.<n>,
 * which compares the pointer with each function the call may reach and
 * calls that one directly. Preprocessing inlines the dispatcher like any
 * callee, so each branch is an ordinary direct call: inlined, kept with a
 * derivative of its own, or a rule (sin), in reverse and forward mode.
 *
 * The functions a call may reach: those of the module whose address is
 * taken (outside Enzyme's registrations and llvm.used), of the call's
 * type; for a virtual call, whose pointer is slot k of a vtable loaded
 * from the object, only those in slot k of some vtable of the module
 * (the Itanium layout: offset to top, RTTI, then the slots).
 *
 * A pointer to none of them (a function of another translation unit)
 * takes the dispatcher's last branch: the original indirect call, marked
 * "fallback", after a call of leantape.unknown_callee(active, message).
 * activity.c sets `active` where that call is active: the derivative then
 * stops there with a run-time error naming the call (it has no derivative
 * to run); an inactive one (a logging callback) just runs.
 *
 * Enzyme's convention is different: the shadow of a function pointer (a
 * shadow vtable made with __enzyme_virtualreverse) leads to the
 * derivative. Here the primal pointer selects it, so shadow objects need
 * no vtable of their own, and __enzyme_virtualreverse(x) is x (driver.c):
 * Enzyme's code that installs shadow vtables works unchanged.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

#define LT_MAX_TARGETS 32 /* more possible callees: left alone */

static int named(LLVMValueRef g, const char *prefix) {
  size_t len;
  const char *n = LLVMGetValueName2(g, &len);
  return len >= strlen(prefix) && !strncmp(n, prefix, strlen(prefix));
}

static LLVMValueRef strip(LLVMValueRef v) {
  while (v && LLVMIsAConstantExpr(v) &&
         (LLVMGetConstOpcode(v) == LLVMBitCast ||
          LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
    v = LLVMGetOperand(v, 0);
  if (v && LLVMIsAGlobalAlias(v))
    v = LLVMAliasGetAliasee(v);
  return v;
}

/* A global whose references to functions do not make them callable
 * through pointers in the program: llvm.used and friends, constructors,
 * Enzyme's registrations. */
static int bookkeeping(LLVMValueRef g) {
  size_t len;
  const char *n = LLVMGetValueName2(g, &len);
  return named(g, "llvm.") || lt_is_enzyme_name(n, len);
}

/* Some use of v (a function, or a constant holding it) takes its address
 * for the program: not the callee of a call, not bookkeeping. */
static int address_taken(LLVMValueRef v, int depth) {
  if (depth > 8)
    return 1;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsACallInst(user) || LLVMIsAInvokeInst(user)) {
      unsigned n = (unsigned)LLVMGetNumOperands(user);
      if (LLVMGetOperandUse(user, n - 1) == u)
        continue; /* called, not taken */
      return 1;
    }
    if (LLVMIsAGlobalVariable(user)) {
      if (!bookkeeping(user))
        return 1;
      continue;
    }
    if (LLVMIsAConstant(user) && !LLVMIsAGlobalValue(user)) {
      if (address_taken(user, depth + 1))
        return 1;
      continue;
    }
    return 1;
  }
  return 0;
}

static int candidate(LLVMValueRef f, LLVMTypeRef fty) {
  size_t len;
  const char *n = LLVMGetValueName2(f, &len);
  return LLVMGlobalGetValueType(f) == fty && !LLVMGetIntrinsicID(f) &&
         !lt_is_enzyme_name(n, len) && !named(f, "lt.") &&
         !named(f, "leantape.") && !strstr(n, ".lt.");
}

/* The byte offset of the vtable slot the called pointer fp is loaded
 * from (load (gep (load obj), k))), or -1. */
static long long vtable_slot(LtCtx *c, LLVMValueRef fp) {
  if (!LLVMIsALoadInst(fp))
    return -1;
  LLVMValueRef a = LLVMGetOperand(fp, 0);
  long long off = 0;
  if (LLVMIsAGetElementPtrInst(a)) {
    if (LLVMGetNumIndices(a) != 1 || !LLVMIsAConstantInt(LLVMGetOperand(a, 1)))
      return -1;
    LLVMTypeRef et = LLVMGetGEPSourceElementType(a);
    off = LLVMConstIntGetSExtValue(LLVMGetOperand(a, 1)) *
          (long long)LLVMABISizeOfType(c->td, et);
    a = LLVMGetOperand(a, 0);
  }
  if (!LLVMIsALoadInst(a) || off < 0 || off % 8)
    return -1;
  return off;
}

/* Element k of a constant array or struct (NULL past its end). */
static LLVMValueRef element(LLVMValueRef agg, unsigned k) {
  if (LLVMIsAConstantArray(agg) || LLVMIsAConstantStruct(agg))
    return k < (unsigned)LLVMGetNumOperands(agg) ? LLVMGetOperand(agg, k) : NULL;
  return LLVMGetAggregateElement(agg, k);
}

static unsigned length(LLVMValueRef agg) {
  LLVMTypeRef t = LLVMTypeOf(agg);
  if (LLVMGetTypeKind(t) == LLVMArrayTypeKind)
    return (unsigned)LLVMGetArrayLength2(t);
  if (LLVMGetTypeKind(t) == LLVMStructTypeKind)
    return LLVMCountStructElementTypes(t);
  return 0;
}

static void add(LtVec *out, LLVMValueRef f) {
  for (size_t i = 0; i < out->n; i++)
    if (out->v[i] == f)
      return;
  lt_vec_push(out, f);
}

/* Functions at `slot` (in pointers) of a vtable-like array arr: a run of
 * functions after two non-functions (offset to top, RTTI). */
static void slot_targets(LLVMValueRef arr, unsigned slot, LLVMTypeRef fty,
                         LtVec *out) {
  unsigned n = length(arr);
  for (unsigned j = slot + 2; j < n; j++) {
    LLVMValueRef f = strip(element(arr, j));
    if (!f || !LLVMIsAFunction(f) || !candidate(f, fty))
      continue;
    unsigned at = j - slot; /* the address point */
    int ok = !LLVMIsAFunction(strip(element(arr, at - 1))) &&
             !LLVMIsAFunction(strip(element(arr, at - 2)));
    for (unsigned q = at; q < j && ok; q++)
      ok = LLVMIsAFunction(strip(element(arr, q))) != NULL;
    if (ok)
      add(out, f);
  }
}

static void vtable_targets(LtCtx *c, unsigned slot, LLVMTypeRef fty, LtVec *out) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g)) {
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!init || !LLVMIsGlobalConstant(g) || bookkeeping(g))
      continue;
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(init));
    if (k == LLVMArrayTypeKind) {
      slot_targets(init, slot, fty, out);
    } else if (k == LLVMStructTypeKind) {
      for (unsigned m = 0, n = length(init); m < n; m++) {
        LLVMValueRef e = element(init, m);
        if (e && LLVMGetTypeKind(LLVMTypeOf(e)) == LLVMArrayTypeKind)
          slot_targets(e, slot, fty, out);
      }
    }
  }
}

static void typed_targets(LtCtx *c, LLVMTypeRef fty, LtVec *out) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    if (candidate(f, fty) && address_taken(f, 0))
      add(out, f);
}

/* leantape.unknown_callee(active, msg, len): with active set, the message
 * on stderr and abort. */
static LLVMValueRef unknown_callee(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->i1, c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, LT_UNKNOWN_CALLEE,
                                LLVMFunctionType(c->vd, pt, 3, 0), &entry);
  if (!entry)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->llctx, f, "fail");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(c->llctx, f, "ok");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMGetParam(f, 0), fail, ok);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMTypeRef wt[3] = {c->i32, c->ptr, c->i64};
  LLVMValueRef w = lt_decl_fn(c->mod, "write", LLVMFunctionType(c->i64, wt, 3, 0));
  LLVMValueRef a[3] = {LLVMConstInt(c->i32, 2, 0), LLVMGetParam(f, 1),
                       LLVMGetParam(f, 2)};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(w), w, a, 3, "");
  LLVMValueRef ab = lt_decl_fn(c->mod, "abort", LLVMFunctionType(c->vd, NULL, 0, 0));
  LLVMBuildCall2(b, LLVMGlobalGetValueType(ab), ab, NULL, 0, "");
  LLVMBuildUnreachable(b);
  LLVMPositionBuilderAtEnd(b, ok);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

static LLVMValueRef message(LtCtx *c, LLVMValueRef call, unsigned *len) {
  char buf[700], where[300] = "";
  LLVMValueRef at = LLVMGetDebugLocLine(call) ? call : c->cur_call;
  unsigned fl = 0;
  const char *file = at && LLVMGetDebugLocLine(at) ? LLVMGetDebugLocFilename(at, &fl) : NULL;
  if (file)
    snprintf(where, sizeof where, "%.*s:%u:%u: ", (int)fl, file,
             LLVMGetDebugLocLine(at), LLVMGetDebugLocColumn(at));
  /* the clone is <function>.lt.pre */
  size_t fnl;
  const char *fn = LLVMGetValueName2(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), &fnl);
  const char *dot = strstr(fn, ".lt.pre");
  if (dot)
    fnl = (size_t)(dot - fn);
  int n = snprintf(buf, sizeof buf,
                   "leantape: %sa call through a function pointer in the "
                   "derivative of '%.*s' reached a function that is not in "
                   "its module, on active data: it has no derivative; define "
                   "the function in the same translation unit (or use %s)\n",
                   where, (int)fnl, fn,
                   c->host->thinlto_o0 ? "-O1 or full LTO: ThinLTO at -O0 "
                                         "differentiates in each compile step"
                                       : "LTO");
  *len = (unsigned)(n < (int)sizeof buf ? n : (int)sizeof buf - 1);
  return LLVMConstStringInContext2(c->llctx, buf, *len, 1);
}

/* The dispatcher of call over targets: the call's parameters and the
 * pointer last. */
static LLVMValueRef dispatcher(LtCtx *c, LLVMValueRef call, LtVec *targets) {
  static unsigned serial;
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  unsigned np = LLVMCountParamTypes(fty);
  LLVMTypeRef pt[np + 1];
  LLVMGetParamTypes(fty, pt);
  pt[np] = c->ptr;
  LLVMTypeRef ret = LLVMGetReturnType(fty);
  char name[64];
  snprintf(name, sizeof name, "leantape.dispatch.%u", serial++);
  LLVMBasicBlockRef bb;
  LLVMValueRef d = lt_helper_fn(c, name, LLVMFunctionType(ret, pt, np + 1, 0), &bb);
  LLVMValueRef fp = LLVMGetParam(d, np);
  LLVMValueRef args[np + 1];
  for (unsigned k = 0; k < np; k++)
    args[k] = LLVMGetParam(d, k);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  int isvoid = LLVMGetTypeKind(ret) == LLVMVoidTypeKind;
  for (size_t t = 0; t <= targets->n; t++) {
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMValueRef target = t < targets->n ? targets->v[t] : fp;
    if (t < targets->n) {
      LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(c->llctx, d, "");
      LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(c->llctx, d, "");
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, fp, target, ""), yes, no);
      LLVMPositionBuilderAtEnd(b, yes);
      bb = no;
    } else {
      unsigned len;
      LLVMValueRef s = message(c, call, &len);
      LLVMValueRef g = LLVMAddGlobal(c->mod, LLVMTypeOf(s), "leantape.unknown_callee.msg");
      LLVMSetInitializer(g, s);
      LLVMSetGlobalConstant(g, 1);
      LLVMSetLinkage(g, LLVMPrivateLinkage);
      LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
      LLVMValueRef u = unknown_callee(c);
      LLVMValueRef ua[3] = {LLVMConstInt(c->i1, 0, 0), g, LLVMConstInt(c->i64, len, 0)};
      LLVMValueRef check = LLVMBuildCall2(b, LLVMGlobalGetValueType(u), u, ua, 3, "");
      lt_mark_call(check, "inactive");
    }
    LLVMValueRef r = LLVMBuildCall2(b, fty, target, args, np, "");
    /* the call's own attributes (sret, byval, noundef, ...) on each */
    for (unsigned k = 0; k <= np; k++) {
      unsigned idx = k == np ? LLVMAttributeReturnIndex : k + 1;
      unsigned na = LLVMGetCallSiteAttributeCount(call, idx);
      LLVMAttributeRef as[na ? na : 1];
      LLVMGetCallSiteAttributes(call, idx, as);
      for (unsigned q = 0; q < na; q++)
        LLVMAddCallSiteAttribute(r, idx, as[q]);
    }
    LLVMSetInstructionCallConv(r, LLVMGetInstructionCallConv(call));
    if (t == targets->n)
      lt_mark_call(r, "fallback");
    if (isvoid)
      LLVMBuildRetVoid(b);
    else
      LLVMBuildRet(b, r);
  }
  LLVMDisposeBuilder(b);
  return d;
}

/* The byval-like parameter attributes a dispatcher cannot pass on. */
static int passes_memory(LLVMValueRef call) {
  static const char *const kinds[] = {"byval", "inalloca", "preallocated"};
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned k = 0; k < n; k++)
    for (size_t q = 0; q < 3; q++) {
      unsigned kind = LLVMGetEnumAttributeKindForName(kinds[q], strlen(kinds[q]));
      if (LLVMGetCallSiteEnumAttribute(call, k + 1, kind))
        return 1;
    }
  return 0;
}

/* Integers in, integers (or nothing) out: such a call cannot carry a
 * derivative, and stays as it is. */
static int integers_only(LLVMTypeRef fty) {
  unsigned np = LLVMCountParamTypes(fty);
  LLVMTypeRef pt[np ? np : 1];
  LLVMGetParamTypes(fty, pt);
  LLVMTypeKind r = LLVMGetTypeKind(LLVMGetReturnType(fty));
  if (r != LLVMVoidTypeKind && r != LLVMIntegerTypeKind)
    return 0;
  for (unsigned k = 0; k < np; k++)
    if (LLVMGetTypeKind(pt[k]) != LLVMIntegerTypeKind)
      return 0;
  return 1;
}

static int promote(LtCtx *c, LLVMValueRef call) {
  LLVMValueRef fp = LLVMGetCalledValue(call);
  if (!fp || LLVMIsAFunction(strip(fp)) || LLVMIsAInlineAsm(fp) ||
      lt_call_marked(call) || passes_memory(call) ||
      LLVMIsFunctionVarArg(LLVMGetCalledFunctionType(call)) ||
      integers_only(LLVMGetCalledFunctionType(call)))
    return 0;
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  LtVec targets = {0};
  long long slot = vtable_slot(c, fp);
  if (slot >= 0)
    vtable_targets(c, (unsigned)(slot / 8), fty, &targets);
  int vt = targets.n > 0;
  if (!targets.n)
    typed_targets(c, fty, &targets);
  int done = 0;
  if (targets.n && targets.n <= LT_MAX_TARGETS) {
    char msg[600];
    int m = snprintf(msg, sizeof msg, "a call through a %s dispatched over "
                                      "%zu function%s of the module:",
                     vt ? "vtable" : "function pointer", targets.n,
                     targets.n == 1 ? "" : "s");
    for (size_t t = 0; t < targets.n && m < (int)sizeof msg - 1; t++)
      m += snprintf(msg + m, sizeof msg - (size_t)m, "%s '%s'", t ? "," : "",
                    LLVMGetValueName2(targets.v[t], &(size_t){0}));
    lt_remark_emit(c, call, "leantape", "IndirectCall", msg);
    LLVMValueRef d = dispatcher(c, call, &targets);
    unsigned np = LLVMGetNumArgOperands(call);
    LLVMValueRef args[np + 1];
    for (unsigned k = 0; k < np; k++)
      args[k] = LLVMGetOperand(call, k);
    args[np] = fp;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(d), d, args, np + 1, "");
    LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(call));
    LLVMDisposeBuilder(b);
    if (LLVMGetTypeKind(LLVMGetReturnType(fty)) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(call, nc);
    LLVMInstructionEraseFromParent(call);
    done = 1;
  }
  lt_vec_free(&targets);
  return done;
}

int lt_promote_indirect(LtCtx *c, LLVMValueRef fn) {
  LtVec calls = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && !lt_called_fn(i))
        lt_vec_push(&calls, i);
  int n = 0;
  for (size_t k = 0; k < calls.n; k++)
    n += promote(c, calls.v[k]);
  lt_vec_free(&calls);
  return n;
}
