/* preprocess.c: the canonical clone that every later stage reads.
 *
 * Clones the function (dropping optnone/noinline), lowers cleanup-only
 * invokes, and inlines calls to defined functions, except those it keeps
 * as calls, marked for lt_call_kind:
 *   - registered: custom derivative ("custom"), inactive ("inactive"),
 *     __enzyme_function_like ("like=<name>");
 *   - recursive: the callee reaches itself, or is the function being
 *     differentiated ("diff": it gets its own derivative, callee.c);
 *   - too large to copy: a callee whose inlined size (its own and that of
 *     everything it would inline in turn) is over LT_INLINE_ONE, or over
 *     LT_INLINE_SHARED when it is called from several places ("diff").
 * Then a canonicalising pipeline: SSA form, simplified CFG, reducible
 * cycles, loop-simplify and LCSSA. Nested pipelines may be skipped by the host (opt-bisect), so
 * later stages check the form they rely on instead of assuming it.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LT_INLINE_ONE 4000    /* inlined size of a callee called once */
#define LT_INLINE_SHARED 400  /* ... called from two or more sites */
#define LT_INLINE_TOTAL 40000 /* instructions in the clone */

/* fix-irreducible gives a cycle with several entries one header (a guard
 * block that dispatches on where control came from): goto into a loop, and
 * reverse-over-reverse code that -O2 has threaded, become natural loops. */
static const char *pipeline = "mem2reg,sroa,early-cse,simplifycfg,fix-irreducible,"
                              "loop-mssa(licm),loop-simplify,lcssa";

typedef struct Graph {
  LtMap size;    /* function -> inlined size + 1 (memo) */
  LtMap sites;   /* function -> call sites in the reachable graph */
  LtMap rec;     /* function -> 1 recursive, 2 not */
  LtMap onstack;
  LLVMValueRef top;
} Graph;

static LLVMValueRef defined_callee(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return NULL;
  LLVMValueRef f = lt_called_fn(i);
  if (!f || LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) ||
      LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f)))
    return NULL;
  return f;
}

/* A call of a critical section's ticket helper (prep/omp.c:
 * lt.omp.critical, lt.omp.end_critical), which stays a call. Inlining one
 * in a later round would expose the runtime call inside it, which lowering
 * then wraps again: an entry counted twice, whose reverse waits for a turn
 * that never comes. (Leantape's other helpers, in code derived again, are
 * inlined as any callee.) */
static int ticket_helper(LLVMValueRef call) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  return (len == 15 && !strncmp(n, "lt.omp.critical", 15)) ||
         (len == 19 && !strncmp(n, "lt.omp.end_critical", 19));
}

static unsigned ninstr(LLVMValueRef f) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      n++;
  return n;
}

/* Walk the defined callees below f depth first, each function once
 * (seen): site(g, arg) at every call of a defined g, before the walk
 * enters g. Stops at, and returns, the first nonzero site. */
static int walk_calls(LLVMValueRef f, LtMap *seen, int (*site)(LLVMValueRef, void *),
                      void *arg) {
  if (lt_map_get(seen, f))
    return 0;
  lt_map_put(seen, f, (void *)1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef g = defined_callee(i);
      int r = g ? site(g, arg) : 0;
      if (!r && g)
        r = walk_calls(g, seen, site, arg);
      if (r)
        return r;
    }
  return 0;
}

static int is_target(LLVMValueRef g, void *target) { return g == target; }

/* Does f reach target through defined callees? */
static int reaches(LLVMValueRef f, LLVMValueRef target, LtMap *seen) {
  return walk_calls(f, seen, is_target, target);
}

static int recursive(Graph *gr, LLVMValueRef f) {
  size_t r = (size_t)lt_map_get(&gr->rec, f);
  if (!r) {
    LtMap seen;
    lt_map_init(&seen, 16);
    r = reaches(f, f, &seen) ? 1 : 2;
    lt_map_free(&seen);
    lt_map_put(&gr->rec, f, (void *)r);
  }
  return r == 1;
}

/* Instructions f would contribute once everything it inlines is inlined;
 * calls that stay calls count as one. Saturates, so deep fan-out trees
 * (which inlining would grow exponentially) stay cheap to measure. */
static unsigned long long inlined_size(Graph *gr, LLVMValueRef f) {
  size_t memo = (size_t)lt_map_get(&gr->size, f);
  if (memo)
    return memo - 1;
  if (lt_map_get(&gr->onstack, f))
    return 1;
  lt_map_put(&gr->onstack, f, (void *)1);
  unsigned long long n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      n++;
      LLVMValueRef g = defined_callee(i);
      if (g && g != gr->top && !recursive(gr, g) && n < (1ull << 40))
        n += inlined_size(gr, g);
    }
  lt_map_put(&gr->onstack, f, NULL);
  lt_map_put(&gr->size, f, (void *)(size_t)(n + 1));
  return n;
}

static int count_site(LLVMValueRef g, void *arg) {
  Graph *gr = arg;
  lt_map_put(&gr->sites, g, (void *)((size_t)lt_map_get(&gr->sites, g) + 1));
  return 0;
}

/* g takes and returns only integers (or nothing) and writes no memory its
 * callers can see (analysis/writes.c): its calls have no derivative, and
 * a recursive one (factorial(n)) needs no derivative function of its own,
 * nor, in nested differentiation, a tape. */
static int integers_only(LtCtx *c, LLVMValueRef g) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(g);
  LLVMTypeRef rt = LLVMGetReturnType(ft);
  if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind && LLVMGetTypeKind(rt) != LLVMVoidTypeKind)
    return 0;
  for (unsigned p = 0, n = LLVMCountParams(g); p < n; p++)
    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetParam(g, p))) != LLVMIntegerTypeKind)
      return 0;
  return !lt_fn_writes(c, g);
}

/* Why a call stays a call, as its mark, or NULL to inline it; why[]
 * gets the reason in words, for the remark. */
static const char *keep_reason(LtCtx *c, Graph *gr, LLVMValueRef call,
                               unsigned clone_size, char *buf, size_t bufsz,
                               char *why, size_t whysz) {
  const LtReg *r = lt_annotation(c, call);
  if (r && (c->forward ? r->fwd != NULL : r->custom)) {
    snprintf(why, whysz, "it has a custom derivative (%s)",
             c->forward ? r->fwd_name : r->reg_name);
    return "custom";
  }
  if (r && r->inactive) {
    snprintf(why, whysz, "it is marked inactive");
    return "inactive";
  }
  if (r && r->like[0]) {
    snprintf(why, whysz, "it is registered as like '%s'", r->like);
    snprintf(buf, bufsz, "like=%s", r->like);
    return buf;
  }
  LLVMValueRef g = defined_callee(call);
  if (!g)
    return NULL;
  if (g != gr->top && recursive(gr, g) && integers_only(c, g)) {
    snprintf(why, whysz, "it is recursive, and inactive: it takes and "
                         "returns integers and writes no memory its callers see");
    return "inactive";
  }
  if (g == gr->top || recursive(gr, g)) {
    snprintf(why, whysz, "it is recursive");
    return "diff";
  }
  unsigned long long sz = inlined_size(gr, g);
  size_t sites = (size_t)lt_map_get(&gr->sites, g);
  if (sz > LT_INLINE_ONE || (sites > 1 && sz > LT_INLINE_SHARED) ||
      clone_size + sz > LT_INLINE_TOTAL) {
    snprintf(why, whysz, "inlined it would be %llu instructions, called from "
                         "%zu place(s) (limits: %d once, %d shared, %d in all)",
             sz, sites, LT_INLINE_ONE, LT_INLINE_SHARED, LT_INLINE_TOTAL);
    return "diff";
  }
  return NULL;
}

static int no_indirect_branch(LtCtx *c, LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMIndirectBr) {
      /* Block addresses name the original's blocks; a clone cannot jump
       * through them. */
      lt_error(c, t, "computed goto (indirect branch) is not supported in "
                     "differentiated code");
      return -1;
    }
  }
  return 0;
}

static int inline_all(LtCtx *c, Graph *gr, LLVMValueRef f) {
  unsigned size = ninstr(f);
  for (int changed = 1; changed;) {
    changed = 0;
    if (lt_eh_lower(c, f) || no_indirect_branch(c, f))
      return -1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !changed;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
           i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsACallInst(i) || lt_call_marked(i) || ticket_helper(i))
          continue;
        if (lt_omp_kind(i, NULL) == LT_OMP_FORK) {
          /* a parallel region: its outlined function stays a call */
          if (lt_omp_lower_fork(c, i))
            return -1;
          changed = 1;
          break;
        }
        char buf[80], words[200], msg[400];
        const char *mark = keep_reason(c, gr, i, size, buf, sizeof buf,
                                       words, sizeof words);
        if (mark) {
          size_t len;
          const char *callee = lt_callee_name(i, &len);
          snprintf(msg, sizeof msg, "the call to '%.*s' stays a call: %s",
                   (int)len, callee, words);
          lt_remark_emit(c, i, "leantape", "CallKept", msg);
          lt_mark_call(i, mark);
          continue;
        }
        LLVMValueRef g = defined_callee(i);
        if (!g)
          continue;
        size += ninstr(g);
        if (lt_inline_call(c, i, 1)) {
          lt_error(c, i, "cannot inline this call into the differentiated "
                         "function");
          return -1;
        }
        changed = 1;
        break;
      }
  }
  return 0;
}

/* A byval parameter is the function's own copy of the caller's struct,
 * which it may modify (s.a *= x). Make that copy explicit, a stack slot
 * filled from the parameter on entry, as inlining does (clone.c): the slot
 * is local memory that gets a shadow where its contents become active, and
 * the reverse of the copy carries its adjoint to the parameter's shadow. */
static void copy_byval(LtCtx *c, LLVMValueRef p) {
  unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(p);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (unsigned i = 0, n = LLVMCountParams(p); i < n; i++) {
    LLVMAttributeRef bv = LLVMGetEnumAttributeAtIndex(p, i + 1, byval);
    LLVMValueRef arg = LLVMGetParam(p, i);
    if (!bv || !LLVMGetFirstUse(arg))
      continue;
    LLVMTypeRef t = LLVMGetTypeAttributeValue(bv);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
    LLVMValueRef copy = LLVMBuildAlloca(b, t, "lt.byval");
    LLVMSetAlignment(copy, 16);
    LLVMValueRef use = lt_ptr_as(b, copy, LLVMTypeOf(arg));
    LLVMReplaceAllUsesWith(arg, use);
    LLVMBuildMemCpy(b, copy, 16, arg, 1,
                    LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, t), 0));
  }
  LLVMDisposeBuilder(b);
}

/* Stack memory lives until the function returns: a variable-length
 * array's llvm.stackrestore (at the end of its scope) would free its
 * shadow before the reverse pass adds into it (the generated code then
 * wrote into stack that calls reused). Without the save/restore pairs a
 * VLA inside a loop takes new stack every iteration, as the reverse pass
 * needs each iteration's shadow anyway. */
static void keep_stack(LLVMValueRef fn) {
  LtVec saves = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      size_t len;
      const char *n = LLVMIsACallInst(i) ? lt_callee_name(i, &len) : "";
      if (!strncmp(n, "llvm.stackrestore", 17))
        LLVMInstructionEraseFromParent(i);
      else if (!strncmp(n, "llvm.stacksave", 14))
        lt_vec_push(&saves, i);
    }
  for (size_t k = 0; k < saves.n; k++)
    if (!LLVMGetFirstUse(saves.v[k]))
      LLVMInstructionEraseFromParent(saves.v[k]);
  lt_vec_free(&saves);
}

/* Calls of defined functions that inlining has not seen (neither inlined
 * nor marked): the pipeline made them direct. */
static int new_direct_calls(LLVMValueRef p) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(p); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && !lt_call_marked(i) && defined_callee(i) &&
          strncmp(lt_callee_name(i, &(size_t){0}), "lt.", 3))
        return 1; /* Leantape's own helpers (OpenMP tickets) stay calls */
  return 0;
}

LLVMValueRef lt_preprocess(LtCtx *c, LLVMValueRef fn, LLVMValueRef at) {
  Graph gr;
  memset(&gr, 0, sizeof gr);
  gr.top = fn;
  lt_map_init(&gr.size, 32);
  lt_map_init(&gr.sites, 32);
  lt_map_init(&gr.rec, 32);
  lt_map_init(&gr.onstack, 32);
  LtMap seen;
  lt_map_init(&seen, 32);
  walk_calls(fn, &seen, count_site, &gr);
  lt_map_free(&seen);
  size_t len;
  char name[256];
  snprintf(name, sizeof name, "%s.lt.pre", LLVMGetValueName2(fn, &len));
  LLVMValueRef p = lt_clone_fn(fn, name, 1);
  lt_map_put(&c->copy_of, p, fn);
  copy_byval(c, p);
  int rc = inline_all(c, &gr, p);
  /* The pipeline can turn an indirect call into a direct one (a pointer to
   * member function bound by std::bind at -O0, in boost odeint): such a
   * call is inlined or kept in another round. */
  for (int round = 0; !rc; round++) {
    if (lt_omp_lower_sync(c, p)) {
      rc = -1;
      break;
    }
    keep_stack(p);
    lt_split_sincos(c, p);
    lt_known_asm(c, p);
    lt_mem_note_types(c, p);
    if (lt_run_pipeline(c, p, pipeline)) {
      lt_internal_error(c, at, "the preprocessing pipeline failed");
      rc = -1;
      break;
    }
    int promoted = lt_promote_indirect(c, p);
    if (round == 3 || (!promoted && !new_direct_calls(p)))
      break;
    rc = inline_all(c, &gr, p);
  }
  lt_map_free(&gr.size);
  lt_map_free(&gr.sites);
  lt_map_free(&gr.rec);
  lt_map_free(&gr.onstack);
  if (rc) {
    lt_bury(c, p);
    return NULL;
  }
  lt_drop_impossible_copies(p);
  lt_step_iter_hints(c, p);
  lt_pointer_vectors(c, p);
  lt_pointer_lanes(c, p);
  lt_float_lanes(c, p);
  lt_expand_reductions(c, p);
  lt_select_extremes(c, p);
  lt_define_lanes(c, p);
  return p;
}
