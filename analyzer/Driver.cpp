#include "Driver.h"

#include "KeepUntilExit.h"
#include "ParallelFor.h"
#include "PreambleBuilder.h"
#include "Progress.h"

#include "Reachability.h"
#include "Shards.h"
#include "Suppressions.h"
#include "cache/CacheKeys.h"
#include "cache/CacheStore.h"
#include "cxx/CompilerSetup.h"
#include "cxx/FileAnalysis.h"
#include "cxx/checks/Check.h"
#include "graphsafe/Baseline.h"
#include "graphsafe/ReportWriter.h"
#include "graphsafe/Rule.h"
#include "graphsafe/Subprocess.h"
#include "python/PyAnalysis.h"
#include "python/checks/PyCheck.h"
#include "python/resolve/CallGraphExport.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

namespace fs = std::filesystem;

namespace graphsafe::lint {

using namespace clang;

namespace {

std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const Options &Opts, const std::string &FirstFile, std::string &Error) {
  if (Opts.HaveCompilerArgs)
    return std::make_unique<tooling::FixedCompilationDatabase>(".", Opts.CompilerArgs);
  if (!Opts.BuildPath.empty()) {
    std::string Err;
    auto DB = tooling::CompilationDatabase::loadFromDirectory(Opts.BuildPath, Err);
    if (!DB)
      Error = fmt::format("{}: no usable compile_commands.json ({}); configure the build with "
                          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or pass compiler flags after '--'",
                          Opts.BuildPath, Err);
    return DB;
  }
  std::string Err;
  if (!FirstFile.empty())
    if (auto DB = tooling::CompilationDatabase::autoDetectFromSource(FirstFile, Err))
      return DB;
  // Like clang-tidy without a database: parse with no extra flags.
  return std::make_unique<tooling::FixedCompilationDatabase>(
      ".", std::vector<std::string>{"-std=c++17"});
}

// The cache lives next to the compile database (in .cache/graphlint/ of its
// folder) unless --cache-dir names another; without a database file there is
// no natural place, so flags after `--` cache only with --cache-dir.
std::string cacheFolder(const Options &Opts) {
  if (Opts.NoCache)
    return "";
  if (!Opts.CacheDir.empty())
    return Opts.CacheDir;
  if (Opts.HaveCompilerArgs)
    return "";
  fs::path DbDir;
  std::error_code EC;
  if (!Opts.BuildPath.empty())
    DbDir = Opts.BuildPath;
  else if (!Opts.Files.empty())
    for (fs::path D = fs::absolute(Opts.Files.front()).parent_path(); !D.empty();
         D = D.parent_path()) {
      if (fs::exists(D / "compile_commands.json", EC)) {
        DbDir = D;
        break;
      }
      if (D == D.root_path())
        break;
    }
  return DbDir.empty() ? "" : (DbDir / ".cache" / "graphlint").string();
}

// The top folder of the git work tree Dir is in; empty outside one (or
// without git).
std::string gitTopLevel(const std::string &Dir) {
  std::string Top;
  if (!onPath("git") || runProgram({"git", "-C", Dir, "rev-parse", "--show-toplevel"}, &Top) != 0)
    return "";
  while (!Top.empty() && (Top.back() == '\n' || Top.back() == '\r'))
    Top.pop_back();
  return Top;
}

// Python results cache beside the C++ ones; without a compile database, in
// .cache/graphlint at the top of the git work tree the files are in (where
// clangd and ruff keep theirs), which git is told to ignore there.
std::string pythonCacheFolder(const Options &Opts, const std::vector<std::string> &PyFiles) {
  if (Opts.NoCache || PyFiles.empty())
    return "";
  if (std::string Folder = cacheFolder(Opts); !Folder.empty())
    return Folder;
  std::string Top = gitTopLevel(fs::path(PyFiles.front()).parent_path().string());
  if (Top.empty())
    return "";
  fs::path Root = fs::path(Top) / ".cache" / "graphlint";
  std::error_code EC;
  if (!fs::exists(Root / ".gitignore", EC) && fs::create_directories(Root, EC))
    std::ofstream(Root / ".gitignore") << "# graphlint's cache: nothing here belongs in git.\n*\n";
  return Root.string();
}

// A directory argument: its Python files, recursively, minus what
// git ignores when it is in a git work tree (asked of git itself, so every
// .gitignore rule holds); otherwise minus hidden folders, virtualenvs and caches.
std::vector<std::string> filesUnder(const std::string &Dir) {
  std::vector<std::string> Out;
  std::string Listing;
  std::string Top = gitTopLevel(Dir);
  if (!Top.empty() && runProgram({"git", "-C", Dir, "ls-files", "--cached", "--others",
                                  "--exclude-standard", "--full-name", "-z", "."},
                                 &Listing) == 0) {
    for (size_t B = 0, E; B < Listing.size(); B = E + 1) {
      E = Listing.find('\0', B);
      if (E == std::string::npos)
        E = Listing.size();
      fs::path P = fs::path(Top) / Listing.substr(B, E - B);
      std::error_code EC;
      if (E > B && py::isPythonFile(P.string()) && fs::is_regular_file(P, EC))
        Out.push_back(P.string());
    }
  } else {
    std::error_code EC;
    for (auto It = fs::recursive_directory_iterator(Dir, EC); !EC && It != fs::end(It);
         It.increment(EC)) {
      std::string Name = It->path().filename().string();
      if (It->is_directory() && py::isSkippedFolder(Name)) {
        It.disable_recursion_pending();
        continue;
      }
      if (It->is_regular_file() && py::isPythonFile(It->path().string()))
        Out.push_back(It->path().string());
    }
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

// The rules from the bundled folder and --rules; what is wrong with them goes
// into the report's errors.
RuleSet loadRuleSet(const Options &Opts, std::vector<std::string> &Dirs, Report &Rep) {
  Dirs = Opts.RuleDirs;
  std::string Bundled = defaultRulesDir(Opts.Argv0);
  if (!Bundled.empty())
    Dirs.insert(Dirs.begin(), Bundled);
  std::vector<RuleError> RuleErrors;
  RuleSet Rules = loadRules(Dirs, RuleErrors);
  for (const auto &E : RuleErrors)
    Rep.Errors.push_back({E.File + (E.Line ? ":" + std::to_string(E.Line) : ""), E.Message});
  for (const auto &R : Rules.Rules) {
    for (const auto &C : R.Match)
      if (C.K == MatchClause::Kind::Check)
        for (const auto &N : C.Names)
          if (!knownCheckNames().count(N))
            Rep.Errors.push_back({fmt::format("{}:{}", R.File, C.Line),
                                  fmt::format("unknown check '{}' in rule '{}'", N, R.Id)});
    for (const auto &C : R.Python.Match)
      if (C.K == MatchClause::Kind::Check)
        for (const auto &N : C.Names)
          if (!py::knownPyCheckNames().count(N))
            Rep.Errors.push_back({fmt::format("{}:{}", R.File, C.Line),
                                  fmt::format("unknown Python check '{}' in rule '{}'", N, R.Id)});
  }
  if (Rules.Rules.empty())
    Rep.Errors.push_back({"rules", "no rules loaded; pass --rules DIR or set GRAPHSAFE_RULES_DIR"});
  return Rules;
}

struct Inputs {
  Analysis A;              // Its file lists, named files first.
  py::SourceRoots PyRoots; // Where Python module names start.
  std::unique_ptr<tooling::CompilationDatabase> DB;
  std::vector<std::string> PreamblesWanted; // Built after the report (PreambleBuilder.h).
};

// A run naming at most this many C++ files (a pre-commit run) builds their
// preambles ahead, so that their first edit already parses against one.
constexpr size_t MaxPreamblesAhead = 8;

// What the C++ front end needs for every file of a run.
struct CxxSetup {
  CxxSetup(const Options &Opts, const RuleSet &Rules, const std::string &Fingerprint,
           const tooling::CompilationDatabase *DB)
      : TC(detectToolchain(Opts.Argv0, Opts.CudaPath)),
        Cache(cacheFolder(Opts), Opts.CacheSizeMiB << 20),
        NoDB(".", {}), Setup{DB ? *DB : static_cast<const tooling::CompilationDatabase &>(NoDB), TC,
                             Rules, Cache, Cache.enabled() ? Fingerprint : ""} {}
  Toolchain TC;
  CacheStore Cache;
  tooling::FixedCompilationDatabase NoDB;
  AnalysisSetup Setup;
};

// Stage 1: the files to analyse. Named files first, then their context: the
// rest of the compile database for C++ files (a capture region in another
// file can reach them), the rest of the git work tree for Python files.
bool collectInputs(const Options &Opts, const fs::path &StartDir, Inputs &In, std::string &Error) {
  // Directories name their Python files (C++ files need their compile
  // commands, so they come from the database).
  std::vector<std::string> &Files = In.A.CxxFiles, &PyFiles = In.A.PyFiles;
  std::string FirstNamedPy;
  for (const auto &F : Opts.Files) {
    std::error_code EC;
    bool Folder = fs::is_directory(F, EC);
    std::vector<std::string> Expanded = Folder ? filesUnder(F) : std::vector<std::string>{F};
    for (auto &E : Expanded)
      (py::isPythonFile(E) ? PyFiles : Files).push_back((StartDir / E).lexically_normal().string());
    if (!Folder && py::isPythonFile(F) && FirstNamedPy.empty())
      FirstNamedPy = PyFiles.back();
  }
  In.A.NamedPy = PyFiles.size();
  std::string Top =
      FirstNamedPy.empty() ? "" : gitTopLevel(fs::path(FirstNamedPy).parent_path().string());
  std::vector<std::string> GivenPy;
  for (const auto &F : Opts.Files)
    if (std::error_code EC; fs::is_directory(F, EC) || py::isPythonFile(F))
      GivenPy.push_back((StartDir / F).lexically_normal().string());
  In.PyRoots = py::SourceRoots::of(GivenPy, Top);
  if (!Top.empty()) {
    std::set<std::string> Have(PyFiles.begin(), PyFiles.end());
    for (const auto &F : filesUnder(Top))
      if (std::string N = fs::path(F).lexically_normal().string(); Have.insert(N).second)
        PyFiles.push_back(N);
  }
  const bool WantCxx = !Files.empty() || !Opts.BuildPath.empty() || Opts.HaveCompilerArgs;
  In.DB = WantCxx ? loadDatabase(Opts, Files.empty() ? "" : Files.front(), Error) : nullptr;
  if (WantCxx && !In.DB)
    return false;
  const bool Subset = !Files.empty() || !PyFiles.empty();
  std::set<std::string> Named;
  for (const auto &F : Files)
    Named.insert(fs::absolute(F).lexically_normal().string());
  In.A.NamedCxx = Files.size();
  if (In.DB)
    for (const auto &F : In.DB->getAllFiles())
      if (!Named.count(fs::absolute(F).lexically_normal().string()))
        Files.push_back(F);
  if (!Subset)
    In.A.NamedCxx = Files.size();
  if (Files.empty() && PyFiles.empty()) {
    Error = "no input files; name files or folders, or pass -p BUILD_DIR to analyse the whole "
            "compile database";
    return false;
  }
  return true;
}

// Stage 2: each front end summarises its files (a shard: its part of them).
// Fingerprint names this graphlint build and rule set (cache keys, shards).
void analyse(const Options &Opts, const RuleSet &Rules, const std::string &Fingerprint,
             const ShardSpec &Shard, Inputs &In) {
  Analysis &A = In.A;
  CxxSetup Cxx(Opts, Rules, Fingerprint, In.DB.get());
  const AnalysisSetup &Setup = Cxx.Setup;
  CacheStore &Cache = Cxx.Cache;
  const bool Ahead = !Opts.Files.empty() && A.NamedCxx <= MaxPreamblesAhead;
  std::vector<char> Wanted(A.CxxFiles.size(), 0);
  A.CxxSummaries.assign(A.CxxFiles.size(), {});
  A.CxxErrors.assign(A.CxxFiles.size(), {});
  std::vector<size_t> Mine;
  for (size_t I = 0; I < A.CxxFiles.size(); ++I)
    if (Shard.mine(I))
      Mine.push_back(I);
  std::atomic<size_t> Cached{0};
  const ProgressMode Shown = progressModeFor(Opts.Progress, Opts.Quiet);
  Progress CxxProgress(Shown, Mine.size(), "", std::cerr);
  parallelFor(Mine.size(), Opts.Jobs, [&](size_t J) {
    size_t I = Mine[J];
    FileResult R = analyzeFile(Setup, A.CxxFiles[I], Ahead && I < A.NamedCxx);
    Wanted[I] = R.WantsPreamble;
    CxxProgress.fileDone(A.CxxFiles[I], R.FromCache);
    Cached += R.FromCache;
    A.CxxSummaries[I] = std::move(R.Summary);
    A.CxxErrors[I] = std::move(R.Errors);
  });
  CxxProgress.finish();
  for (size_t I = 0; I < Wanted.size(); ++I)
    if (Wanted[I])
      In.PreamblesWanted.push_back(A.CxxFiles[I]);
  Cache.trim();
  if (Opts.CacheStats && (!A.CxxFiles.empty() || A.PyFiles.empty()))
    std::cerr << (Cache.enabled() ? fmt::format("graphlint: cache: {} of {} translation units "
                                                "from the cache in {}\n",
                                                Cached.load(), Mine.size(), Cache.root())
                                  : std::string("graphlint: cache: off\n"));

  size_t PyMine = 0;
  for (size_t I = 0; I < A.PyFiles.size(); ++I)
    PyMine += Shard.mine(I);
  Progress PyProgress(Shown, PyMine, "python ", std::cerr);
  CacheStore PyStore(pythonCacheFolder(Opts, A.PyFiles), Opts.CacheSizeMiB << 20);
  py::PyCacheSetup PyCache{&PyStore, Fingerprint};
  py::PyResult Py = py::analyzePythonFiles(
      A.PyFiles, In.PyRoots, Rules, Opts.Jobs, &PyProgress,
      Shard.N > 1 ? std::function<bool(size_t)>([&](size_t I) { return Shard.mine(I); }) : nullptr,
      &PyCache);
  PyProgress.finish();
  PyStore.trim();
  if (Opts.CacheStats && !A.PyFiles.empty())
    std::cerr << (PyStore.enabled() && Shard.N <= 1
                      ? fmt::format(
                            "graphlint: cache: {} of {} Python files from the cache in {}\n",
                            Py.FromCache, A.PyFiles.size(), PyStore.root())
                      : std::string("graphlint: cache: off for Python files\n"));
  A.PySummaries = std::move(Py.Summaries);
  A.PyErrors = std::move(Py.Errors);
  A.PyWarnings = std::move(Py.Warnings);
}

// Stage 3: one report from the summaries of every file: reachability across
// files and languages, then what is reported of the named files only,
// suppressions and the baseline.
void joinFindings(const Options &Opts, const fs::path &StartDir, const RuleSet &Rules, Analysis &A,
                  Report &Rep) {
  // A context file that does not parse costs reachability through it, not
  // the named files' report.
  for (size_t I = 0; I < A.NamedCxx; ++I)
    Rep.Errors.insert(Rep.Errors.end(), A.CxxErrors[I].begin(), A.CxxErrors[I].end());
  for (size_t I = 0; I < A.NamedPy; ++I)
    Rep.Errors.insert(Rep.Errors.end(), A.PyErrors[I].begin(), A.PyErrors[I].end());
  std::stable_sort(A.PyWarnings.begin(), A.PyWarnings.end(),
                   [](const ToolError &X, const ToolError &Y) { return X.Where < Y.Where; });
  for (auto &W : A.PyWarnings)
    if (std::any_of(A.PyFiles.begin(), A.PyFiles.begin() + A.NamedPy,
                    [&](const std::string &F) { return W.Where.rfind(F + ":", 0) == 0; }))
      Rep.Warnings.push_back(std::move(W));
  std::vector<TUSummary> Summaries = std::move(A.CxxSummaries);
  Summaries.insert(Summaries.end(), std::make_move_iterator(A.PySummaries.begin()),
                   std::make_move_iterator(A.PySummaries.end()));

  Rep.Findings = findingsFromSummaries(Summaries, Rules, Opts.ExplainReach);
  if (!Opts.CallGraph.empty()) {
    std::map<std::string, std::string> CxxNames;
    for (const auto &TU : Summaries)
      for (const auto &F : TU.Functions)
        if (F.Usr.rfind("py:", 0) != 0)
          CxxNames.emplace(F.Usr, F.Name);
    std::ofstream Out(StartDir / Opts.CallGraph);
    Out << py::callGraphJson(resolvedCalls(Summaries, Rules, !Opts.CallGraphAll), CxxNames,
                             Opts.CallGraphSites)
               .dump(2)
        << "\n";
    if (!Out)
      Rep.Errors.push_back({Opts.CallGraph, "cannot write the call graph there; check that its "
                                            "folder exists and is writable"});
  }
  // Findings in the context files themselves are theirs to report; those in
  // headers stay, as when a named file includes them.
  std::set<std::string> Context;
  for (size_t I = A.NamedCxx; I < A.CxxFiles.size(); ++I)
    Context.insert(fs::absolute(A.CxxFiles[I]).lexically_normal().string());
  for (size_t I = A.NamedPy; I < A.PyFiles.size(); ++I)
    Context.insert(A.PyFiles[I]);
  Rep.Findings.erase(
      std::remove_if(Rep.Findings.begin(), Rep.Findings.end(),
                     [&](const Finding &F) {
                       return !F.Loc.File.empty() &&
                              Context.count(fs::absolute(F.Loc.File).lexically_normal().string());
                     }),
      Rep.Findings.end());
  std::vector<std::string> Analysed;
  for (const auto &F : A.CxxFiles)
    Analysed.push_back(fs::absolute(F).lexically_normal().string());
  for (size_t I = 0; I < A.NamedPy; ++I)
    Analysed.push_back(A.PyFiles[I]);
  const Rule *Missing = Rules.find("suppression-missing-reason");
  SuppressionFilter().apply(Rep.Findings, Analysed, Missing ? Missing->Id : "",
                            Missing ? Missing->Level : Severity::Warning);
  // The files the user asked about: context files lend their code, not cases.
  for (size_t I = 0; I < A.NamedCxx; ++I)
    Rep.Units.push_back(fs::absolute(A.CxxFiles[I]).lexically_normal().string());
  Rep.Units.insert(Rep.Units.end(), A.PyFiles.begin(), A.PyFiles.begin() + A.NamedPy);
  Rep.sort();

  Baseline Base;
  Base.setRoot(StartDir.string());
  if (!Opts.Baseline.empty()) {
    std::string Err;
    if (Base.load((StartDir / Opts.Baseline).string(), Err))
      Base.filter(Rep);
    else
      Rep.Errors.push_back({Opts.Baseline, Err});
  }
  if (!Opts.WriteBaseline.empty()) {
    std::string Err;
    if (!Base.save((StartDir / Opts.WriteBaseline).string(), Rep, Err))
      Rep.Errors.push_back({Opts.WriteBaseline, Err});
  }
  Rep.Complete = Rep.Errors.empty();
  dropAtExit(std::move(Summaries));
}

// Stage 4: the report, in the format asked, where asked.
int writeOut(const Options &Opts, const fs::path &StartDir, const RuleSet &Rules,
             ReportFormat Format, Severity FailOn, const Report &Rep) {
  WriteOptions WO;
  WO.Rules = &Rules;
  WO.ToolName = "graphlint";
  WO.ToolVersion = GRAPHSAFE_VERSION;
  WO.InformationUri = GRAPHSAFE_INFORMATION_URI;
  WO.ShowSource = Opts.ShowSource;
  WO.BaseDir = StartDir.string();
  if (Opts.Output.empty() || Opts.Output == "-") {
    writeReport(Format, std::cout, Rep, WO);
  } else {
    std::ofstream OS(StartDir / Opts.Output);
    if (!OS) {
      std::cerr << "graphlint: error: cannot write " << Opts.Output << "\n";
      return 2;
    }
    writeReport(Format, OS, Rep, WO);
    if (Format != ReportFormat::Text)
      for (const auto &E : Rep.Errors)
        std::cerr << "graphlint: error: " << E.Where << ": " << E.Message << "\n";
  }
  if (!Rep.Errors.empty())
    return 2;
  return Rep.hasFindingAtOrAbove(FailOn) ? 1 : 0;
}

// The detached process startPreambleBuilder starts: the named files'
// preambles, one after another, and no report.
int buildPreambles(const Options &Opts, const fs::path &StartDir, const RuleSet &Rules,
                   const std::string &Fingerprint) {
  Options Named = Opts;
  Named.Files = Opts.BuildPreamblesFor;
  Inputs In;
  std::string Error;
  if (!collectInputs(Named, StartDir, In, Error) || !In.DB)
    return 2;
  CxxSetup Cxx(Named, Rules, Fingerprint, In.DB.get());
  for (size_t I = 0; I < In.A.NamedCxx; ++I)
    buildPreamble(Cxx.Setup, In.A.CxxFiles[I]);
  return 0;
}

} // namespace

// The pipeline: rules, inputs, per-front-end analysis (or the shards of a
// sharded run read back), findings joined across files, the report.
int runGraphlint(const Options &Opts) {
  // ClangTool changes the process's working directory to each compile
  // command's, and parallel jobs do so at once: every path graphlint holds is
  // made absolute against the directory it started in, before any of that.
  const fs::path StartDir = fs::current_path();
  Report Rep;
  Rep.Tool = "graphlint";
  auto Format = parseReportFormat(Opts.Format);
  auto FailOn = parseSeverity(Opts.FailOn);
  if (!Format || !FailOn) {
    std::cerr << "graphlint: --format must be text, json, sarif or junit and --fail-on error, "
                 "warning or note\n";
    return 2;
  }
  auto Shard = parseShard(Opts.Shard.empty() ? "0/1" : Opts.Shard);
  if (!Shard) {
    std::cerr << "graphlint: error: --shard takes K/N with 0 <= K < N (e.g. --shard 0/4), not '"
              << Opts.Shard << "'\n";
    return 2;
  }
  std::vector<std::string> RuleDirs;
  RuleSet Rules = loadRuleSet(Opts, RuleDirs, Rep);
  if (Opts.ListRules) {
    for (const auto &R : Rules.Rules)
      if (R.Tool != "graphcheck")
        std::cout << fmt::format("{:<32} {:<8} {:<17} {}\n", R.Id, severityName(R.Level),
                                 R.Category, R.Summary);
    return Rep.Errors.empty() ? 0 : 2;
  }
  const std::string Fingerprint = toolFingerprint() + rulesFingerprint(RuleDirs);

  if (!Opts.BuildPreamblesFor.empty())
    return buildPreambles(Opts, StartDir, Rules, Fingerprint);

  Analysis A;
  std::vector<std::string> PreamblesWanted;
  if (!Opts.Merge.empty()) {
    std::vector<std::string> Paths;
    for (const auto &P : Opts.Merge)
      Paths.push_back((StartDir / P).string());
    std::string Error;
    if (!mergeShards(Paths, Fingerprint, A, Error)) {
      std::cerr << "graphlint: error: " << Error << "\n";
      return 2;
    }
  } else {
    Inputs In;
    std::string Error;
    if (!collectInputs(Opts, StartDir, In, Error)) {
      std::cerr << "graphlint: error: " << Error << "\n";
      return 2;
    }
    analyse(Opts, Rules, Fingerprint, *Shard, In);
    A = std::move(In.A);
    PreamblesWanted = std::move(In.PreamblesWanted);
    if (Shard->N > 1) {
      std::string Out = Opts.ShardOut.empty()
                            ? fmt::format("graphlint-shard-{}-of-{}.json", Shard->K, Shard->N)
                            : Opts.ShardOut;
      if (!writeShard((StartDir / Out).string(), *Shard, Fingerprint, A, Error)) {
        std::cerr << "graphlint: error: " << Error << "\n";
        return 2;
      }
      std::cerr << fmt::format("graphlint: shard {}/{} written to {}; merge every shard with "
                               "graphlint --merge FILE...\n",
                               Shard->K, Shard->N, Out);
      return Rep.Errors.empty() ? 0 : 2;
    }
  }
  joinFindings(Opts, StartDir, Rules, A, Rep);
  int Code = writeOut(Opts, StartDir, Rules, *Format, *FailOn, Rep);
  startPreambleBuilder(Opts, StartDir.string(), PreamblesWanted);
  return Code;
}

} // namespace graphsafe::lint
