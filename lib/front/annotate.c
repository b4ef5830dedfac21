/* annotate.c: the user's annotations of functions and globals.
 *
 * Enzyme's conventions, read once per module (names are matched by
 * containment, as Enzyme's registrationKind does):
 *   void *__enzyme_register_gradient_<name>[3] = {fn, augmented, gradient};
 *   void *__enzyme_register_derivative_<name>[2] = {fn, tangent};  (forward)
 *   void *__enzyme_inactivefn<...> = fn;           (or an array of them)
 *   void *__enzyme_function_like<...>[2] = {fn, "log1p"};  ("malloc", ...)
 *   void *__enzyme_inactive_global<...> = &global;
 * the IR function attributes "enzyme_inactive" and
 * "enzyme_inactive_noblock" (on the function or a call), and the source
 * attributes of Enzyme's clang plugin and ours (lib/clang), which clang
 * emits as annotations (see annotations() below). A registration that
 * cannot be used is a compile error naming it, never ignored.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

static int has(const char *s, size_t n, const char *w) {
  size_t wl = strlen(w);
  for (size_t i = 0; i + wl <= n; i++)
    if (!memcmp(s + i, w, wl))
      return 1;
  return 0;
}

static LLVMValueRef strip(LLVMValueRef v) {
  while (v && LLVMIsAConstantExpr(v) &&
         (LLVMGetConstOpcode(v) == LLVMBitCast ||
          LLVMGetConstOpcode(v) == LLVMAddrSpaceCast ||
          LLVMGetConstOpcode(v) == LLVMGetElementPtr))
    v = LLVMGetOperand(v, 0);
  if (v && LLVMIsAGlobalAlias(v))
    v = LLVMAliasGetAliasee(v);
  return v;
}

/* The elements of a global's initializer: itself, or its members. */
static unsigned elements(LLVMValueRef init, LLVMValueRef *out, unsigned max) {
  if (!init)
    return 0;
  LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(init));
  if (k != LLVMArrayTypeKind && k != LLVMStructTypeKind) {
    out[0] = strip(init);
    return 1;
  }
  unsigned n = k == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(LLVMTypeOf(init))
                                      : LLVMCountStructElementTypes(LLVMTypeOf(init));
  if (n > max)
    n = max;
  for (unsigned i = 0; i < n; i++)
    out[i] = strip(LLVMGetAggregateElement(init, i));
  return n;
}

static LtReg *reg_of(LtCtx *c, LLVMValueRef fn) {
  LtReg *r = lt_map_get(&c->reg, fn);
  if (!r) {
    r = lt_xcalloc(1, sizeof *r);
    r->fn = fn;
    lt_map_put(&c->reg, fn, r);
    lt_vec_push(&c->regs, r);
  }
  return r;
}

static const char *cstring(LLVMValueRef v, size_t *len) {
  LLVMValueRef g = strip(v);
  if (!g || !LLVMIsAGlobalVariable(g) || !LLVMGetInitializer(g))
    return NULL;
  LLVMValueRef init = LLVMGetInitializer(g);
  if (!LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
    return NULL;
  const char *s = LLVMGetAsString(init, len);
  while (*len && s[*len - 1] == 0)
    --*len;
  return s;
}

static void gradient(LtCtx *c, LLVMValueRef gv, const char *name) {
  LLVMValueRef e[4] = {0};
  unsigned n = elements(LLVMGetInitializer(gv), e, 4);
  if (n != 3 || !LLVMIsAFunction(e[0]) || !LLVMIsAFunction(e[1]) ||
      !LLVMIsAFunction(e[2])) {
    lt_error(c, gv, "'%s' must hold three functions {function, augmented "
                    "forward, gradient}; this registration cannot be used",
             name);
    return;
  }
  LtReg *r = reg_of(c, e[0]);
  r->custom = 1;
  r->aug = e[1];
  r->grad = e[2];
  r->reg_name = name;
}

/* Forward mode's registration: {fn, fn_fwd}, fn_fwd taking each argument
 * followed by its shadow and returning {result, tangent} (Enzyme's
 * __enzyme_register_derivative; a three-element one is a gradient). */
static void derivative(LtCtx *c, LLVMValueRef gv, const char *name) {
  LLVMValueRef e[4] = {0};
  unsigned n = elements(LLVMGetInitializer(gv), e, 4);
  if (n == 3) {
    gradient(c, gv, name);
    return;
  }
  if (n != 2 || !LLVMIsAFunction(e[0]) || !LLVMIsAFunction(e[1])) {
    lt_error(c, gv, "'%s' must hold two functions {function, forward "
                    "derivative} (or three for reverse mode: {function, "
                    "augmented forward, gradient}); this registration cannot "
                    "be used",
             name);
    return;
  }
  LtReg *r = reg_of(c, e[0]);
  r->fwd = e[1];
  r->fwd_name = name;
  if (!r->reg_name)
    r->reg_name = name;
}

static void like(LtCtx *c, LLVMValueRef gv, const char *name) {
  LLVMValueRef e[3] = {0};
  unsigned n = elements(LLVMGetInitializer(gv), e, 3);
  size_t len = 0;
  const char *s = n == 2 ? cstring(LLVMGetAggregateElement(LLVMGetInitializer(gv), 1), &len)
                         : NULL;
  if (n != 2 || !LLVMIsAFunction(e[0]) || !s || !len || len > 63) {
    lt_error(c, gv, "'%s' must hold {function, \"name\"} with the name of a "
                    "function Leantape knows (\"malloc\", \"free\", \"log1p\", "
                    "...); this registration cannot be used",
             name);
    return;
  }
  LtReg *r = reg_of(c, e[0]);
  memcpy(r->like, s, len);
  r->like[len] = 0;
  r->reg_name = name;
}


/* Source attributes reach the IR as clang annotations: entries {target,
 * "text", file, line, args} of @llvm.global.annotations, for what the file
 * defines. The texts are ClangEnzyme's (Enzyme's clang plugin,
 * enzyme/Enzyme/Clang/EnzymeClang.cpp), which ours (lib/clang) follows:
 *   "enzyme_inactivefn", "enzyme_inactivenoblockfn"  an inactive function
 *   "enzyme_inactive"                  an inactive global (or function)
 *   "enzyme_function_like=<name>"      a function that behaves as <name>
 * and Leantape's "enzyme_shadow" on a global, whose one argument is the
 * global's shadow (Enzyme's !enzyme_shadow metadata, from the source,
 * which read_metadata reads too).
 * Declarations the file does not define get registration globals instead
 * (__enzyme_inactivefn_autoreg_<n>, ...), read above. Enzyme's other
 * annotations (enzyme_nofree, ...) are hints Leantape has no use for; our
 * clang plugin warns about them and does not emit them. */
typedef struct LtAnnot {
  LLVMValueRef target; /* stripped of casts */
  const char *text;
  size_t len;
  LLVMValueRef args;   /* the constant struct of arguments, or NULL */
} LtAnnot;

static unsigned annotations(LLVMModuleRef m, LLVMValueRef *arr) {
  LLVMValueRef g = LLVMGetNamedGlobal(m, "llvm.global.annotations");
  *arr = g ? LLVMGetInitializer(g) : NULL;
  if (!*arr || LLVMGetTypeKind(LLVMTypeOf(*arr)) != LLVMArrayTypeKind)
    return 0;
  return (unsigned)LLVMGetArrayLength2(LLVMTypeOf(*arr));
}

static int annotation(LLVMValueRef arr, unsigned i, LtAnnot *a) {
  LLVMValueRef e = LLVMGetAggregateElement(arr, i);
  if (!e || LLVMGetTypeKind(LLVMTypeOf(e)) != LLVMStructTypeKind ||
      LLVMCountStructElementTypes(LLVMTypeOf(e)) < 2)
    return 0;
  a->target = strip(LLVMGetAggregateElement(e, 0));
  a->text = cstring(LLVMGetAggregateElement(e, 1), &a->len);
  a->args = NULL;
  if (LLVMCountStructElementTypes(LLVMTypeOf(e)) >= 5) {
    LLVMValueRef g = strip(LLVMGetAggregateElement(e, 4));
    if (g && LLVMIsAGlobalVariable(g))
      a->args = LLVMGetInitializer(g);
  }
  return a->target && a->text && a->len > 7 && !memcmp(a->text, "enzyme_", 7);
}

static int is_text(const LtAnnot *a, const char *w) {
  return a->len == strlen(w) && !memcmp(a->text, w, a->len);
}

static int inactive_text(const LtAnnot *a) {
  return is_text(a, "enzyme_inactivefn") || is_text(a, "enzyme_inactivenoblockfn") ||
         is_text(a, "enzyme_inactive");
}

static void shadow(LtCtx *c, LLVMValueRef g, LLVMValueRef s) {
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  if (!LLVMIsAGlobalVariable(g) || !s || !LLVMIsAGlobalVariable(s) || s == g ||
      LLVMIsGlobalConstant(s) || LLVMIsGlobalConstant(g) ||
      LLVMGlobalGetValueType(s) != LLVMGlobalGetValueType(g)) {
    lt_error(c, g, "enzyme_shadow on '%.*s' must name another mutable "
                   "global of the same type; this shadow cannot be used",
             (int)len, name);
    return;
  }
  lt_map_put(&c->user_shadow, g, s);
  lt_map_put(&c->user_shadow, s, (void *)1);
}

static LLVMValueRef shadow_arg(const LtAnnot *a) {
  if (a->args && LLVMGetTypeKind(LLVMTypeOf(a->args)) == LLVMStructTypeKind &&
      LLVMCountStructElementTypes(LLVMTypeOf(a->args)) == 1)
    return strip(LLVMGetAggregateElement(a->args, 0));
  return NULL;
}

/* Enzyme's IR metadata on globals: !enzyme_shadow !{ptr @s} (the shadow
 * Enzyme's GradientUtils uses for the global) and !enzyme_inactive (what
 * its PreserveNVVM makes of __enzyme_inactive_global). */
static void read_metadata(LtCtx *c) {
  unsigned kshadow = LLVMGetMDKindIDInContext(c->llctx, "enzyme_shadow", 13);
  unsigned kinactive = LLVMGetMDKindIDInContext(c->llctx, "enzyme_inactive", 15);
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t n = 0;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(gv, &n);
    for (size_t i = 0; i < n; i++) {
      unsigned k = LLVMValueMetadataEntriesGetKind(md, (unsigned)i);
      if (k == kinactive) {
        lt_map_put(&c->inactive_globals, gv, (void *)1);
      } else if (k == kshadow) {
        LLVMValueRef node = LLVMMetadataAsValue(
            c->llctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
        LLVMValueRef op = NULL;
        if (LLVMGetMDNodeNumOperands(node) == 1)
          LLVMGetMDNodeOperands(node, &op);
        shadow(c, gv, op ? strip(op) : NULL);
      }
    }
    if (md)
      LLVMDisposeValueMetadataEntries(md);
  }
}

static void read_annotations(LtCtx *c) {
  LLVMValueRef arr;
  unsigned n = annotations(c->mod, &arr);
  for (unsigned i = 0; i < n; i++) {
    LtAnnot a;
    if (!annotation(arr, i, &a))
      continue;
    if (LLVMIsAFunction(a.target) && inactive_text(&a)) {
      reg_of(c, a.target)->inactive = 1;
    } else if (LLVMIsAGlobalVariable(a.target) && is_text(&a, "enzyme_inactive")) {
      lt_map_put(&c->inactive_globals, a.target, (void *)1);
    } else if (a.len > 21 && !memcmp(a.text, "enzyme_function_like=", 21)) {
      if (!LLVMIsAFunction(a.target) || a.len - 21 > 63) {
        lt_error(c, a.target, "the annotation '%.*s' must be on a function and "
                              "name a function Leantape knows (\"log1p\", ...)",
                 (int)a.len, a.text);
        continue;
      }
      LtReg *r = reg_of(c, a.target);
      memcpy(r->like, a.text + 21, a.len - 21);
      r->like[a.len - 21] = 0;
      r->reg_name = "enzyme_function_like";
    } else if (is_text(&a, "enzyme_shadow")) {
      shadow(c, a.target, shadow_arg(&a));
    }
  }
}

void lt_annotate_module(LtCtx *c) {
  lt_map_init(&c->reg, 16);
  lt_map_init(&c->inactive_globals, 8);
  lt_map_init(&c->user_shadow, 8);
  read_annotations(c);
  read_metadata(c);
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t len;
    const char *name = LLVMGetValueName2(gv, &len);
    if (!lt_is_enzyme_name(name, len))
      continue;
    if (has(name, len, "__enzyme_register_gradient")) {
      gradient(c, gv, name);
    } else if (has(name, len, "__enzyme_register_derivative")) {
      derivative(c, gv, name);
    } else if (has(name, len, "__enzyme_inactivefn")) {
      LLVMValueRef e[64];
      unsigned n = elements(LLVMGetInitializer(gv), e, 64);
      for (unsigned i = 0; i < n; i++) {
        if (!LLVMIsAFunction(e[i])) {
          lt_error(c, gv, "'%s' must hold functions; this registration "
                          "cannot be used", name);
          break;
        }
        reg_of(c, e[i])->inactive = 1;
      }
    } else if (has(name, len, "__enzyme_function_like")) {
      like(c, gv, name);
    } else if (has(name, len, "__enzyme_inactive_global")) {
      LLVMValueRef e[64];
      unsigned n = elements(LLVMGetInitializer(gv), e, 64);
      for (unsigned i = 0; i < n; i++)
        if (e[i] && LLVMIsAGlobalVariable(e[i]))
          lt_map_put(&c->inactive_globals, e[i], (void *)1);
    }
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                      "enzyme_inactive", 15) ||
        LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                      "enzyme_inactive_noblock", 23))
      reg_of(c, f)->inactive = 1;
}

/* The registrations lt_annotate_module reads. */
static int registration(const char *name, size_t len) {
  return lt_is_enzyme_name(name, len) &&
         (has(name, len, "__enzyme_register_gradient") ||
          has(name, len, "__enzyme_register_derivative") ||
          has(name, len, "__enzyme_inactivefn") ||
          has(name, len, "__enzyme_function_like") ||
          has(name, len, "__enzyme_inactive_global"));
}

/* llvm.used or llvm.compiler.used without the registrations in it. */
static void unlist(LtCtx *c, const char *list) {
  LLVMValueRef u = LLVMGetNamedGlobal(c->mod, list), init;
  if (!u || !(init = LLVMGetInitializer(u)) ||
      LLVMGetTypeKind(LLVMTypeOf(init)) != LLVMArrayTypeKind)
    return;
  unsigned n = (unsigned)LLVMGetArrayLength2(LLVMTypeOf(init)), k = 0;
  LLVMValueRef *keep = lt_xcalloc(n + 1, sizeof *keep);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = LLVMGetAggregateElement(init, i), g = strip(e);
    size_t len;
    const char *name = g ? LLVMGetValueName2(g, &len) : NULL;
    if (!g || !LLVMIsAGlobalVariable(g) || !registration(name, len))
      keep[k++] = e;
  }
  if (k < n) {
    LLVMTypeRef et = LLVMGetElementType(LLVMTypeOf(init));
    LLVMDeleteGlobal(u);
    if (k) {
      LLVMValueRef a = LLVMConstArray2(et, keep, k);
      LLVMValueRef g = LLVMAddGlobal(c->mod, LLVMTypeOf(a), list);
      LLVMSetInitializer(g, a);
      LLVMSetLinkage(g, LLVMAppendingLinkage);
      LLVMSetSection(g, "llvm.metadata");
    }
  }
  free(keep);
}

void lt_annotate_drop(LtCtx *c) {
  unlist(c, "llvm.used");
  unlist(c, "llvm.compiler.used");
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod), next; g; g = next) {
    next = LLVMGetNextGlobal(g);
    size_t len;
    const char *name = LLVMGetValueName2(g, &len);
    if (!LLVMIsDeclaration(g) && !LLVMGetFirstUse(g) && registration(name, len))
      LLVMDeleteGlobal(g);
  }
}

void lt_annotate_free(LtCtx *c) {
  for (size_t i = 0; i < c->regs.n; i++)
    free(c->regs.v[i]);
  lt_vec_free(&c->regs);
  lt_map_free(&c->reg);
  lt_map_free(&c->inactive_globals);
  lt_map_free(&c->user_shadow);
}

const LtReg *lt_annotation(LtCtx *c, LLVMValueRef call) {
  static const LtReg inactive_call = {NULL, NULL, NULL, NULL, 1, 0, "", NULL, NULL};
  LLVMValueRef f = lt_called_fn(call);
  if (!f)
    return NULL;
  if (LLVMGetCallSiteStringAttribute(call, LLVMAttributeFunctionIndex,
                                     "enzyme_inactive", 15))
    return &inactive_call;
  return lt_map_get(&c->reg, f);
}

static void opaque_calls(LLVMModuleRef m, LLVMValueRef f);

static void no_inline(LLVMContextRef c, LLVMValueRef f) {
  if (!f || !LLVMIsAFunction(f) || LLVMIsDeclaration(f))
    return;
  unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ai);
  LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(c, ni, 0));
  opaque_calls(LLVMGetGlobalParent(f), f);
}

/* The suffix of the declaration that a registered function's calls go to
 * from PipelineStart until the pass runs. */
#define OPAQUE ".lt.opaque"

/* Calls of f go to a declaration of its type until the pass runs. The
 * optimiser reads f's body and marks a parameter it returns `returned`,
 * and then uses the argument for the call's result: a function registered
 * as inactive, or with a derivative of its own, that returns its argument
 * (a stop-gradient, a clip whose rule differs) would pass the argument's
 * derivative around itself unseen (x * stop(x) got 2x at -O2, x without
 * the optimiser). Only functions with a parameter of their result's type
 * can return one. */
static void opaque_calls(LLVMModuleRef m, LLVMValueRef f) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(f), rt = LLVMGetReturnType(ft);
  unsigned np = LLVMCountParamTypes(ft), could = 0;
  LLVMTypeRef *pt = lt_xcalloc(np + 1, sizeof *pt);
  LLVMGetParamTypes(ft, pt);
  for (unsigned k = 0; k < np; k++)
    could |= pt[k] == rt;
  free(pt);
  if (!could || LLVMIsFunctionVarArg(ft))
    return;
  size_t len;
  const char *base = LLVMGetValueName2(f, &len);
  char *name = lt_xcalloc(len + sizeof OPAQUE, 1);
  memcpy(name, base, len);
  memcpy(name + len, OPAQUE, sizeof OPAQUE);
  LLVMValueRef d = LLVMGetNamedFunction(m, name);
  if (!d)
    d = LLVMAddFunction(m, name, ft);
  free(name);
  LtVec calls = {0};
  for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if ((LLVMIsACallInst(c) || LLVMIsAInvokeInst(c)) && LLVMGetCalledValue(c) == f)
      lt_vec_push(&calls, c);
  }
  for (size_t k = 0; k < calls.n; k++)
    LLVMSetOperand(calls.v[k], (unsigned)LLVMGetNumOperands(calls.v[k]) - 1, d);
  lt_vec_free(&calls);
}

int lt_restore_module(LLVMModuleRef m) {
  int changed = 0;
  LLVMValueRef next;
  for (LLVMValueRef d = LLVMGetFirstFunction(m); d; d = next) {
    next = LLVMGetNextFunction(d);
    size_t len, sl = sizeof OPAQUE - 1;
    const char *name = LLVMGetValueName2(d, &len);
    if (!LLVMIsDeclaration(d) || len <= sl || memcmp(name + len - sl, OPAQUE, sl))
      continue;
    char *base = lt_xcalloc(len, 1);
    memcpy(base, name, len - sl);
    LLVMValueRef f = LLVMGetNamedFunction(m, base);
    if (f && LLVMGlobalGetValueType(f) == LLVMGlobalGetValueType(d)) {
      /* and forget what the optimiser inferred meanwhile: a compile step
       * for LTO runs more passes after this one */
      unsigned ret = LLVMGetEnumAttributeKindForName("returned", 8);
      for (unsigned k = 0, n = LLVMCountParams(f); k < n; k++)
        LLVMRemoveEnumAttributeAtIndex(f, k + 1, ret);
      LLVMReplaceAllUsesWith(d, f);
      LLVMDeleteFunction(d);
    } else if (!f) {
      LLVMSetValueName2(d, base, len - sl); /* the body is gone: its symbol */
    }
    free(base);
    changed = 1;
  }
  return changed;
}

/* Before the optimiser runs (PipelineStart): annotated functions must not
 * be inlined into their callers, or their calls, and so the annotation,
 * would be gone by the time the derivatives are built (Enzyme's
 * preserveNVVM does the same); nor may their calls be seen through
 * (opaque_calls). */
int lt_prepare_module(LLVMModuleRef m, const LtHost *host) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  int changed = 0;
  for (LLVMValueRef gv = LLVMGetFirstGlobal(m); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t len;
    const char *name = LLVMGetValueName2(gv, &len);
    if (!lt_is_enzyme_name(name, len) || !LLVMGetInitializer(gv))
      continue;
    if (!has(name, len, "__enzyme_register_gradient") &&
        !has(name, len, "__enzyme_register_derivative") &&
        !has(name, len, "__enzyme_inactivefn") &&
        !has(name, len, "__enzyme_function_like"))
      continue;
    /* under -flto nothing refers to a registration: keep it for the link
     * step, where the pass reads it */
    host->keep_global(host->self, gv);
    LLVMValueRef e[64];
    unsigned n = elements(LLVMGetInitializer(gv), e, 64);
    /* a registration names the primal first; inactive lists name only
     * functions */
    for (unsigned i = 0; i < n; i++) {
      if (i > 0 && !has(name, len, "__enzyme_inactivefn"))
        break;
      no_inline(c, e[i]);
      changed = 1;
    }
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                      "enzyme_inactive", 15) ||
        LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                      "enzyme_inactive_noblock", 23)) {
      no_inline(c, f);
      changed = 1;
    }
  LLVMValueRef arr;
  unsigned n = annotations(m, &arr);
  for (unsigned i = 0; i < n; i++) {
    LtAnnot a;
    if (annotation(arr, i, &a) && LLVMIsAFunction(a.target) &&
        (inactive_text(&a) || (a.len > 21 && !memcmp(a.text, "enzyme_function_like=", 21)))) {
      no_inline(c, a.target);
      changed = 1;
    }
  }
  return changed;
}
