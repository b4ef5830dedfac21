/* escape.c: which parameters of a function let pointers escape.
 *
 * A call kept as a call is summarised by its caller's points-to analysis
 * (points.c): what may it store into the memory it is given, and return?
 * Per parameter: LT_ESC_STORED when a value derived from it (address
 * arithmetic, a pointer loaded from memory it addresses) is stored as a
 * value, or passed to a function that stores it (an unknown function
 * does); LT_ESC_COPIED when the memory it addresses is the source of a
 * memcpy (pointers kept there move); LT_ESC_RETURNED when such a value is
 * returned.
 * -O0 spills of parameters to local slots are followed. Recursion is
 * solved as a fixpoint: a cycle first assumes nothing escapes, and the
 * query is redone with the results as assumptions until they hold (deep
 * call chains are taken to escape). Memoised per function.
 */
#include "lt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 12

static int escapes(LtCtx *c, LLVMValueRef f, unsigned p, int depth);

int lt_may_hold_ptr(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMPointerTypeKind:
  case LLVMIntegerTypeKind:
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind:
    return 1;
  default:
    return 0;
  }
}

/* Values that can hold a pointer's bits: pointers, integers as wide as
 * one, aggregates and vectors (an int is not: resize(this, int n) storing
 * n is no escape of anything). */
int lt_carries_ptr(LtCtx *c, LLVMTypeRef t) {
  return lt_may_hold_ptr(t) &&
         (LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
          LLVMGetIntTypeWidth(t) >= 8 * LLVMABISizeOfType(c->td, c->ptr));
}

int lt_ptr_sized_int(LtCtx *c, LLVMValueRef load) {
  LLVMTypeRef t = LLVMTypeOf(load);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || !lt_carries_ptr(c, t))
    return 0;
  long long psize = (long long)LLVMABISizeOfType(c->td, c->ptr), off;
  if (LLVMGetAlignment(load) >= (unsigned)psize)
    return 1;
  /* Less aligned: a memcpy of unknown alignment lowered to an i64 load
   * (`memcpy(&w, s, 8)` with a void *s) may read a pointer (its targets
   * were lost, and with them the shadow: gradient 0 at -O2,
   * Integration/ptr-copy-through-long-heap.c); only a word at an offset
   * no pointer can start at reads none ({nrows, ncols} at offset 4). */
  LLVMValueRef base = lt_const_offset(c->td, LLVMGetOperand(load, 0), &off);
  return !base || off % psize == 0;
}

/* What passing v (at level lv: 0 the parameter's address or arithmetic on
 * it, 1 a pointer loaded from the memory it addresses, ...) to call does:
 * LT_ESC_* flags for the parameter; *ret gets the level of the call's
 * result when it is derived from v, else -1. */
static int call_escapes(LtCtx *c, LLVMValueRef call, LLVMValueRef v, int lv,
                        int depth, int *ret) {
  const LtRule *rule;
  *ret = -1;
  switch (lt_call_kind(call, &rule)) {
  case LT_CALL_RULE:
  case LT_CALL_ZERO:
  case LT_CALL_COMPLEX:
  case LT_CALL_MEMSET:
  case LT_CALL_FREE:
  case LT_CALL_MALLOC:
  case LT_CALL_SYNC:
  case LT_CALL_MPI: /* keeps no pointer beyond the request's completion */
  case LT_CALL_BLAS:
    return 0;
  case LT_CALL_MEMCPY:
    if (lt_is_ptr_ty(LLVMTypeOf(call)))
      *ret = lv; /* returns its destination */
    return LLVMGetOperand(call, 1) == v ? LT_ESC_COPIED : 0;
  case LT_CALL_INACTIVE:
    if (lt_is_ptr_ty(LLVMTypeOf(call)))
      *ret = lv; /* may return what it is given */
    return 0;
  default:
    break;
  }
  LLVMValueRef g = lt_called_fn(call);
  if (!g || LLVMIsDeclaration(g) || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(g)))
    return LT_ESC_STORED;
  int esc = 0;
  for (unsigned a = 0, n = LLVMGetNumArgOperands(call); a < n; a++) {
    if (LLVMGetOperand(call, a) != v || !lt_carries_ptr(c, LLVMTypeOf(v)))
      continue;
    int e = a >= LLVMCountParams(g) ? LT_ESC_ALL : escapes(c, g, a, depth + 1);
    /* the callee's parameter is v: what escapes from it is, for the
     * caller's parameter, its contents when v was loaded */
    if (e & LT_ESC_STORED)
      esc |= lv == 0 ? LT_ESC_STORED : LT_ESC_COPIED;
    if (e & LT_ESC_COPIED)
      esc |= LT_ESC_COPIED;
    if ((e & LT_ESC_RETURNED) && *ret < 0)
      *ret = lv;
    if ((e & LT_ESC_RETCONT) && *ret < lv + 1)
      *ret = lv + 1;
  }
  return esc;
}

static int value_escapes(LtCtx *c, LLVMValueRef root, int depth) {
  LtVec work = {0};
  LtMap seen; /* value -> its level + 2 */
  lt_map_init(&seen, 32);
  lt_vec_push(&work, root);
  lt_map_put(&seen, root, (void *)2);
  int esc = 0;
  while (work.n && !(esc & LT_ESC_STORED)) {
    LLVMValueRef v = work.v[--work.n];
    int lv = (int)(size_t)lt_map_get(&seen, v) - 2;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && !(esc & LT_ESC_STORED);
         u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (!LLVMIsAInstruction(user))
        continue;
      LLVMValueRef derived = NULL;
      int dlv = lv;
      switch (LLVMGetInstructionOpcode(user)) {
      case LLVMStore: {
        if (LLVMGetOperand(user, 0) != v || !lt_carries_ptr(c, LLVMTypeOf(v)))
          break;
        /* -O0 spills parameters to a local slot: the slot's loads give v
         * back, so the slot is one level above it. */
        LLVMValueRef slot = LLVMGetOperand(user, 1);
        if (LLVMIsAAllocaInst(slot)) {
          derived = slot;
          dlv = lv - 1;
        } else {
          esc |= lv <= 0 ? LT_ESC_STORED : LT_ESC_COPIED;
        }
        break;
      }
      case LLVMAtomicRMW:
      case LLVMAtomicCmpXchg:
        if (LLVMGetOperand(user, 0) != v)
          esc |= lv <= 0 ? LT_ESC_STORED : LT_ESC_COPIED;
        break;
      case LLVMRet:
        esc |= lv <= 0 ? LT_ESC_RETURNED : LT_ESC_RETCONT;
        break;
      case LLVMCall:
      case LLVMInvoke: {
        int ret;
        esc |= call_escapes(c, user, v, lv < 0 ? 0 : lv, depth, &ret);
        if (ret >= 0) {
          derived = user;
          dlv = ret;
        }
        break;
      }
      case LLVMLoad:
        if (lt_is_ptr_ty(LLVMTypeOf(user)) || lt_ptr_sized_int(c, user)) {
          derived = user; /* pointers kept in the memory it addresses */
          dlv = lv + 1;
        }
        break;
      case LLVMICmp:
        break;
      case LLVMGetElementPtr:
        if (LLVMGetOperand(user, 0) == v)
          derived = user; /* an index moves the base, it is not one */
        break;
      case LLVMSub:
        /* p - q is a distance; p - n a pointer */
        if (LLVMGetOperand(user, 0) == v && !lt_map_get(&seen, LLVMGetOperand(user, 1)))
          derived = user;
        break;
      case LLVMMul: case LLVMSDiv: case LLVMUDiv: case LLVMSRem: case LLVMURem:
      case LLVMLShr: case LLVMAShr: case LLVMFPToSI: case LLVMFPToUI:
      case LLVMSIToFP: case LLVMUIToFP:
        break; /* sizes, counts and hashes of pointers are not pointers */
      case LLVMTrunc:
        if (lt_carries_ptr(c, LLVMTypeOf(user)))
          derived = user;
        break;
      default:
        derived = user; /* casts, PHI, select, add, and, or on bits */
        break;
      }
      if ((esc & LT_ESC_STORED) && getenv("LEANTAPE_DEBUG")) {
        fprintf(stderr, "leantape debug: escapes in %s at",
                LLVMGetValueName2(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)), &(size_t){0}));
        LLVMDumpValue(user);
        fputc('\n', stderr);
      }
      if (dlv > 4)
        derived = NULL; /* deeper than the summary looks */
      if (derived && !lt_map_get(&seen, derived)) {
        lt_map_put(&seen, derived, (void *)(size_t)(dlv + 2));
        lt_vec_push(&work, derived);
      }
    }
  }
  lt_vec_free(&work);
  lt_map_free(&seen);
  return esc & LT_ESC_STORED ? LT_ESC_ALL : esc;
}

static void *key(LLVMValueRef f, unsigned p) {
  return (void *)((uintptr_t)f ^ ((uintptr_t)(p + 1) << 48));
}

/* -O0 keeps every local in a stack slot, and one slot that holds pointers
 * of different levels blurs them (vector::_M_default_append looked like
 * storing `this`). The analysis reads an SSA copy of such a function
 * (mem2reg), made once and deleted with the summaries. */
LLVMValueRef lt_escape_ssa(LtCtx *c, LLVMValueRef f) {
  LLVMValueRef s = lt_map_get(&c->escape_ssa, f);
  if (s)
    return s;
  int slots = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)); i && !slots;
       i = LLVMGetNextInstruction(i))
    slots = LLVMIsAAllocaInst(i) != NULL;
  s = f;
  if (slots) {
    char name[300];
    snprintf(name, sizeof name, "%s.lt.esc", LLVMGetValueName2(f, &(size_t){0}));
    LLVMValueRef cl = lt_clone_fn(f, name, 0);
    if (lt_run_pipeline(c, cl, "mem2reg")) {
      lt_erase_fn(c, cl);
    } else {
      s = cl;
      lt_vec_push(&c->escape_clones, cl);
      lt_map_put(&c->copy_of, cl, f);
    }
  }
  lt_map_put(&c->escape_ssa, f, s);
  return s;
}

/* LT_ESC_* + 1 per parameter, in a per-function array; 0: not yet,
 * DECIDING: being decided. (It was 9, which is also LT_ESC_RETCONT + 1:
 * from its second query on, a function returning what its parameter holds
 * (vector::operator[], data(), begin() kept as calls at -O0) was taken to
 * return nothing of it, and the pointer it returned had no targets, so no
 * shadow: fuzz --eigen seed 700040 at -O0, a silent wrong gradient that
 * the callers' coarser summaries had hidden.) */
enum { DECIDING = 0xff };
static int escapes(LtCtx *c, LLVMValueRef f, unsigned p, int depth) {
  if (depth > MAX_DEPTH || p >= LLVMCountParams(f))
    return LT_ESC_ALL;
  unsigned char *m = lt_map_get(&c->escape_memo, f);
  if (!m) {
    m = lt_xcalloc(LLVMCountParams(f) + 1, 1);
    lt_map_put(&c->escape_memo, f, m);
    lt_vec_push(&c->escape_arrays, m);
  }
  if (m[p] == DECIDING) { /* a cycle: what this round assumes */
    c->escape_cycle = 1;
    size_t a = (size_t)lt_map_get(&c->escape_assume, key(f, p));
    return a ? (int)a - 1 : 0;
  }
  if (m[p])
    return m[p] - 1;
  m[p] = DECIDING;
  int e = value_escapes(c, LLVMGetParam(lt_escape_ssa(c, f), p), depth);
  m[p] = (unsigned char)(e + 1);
  lt_vec_push(&c->escape_done, f);
  lt_vec_push(&c->escape_done, (void *)(uintptr_t)p);
  return e;
}

int lt_param_escapes(LtCtx *c, LLVMValueRef f, unsigned p) {
  if (!f || LLVMIsDeclaration(f) || p >= LLVMCountParams(f))
    return LT_ESC_ALL;
  if (!lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(f, p))))
    return 0; /* integers and floats carry no pointers here */
  if (!c->escape_ssa.cap)
    lt_map_init(&c->escape_ssa, 16);
  if (!c->escape_assume.cap)
    lt_map_init(&c->escape_assume, 16);
  for (int round = 0;; round++) {
    c->escape_cycle = 0;
    c->escape_done.n = 0;
    int e = escapes(c, f, p, 0);
    if (!c->escape_cycle)
      return e;
    /* Results found under assumptions: done when they match them, else
     * again with the results as assumptions (flags only grow). */
    int stable = 1;
    for (size_t k = 0; k < c->escape_done.n; k += 2) {
      LLVMValueRef g = c->escape_done.v[k];
      unsigned q = (unsigned)(uintptr_t)c->escape_done.v[k + 1];
      unsigned char *m = lt_map_get(&c->escape_memo, g);
      size_t a = (size_t)lt_map_get(&c->escape_assume, key(g, q));
      int assumed = a ? (int)a - 1 : 0;
      int got = round >= 8 ? LT_ESC_ALL : m[q] - 1;
      if (got != assumed)
        stable = 0;
      lt_map_put(&c->escape_assume, key(g, q), (void *)(size_t)(got + 1));
    }
    if (stable)
      return e;
    for (size_t k = 0; k < c->escape_done.n; k += 2) {
      unsigned char *m = lt_map_get(&c->escape_memo, c->escape_done.v[k]);
      m[(uintptr_t)c->escape_done.v[k + 1]] = 0;
    }
  }
}

void lt_escape_free(LtCtx *c) {
  for (size_t i = 0; i < c->escape_clones.n; i++) {
    lt_map_put(&c->copy_of, c->escape_clones.v[i], NULL);
    lt_erase_fn(c, c->escape_clones.v[i]);
  }
  lt_vec_free(&c->escape_clones);
  lt_map_free(&c->escape_ssa);
  for (size_t i = 0; i < c->escape_arrays.n; i++)
    free(c->escape_arrays.v[i]);
  lt_vec_free(&c->escape_arrays);
  lt_map_free(&c->escape_memo);
  lt_map_free(&c->writes_memo);
  lt_map_free(&c->escape_assume);
  lt_vec_free(&c->escape_done);
}
