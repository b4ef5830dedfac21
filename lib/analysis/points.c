/* points.c: which memory a pointer may address, and which memory is active.
 *
 * A flow-insensitive, inclusion-based points-to analysis (Andersen, 1994)
 * over abstract objects: each pointer parameter and the memory reachable
 * from it, each allocation (alloca, malloc, operator new, ...), each
 * global, and one "unknown" object for pointers of unknown origin. Every
 * pointer-carrying value (pointers, and integers or aggregates that hold
 * pointer bits) gets the set of objects it may address; every object the
 * set of objects whose addresses may be stored in it. An object is active
 * when it has a shadow: the memory of dup parameters, and allocations that
 * receive active data or active pointers, or that a pointer may address
 * together with active memory. Inactive memory is never given a shadow; a
 * pointer that may address both (mixed activity) has a shadow that is
 * null when it addresses inactive memory, checked at run time.
 * The transfer functions run inside activity.c's fixpoint, which also
 * decides which floats vary; they only ever add to sets.
 *
 * activity.c, points.c, bits.c and memlayout.c call each other: they are
 * one fixpoint (which floats vary, which memory has shadows, which integers
 * carry float bits, what a copy moves), split by concept for size.
 */
#include "lt.h"
#include "analysis/points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A call to a function differentiated on its own (kept as a call): its
 * effects are not analysed here, so what it may store or return is
 * summarised by one object per call, active when it gets a shadow. */
static int kept_call(LLVMValueRef i) {
  const LtRule *rule;
  LtCallKind k = lt_call_kind(i, &rule);
  return k == LT_CALL_DIFF || k == LT_CALL_CUSTOM;
}

unsigned lt_points_new_obj(LtPoints *pt, int kind, LLVMValueRef src, int param) {
  if (pt->nobj == pt->capobj) {
    pt->capobj = pt->capobj ? pt->capobj * 2 : 16;
    LtObj *o = lt_xcalloc(pt->capobj, sizeof *o);
    if (pt->nobj)
      memcpy(o, pt->obj, pt->nobj * sizeof *o);
    free(pt->obj);
    pt->obj = o;
  }
  pt->obj[pt->nobj] = (LtObj){kind, param, src};
  return pt->nobj++;
}

static uint64_t *new_set(LtPoints *pt) {
  uint64_t *s = lt_xcalloc(pt->words, sizeof *s);
  lt_vec_push(&pt->owned, s);
  return s;
}

static void set_add(uint64_t *s, unsigned o) { s[o / 64] |= 1ull << (o % 64); }

static const uint64_t *singleton(LtPoints *pt, LLVMValueRef key, unsigned o) {
  uint64_t *s = lt_map_get(&pt->sets, key);
  if (!s) {
    s = new_set(pt);
    set_add(s, o);
    lt_map_put(&pt->sets, key, s);
  }
  return s;
}

void lt_points_init(LtPoints *pt, LtCtx *c, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act, const unsigned char *pflags) {
  memset(pt, 0, sizeof *pt);
  pt->c = c;
  lt_map_init(&pt->sets, 256);
  lt_map_init(&pt->gobj, 16);
  lt_map_init(&pt->callobj, 16);
  unsigned np = LLVMCountParams(fn);
  pt->argobj = lt_xcalloc(np, sizeof *pt->argobj);
  pt->argnull = lt_xcalloc(np, sizeof *pt->argnull);
  for (unsigned p = 0; p < np; p++) {
    pt->argobj[p] = pt->argnull[p] = -1;
    if (!lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(fn, p))))
      continue;
    pt->argobj[p] = (int)lt_points_new_obj(pt, O_ARG, LLVMGetParam(fn, p), (int)p);
    lt_points_new_obj(pt, O_ARGMEM, LLVMGetParam(fn, p), (int)p);
    /* A shadow that may be null: the parameter may address memory
     * without one, as far as this function knows. */
    if (act[p] == LT_DUPNULL)
      pt->argnull[p] = (int)lt_points_new_obj(pt, O_NULL, NULL, (int)p);
  }
  const LtRule *rule;
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsAAllocaInst(i) ||
          (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MALLOC))
        lt_points_new_obj(pt, O_ALLOC, i, -1);
      else if (LLVMIsACallInst(i) && lt_is_char_alloc(i))
        lt_points_new_obj(pt, O_CHARS, i, -1);
      else if (LLVMIsACallInst(i) && kept_call(i))
        lt_map_put(&pt->callobj, i, (void *)(size_t)(lt_points_new_obj(pt, O_CALLMEM, i, -1) + 1));
  lt_points_globals(pt, g);
  pt->unknown = lt_points_new_obj(pt, O_UNKNOWN, NULL, -1);
  pt->null = lt_points_new_obj(pt, O_NULL, NULL, -1);
  pt->words = (pt->nobj + 63) / 64;
  pt->active = lt_xcalloc(pt->nobj, 1);
  pt->distinct = lt_xcalloc(pt->nobj, 1);
  for (unsigned p = 0; pflags && p < np; p++)
    if ((pflags[p] & LT_PF_DISTINCT) && pt->argobj[p] >= 0)
      pt->distinct[pt->argobj[p]] = 1;
  pt->contents = lt_xcalloc((size_t)pt->nobj * pt->words, sizeof *pt->contents);
  pt->empty = new_set(pt);
  for (unsigned o = 0; o < pt->nobj; o++) {
    uint64_t *c = pt->contents + (size_t)o * pt->words;
    switch (pt->obj[o].kind) {
    case O_ARG: /* what the parameter points to holds pointers into the */
    case O_ARGMEM: /* memory the caller reaches from it */
      set_add(c, pt->obj[o].kind == O_ARG ? o + 1 : o);
      pt->active[o] = lt_is_dup(act[pt->obj[o].param]);
      if (pflags && (pflags[pt->obj[o].param] & LT_PF_NULLPTRS))
        set_add(c, pt->null);
      break;
    case O_GLOBAL:
      /* with global shadows, every mutable global of the module that may
       * hold active data has a shadow, in every function alike */
      pt->active[o] = lt_global_may_shadow(pt->c, pt->obj[o].src);
      if (!lt_points_const_data(pt->obj[o].src)) {
        LtVec refs = {0};
        if (lt_points_const_table(pt->obj[o].src, &refs))
          for (size_t k = 0; k < refs.n; k++)
            set_add(c, (unsigned)(size_t)lt_map_get(&pt->gobj, refs.v[k]) - 1);
        else
          set_add(c, pt->unknown);
        lt_vec_free(&refs);
      }
      break;
    case O_UNKNOWN:
      set_add(c, pt->unknown);
      break;
    case O_CALLMEM:
      set_add(c, o);
      set_add(c, pt->null);
      break;
    case O_NULL:
      set_add(c, pt->null);
      break;
    default: /* allocations start empty: their loads read what was stored */
      break;
    }
    if (pt->obj[o].kind == O_ALLOC || pt->obj[o].kind == O_CHARS) {
      uint64_t *s = new_set(pt);
      set_add(s, o);
      lt_map_put(&pt->sets, pt->obj[o].src, s);
    }
  }
  pt->unknown_set = new_set(pt);
  set_add(pt->unknown_set, pt->unknown);
}

void lt_points_free(LtPoints *pt) {
  for (size_t i = 0; i < pt->owned.n; i++)
    free(pt->owned.v[i]);
  lt_vec_free(&pt->owned);
  lt_map_free(&pt->sets);
  lt_map_free(&pt->gobj);
  lt_map_free(&pt->callobj);
  free(pt->obj);
  free(pt->argobj);
  free(pt->argnull);
  free(pt->distinct);
  free(pt->active);
  free(pt->contents);
  memset(pt, 0, sizeof *pt);
}

/* The bytes at address 0 that no object occupies (the page Linux, macOS
 * and Windows leave unmapped). */
#define NULL_PAGE 4096

/* The set of v; never NULL (the shared empty set for untracked values). */
const uint64_t *lt_points_of(LtPoints *pt, LLVMValueRef v) {
  if (LLVMIsAArgument(v)) {
    LLVMValueRef f = LLVMGetParamParent(v);
    for (unsigned p = 0, n = LLVMCountParams(f); p < n; p++)
      if (LLVMGetParam(f, p) == v && pt->argobj[p] >= 0) {
        const uint64_t *s = singleton(pt, v, (unsigned)pt->argobj[p]);
        if (pt->argnull[p] >= 0)
          set_add((uint64_t *)s, (unsigned)pt->argnull[p]);
        return s;
      }
    return pt->empty;
  }
  if (LLVMIsAConstant(v)) {
    LLVMValueRef base = lt_points_strip_const(v);
    size_t o = (size_t)lt_map_get(&pt->gobj, base);
    if (o)
      return singleton(pt, v, (unsigned)(o - 1));
    if (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMIntToPtr) {
      /* an address in the null page holds no object (reading or writing
       * there is undefined): a vector's begin() + 1 with begin() null,
       * folded to inttoptr (i64 24) on a path -O3 keeps (fuzz --structvec
       * seeds 770017 and 770022 were rejected for a store through it) */
      LLVMValueRef a = LLVMGetOperand(v, 0);
      if (LLVMIsAConstantInt(a) && LLVMConstIntGetZExtValue(a) < NULL_PAGE)
        return pt->empty;
      return singleton(pt, v, pt->unknown);
    }
    return pt->empty;
  }
  uint64_t *s = lt_map_get(&pt->sets, v);
  return s ? s : pt->empty;
}

/* The writable set of an instruction, created on first use. */
static uint64_t *own(LtPoints *pt, LLVMValueRef v) {
  uint64_t *s = lt_map_get(&pt->sets, v);
  if (!s) {
    s = new_set(pt);
    lt_map_put(&pt->sets, v, s);
  }
  return s;
}

int lt_points_join(LtPoints *pt, uint64_t *dst, const uint64_t *src) {
  int changed = 0;
  for (unsigned w = 0; w < pt->words; w++)
    if ((dst[w] | src[w]) != dst[w]) {
      dst[w] |= src[w];
      changed = 1;
    }
  return changed;
}

static int join_value(LtPoints *pt, LLVMValueRef i, LLVMValueRef from) {
  const uint64_t *s = lt_points_of(pt, from);
  return nonempty(pt, s) ? lt_points_join(pt, own(pt, i), s) : 0;
}

/* i's set |= the contents of every object addr may address. */
static int join_loaded(LtPoints *pt, LLVMValueRef i, LLVMValueRef addr) {
  const uint64_t *a = lt_points_of(pt, addr);
  int changed = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o) && nonempty(pt, contents(pt, o)))
      changed |= lt_points_join(pt, own(pt, i), contents(pt, o));
  return changed;
}

/* contents of every object addr may address |= src. The null object is
 * no memory: in a set it says that the shadow may be null, beside the
 * objects the pointer addresses, which receive the store. What is loaded
 * through it has a null shadow too, and nothing more: its contents stay
 * {null}. (Once it collected every store through a pointer that might
 * lack a shadow, it joined a std::vector<double>'s data with a
 * std::vector<S>'s; a copy of the doubles was then laid out as S, and the
 * adjoints at S's pointer fields were dropped: fuzz --structvec seed
 * 60014 at -O0, silently.) */
static int join_stored(LtPoints *pt, LLVMValueRef addr, const uint64_t *src) {
  const uint64_t *a = lt_points_of(pt, addr);
  int changed = 0;
  if (!nonempty(pt, src))
    return 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o) && pt->obj[o].kind != O_NULL)
      changed |= lt_points_join(pt, contents(pt, o), src);
  return changed;
}

/* An integer load that cannot hold a pointer's bits: narrower than a
 * pointer, or less aligned than one at an offset no pointer starts at (an
 * i64 read of two adjacent ints, {nrows, ncols}, at offset 4;
 * lt_ptr_sized_int). Otherwise loading it from memory that holds pointers
 * would give it their targets. */
static int narrow_int(LtPoints *pt, LLVMValueRef load) {
  return LLVMGetTypeKind(LLVMTypeOf(load)) == LLVMIntegerTypeKind &&
         !lt_ptr_sized_int(pt->c, load);
}

/* Object o is a null shadow, or memory that only ever holds plain data
 * (constant data, a string's characters): no store of the program can put
 * active data there (the analysis, blind to offsets, may think one does),
 * and it is never a node of a linked structure. */
int lt_points_holds_data(const LtPoints *pt, unsigned o) {
  int k = pt->obj[o].kind;
  return k == O_NULL || k == O_CHARS || (k == O_GLOBAL && lt_points_const_data(pt->obj[o].src));
}

/* t is an integer, or an aggregate of integers (std::pair<bool, size_t>). */
static int ints_only(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
  case LLVMVoidTypeKind:
    return 1;
  case LLVMStructTypeKind:
    for (unsigned k = 0, n = LLVMCountStructElementTypes(t); k < n; k++)
      if (!ints_only(LLVMStructGetTypeAtIndex(t, k)))
        return 0;
    return 1;
  default:
    return 0;
  }
}

/* A link call (calls.c) stores its pointer arguments, and pointers the
 * structure already holds, into the memory of any of them, and a walk
 * returns any node it reaches: the closure of its pointer arguments
 * through contents. */
static int step_link(LtPoints *pt, LLVMValueRef i) {
  uint64_t *all = lt_xcalloc(pt->words, sizeof *all);
  int changed = 0;
  for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n; a++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))))
      lt_points_join(pt, all, lt_points_of(pt, LLVMGetOperand(i, a)));
  for (int grew = 1; grew;) {
    grew = 0;
    for (unsigned o = 0; o < pt->nobj; o++)
      if (set_has(all, o))
        grew |= lt_points_join(pt, all, contents(pt, o));
  }
  /* a node holds links: constant data (a key's string literal) and
   * characters are none */
  for (unsigned o = 0; o < pt->nobj; o++)
    if (lt_points_holds_data(pt, o) && pt->obj[o].kind != O_NULL)
      all[o / 64] &= ~(1ull << (o % 64));
  for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n; a++)
    if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))))
      changed |= join_stored(pt, LLVMGetOperand(i, a), all);
  if (lt_may_hold_ptr(LLVMTypeOf(i)))
    changed |= lt_points_join(pt, own(pt, i), all);
  free(all);
  return changed;
}

static int step_call(LtPoints *pt, LLVMValueRef i) {
  const LtRule *rule;
  if (lt_is_iter_hint(i) || lt_is_char_alloc(i))
    return 0; /* an integer, a count: no pointer's bits; a new buffer */
  LLVMValueRef callee = lt_called_fn(i);
  if (callee && LLVMGetIntrinsicID(callee) &&
      LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMIntegerTypeKind) {
    /* llvm.smax, llvm.umin, ...: an integer made of its operands' bits */
    int changed = 0;
    for (unsigned a = 0, n = LLVMGetNumArgOperands(i); a < n; a++)
      if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(i, a))) == LLVMIntegerTypeKind)
        changed |= join_value(pt, i, LLVMGetOperand(i, a));
    return changed;
  }
  LtCallKind k = lt_call_kind(i, &rule);
  unsigned n = LLVMGetNumArgOperands(i);
  int changed = 0;
  if (k == LT_CALL_MALLOC) {
    /* realloc copies the old block's contents; posix_memalign stores the
     * block through its first argument. */
    const LtAllocFn *af = lt_alloc_fn(i);
    if (af->old_arg >= 0) {
      const uint64_t *a = lt_points_of(pt, LLVMGetOperand(i, (unsigned)af->old_arg));
      for (unsigned o = 0; o < pt->nobj; o++)
        if (set_has(a, o))
          changed |= join_stored(pt, i, contents(pt, o));
    }
    if (af->out_arg >= 0)
      changed |= join_stored(pt, LLVMGetOperand(i, (unsigned)af->out_arg),
                             lt_points_of(pt, i));
    return changed;
  }
  LtMemLayout L;
  /* A guessed layout says nothing: the copy may move the addresses its
   * source holds (operator= of a std::vector of structs with pointers). */
  if (k == LT_CALL_MEMCPY && !lt_mem_layout(pt->c, NULL, i, &L) && !L.guessed &&
      !lt_mem_layout_has(&L, 1))
    return 0; /* it copies no pointers */
  if (k == LT_CALL_MEMCPY) {
    LLVMValueRef src = LLVMGetOperand(i, 1);
    const uint64_t *a = lt_points_of(pt, src);
    for (unsigned o = 0; o < pt->nobj; o++)
      if (set_has(a, o))
        changed |= join_stored(pt, LLVMGetOperand(i, 0), contents(pt, o));
    if (lt_is_ptr_ty(LLVMTypeOf(i)))
      changed |= join_value(pt, i, LLVMGetOperand(i, 0));
    return changed;
  }
  if (k == LT_CALL_MEMSET || k == LT_CALL_FREE || k == LT_CALL_RULE ||
      k == LT_CALL_ZERO || k == LT_CALL_COMPLEX || k == LT_CALL_MPI || k == LT_CALL_BLAS)
    return 0; /* MPI and BLAS move floating-point data, MPI handles */
  if (k == LT_CALL_LINK)
    return step_link(pt, i);
  /* A known inactive library function's integer result is a length, a
   * hash, a comparison or a count, never an address (a hashtable's bucket
   * index computed from a key's hash would otherwise address anything). */
  if (k == LT_CALL_INACTIVE && !lt_call_marked(i) && ints_only(LLVMTypeOf(i)))
    return 0;
  size_t co = (size_t)lt_map_get(&pt->callobj, i);
  if (co) {
    /* The callee may store what escapes from its parameters, or memory it
     * made (the call's object), into anything it is given, and return any
     * of them. Its own derivative mirrors the shadows of what it stores
     * into memory with a shadow (null ones for inactive memory). */
    uint64_t *s = own(pt, i), *all = lt_xcalloc(pt->words, sizeof *all);
    uint64_t *ret = lt_xcalloc(pt->words, sizeof *ret);
    set_add(all, (unsigned)co - 1);
    set_add(all, pt->null); /* the callee may give no shadow */
    LLVMValueRef callee = lt_called_fn(i);
    for (unsigned a = 0; a < n; a++) {
      int e = lt_param_escapes(pt->c, callee, a);
      if (!e)
        continue;
      /* stored / returned: the pointer; copied / returned contents:
       * the pointers in the memory it reaches (two levels deep) */
      const uint64_t *as = lt_points_of(pt, LLVMGetOperand(i, a));
      if (e & LT_ESC_STORED)
        lt_points_join(pt, all, as);
      if (e & LT_ESC_RETURNED)
        lt_points_join(pt, ret, as);
      if (!(e & (LT_ESC_COPIED | LT_ESC_RETCONT)))
        continue;
      uint64_t *into = e & LT_ESC_COPIED ? all : ret;
      for (unsigned o = 0; o < pt->nobj; o++) {
        if (!set_has(as, o))
          continue;
        const uint64_t *c1 = contents(pt, o);
        lt_points_join(pt, into, c1);
        for (unsigned q = 0; q < pt->nobj; q++)
          if (set_has(c1, q))
            lt_points_join(pt, into, contents(pt, q));
      }
    }
    /* ... into what it may write pointers through (not a const M *) */
    for (unsigned a = 0; a < n; a++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))) &&
          lt_param_written(pt->c, callee, a))
        changed |= join_stored(pt, LLVMGetOperand(i, a), all);
    if (lt_may_hold_ptr(LLVMTypeOf(i))) {
      changed |= lt_points_join(pt, s, all);
      changed |= lt_points_join(pt, s, ret);
    }
    free(all);
    free(ret);
    return changed;
  }
  /* An unknown function may store unknown pointers into what it is
   * given (inactive library functions and intrinsics do not), and any
   * returns a pointer of unknown origin. */
  for (unsigned a = 0; a < n && k == LT_CALL_UNKNOWN; a++) {
    LLVMValueRef op = LLVMGetOperand(i, a);
    if (lt_is_ptr_ty(LLVMTypeOf(op)))
      changed |= join_stored(pt, op, pt->unknown_set);
  }
  if (lt_may_hold_ptr(LLVMTypeOf(i))) {
    uint64_t *s = own(pt, i);
    if (!set_has(s, pt->unknown)) {
      set_add(s, pt->unknown);
      changed = 1;
    }
  }
  return changed;
}

int lt_points_step(LtPoints *pt, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  switch (op) {
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMFreeze:
  case LLVMPtrToInt:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMExtractValue:
  case LLVMExtractElement:
    return lt_may_hold_ptr(LLVMTypeOf(i)) ? join_value(pt, i, LLVMGetOperand(i, 0)) : 0;
  case LLVMTrunc: { /* to fewer bits than a pointer: none left */
    LLVMTypeRef t = LLVMTypeOf(i);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
      t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
                   LLVMGetIntTypeWidth(t) >= 8 * LLVMABISizeOfType(pt->c->td, pt->c->ptr)
               ? join_value(pt, i, LLVMGetOperand(i, 0))
               : 0;
  }
  case LLVMIntToPtr: {
    if (nonempty(pt, lt_points_of(pt, LLVMGetOperand(i, 0))))
      return join_value(pt, i, LLVMGetOperand(i, 0));
    uint64_t *s = own(pt, i);
    if (set_has(s, pt->unknown))
      return 0;
    set_add(s, pt->unknown);
    return 1;
  }
  case LLVMSub: /* p - n points into p's object; p - q is a distance */
    return join_value(pt, i, LLVMGetOperand(i, 0));
  case LLVMAdd: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMShl:
  case LLVMSelect: case LLVMInsertValue: case LLVMInsertElement:
  case LLVMShuffleVector: {
    int changed = 0;
    for (int k = op == LLVMSelect ? 1 : 0, n = LLVMGetNumOperands(i); k < n; k++)
      changed |= join_value(pt, i, LLVMGetOperand(i, (unsigned)k));
    return changed;
  }
  case LLVMPHI: {
    int changed = 0;
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      changed |= join_value(pt, i, LLVMGetIncomingValue(i, k));
    return changed;
  }
  case LLVMLoad:
    return lt_may_hold_ptr(LLVMTypeOf(i)) && !narrow_int(pt, i)
               ? join_loaded(pt, i, LLVMGetOperand(i, 0))
               : 0;
  case LLVMStore:
    return join_stored(pt, LLVMGetOperand(i, 1),
                       lt_points_of(pt, LLVMGetOperand(i, 0)));
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg: {
    LLVMValueRef v = LLVMGetOperand(i, op == LLVMAtomicRMW ? 1 : 2);
    int changed = join_stored(pt, LLVMGetOperand(i, 0), lt_points_of(pt, v));
    return changed | join_loaded(pt, i, LLVMGetOperand(i, 0));
  }
  case LLVMCall:
    return step_call(pt, i);
  default:
    return 0;
  }
}

/* The allocations in set s get shadows; 1 when one had none. */
static int activate_set(LtPoints *pt, const uint64_t *s) {
  int changed = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && !pt->active[o] &&
        (pt->obj[o].kind == O_ALLOC || pt->obj[o].kind == O_CALLMEM)) {
      pt->active[o] = 1;
      changed = 1;
    }
  return changed;
}

int lt_points_activate(LtPoints *pt, LLVMValueRef v) {
  return activate_set(pt, lt_points_of(pt, v));
}

/* Allocations v may address, and those whose addresses they hold (a
 * struct of buffers), get shadows. */
int lt_points_activate_reach(LtPoints *pt, LLVMValueRef v) {
  const uint64_t *s = lt_points_of(pt, v);
  int changed = activate_set(pt, s);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o))
      changed |= activate_set(pt, contents(pt, o));
  return changed;
}

int lt_points_contents_active(LtPoints *pt, LLVMValueRef addr) {
  const uint64_t *a = lt_points_of(pt, addr);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o)) {
      const uint64_t *c = contents(pt, o);
      for (unsigned q = 0; q < pt->nobj; q++)
        if (set_has(c, q) && pt->active[q])
          return 1;
    }
  return 0;
}

/* Objects addr may address that have no shadow but would need one to hold
 * what a store or copy puts there: marked, for reads of them to report. */
int lt_points_taint(LtPoints *pt, LLVMValueRef addr) {
  const uint64_t *a = lt_points_of(pt, addr);
  int changed = 0;
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o) && !pt->active[o] && !lt_points_holds_data(pt, o)) {
      if (getenv("LEANTAPE_DEBUG")) {
        fprintf(stderr, "leantape debug: in %s object %u (kind %d, param %d) gets active data through",
                LLVMIsAInstruction(addr) ? LLVMGetValueName2(LLVMGetBasicBlockParent(LLVMGetInstructionParent(addr)), &(size_t){0}) : "?",
                o, pt->obj[o].kind, pt->obj[o].param);
        LLVMDumpValue(addr);
        fprintf(stderr, "\n  pts:");
        for (unsigned q = 0; q < pt->nobj; q++)
          if (set_has(a, q)) {
            fprintf(stderr, " [%u kind %d act %d ", q, pt->obj[q].kind, pt->active[q]);
            if (pt->obj[q].src)
              LLVMDumpValue(pt->obj[q].src);
            fprintf(stderr, "]");
          }
        fputc('\n', stderr);
      }
      if (!pt->tainted)
        pt->tainted = lt_xcalloc(pt->nobj, 1);
      changed |= !pt->tainted[o];
      pt->tainted[o] = 1;
    }
  return changed;
}

int lt_points_reads_tainted(LtPoints *pt, LLVMValueRef addr) {
  if (!pt->tainted)
    return 0;
  const uint64_t *a = lt_points_of(pt, addr);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(a, o) && pt->tainted[o])
      return 1;
  return 0;
}
