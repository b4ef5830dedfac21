/* callsite.c: recognise __enzyme_* calls and parse their arguments.
 *
 * The interface is Enzyme's: the first argument is the function, then one
 * call operand per parameter, each optionally preceded by a marker (a load
 * of a global enzyme_dup/... or an IR metadata !"enzyme_dup"); dup
 * parameters are followed by their shadow. Unmarked pointers are dup, floats
 * out, integers const. __enzyme_autodiff may end with the adjoint of a float
 * return; __enzyme_reverse ends with [dret,] tape. Misuse is reported.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enzyme recognises an entry point by a callee name that *contains* the
 * entry's name (enzyme/Enzyme/Enzyme.cpp, adMode and the lowering loop), so
 * C++ declarations work however they are mangled: _Z17__enzyme_autodiffz,
 * template instances _Z17__enzyme_autodiffIdJPFddEdEET_DpT0_, suffixed
 * variants __enzyme_autodiff2 declared for another return type. */
static const struct {
  const char *name;
  LtMode mode;
} entries[] = {
    {"__enzyme_autodiff", LT_AUTODIFF},
    {"__enzyme_augmentfwd", LT_AUGFWD},
    {"__enzyme_reverse", LT_REVERSE},
    {"__enzyme_augmentsize", LT_AUGSIZE},
    {"__enzyme_fwddiff", LT_FWDDIFF},
};

/* Entry points of Enzyme's interface that Leantape does not implement:
 * a call to one is an error naming it, never left for the linker. */
static const struct {
  const char *name;
  const char *what;
} unsupported[] = {
    {"__enzyme_fwdsplit", "split forward mode"},
    {"__enzyme_batch", "batched evaluation"},
    {"__enzyme_truncate", "floating-point truncation"},
    {"__enzyme_error_estimate", "error estimation"},
    {"__enzyme_trace", "probabilistic tracing"},
    {"__enzyme_condition", "probabilistic conditioning"},
    {"__enzyme_sample", "probabilistic sampling"},
    {"__enzyme_observe", "probabilistic observation"},
    {"__enzyme_todense", "sparse-to-dense lowering"},
    {"__enzyme_call_inactive", "inactive calls"},
};

static int name_has(const char *name, size_t len, const char *want) {
  size_t wl = strlen(want);
  for (size_t i = 0; i + wl <= len; i++)
    if (!memcmp(name + i, want, wl))
      return 1;
  return 0;
}

int lt_callsite_mode(LLVMValueRef call, LtMode *mode) {
  if (!LLVMIsACallInst(call) && !LLVMIsAInvokeInst(call))
    return 0;
  size_t len;
  const char *name = lt_callee_name(call, &len);
  for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
    if (name_has(name, len, entries[i].name)) {
      *mode = entries[i].mode;
      return 1;
    }
  return 0;
}

int lt_callsite_is_hint(LLVMValueRef call) {
  static const char *const hints[] = {"__enzyme_float", "__enzyme_double",
                                      "__enzyme_integer", "__enzyme_pointer"};
  size_t len;
  const char *name = lt_callee_name(call, &len);
  LLVMValueRef f = lt_called_fn(call);
  if (!f || !LLVMIsDeclaration(f) || LLVMIsAInvokeInst(call))
    return 0;
  for (size_t i = 0; i < sizeof hints / sizeof *hints; i++)
    if (name_has(name, len, hints[i]))
      return 1;
  return 0;
}

const char *lt_callsite_unsupported(LLVMValueRef call, const char **what) {
  size_t len;
  const char *name = lt_callee_name(call, &len);
  if (!lt_is_enzyme_name(name, len) || !LLVMIsDeclaration(lt_called_fn(call)) ||
      lt_is_iter_hint(call))
    return NULL;
  for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
    if (name_has(name, len, unsupported[i].name)) {
      *what = unsupported[i].what;
      return unsupported[i].name;
    }
  *what = NULL;
  return "";
}

int lt_unmarked_int_pointer(LtCtx *c, LLVMValueRef call, LLVMValueRef fn, unsigned p) {
  if (!lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(fn, p))) || !lt_param_int_only(fn, p))
    return 0;
  size_t fl;
  const char *fname = LLVMGetValueName2(fn, &fl);
  char msg[300];
  snprintf(msg, sizeof msg, "parameter %u of '%s' (an unmarked pointer) "
                            "is taken as enzyme_const: only integers and "
                            "pointers are read or written through it",
           p + 1, fname);
  lt_remark_emit(c, call, "leantape", "IntPointerConst", msg);
  return 1;
}

static int parse_params(LtCtx *c, LLVMValueRef call, LtRequest *r,
                        unsigned *pi, unsigned nops) {
  unsigned i = *pi;
  size_t fl;
  const char *fname = LLVMGetValueName2(r->fn, &fl);
  for (unsigned p = 0; p < r->nparams; p++) {
    LLVMTypeRef pty = LLVMTypeOf(LLVMGetParam(r->fn, p));
    int m;
    if (lt_read_markers(c, call, &i, nops, &m, r))
      return -1;
    LLVMValueRef v = lt_param_operand(c, call, &i, nops, r, p);
    if (!v)
      return -1;
    LtAct a = m >= 0               ? (LtAct)m
              : lt_is_ptr_ty(pty)  ? LT_DUP
              : lt_is_diff_ty(pty) ? LT_OUT
                                    : LT_CONST;
    if (m < 0 && a == LT_DUP && lt_unmarked_int_pointer(c, call, r->fn, p))
      a = LT_CONST;
    if (a == LT_OUT && !lt_is_diff_ty(pty)) {
      lt_error(c, call, "enzyme_out requires a floating-point argument "
                        "(parameter %u of '%s'); use enzyme_dup for pointers "
                        "or enzyme_const", p + 1, fname);
      return -1;
    }
    if ((a == LT_DUP || a == LT_DUPNONEED) && !lt_is_ptr_ty(pty)) {
      lt_error(c, call, "%s requires a pointer argument (parameter %u of "
                        "'%s'); use enzyme_out for a floating-point value",
               lt_act_name(a), p + 1, fname);
      return -1;
    }
    if (!lt_callsite_compatible(LLVMTypeOf(v), pty)) {
      lt_error(c, call, "argument for parameter %u of '%s' has the wrong type",
               p + 1, fname);
      return -1;
    }
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    if ((a == LT_DUP || a == LT_DUPNONEED) &&
        LLVMGetEnumAttributeAtIndex(r->fn, p + 1, byval)) {
      lt_error(c, call, "parameter %u of '%s' is a struct passed by value, "
                        "so no gradient can flow back through it; pass a "
                        "pointer to the struct instead, or mark it "
                        "enzyme_const", p + 1, fname);
      return -1;
    }
    r->act[p] = a;
    r->arg[p] = v;
    /* only split mode can forget that memory is unchanged */
    r->keep[p] = r->keep_next && lt_is_ptr_ty(pty) &&
                 (r->mode == LT_AUGFWD || r->mode == LT_REVERSE || r->mode == LT_AUGSIZE);
    r->keep_next = 0;
    if (a == LT_DUP || a == LT_DUPNONEED) {
      const char *bad = NULL;
      if (i >= nops || lt_marker_of(LLVMGetOperand(call, i), &bad) != LT_M_NONE) {
        lt_error(c, call, "too few arguments: %s parameter %u of '%s' needs "
                          "a shadow pointer after its value",
                 lt_act_name(a), p + 1, fname);
        return -1;
      }
      r->shadow[p] = LLVMGetOperand(call, i++);
      if (!lt_is_ptr_ty(LLVMTypeOf(r->shadow[p]))) {
        lt_error(c, call, "the shadow of parameter %u of '%s' must be a "
                          "pointer", p + 1, fname);
        return -1;
      }
    }
  }
  *pi = i;
  return 0;
}

/* Can v be the adjoint of a return value of type rty: a float for a float,
 * the same aggregate or vector type, or a struct of the same layout. */
static int is_dret(LLVMTypeRef rty, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!lt_is_diff_ty(rty))
    return 0;
  if (lt_is_float_ty(rty))
    return lt_is_float_ty(t);
  return t == rty || lt_same_layout(t, rty);
}

/* The leaf types of an aggregate whose members are all floats or float
 * vectors, flattened in order; -1 if some member is not. */
static int float_leaves(LLVMTypeRef t, LLVMTypeRef *out, int n, int max) {
  if (lt_is_float_ty(t) || (LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
                            lt_is_float_ty(LLVMGetElementType(t)))) {
    if (n >= max)
      return -1;
    out[n] = t;
    return n + 1;
  }
  if (!lt_is_aggregate_ty(t))
    return -1;
  int st = LLVMGetTypeKind(t) == LLVMStructTypeKind;
  unsigned m = st ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
  for (unsigned k = 0; k < m && n >= 0; k++)
    n = float_leaves(st ? LLVMStructGetTypeAtIndex(t, k) : LLVMGetElementType(t),
                     out, n, max);
  return n;
}

/* How many operands from i on form the adjoint of the return value: one
 * (a float, the same aggregate, or a byval pointer to one), or, as C
 * passes a small struct to a variadic function, one per float member. */
static unsigned dret_width(LLVMValueRef call, LLVMTypeRef rty, unsigned i,
                           unsigned nops, int *byval) {
  *byval = 0;
  if (i >= nops || !lt_is_diff_ty(rty))
    return 0;
  LLVMValueRef v = LLVMGetOperand(call, i);
  if (is_dret(rty, v))
    return 1;
  if (!lt_is_aggregate_ty(rty))
    return 0;
  unsigned k = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef bv = LLVMGetCallSiteEnumAttribute(call, i + 1, k);
  if (bv && lt_same_layout(LLVMGetTypeAttributeValue(bv), rty)) {
    *byval = 1;
    return 1;
  }
  LLVMTypeRef lv[LT_DRET_PARTS];
  int n = float_leaves(rty, lv, 0, LT_DRET_PARTS);
  if (n <= 1 || i + (unsigned)n > nops)
    return 0;
  for (int e = 0; e < n; e++)
    if (LLVMTypeOf(LLVMGetOperand(call, i + (unsigned)e)) != lv[e])
      return 0;
  return (unsigned)n;
}

static void take_dret(LtRequest *r, LLVMValueRef call, unsigned i,
                      unsigned width, int byval) {
  r->dret = LLVMGetOperand(call, i);
  r->dret_byval = byval;
  r->ndret_parts = width > 1 ? width : 0;
  for (unsigned e = 0; e < width && width > 1; e++)
    r->dret_parts[e] = LLVMGetOperand(call, i + e);
}

static int parse_tail(LtCtx *c, LLVMValueRef call, LtRequest *r, unsigned i,
                      unsigned nops) {
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(r->fn));
  /* Split-mode options may stand anywhere after the parameters, as in
   * Enzyme; the values left (the adjoint of the result, the tape) must
   * be contiguous. */
  unsigned first = nops, last = 0, count = 0, prev = 0, tape_at = nops;
  for (unsigned j = i; j < nops;) {
    int m;
    unsigned k = j;
    if (lt_read_markers(c, call, &k, nops, &m, r))
      return -1;
    if (m != LT_M_NONE) {
      lt_error(c, call, "too many arguments: '%s' takes %u parameters, and "
                        "an activity marker follows the last one",
               LLVMGetValueName2(r->fn, &(size_t){0}), r->nparams);
      return -1;
    }
    if (k >= nops)
      break;
    if (first == nops)
      first = k;
    prev = last;
    last = k;
    count++;
    j = k + 1;
  }
  /* __enzyme_reverse's tape is the last value; the values before it (the
   * adjoint of the result) must be contiguous. */
  if (r->mode == LT_REVERSE && !r->tape_ptr && count) {
    tape_at = last;
    last = count > 1 ? prev : first;
    count--;
  }
  if (count && last - first + 1 != count) {
    lt_error(c, call, "split-mode options (enzyme_tape, enzyme_allocated, "
                      "enzyme_nofree) must not stand between the members of "
                      "the adjoint of the result");
    return -1;
  }
  if (tape_at < nops && !count) {
    first = tape_at;
    last = tape_at - 1;
  }
  unsigned end = nops;
  i = count ? first : tape_at < nops ? tape_at : nops;
  nops = count ? last + 1 : i;
  if (r->mode == LT_REVERSE && r->tape_ptr) {
    int byval;
    unsigned w = dret_width(call, rty, i, nops, &byval);
    if (w && i + w == nops) {
      take_dret(r, call, i, w, byval);
      i += w;
    }
  } else if (r->mode == LT_REVERSE) {
    if (tape_at >= end) {
      lt_error(c, call, "too few arguments: __enzyme_reverse needs the tape "
                        "returned by __enzyme_augmentfwd as its last argument");
      return -1;
    }
    int byval;
    unsigned w = dret_width(call, rty, i, nops, &byval);
    if (w && i + w == nops) {
      take_dret(r, call, i, w, byval);
      i += w;
    }
    r->tape = LLVMGetOperand(call, tape_at);
    if (!lt_is_ptr_ty(LLVMTypeOf(r->tape))) {
      lt_error(c, call, "the last argument of __enzyme_reverse must be the "
                        "tape returned by __enzyme_augmentfwd");
      return -1;
    }
  } else if (r->mode == LT_AUTODIFF) {
    int byval;
    unsigned w = dret_width(call, rty, i, nops, &byval);
    if (w && i + w == nops) {
      take_dret(r, call, i, w, byval);
      i += w;
    }
  }
  if (i < nops) {
    size_t fl;
    lt_error(c, call, "too many arguments: '%s' takes %u parameters",
             LLVMGetValueName2(r->fn, &fl), r->nparams);
    return -1;
  }
  return 0;
}

int lt_callsite_parse(LtCtx *c, LLVMValueRef call, LtMode mode, LtRequest *r) {
  memset(r, 0, sizeof *r);
  r->call = call;
  r->mode = mode;
  unsigned nops = LLVMGetNumArgOperands(call), i = 0;
  if (lt_callsite_target(c, call, r, &i))
    return -1;
  LLVMValueRef fn = r->fn;
  r->act = lt_xcalloc(r->nparams, sizeof *r->act);
  r->arg = lt_xcalloc(r->nparams, sizeof *r->arg);
  r->shadow = lt_xcalloc(r->nparams, sizeof *r->shadow);
  r->keep = lt_xcalloc(r->nparams + 1, 1);
  if (parse_params(c, call, r, &i, nops) || parse_tail(c, call, r, i, nops))
    return -1;
  r->nested = lt_map_get(&c->nested_calls, call) != NULL;
  /* nothing between the halves writes memory (splitpair.c) */
  if (lt_map_get(&c->split_clean, call))
    for (unsigned p = 0; p < r->nparams; p++)
      r->keep[p] |= lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(fn, p)));
  /* A struct return of __enzyme_augmentfwd holds the tape and the result;
   * with enzyme_tape the tape goes there and the call returns the result. */
  LLVMTypeKind ck = LLVMGetTypeKind(LLVMTypeOf(call));
  r->want_primal = mode == LT_AUGFWD &&
                   LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) !=
                       LLVMVoidTypeKind &&
                   (ck == LLVMStructTypeKind ||
                    (r->tape_ptr && ck != LLVMVoidTypeKind && LLVMGetFirstUse(call)));
  return lt_dup_global_used(c, call, r);
}

void lt_callsite_free(LtRequest *r) {
  free(r->act);
  free(r->arg);
  free(r->shadow);
  free(r->keep);
  free(r->stride);
  free(r->lanes);
  memset(r, 0, sizeof *r);
}
