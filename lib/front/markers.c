/* markers.c: the enzyme_* markers between the arguments of a call.
 *
 * A marker is a load of a global enzyme_dup/..., the global's address, a
 * -O0 copy of either, or an IR metadata string !"enzyme_dup" (Enzyme's
 * getMetadataName follows the same shapes). Activity markers precede the
 * argument they describe; options (split-mode tape storage, forward-mode
 * width and return of the primal) stand anywhere.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>



/* The marker's name: an IR metadata string, or the global a load reads.
 * At -O0 a marker may first be copied into a local variable (an alloca
 * stored once); Enzyme follows such loads too (getMetadataName). */
static const char *marker_name(LLVMValueRef v, size_t *len) {
  *len = 0;
  if (LLVMIsAMDString(v)) {
    unsigned n = 0;
    const char *s = LLVMGetMDString(v, &n);
    *len = n;
    return s;
  }
  /* The marker's address (&enzyme_dup) also names it, as in Enzyme. */
  if (LLVMIsAGlobalVariable(v))
    return LLVMGetValueName2(v, len);
  for (int hops = 0; hops < 4 && v && LLVMIsALoadInst(v); hops++) {
    LLVMValueRef p = LLVMGetOperand(v, 0);
    if (LLVMIsAGlobalVariable(p))
      return LLVMGetValueName2(p, len);
    if (!LLVMIsAAllocaInst(p))
      return NULL;
    LLVMValueRef stored = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p) {
        if (stored)
          return NULL;
        stored = LLVMGetOperand(user, 0);
      }
    }
    v = stored;
  }
  return NULL;
}

int lt_marker_of(LLVMValueRef v, const char **bad) {
  static const struct {
    const char *name;
    int kind;
  } markers[] = {
      {"enzyme_dup", LT_DUP},
      {"enzyme_dupnoneed", LT_DUPNONEED},
      {"enzyme_const", LT_CONST},
      {"enzyme_out", LT_OUT},
      /* Enzyme (Enzyme.cpp, handleArguments): in split mode every
       * argument's memory counts as overwritten between the halves unless
       * the argument is preceded by enzyme_not_overwritten (on either side
       * of its activity marker); in combined mode it changes nothing. */
      {"enzyme_not_overwritten", LT_M_MODIFIER},
      /* the same promise in Enzyme's split-mode container tests
       * (nocache_containers.cpp: "layers enzyme_nocache over enzyme_dup") */
      {"enzyme_nocache", LT_M_MODIFIER},
      /* Mixed activity (pointers that may or may not have a shadow) is
       * always checked at run time here. */
      {"enzyme_runtime_activity", LT_M_FLAG},
      /* Forward mode (Enzyme.cpp, handleArguments): enzyme_width N makes N
       * directional derivatives at once; enzyme_dupv stride, x, dx gives
       * x's N shadows as one pointer, the k-th at dx + k * stride bytes. */
      {"enzyme_width", LT_M_WIDTH},
      {"enzyme_dupv", LT_M_DUPV},
      {"enzyme_dupnoneedv", LT_M_DUPNONEEDV},
      /* Split-mode options (Enzyme.cpp, handleArguments): where the tape
       * lives, and whether the reverse call frees it. */
      {"enzyme_tape", LT_M_TAPE},
      {"enzyme_allocated", LT_M_ALLOCATED},
      {"enzyme_nofree", LT_M_NOFREE},
      {"enzyme_primal_return", LT_M_PRIMALRET},
      /* Leantape's own (Enzyme has no checkpointing of its own accord):
       * a tape budget in bytes for this call's time loops */
      {"enzyme_tape_budget", LT_M_BUDGET},
      {"enzyme_const_return", LT_M_UNSUPPORTED},
      {"enzyme_active_return", LT_M_UNSUPPORTED},
      {"enzyme_dup_return", LT_M_UNSUPPORTED},
      {"enzyme_noret", LT_M_UNSUPPORTED},
      {"enzyme_byref", LT_M_UNSUPPORTED},
      {"enzyme_interleave", LT_M_UNSUPPORTED},
      {"enzyme_interface", LT_M_UNSUPPORTED},
      {"enzyme_trace", LT_M_UNSUPPORTED},
      {"enzyme_duptrace", LT_M_UNSUPPORTED},
      {"enzyme_likelihood", LT_M_UNSUPPORTED},
      {"enzyme_duplikelihood", LT_M_UNSUPPORTED},
      {"enzyme_observations", LT_M_UNSUPPORTED},
      {"enzyme_active_rand_var", LT_M_UNSUPPORTED},
  };
  size_t len;
  const char *name = marker_name(v, &len);
  if (!name || len < 7 || strncmp(name, "enzyme_", 7))
    return LT_M_NONE;
  *bad = name;
  for (size_t i = 0; i < sizeof markers / sizeof *markers; i++)
    if (strlen(markers[i].name) == len && !strncmp(name, markers[i].name, len))
      return markers[i].kind;
  return LT_M_UNKNOWN;
}

LLVMValueRef lt_param_operand(LtCtx *c, LLVMValueRef call, unsigned *pi, unsigned nops,
                              const LtRequest *r, unsigned p) {
  const char *fname = LLVMGetValueName2(r->fn, &(size_t){0});
  if (*pi >= nops) {
    lt_error(c, call, "too few arguments: '%s' has %u parameters and "
                      "parameter %u has no value", fname, r->nparams, p + 1);
    return NULL;
  }
  LLVMValueRef v = LLVMGetOperand(call, (*pi)++);
  const char *bad = NULL;
  if (lt_marker_of(v, &bad) != LT_M_NONE) {
    lt_error(c, call, "too few arguments: a marker stands where the value "
                      "of parameter %u of '%s' belongs", p + 1, fname);
    return NULL;
  }
  return v;
}

/* Read the markers in front of operand *pi: the last activity marker, or
 * LT_M_NONE; skips modifiers and flags. -1 after reporting a bad marker. */
int lt_read_markers(LtCtx *c, LLVMValueRef call, unsigned *pi,
                        unsigned nops, int *act, LtRequest *r) {
  *act = LT_M_NONE;
  for (; *pi < nops; ++*pi) {
    const char *bad = NULL;
    int m = lt_marker_of(LLVMGetOperand(call, *pi), &bad);
    if (m == LT_M_NONE)
      return 0;
    if (m == LT_M_TAPE || m == LT_M_ALLOCATED || m == LT_M_NOFREE) {
      if (r->mode != LT_AUGFWD && r->mode != LT_REVERSE &&
          !(r->mode == LT_AUGSIZE && m == LT_M_ALLOCATED)) {
        lt_error(c, call, "'%s' is for split mode (__enzyme_augmentfwd and "
                          "__enzyme_reverse)", bad);
        return -1;
      }
      if (m == LT_M_NOFREE) {
        r->nofree = 1;
        continue;
      }
      LLVMValueRef v = *pi + 1 < nops ? LLVMGetOperand(call, *pi + 1) : NULL;
      if (m == LT_M_ALLOCATED) {
        if (!v || !LLVMIsAConstantInt(v)) {
          lt_error(c, call, "enzyme_allocated must be followed by the tape "
                            "storage's size in bytes, a constant");
          return -1;
        }
        r->allocated = (long long)LLVMConstIntGetZExtValue(v);
      } else {
        if (!v || !lt_is_ptr_ty(LLVMTypeOf(v))) {
          lt_error(c, call, "enzyme_tape must be followed by a pointer");
          return -1;
        }
        r->tape_ptr = v;
      }
      ++*pi;
      continue;
    }
    if (m == LT_M_WIDTH || m == LT_M_PRIMALRET || m == LT_M_DUPV || m == LT_M_DUPNONEEDV) {
      if (r->mode != LT_FWDDIFF) {
        lt_error(c, call, "'%s' is for forward mode (__enzyme_fwddiff)", bad);
        return -1;
      }
      if (m == LT_M_PRIMALRET) {
        r->primal_return = 1;
        continue;
      }
      LLVMValueRef v = *pi + 1 < nops ? LLVMGetOperand(call, *pi + 1) : NULL;
      if (!v || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
          (m == LT_M_WIDTH && !LLVMIsAConstantInt(v))) {
        lt_error(c, call, m == LT_M_WIDTH
                              ? "enzyme_width must be followed by the number "
                                "of derivatives, a constant"
                              : "'%s' must be followed by the byte offset "
                                "between the shadows, an integer",
                 bad);
        return -1;
      }
      ++*pi;
      if (m == LT_M_WIDTH) {
        unsigned long long w = LLVMConstIntGetZExtValue(v);
        if (w < 1 || w > 64) {
          lt_error(c, call, "enzyme_width must be between 1 and 64");
          return -1;
        }
        r->width = (unsigned)w;
        continue;
      }
      if (*act >= 0) {
        lt_error(c, call, "two activity markers in a row ('%s' follows "
                          "another); give one marker per argument", bad);
        return -1;
      }
      *act = m == LT_M_DUPV ? LT_DUP : LT_DUPNONEED;
      r->vstride = v;
      continue;
    }
    if (m == LT_M_BUDGET) {
      LLVMValueRef v = *pi + 1 < nops ? LLVMGetOperand(call, *pi + 1) : NULL;
      if (r->mode == LT_FWDDIFF) {
        lt_error(c, call, "enzyme_tape_budget is for reverse mode: forward mode keeps no "
                          "tape");
        return -1;
      }
      if (!v || !LLVMIsAConstantInt(v) || LLVMConstIntGetSExtValue(v) <= 0) {
        lt_error(c, call, "enzyme_tape_budget must be followed by the budget in bytes, a "
                          "positive integer constant (e.g. 64 << 20)");
        return -1;
      }
      r->budget = LLVMConstIntGetSExtValue(v);
      ++*pi;
      continue;
    }
    if (m == LT_M_MODIFIER) { /* enzyme_not_overwritten */
      r->keep_next = 1;
      continue;
    }
    if (m == LT_M_UNKNOWN) {
      lt_error(c, call, "unknown marker '%s'; the markers are enzyme_dup, "
                        "enzyme_dupnoneed, enzyme_const and enzyme_out", bad);
      return -1;
    }
    if (m == LT_M_UNSUPPORTED) {
      lt_error(c, call, "marker '%s' is not supported by Leantape yet; "
                        "the supported markers are enzyme_dup, "
                        "enzyme_dupnoneed, enzyme_const and enzyme_out", bad);
      return -1;
    }
    if (m >= 0) {
      if (*act >= 0) {
        lt_error(c, call, "two activity markers in a row ('%s' follows "
                          "another); give one marker per argument", bad);
        return -1;
      }
      *act = m;
    }
  }
  return 0;
}

