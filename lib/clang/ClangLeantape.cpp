// ClangLeantape.cpp: the clang plugin (clang -fplugin=ClangLeantape.so).
//
// A pass plugin sees the IR only, after clang has dropped the attributes it
// does not know; this plugin gives C and C++ Enzyme's source attributes and
// adds the Leantape pass (LLVMLeantape.so, found next to this file) to
// clang's pipeline, so that -fplugin alone does what -fpass-plugin does and
// reads the attributes too. It follows Enzyme's clang plugin (ClangEnzyme,
// enzyme/Enzyme/Clang/EnzymeClang.cpp), so that Enzyme users' code compiles
// unchanged: the same attribute names and spellings (GNU
// __attribute__((enzyme_inactive)), C23 and C++11 [[enzyme_inactive]] and
// [[enzyme::inactive]]), each turned into the same clang annotation
// ("enzyme_inactivefn", "enzyme_inactive", "enzyme_function_like=<name>"),
// and, for a declaration this file does not define (clang annotates only
// definitions), a registration global holding its address
// (__enzyme_inactivefn_autoreg_<n>). The pass reads both
// (lib/front/annotate.c). enzyme_shadow(g) is Leantape's: Enzyme's IR
// metadata !enzyme_shadow, written in the source. Attributes ClangEnzyme
// has that mean nothing to Leantape are accepted with a warning; misuse is
// an error through clang's own diagnostics.
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaDiagnostic.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Path.h"
#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h" // LLVM 22
#else
#include "llvm/Passes/PassPlugin.h" // LLVM 19
#endif

#include <dlfcn.h>
#include <optional>
#include <string>

using namespace clang;

namespace {

// ---------------------------------------------------------------------------
// The pass plugin, loaded when this plugin is: clang parses -mllvm options
// after loading -fplugin plugins and before running any pass, so
// -mllvm -leantape-... works with -fplugin alone, on LLVM 19 too.

struct PassLoader {
  std::string Path, Error;
  std::optional<llvm::PassPlugin> Plugin;
  PassLoader() {
    Dl_info Info;
    if (!dladdr(reinterpret_cast<void *>(&anchor), &Info) || !Info.dli_fname) {
      Error = "cannot find where ClangLeantape.so was loaded from";
      return;
    }
    llvm::SmallString<256> P(llvm::sys::path::parent_path(Info.dli_fname));
    llvm::sys::path::append(P, "LLVMLeantape.so");
    Path = std::string(P);
    auto Loaded = llvm::PassPlugin::Load(Path);
    if (Loaded)
      Plugin.emplace(*Loaded);
    else
      Error = llvm::toString(Loaded.takeError());
  }
  static void anchor() {}
};

PassLoader &passLoader() {
  static PassLoader L;
  return L;
}

[[maybe_unused]] const bool LoadedAtStart = (passLoader(), true);

// ---------------------------------------------------------------------------
// The attributes.

enum Target { Fn = 1, Var = 2 };
enum ArgKind { NoArg, StringArg, GlobalArg };

struct AttrSpec {
  const char *Name;    // after "enzyme_" / "enzyme::"
  unsigned Targets;    // Fn | Var
  ArgKind Arg;
  const char *FnText;  // the annotation on a function (NULL: no effect)
  const char *VarText; // on a global
};

// ClangEnzyme's attributes, and what each becomes (its annotation texts).
// Those without a text are hints Leantape has no use for.
const AttrSpec Specs[] = {
    {"inactive", Fn | Var, NoArg, "enzyme_inactivefn", "enzyme_inactive"},
    {"inactive_noblock", Fn | Var, NoArg, "enzyme_inactivenoblockfn", "enzyme_inactive"},
    {"function_like", Fn, StringArg, "enzyme_function_like=", nullptr},
    {"shadow", Var, GlobalArg, nullptr, "enzyme_shadow"},
    {"nofree", Fn | Var, NoArg, nullptr, nullptr},
    {"sparse_accumulate", Fn, NoArg, nullptr, nullptr},
    {"shouldrecompute", Fn | Var, NoArg, nullptr, nullptr},
    {"elementwise_read", Fn, NoArg, nullptr, nullptr},
    {"notypeanalysis", Fn | Var, NoArg, nullptr, nullptr},
    {"no_escaping_allocation", Fn, NoArg, nullptr, nullptr},
};

bool isGlobal(const Decl *D) {
  auto *V = dyn_cast<VarDecl>(D);
  return V && V->hasGlobalStorage();
}

// One ParsedAttrInfo per attribute: the registry default-constructs them.
struct EnzymeAttr : ParsedAttrInfo {
  const AttrSpec &S;
  std::string Gnu, Scoped;
  Spelling Sp[7];

  explicit EnzymeAttr(const AttrSpec &Spec) : S(Spec) {
    Gnu = std::string("enzyme_") + S.Name;
    Scoped = std::string("enzyme::") + S.Name;
    Sp[0] = {AttributeCommonInfo::AS_GNU, Gnu.c_str()};
    Sp[1] = {AttributeCommonInfo::AS_C23, Gnu.c_str()};
    Sp[2] = {AttributeCommonInfo::AS_C23, Scoped.c_str()};
    Sp[3] = {AttributeCommonInfo::AS_CXX11, Gnu.c_str()};
    Sp[4] = {AttributeCommonInfo::AS_CXX11, Scoped.c_str()};
    Spellings = ArrayRef<Spelling>(Sp, 5);
    if (S.Arg != NoArg) {
      // clang parses the arguments of [[scope::name(...)]] only when a
      // plugin has a spelling of the bare name (clang::hasAttribute asks
      // for "name", not "scope::name"); [[name(...)]] alone is refused in
      // handleDeclAttribute.
      Sp[5] = {AttributeCommonInfo::AS_C23, S.Name};
      Sp[6] = {AttributeCommonInfo::AS_CXX11, S.Name};
      Spellings = Sp;
    }
    // clang checks the count itself ("takes no arguments", ...)
    NumArgs = S.Arg == NoArg ? 0 : 1;
  }

  bool diagAppertainsToDecl(Sema &Se, const ParsedAttr &A,
                            const Decl *D) const override {
    if ((S.Targets & Fn) && isa<FunctionDecl>(D))
      return true;
    if ((S.Targets & Var) && isGlobal(D))
      return true;
    Se.Diag(A.getLoc(), diag::warn_attribute_wrong_decl_type_str)
        << A << A.isRegularKeywordAttribute()
        << (S.Targets == Fn    ? "functions"
                 : S.Targets == Var ? "global variables"
                                    : "functions and global variables");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &Se, Decl *D,
                                   const ParsedAttr &A) const override {
    DiagnosticsEngine &DE = Se.getDiagnostics();
    if (A.getNormalizedFullName() == S.Name) { // not ours: no enzyme scope
      Se.Diag(A.getLoc(), DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                             "unknown attribute '%0' ignored"))
          << S.Name;
      return AttributeNotApplied;
    }
    const char *Text = isa<FunctionDecl>(D) ? S.FnText : S.VarText;
    if (!Text) {
      Se.Diag(A.getLoc(), DE.getCustomDiagID(DiagnosticsEngine::Warning,
                                             "'%0' has no effect with Leantape "
                                             "(accepted as Enzyme's hint)"))
          << Gnu;
      return AttributeNotApplied;
    }
    std::string Annot = Text;
    Expr *Arg = nullptr;
    if (S.Arg == StringArg) {
      auto *L = A.isArgExpr(0)
                    ? dyn_cast<StringLiteral>(A.getArgAsExpr(0)->IgnoreParenCasts())
                    : nullptr;
      if (!L || !L->isOrdinary() || L->getLength() == 0 || L->getLength() > 63) {
        Se.Diag(A.getLoc(), DE.getCustomDiagID(
                                DiagnosticsEngine::Error,
                                "'%0' takes the name of a function as a string, "
                                "as in %0(\"log1p\")"))
            << Gnu;
        return AttributeNotApplied;
      }
      Annot += L->getString().str();
    } else if (S.Arg == GlobalArg) {
      Arg = shadowArg(Se, cast<VarDecl>(D), A);
      if (!Arg)
        return AttributeNotApplied;
    }
    D->addAttr(AnnotateAttr::Create(Se.Context, Annot, Arg ? &Arg : nullptr,
                                    Arg ? 1 : 0, A.getRange()));
    return AttributeApplied;
  }

  // enzyme_shadow(s) on a global g: s is another mutable global of g's type;
  // the annotation's argument is &s.
  Expr *shadowArg(Sema &Se, VarDecl *G, const ParsedAttr &A) const {
    DiagnosticsEngine &DE = Se.getDiagnostics();
    ASTContext &C = Se.Context;
    Expr *E = A.isArgExpr(0) ? A.getArgAsExpr(0)->IgnoreParenImpCasts() : nullptr;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(E))
      if (U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr()->IgnoreParenImpCasts();
    auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
    auto *Sh = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (A.isArgIdent(0)) { // a bare name reaches a plugin as an identifier
      IdentifierLoc *IL = A.getArgAsIdent(0);
#if LLVM_VERSION_MAJOR >= 21
      IdentifierInfo *II = IL->getIdentifierInfo();
      SourceLocation Loc = IL->getLoc();
#else
      IdentifierInfo *II = IL->Ident;
      SourceLocation Loc = IL->Loc;
#endif
      LookupResult R(Se, II, Loc, Sema::LookupOrdinaryName);
      if (Se.LookupName(R, Se.getCurScope()) && R.isSingleResult())
        Sh = dyn_cast<VarDecl>(R.getFoundDecl());
      if (Sh)
        Ref = DeclRefExpr::Create(C, NestedNameSpecifierLoc(), SourceLocation(), Sh,
                                  false, Loc, Sh->getType(), VK_LValue);
    }
    if (!Sh || !Sh->hasGlobalStorage() || Sh->getCanonicalDecl() == G->getCanonicalDecl() ||
        Sh->getType().isConstQualified() || G->getType().isConstQualified() ||
        !C.hasSameUnqualifiedType(Sh->getType(), G->getType())) {
      Se.Diag(A.getLoc(), DE.getCustomDiagID(
                              DiagnosticsEngine::Error,
                              "'enzyme_shadow' takes another global variable of the "
                              "same type, not const, as in 'double g "
                              "__attribute__((enzyme_shadow(dg)));'"));
      return nullptr;
    }
    QualType PT = C.getPointerType(Sh->getType());
    Expr *Addr = UnaryOperator::Create(C, Ref, UO_AddrOf, PT, VK_PRValue, OK_Ordinary,
                                       Ref->getExprLoc(), false, FPOptionsOverride());
    Expr *Args[1] = {Addr};
    // annotations carry constant arguments (clang's own check and folding)
    if (!Se.ConstantFoldAttrArgs(A, Args))
      return nullptr;
    return Args[0];
  }
};

template <unsigned K> struct EnzymeAttrK : EnzymeAttr {
  EnzymeAttrK() : EnzymeAttr(Specs[K]) {}
};

ParsedAttrInfoRegistry::Add<EnzymeAttrK<0>> A0("enzyme_inactive", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<1>> A1("enzyme_inactive_noblock", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<2>> A2("enzyme_function_like", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<3>> A3("enzyme_shadow", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<4>> A4("enzyme_nofree", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<5>> A5("enzyme_sparse_accumulate", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<6>> A6("enzyme_shouldrecompute", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<7>> A7("enzyme_elementwise_read", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<8>> A8("enzyme_notypeanalysis", "");
ParsedAttrInfoRegistry::Add<EnzymeAttrK<9>> A9("enzyme_no_escaping_allocation", "");
static_assert(sizeof Specs / sizeof *Specs == 10, "one registry entry per attribute");

// ---------------------------------------------------------------------------
// Declarations the file uses but does not define: clang emits no annotation
// for them, so each gets a registration global, as in ClangEnzyme:
//   static void *__enzyme_inactivefn_autoreg_<n> __attribute__((used)) = &f;

const char *annotation(const Decl *D) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
    StringRef T = A->getAnnotation();
    if (T.starts_with("enzyme_"))
      return T.data();
  }
  return nullptr;
}

struct Registrar : RecursiveASTVisitor<Registrar> {
  CompilerInstance &CI;
  unsigned Count = 0;
  explicit Registrar(CompilerInstance &CI) : CI(CI) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  void error(const Decl *D, StringRef Attr, StringRef Why) {
    DiagnosticsEngine &DE = CI.getDiagnostics();
    DE.Report(D->getLocation(),
              DE.getCustomDiagID(DiagnosticsEngine::Error,
                                 "'%0' on a declaration this file does not define: %1"))
        << Attr << Why;
  }

  void registerAddress(ValueDecl *D, const char *Kind) {
    ASTContext &C = CI.getASTContext();
    SourceLocation L = D->getLocation();
    QualType PT = C.getPointerType(D->getType());
    auto *Ref = DeclRefExpr::Create(C, NestedNameSpecifierLoc(), SourceLocation(), D,
                                    false, L, D->getType(), VK_LValue);
    Expr *Addr = UnaryOperator::Create(C, Ref, UO_AddrOf, PT, VK_PRValue, OK_Ordinary, L,
                                       false, FPOptionsOverride());
    std::string Name = std::string("__enzyme_") + Kind + "_autoreg_" +
                       std::to_string(Count++);
    auto *V = VarDecl::Create(C, C.getTranslationUnitDecl(), L, L,
                              &C.Idents.get(Name), PT, C.getTrivialTypeSourceInfo(PT, L),
                              SC_Static);
    V->setInit(Addr);
    V->setImplicit();
    V->addAttr(UsedAttr::CreateImplicit(C));
    CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(V));
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    const char *T = annotation(F);
    if (!T || F != F->getCanonicalDecl() || F->isDefined() || !F->isUsed() ||
        F->isDependentContext())
      return true;
    StringRef Text(T);
    if (Text.starts_with("enzyme_function_like="))
      error(F, "enzyme_function_like",
            "define the function in this file, or register it with "
            "__enzyme_function_like (README)");
    else if (auto *M = dyn_cast<CXXMethodDecl>(F); M && !M->isStatic())
      error(F, "enzyme_inactive", "define the member function in this file");
    else
      registerAddress(F, "inactivefn");
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    const char *T = annotation(V);
    if (!T || V != V->getCanonicalDecl() || !V->hasGlobalStorage() ||
        V->hasDefinition() != VarDecl::DeclarationOnly || !V->isUsed() ||
        V->isTemplated())
      return true;
    if (StringRef(T) == "enzyme_shadow")
      error(V, "enzyme_shadow", "put the attribute on the definition of the global");
    else
      registerAddress(V, "inactive_global");
    return true;
  }
};

// ---------------------------------------------------------------------------
// The action: registration globals at the end of the file, and the pass.

class Consumer : public ASTConsumer {
  CompilerInstance &CI;

public:
  explicit Consumer(CompilerInstance &CI) : CI(CI) {
    PassLoader &L = passLoader();
    DiagnosticsEngine &DE = CI.getDiagnostics();
    if (!L.Plugin) {
      DE.Report(DE.getCustomDiagID(DiagnosticsEngine::Error,
                                   "ClangLeantape: cannot load the Leantape pass "
                                   "plugin '%0': %1"))
          << L.Path << L.Error;
      return;
    }
    // given -fpass-plugin=.../LLVMLeantape.so as well: clang runs it already
    CodeGenOptions &CG = CI.getCodeGenOpts();
    for (const std::string &P : CG.PassPlugins)
      if (llvm::sys::path::filename(P) == "LLVMLeantape.so")
        return;
    const llvm::PassPlugin *Pass = &*L.Plugin;
    CG.PassBuilderCallbacks.push_back(
        [Pass](llvm::PassBuilder &PB) { Pass->registerPassBuilderCallbacks(PB); });
  }

  void HandleTranslationUnit(ASTContext &C) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    Registrar R(CI);
    R.TraverseDecl(C.getTranslationUnitDecl());
  }
};

class Action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(CI);
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

FrontendPluginRegistry::Add<Action> X("leantape", "Leantape: Enzyme's attributes "
                                                  "and the Leantape pass");

} // namespace
