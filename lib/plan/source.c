/* source.c: where the reverse pass gets each primal value and shadow.
 *
 * The cache plan (DESIGN section 3), decided per value when the reverse
 * pass first reads it, in order: constants and arguments; the loop
 * counters (the canonical counter is the reverse iteration, induction
 * values are affine in the counters, a loop's exit iteration follows from
 * its trip count); re-loading memory nothing writes after the load, or
 * only stores the undo log puts back (combined mode, loads that ran on
 * every path); recomputing pure operations and scalar math from their
 * operands, up to a chain length; else the tape, with the reason. Shadows
 * are arguments, the GEP or cast of a shadow, or taped. Values outside
 * loops are made once in R's entry; values inside loops in each reverse
 * block that uses them. Each decision is a record (plan.h), fixed once made.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RECOMPUTE_DEPTH 24

void lt_plan_init(LtPlan *pl, const LtFacts *f, unsigned header_align) {
  memset(pl, 0, sizeof *pl);
  pl->f = f;
  pl->header_align = header_align;
  lt_map_init(&pl->val, 64);
  lt_map_init(&pl->sha, 16);
  pl->rec_size = lt_xcalloc(f->loops->nloops + 1, sizeof *pl->rec_size);
  pl->prealloc = lt_xcalloc(f->loops->nloops + 1, 1);
}

void lt_plan_free(LtPlan *pl) {
  for (size_t k = 0; k < pl->recs.n; k++)
    free(pl->recs.v[k]);
  lt_vec_free(&pl->recs);
  lt_map_free(&pl->val);
  lt_map_free(&pl->sha);
  lt_vec_free(&pl->slot_src);
  lt_vec_free(&pl->slot_kind);
  lt_vec_free(&pl->slot_ty);
  lt_vec_free(&pl->slot_scope);
  for (int k = 0; k < LT_NSLOTKINDS; k++)
    lt_map_free(&pl->slot_by_kind[k]);
  free(pl->slot_off);
  free(pl->rec_size);
  free(pl->prealloc);
}

static int pure_op(LLVMOpcode op) {
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr:
  case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg:
  case LLVMFRem:
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI:
  case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc:
  case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
  case LLVMAddrSpaceCast: case LLVMICmp: case LLVMFCmp:
  case LLVMGetElementPtr: case LLVMSelect: case LLVMFreeze:
  case LLVMExtractValue: case LLVMInsertValue: case LLVMExtractElement:
  case LLVMInsertElement: case LLVMShuffleVector:
    return 1;
  default:
    return 0;
  }
}

/* Scalar math (sin, exp, ...) is recomputed from its operands rather than
 * taped: a loop-carried recurrence then tapes only the carried value. */
static int pure_call(LLVMValueRef v) {
  const LtRule *rule;
  if (!LLVMIsACallInst(v) || LLVMGetNumArgOperands(v) > LT_RULE_MAXARGS)
    return 0;
  LtCallKind k = lt_call_kind(v, &rule);
  if (rule && rule->writes_arg)
    return 0;
  return k == LT_CALL_RULE || k == LT_CALL_ZERO || k == LT_CALL_COMPLEX;
}

int lt_plan_pure(LLVMValueRef v) {
  return LLVMIsAInstruction(v) && (pure_op(LLVMGetInstructionOpcode(v)) || pure_call(v));
}

/* Values outside loops are made in R's entry, for every path; a load may
 * only be repeated there if it ran on every path that returns (else its
 * address may be garbage). Inside loops, values are made in the reverse
 * block that uses them, which the load dominates. */
static int always_runs(const LtFacts *f, LLVMValueRef v, int s) {
  if (s >= 0)
    return 1;
  int id = lt_cfg_id(f->g, LLVMGetInstructionParent(v));
  for (unsigned b = 0; b < f->g->nblocks; b++)
    if (LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(f->g->block[b])) &&
        !lt_cfg_dominates(f->g, (unsigned)id, b))
      return 0;
  return 1;
}

/* Where v is made in R: once in R's entry when it is outside loops and
 * computed on every path (-1), else in each reverse block that uses it
 * (0): a value of a path not taken is never recomputed or read from the
 * tape, which would read memory its path did not write. */
static int placement(const LtFacts *f, LLVMValueRef v, int s) {
  if (!f->split && LLVMIsAInstruction(v) &&
      (lt_overwrite_late(f->ow, v) || lt_overwrite_reloadable(f->ow, v) == 2))
    return 0; /* read where the undo log has restored its memory */
  return s < 0 && (!LLVMIsAInstruction(v) || always_runs(f, v, -1)) ? -1 : 0;
}

int lt_plan_every_path(const LtPlan *pl, LLVMValueRef v) {
  return always_runs(pl->f, v, -1);
}

int lt_plan_where(const LtPlan *pl, LLVMValueRef v) {
  return placement(pl->f, v, lt_loop_scope(pl->f->g, pl->f->loops, v));
}

static int loop_of_counter(const LtFacts *f, LLVMValueRef v) {
  for (unsigned l = 0; l < f->loops->nloops; l++)
    if (f->loop_iv[l] == v)
      return (int)l;
  return -1;
}

/* The iteration in which a loop with a known trip count T was left is
 * T - 1 (there is one exiting block, so every exit is the last one). */
static int exit_loop(const LtFacts *f, LLVMValueRef v) {
  size_t l = (size_t)lt_map_get(f->ivx_loop, v);
  if (!l || !f->ind->trip[l - 1].known)
    return -1;
  const LtTrip *t = &f->ind->trip[l - 1];
  if (t->pred == LLVMIntNE && t->step != 1 && t->step != -1)
    return -1;
  return (int)l - 1;
}

/* An integer induction PHI affine in the counters and invariant integers
 * (which R materialises in turn). */
static int affine(const LtFacts *f, LLVMValueRef v, int s) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (s < 0 || !LLVMIsAPHINode(v) || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(t) > 64)
    return 0;
  LtAffine a;
  if (lt_affine_of(f->ind, f->c->td, v, s, &a))
    return 0;
  int ok = 1;
  for (unsigned k = 0; k < a.ninv && ok; k++)
    ok = LLVMGetTypeKind(LLVMTypeOf(a.inv[k])) == LLVMIntegerTypeKind;
  lt_affine_free(&a);
  return ok;
}

int lt_plan_kept_param(const LtFacts *f, LLVMValueRef p) {
  LLVMValueRef base = lt_base_of(p);
  if (!f->keep || !LLVMIsAArgument(base))
    return 0;
  for (unsigned k = 0; k < f->nparams; k++)
    if (LLVMGetParam(f->P, k) == base)
      return f->keep[k];
  return 0;
}

/* Why a load cannot be read again. */
static LtWhy load_why(const LtFacts *f, LLVMValueRef v, int s) {
  if (f->split && !lt_plan_kept_param(f, LLVMGetOperand(v, 0)))
    return LT_WHY_SPLIT;
  if (!always_runs(f, v, s))
    return LT_WHY_SOME_PATHS;
  return LT_WHY_OVERWRITTEN;
}

static LtPlanRec *new_rec(LtPlan *pl, LtMap *m, LLVMValueRef v, int shadow) {
  LtPlanRec *r = lt_xcalloc(1, sizeof *r);
  r->v = v;
  r->shadow = shadow;
  r->scope = lt_loop_scope(pl->f->g, pl->f->loops, v);
  r->where = placement(pl->f, v, r->scope);
  r->loop = -1;
  r->slot = -1;
  lt_vec_push(&pl->recs, r);
  lt_map_put(m, v, r);
  return r;
}

static int is_bool(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1;
}

/* Does the reverse of user (revinst.c) read operand k's primal value?
 * Sums and casts move adjoints; compares have none; a product reads an
 * operand when the other one varies; a quotient reads its divisor, and its
 * own result (not the dividend) when the divisor varies; other users may
 * read anything. */
static int reads_operand(const LtFacts *f, LLVMValueRef user, unsigned k) {
  if (LLVMIsACallInst(user)) {
    size_t n;
    LLVMValueRef fn = LLVMGetCalledValue(user);
    const char *s = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &n) : "";
    if (!strncmp(s, "llvm.fmuladd.", 13) || !strncmp(s, "llvm.fma.", 9))
      return k < 2 && lt_is_varied(f->act, LLVMGetOperand(user, 1 - k));
    return 1;
  }
  switch (LLVMGetInstructionOpcode(user)) {
  case LLVMFAdd: case LLVMFSub: case LLVMFNeg: case LLVMFPExt: case LLVMFPTrunc:
  case LLVMFCmp: case LLVMICmp: /* no adjoint */
    return 0;
  case LLVMAnd: case LLVMOr: case LLVMXor: /* of i1s: no adjoint */
    return !is_bool(user);
  case LLVMFMul:
    return lt_is_varied(f->act, LLVMGetOperand(user, 1 - k));
  case LLVMFDiv:
    return k == 1;
  default:
    return 1;
  }
}

#define MAX_COST_NODES 64

/* Is w an i1 made of compares (and, or, xor of them) that only root, the
 * value whose cost own_cost counts, reads? */
static int feeds_only(LLVMValueRef w, LLVMValueRef root, int depth) {
  if (!root || depth > 4 || !is_bool(w) ||
      (!LLVMIsAFCmpInst(w) && !LLVMIsAICmpInst(w) &&
       (!LLVMIsAInstruction(w) || (LLVMGetInstructionOpcode(w) != LLVMAnd &&
                                   LLVMGetInstructionOpcode(w) != LLVMOr &&
                                   LLVMGetInstructionOpcode(w) != LLVMXor))))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(w); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef x = LLVMGetUser(u);
    if (x != root && !feeds_only(x, root, depth + 1))
      return 0;
  }
  return 1;
}

/* Is user o's only reader in R? Its other users may be selects that take
 * o as a value, whose reverse reads their condition only, if their own
 * values only feed PHIs (else recomputing one reads o): a running
 * maximum's PHI feeds its compare and its select, and the select the PHI
 * (a running minimum that a product also reads is not one); or compares
 * that only root (an i1 of them) reads: fmax's two compares (prep/reduce.c
 * lt_select_extremes). */
static int only_use(LLVMValueRef o, LLVMValueRef user, LLVMValueRef root) {
  for (LLVMUseRef u = LLVMGetFirstUse(o); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (w == user || feeds_only(w, root, 0))
      continue;
    if (!LLVMIsASelectInst(w) || LLVMGetOperand(w, 0) == o)
      return 0;
    for (LLVMUseRef su = LLVMGetFirstUse(w); su; su = LLVMGetNextUse(su))
      if (!LLVMIsAPHINode(LLVMGetUser(su)))
        return 0;
  }
  return 1;
}

/* The bytes R would tape to recompute v's operands that nothing else
 * reads: down each operand with one use, in v's loop, that v's own
 * reverse does not read, through pure operations to what R cannot make
 * (a load of overwritten memory, a PHI, a call). An operand with other
 * uses, in another loop, or already planned costs nothing here: it may be
 * read anyway. *budget bounds the nodes visited. */
static unsigned long long own_cost(LtPlan *pl, LLVMValueRef v, LLVMValueRef root, int s,
                                   int *budget) {
  const LtFacts *f = pl->f;
  unsigned long long cost = 0;
  unsigned n = LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v) : (unsigned)LLVMGetNumOperands(v);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef o = LLVMGetOperand(v, k);
    if (!LLVMIsAInstruction(o) || !only_use(o, v, root) || reads_operand(f, v, k) ||
        lt_map_get(&pl->val, o) ||
        lt_loop_scope(f->g, f->loops, o) != s || loop_of_counter(f, o) >= 0 ||
        exit_loop(f, o) >= 0 || affine(f, o, s) || --*budget < 0)
      continue;
    if (LLVMIsALoadInst(o) && (!f->split || lt_plan_kept_param(f, LLVMGetOperand(o, 0))) &&
        always_runs(f, o, s) && lt_overwrite_reloadable(f->ow, o))
      continue;
    if (lt_plan_pure(o))
      cost += own_cost(pl, o, root, s, budget);
    else if (lt_is_float_ty(LLVMTypeOf(o)) || LLVMGetTypeKind(LLVMTypeOf(o)) == LLVMIntegerTypeKind)
      cost += LLVMABISizeOfType(f->c->td, LLVMTypeOf(o));
  }
  return cost;
}

/* Tape a pure value instead of recomputing it when that costs R fewer
 * bytes of tape: the quotient of ADI's tridiagonal sweep (8 bytes)
 * instead of the four loads of overwritten memory its dividend is made of
 * (32); a running maximum's compare (1 byte; an i1 made of compares, for
 * fmax's: prep/reduce.c) instead of the maximum so far (8: GradBench's
 * lse kept 1.28 MB for its 160000 elements). A local,
 * greedy minimum cut (issue 17, item 2): only chains that nothing else
 * reads count. */
static int cheaper_taped(LtPlan *pl, LLVMValueRef v, int s) {
  if (s < 0 || LLVMIsACallInst(v) || (!lt_is_float_ty(LLVMTypeOf(v)) && !is_bool(v)))
    return 0;
  int budget = MAX_COST_NODES;
  return own_cost(pl, v, v, s, &budget) > LLVMABISizeOfType(pl->f->c->td, LLVMTypeOf(v));
}

const LtPlanRec *lt_plan_value(LtPlan *pl, LLVMValueRef v, int depth) {
  LtPlanRec *r = lt_map_get(&pl->val, v);
  if (r)
    return r;
  const LtFacts *f = pl->f;
  r = new_rec(pl, &pl->val, v, 0);
  int s = r->scope;
  if (LLVMIsAConstant(v) || LLVMIsAInlineAsm(v)) {
    r->src = LT_SRC_CONST;
  } else if (LLVMIsAArgument(v)) {
    r->src = LT_SRC_ARG;
  } else if ((r->loop = loop_of_counter(f, v)) >= 0) {
    r->src = LT_SRC_COUNTER;
  } else if ((r->loop = exit_loop(f, v)) >= 0) {
    r->src = LT_SRC_EXIT;
  } else if (affine(f, v, s)) {
    r->src = LT_SRC_AFFINE;
  } else if (LLVMIsALoadInst(v) && (!f->split || lt_plan_kept_param(f, LLVMGetOperand(v, 0))) &&
             always_runs(f, v, s) && lt_overwrite_reloadable(f->ow, v)) {
    r->src = lt_overwrite_reloadable(f->ow, v) == 2 ? LT_SRC_RELOAD_LOG : LT_SRC_RELOAD;
  } else if (lt_plan_pure(v) && depth < MAX_RECOMPUTE_DEPTH && !cheaper_taped(pl, v, s)) {
    r->src = LT_SRC_RECOMPUTE;
  } else {
    r->src = LT_SRC_TAPE;
    r->why = LLVMIsALoadInst(v)                             ? load_why(f, v, s)
             : lt_plan_pure(v) && depth < MAX_RECOMPUTE_DEPTH ? LT_WHY_CHEAPER
             : lt_plan_pure(v)                              ? LT_WHY_DEEP
                                                            : LT_WHY_NOT_PURE;
    r->slot = (int)lt_plan_slot(pl, LT_SLOT_PRIMAL, v, LLVMTypeOf(v));
  }
  return r;
}

const LtPlanRec *lt_plan_shadow(LtPlan *pl, LLVMValueRef p) {
  LtPlanRec *r = lt_map_get(&pl->sha, p);
  if (r)
    return r;
  const LtFacts *f = pl->f;
  r = new_rec(pl, &pl->sha, p, 1);
  if (!lt_is_shadowed(f->act, p))
    r->sh = LT_SH_NONE; /* inactive memory */
  else if (LLVMIsAArgument(p))
    r->sh = LT_SH_ARG;
  else if (LLVMIsAGetElementPtrInst(p))
    r->sh = LT_SH_GEP;
  else if ((LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p)) &&
           lt_is_shadowed(f->act, LLVMGetOperand(p, 0)))
    r->sh = LT_SH_CAST;
  else if (LLVMIsAInstruction(p)) {
    r->sh = LT_SH_TAPE;
    r->why = LT_WHY_SHADOW;
    r->slot = (int)lt_plan_slot(pl, LT_SLOT_SHADOW, p, LLVMTypeOf(p));
  } else
    r->sh = LT_SH_NONE;
  return r;
}

const char *lt_plan_why(LtWhy why) {
  switch (why) {
  case LT_WHY_OVERWRITTEN:
    return "its memory may be written before the reverse pass reads it";
  case LT_WHY_SPLIT:
    return "split mode: the caller may write its memory between "
           "__enzyme_augmentfwd and __enzyme_reverse (enzyme_not_overwritten "
           "says it does not)";
  case LT_WHY_SOME_PATHS:
    return "a load of a path not always taken, used after the paths join";
  case LT_WHY_NOT_PURE:
    return "the reverse pass cannot compute it again (a PHI, or a call with "
           "effects)";
  case LT_WHY_DEEP:
    return "recomputing it would repeat a chain of more than 24 operations";
  case LT_WHY_CHEAPER:
    return "recomputing it would tape more bytes of the values it is made of";
  case LT_WHY_SHADOW:
    return "a shadow made in the forward pass (an allocation, a pointer "
           "loaded from memory, a call's result)";
  default:
    return "";
  }
}
