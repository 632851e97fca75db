#include "ModuleSwaps.h"

#include "../PyModule.h"
#include "Containers.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <set>

namespace graphsafe::lint::py {

namespace {

// The parameter (caller-side index) whose object E is, or a part of it
// reached by computed names: getattr walks and items (`cur = model; for s in
// path: cur = getattr(cur, s)`, `cur[int(s)]`), through locals; -1
// otherwise. An attribute spelled out (`model.config`) is some other object
// than the model's submodules.
int parameterOf(const PyTypes &T, TSNode E) {
  const PySource &S = *T.M.Src;
  E = unparen(E);
  for (int Depth = 0; Depth < 8 && !ts_node_is_null(E); ++Depth) {
    if (is(E, "subscript")) {
      E = unparen(field(E, "value"));
      continue;
    }
    if (is(E, "call")) {
      TSNode Fn = unparen(field(E, "function"));
      CallArgs A = argsOf(S, E);
      if (!is(Fn, "identifier") || S.text(Fn) != "getattr" || A.Positional.size() < 2 ||
          plainString(S, A.Positional[1]))
        return -1;
      E = unparen(A.Positional[0]);
      continue;
    }
    if (!is(E, "identifier") || T.isSelf(E))
      return -1;
    std::string_view Name = S.text(E);
    if (int I = T.parameterAt(Name, beginOf(E)); I >= 0)
      return I;
    TSNode Bound = T.boundExpr(Name, beginOf(E));
    if (ts_node_is_null(Bound) || beginOf(Bound) >= beginOf(E))
      return -1;
    E = unparen(Bound);
  }
  return -1;
}

// Whether the attribute name N is computed: not a string, not a name bound
// to one (`_CACHE_ATTR`), not a loop over a literal list of them (`for attr
// in ("allreduce", "pad_length")`).
bool computedName(const PyTypes &T, TSNode N) {
  const PySource &S = *T.M.Src;
  N = unparen(N);
  if (plainString(S, N) || !constantKey(T, N).empty())
    return false;
  if (is(N, "identifier")) {
    TSNode Over = unparen(T.iteratedExpr(S.text(N), beginOf(N)));
    if (is(Over, "tuple") || is(Over, "list") || is(Over, "set"))
      return false;
  }
  return true;
}

// A value that may be a module other than the one it replaces: a parameter
// handed in (`set_module(model, key, module)`), or an object built here
// (`QuantLinear(...)`, `module_cls(**kwargs)`, `make()`), through the locals
// that hold it; not a tensor, an `nn.Parameter`, a function, or the same
// object moved or copied (`m.to(device)`, `m.cuda()`).
bool mayBeModule(const PyTypes &T, TSNode V, int Depth = 0) {
  const PySource &S = *T.M.Src;
  V = unparen(V);
  if (T.valueOf(V).tensor())
    return false;
  if (is(V, "identifier")) {
    if (T.parameterAt(S.text(V), beginOf(V)) >= 0)
      return !T.isSelf(V);
    TSNode Bound = T.boundExpr(S.text(V), beginOf(V));
    return Depth < 4 && !ts_node_is_null(Bound) && beginOf(Bound) < beginOf(V) &&
           mayBeModule(T, Bound, Depth + 1);
  }
  if (!is(V, "call"))
    return false;
  TSNode Fn = unparen(field(V, "function"));
  std::string Q = T.resolve(Fn);
  if (Q == "torch.nn.Parameter" || Q == "torch.nn.parameter.Parameter" ||
      Q == "torch.nn.parameter.Buffer" || Q == "torch.nn.Buffer" || Q == "getattr" ||
      Q.rfind("functools.", 0) == 0 || Q.rfind("types.", 0) == 0)
    return false;
  if (is(Fn, "attribute")) {
    static const std::set<std::string_view> Moves = {"to",
                                                     "cuda",
                                                     "cpu",
                                                     "detach",
                                                     "clone",
                                                     "contiguous",
                                                     "half",
                                                     "float",
                                                     "bfloat16",
                                                     "double",
                                                     "requires_grad_",
                                                     "view",
                                                     "reshape",
                                                     "t",
                                                     "transpose",
                                                     "permute",
                                                     "get",
                                                     "pop"};
    if (Moves.count(S.text(field(Fn, "attribute"))))
      return false;
  }
  // A project function's result: a module where it builds one.
  if (T.P.isFunction(Q) && !T.P.classNamed(Q))
    return T.valueOf(V).K == VK::Instance;
  return true;
}

// The last dotted component, for messages.
std::string shortName(const std::string &Q) {
  size_t Dot = Q.rfind('.');
  return Dot == std::string::npos ? Q : Q.substr(Dot + 1);
}

} // namespace

int swappedParameter(const PyTypes &T, TSNode Call) {
  const PySource &S = *T.M.Src;
  TSNode Fn = unparen(field(Call, "function"));
  const bool Setattr = is(Fn, "identifier") && S.text(Fn) == "setattr";
  if (!Setattr && !(is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "add_module"))
    return -1;
  CallArgs A = argsOf(S, Call);
  TSNode Object{}, Name{}, Set{};
  if (Setattr && A.Positional.size() == 3 && !T.bindsHere("setattr")) {
    Object = A.Positional[0];
    Name = A.Positional[1];
    Set = A.Positional[2];
  } else if (!Setattr && A.Positional.size() == 2) {
    Object = field(Fn, "object");
    Name = A.Positional[0];
    Set = A.Positional[1];
  } else {
    return -1;
  }
  if (!Setattr) {
    // A project class's own add_module (a registry's) is no nn.Module's.
    Value Receiver = T.valueOf(Object);
    if (Receiver.K == VK::Instance)
      for (const auto &C : Receiver.classes())
        if (!T.P.methodOf(C, "add_module").empty())
          return -1;
  }
  if (!computedName(T, Name) || !mayBeModule(T, Set))
    return -1;
  return parameterOf(T, Object);
}

void learnSwappedClasses(PyProgram &P) {
  if (P.Learned.Swaps.empty())
    return;
  // What callers hand a swapper is what gets swapped: the learning rounds
  // followed it there through the functions that hand it on
  // (`optimize_and_load_gguf(model)` -> `inject(module)` -> `set_module`).
  std::deque<std::pair<std::string, std::string>> Work;
  for (const auto &[F, Indices] : P.Learned.Swaps)
    for (unsigned I : Indices)
      for (const auto &C : P.paramClasses(F, I))
        Work.emplace_back(C, shortName(F));
  // The objects handed in, and everything they hold in attributes.
  auto &Swapped = P.Learned.SwappedClasses;
  constexpr size_t MaxClasses = 4096;
  while (!Work.empty() && Swapped.size() < MaxClasses) {
    auto [Class, By] = Work.front();
    Work.pop_front();
    const PyClassDef *C = P.classNamed(Class);
    if (!C || !Swapped.emplace(Class, By).second)
      continue;
    const PyModuleInfo &M = P.classTree(*C);
    auto Body = std::find_if(M.Functions.begin(), M.Functions.end(),
                             [](const PyFunctionDef &F) { return F.IsModuleBody; });
    if (Body == M.Functions.end())
      continue;
    PyTypeCache Cache;
    PyTypes T(P, M, *Body, Cache);
    for (const auto &A : P.ancestors(Class))
      if (const PyClassDef *Def = P.classNamed(A))
        for (const auto &Attr : Def->AssignedAttrs) {
          if (!P.methodOf(Class, Attr).empty())
            continue;
          Value V = T.selfAttr(Class, Attr);
          if (V.K == VK::Instance)
            for (const auto &Held : V.classes())
              if (!Swapped.count(Held))
                Work.emplace_back(Held, By);
        }
  }
}

std::string swapGate(const PyTypes &T, TSNode Call) {
  const std::string &Class = T.selfClass();
  if (Class.empty())
    return "";
  auto It = T.P.Learned.SwappedClasses.find(Class);
  if (It == T.P.Learned.SwappedClasses.end())
    return "";
  const PySource &S = *T.M.Src;
  // The attribute of self the callee is read through, if any.
  auto selfAttribute = [&](TSNode E) -> std::string {
    E = unparen(E);
    for (int Depth = 0; Depth < 10 && !ts_node_is_null(E); ++Depth) {
      if (is(E, "attribute")) {
        TSNode Object = unparen(field(E, "object"));
        if (T.isSelf(Object)) {
          std::string Attr(S.text(field(E, "attribute")));
          if (!T.P.methodOf(Class, Attr).empty())
            return "";
          return T.selfAttr(Class, Attr).K == VK::Instance ? Attr : "";
        }
        E = Object;
      } else if (is(E, "subscript")) {
        E = unparen(field(E, "value"));
      } else if (is(E, "call")) {
        // enumerate(self.layers), zip(...), self.experts.values()
        TSNode Fn = unparen(field(E, "function"));
        CallArgs A = argsOf(S, E);
        if (is(Fn, "attribute"))
          E = unparen(field(Fn, "object"));
        else if (!A.Positional.empty() && is(Fn, "identifier"))
          E = unparen(A.Positional[0]);
        else
          return "";
      } else if (is(E, "identifier") && !T.isSelf(E)) {
        std::string_view Name = S.text(E);
        TSNode Next = T.iteratedExpr(Name, beginOf(E));
        if (ts_node_is_null(Next))
          Next = T.boundExpr(Name, beginOf(E));
        if (ts_node_is_null(Next) || beginOf(Next) >= beginOf(E))
          return "";
        E = unparen(Next);
      } else {
        return "";
      }
    }
    return "";
  };
  TSNode Fn = unparen(field(Call, "function"));
  std::string Attr;
  if (is(Fn, "attribute") && T.isSelf(unparen(field(Fn, "object"))))
    Attr = selfAttribute(Fn); // self.mlp(x); self.helper(x) is no attribute
  else if (is(Fn, "attribute"))
    Attr = selfAttribute(field(Fn, "object"));
  else
    Attr = selfAttribute(Fn);
  if (Attr.empty())
    return "";
  return fmt::format("{}only if `self.{}` still holds what the constructor built: `{}` "
                     "replaces submodules of the model by computed names",
                     GateClause, Attr, It->second);
}

} // namespace graphsafe::lint::py
