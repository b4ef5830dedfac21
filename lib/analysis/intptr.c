/* intptr.c: unmarked pointer parameters that only carry integers.
 *
 * Code written for Enzyme's typed-pointer era passes `int *n` or
 * `long **meta` without a marker, and Enzyme took such pointers as
 * constant. With opaque pointers every unmarked pointer would default to
 * enzyme_dup and need a shadow. A parameter is taken as enzyme_const
 * instead when everything the function does through it (and through
 * pointers loaded from it, and in the defined functions it is passed to)
 * loads or stores integers or pointers, which clang's TBAA tags confirm
 * where present. Anything unknown (an external call, a float access, a
 * copy, the pointer escaping to memory) keeps the default.
 */
#include "lt.h"

#include <string.h>

/* Levels of indirection (loads of pointers) and of calls followed. Address
 * arithmetic, casts, PHIs and -O0 spill slots do not count: they reach the
 * same memory, and -O0 code puts several of them on every path (a spill
 * and a reload per local), which exhausted a limit that counted them
 * (Enzyme's metarwr.c at -O0: `long **` through one call and a local). The
 * seen set bounds the walk. */
#define MAX_DEPTH 8


typedef struct Walk {
  LtMap seen;
  unsigned tbaa_kind; /* the !tbaa metadata kind */
  int strict;         /* the function has TBAA tags: untagged integer
                         accesses may be float bits moved at -O2 */
  int touched;        /* an integer or pointer access was seen */
  LLVMValueRef calls[MAX_DEPTH + 2]; /* the calls whose callees are being
                                        walked, innermost last */
  int ncalls;
} Walk;

enum { T_NONE, T_FLOAT, T_INTPTR, T_OTHER };

/* What the TBAA tag of i says the accessed scalar is. */
static int tbaa_kind(Walk *w, LLVMValueRef i) {
  LLVMValueRef tag = LLVMGetMetadata(i, w->tbaa_kind);
  if (!tag)
    return T_NONE;
  if (LLVMGetMDNodeNumOperands(tag) < 2 || LLVMGetMDNodeNumOperands(tag) > 4)
    return T_OTHER;
  LLVMValueRef ops[4];
  LLVMGetMDNodeOperands(tag, ops);
  LLVMValueRef access = ops[1];
  unsigned na = LLVMIsAMDNode(access) ? LLVMGetMDNodeNumOperands(access) : 0;
  if (na < 1 || na > 8)
    return T_OTHER;
  LLVMValueRef aops[8];
  LLVMGetMDNodeOperands(access, aops);
  /* the type's name leads an old-format type node {name, parent, offset};
   * a new-format one (clang -Xclang -new-struct-path-tbaa) is
   * {parent, size, name, fields...} */
  LLVMValueRef name = LLVMIsAMDString(aops[0]) ? aops[0]
                      : na >= 3 && LLVMIsAMDString(aops[2]) ? aops[2]
                                                           : NULL;
  unsigned len = 0;
  const char *n = name ? LLVMGetMDString(name, &len) : NULL;
  if (!n)
    return T_OTHER;
  static const char *const floats[] = {"double", "float", "long double",
                                       "_Float16", "__fp16", "__bf16"};
  static const char *const ints[] = {
      "int", "long", "long long", "short", "bool", "_Bool",
      "unsigned int", "unsigned long", "unsigned long long", "unsigned short",
      "any pointer", "vtable pointer", "__int128"};
  for (size_t k = 0; k < sizeof floats / sizeof *floats; k++)
    if (strlen(floats[k]) == len && !strncmp(n, floats[k], len))
      return T_FLOAT;
  for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
    if (strlen(ints[k]) == len && !strncmp(n, ints[k], len))
      return T_INTPTR;
  if (len > 2 && n[0] == 'p' && n[1] >= '1' && n[1] <= '9')
    return T_INTPTR; /* "p1 int", "p2 omnipotent char": typed pointers */
  return T_OTHER;
}

/* An untagged integer load whose value only feeds integer operations
 * (arithmetic, comparisons, conversions to float by value): not float bits
 * moved by a copy (-O1 turns memcpy(tmp, *meta, 16); tmp[1] into such a
 * load, without a TBAA tag). */
static int used_as_integer(LLVMValueRef i) {
  if (!LLVMIsALoadInst(i))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
    switch (LLVMGetInstructionOpcode(LLVMGetUser(u))) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMSDiv: case LLVMUDiv:
    case LLVMSRem: case LLVMURem: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMSIToFP:
    case LLVMUIToFP: case LLVMTrunc: case LLVMSExt: case LLVMZExt:
    case LLVMGetElementPtr:
      break;
    default:
      return 0;
    }
  return 1;
}

/* A load whose value only feeds arithmetic, comparisons and conversions
 * to float by value: none of the shifts and truncations that cut a wide
 * integer into the bits of its lanes. */
static int used_as_number(LLVMValueRef i) {
  if (!LLVMIsALoadInst(i) || !LLVMGetFirstUse(i))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
    switch (LLVMGetInstructionOpcode(LLVMGetUser(u))) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMSDiv: case LLVMUDiv:
    case LLVMSRem: case LLVMURem: case LLVMICmp: case LLVMSIToFP: case LLVMUIToFP:
      break;
    default:
      return 0;
    }
  return 1;
}

/* A load or store of type t at i carries an integer or a pointer. */
static int int_access(Walk *w, LLVMValueRef i, LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k != LLVMIntegerTypeKind && k != LLVMPointerTypeKind)
    return 0;
  int tk = tbaa_kind(w, i);
  if (tk == T_FLOAT || tk == T_OTHER)
    return 0;
  /* Wider than any integer scalar but __int128 (which its tag names): how
   * a copy moves two doubles at once (memcpy into an unsigned __int128,
   * InstCombine's load i128 split by lshr and trunc), so no evidence that
   * no float is there unless the value is used as a number: taken as
   * integers, the pointer would lose its gradient. */
  if (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 64 && tk != T_INTPTR &&
      !used_as_number(i))
    return 0;
  if (tk == T_NONE && w->strict && k == LLVMIntegerTypeKind && !used_as_integer(i))
    return 0;
  w->touched = 1;
  return 1;
}

/* Through a parameter of a defined callee. */
static int int_only_value(Walk *w, LLVMValueRef p, int depth);

static int int_only_param(Walk *w, LLVMValueRef call, LLVMValueRef p,
                          int depth) {
  LLVMValueRef f = lt_called_fn(call);
  if (!f || LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) ||
      LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f)))
    return 0;
  if (w->ncalls >= MAX_DEPTH + 2)
    return 0;
  int ok = 1;
  w->calls[w->ncalls++] = call;
  for (unsigned k = 0, n = LLVMGetNumArgOperands(call); k < n && ok; k++)
    if (LLVMGetOperand(call, k) == p)
      ok = k < LLVMCountParams(f) &&
           int_only_value(w, LLVMGetParam(f, k), depth + 1);
  w->ncalls--;
  return ok;
}

/* The -O0 slot that p is spilled to: reloading p from it is not an
 * access through p (it proves nothing about what p points to); what is
 * done through the reloaded copies counts. */
static int spill_slot(Walk *w, LLVMValueRef slot, LLVMValueRef p, int depth) {
  if (depth > MAX_DEPTH)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user) && lt_is_ptr_ty(LLVMTypeOf(user))) {
      if (!int_only_value(w, user, depth))
        return 0;
    } else if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 0) != p || LLVMGetOperand(user, 1) != slot)
        return 0;
    } else if (!LLVMIsACallInst(user) ||
               strncmp(lt_callee_name(user, &(size_t){0}), "llvm.lifetime.", 14)) {
      return 0;
    }
  }
  return 1;
}

static int int_only_use(Walk *w, LLVMValueRef p, LLVMValueRef user,
                        int depth) {
  switch (LLVMGetInstructionOpcode(user)) {
  case LLVMLoad:
    if (!int_access(w, user, LLVMTypeOf(user)))
      return 0;
    return !lt_is_ptr_ty(LLVMTypeOf(user)) || int_only_value(w, user, depth + 1);
  case LLVMStore:
    if (LLVMGetOperand(user, 0) == p) {
      /* -O0 spills the parameter to a local slot and reloads it. */
      LLVMValueRef slot = LLVMGetOperand(user, 1);
      return LLVMIsAAllocaInst(slot) && spill_slot(w, slot, p, depth);
    }
    return int_access(w, user, LLVMTypeOf(LLVMGetOperand(user, 0)));
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMPHI:
  case LLVMSelect:
  case LLVMFreeze:
    return int_only_value(w, user, depth);
  case LLVMICmp:
    return 1;
  case LLVMRet: {
    /* returned to the call being walked (an accessor such as
     * std::array::operator[] returning its argument): what the caller
     * does with the result counts */
    if (!w->ncalls)
      return 0;
    LLVMValueRef call = w->calls[--w->ncalls];
    int ok = int_only_value(w, call, depth);
    w->calls[w->ncalls++] = call;
    return ok;
  }
  case LLVMCall: {
    size_t len;
    const char *n = lt_callee_name(user, &len);
    if (len > 14 && !strncmp(n, "llvm.lifetime.", 14))
      return 1;
    if (lt_map_get(&w->seen, user))
      return 1; /* a copy being checked from its other end */
    if (len > 12 && !strncmp(n, "llvm.memset.", 12))
      return LLVMGetOperand(user, 0) == p; /* bytes, no floats */
    if ((len > 12 && !strncmp(n, "llvm.memcpy.", 12)) ||
        (len > 13 && !strncmp(n, "llvm.memmove.", 13))) {
      /* A copy to or from a local buffer: the buffer must hold integers
       * and pointers only, as what is reached through p. */
      LLVMValueRef other = LLVMGetOperand(user, LLVMGetOperand(user, 0) == p ? 1 : 0);
      LLVMValueRef base = lt_base_of(other);
      if (LLVMGetOperand(user, 0) == p && LLVMGetOperand(user, 1) == p)
        return 1;
      if (!base || !LLVMIsAAllocaInst(base))
        return 0;
      lt_map_put(&w->seen, user, (void *)1);
      return int_only_value(w, base, depth + 1);
    }
    return int_only_param(w, user, p, depth);
  }
  default:
    return 0;
  }
}

/* Everything done through pointer p touches only integers and pointers. */
static int int_only_value(Walk *w, LLVMValueRef p, int depth) {
  if (depth > MAX_DEPTH)
    return 0;
  if (lt_map_get(&w->seen, p))
    return 1; /* a cycle of PHIs, or a recursive callee: checked already */
  lt_map_put(&w->seen, p, (void *)1);
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user) || !int_only_use(w, p, user, depth))
      return 0;
  }
  return 1;
}

static int has_tbaa(LLVMValueRef fn, unsigned kind) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && LLVMGetMetadata(i, kind))
        return 1;
  return 0;
}

int lt_param_int_only(LLVMValueRef fn, unsigned p) {
  Walk w;
  memset(&w, 0, sizeof w);
  LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  w.tbaa_kind = LLVMGetMDKindIDInContext(c, "tbaa", 4);
  w.strict = has_tbaa(fn, w.tbaa_kind);
  lt_map_init(&w.seen, 32);
  /* An unused parameter proves nothing: the caller may well pass a shadow. */
  int ok = int_only_value(&w, LLVMGetParam(fn, p), 0) && w.touched;
  lt_map_free(&w.seen);
  return ok;
}
