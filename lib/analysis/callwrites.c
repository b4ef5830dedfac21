/* callwrites.c: where a kept call may store pointers.
 *
 * points.c summarises a call kept as a call (escape.c: what may escape
 * from its parameters); this says into which of its arguments' memory the
 * callee may write what escapes. Memoised per function, in the SSA copies
 * escape.c reads, freed with its summaries (lt_escape_free).
 */
#include "lt.h"

#include <string.h>

#define MAX_DEPTH 12

/* Where a pointer is stored matters as much as what is stored: the
 * caller's summary of a kept call (points.c) puts what escapes into the
 * memory of the arguments the callee may write pointers through, not into
 * a matrix it is passed by const pointer and only reads (fuzz --eigen seed
 * 84046 at -O0: Eigen's Product keeps &M, and M was taken to hold its own
 * address, its data pointer to address the matrix object, and a copy of
 * the matrix's doubles was refused as a copy of pointers).
 *
 * Per parameter, a mask of the depths at which the function may store a
 * value that can hold a pointer: bit k for memory reached through k loads
 * from the parameter (0: what it addresses), W_ALL for any; and the levels
 * of what it returns. The walk gives each value its level relative to the
 * parameter; a store of a value at level l into the memory of a local or
 * of another parameter makes that memory a holder at level l - 1 (its
 * loads give level l back: Eigen's Product object and evaluators keep
 * &M), so writes through what is loaded back from holders count; a holder
 * elsewhere (a global, memory reached from a loaded pointer) is taken as
 * anything. A value met at two levels is walked at the higher: what counts
 * as a write at the lower counts at the higher too. */
enum { W_ALL = 0x100, W_MINLV = -3, W_MAXLV = 4, W_RET = 16 };

static unsigned summary_of(LtCtx *c, LLVMValueRef f, unsigned p, int depth);

static unsigned at_level(int lv) { return lv < 0 ? 0 : lv > 7 ? W_ALL : 1u << lv; }

/* a callee's write mask for a value at level lv */
static unsigned shifted(unsigned m, int lv) {
  unsigned r = m & W_ALL;
  for (int k = 0; k < 8 && !r; k++)
    if (m & (1u << k))
      r |= at_level(lv + k);
  return r;
}

/* the levels a callee returns its parameter at, relative to it */
static int returns_at(unsigned m, int r) { return (m >> (W_RET + r - W_MINLV)) & 1; }

typedef struct {
  LtCtx *c;
  LtVec work;
  LtMap seen; /* value -> its level + 8 */
  unsigned w; /* write mask | return levels << W_RET */
  int depth;
} Walk;

static void walk_push(Walk *k, LLVMValueRef v, int lv) {
  if (lv < W_MINLV || lv > W_MAXLV) {
    k->w |= W_ALL;
    return;
  }
  size_t was = (size_t)lt_map_get(&k->seen, v);
  if (was && (int)was - 8 >= lv)
    return;
  lt_map_put(&k->seen, v, (void *)(size_t)(lv + 8));
  lt_vec_push(&k->work, v);
}

/* The memory of addr's base holds values of level lv + 1: a local, a
 * parameter, or what a call returns of its arguments (Eigen's derived()
 * returns this). */
static void walk_holder(Walk *k, LLVMValueRef addr, int lv, int hops) {
  LLVMValueRef base = lt_base_of(addr);
  if (LLVMIsAAllocaInst(base) || LLVMIsAArgument(base)) {
    walk_push(k, base, lv);
    return;
  }
  if (LLVMIsAConstant(base) && !LLVMIsAGlobalValue(base))
    return; /* null, undef: nothing is kept there */
  if (hops < 8 && (LLVMIsAPHINode(base) || LLVMIsASelectInst(base))) {
    int phi = LLVMIsAPHINode(base) != NULL;
    for (unsigned i = phi ? 0 : 1, n = phi ? LLVMCountIncoming(base) : 3; i < n; i++)
      walk_holder(k, phi ? LLVMGetIncomingValue(base, i) : LLVMGetOperand(base, i), lv,
                  hops + 1);
    return;
  }
  LLVMValueRef g = LLVMIsACallInst(base) ? lt_called_fn(base) : NULL;
  const LtRule *rule;
  if (hops < 8 && g && !LLVMIsDeclaration(g) && lt_call_kind(base, &rule) == LT_CALL_UNKNOWN &&
      !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(g)) &&
      LLVMGetNumArgOperands(base) == LLVMCountParams(g)) {
    walk_push(k, base, lv);
    for (unsigned a = 0, n = LLVMCountParams(g); a < n; a++) {
      if (!lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(g, a))))
        continue;
      unsigned m = summary_of(k->c, g, a, k->depth + 1);
      for (int r = W_MINLV; r <= W_MAXLV; r++)
        if (returns_at(m, r))
          walk_holder(k, LLVMGetOperand(base, a), lv - r, hops + 1);
    }
    return;
  }
  k->w |= W_ALL; /* a global, a loaded pointer, a library's result */
}

static void walk_call(Walk *k, LLVMValueRef call, LLVMValueRef v, int lv) {
  const LtRule *rule;
  size_t len;
  const char *name = lt_callee_name(call, &len);
  if (name && len > 11 && (!strncmp(name, "llvm.masked.", 12) || !strncmp(name, "llvm.vp.", 8))) {
    k->w |= at_level(lv); /* a masked store or scatter may store pointers */
    return;
  }
  switch (lt_call_kind(call, &rule)) {
  case LT_CALL_RULE:
  case LT_CALL_ZERO:
  case LT_CALL_COMPLEX:
  case LT_CALL_MEMSET:
  case LT_CALL_FREE:
  case LT_CALL_SYNC:
  case LT_CALL_MPI:
  case LT_CALL_BLAS:
    return; /* floats, integers and handles (as points.c steps them) */
  case LT_CALL_MALLOC: {
    const LtAllocFn *af = lt_alloc_fn(call);
    if (af && af->out_arg >= 0 && LLVMGetOperand(call, (unsigned)af->out_arg) == v)
      k->w |= at_level(lv);
    return;
  }
  case LT_CALL_MEMCPY:
    if (LLVMGetOperand(call, 0) == v) {
      k->w |= at_level(lv);
      if (lt_is_ptr_ty(LLVMTypeOf(call)))
        walk_push(k, call, lv); /* returns its destination */
    }
    if (LLVMGetOperand(call, 1) == v)
      walk_holder(k, LLVMGetOperand(call, 0), lv, 0); /* what v's memory holds */
    return;
  case LT_CALL_INACTIVE:
    /* a library function may store a pointer where it is given one
     * (strtod's end, getline's buffer) */
    k->w |= at_level(lv);
    if (lt_is_ptr_ty(LLVMTypeOf(call)))
      walk_push(k, call, lv);
    return;
  default:
    break;
  }
  LLVMValueRef g = lt_called_fn(call);
  unsigned n = LLVMGetNumArgOperands(call);
  if (!g || LLVMIsDeclaration(g) || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(g)) ||
      n != LLVMCountParams(g)) {
    k->w |= W_ALL;
    return;
  }
  for (unsigned a = 0; a < n; a++) {
    if (LLVMGetOperand(call, a) != v || !lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(g, a))))
      continue;
    unsigned m = summary_of(k->c, g, a, k->depth + 1);
    k->w |= shifted(m, lv);
    for (int r = W_MINLV; r <= W_MAXLV && lt_may_hold_ptr(LLVMTypeOf(call)); r++)
      if (returns_at(m, r))
        walk_push(k, call, lv + r);
    /* stored (its contents, when copied) into what the other arguments
     * reach; into anything else: its own mask says so */
    int e = lt_param_escapes(k->c, g, a);
    for (unsigned b = 0; b < n && (e & (LT_ESC_STORED | LT_ESC_COPIED)); b++)
      if (b != a && lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, b))))
        walk_holder(k, LLVMGetOperand(call, b), e & LT_ESC_STORED ? lv - 1 : lv, 0);
  }
}

static void walk_uses(Walk *k, LLVMValueRef v, int lv) {
  LtCtx *c = k->c;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user))
      continue;
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMStore: {
      LLVMValueRef val = LLVMGetOperand(user, 0);
      if (LLVMGetOperand(user, 1) == v && lt_carries_ptr(c, LLVMTypeOf(val)))
        k->w |= at_level(lv);
      if (val == v && lt_carries_ptr(c, LLVMTypeOf(val)))
        walk_holder(k, LLVMGetOperand(user, 1), lv - 1, 0);
      break;
    }
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
      k->w |= LLVMGetOperand(user, 0) == v ? at_level(lv) : W_ALL;
      break;
    case LLVMCall:
    case LLVMInvoke:
      walk_call(k, user, v, lv);
      break;
    case LLVMLoad:
      if (lt_is_ptr_ty(LLVMTypeOf(user)) || lt_ptr_sized_int(c, user))
        walk_push(k, user, lv + 1);
      break;
    case LLVMGetElementPtr:
      if (LLVMGetOperand(user, 0) == v)
        walk_push(k, user, lv);
      break;
    case LLVMSub: /* p - q is a distance; p - n a pointer */
      if (LLVMGetOperand(user, 0) == v)
        walk_push(k, user, lv);
      break;
    case LLVMRet: /* the caller's stores to what it gets are its own */
      k->w |= 1u << (W_RET + lv - W_MINLV);
      break;
    case LLVMICmp:
    case LLVMMul: case LLVMSDiv: case LLVMUDiv: case LLVMSRem: case LLVMURem:
    case LLVMLShr: case LLVMAShr: case LLVMFPToSI: case LLVMFPToUI:
    case LLVMSIToFP: case LLVMUIToFP:
      break; /* sizes, counts and hashes of pointers are not pointers */
    default: /* casts, PHI, select, aggregates, integer arithmetic on bits */
      walk_push(k, user, lv);
      break;
    }
  }
}

/* Memoised per (function, parameter) as summary + 1; a recursive call
 * being decided is taken as anything. */
static unsigned summary_of(LtCtx *c, LLVMValueRef f, unsigned p, int depth) {
  if (depth > 4 * MAX_DEPTH || p >= LLVMCountParams(f))
    return W_ALL;
  unsigned *m = lt_map_get(&c->writes_memo, f);
  if (!m) {
    m = lt_xcalloc(LLVMCountParams(f) + 1, sizeof *m);
    lt_map_put(&c->writes_memo, f, m);
    lt_vec_push(&c->escape_arrays, m);
  }
  if (m[p] == ~0u)
    return W_ALL;
  if (m[p])
    return m[p] - 1;
  m[p] = ~0u;
  Walk k = {c, {0}, {0}, 0, depth};
  lt_map_init(&k.seen, 32);
  walk_push(&k, LLVMGetParam(lt_escape_ssa(c, f), p), 0);
  while (k.work.n && !(k.w & W_ALL)) {
    LLVMValueRef v = k.work.v[--k.work.n];
    walk_uses(&k, v, (int)(size_t)lt_map_get(&k.seen, v) - 8);
  }
  lt_vec_free(&k.work);
  lt_map_free(&k.seen);
  m[p] = k.w + 1;
  return k.w;
}

int lt_param_written(LtCtx *c, LLVMValueRef f, unsigned p) {
  if (!f || LLVMIsDeclaration(f) || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f)) ||
      p >= LLVMCountParams(f) || !lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(f, p))))
    return 1; /* an integer may be an address: as before */
  if (!c->escape_ssa.cap)
    lt_map_init(&c->escape_ssa, 16);
  if (!c->escape_assume.cap)
    lt_map_init(&c->escape_assume, 16);
  return (summary_of(c, f, p, 0) & (W_ALL | 0xff)) != 0;
}
