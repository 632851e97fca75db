#include "PyAnalysis.h"

#include "ParallelFor.h"
#include "PyCallGraph.h"
#include "PyContext.h"
#include "checks/PyCheck.h"
#include "graphsafe/Subprocess.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace graphsafe::lint::py {

namespace {

std::string displayName(const PyFunctionDef &F, const std::string &Module) {
  if (F.IsModuleBody)
    return Module;
  if (F.IsLambda)
    return "lambda";
  if (!F.ClassQName.empty())
    return F.ClassQName.substr(F.ClassQName.rfind('.') + 1) + "." + F.Name;
  return F.Name;
}

// What callers tell about callees' parameters (PyProgram::tensorParam),
// gathered before any function is summarised.
void learnParameters(const PyProgram &P, const PyModuleInfo &M, const RuleSet &Rules,
                     std::set<std::string> &Graphed,
                     std::map<std::string, std::set<unsigned>> &TensorParams,
                     PyProgram::ByParameter &Classes, PyProgram::ByParameter &SuperClasses,
                     PyProgram::ByParameter &ClassObjects) {
  const PySource &S = *M.Src;
  PyTypeCache Cache;
  for (const auto &F : M.Functions) {
    PyTypes T(P, M, F, Cache);
    walk(F.body(), [&](TSNode N) {
      if (!is(N, "call"))
        return true;
      std::string Q = T.resolve(field(N, "function"));
      for (const auto &H : Rules.Capture.PyGraphedCallables)
        if (H.Name == Q)
          if (CallArgs A = argsOf(S, N); H.Arg < A.Positional.size())
            for (const auto &Target : graphedTargets(T, A.Positional[H.Arg]))
              if (Target.rfind("py:", 0) == 0 && P.isFunction(Target.substr(3)))
                Graphed.insert(Target.substr(3));
      for (const auto &Callee : calleesOf(T, N).Keys) {
        if (Callee.rfind("py:", 0) != 0 || !P.isFunction(Callee.substr(3)))
          continue;
        std::string Fn = Callee.substr(3);
        for (const auto &[Index, Arg] : boundArguments(P, Fn, S, N)) {
          Value V = T.valueOf(Arg);
          if (V.tensor())
            TensorParams[Fn].insert(Index);
          else if (V.K == VK::Instance && !V.Many) {
            TSNode Callee = unparen(field(N, "function"));
            bool ViaSuper = is(Callee, "attribute") && isSuperCall(T, field(Callee, "object")) &&
                            !F.ClassQName.empty();
            for (const auto &C : V.classes())
              if (P.classNamed(C)) {
                Classes[Fn][Index].insert(C);
                if (ViaSuper)
                  SuperClasses[Fn + "@" + F.ClassQName][Index].insert(C);
              }
          } else if (std::string Q = T.resolve(Arg); !Q.empty() && P.classNamed(Q)) {
            ClassObjects[Fn][Index].insert(Q);
          }
        }
      }
      return true;
    });
  }
}

void summarise(const PyProgram &P, const PyModuleInfo &M, const RuleSet &Rules,
               const std::map<std::string, const Rule *> &CheckRules,
               const std::vector<std::unique_ptr<PyCheck>> &Checks, TUSummary &Out) {
  const PySource &S = *M.Src;
  Out.File = S.path();
  PyTypeCache Cache;
  for (const auto &F : M.Functions) {
    FunctionSummary FS;
    FS.Usr = usr(F.QualName);
    FS.Name = displayName(F, M.Module);
    FS.Loc = F.IsModuleBody ? SourceLoc{S.path(), 1, 1} : S.loc(F.Node);
    // No Overrides: the Python front end dispatches each call by its
    // receiver's class itself (PyProgram::dispatch).
    PyTypes T(P, M, F, Cache);
    PyFunctionContext Ctx(T, Rules, CheckRules, FS);
    findRegions(Ctx, Rules.Capture);
    walk(Ctx.body(), [&](TSNode N) {
      if (is(N, "assignment")) {
        collectStores(T, N, Out.CallableStores);
        return true;
      }
      if (!is(N, "call"))
        return true;
      collectStores(T, N, Out.CallableStores);
      SourceLoc RegionBegin;
      CaptureContext C = Ctx.contextAt(beginOf(N), &RegionBegin);
      std::string Q = T.resolve(field(N, "function"));
      for (const auto &H : Rules.Capture.PyGraphedCallables)
        if (H.Name == Q) {
          CallArgs A = argsOf(S, N);
          if (H.Arg < A.Positional.size())
            for (const auto &Target : graphedTargets(T, A.Positional[H.Arg]))
              FS.Calls.push_back({Target, Q, S.loc(N), CaptureContext::InRegion, S.loc(N)});
        }
      if (C == CaptureContext::Outside || C == CaptureContext::Guarded)
        return true;
      Callees Cs = calleesOf(T, N);
      std::string Text = calleeText(S, N);
      // Calls into libraries are known but not followed: no tests needed.
      bool Followed = !Cs.SelfMethod.empty() ||
                      std::any_of(Cs.Keys.begin(), Cs.Keys.end(),
                                  [](const std::string &K) { return K.rfind("ext:", 0) != 0; });
      std::vector<ParamTest> When = Followed ? Ctx.testsAt(N) : std::vector<ParamTest>{};
      std::string Gate = Followed ? Ctx.envGateAt(N) : "";
      // The literals passed, by the parameters of the first project function
      // the call reaches (overrides share their signature). Not through a
      // value: a functools.partial may have bound some already.
      std::vector<ConstArg> Passed;
      for (const auto &Target : Cs.Keys)
        if (!Cs.Dynamic && Target.rfind("py:", 0) == 0 && P.isFunction(Target.substr(3))) {
          Passed = literalArguments(P, Target.substr(3), S, N);
          break;
        }
      if (!Cs.SelfMethod.empty())
        FS.Calls.push_back({"py:self:" + Cs.SelfMethod, Text, S.loc(N), C, RegionBegin, true, false,
                            Cs.SelfMethod, Cs.Receiver, When, Passed, Gate});
      else
        for (const auto &Target : Cs.Keys)
          FS.Calls.push_back({Target, Text, S.loc(N), C, RegionBegin, Cs.Exact, Cs.Dynamic, "",
                              Cs.Receiver, When, Passed, Gate});
      if (Cs.Dynamic && Cs.Keys.empty())
        FS.Calls.push_back({"py:unknown", Text, S.loc(N), C, RegionBegin, false, true});
      // A callable handed to code outside the project may run here (a hook,
      // torch.utils.checkpoint); one handed to the project's own function runs
      // where that function calls it, through its parameter.
      bool ToProject = std::any_of(Cs.Keys.begin(), Cs.Keys.end(), [&](const std::string &K) {
        return K.rfind("py:", 0) == 0 && P.isFunction(K.substr(3));
      });
      if (!ToProject) {
        CallArgs A = argsOf(S, N);
        std::vector<TSNode> Handed = A.Positional;
        for (const auto &[Name, V] : A.Keywords)
          Handed.push_back(V);
        for (TSNode Arg : Handed)
          for (const auto &Target : handedFunctions(T, Arg))
            FS.Calls.push_back({Target, std::string(S.text(Arg)), S.loc(Arg), C, RegionBegin});
      }
      return true;
    });
    for (const auto &Check : Checks)
      Check->run(Ctx);
    Out.Functions.push_back(std::move(FS));
  }
  for (const auto &[Name, C] : M.Classes) {
    ClassSummary CS;
    CS.Key = classKey(Name);
    for (const auto &B : C.Bases)
      CS.Bases.push_back(classKey(B));
    for (const auto &Method : C.Methods)
      CS.Methods[Method] = usr(Name + "." + Method);
    Out.Classes.push_back(std::move(CS));
  }
}

} // namespace

static bool compilesWithPython(const std::string &File) {
  if (!onPath("python3"))
    return false;
  return runProgram({"python3", "-c",
                     "import sys\n"
                     "compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')",
                     File}) == 0;
}

bool isPythonFile(const std::string &Path) {
  auto Dot = Path.rfind('.');
  if (Dot == std::string::npos)
    return false;
  std::string Ext = Path.substr(Dot);
  return Ext == ".py" || Ext == ".pyi";
}

PyResult analyzePythonFiles(const std::vector<std::string> &Files, const RuleSet &Rules,
                            unsigned Jobs, Progress *Shown,
                            const std::function<bool(size_t)> &Mine) {
  PyResult Res;
  Res.Summaries.resize(Files.size());
  Res.Errors.resize(Files.size());
  PyProgram P;
  P.Modules.resize(Files.size());
  // Module names first. Two trees holding a package of one name (a server
  // and its vendored fork, two scripts named train.py) must not share names:
  // every module under such a tree's root is prefixed by the root's path, and
  // its imports are looked up in its own tree first (PyProgram::link).
  std::vector<std::pair<std::string, std::string>> Names(Files.size());
  std::vector<std::string> Roots(Files.size());
  std::map<std::string, std::set<std::string>> RootsOf;
  for (size_t I = 0; I < Files.size(); ++I) {
    Names[I].first = moduleNameOf(Files[I], &Names[I].second);
    // The folder holding the top-level package: one level up per dot, and
    // one more for a package's own __init__.py.
    fs::path Root = fs::absolute(Files[I]).lexically_normal().parent_path();
    size_t Up = std::count(Names[I].first.begin(), Names[I].first.end(), '.') +
                (fs::path(Files[I]).stem() == "__init__" ? 1 : 0);
    for (; Up > 0; --Up)
      Root = Root.parent_path();
    for (const auto &Part : Root)
      if (Part != "/")
        Roots[I] += Part.string() + ".";
    RootsOf[Names[I].first].insert(Roots[I]);
  }
  std::set<std::string> Prefixed;
  for (const auto &[Name, Rs] : RootsOf)
    if (Rs.size() > 1)
      Prefixed.insert(Rs.begin(), Rs.end());
  std::atomic<size_t> Lines{0};
  std::mutex WarningsMutex;
  parallelFor(Files.size(), Jobs, [&](size_t I) {
    const std::string &File = Files[I];
    std::ifstream In(File, std::ios::binary);
    if (!In) {
      Res.Errors[I].push_back({File, "cannot read the file (does it exist?)"});
      return;
    }
    std::stringstream SS;
    SS << In.rdbuf();
    std::string Error;
    auto M = std::make_unique<PyModuleInfo>();
    M->Path = fs::absolute(File).lexically_normal().string();
    M->Module = Names[I].first;
    M->Package = Names[I].second;
    if (Prefixed.count(Roots[I])) {
      M->RootPrefix = Roots[I];
      M->Module = Roots[I] + M->Module;
      if (!M->Package.empty())
        M->Package = Roots[I] + M->Package;
    }
    M->Src = PySource::parse(File, SS.str(), Error);
    if (!M->Src) {
      Res.Errors[I].push_back({File, Error});
      return;
    }
    Lines += std::count(M->Src->text().begin(), M->Src->text().end(), '\n');
    for (const auto &[Loc, What] : M->Src->skipped())
      Res.Errors[I].push_back({fmt::format("{}:{}:{}", Loc.File, Loc.Line, Loc.Column), What});
    auto Syntax = M->Src->syntaxErrors();
    // tree-sitter's grammar lags CPython's in places (`x = *a, *b`): when the
    // local python3 compiles the file, those are gaps of graphlint's parser,
    // said as warnings, not the user's syntax errors.
    bool Gap = !Syntax.empty() && compilesWithPython(File);
    std::lock_guard<std::mutex> Lock(WarningsMutex);
    for (const auto &[Loc, What] : Syntax)
      (Gap ? Res.Warnings : Res.Errors[I])
          .push_back({fmt::format("{}:{}:{}", Loc.File, Loc.Line, Loc.Column),
                      Gap ? fmt::format("graphlint's Python parser cannot read this line ({}), "
                                        "though python3 compiles the file; findings near here "
                                        "may be missing",
                                        What)
                          : fmt::format("{}; the rest of the file is still analysed, findings "
                                        "near here may be missing",
                                        What)});
    indexModule(*M);
    P.Modules[I] = std::move(M);
  });
  // Files that could not be read leave a gap; the tables skip them.
  std::vector<std::unique_ptr<PyModuleInfo>> Present;
  std::vector<size_t> Index;
  for (size_t I = 0; I < P.Modules.size(); ++I)
    if (P.Modules[I]) {
      Index.push_back(I);
      Present.push_back(std::move(P.Modules[I]));
    }
  P.Modules = std::move(Present);
  P.link();

  std::map<std::string, const Rule *> CheckRules;
  for (const auto &R : Rules.Rules)
    for (const auto &C : R.Python.Match)
      if (C.K == MatchClause::Kind::Check)
        for (const auto &N : C.Names)
          CheckRules[N] = &R;
  auto Checks = makeAllPyChecks(Rules);
  // What callers pass is learned from every call at once; a class handed in
  // as an object (`model_class=Llama`) types the instances built from it only
  // after a first pass, so then a second one follows.
  // The second reads only the modules whose functions take classes.
  auto learnFromCallers = [&](const std::function<bool(const PyModuleInfo &)> &Reread) {
    std::vector<std::set<std::string>> Graphed(P.Modules.size());
    std::vector<std::map<std::string, std::set<unsigned>>> Params(P.Modules.size());
    std::vector<PyProgram::ByParameter> Classes(P.Modules.size()), Super(P.Modules.size()),
        ClassObjects(P.Modules.size());
    parallelFor(P.Modules.size(), Jobs, [&](size_t I) {
      if (Reread(*P.Modules[I]))
        learnParameters(P, *P.Modules[I], Rules, Graphed[I], Params[I], Classes[I], Super[I],
                        ClassObjects[I]);
    });
    auto merge = [](PyProgram::ByParameter &Into, const PyProgram::ByParameter &From) {
      for (const auto &[F, ByIndex] : From)
        for (const auto &[Index, Cs] : ByIndex)
          Into[F][Index].insert(Cs.begin(), Cs.end());
    };
    bool HandsClasses = false;
    for (size_t I = 0; I < P.Modules.size(); ++I) {
      P.GraphedEntries.insert(Graphed[I].begin(), Graphed[I].end());
      for (auto &[F, Is] : Params[I])
        P.TensorParams[F].insert(Is.begin(), Is.end());
      merge(P.ParamClasses, Classes[I]);
      merge(P.SuperParamClasses, Super[I]);
      merge(P.ParamClassObjects, ClassObjects[I]);
      HandsClasses |= !ClassObjects[I].empty();
    }
    return HandsClasses;
  };
  if (learnFromCallers([](const PyModuleInfo &) { return true; }))
    learnFromCallers([&](const PyModuleInfo &M) {
      return std::any_of(M.Functions.begin(), M.Functions.end(), [&](const PyFunctionDef &F) {
        return P.ParamClassObjects.count(F.QualName) > 0;
      });
    });
  std::vector<TUSummary> Sums(P.Modules.size());
  parallelFor(Sums.size(), Jobs, [&](size_t I) {
    if (Mine && !Mine(Index[I]))
      return;
    summarise(P, *P.Modules[I], Rules, CheckRules, Checks, Sums[I]);
    if (Shown)
      Shown->fileDone(P.Modules[I]->Path);
  });
  for (size_t I = 0; I < Index.size(); ++I)
    Res.Summaries[Index[I]] = std::move(Sums[I]);
  for (size_t I = 0; I < Files.size(); ++I)
    if (Res.Summaries[I].File.empty())
      Res.Summaries[I].File = Files[I];
  if (Mine) {
    std::set<std::string, std::less<>> Theirs;
    for (size_t I = 0; I < Files.size(); ++I)
      if (!Mine(I)) {
        Res.Errors[I].clear();
        Theirs.insert(Files[I]);
      }
    Res.Warnings.erase(std::remove_if(Res.Warnings.begin(), Res.Warnings.end(),
                                      [&](const ToolError &W) {
                                        return Theirs.count(W.Where.substr(0, W.Where.find(':')));
                                      }),
                       Res.Warnings.end());
  }
  Res.Lines = Lines;
  return Res;
}

} // namespace graphsafe::lint::py
