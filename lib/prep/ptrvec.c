/* ptrvec.c: vectors of pointers, taken apart into their lanes.
 *
 * The SLP vectorizer moves two pointers at once: std::vector's swap loads
 * {end, capacity} of one vector as a <2 x ptr> and stores them into the
 * other. Pointers get shadows; a vector of pointers was none of the types
 * the analyses and the generator know, so its loads and stores moved the
 * primal addresses and left the shadows where they were: after `tmp = sv;
 * sv.swap(tmp)` the shadow of sv's end still named the block just freed,
 * and the gradient was silently wrong (fuzz --structvec -X seed 302).
 *
 * In the canonical clone every value of type <N x ptr> becomes N pointers:
 * a load becomes N loads of its lanes at the same point, a PHI N PHIs, and
 * insertelement, shufflevector, select, getelementptr, inttoptr,
 * addrspacecast and freeze act lane by lane. Its users get the lanes: a
 * store becomes N stores, an extractelement its lane, a ptrtoint or icmp
 * is put together from the lanes' own. Any other user (a call, a masked
 * gather) gets the vector rebuilt from the lanes by insertelements, and
 * the rest of the plugin judges that call as any other.
 *
 * Runs after the canonicalising pipeline, which would vectorize it again.
 */
#include "lt.h"
#include <stdlib.h>

enum { MAX_LANES = 64 };

typedef struct {
  LtCtx *c;
  LLVMValueRef fn;
  LLVMBuilderRef b;
  LtMap lanes; /* vector value -> LLVMValueRef[N] */
  LtMap dead;  /* vector instructions replaced: themselves */
  LtVec order; /* the same, in the order made */
  LtVec bufs;  /* the lane arrays, to free */
} Split;

static int is_ptr_vec(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind && lt_is_ptr_ty(LLVMGetElementType(t)) &&
         LLVMGetVectorSize(t) <= MAX_LANES;
}

static unsigned nlanes(LLVMValueRef v) { return LLVMGetVectorSize(LLVMTypeOf(v)); }

static void replaced(Split *s, LLVMValueRef i) {
  if (!lt_map_get(&s->dead, i)) {
    lt_map_put(&s->dead, i, i);
    lt_vec_push(&s->order, i);
  }
}

/* the builder right after instruction i (after the PHIs if i is one) */
static void after(Split *s, LLVMValueRef i) {
  if (LLVMIsAPHINode(i))
    LLVMPositionBuilderBefore(s->b, lt_first_non_phi(LLVMGetInstructionParent(i)));
  else
    LLVMPositionBuilderBefore(s->b, LLVMGetNextInstruction(i));
}

/* the alignment of bytes at offset off from an address aligned to al */
static unsigned align_at(unsigned al, unsigned long long off) {
  while (al > 1 && off % al)
    al /= 2;
  return al ? al : 1;
}

static LLVMValueRef *lanes_of(Split *s, LLVMValueRef v);

/* lane k of a vector operand: its lane if it is a vector of pointers,
 * otherwise (an index vector, a mask) an extractelement before the
 * builder's point */
static LLVMValueRef lane(Split *s, LLVMValueRef v, unsigned k) {
  if (is_ptr_vec(LLVMTypeOf(v)))
    return lanes_of(s, v)[k];
  if (LLVMIsAConstant(v)) {
    LLVMValueRef e = LLVMGetAggregateElement(v, k);
    if (e)
      return e;
  }
  return LLVMBuildExtractElement(s->b, v, LLVMConstInt(s->c->i32, k, 0), "lt.lane");
}

static int is_vec(LLVMValueRef v) {
  return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind;
}

/* the lanes of a vector this file does not take apart: extractelements
 * right after it (at the entry for arguments and constants) */
static void extract_lanes(Split *s, LLVMValueRef v, LLVMValueRef *l, unsigned n) {
  if (LLVMIsAInstruction(v) && !LLVMIsATerminatorInst(v))
    after(s, v);
  else if (LLVMIsAInvokeInst(v))
    LLVMPositionBuilderBefore(s->b, lt_first_non_phi(LLVMGetNormalDest(v)));
  else
    LLVMPositionBuilderBefore(s->b, lt_first_non_phi(LLVMGetEntryBasicBlock(s->fn)));
  for (unsigned k = 0; k < n; k++)
    l[k] = LLVMBuildExtractElement(s->b, v, LLVMConstInt(s->c->i32, k, 0), "lt.lane");
}

/* The lanes of vector-of-pointers v, made once. */
static LLVMValueRef *lanes_of(Split *s, LLVMValueRef v) {
  LLVMValueRef *l = lt_map_get(&s->lanes, v);
  if (l)
    return l;
  unsigned n = nlanes(v);
  LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(v));
  l = lt_xcalloc(n, sizeof *l);
  lt_vec_push(&s->bufs, l);
  lt_map_put(&s->lanes, v, l);
  LLVMBuilderRef b = s->b;
  if (LLVMIsAConstant(v)) {
    for (unsigned k = 0; k < n; k++)
      l[k] = LLVMGetAggregateElement(v, k);
    for (unsigned k = 0; k < n; k++)
      if (!l[k]) { /* a constant expression: take its lanes at run time */
        extract_lanes(s, v, l, n);
        break;
      }
    return l;
  }
  if (!LLVMIsAInstruction(v)) {
    extract_lanes(s, v, l, n);
    return l;
  }
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad: {
    if (LLVMGetVolatile(v) || LLVMIsAtomic(v))
      break;
    LLVMPositionBuilderBefore(b, v);
    unsigned long long es = LLVMStoreSizeOfType(s->c->td, et);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef off = LLVMConstInt(s->c->i64, k * es, 0);
      LLVMValueRef p = k ? LLVMBuildGEP2(b, s->c->i8, LLVMGetOperand(v, 0), &off, 1, "lt.lane")
                         : LLVMGetOperand(v, 0);
      l[k] = LLVMBuildLoad2(b, et, p, "lt.lane");
      LLVMSetAlignment(l[k], align_at(LLVMGetAlignment(v), k * es));
      lt_copy_md(s->c->llctx, l[k], v);
    }
    replaced(s, v);
    return l;
  }
  case LLVMPHI: {
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetInstructionParent(v)));
    for (unsigned k = 0; k < n; k++)
      l[k] = LLVMBuildPhi(b, et, "lt.lane");
    replaced(s, v);
    for (unsigned j = 0, m = LLVMCountIncoming(v); j < m; j++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(v, j);
      LLVMValueRef in = LLVMGetIncomingValue(v, j);
      LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
      for (unsigned k = 0; k < n; k++) {
        LLVMValueRef x = lane(s, in, k);
        LLVMAddIncoming(l[k], &x, &from, 1);
      }
    }
    return l;
  }
  case LLVMInsertElement: {
    LLVMValueRef *src = lanes_of(s, LLVMGetOperand(v, 0));
    LLVMValueRef x = LLVMGetOperand(v, 1), at = LLVMGetOperand(v, 2);
    LLVMPositionBuilderBefore(b, v);
    for (unsigned k = 0; k < n; k++) {
      if (LLVMIsAConstantInt(at))
        l[k] = LLVMConstIntGetZExtValue(at) == k ? x : src[k];
      else
        l[k] = LLVMBuildSelect(
            b, LLVMBuildICmp(b, LLVMIntEQ, at, LLVMConstInt(LLVMTypeOf(at), k, 0), ""), x,
            src[k], "lt.lane");
    }
    replaced(s, v);
    return l;
  }
  case LLVMShuffleVector: {
    LLVMValueRef a = LLVMGetOperand(v, 0), c = LLVMGetOperand(v, 1);
    unsigned na = nlanes(a);
    for (unsigned k = 0; k < n; k++) {
      int m = LLVMGetMaskValue(v, k);
      if (m == LLVMGetUndefMaskElem() || m < 0)
        l[k] = LLVMGetPoison(et);
      else
        l[k] = (unsigned)m < na ? lanes_of(s, a)[m] : lanes_of(s, c)[m - na];
    }
    replaced(s, v);
    return l;
  }
  case LLVMSelect: {
    LLVMValueRef cond = LLVMGetOperand(v, 0);
    LLVMValueRef *t = lanes_of(s, LLVMGetOperand(v, 1));
    LLVMValueRef *f = lanes_of(s, LLVMGetOperand(v, 2));
    LLVMPositionBuilderBefore(b, v);
    for (unsigned k = 0; k < n; k++)
      l[k] = LLVMBuildSelect(b, is_vec(cond) ? lane(s, cond, k) : cond, t[k], f[k], "lt.lane");
    replaced(s, v);
    return l;
  }
  case LLVMGetElementPtr: {
    unsigned nops = LLVMGetNumOperands(v);
    if (nops > 16)
      break;
    LLVMValueRef ops[16];
    for (unsigned j = 0; j < nops; j++) /* the vector operands' lanes first */
      if (is_ptr_vec(LLVMTypeOf(LLVMGetOperand(v, j))))
        lanes_of(s, LLVMGetOperand(v, j));
    LLVMPositionBuilderBefore(b, v);
    for (unsigned k = 0; k < n; k++) {
      for (unsigned j = 0; j < nops; j++) {
        LLVMValueRef o = LLVMGetOperand(v, j);
        ops[j] = is_vec(o) ? lane(s, o, k) : o;
      }
      l[k] = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(v), ops[0], ops + 1, nops - 1,
                           "lt.lane");
      if (LLVMIsAGetElementPtrInst(l[k]))
        LLVMSetIsInBounds(l[k], LLVMIsInBounds(v));
    }
    replaced(s, v);
    return l;
  }
  case LLVMIntToPtr:
  case LLVMAddrSpaceCast:
  case LLVMBitCast:
  case LLVMFreeze: {
    LLVMValueRef x = LLVMGetOperand(v, 0);
    if (is_ptr_vec(LLVMTypeOf(x)))
      lanes_of(s, x);
    LLVMPositionBuilderBefore(b, v);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef e = lane(s, x, k);
      LLVMOpcode op = LLVMGetInstructionOpcode(v);
      l[k] = op == LLVMFreeze ? LLVMBuildFreeze(b, e, "lt.lane")
             : op == LLVMBitCast && LLVMTypeOf(e) == et ? e
                                                        : LLVMBuildCast(b, op, e, et, "lt.lane");
    }
    replaced(s, v);
    return l;
  }
  default:
    break;
  }
  extract_lanes(s, v, l, n); /* a call's result, a volatile load: kept whole */
  return l;
}

/* vector-of-pointers v put together again from its lanes, before the
 * builder's point */
static LLVMValueRef rebuilt(Split *s, LLVMValueRef v) {
  LLVMValueRef *l = lanes_of(s, v), r = LLVMGetPoison(LLVMTypeOf(v));
  for (unsigned k = 0, n = nlanes(v); k < n; k++)
    r = LLVMBuildInsertElement(s->b, r, l[k], LLVMConstInt(s->c->i32, k, 0), "lt.lanes");
  return r;
}

/* User u of vector-of-pointers v (operand j) takes the lanes. */
static void use_lanes(Split *s, LLVMValueRef u, unsigned j, LLVMValueRef v) {
  LLVMBuilderRef b = s->b;
  unsigned n = nlanes(v);
  if (lt_map_get(&s->dead, u))
    return; /* taken apart itself */
  for (int o = 0, no = LLVMGetNumOperands(u); o < no; o++) /* before placing the builder */
    if (is_ptr_vec(LLVMTypeOf(LLVMGetOperand(u, o))))
      lanes_of(s, LLVMGetOperand(u, o));
  LLVMValueRef *l = lanes_of(s, v);
  LLVMOpcode op = LLVMGetInstructionOpcode(u);
  if (op == LLVMStore && j == 0 && !LLVMGetVolatile(u) && !LLVMIsAtomic(u)) {
    LLVMPositionBuilderBefore(b, u);
    unsigned long long es = LLVMStoreSizeOfType(s->c->td, LLVMTypeOf(l[0]));
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef off = LLVMConstInt(s->c->i64, k * es, 0);
      LLVMValueRef p = k ? LLVMBuildGEP2(b, s->c->i8, LLVMGetOperand(u, 1), &off, 1, "lt.lane")
                         : LLVMGetOperand(u, 1);
      LLVMValueRef st = LLVMBuildStore(b, l[k], p);
      LLVMSetAlignment(st, align_at(LLVMGetAlignment(u), k * es));
      lt_copy_md(s->c->llctx, st, u);
    }
    replaced(s, u);
    return;
  }
  if (op == LLVMExtractElement && j == 0) {
    LLVMValueRef at = LLVMGetOperand(u, 1), r;
    if (LLVMIsAConstantInt(at)) {
      unsigned long long k = LLVMConstIntGetZExtValue(at);
      r = k < n ? l[k] : LLVMGetPoison(LLVMTypeOf(u));
    } else {
      LLVMPositionBuilderBefore(b, u);
      r = LLVMGetPoison(LLVMTypeOf(u));
      for (unsigned k = 0; k < n; k++)
        r = LLVMBuildSelect(
            b, LLVMBuildICmp(b, LLVMIntEQ, at, LLVMConstInt(LLVMTypeOf(at), k, 0), ""), l[k],
            r, "lt.lane");
    }
    LLVMReplaceAllUsesWith(u, r);
    replaced(s, u);
    return;
  }
  if (op == LLVMPtrToInt || op == LLVMICmp) {
    LLVMPositionBuilderBefore(b, u);
    LLVMTypeRef rt = LLVMTypeOf(u);
    LLVMValueRef r = LLVMGetPoison(rt);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef e;
      if (op == LLVMPtrToInt)
        e = LLVMBuildPtrToInt(b, l[k], LLVMGetElementType(rt), "lt.lane");
      else
        e = LLVMBuildICmp(b, LLVMGetICmpPredicate(u), lane(s, LLVMGetOperand(u, 0), k),
                          lane(s, LLVMGetOperand(u, 1), k), "lt.lane");
      r = LLVMBuildInsertElement(b, r, e, LLVMConstInt(s->c->i32, k, 0), "lt.lanes");
    }
    LLVMReplaceAllUsesWith(u, r);
    replaced(s, u);
    return;
  }
  if (!LLVMIsAInstruction(v) || !lt_map_get(&s->dead, v))
    return; /* v itself stays */
  if (LLVMIsAPHINode(u))
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(u, j)));
  else
    LLVMPositionBuilderBefore(b, u);
  LLVMSetOperand(u, j, rebuilt(s, v));
}

/* whether every use of dead instruction i is by another dead one */
static int only_dead_uses(Split *s, LLVMValueRef i) {
  for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u))
    if (!lt_map_get(&s->dead, LLVMGetUser(u)))
      return 0;
  return 1;
}

void lt_pointer_vectors(LtCtx *c, LLVMValueRef fn) {
  LtVec found = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int any = is_ptr_vec(LLVMTypeOf(i));
      for (int j = 0, n = LLVMGetNumOperands(i); j < n && !any; j++)
        any = is_ptr_vec(LLVMTypeOf(LLVMGetOperand(i, j)));
      if (any)
        lt_vec_push(&found, i);
    }
  if (!found.n)
    return;
  Split s = {.c = c, .fn = fn, .b = LLVMCreateBuilderInContext(c->llctx)};
  lt_map_init(&s.lanes, 16);
  lt_map_init(&s.dead, 16);
  for (size_t k = 0; k < found.n; k++) /* values first */
    if (is_ptr_vec(LLVMTypeOf(found.v[k])))
      lanes_of(&s, found.v[k]);
  for (size_t k = 0; k < found.n; k++) { /* then their users */
    LLVMValueRef u = found.v[k];
    for (int j = 0, n = LLVMGetNumOperands(u); j < n; j++) {
      LLVMValueRef v = LLVMGetOperand(u, j);
      if (is_ptr_vec(LLVMTypeOf(v)) && !lt_map_get(&s.dead, u))
        use_lanes(&s, u, (unsigned)j, v);
    }
  }
  /* Every use of a replaced instruction is now by another replaced one
   * (a loop's PHIs use each other): poison breaks the cycles. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = 0; k < s.order.n; k++)
      if (s.order.v[k] && !only_dead_uses(&s, s.order.v[k])) {
        lt_map_put(&s.dead, s.order.v[k], NULL); /* still used: kept (not expected) */
        s.order.v[k] = NULL;
        changed = 1;
      }
  }
  for (size_t k = 0; k < s.order.n; k++)
    if (s.order.v[k] && LLVMGetTypeKind(LLVMTypeOf(s.order.v[k])) != LLVMVoidTypeKind)
      LLVMReplaceAllUsesWith(s.order.v[k], LLVMGetPoison(LLVMTypeOf(s.order.v[k])));
  for (size_t k = 0; k < s.order.n; k++)
    if (s.order.v[k])
      LLVMInstructionEraseFromParent(s.order.v[k]);
  for (size_t k = 0; k < s.bufs.n; k++)
    free(s.bufs.v[k]);
  lt_vec_free(&s.bufs);
  lt_vec_free(&s.order);
  lt_vec_free(&found);
  lt_map_free(&s.lanes);
  lt_map_free(&s.dead);
  LLVMDisposeBuilder(s.b);
}
