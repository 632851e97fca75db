#include "FileAnalysis.h"

#include "clang/Basic/Stack.h"

#include "PreambleCache.h"
#include "TUAnalyzer.h"
#include "cache/ContentHash.h"
#include "cache/Dependencies.h"
#include "cache/ResultCache.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include <fmt/format.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace graphsafe::lint {

using namespace clang;

namespace {

// Keeps the first few errors of a TU so the report can say why it failed.
class ErrorCollector : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || Errors.size() >= 3)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    std::string Where;
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        Where = fmt::format("{}:{}:{}: ", P.getFilename(), P.getLine(), P.getColumn());
    }
    Errors.push_back(Where + Msg.str().str());
  }
  std::vector<std::string> Errors;
};

class AnalyzeAction : public ASTFrontendAction {
public:
  AnalyzeAction(const RuleSet &Rules, TUSummary &Out, std::vector<Dependency> &Deps)
      : Rules(Rules), Out(Out), Deps(Deps) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return makeTUAnalyzer(Rules, Out);
  }
  void EndSourceFileAction() override {
    std::vector<Dependency> Mine = dependenciesOf(getCompilerInstance().getSourceManager());
    Deps.insert(Deps.end(), Mine.begin(), Mine.end());
  }

private:
  const RuleSet &Rules;
  TUSummary &Out;
  std::vector<Dependency> &Deps;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(const RuleSet &Rules, const PreambleCache &Preambles, TUSummary &Out,
                std::vector<Dependency> &Deps)
      : Rules(Rules), Preambles(Preambles), Out(Out), Deps(Deps) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnalyzeAction>(Rules, Out, Deps);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *Diags) override {
    PreambleUse Use = Preambles.apply(*Invocation, *Files);
    PreambleMissing |= Use.Missing;
    Deps.insert(Deps.end(), Use.Headers.begin(), Use.Headers.end());
    return FrontendActionFactory::runInvocation(std::move(Invocation), Files, std::move(PCHOps),
                                                Diags);
  }
  bool PreambleMissing = false;

private:
  const RuleSet &Rules;
  const PreambleCache &Preambles;
  TUSummary &Out;
  std::vector<Dependency> &Deps;
};

// Builds the preamble and runs no analysis.
class PreambleFactory : public tooling::ToolAction {
public:
  explicit PreambleFactory(const PreambleCache &Preambles) : Preambles(Preambles) {}
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *) override {
    Built |= Preambles.build(*Invocation, *Files, std::move(PCHOps));
    return true;
  }
  bool Built = false;

private:
  const PreambleCache &Preambles;
};

// Runs Action on File's compile commands as graphlint adjusts them,
// diagnostics to Diags and nowhere else.
int runTool(const AnalysisSetup &Setup, const std::string &File, DiagnosticConsumer &Diags,
            tooling::ToolAction &Action) {
  tooling::ClangTool Tool(Setup.DB, {File});
  Tool.appendArgumentsAdjuster(makeArgumentsAdjuster(Setup.TC));
  Tool.setDiagnosticConsumer(&Diags);
  Tool.setPrintErrorMessage(false);
  return Tool.run(&Action);
}

// The file and its compile commands as graphlint will run them, under
// graphlint's and the rules' fingerprint: what stays the same while the
// file's text is edited.
std::string commandKey(const AnalysisSetup &Setup, const std::string &File) {
  KeyBuilder K;
  K.add(Setup.Fingerprint).add(fs::absolute(File).lexically_normal().string());
  auto Adjust = makeArgumentsAdjuster(Setup.TC);
  for (const auto &Cmd : Setup.DB.getCompileCommands(File)) {
    K.add(Cmd.Directory);
    for (const auto &Arg : Adjust(Cmd.CommandLine, File))
      K.add(Arg);
  }
  return K.final();
}

} // namespace

FileResult analyzeFile(const AnalysisSetup &Setup, const std::string &File, bool PreambleAhead) {
  // As clang's own driver does: lets Clang see how much stack this thread
  // has left and move deep recursion (a generated 100,000-term expression)
  // onto a fresh stack instead of overflowing.
  clang::noteBottomOfStack();
  FileResult R;
  R.Summary.File = File;
  std::error_code EC;
  if (!fs::exists(File, EC)) {
    R.Errors.push_back({File, "file does not exist"});
    return R;
  }
  if (isCudaSource(File) && Setup.TC.CudaPath.empty()) {
    R.Errors.push_back({File, "CUDA source, but no CUDA installation found; pass --cuda-path DIR"});
    return R;
  }
  ResultCache Results(Setup.Cache);
  std::optional<std::string> Text = Setup.Cache.enabled() ? fileHash(File) : std::nullopt;
  std::string Command = Text ? commandKey(Setup, File) : "";
  std::string Key = Text ? KeyBuilder().add(Command).add(*Text).final() : "";
  // A file analysed before is being edited: its next parses want a
  // preamble. A first (cold) analysis of many files does without: a preamble
  // costs a parse of its own and disk space, for files that may not change.
  std::string Seen = Text ? Setup.Cache.pathOf("seen", Command, "") : "";
  bool Edited = !Seen.empty() && Setup.Cache.read(Seen).has_value();
  if (!Key.empty())
    if (std::optional<TUSummary> Hit = Results.lookup(Key)) {
      R.Summary = std::move(*Hit);
      R.Summary.File = File;
      R.FromCache = true;
      return R;
    }

  ErrorCollector Diags;
  std::vector<Dependency> Deps;
  PreambleCache Preambles(Setup.Cache, Setup.Fingerprint);
  ActionFactory Factory(Setup.Rules, Preambles, R.Summary, Deps);
  int RC = runTool(Setup, File, Diags, Factory);
  R.WantsPreamble = Factory.PreambleMissing && (Edited || PreambleAhead);
  if (!Diags.Errors.empty()) {
    std::string All;
    for (const auto &E : Diags.Errors)
      All += (All.empty() ? "" : "; ") + E;
    R.Errors.push_back({File, "does not parse (findings for it may be incomplete): " + All});
  }
  if (RC != 0 && Diags.Errors.empty())
    R.Errors.push_back({File, "could not be analysed (no compile command or a driver error)"});
  // Only clean parses are cached: a failure is reported again next time.
  if (!Key.empty() && R.Errors.empty() && !Deps.empty()) {
    Results.store(Key, R.Summary, Deps);
    if (!Edited)
      Setup.Cache.write(Seen, "");
  }
  return R;
}

bool buildPreamble(const AnalysisSetup &Setup, const std::string &File) {
  clang::noteBottomOfStack();
  if (!Setup.Cache.enabled())
    return false;
  IgnoringDiagConsumer Quiet;
  PreambleCache Preambles(Setup.Cache, Setup.Fingerprint);
  PreambleFactory Factory(Preambles);
  runTool(Setup, File, Quiet, Factory);
  return Factory.Built;
}

} // namespace graphsafe::lint
