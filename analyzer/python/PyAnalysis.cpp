#include "PyAnalysis.h"

#include "ParallelFor.h"
#include "PyContext.h"
#include "checks/PyCheck.h"
#include "graphsafe/Subprocess.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace fs = std::filesystem;

namespace graphsafe::lint::py {

namespace {

std::string usr(const std::string &QualName) { return "py:" + QualName; }

std::string displayName(const PyFunctionDef &F, const std::string &Module) {
  if (F.IsModuleBody)
    return Module;
  if (!F.ClassQName.empty())
    return F.ClassQName.substr(F.ClassQName.rfind('.') + 1) + "." + F.Name;
  return F.Name;
}

// What calling an instance of Class runs: nn.Module's forward, or __call__.
void addInstanceCall(const PyProgram &P, const std::string &Class, std::vector<std::string> &Out) {
  for (const char *M : {"forward", "__call__"})
    if (std::string Q = P.methodOf(Class, M); !Q.empty())
      Out.push_back(usr(Q));
}

// Where a call goes: project functions and methods, constructors, a module
// instance's forward, and callables stored in attributes.
std::vector<std::string> calleesOf(const PyTypes &T, TSNode Call) {
  const PySource &S = *T.M.Src;
  std::vector<std::string> Out;
  TSNode Fn = unparen(field(Call, "function"));
  if (is(Fn, "attribute")) {
    TSNode Obj = field(Fn, "object");
    std::string Method(S.text(field(Fn, "attribute")));
    std::string Class;
    if (T.isSelf(Obj))
      Class = T.selfClass();
    else if (Value V = T.valueOf(Obj); V.K == VK::Instance)
      Class = V.Name;
    if (!Class.empty()) {
      if (std::string Q = T.P.methodOf(Class, Method); !Q.empty()) {
        Out.push_back(usr(Q));
        return Out;
      }
      // Not a method: `self.layer(x)` calls what the attribute holds (below).
    }
  }
  std::string Q = T.resolve(Fn);
  if (!Q.empty() && T.P.isFunction(Q)) {
    Out.push_back(usr(Q));
  } else if (!Q.empty() && T.P.classNamed(Q)) {
    if (std::string Init = T.P.methodOf(Q, "__init__"); !Init.empty())
      Out.push_back(usr(Init));
  } else if (Value V = T.valueOf(Fn); V.K == VK::Instance) {
    addInstanceCall(T.P, V.Name, Out);
  } else if (is(Fn, "attribute")) {
    // A callable kept in an attribute (`self.step_fn(x)`): whatever any file
    // stored there.
    Out.push_back("py:attr:" + std::string(S.text(field(Fn, "attribute"))));
  }
  return Out;
}

// make_graphed_callables((model, fn), ...): what each element captures.
std::vector<std::string> graphedTargets(const PyTypes &T, TSNode Arg) {
  std::vector<std::string> Out;
  Arg = unparen(Arg);
  if (is(Arg, "tuple") || is(Arg, "list")) {
    for (TSNode C : namedChildren(Arg)) {
      auto Sub = graphedTargets(T, C);
      Out.insert(Out.end(), Sub.begin(), Sub.end());
    }
    return Out;
  }
  std::string Q = T.resolve(Arg);
  if (!Q.empty() && T.P.isFunction(Q))
    return {usr(Q)};
  if (Value V = T.valueOf(Arg); V.K == VK::Instance)
    addInstanceCall(T.P, V.Name, Out);
  return Out;
}

// What callers tell about callees' parameters (PyProgram::tensorParam),
// gathered before any function is summarised.
void learnParameters(const PyProgram &P, const PyModuleInfo &M, const RuleSet &Rules,
                     std::set<std::string> &Graphed,
                     std::map<std::string, std::set<unsigned>> &TensorParams) {
  const PySource &S = *M.Src;
  PyTypeCache Cache;
  for (const auto &F : M.Functions) {
    PyTypes T(P, M, F, Cache);
    walk(F.body(), [&](TSNode N) {
      if (!is(N, "call"))
        return true;
      CallArgs A = argsOf(S, N);
      std::string Q = T.resolve(field(N, "function"));
      for (const auto &H : Rules.Capture.PyGraphedCallables)
        if (H.Name == Q && H.Arg < A.Positional.size())
          for (const auto &Target : graphedTargets(T, A.Positional[H.Arg]))
            Graphed.insert(Target.substr(3));
      std::vector<unsigned> Tensors;
      for (unsigned I = 0; I < A.Positional.size(); ++I)
        if (T.valueOf(A.Positional[I]).tensor())
          Tensors.push_back(I);
      if (!Tensors.empty())
        for (const auto &Callee : calleesOf(T, N))
          if (Callee.rfind("py:attr:", 0) != 0)
            TensorParams[Callee.substr(3)].insert(Tensors.begin(), Tensors.end());
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
    if (!F.ClassQName.empty())
      if (const PyClassDef *C = P.classNamed(F.ClassQName))
        for (const auto &B : C->Bases)
          if (std::string Q = P.methodOf(B, F.Name); !Q.empty())
            FS.Overrides.push_back(usr(Q));
    PyTypes T(P, M, F, Cache);
    PyFunctionContext Ctx(T, Rules, CheckRules, FS);
    findRegions(Ctx, Rules.Capture);
    walk(Ctx.body(), [&](TSNode N) {
      if (is(N, "call")) {
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
        for (const auto &Target : calleesOf(T, N))
          FS.Calls.push_back({Target, calleeText(S, N), S.loc(N), C, RegionBegin});
        // A project function handed on as an argument may run here.
        for (TSNode A : argsOf(S, N).Positional)
          if (is(A, "identifier") || is(A, "attribute"))
            if (std::string Aq = T.resolve(A); !Aq.empty() && P.isFunction(Aq))
              FS.Calls.push_back({usr(Aq), std::string(S.text(A)), S.loc(A), C, RegionBegin});
      } else if (is(N, "assignment")) {
        // obj.fn = some_function: a later obj.fn(...) call reaches it.
        TSNode L = field(N, "left"), R = field(N, "right");
        if (is(L, "attribute") && !ts_node_is_null(R))
          if (std::string Rq = T.resolve(R); !Rq.empty() && P.isFunction(Rq))
            Out.CallableStores.push_back(
                {"py:attr:" + std::string(S.text(field(L, "attribute"))), usr(Rq)});
      }
      return true;
    });
    for (const auto &Check : Checks)
      Check->run(Ctx);
    Out.Functions.push_back(std::move(FS));
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
                            unsigned Jobs) {
  PyResult Res;
  Res.Summaries.resize(Files.size());
  Res.Errors.resize(Files.size());
  PyProgram P;
  P.Modules.resize(Files.size());
  // Module names first: two scripts of one name in different folders must
  // not share one, so those take their whole path.
  std::vector<std::pair<std::string, std::string>> Names(Files.size());
  std::map<std::string, int> Uses;
  for (size_t I = 0; I < Files.size(); ++I) {
    Names[I].first = moduleNameOf(Files[I], &Names[I].second);
    ++Uses[Names[I].first];
  }
  for (size_t I = 0; I < Files.size(); ++I)
    if (Uses[Names[I].first] > 1) {
      std::string Dotted;
      fs::path Whole = fs::absolute(Files[I]).lexically_normal();
      Whole.replace_extension();
      for (const auto &Part : Whole)
        if (Part != "/")
          Dotted += (Dotted.empty() ? "" : ".") + Part.string();
      Names[I].first = Dotted;
    }
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
    M->Src = PySource::parse(File, SS.str(), Error);
    if (!M->Src) {
      Res.Errors[I].push_back({File, Error});
      return;
    }
    Lines += std::count(M->Src->text().begin(), M->Src->text().end(), '\n');
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
  {
    std::vector<std::set<std::string>> Graphed(P.Modules.size());
    std::vector<std::map<std::string, std::set<unsigned>>> Params(P.Modules.size());
    parallelFor(P.Modules.size(), Jobs,
                [&](size_t I) { learnParameters(P, *P.Modules[I], Rules, Graphed[I], Params[I]); });
    for (size_t I = 0; I < P.Modules.size(); ++I) {
      P.GraphedEntries.insert(Graphed[I].begin(), Graphed[I].end());
      for (auto &[F, Is] : Params[I])
        P.TensorParams[F].insert(Is.begin(), Is.end());
    }
  }
  std::vector<TUSummary> Sums(P.Modules.size());
  parallelFor(Sums.size(), Jobs,
              [&](size_t I) { summarise(P, *P.Modules[I], Rules, CheckRules, Checks, Sums[I]); });
  for (size_t I = 0; I < Index.size(); ++I)
    Res.Summaries[Index[I]] = std::move(Sums[I]);
  for (size_t I = 0; I < Files.size(); ++I)
    if (Res.Summaries[I].File.empty())
      Res.Summaries[I].File = Files[I];
  Res.Lines = Lines;
  return Res;
}

} // namespace graphsafe::lint::py
