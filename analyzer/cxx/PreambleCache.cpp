#include "PreambleCache.h"

#include "cache/ContentHash.h"
#include "cache/Dependencies.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PreprocessorOptions.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace graphsafe::lint {

using namespace clang;

namespace {

constexpr const char *Kind = "preambles";

// Keeps function bodies (the default callbacks skip them, as an editor can
// afford to): graphlint analyses inline and template code in headers.
class KeepBodies : public PreambleCallbacks {
public:
  bool shouldSkipFunctionBody(Decl *) override { return false; }
  // The main file was read cut to its preamble, whose text is in the key:
  // its own later edits must not invalidate the preamble.
  void AfterExecute(CompilerInstance &CI) override {
    const SourceManager &SM = CI.getSourceManager();
    Deps = dependenciesOf(SM);
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
      llvm::SmallString<256> Path(Main->getFileEntry().tryGetRealPathName());
      if (Path.empty())
        Path = Main->getName();
      SM.getFileManager().makeAbsolutePath(Path);
      llvm::erase_if(Deps, [&](const Dependency &D) { return D.Path == Path.str(); });
    }
  }
  std::vector<Dependency> Deps;
};

// What clang's own reuse of a preamble sets (PrecompiledPreamble::
// AddImplicitPreamble), with the PCH at a path of our choosing.
void usePreamble(CompilerInvocation &Inv, const std::string &Pch, PreambleBounds Bounds) {
  PreprocessorOptions &PPO = Inv.getPreprocessorOpts();
  PPO.PrecompiledPreambleBytes = {Bounds.Size, Bounds.PreambleEndsAtStartOfLine};
  PPO.ImplicitPCHInclude = Pch;
  // The headers were checked by content above; clang's own check compares
  // timestamps, which a checkout or a `touch` changes.
  PPO.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PPO.UsePredefines = false;
}

// The PCH of one build, named by the headers it was built from: a builder
// finishing while a reader checks the entry never swaps the file under it.
std::string pchPath(const std::string &Meta, const std::vector<Dependency> &Deps) {
  KeyBuilder K;
  for (const Dependency &D : Deps)
    K.add(D.Path).add(D.Hash);
  fs::path Path(Meta);
  return (Path.parent_path() / (Path.stem().string() + "-" + K.final() + ".pch")).string();
}

// Builds the preamble into the cache; false when it cannot be built (a
// header with errors: the full parse then reports them).
std::optional<std::vector<Dependency>>
buildInto(const CacheStore &Store, const CompilerInvocation &Inv, const llvm::MemoryBuffer &Main,
          PreambleBounds Bounds, FileManager &Files, std::shared_ptr<PCHContainerOperations> PCHOps,
          const std::string &Meta) {
  IgnoringDiagConsumer Ignore;
  // The engine takes shared ownership of its options.
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags = CompilerInstance::createDiagnostics(
      new DiagnosticOptions, &Ignore, /*ShouldOwnClient=*/false);
  std::string Scratch = (fs::path(Store.root()) / "tmp").string();
  std::error_code EC;
  fs::create_directories(Scratch, EC);
  KeepBodies Callbacks;
  // Templates the headers use are instantiated once, into the PCH, instead
  // of at the end of every parse that reuses it (most of a libtorch TU).
  CompilerInvocation ForPch(Inv);
  ForPch.getLangOpts().PCHInstantiateTemplates = true;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      ForPch, &Main, Bounds, *Diags, Files.getVirtualFileSystemPtr(), PCHOps,
      /*StoreInMemory=*/false, Scratch, Callbacks);
  if (!Built || Callbacks.Deps.empty())
    return std::nullopt;
  // The built PCH sits in a temporary file that dies with `Built`; where it
  // is comes out of the invocation clang would use to read it.
  CompilerInvocation Probe(Inv);
  auto VFS = Files.getVirtualFileSystemPtr();
  auto Copy = llvm::MemoryBuffer::getMemBufferCopy(Main.getBuffer(), Main.getBufferIdentifier());
  Built->AddImplicitPreamble(Probe, VFS, Copy.get());
  Probe.getPreprocessorOpts().clearRemappedFiles();
  std::string Temporary = Probe.getPreprocessorOpts().ImplicitPCHInclude;
  std::string Pch = pchPath(Meta, Callbacks.Deps);
  if (Temporary.empty() || !Store.commit(Temporary, Pch))
    return std::nullopt;
  nlohmann::json Body = {{"pch", fs::path(Pch).filename().string()}};
  if (!writeEntry(Store, Meta, std::move(Body), Callbacks.Deps))
    return std::nullopt;
  return std::move(Callbacks.Deps);
}

struct ValidPreamble {
  std::string Pch;
  std::vector<Dependency> Deps;
};

// The cached preamble and its dependencies, when it exists and they are
// unchanged.
std::optional<ValidPreamble> stillValid(const CacheStore &Store, const std::string &Meta) {
  ValidPreamble Out;
  std::optional<nlohmann::json> Body = readFreshEntry(Store, Meta, &Out.Deps);
  if (!Body || !Body->contains("pch") || !(*Body)["pch"].is_string())
    return std::nullopt;
  // A bare file name: an entry cannot point outside its folder.
  std::string Name = (*Body)["pch"].get<std::string>();
  if (Name.empty() || Name.find('/') != std::string::npos)
    return std::nullopt;
  Out.Pch = (fs::path(Meta).parent_path() / Name).string();
  std::error_code EC;
  if (!fs::exists(Out.Pch, EC))
    return std::nullopt;
  Store.touch(Out.Pch);
  return Out;
}

// One process builds a preamble; the others parse without it meanwhile. A
// mark older than this is a builder that died (or a preamble that cannot be
// built, retried that often).
constexpr auto BuildMarkLifetime = std::chrono::minutes(10);

bool claimBuild(const std::string &Mark) {
  std::error_code EC;
  fs::create_directories(fs::path(Mark).parent_path(), EC);
  if (fs::exists(Mark, EC)) {
    auto Age = fs::file_time_type::clock::now() - fs::last_write_time(Mark, EC);
    if (EC || Age < BuildMarkLifetime)
      return false;
    fs::remove(Mark, EC);
  }
  int Fd = ::open(Mark.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (Fd < 0)
    return false;
  ::close(Fd);
  return true;
}

} // namespace

struct PreambleCache::Slot {
  std::unique_ptr<llvm::MemoryBuffer> Main;
  PreambleBounds Bounds{0, false};
  std::string Meta;
};

std::optional<PreambleCache::Slot> PreambleCache::locate(const CompilerInvocation &Inv,
                                                         FileManager &Files) const {
  if (!Store.enabled() || Inv.getFrontendOpts().Inputs.size() != 1)
    return std::nullopt;
  const std::string MainFile = Inv.getFrontendOpts().Inputs[0].getFile().str();
  auto Main = Files.getBufferForFile(MainFile);
  if (!Main)
    return std::nullopt;
  PreambleBounds Bounds = Lexer::ComputePreamble((*Main)->getBuffer(), Inv.getLangOpts());
  if (Bounds.Size == 0)
    return std::nullopt;
  KeyBuilder K;
  K.add(Fingerprint).add((*Main)->getBuffer().substr(0, Bounds.Size));
  K.add(Bounds.PreambleEndsAtStartOfLine ? "eol" : "mid");
  for (const std::string &Arg : Inv.getCC1CommandLine())
    K.add(Arg);
  std::string Key = K.final();
  std::string Meta = Store.pathOf(Kind, Key, ".json");
  return Slot{std::move(*Main), Bounds, std::move(Meta)};
}

PreambleUse PreambleCache::apply(CompilerInvocation &Inv, FileManager &Files) const {
  PreambleUse Use;
  std::optional<Slot> S = locate(Inv, Files);
  if (!S)
    return Use;
  std::optional<ValidPreamble> Valid = stillValid(Store, S->Meta);
  if (!Valid) {
    Use.Missing = true;
    return Use;
  }
  usePreamble(Inv, Valid->Pch, S->Bounds);
  Use.Headers = std::move(Valid->Deps);
  return Use;
}

bool PreambleCache::build(const CompilerInvocation &Inv, FileManager &Files,
                          std::shared_ptr<PCHContainerOperations> PCHOps) const {
  std::optional<Slot> S = locate(Inv, Files);
  // A cache folder removed since the run that asked (a test's, a CI job's
  // scratch space) is not made again for one preamble.
  std::error_code EC;
  if (!S || !fs::is_directory(Store.root(), EC) || stillValid(Store, S->Meta))
    return false;
  std::string Mark = S->Meta + ".building";
  if (!claimBuild(Mark))
    return false;
  bool Built =
      buildInto(Store, Inv, *S->Main, S->Bounds, Files, std::move(PCHOps), S->Meta).has_value();
  // A preamble that cannot be built keeps its mark: the next try comes once
  // the mark is stale, not on every run.
  if (Built)
    fs::remove(Mark, EC);
  return Built;
}

} // namespace graphsafe::lint
