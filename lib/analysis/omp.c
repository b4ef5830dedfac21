/* omp.c: what an OpenMP runtime call is (libomp's __kmpc_* entry points
 * and the omp_* library, as clang -fopenmp emits them).
 *
 * A parallel region is __kmpc_fork_call(loc, n, outlined, captures...):
 * the outlined function runs on every thread of a team with (gtid*, btid*,
 * captures...). Inside, worksharing loops get their bounds from
 * __kmpc_for_static_init / __kmpc_dispatch_next, single and master from
 * the return value of their entry call; these move integers only. Barriers,
 * critical sections and reductions synchronise threads, so the reverse
 * pass must synchronise too (gen/omp.c). Constructs Leantape does not
 * differentiate (tasks, ordered, target, teams, cancellation, copyprivate,
 * threadprivate) are named, so that using them is an error that says which.
 */
#include "lt.h"

#include <string.h>

typedef struct {
  const char *name; /* a prefix when it ends with '_' */
  LtOmpKind kind;
  const char *construct; /* for LT_OMP_UNSUPPORTED */
} Entry;

static const Entry entries[] = {
    {"__kmpc_fork_call", LT_OMP_FORK, NULL},
    {"__kmpc_barrier", LT_OMP_BARRIER, NULL},
    {"__kmpc_critical_with_hint", LT_OMP_CRITICAL, NULL},
    {"__kmpc_critical", LT_OMP_CRITICAL, NULL},
    {"__kmpc_end_critical", LT_OMP_END_CRITICAL, NULL},
    {"__kmpc_reduce_nowait", LT_OMP_REDUCE, NULL},
    {"__kmpc_reduce", LT_OMP_REDUCE_BARRIER, NULL},
    {"__kmpc_end_reduce_nowait", LT_OMP_END_REDUCE, NULL},
    {"__kmpc_end_reduce", LT_OMP_END_REDUCE_BARRIER, NULL},
    {"lt.omp.critical", LT_OMP_TICKET, NULL},
    {"lt.omp.end_critical", LT_OMP_TICKET_END, NULL},
    {"__kmpc_for_static_init_", LT_OMP_INERT, NULL},
    {"__kmpc_for_static_fini", LT_OMP_INERT, NULL},
    {"__kmpc_dispatch_init_", LT_OMP_INERT, NULL},
    {"__kmpc_dispatch_next_", LT_OMP_INERT, NULL},
    {"__kmpc_dispatch_fini_", LT_OMP_INERT, NULL},
    {"__kmpc_dispatch_deinit", LT_OMP_INERT, NULL},
    {"__kmpc_single", LT_OMP_INERT, NULL},
    {"__kmpc_end_single", LT_OMP_INERT, NULL},
    {"__kmpc_master", LT_OMP_INERT, NULL},
    {"__kmpc_end_master", LT_OMP_INERT, NULL},
    {"__kmpc_masked", LT_OMP_INERT, NULL},
    {"__kmpc_end_masked", LT_OMP_INERT, NULL},
    {"__kmpc_push_num_threads", LT_OMP_INERT, NULL},
    {"__kmpc_push_proc_bind", LT_OMP_INERT, NULL},
    {"__kmpc_global_thread_num", LT_OMP_INERT, NULL},
    {"__kmpc_flush", LT_OMP_INERT, NULL},
    {"__kmpc_serialized_parallel", LT_OMP_INERT, NULL},
    {"__kmpc_end_serialized_parallel", LT_OMP_INERT, NULL},
    {"__kmpc_ok_to_fork", LT_OMP_INERT, NULL},
    {"omp_get_", LT_OMP_INERT, NULL},
    {"omp_set_num_threads", LT_OMP_INERT, NULL},
    {"omp_in_parallel", LT_OMP_INERT, NULL},
    {"__kmpc_omp_task_alloc", LT_OMP_UNSUPPORTED, "task"},
    {"__kmpc_omp_target_task_alloc", LT_OMP_UNSUPPORTED, "target task"},
    {"__kmpc_omp_task_with_deps", LT_OMP_UNSUPPORTED, "task depend"},
    {"__kmpc_omp_task", LT_OMP_UNSUPPORTED, "task"},
    {"__kmpc_omp_taskwait", LT_OMP_UNSUPPORTED, "taskwait"},
    {"__kmpc_omp_taskyield", LT_OMP_UNSUPPORTED, "taskyield"},
    {"__kmpc_taskgroup", LT_OMP_UNSUPPORTED, "taskgroup"},
    {"__kmpc_end_taskgroup", LT_OMP_UNSUPPORTED, "taskgroup"},
    {"__kmpc_taskloop", LT_OMP_UNSUPPORTED, "taskloop"},
    {"__kmpc_ordered", LT_OMP_UNSUPPORTED, "ordered"},
    {"__kmpc_end_ordered", LT_OMP_UNSUPPORTED, "ordered"},
    {"__kmpc_doacross_", LT_OMP_UNSUPPORTED, "ordered(n) (doacross loops)"},
    {"__kmpc_fork_teams", LT_OMP_UNSUPPORTED, "teams"},
    {"__kmpc_push_num_teams", LT_OMP_UNSUPPORTED, "teams"},
    {"__kmpc_dist_", LT_OMP_UNSUPPORTED, "distribute"},
    {"__tgt_", LT_OMP_UNSUPPORTED, "target"},
    {"__kmpc_cancel", LT_OMP_UNSUPPORTED, "cancel"},
    {"__kmpc_copyprivate", LT_OMP_UNSUPPORTED, "single copyprivate"},
    {"__kmpc_threadprivate_", LT_OMP_UNSUPPORTED, "threadprivate"},
    {"__kmpc_atomic_", LT_OMP_UNSUPPORTED,
     "atomic on a type without a native atomic instruction"},
    {"__kmpc_omp_reg_task_with_affinity", LT_OMP_UNSUPPORTED, "task affinity"},
    {"__kmpc_scope", LT_OMP_UNSUPPORTED, "scope"},
};

LtOmpKind lt_omp_kind(LLVMValueRef call, const char **construct) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  if (construct)
    *construct = NULL;
  if (len < 5)
    return LT_OMP_NONE;
  for (size_t k = 0; k < sizeof entries / sizeof *entries; k++) {
    size_t el = strlen(entries[k].name);
    int prefix = entries[k].name[el - 1] == '_';
    if (prefix ? len >= el && !strncmp(n, entries[k].name, el)
               : len == el && !strncmp(n, entries[k].name, el)) {
      if (construct)
        *construct = entries[k].construct;
      return entries[k].kind;
    }
  }
  return LT_OMP_NONE;
}

/* A worksharing loop's lower bound: a load of the memory that
 * __kmpc_for_static_init (operand 4) or __kmpc_dispatch_next (operand 3)
 * writes the thread's first iteration to. */
static int lower_bound_slot(LLVMValueRef slot) {
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    size_t len;
    const char *n = LLVMIsACallInst(c) ? lt_callee_name(c, &len) : "";
    if (!LLVMIsACallInst(c))
      continue;
    unsigned at = !strncmp(n, "__kmpc_for_static_init_", 23)  ? 4
                  : !strncmp(n, "__kmpc_dispatch_next_", 21) ? 3
                                                              : 0;
    if (at && LLVMGetNumArgOperands(c) > at && LLVMGetOperand(c, at) == slot)
      return 1;
  }
  return 0;
}

int lt_omp_worksharing_start(LLVMValueRef v) {
  for (int depth = 0; v && depth < 8; depth++) {
    if (LLVMIsALoadInst(v))
      return lower_bound_slot(LLVMGetOperand(v, 0));
    if (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) || LLVMIsATruncInst(v) ||
        LLVMIsAFreezeInst(v))
      v = LLVMGetOperand(v, 0);
    else
      return 0;
  }
  return 0;
}

/* The store to slot last before inst in inst's block, or NULL. */
static LLVMValueRef stored_before(LLVMValueRef inst, LLVMValueRef slot) {
  for (LLVMValueRef i = LLVMGetPreviousInstruction(inst); i; i = LLVMGetPreviousInstruction(i)) {
    if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot)
      return LLVMGetOperand(i, 0);
    if (LLVMIsACallInst(i) && !LLVMIsAIntrinsicInst(i))
      return NULL;
  }
  return NULL;
}

int lt_omp_worksharing_bounds(LLVMValueRef start, LLVMValueRef *lb, LLVMValueRef *ub) {
  while (start && !LLVMIsALoadInst(start))
    start = (LLVMIsASExtInst(start) || LLVMIsAZExtInst(start) || LLVMIsATruncInst(start) ||
             LLVMIsAFreezeInst(start))
                ? LLVMGetOperand(start, 0)
                : NULL;
  if (!start || !lt_omp_worksharing_start(start))
    return 0;
  LLVMValueRef slot = LLVMGetOperand(start, 0), dispatch = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    size_t len = 0;
    const char *n = LLVMIsACallInst(c) ? lt_callee_name(c, &len) : "";
    /* signed bounds only (the _4u and _8u entries take unsigned ones) */
    if (len == 24 && !strncmp(n, "__kmpc_for_static_init_", 23) &&
        (n[23] == '4' || n[23] == '8') && LLVMGetNumArgOperands(c) > 5 &&
        LLVMGetOperand(c, 4) == slot) {
      /* the bounds the runtime divides: stored just before the call */
      *lb = stored_before(c, slot);
      *ub = stored_before(c, LLVMGetOperand(c, 5));
      return *lb && *ub;
    }
    if (!strncmp(n, "__kmpc_dispatch_next_", 21))
      dispatch = c;
  }
  if (!dispatch)
    return 0;
  /* __kmpc_dispatch_init_N(loc, gtid, schedule, lb, ub, stride, chunk):
   * the only one of the function, or which loop it starts is unknown */
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(dispatch)), init = NULL;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      size_t len = 0;
      const char *n = LLVMIsACallInst(i) ? lt_callee_name(i, &len) : "";
      if (!strncmp(n, "__kmpc_dispatch_init_", 21)) {
        if (init || len != 22 || (n[21] != '4' && n[21] != '8'))
          return 0;
        init = i;
      }
    }
  if (!init || LLVMGetNumArgOperands(init) < 5)
    return 0;
  *lb = LLVMGetOperand(init, 3);
  *ub = LLVMGetOperand(init, 4);
  return 1;
}
