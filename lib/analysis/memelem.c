/* memelem.c: the element type of an object that a copy moves, from how
 * the function indexes it (memlayout.c's evidence when neither end of the
 * copy has a declared type): a GEP with an aggregate source type on the
 * object's pointer, or on the pointers PHIs and selects merge it with; for
 * a pointer loaded from memory, the type of the allocations points-to says
 * it may address (a std::vector's data pointer, loaded from the vector),
 * found so or through the copies into and out of them. The size of the
 * elements a copy moves, where its byte count or its blocks' say
 * (libstdc++'s n * sizeof(T) and (last - first) / sizeof(T)), rules out
 * the types and allocations of other sizes that field-blind points-to
 * puts beside them.
 */
#include "lt.h"
#include "points.h"

#include <stdlib.h>
#include <string.h>

static int aggregate(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return (k == LLVMStructTypeKind || k == LLVMArrayTypeKind) && !lt_mem_bytes_only(t);
}

/* An aggregate type that a GEP indexes the object at base with (`gep
 * %struct.S, ptr base, i64 %i`), or that base steps over as such a GEP
 * itself (`gep %struct.S, ptr %p, i64 1`: one of the pointers the PHI
 * of erase's first moved element merges at -O0), or NULL. */
static LLVMTypeRef direct_element_type(LLVMValueRef base) {
  if (LLVMIsAGetElementPtrInst(base) && LLVMGetNumOperands(base) == 2 &&
      aggregate(LLVMGetGEPSourceElementType(base)))
    return LLVMGetGEPSourceElementType(base);
  for (LLVMUseRef u = LLVMGetFirstUse(base); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(w) || LLVMGetOperand(w, 0) != base)
      continue;
    if (aggregate(LLVMGetGEPSourceElementType(w)))
      return LLVMGetGEPSourceElementType(w);
  }
  return NULL;
}

/* A float or pointer type that base is indexed with at a run-time index
 * (`gep ptr, base, %i`: every element is one), (LLVMTypeRef)1 when two
 * disagree, or NULL. Constant indices say nothing: an i8 GEP of a field,
 * or a header before the data. */
static LLVMTypeRef direct_scalar_type(LLVMValueRef base) {
  LLVMTypeRef t = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(base); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(w) || LLVMGetOperand(w, 0) != base ||
        LLVMGetNumOperands(w) != 2 || LLVMIsAConstant(LLVMGetOperand(w, 1)))
      continue;
    LLVMTypeRef e = LLVMGetGEPSourceElementType(w);
    if (!lt_is_float_ty(e) && !lt_is_ptr_ty(e))
      continue;
    if (t && t != e)
      return (LLVMTypeRef)1;
    t = e;
  }
  return t;
}

/* The element type of the pointers that flow into or out of v through
 * PHIs and selects (a vector's data pointer, merged over reallocations
 * and loop iterations), when those that have one agree: *t, or
 * (LLVMTypeRef)1 on a conflict. */
static void merged_element_type(LLVMValueRef v, LtMap *seen, int depth, LLVMTypeRef *t,
                                int scalar) {
  /* Constants (null, undef) join unrelated pointers: a vector<double>'s
   * data pointer and a vector<S>'s both merge with null, and the doubles'
   * copies became copies of S (LLVM 19, fuzz --structvec seed 2 -O2). */
  if (depth > 6 || *t == (LLVMTypeRef)1 || lt_map_get(seen, v) || LLVMIsAConstant(v))
    return;
  lt_map_put(seen, v, (void *)1);
  LLVMTypeRef d = scalar ? direct_scalar_type(v) : direct_element_type(v);
  if (d) {
    *t = !*t || *t == d ? d : (LLVMTypeRef)1;
    if (!scalar)
      return;
  }
  if (LLVMIsAPHINode(v))
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++)
      merged_element_type(LLVMGetIncomingValue(v, k), seen, depth + 1, t, scalar);
  if (LLVMIsASelectInst(v))
    for (unsigned k = 1; k < 3; k++)
      merged_element_type(LLVMGetOperand(v, k), seen, depth + 1, t, scalar);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (LLVMIsAPHINode(w) || (LLVMIsASelectInst(w) && LLVMGetOperand(w, 0) != v))
      merged_element_type(w, seen, depth + 1, t, scalar);
  }
}

/* direct_element_type, or failing that the type the pointers merged with
 * base by PHIs and selects agree on: libstdc++'s vector copies its
 * elements from a PHI of its data pointer (at -O2 an `i8` GEP from it)
 * while only the PHI's other values are indexed as `%struct.S`. */
LLVMTypeRef lt_mem_element_type(LLVMValueRef base) {
  LLVMTypeRef t = direct_element_type(base);
  if (t || !(LLVMIsAPHINode(base) || LLVMIsASelectInst(base) || LLVMIsACallInst(base)))
    return t;
  LtMap seen;
  lt_map_init(&seen, 16);
  merged_element_type(base, &seen, 0, &t, 0);
  lt_map_free(&seen);
  return t == (LLVMTypeRef)1 ? NULL : t;
}

LLVMTypeRef lt_mem_scalar_element_type(LLVMValueRef base) {
  LtMap seen;
  LLVMTypeRef t = NULL;
  lt_map_init(&seen, 16);
  merged_element_type(base, &seen, 0, &t, 1);
  lt_map_free(&seen);
  return t == (LLVMTypeRef)1 ? NULL : t;
}

static unsigned long long const_of(LLVMValueRef v) {
  return v && LLVMIsAConstantInt(v) ? LLVMConstIntGetZExtValue(v) : 0;
}

/* The element size a byte count of a run-time value counts, from how it
 * is made or used: `mul %n, C`, `shl %n, k`, or `sdiv exact %bytes, C`
 * (libstdc++ counts a range's elements so: (last - first) / sizeof(T));
 * 0 when nothing says. */
static unsigned long long stride_of(LLVMValueRef size) {
  if (!size || LLVMIsAConstant(size))
    return 0;
  unsigned long long c = 0;
  if (LLVMIsAInstruction(size)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(size);
    if (op == LLVMMul)
      c = const_of(LLVMGetOperand(size, 1)) ? const_of(LLVMGetOperand(size, 1))
                                            : const_of(LLVMGetOperand(size, 0));
    else if (op == LLVMShl && const_of(LLVMGetOperand(size, 1)) < 32)
      c = 1ull << const_of(LLVMGetOperand(size, 1));
    if (c)
      return c;
  }
  for (LLVMUseRef u = LLVMGetFirstUse(size); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (!LLVMIsABinaryOperator(w) || LLVMGetOperand(w, 0) != size || !LLVMGetExact(w))
      continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(w);
    unsigned long long k = const_of(LLVMGetOperand(w, 1)), d = 0;
    if (op == LLVMSDiv || op == LLVMUDiv)
      d = k;
    else if ((op == LLVMAShr || op == LLVMLShr) && k && k < 32)
      d = 1ull << k;
    if (d && c && d != c)
      return 0; /* two answers: none */
    c = d ? d : c;
  }
  return c;
}

unsigned long long lt_mem_size_stride(LLVMValueRef call) {
  return stride_of(LLVMGetOperand(call, 2));
}

/* A query's state: per object, whether its type is being found (a copy
 * back into it says nothing new: optimistic, as type inference over
 * cycles is) or has been, and which. */
typedef struct {
  LtCtx *c;
  const LtActivity *a; /* its bit groups, for copies' layouts; or NULL */
  LtPoints *pt;
  unsigned char *done, *prov; /* prov: found while another was pending */
  unsigned *busy;       /* 1 + the object's place on the stack of those being found, or 0 */
  unsigned nbusy, low;  /* the stack's height; the lowest place a cycle reached */
  LLVMTypeRef *type;
  LLVMValueRef copies_of; /* the function `copies` lists the copies of */
  LtVec copies;
  LtMap ltypes;           /* constant copy -> layout_type's answer */
} Query;

static void query_init(Query *q, LtCtx *c, LtPoints *pt) {
  q->c = c;
  q->a = NULL;
  q->pt = pt;
  q->busy = lt_xcalloc(pt->nobj + 1, sizeof *q->busy);
  q->nbusy = 0;
  q->low = ~0u;
  q->done = lt_xcalloc(pt->nobj + 1, 1);
  q->prov = lt_xcalloc(pt->nobj + 1, 1);
  q->type = lt_xcalloc(pt->nobj + 1, sizeof *q->type);
  q->copies_of = NULL;
  memset(&q->copies, 0, sizeof q->copies);
  lt_map_init(&q->ltypes, 16);
}

static void query_free(Query *q) {
  lt_vec_free(&q->copies);
  lt_map_free(&q->ltypes);
  free(q->busy);
  free(q->done);
  free(q->prov);
  free(q->type);
}

#define PENDING ((LLVMTypeRef)1)

static LLVMTypeRef pointee_type(Query *q, LLVMValueRef p, unsigned long long stride, int depth);

/* The element size of the allocations p may address, when their byte
 * counts say one (`new(n * 24)`) and agree; 0 otherwise. */
static unsigned long long alloc_stride(LtPoints *pt, LLVMValueRef p) {
  const uint64_t *s = lt_points_of(pt, p);
  unsigned long long c = 0;
  for (unsigned o = 0; s && o < pt->nobj; o++) {
    if (!set_has(s, o) || pt->obj[o].kind == O_NULL)
      continue;
    LLVMValueRef src = pt->obj[o].src;
    const LtAllocFn *af = pt->obj[o].kind == O_ALLOC && src && LLVMIsACallInst(src)
                              ? lt_alloc_fn(src)
                              : NULL;
    unsigned long long d = af && af->count_arg < 0 && af->size_arg >= 0
                               ? stride_of(LLVMGetOperand(src, (unsigned)af->size_arg))
                               : 0;
    if (!d || (c && d != c))
      return 0;
    c = d;
  }
  return c;
}

/* The element size the copy `call` moves: from its byte count, or from
 * those of the blocks either end addresses (the elements after an
 * inserted one, copied into a block of n * sizeof(S) bytes); 0: unknown. */
static unsigned long long copy_stride(Query *q, LLVMValueRef call) {
  unsigned long long c = stride_of(LLVMGetOperand(call, 2));
  for (unsigned e = 0; e < 2 && !c; e++)
    c = alloc_stride(q->pt, LLVMGetOperand(call, e));
  return c;
}

/* The element type of object o: how the function indexes it, or failing
 * that the type of the objects copied into it or out of it (the bytes a
 * copy moves keep their layout): vector<S>'s operator= copies the
 * elements into a new block that nothing indexes, and erase then moves
 * them within it (fuzz --structvec seed 14 -O2: a silent wrong gradient
 * while that copy was taken for doubles). NULL: unknown; PENDING: o is
 * being found further up. */
static LLVMTypeRef object_type(Query *q, unsigned o, int depth);

/* p lies a constant number of bytes from its base that is no multiple
 * of m: inside an element of m bytes */
static int inside_element(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long m) {
  long long o;
  return m && lt_const_offset(td, p, &o) && o % (long long)m != 0;
}

/* The element type a constant copy's own layout describes, when its
 * period is stride bytes (any, with stride 0) and it has pointer and
 * float fields: a packed struct of those fields, bytes between them. At -O3 nothing names the element
 * type of a std::vector<S>'s blocks (every GEP is an i8 one), but the
 * copies of whole elements between them have layouts from their accesses
 * (memlayout.c): an erase in a block that an insert reallocated moves
 * S's with a run-time memmove whose ends only such copies type. Only with
 * the bit groups (q->a), which say which integer accesses move pointers
 * (a pointer stored as an i64 left out would be a shadow not moved). */
static LLVMTypeRef layout_type_(Query *q, LLVMValueRef call, unsigned long long stride) {
  static int asking; /* lt_mem_layout may ask for element types again */
  LLVMTargetDataRef td = q->c->td;
  LtMemLayout L;
  LLVMValueRef len = LLVMGetOperand(call, 2);
  if (asking || !q->a || stride > 4096 || !LLVMIsAConstantInt(len))
    return NULL;
  asking = 1;
  int bad = lt_mem_layout(q->c, q->a, call, &L); /* 0: a layout */
  asking = 0;
  if (bad || L.guessed || L.overflow || !L.period || L.period > 4096 ||
      LLVMConstIntGetZExtValue(len) % L.period || (stride && L.period != stride) ||
      !lt_mem_layout_has(&L, 1) || !lt_mem_layout_has(&L, 0))
    return NULL;
  stride = L.period;
  LLVMTypeRef el[2 * LT_MEM_FIELDS + 1];
  unsigned n = 0;
  unsigned long long at = 0;
  for (unsigned k = 0; k < L.n; k++) {
    if (L.f[k].filled)
      continue; /* a float guessed for bytes nothing accesses: bytes */
    unsigned long long sz = LLVMABISizeOfType(td, L.f[k].ty);
    if (L.f[k].off < at || L.f[k].off + sz > stride)
      return NULL;
    if (L.f[k].off > at)
      el[n++] = LLVMArrayType2(LLVMInt8TypeInContext(q->c->llctx), L.f[k].off - at);
    el[n++] = L.f[k].ty;
    at = L.f[k].off + sz;
  }
  if (at < stride)
    el[n++] = LLVMArrayType2(LLVMInt8TypeInContext(q->c->llctx), stride - at);
  return LLVMStructTypeInContext(q->c->llctx, el, n, 1);
}

/* ... memoised per query (NOTYPE: none) */
#define NOTYPE ((LLVMTypeRef)2)
static LLVMTypeRef layout_type(Query *q, LLVMValueRef call, unsigned long long stride) {
  LLVMTypeRef t = lt_map_get(&q->ltypes, call);
  if (!t) {
    t = layout_type_(q, call, stride);
    lt_map_put(&q->ltypes, call, t ? t : NOTYPE);
  }
  return t == NOTYPE ? NULL : t;
}

static int whole_elements(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long m, int depth);

/* The float and pointer leaves of s are those of l's first sizeof(s)
 * bytes, and none of l's straddles them: s is the head of an l. */
static int head_of(LLVMTargetDataRef td, LLVMTypeRef s, LLVMTypeRef l) {
  long long ss = (long long)LLVMABISizeOfType(td, s), ls = (long long)LLVMABISizeOfType(td, l);
  LtMemLayout a, b, all, tail;
  if (ss >= ls)
    return 0;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memset(&all, 0, sizeof all);
  memset(&tail, 0, sizeof tail);
  lt_mem_leaves(td, s, 0, 0, ss, &a, 0);
  lt_mem_leaves(td, l, 0, 0, ss, &b, 0);
  lt_mem_leaves(td, l, 0, 0, ls, &all, 0);
  lt_mem_leaves(td, l, 0, ss, ls, &tail, 0);
  if (a.overflow || b.overflow || all.overflow || tail.overflow || a.n != b.n ||
      all.n != b.n + tail.n)
    return 0;
  for (unsigned k = 0; k < a.n; k++)
    if (a.f[k].off != b.f[k].off || a.f[k].ty != b.f[k].ty)
      return 0;
  return 1;
}

/* The copies copied_type takes a type from: the end in o, the copy's
 * length (0: not constant) and the type. */
enum { TYPED_COPIES = 64 };
typedef struct {
  LLVMValueRef at[TYPED_COPIES];
  unsigned long long len[TYPED_COPIES];
  LLVMTypeRef ty[TYPED_COPIES];
  unsigned n;
} Typed;

/* The element type of the copies in ty, when they agree: one type, or
 * one and the heads of it that single constant copies move at whole
 * elements of it. std::sort's insertion step keeps the element it moves
 * in a temporary that SROA cut to the fields it copies with one memcpy
 * (`{double, ptr}` of `{double, ptr, i32}`, the i32 stored apart), and
 * copies it back into the block the vector's other copies move whole
 * (fuzz --structvec seed 951021 -O2: a false "layout is unknown"). A
 * head is taken only where its end steps from the block's elements'
 * starts by whole elements of the longer type: a block of 16-byte pairs
 * that one 24-byte copy touches, stepped through 16 bytes at a time, has
 * no type. */
static LLVMTypeRef agreed_type(LLVMTargetDataRef td, const Typed *ty) {
  LLVMTypeRef t = NULL;
  unsigned long long ts = 0;
  for (unsigned k = 0; k < ty->n; k++) { /* the longest; a named type first */
    unsigned long long us = LLVMABISizeOfType(td, ty->ty[k]);
    if (!t || us > ts)
      t = ty->ty[k], ts = us;
  }
  for (unsigned k = 0; t && k < ty->n; k++) {
    LLVMTypeRef u = ty->ty[k];
    if (lt_mem_same_leaves(td, u, 0, t, 0))
      continue;
    if (!head_of(td, u, t) || ty->len[k] != LLVMABISizeOfType(td, u) ||
        !whole_elements(td, ty->at[k], ts, 0))
      return NULL; /* copies of two types: no type */
  }
  return t;
}

static LLVMTypeRef copied_type(Query *q, unsigned o, int depth) {
  LtPoints *pt = q->pt;
  LLVMValueRef src = pt->obj[o].src;
  LLVMTypeRef t = lt_mem_element_type(src);
  if (t || !LLVMIsAInstruction(src))
    return t;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(src));
  if (q->copies_of != fn) { /* once per query: objects are asked again */
    q->copies.n = 0;
    q->copies_of = fn;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (lt_is_copy_call(i))
          lt_vec_push(&q->copies, i);
      }
  }
  /* the types of the objects at the other ends; failing them, the
   * layouts of the constant copies (a second pass: they cost a walk of
   * the function each) */
  Typed ty;
  for (int layouts = 0; layouts < 2 && !t; layouts++) {
    ty.n = 0;
    for (size_t k = 0; k < q->copies.n; k++) {
      LLVMValueRef i = q->copies.v[k];
      if (layouts && (!q->a || !LLVMIsAConstantInt(LLVMGetOperand(i, 2))))
        continue;
      for (unsigned e = 0; e < 2; e++) {
        const uint64_t *s = lt_points_of(pt, LLVMGetOperand(i, e));
        if (!s || !set_has(s, o))
          continue;
        LLVMTypeRef u = layouts ? layout_type(q, i, copy_stride(q, i))
                                : pointee_type(q, LLVMGetOperand(i, !e), copy_stride(q, i),
                                               depth + 1);
        if (!u)
          continue;
        /* bytes from inside an element (an evaluator's operands from 24
         * bytes into it, gathered in an i8 slice by SROA at -O0): o is no
         * array of u (fuzz --eigen seed 40004 at -O0, a null shadow) */
        unsigned long long us = LLVMABISizeOfType(q->c->td, u);
        if (inside_element(q->c->td, LLVMGetOperand(i, !e), us) ||
            inside_element(q->c->td, LLVMGetOperand(i, e), us))
          return NULL;
        unsigned long long len = const_of(LLVMGetOperand(i, 2));
        unsigned d = 0; /* one entry an end, length and type */
        while (d < ty.n && !(ty.at[d] == LLVMGetOperand(i, e) && ty.len[d] == len &&
                             lt_mem_same_leaves(q->c->td, u, 0, ty.ty[d], 0)))
          d++;
        if (d < ty.n)
          continue;
        if (ty.n == TYPED_COPIES)
          return NULL;
        ty.at[ty.n] = LLVMGetOperand(i, e);
        ty.len[ty.n] = len;
        ty.ty[ty.n++] = u;
      }
    }
    t = agreed_type(q->c->td, &ty);
    if (!t && ty.n)
      return NULL;
  }
  return t;
}

/* How many copies away from the one asked about object_type looks. */
#define DEPTH 3

static LLVMTypeRef object_type(Query *q, unsigned o, int depth) {
  if (q->pt->obj[o].kind != O_ALLOC || !q->pt->obj[o].src)
    return NULL;
  if (q->busy[o]) {
    if (q->busy[o] < q->low)
      q->low = q->busy[o];
    return PENDING;
  }
  if (!q->done[o] && depth > DEPTH && !lt_mem_element_type(q->pt->obj[o].src)) {
    /* Too deep to look for: no type, but not o's answer, which it may
     * get when asked from nearer the top (and the objects that asked are
     * provisional). Kept as o's, it was "no type" when asked next from
     * the copy itself: a std::vector<S> copied at -O1, its new block
     * reached first four copies away from another's (fuzz --structvec
     * seed 874003, a false "layout is unknown"). */
    q->low = 0;
    return NULL;
  }
  if (!q->done[o]) {
    /* A type found while an object further down the stack was pending
     * is provisional: it answered "no type" for the block a vector's
     * operator= allocates, copied from and into the vector it copies,
     * whose own type (from push_back's `gep %struct.S`) was still being
     * found (fuzz --structvec -X seed 70507 at -O2: a clean error).
     * Provisional types are found again in a second round (again_if_
     * provisional); asked again at once, every time, they took minutes on
     * programs with many copies (-X seed 60512 at -O3). */
    unsigned saved = q->low, here = ++q->nbusy;
    q->low = ~0u;
    q->busy[o] = here;
    q->type[o] = copied_type(q, o, depth);
    q->busy[o] = 0;
    q->nbusy--;
    q->done[o] = 1;
    q->prov[o] = q->low < here;
    if (q->low > saved)
      q->low = saved;
  }
  return q->type[o];
}

/* Object o may be an array of elements of stride bytes: not an allocation
 * of a constant size that is no multiple of them. Points-to joins the data
 * pointers of a std::vector<double> and a std::vector<S> (field-blind, and
 * through the calls both are passed to), and a block of 8 doubles is no
 * array of 24-byte S. */
static int holds_whole(LtPoints *pt, unsigned o, unsigned long long stride) {
  LLVMValueRef src = pt->obj[o].src;
  const LtAllocFn *af = pt->obj[o].kind == O_ALLOC && src && LLVMIsACallInst(src)
                            ? lt_alloc_fn(src)
                            : NULL;
  if (!af || af->count_arg >= 0 || af->old_arg >= 0 || af->size_arg < 0)
    return 1;
  LLVMValueRef n = LLVMGetOperand(src, (unsigned)af->size_arg);
  return !LLVMIsAConstantInt(n) || LLVMConstIntGetZExtValue(n) % stride == 0;
}

/* An element type of size stride (0: any) that every object p may address
 * agrees on (null and objects being found aside), or NULL. */
static LLVMTypeRef pointee_type(Query *q, LLVMValueRef p, unsigned long long stride, int depth) {
  LtPoints *pt = q->pt;
  const uint64_t *s = lt_points_of(pt, p);
  LLVMTypeRef t = NULL;
  for (unsigned o = 0; s && o < pt->nobj; o++) {
    if (!set_has(s, o) || pt->obj[o].kind == O_NULL)
      continue;
    LLVMTypeRef e = object_type(q, o, depth);
    if (e == PENDING || (!e && stride && !holds_whole(pt, o, stride)))
      continue;
    if (!e || (t && !lt_mem_same_leaves(q->c->td, e, 0, t, 0)) ||
        (stride && LLVMABISizeOfType(q->c->td, e) != stride))
      return NULL;
    /* a block of 8 doubles is no array of 24-byte S, whatever the copies
     * points-to confuses it with say */
    if (!holds_whole(pt, o, LLVMABISizeOfType(q->c->td, e)))
      return NULL;
    t = e;
  }
  return t;
}

/* The PHIs a walk of multiple_of or whole_elements is inside (one met
 * again is what it is being shown to be: by induction over the loop's
 * iterations), and the steps it has left. */
typedef struct {
  LLVMValueRef phi[12];
  unsigned n, steps;
} Walk;

static int whole_elements_(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long m,
                           int depth, Walk *w);

/* Each incoming value of the PHI v, or arm of the select v, passes
 * test: 1; the walk too long or deep: 0. */
static int each_merged(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long m, int depth,
                       Walk *w,
                       int (*test)(LLVMTargetDataRef, LLVMValueRef, unsigned long long, int,
                                   Walk *)) {
  if (LLVMIsASelectInst(v))
    return depth < 8 && test(td, LLVMGetOperand(v, 1), m, depth + 1, w) &&
           test(td, LLVMGetOperand(v, 2), m, depth + 1, w);
  for (unsigned k = 0; k < w->n; k++)
    if (w->phi[k] == v)
      return 1;
  if (depth >= 8 || w->n == sizeof w->phi / sizeof w->phi[0])
    return 0;
  w->phi[w->n++] = v;
  int ok = 1;
  for (unsigned k = 0, n = LLVMCountIncoming(v); ok && k < n; k++)
    ok = test(td, LLVMGetIncomingValue(v, k), m, depth + 1, w);
  w->n--;
  return ok;
}

/* v is a multiple of m: a constant one, a product by one (mul, shl),
 * divided by one exactly (sdiv exact: libstdc++'s element counts), the
 * distance between two pointers at whole elements (pos - begin), or sums,
 * differences, PHIs and selects of such (an offset stepped by 24 bytes
 * in std::sort's insertion loop; 0 or end - begin, merged by operator='s
 * branches). */
static int multiple_of_(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long m, int depth,
                        Walk *w) {
  if (LLVMIsAConstantInt(v))
    return LLVMConstIntGetSExtValue(v) % (long long)m == 0;
  if (!w->steps)
    return 0;
  w->steps--;
  if (LLVMIsAPHINode(v) || LLVMIsASelectInst(v))
    return each_merged(td, v, m, depth, w, multiple_of_);
  if (LLVMIsAInstruction(v)) {
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    for (unsigned k = 0; op == LLVMMul && k < 2; k++)
      if (const_of(LLVMGetOperand(v, k)) % m == 0 && const_of(LLVMGetOperand(v, k)))
        return 1;
    if (op == LLVMShl && const_of(LLVMGetOperand(v, 1)) < 32 &&
        (1ull << const_of(LLVMGetOperand(v, 1))) % m == 0)
      return 1;
    if (op == LLVMSub && depth < 4 && LLVMIsAPtrToIntInst(LLVMGetOperand(v, 0)) &&
        LLVMIsAPtrToIntInst(LLVMGetOperand(v, 1)) &&
        whole_elements_(td, LLVMGetOperand(LLVMGetOperand(v, 0), 0), m, depth + 1, w) &&
        whole_elements_(td, LLVMGetOperand(LLVMGetOperand(v, 1), 0), m, depth + 1, w))
      return 1;
    if ((op == LLVMAdd || op == LLVMSub) && depth < 8 &&
        !LLVMIsAPtrToIntInst(LLVMGetOperand(v, 0)) &&
        multiple_of_(td, LLVMGetOperand(v, 0), m, depth + 1, w) &&
        multiple_of_(td, LLVMGetOperand(v, 1), m, depth + 1, w))
      return 1;
  }
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef x = LLVMGetUser(u);
    if (!LLVMIsABinaryOperator(x) || LLVMGetOperand(x, 0) != v || !LLVMGetExact(x))
      continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(x);
    unsigned long long k = const_of(LLVMGetOperand(x, 1));
    if ((op == LLVMSDiv || op == LLVMUDiv) && k && k % m == 0)
      return 1;
    if ((op == LLVMAShr || op == LLVMLShr) && k && k < 32 && (1ull << k) % m == 0)
      return 1;
  }
  return 0;
}

/* p steps from the pointers it is derived from by GEPs of whole elements
 * of m bytes (constant or not), through PHIs and selects; what it starts
 * from (an allocation, a load, an argument) is taken to address an
 * element's start. */
static int whole_elements_(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long m,
                           int depth, Walk *w) {
  for (int k = 0; k < 8; k++) {
    if (LLVMIsAPHINode(p) || LLVMIsASelectInst(p)) {
      if (!w->steps)
        return 0;
      w->steps--;
      return each_merged(td, p, m, depth, w, whole_elements_);
    }
    if (!LLVMIsAGetElementPtrInst(p))
      return 1;
    if (LLVMGetNumOperands(p) != 2)
      return 0; /* into a struct's fields */
    unsigned long long es = LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(p));
    LLVMValueRef ix = LLVMGetOperand(p, 1);
    if (es % m && !(LLVMIsAConstantInt(ix) &&
                    (LLVMConstIntGetSExtValue(ix) * (long long)es) % (long long)m == 0) &&
        !(es == 1 && multiple_of_(td, ix, m, depth, w)))
      return 0;
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

static int multiple_of(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long m, int depth) {
  Walk w = {.n = 0, .steps = 256};
  return multiple_of_(td, v, m, depth, &w);
}

static int whole_elements(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long m, int depth) {
  Walk w = {.n = 0, .steps = 256};
  return whole_elements_(td, p, m, depth, &w);
}

int lt_mem_multiple_of(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long m) {
  return m && multiple_of(td, v, m, 0);
}

/* Forgets the provisional types of a round; 0 when there were none. */
static int again_if_provisional(Query *q) {
  int any = 0;
  for (unsigned o = 0; o < q->pt->nobj; o++)
    if (q->prov[o]) {
      q->prov[o] = q->done[o] = 0;
      any = 1;
    }
  return any;
}

LLVMTypeRef lt_mem_pointee_element_type(LtCtx *c, const LtActivity *a, LtPoints *pt,
                                        LLVMValueRef call, LLVMValueRef p) {
  Query q;
  query_init(&q, c, pt);
  q.a = a;
  LLVMTypeRef t = pointee_type(&q, p, copy_stride(&q, call), 0);
  if (again_if_provisional(&q))
    t = pointee_type(&q, p, copy_stride(&q, call), 0);
  query_free(&q);
  return t && whole_elements(c->td, p, LLVMABISizeOfType(c->td, t), 0) ? t : NULL;
}

int lt_mem_pointee_holds_ptrs(LtCtx *c, LtPoints *pt, LLVMValueRef call) {
  const uint64_t *s = lt_points_of(pt, LLVMGetOperand(call, 1));
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  Query q;
  query_init(&q, c, pt);
  unsigned long long stride = copy_stride(&q, call);
  int holds = 0;
  for (unsigned o = 0; s && o < pt->nobj; o++) /* a first round */
    if (set_has(s, o))
      object_type(&q, o, 0);
  again_if_provisional(&q);
  for (unsigned o = 0; s && o < pt->nobj && !holds; o++) {
    LLVMTypeRef e = set_has(s, o) ? object_type(&q, o, 0) : NULL;
    unsigned long long es = e ? LLVMABISizeOfType(c->td, e) : 0;
    LLVMValueRef src = pt->obj[o].src;
    if (!e && set_has(s, o) && pt->obj[o].kind == O_ALLOC && src && LLVMIsAInstruction(src) &&
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(src)) == fn &&
        holds_whole(pt, o, stride ? stride : 1) && lt_mem_block_mixed(c, fn, src)) {
      holds = 1; /* stored or copied into as both floats and pointers */
      break;
    }
    /* elements of another size are not what it copies */
    if (!e || (stride && es != stride))
      continue;
    LtMemLayout L;
    memset(&L, 0, sizeof L);
    lt_mem_leaves(c->td, e, 0, 0, (long long)es, &L, 0);
    holds = L.overflow || lt_mem_layout_has(&L, 1);
  }
  query_free(&q);
  return holds;
}
