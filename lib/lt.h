/* lt.h: Leantape's internal API, one header per layer.
 *
 * The layers, each using only those before it (docs/DESIGN.md says why in
 * this order): base (containers, values, cloning, diagnostics, the host's
 * services, the context), rules (derivative rules of scalar calls),
 * analysis (facts about functions: CFG, loops, induction, activity,
 * memory, what a call is), front (call sites and registrations), prep (the
 * canonical clone), plan (what the reverse pass reads, and from where), gen
 * (the generated functions and the call-site rewrite). driver.c runs them:
 * front, prep, analysis, plan, gen.
 */
#ifndef LT_H
#define LT_H

#include "compat.h" /* LLVM 19 / 22 differences: first */
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "rules/rules.h"
#include "analysis/analysis.h"
#include "front/front.h"
#include "prep/prep.h"
#include "plan/plan.h"
#include "gen/gen.h"

/* driver.c */
int lt_run_module(LLVMModuleRef m, const LtHost *host, int opt_level);

#endif
