// plugin.cpp: the only C++ in Leantape. It registers the `leantape` module
// pass with the new pass manager (for `opt -passes=leantape` and at the
// OptimizerEarly extension point under `clang -fpass-plugin`, which fires at
// -O0..-O3) and hands the module to the C driver (lt_run_module) together
// with the host's services the LLVM C API lacks (LtHost, lib/base/base.h):
// diagnostics and remarks, alias analysis, memory effects, running a
// function pipeline (LLVM 19 has no C call for it). The C code calls them
// through that table only, so the dependencies run one way: from here into
// the driver.
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h" // LLVM 22
#else
#include "llvm/Passes/PassPlugin.h" // LLVM 19
#endif
#if LLVM_VERSION_MAJOR < 20
#include "llvm-c/Error.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/Error.h"
#include <memory>
#endif

using namespace llvm;

extern "C" {
#include "base/base.h"
// lib/driver.c: differentiate every __enzyme_* call in M. opt_level is -1
// under `-passes=leantape`, else the speedup level 0..3. Nonzero = changed.
int lt_run_module(LLVMModuleRef M, const LtHost *host, int opt_level);
// lib/front/annotate.c: before the optimiser, keep annotated functions (custom
// derivatives, inactive functions) from being inlined.
int lt_prepare_module(LLVMModuleRef M, const LtHost *host);
int lt_restore_module(LLVMModuleRef M);
// lib/analysis/loops.c, lib/analysis/induction.c: analysis printers (text on stderr).
void lt_print_loops(LLVMValueRef fn);
void lt_print_induction(LLVMValueRef fn);
}

namespace {
// -leantape-explain (opt; clang: -mllvm -leantape-explain): besides the tape
// report, one remark per taped value saying why it could not be recomputed
// or read again.
cl::opt<bool> Explain("leantape-explain", cl::init(false),
                      cl::desc("Leantape: explain every taped value in a remark "
                               "(with -pass-remarks-analysis=leantape)"));

// -leantape-global-shadows (clang: -mllvm -leantape-global-shadows): mutable
// globals defined in the module that may hold floating-point data or
// pointers get shadow globals, zeroed when a derivative call begins
// (Enzyme's -enzyme-global-activity).
cl::opt<bool> GlobalShadows("leantape-global-shadows", cl::init(false),
                            cl::desc("Leantape: give mutable globals holding active "
                                     "data shadow globals"));

// -leantape-outline-time-loops (hidden): the body of every outermost loop
// with a known trip count and an inner loop becomes a function of its own,
// a kept call per step (prep/outline.c): the ground of checkpointing
// (issue 20), testable on its own.
cl::opt<bool> OutlineSteps("leantape-outline-time-loops", cl::init(false), cl::Hidden,
                           cl::desc("Leantape: outline the steps of time loops"));

// -leantape-checkpoint[=BUDGET] (clang: -mllvm -leantape-checkpoint=64M):
// time loops are checkpointed (gen/ckpt.c) when a tape budget is given, by
// LEANTAPE_TAPE_BUDGET at run time or else by BUDGET (bytes, with K, M or
// G); with neither, every step is taped as without the option.
cl::opt<std::string> Checkpoint("leantape-checkpoint", cl::ValueOptional,
                                cl::desc("Leantape: checkpoint time loops (optional "
                                         "default tape budget, e.g. 64M)"));

// `at` is an Instruction (reported at its !dbg location) or a Function
// (reported at its DISubprogram, if any). Returns the function, or null.
Function *locate(LLVMValueRef at, DiagnosticLocation &loc) {
  Value *v = unwrap(at);
  if (auto *inst = dyn_cast_or_null<Instruction>(v)) {
    if (const DebugLoc &dl = inst->getDebugLoc())
      loc = DiagnosticLocation(dl);
    return inst->getFunction();
  }
  if (auto *fn = dyn_cast_or_null<Function>(v)) {
    if (const DISubprogram *sp = fn->getSubprogram())
      loc = DiagnosticLocation(sp);
    return fn;
  }
  return nullptr;
}

// Error or warning for the C code. Under clang, diagnose() returns and the
// compile fails at the end; under opt, an error exits inside diagnose(), so
// callers must leave the IR valid before calling this.
void hostDiag(void *, LLVMValueRef at, const char *msg, int is_error) {
  DiagnosticLocation loc;
  Function *fn = locate(at, loc);
  if (!fn)
    return;
  // The message names the user's function, not Leantape's copy of it
  // (preprocessed f.lt.pre, analysis copies f.lt.esc), which opt prints.
  StringRef name = fn->getName();
  size_t cut = name.find(".lt.");
  if (cut != StringRef::npos)
    if (Function *orig = fn->getParent()->getFunction(name.take_front(cut)))
      fn = orig;
  Twine text(msg); // DiagnosticInfoUnsupported keeps a reference to it
  DiagnosticInfoUnsupported diag(*fn, text, loc,
                                 is_error ? DS_Error : DS_Warning);
  fn->getContext().diagnose(diag);
}

// Optimisation analysis remark: shown by `clang -Rpass-analysis=<pass_name>`
// and `opt -pass-remarks-analysis=<pass_name>`, and saved by
// -fsave-optimization-record / -pass-remarks-output.
void hostRemark(void *, LLVMValueRef at, const char *pass_name,
                const char *remark_name, const char *msg) {
  DiagnosticLocation loc;
  Function *fn = locate(at, loc);
  if (!fn)
    return;
  const BasicBlock *region = &fn->getEntryBlock();
  if (auto *inst = dyn_cast<Instruction>(unwrap(at)))
    region = inst->getParent();
  OptimizationRemarkAnalysis remark(pass_name, remark_name, loc, region);
  remark << msg;
  fn->getContext().diagnose(remark);
}

// The host's state: the function analysis manager of the running pass
// (LLVM's own AA pipeline: BasicAA, TBAA, scoped noalias, ...), or null
// outside a pass run (a printer pass).
struct HostState {
  FunctionAnalysisManager *FAM = nullptr;
};

// Is block bb on a cycle of its function's control flow?
static bool inCycle(const BasicBlock *bb) {
  SmallPtrSet<const BasicBlock *, 32> seen;
  SmallVector<const BasicBlock *, 32> work(successors(bb));
  while (!work.empty()) {
    const BasicBlock *x = work.pop_back_val();
    if (x == bb)
      return true;
    if (seen.insert(x).second)
      append_range(work, successors(x));
  }
  return false;
}

// Does the scope list of an access name a noalias scope that f declares in
// a cycle (llvm.experimental.noalias.scope.decl in a loop: a restrict
// function inlined into a loop body)? Such a scope is new in each
// iteration, and its guarantee holds between accesses of one iteration
// only: a double-buffered time loop calling step(const double *restrict
// u, double *restrict v) with u and v swapped writes in one step what the
// next one reads.
static bool loopScoped(const Function &f, const AAMDNodes &a, const AAMDNodes &b) {
  const MDNode *lists[4] = {a.Scope, a.NoAlias, b.Scope, b.NoAlias};
  if (!lists[0] && !lists[1] && !lists[2] && !lists[3])
    return false;
  SmallPtrSet<const Metadata *, 8> inLoop;
  for (const BasicBlock &bb : f) {
    int cyc = -1;
    for (const Instruction &i : bb)
      if (auto *d = dyn_cast<NoAliasScopeDeclInst>(&i)) {
        if (cyc < 0)
          cyc = inCycle(&bb);
        if (cyc)
          for (const MDOperand &op : d->getScopeList()->operands())
            inLoop.insert(op.get());
      }
  }
  for (const MDNode *l : lists)
    for (unsigned k = 0; l && k < l->getNumOperands(); k++)
      if (inLoop.count(l->getOperand(k).get()))
        return true;
  return false;
}

// May the memory at pa, accessed by instruction ia, overlap the memory at
// pb accessed by ib, at any times? Sizes are unknown on purpose
// (beforeOrAfterPointer): the accesses may run in different loop
// iterations, where offsets relative to the same SSA values say nothing;
// what remains are distinct objects, access types (TBAA) and noalias
// scopes declared outside loops (loopScoped). Pointers from two PHIs or
// selects that may hold the same object (buffers swapped each iteration)
// are compared as one: BasicAA compares their incoming values pairwise,
// which holds within one iteration only, and across iterations either may
// be the other. 1 when
// unknown (no analysis manager, e.g. in a printer pass).
int hostMayAlias(void *self, LLVMValueRef ia, LLVMValueRef pa, LLVMValueRef ib,
                 LLVMValueRef pb) {
  FunctionAnalysisManager *FAM = static_cast<HostState *>(self)->FAM;
  auto *IA = dyn_cast_or_null<Instruction>(unwrap(ia));
  auto *IB = dyn_cast_or_null<Instruction>(unwrap(ib));
  if (!FAM || !IA || !IB || IA->getFunction() != IB->getFunction())
    return 1;
  AAResults &AA = FAM->getResult<AAManager>(*IA->getFunction());
  AAMDNodes ma = IA->getAAMetadata(), mb = IB->getAAMetadata();
  if (loopScoped(*IA->getFunction(), ma, mb))
    ma.Scope = ma.NoAlias = mb.Scope = mb.NoAlias = nullptr;
  const Value *a = unwrap(pa), *b = unwrap(pb);
  const Value *oa = getUnderlyingObject(a), *ob = getUnderlyingObject(b);
  if (oa != ob && (isa<PHINode>(oa) || isa<SelectInst>(oa)) &&
      (isa<PHINode>(ob) || isa<SelectInst>(ob))) {
    // only where one may hold an object the other holds (not two pointer
    // counters over distinct arrays)
    SmallVector<const Value *, 8> xa, xb;
    getUnderlyingObjects(a, xa);
    getUnderlyingObjects(b, xb);
    for (const Value *x : xa)
      if (is_contained(xb, x) || isa<PHINode>(x) || isa<SelectInst>(x))
        b = a;
  }
  MemoryLocation LA(a, LocationSize::beforeOrAfterPointer(), ma);
  MemoryLocation LB(b, LocationSize::beforeOrAfterPointer(), mb);
  return AA.alias(LA, LB) != AliasResult::NoAlias;
}

// lib/analysis/overwrite.c: what a call may write, from its memory effects
// (call-site and callee attributes, as function-attrs infers them): 0
// nothing the program can read (at most inaccessible memory and errno), 1
// only memory its pointer arguments point into, 2 anything.
int hostCallWrites(void *, LLVMValueRef call) {
  auto *CB = dyn_cast_or_null<CallBase>(unwrap(call));
  if (!CB)
    return 2;
  MemoryEffects ME = CB->getMemoryEffects().getWithoutLoc(IRMemLocation::InaccessibleMem);
#if LLVM_VERSION_MAJOR >= 21
  ME = ME.getWithoutLoc(IRMemLocation::ErrnoMem);
#endif
  if (ME.onlyReadsMemory())
    return 0;
  return ME.onlyAccessesArgPointees() ? 1 : 2;
}

void hostKeepGlobal(void *, LLVMValueRef gv) {
  if (auto *G = dyn_cast_or_null<GlobalValue>(unwrap(gv)))
    appendToCompilerUsed(*G->getParent(), {G});
}

// Drop every cached analysis of fn: it is about to change or be deleted
// (a cached dominator tree of a deleted function could be handed to a new
// function allocated at the same address).
void hostForget(void *self, LLVMValueRef fn) {
  FunctionAnalysisManager *FAM = static_cast<HostState *>(self)->FAM;
  if (auto *F = dyn_cast_or_null<Function>(unwrap(fn)))
    if (FAM)
      FAM->clear(*F, F->getName());
}

// Run a function pipeline on fn. LLVM 20+ has LLVMRunPassesOnFunction; for
// LLVM 19 the same, as LLVM's PassBuilderBindings.cpp does it: fresh
// analysis managers, the standard instrumentations (so that
// -print-after-all and friends see these passes), a function pass manager
// parsed from the pipeline text.
#if LLVM_VERSION_MAJOR >= 20
LLVMErrorRef hostRunPasses(void *, LLVMValueRef fn, const char *passes) {
  LLVMPassBuilderOptionsRef O = LLVMCreatePassBuilderOptions();
  LLVMErrorRef E = LLVMRunPassesOnFunction(fn, passes, nullptr, O);
  LLVMDisposePassBuilderOptions(O);
  return E;
}
#else
LLVMErrorRef hostRunPasses(void *, LLVMValueRef fn, const char *passes) {
  Function *F = unwrap<Function>(fn);
  PassInstrumentationCallbacks PIC;
  PassBuilder PB(nullptr, PipelineTuningOptions(), std::nullopt, &PIC);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerLoopAnalyses(LAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerModuleAnalyses(MAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  StandardInstrumentations SI(F->getContext(), /*DebugLogging=*/false,
                              /*VerifyEach=*/false);
  SI.registerCallbacks(PIC, &MAM);
  FunctionPassManager FPM;
  if (Error Err = PB.parsePassPipeline(FPM, passes))
    return wrap(std::move(Err));
  FPM.run(*F, FAM);
  return nullptr;
}
#endif

// The services, for a pass run whose analysis manager is st->FAM.
LtHost makeHost(HostState *st) {
  LtHost h;
  h.self = st;
  h.diag = hostDiag;
  h.remark = hostRemark;
  h.may_alias = hostMayAlias;
  h.call_writes = hostCallWrites;
  h.keep_global = hostKeepGlobal;
  h.forget = hostForget;
  h.run_passes = hostRunPasses;
  h.explain = Explain;
  h.global_shadows = GlobalShadows;
  h.outline_steps = OutlineSteps;
  h.checkpoint = Checkpoint.getNumOccurrences() > 0;
  h.tape_budget = 0;
  h.thinlto_o0 = 0;
  if (h.checkpoint && !Checkpoint.empty()) {
    char *end = nullptr;
    long long v = strtoll(Checkpoint.c_str(), &end, 10);
    int sh = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
             : *end == 'G' || *end == 'g' ? 30 : 0;
    h.tape_budget = v > 0 ? v << sh : 0;
  }
  return h;
}

// A module of the compile step of `clang -flto` (LLVM 19 only; see
// registerCallbacks): clang has flagged it for the LTO link ("ThinLTO" = 0
// under full LTO, "EnableSplitLTOUnit" under both) before the pipeline runs.
[[maybe_unused]] bool hasLTOFlags(const Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("EnableSplitLTOUnit");
}

// ... for ThinLTO: no "ThinLTO" flag, or a nonzero one.
[[maybe_unused]] bool isThinLTOModule(const Module &M) {
  auto *F = mdconst::extract_or_null<ConstantInt>(M.getModuleFlag("ThinLTO"));
  return !F || !F->isZero();
}

struct LeantapePass : PassInfoMixin<LeantapePass> {
  int Level;
  bool SkipLTOModule; // leave modules flagged for LTO to the link step
  bool ThinO0;        // a ThinLTO compile step at -O0 (see registerCallbacks)
  explicit LeantapePass(int L, bool Skip = false, bool Thin = false)
      : Level(L), SkipLTOModule(Skip), ThinO0(Thin) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    bool Thin = ThinO0;
    if (SkipLTOModule && hasLTOFlags(M)) {
      if (Level != 0 || !isThinLTOModule(M))
        return lt_restore_module(wrap(&M)) ? PreservedAnalyses::none()
                                           : PreservedAnalyses::all();
      Thin = true;
    }
    HostState St;
    St.FAM = &MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    LtHost Host = makeHost(&St);
    Host.thinlto_o0 = Thin;
    int Changed = lt_run_module(wrap(&M), &Host, Level);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  // Never skipped by optnone or -opt-bisect-limit: AD is not an optimisation.
  static bool isRequired() { return true; }
  static StringRef name() { return "LeantapePass"; }
};

// A compile step for LTO leaves the derivatives to the link step, but not
// the calls LeantapePrepare redirected (lt_restore_module).
struct LeantapeRestore : PassInfoMixin<LeantapeRestore> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return lt_restore_module(wrap(&M)) ? PreservedAnalyses::none()
                                       : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// Runs at PipelineStart, before any inlining.
struct LeantapePrepare : PassInfoMixin<LeantapePrepare> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    HostState St;
    LtHost Host = makeHost(&St);
    return lt_prepare_module(wrap(&M), &Host) ? PreservedAnalyses::none()
                                              : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

// print<leantape-loops>, print<leantape-induction>: read-only printers.
struct LeantapePrinter : PassInfoMixin<LeantapePrinter> {
  void (*Print)(LLVMValueRef);
  explicit LeantapePrinter(void (*P)(LLVMValueRef)) : Print(P) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (!F.isDeclaration())
      Print(wrap(&F));
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

[[maybe_unused]] bool preLink(ThinOrFullLTOPhase P) {
  return P == ThinOrFullLTOPhase::FullLTOPreLink ||
         P == ThinOrFullLTOPhase::ThinLTOPreLink;
}

void registerCallbacks(PassBuilder &PB) {
  // -print-before=leantape / -print-after=leantape (the IR the pass sees)
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    PIC->addClassToPassName("LeantapePass", "leantape");
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        void (*P)(LLVMValueRef) = Name == "print<leantape-loops>" ? lt_print_loops
                                  : Name == "print<leantape-induction>"
                                      ? lt_print_induction
                                      : nullptr;
        if (P)
          FPM.addPass(LeantapePrinter(P));
        return P != nullptr;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "leantape")
          return false;
        MPM.addPass(LeantapePass(-1));
        return true;
      });
  // Under -flto the compile step (pre-link) leaves the __enzyme_* calls
  // alone: the callees of the differentiated function may be in other
  // files, and the link step differentiates the merged module (full LTO:
  // the pass runs first in the link-time pipeline; ThinLTO: in each
  // backend, with the imported callees, at OptimizerEarly). But a ThinLTO
  // backend at -O0 runs no extension point (buildThinLTODefaultPipeline
  // returns before them): a ThinLTO compile step at -O0 differentiates,
  // with the callees of its own file.
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel L) {
        MPM.addPass(LeantapePass(L.getSpeedupLevel()));
      });
#if LLVM_VERSION_MAJOR >= 20
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(LeantapePrepare());
      });
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel L, ThinOrFullLTOPhase P) {
        if (!preLink(P))
          MPM.addPass(LeantapePass(L.getSpeedupLevel()));
        else if (P == ThinOrFullLTOPhase::ThinLTOPreLink &&
                 L == OptimizationLevel::O0)
          MPM.addPass(LeantapePass(0, false, true));
        else
          MPM.addPass(LeantapeRestore());
      });
#else
  // LLVM 19 tells OptimizerEarly callbacks no phase. PipelineStart fires
  // in compile-step pipelines (with or without -flto), never in the
  // link-time ones (ThinLTO backends, full LTO); a compile-step pass then
  // skips a module that clang flagged for LTO, unless for ThinLTO at -O0.
  auto CompileStep = std::make_shared<bool>(false); // per PassBuilder
  PB.registerPipelineStartEPCallback(
      [CompileStep](ModulePassManager &MPM, OptimizationLevel) {
        *CompileStep = true;
        MPM.addPass(LeantapePrepare());
      });
  PB.registerOptimizerEarlyEPCallback(
      [CompileStep](ModulePassManager &MPM, OptimizationLevel L) {
        MPM.addPass(LeantapePass(L.getSpeedupLevel(), *CompileStep));
      });
#endif
}
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "leantape", LLVM_VERSION_STRING,
          registerCallbacks};
}
