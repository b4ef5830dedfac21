/* omp.c: OpenMP constructs in the canonical clone.
 *
 * A parallel region __kmpc_fork_call(loc, n, outlined, captures...)
 * becomes a direct call outlined(null, null, captures...) marked
 * "parallel" (the location in !leantape.omp.loc): for the analyses a call
 * like any other kept call, whose derivatives gen/omp.c runs on a team.
 * Critical sections get tickets: lt.omp.critical(loc, gtid, lock, turn)
 * enters and returns how many entries of that lock came before (turn is a
 * counter beside the lock), lt.omp.end_critical(..., ticket) leaves; the
 * reverse pass then re-enters them in the opposite order, which the
 * adjoint of a non-commutative update needs. Reductions become such
 * critical sections: __kmpc_reduce(_nowait) enters and returns 1 (combine
 * here), its end leaves (and, blocking, waits at a barrier); so the
 * runtime never combines privates behind the derivative's back (its tree
 * method calls the reduction function itself). Constructs Leantape does
 * not differentiate are errors naming them.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned loc_kind(LtCtx *c) {
  return LLVMGetMDKindIDInContext(c->llctx, "leantape.omp.loc", 16);
}

LLVMValueRef lt_omp_loc(LtCtx *c, LLVMValueRef call) {
  LLVMValueRef md = LLVMGetMetadata(call, loc_kind(c));
  if (!md || LLVMGetMDNodeNumOperands(md) != 1)
    return NULL;
  LLVMValueRef op;
  LLVMGetMDNodeOperands(md, &op);
  return op;
}

/* The type T when every use of the parameter p is a plain load of T, a
 * pointer or an integer: the region only reads that captured variable. */
static LLVMTypeRef read_only_scalar(LLVMValueRef p);

/* The float type of the loads of stack slot s, when all of them are of
 * one float type. */
static LLVMTypeRef slot_float(LLVMValueRef s) {
  LLVMTypeRef t = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(s); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef l = LLVMGetUser(u);
    if (!LLVMIsALoadInst(l))
      continue;
    if (!lt_is_float_ty(LLVMTypeOf(l)) || (t && LLVMTypeOf(l) != t))
      return NULL;
    t = LLVMTypeOf(l);
  }
  return t;
}

/* The float type T when the integer parameter p only carries T's bits:
 * every use a bitcast to T, or its store into a stack slot the function
 * reads only as T (the slot's address escapes, e.g. to __enzyme_double,
 * so it stayed in memory). A firstprivate double or float, which clang
 * passes to the outlined function as an integer. */
static LLVMTypeRef float_bits(LLVMValueRef p) {
  LLVMTypeRef t = NULL, ty = LLVMTypeOf(p);
  if (LLVMGetTypeKind(ty) != LLVMIntegerTypeKind)
    return NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef b = LLVMGetUser(u), slot;
    LLVMTypeRef bt = LLVMIsABitCastInst(b) ? LLVMTypeOf(b) : NULL;
    if (!bt && LLVMIsAStoreInst(b) && LLVMGetOperand(b, 0) == p &&
        LLVMIsAAllocaInst(slot = LLVMGetOperand(b, 1)))
      bt = slot_float(slot);
    if (!bt || !lt_is_float_ty(bt) || (t && bt != t))
      return NULL;
    t = bt;
  }
  return t && LLVMGetIntTypeWidth(ty) == LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(LLVMGetGlobalParent(LLVMGetParamParent(p))), t)
             ? t
             : NULL;
}

static LLVMTypeRef read_only_scalar(LLVMValueRef p) {
  LLVMTypeRef t = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef l = LLVMGetUser(u);
    if (!LLVMIsALoadInst(l) || LLVMGetVolatile(l) ||
        LLVMGetOrdering(l) != LLVMAtomicOrderingNotAtomic || (t && LLVMTypeOf(l) != t))
      return NULL;
    t = LLVMTypeOf(l);
  }
  if (!t || !(lt_is_ptr_ty(t) || LLVMGetTypeKind(t) == LLVMIntegerTypeKind))
    return NULL;
  return t;
}

/* The outlined function as the derivative's region: a clone of f in SSA
 * form where each captured variable that the region only reads, holding
 * a pointer or an integer, is a parameter of its value (ty[k] non-NULL),
 * as if it were firstprivate, and each firstprivate float passed as
 * integer bits is a float parameter (ty[k] non-NULL, bits[k] set). OpenMP passes shared variables by address;
 * a variable no thread writes during the region has one value, so this
 * is exact, and it lets the derivative see the arrays themselves (their
 * activity, from the caller's) rather than slots whose shadows would
 * have to say which pointers have none. */
static LLVMValueRef region_fn(LtCtx *c, LLVMValueRef f, LLVMTypeRef **ty_out,
                              char **bits_out) {
  size_t len;
  const char *fname = LLVMGetValueName2(f, &len);
  char name[300];
  snprintf(name, sizeof name, "%.*s.lt.region", (int)len, fname);
  unsigned np = LLVMCountParams(f);
  LLVMValueRef g0 = lt_clone_decl(f, "lt.omp.ssa", LLVMGlobalGetValueType(f));
  if (LLVMHasPersonalityFn(f)) /* its landing pads need it (C++ exceptions) */
    LLVMSetPersonalityFn(g0, LLVMGetPersonalityFn(f));
  LtMap vm;
  lt_map_init(&vm, 256);
  for (unsigned k = 0; k < np; k++)
    lt_map_put(&vm, LLVMGetParam(f, k), LLVMGetParam(g0, k));
  lt_clone_body(&vm, f, g0, NULL, 1);
  lt_map_free(&vm);
  LLVMTypeRef *ty = lt_xcalloc(np, sizeof *ty);
  char *bits = lt_xcalloc(np, 1);
  *ty_out = ty;
  *bits_out = bits;
  if (lt_run_pipeline(c, g0, "mem2reg,sroa,early-cse,instcombine<no-verify-fixpoint>")) {
    LLVMSetValueName2(g0, name, strlen(name));
    return g0;
  }
  LLVMTypeRef *pt = lt_xcalloc(np, sizeof *pt);
  LLVMGetParamTypes(LLVMGlobalGetValueType(f), pt);
  int any = 0;
  for (unsigned k = 2; k < np; k++) {
    if ((ty[k] = float_bits(LLVMGetParam(g0, k))))
      bits[k] = 1;
    else
      ty[k] = read_only_scalar(LLVMGetParam(g0, k));
    if (ty[k])
      pt[k] = ty[k], any = 1;
  }
  if (!any) {
    free(pt);
    LLVMSetValueName2(g0, name, strlen(name));
    return g0;
  }
  LLVMValueRef g1 = lt_clone_decl(g0, name, LLVMFunctionType(c->vd, pt, np, 0));
  if (LLVMHasPersonalityFn(g0))
    LLVMSetPersonalityFn(g1, LLVMGetPersonalityFn(g0));
  free(pt);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, g1, "lt.captures");
  LLVMPositionBuilderAtEnd(b, entry);
  lt_map_init(&vm, 256);
  for (unsigned k = 0; k < np; k++) {
    LLVMValueRef p = LLVMGetParam(g1, k);
    if (ty[k] && bits[k]) {
      lt_drop_param_attrs(g1, k);
      p = LLVMBuildBitCast(b, p, LLVMTypeOf(LLVMGetParam(g0, k)), "");
    } else if (ty[k]) {
      lt_drop_param_attrs(g1, k);
      LLVMValueRef slot = lt_build_slot(b, ty[k], 0, "");
      LLVMBuildStore(b, p, slot);
      p = slot;
    }
    lt_map_put(&vm, LLVMGetParam(g0, k), p);
  }
  LLVMBasicBlockRef body = lt_clone_body(&vm, g0, g1, NULL, 1);
  lt_map_free(&vm);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildBr(b, body);
  LLVMDisposeBuilder(b);
  lt_erase_fn(c, g0);
  lt_run_pipeline(c, g1, "mem2reg,early-cse");
  return g1;
}

int lt_omp_lower_fork(LtCtx *c, LLVMValueRef fork) {
  unsigned n = LLVMGetNumArgOperands(fork);
  LLVMValueRef f = n >= 3 ? LLVMGetOperand(fork, 2) : NULL;
  while (f && LLVMIsAConstantExpr(f) && LLVMGetConstOpcode(f) == LLVMBitCast)
    f = LLVMGetOperand(f, 0);
  if (!f || !LLVMIsAFunction(f) || LLVMIsDeclaration(f) ||
      LLVMCountParams(f) != n - 1) {
    lt_error(c, fork, "this parallel region's outlined function is not a "
                      "function defined in this module with one parameter "
                      "per captured variable; compile the region and the "
                      "differentiated function into one module");
    return -1;
  }
  LLVMTypeRef *ty;
  char *bits;
  LLVMValueRef g = region_fn(c, f, &ty, &bits);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, fork);
  LLVMValueRef *args = lt_xcalloc(n, sizeof *args);
  args[0] = args[1] = LLVMConstNull(c->ptr);
  for (unsigned k = 3; k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(fork, k);
    args[k - 1] = !ty[k - 1]   ? op
                  : bits[k - 1] ? LLVMBuildBitCast(b, op, ty[k - 1], "lt.firstprivate")
                                : LLVMBuildLoad2(b, ty[k - 1], op, "lt.capture");
  }
  free(ty);
  free(bits);
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(g), g, args, n - 1, "");
  LLVMDisposeBuilder(b);
  free(args);
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(fork));
  LLVMMetadataRef loc = LLVMValueAsMetadata(LLVMGetOperand(fork, 0));
  LLVMSetMetadata(call, loc_kind(c),
                  LLVMMetadataAsValue(c->llctx, LLVMMDNodeInContext2(c->llctx, &loc, 1)));
  lt_mark_call(call, "parallel");
  LLVMInstructionEraseFromParent(fork);
  return 0;
}

/* The counter of a lock's entries: a common global beside it. */
static LLVMValueRef turn_of(LtCtx *c, LLVMValueRef lock) {
  char name[300];
  size_t len;
  const char *ln = LLVMGetValueName2(lock, &len);
  snprintf(name, sizeof name, "%.*s.lt.turn", (int)len, len ? ln : "lt.omp.lock");
  LLVMValueRef g = LLVMGetNamedGlobal(c->mod, name);
  if (!g) {
    g = LLVMAddGlobal(c->mod, c->i64, name);
    LLVMSetLinkage(g, LLVMCommonLinkage);
    LLVMSetInitializer(g, LLVMConstInt(c->i64, 0, 0));
    LLVMSetAlignment(g, 8);
  }
  return g;
}

static LLVMValueRef decl(LtCtx *c, const char *name, LLVMTypeRef ret,
                         LLVMTypeRef *params, unsigned n) {
  return lt_decl_fn(c->mod, name, LLVMFunctionType(ret, params, n, 0));
}

static int in_vec(const LtVec *v, LLVMValueRef x) {
  for (size_t m = 0; m < v->n; m++)
    if (v->v[m] == x)
      return 1;
  return 0;
}

/* The counters of fn's critical sections and reductions, and of those of
 * the functions it calls: at -O0 -g clang's outlined function only calls
 * <name>_debug__, which holds the body (the region's own preprocessing
 * inlines it later). */
static void turns_in(LtCtx *c, LLVMValueRef fn, LtVec *turns, LtVec *seen) {
  if (in_vec(seen, fn) || seen->n > 64)
    return;
  lt_vec_push(seen, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
        continue;
      LtOmpKind k = lt_omp_kind(i, NULL);
      if (k == LT_OMP_CRITICAL || k == LT_OMP_REDUCE || k == LT_OMP_REDUCE_BARRIER) {
        LLVMValueRef t = turn_of(c, LLVMGetOperand(i, k == LT_OMP_CRITICAL ? 2 : 6));
        if (!in_vec(turns, t))
          lt_vec_push(turns, t);
        continue;
      }
      /* (not into the ticket helpers, whose lock is a parameter) */
      LLVMValueRef g = lt_called_fn(i);
      if (g && !LLVMIsDeclaration(g) && strncmp(lt_callee_name(i, &(size_t){0}), "lt.", 3))
        turns_in(c, g, turns, seen);
    }
}

void lt_omp_turns(LtCtx *c, LLVMValueRef fn, LtVec *turns) {
  LtVec seen = {0};
  turns_in(c, fn, turns, &seen);
  lt_vec_free(&seen);
}

/* lt.omp.critical(loc, gtid, lock, turn): enter, return the ticket;
 * lt.omp.end_critical(loc, gtid, lock, turn, ticket): leave. Each calls
 * the runtime's entry or exit with (loc, gtid, lock). */
static LLVMValueRef critical_fn(LtCtx *c, int leave) {
  LLVMTypeRef pt[5] = {c->ptr, c->i32, c->ptr, c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, leave ? "lt.omp.end_critical" : "lt.omp.critical",
                                LLVMFunctionType(leave ? c->vd : c->i64, pt, leave ? 5 : 4, 0),
                                &entry);
  if (!entry)
    return f;
  LLVMValueRef kc = decl(c, leave ? "__kmpc_end_critical" : "__kmpc_critical", c->vd, pt, 3);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a[3] = {LLVMGetParam(f, 0), LLVMGetParam(f, 1), LLVMGetParam(f, 2)};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(kc), kc, a, 3, "");
  if (leave) {
    LLVMBuildRetVoid(b);
  } else {
    LLVMValueRef t = LLVMBuildLoad2(b, c->i64, LLVMGetParam(f, 3), "t");
    LLVMBuildStore(b, LLVMBuildAdd(b, t, LLVMConstInt(c->i64, 1, 0), ""), LLVMGetParam(f, 3));
    LLVMBuildRet(b, t);
  }
  LLVMDisposeBuilder(b);
  return f;
}

/* Does entry e (in block be) come before x (in block bx) on every path? */
static int before(const LtCfg *g, LLVMValueRef e, LLVMValueRef x) {
  LLVMBasicBlockRef be = LLVMGetInstructionParent(e), bx = LLVMGetInstructionParent(x);
  if (be == bx) {
    for (LLVMValueRef i = e; i; i = LLVMGetNextInstruction(i))
      if (i == x)
        return 1;
    return 0;
  }
  int ie = lt_cfg_id(g, be), ix = lt_cfg_id(g, bx);
  return ie >= 0 && ix >= 0 && lt_cfg_dominates(g, (unsigned)ie, (unsigned)ix);
}

/* The entry (an lt.omp.critical of the same lock) a leave belongs to: the
 * latest one that comes before it on every path. */
static LLVMValueRef entry_of(const LtCfg *g, LtVec *entries, LLVMValueRef leave,
                             LLVMValueRef lock) {
  LLVMValueRef best = NULL;
  for (size_t k = 0; k < entries->n; k++) {
    LLVMValueRef e = entries->v[k];
    if (LLVMGetOperand(e, 2) != lock || !before(g, e, leave))
      continue;
    if (!best || before(g, best, e))
      best = e;
  }
  return best;
}

static void replace(LLVMValueRef old, LLVMValueRef new) {
  if (LLVMGetTypeKind(LLVMTypeOf(old)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(old, new ? new : LLVMGetPoison(LLVMTypeOf(old)));
  LLVMInstructionEraseFromParent(old);
}

/* Entries first: critical sections and reductions. */
static void lower_entries(LtCtx *c, LLVMValueRef fn, LtVec *entries) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsACallInst(i))
        continue;
      LtOmpKind k = lt_omp_kind(i, NULL);
      if (k != LT_OMP_CRITICAL && k != LT_OMP_REDUCE && k != LT_OMP_REDUCE_BARRIER)
        continue;
      LLVMValueRef lock = LLVMGetOperand(i, k == LT_OMP_CRITICAL ? 2 : 6);
      LLVMValueRef f = critical_fn(c, 0);
      LLVMValueRef a[4] = {LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), lock,
                           turn_of(c, lock)};
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef e = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, 4, "lt.ticket");
      LLVMInstructionSetDebugLoc(e, LLVMInstructionGetDebugLoc(i));
      lt_vec_push(entries, e);
      /* a reduction combines here, under the lock: case 1 of clang's switch */
      replace(i, k == LT_OMP_CRITICAL ? NULL : LLVMConstInt(c->i32, 1, 0));
    }
  LLVMDisposeBuilder(b);
}

static int lower_leaves(LtCtx *c, LLVMValueRef fn, LtVec *entries) {
  LtCfg g;
  lt_cfg_build(&g, fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  int rc = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !rc;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsACallInst(i))
        continue;
      LtOmpKind k = lt_omp_kind(i, NULL);
      if (k != LT_OMP_END_CRITICAL && k != LT_OMP_END_REDUCE &&
          k != LT_OMP_END_REDUCE_BARRIER)
        continue;
      LLVMValueRef lock = LLVMGetOperand(i, 2);
      LLVMValueRef e = entry_of(&g, entries, i, lock);
      if (!e) {
        lt_error(c, i, "the end of this critical section (or reduction) has "
                       "no matching start that runs before it on every path");
        rc = -1;
        break;
      }
      LLVMValueRef f = critical_fn(c, 1);
      LLVMValueRef a[5] = {LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), lock,
                           LLVMGetOperand(e, 3), e};
      LLVMPositionBuilderBefore(b, i);
      LLVMValueRef l = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, 5, "");
      LLVMInstructionSetDebugLoc(l, LLVMInstructionGetDebugLoc(i));
      if (k == LT_OMP_END_REDUCE_BARRIER) {
        LLVMTypeRef pt[2] = {c->ptr, c->i32};
        LLVMValueRef bar = decl(c, "__kmpc_barrier", c->vd, pt, 2);
        LLVMBuildCall2(b, LLVMGlobalGetValueType(bar), bar, a, 2, "");
      }
      replace(i, NULL);
    }
  LLVMDisposeBuilder(b);
  lt_cfg_free(&g);
  return rc;
}

static int unsupported(LtCtx *c, LLVMValueRef fn) {
  LLVMValueRef first = NULL;
  const char *first_what = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const char *what;
      if ((LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) &&
          lt_omp_kind(i, &what) == LT_OMP_UNSUPPORTED) {
        /* clang wraps a taskloop in a taskgroup: name what was written */
        if (!first || (!strcmp(first_what, "taskgroup") && !strcmp(what, "taskloop"))) {
          first = i;
          first_what = what;
        }
      }
    }
  if (!first)
    return 0;
  lt_error(c, first, "the OpenMP construct '%s' is not supported in "
                     "differentiated code (parallel regions, worksharing "
                     "loops, reductions, critical, atomic, single, "
                     "master/masked and barriers are)", first_what);
  return -1;
}

int lt_omp_lower_sync(LtCtx *c, LLVMValueRef fn) {
  if (unsupported(c, fn))
    return -1;
  LtVec entries = {0};
  lower_entries(c, fn, &entries);
  int rc = entries.n ? lower_leaves(c, fn, &entries) : 0;
  lt_vec_free(&entries);
  return rc;
}
