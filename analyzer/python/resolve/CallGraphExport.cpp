#include "CallGraphExport.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace graphsafe::lint::py {

namespace {

// The functions and types of Python's builtins module that a call names.
bool isBuiltin(const std::string &Name) {
  static const std::set<std::string> Names = {
      "abs",        "aiter",      "all",        "anext",   "any",      "ascii",     "bin",
      "bool",       "breakpoint", "bytearray",  "bytes",   "callable", "chr",       "classmethod",
      "compile",    "complex",    "delattr",    "dict",    "dir",      "divmod",    "enumerate",
      "eval",       "exec",       "filter",     "float",   "format",   "frozenset", "getattr",
      "globals",    "hasattr",    "hash",       "help",    "hex",      "id",        "input",
      "int",        "isinstance", "issubclass", "iter",    "len",      "list",      "locals",
      "map",        "max",        "memoryview", "min",     "next",     "object",    "oct",
      "open",       "ord",        "pow",        "print",   "property", "range",     "repr",
      "reversed",   "round",      "set",        "setattr", "slice",    "sorted",    "staticmethod",
      "str",        "sum",        "super",      "tuple",   "type",     "vars",      "zip",
      "__import__", "exit",       "quit"};
  // The exception classes are builtins too (StopIteration, ValueError, ...).
  auto endsWith = [&](std::string_view Tail) {
    return Name.size() > Tail.size() &&
           Name.compare(Name.size() - Tail.size(), Tail.size(), Tail) == 0;
  };
  bool Exception = Name.find('.') == std::string::npos &&
                   (endsWith("Error") || endsWith("Exception") || endsWith("Warning") ||
                    Name == "StopIteration" || Name == "StopAsyncIteration" ||
                    Name == "KeyboardInterrupt" || Name == "SystemExit" || Name == "GeneratorExit");
  return Exception || Names.count(Name) > 0;
}

constexpr std::string_view LambdaTag = "<lambda:";

// `scope.<lambda:OFFSET>` -> (scope, offset).
bool splitLambda(const std::string &Q, std::string &Scope, long &Offset) {
  size_t At = Q.rfind(LambdaTag);
  if (At == std::string::npos || At == 0 || Q.back() != '>')
    return false;
  Scope = Q.substr(0, At - 1);
  Offset = std::stol(Q.substr(At + LambdaTag.size()));
  return true;
}

} // namespace

std::string pycgName(const std::string &Key) {
  if (Key.rfind("ext:", 0) == 0) {
    std::string Name = Key.substr(4);
    // What a library function returns, called: not known.
    if (Name.empty() || Name.back() == ')')
      return "";
    return isBuiltin(Name) ? "<builtin>." + Name : Name;
  }
  if (Key.rfind("py:", 0) != 0)
    return "";
  std::string Q = Key.substr(3);
  // Storage (py:param:, py:attr:), self calls and the unknown callee name
  // no function; a lambda's name is the only other one with a colon.
  std::string Bare = Q;
  for (size_t At; (At = Bare.find(LambdaTag)) != std::string::npos;)
    Bare.erase(At, LambdaTag.size());
  if (Bare.find(':') != std::string::npos || Q == "unknown" || Q == "shifted")
    return "";
  static constexpr std::string_view Module = ".<module>";
  if (Q.size() > Module.size() && Q.compare(Q.size() - Module.size(), Module.size(), Module) == 0)
    Q.resize(Q.size() - Module.size());
  return Q;
}

nlohmann::ordered_json callGraphJson(const ResolvedCalls &Calls,
                                     const std::map<std::string, std::string> &CxxNames,
                                     bool Sites) {
  // Lambdas are numbered per scope in source order, as PyCG names them.
  std::map<std::string, std::vector<std::pair<long, std::string>>> LambdasOf;
  std::set<std::string> Keys;
  for (const auto &[Caller, Callees] : Calls) {
    Keys.insert(Caller);
    for (const auto &[Callee, At] : Callees)
      Keys.insert(Callee);
  }
  for (const auto &K : Keys) {
    std::string Scope;
    long Offset = 0;
    if (K.rfind("py:", 0) == 0 && splitLambda(K.substr(3), Scope, Offset))
      LambdasOf[Scope].push_back({Offset, K});
  }
  std::map<std::string, std::string> Renamed;
  for (auto &[Scope, Lambdas] : LambdasOf) {
    std::sort(Lambdas.begin(), Lambdas.end());
    for (size_t I = 0; I < Lambdas.size(); ++I)
      Renamed[Lambdas[I].second] =
          pycgName("py:" + Scope) + ".<lambda" + std::to_string(I + 1) + ">";
  }
  auto name = [&](const std::string &K) {
    if (auto It = Renamed.find(K); It != Renamed.end())
      return It->second;
    if (auto It = CxxNames.find(K); It != CxxNames.end())
      return It->second;
    return pycgName(K);
  };
  std::map<std::string, std::map<std::string, CallSites>> Graph;
  for (const auto &[Caller, Callees] : Calls) {
    std::string From = name(Caller);
    if (From.empty() || (Caller.rfind("py:", 0) != 0 && !CxxNames.count(Caller)))
      continue;
    auto &To = Graph[From];
    for (const auto &[Callee, At] : Callees)
      if (std::string N = name(Callee); !N.empty()) {
        To[N].insert(At.begin(), At.end());
        Graph[N];
      }
  }
  nlohmann::ordered_json Out = nlohmann::ordered_json::object();
  for (const auto &[From, To] : Graph) {
    if (!Sites) {
      std::vector<std::string> Names;
      for (const auto &[N, At] : To)
        Names.push_back(N);
      Out[From] = Names;
      continue;
    }
    nlohmann::ordered_json Calls = nlohmann::ordered_json::array();
    for (const auto &[N, At] : To) {
      std::vector<std::string> Where;
      for (const auto &[File, Line] : At)
        Where.push_back(File + ":" + std::to_string(Line));
      Calls.push_back({{"callee", N}, {"at", Where}});
    }
    Out[From] = std::move(Calls);
  }
  return Out;
}

} // namespace graphsafe::lint::py
