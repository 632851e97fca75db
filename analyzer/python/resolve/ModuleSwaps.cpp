#include "ModuleSwaps.h"

#include "../PyModule.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <set>

namespace graphsafe::lint::py {

namespace {

// The parameter (caller-side index) E's object hangs off: the parameter,
// its attributes and items, getattr walks down from it, through locals
// (`cur = model; for s in path: cur = getattr(cur, s)`); -1 otherwise.
int parameterOf(const PyTypes &T, TSNode E) {
  const PySource &S = *T.M.Src;
  E = unparen(E);
  for (int Depth = 0; Depth < 8 && !ts_node_is_null(E); ++Depth) {
    if (is(E, "attribute") || is(E, "subscript")) {
      E = unparen(field(E, is(E, "attribute") ? "object" : "value"));
      continue;
    }
    if (is(E, "call")) {
      TSNode Fn = unparen(field(E, "function"));
      CallArgs A = argsOf(S, E);
      if (!is(Fn, "identifier") || S.text(Fn) != "getattr" || A.Positional.empty())
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

// A value that is no other module: a tensor, a parameter, a literal, None,
// or a value moved or copied (`t.to(device)`, `m.cuda()`: a module stays
// of its class), through the locals that hold it.
bool noModule(const PyTypes &T, TSNode V, int Depth = 0) {
  V = unparen(V);
  if (isLiteral(V) || is(V, "none") || is(V, "true") || is(V, "false"))
    return true;
  if (T.valueOf(V).tensor())
    return true;
  const PySource &S = *T.M.Src;
  if (is(V, "call")) {
    TSNode Fn = unparen(field(V, "function"));
    std::string Q = T.resolve(Fn);
    if (Q == "torch.nn.Parameter" || Q == "torch.nn.parameter.Parameter" ||
        Q == "torch.nn.parameter.Buffer" || Q == "torch.nn.Buffer")
      return true;
    if (is(Fn, "attribute")) {
      static const std::set<std::string_view> Moves = {
          "to",      "cuda",  "cpu",       "detach", "clone",          "contiguous",
          "half",    "float", "bfloat16",  "double", "requires_grad_", "view",
          "reshape", "t",     "transpose", "permute"};
      if (Moves.count(S.text(field(Fn, "attribute"))))
        return true;
    }
    return false;
  }
  if (is(V, "identifier") && Depth < 4) {
    TSNode Bound = T.boundExpr(S.text(V), beginOf(V));
    return !ts_node_is_null(Bound) && beginOf(Bound) < beginOf(V) && noModule(T, Bound, Depth + 1);
  }
  return false;
}

// Whether the function Function swaps what it is handed at Index.
bool swaps(const PyProgram &P, const std::string &Function, unsigned Index) {
  auto It = P.Learned.Swaps.find(Function);
  return It != P.Learned.Swaps.end() && It->second.count(Index);
}

// The project function a call names directly: a function, or a method of
// self's class.
std::string calledFunction(const PyTypes &T, TSNode Call) {
  TSNode Fn = unparen(field(Call, "function"));
  if (is(Fn, "attribute") && T.isSelf(field(Fn, "object")) && !T.selfClass().empty())
    return T.P.methodOf(T.selfClass(), std::string(T.M.Src->text(field(Fn, "attribute"))));
  std::string Q = T.resolve(Fn);
  return T.P.isFunction(Q) ? Q : "";
}

// The last dotted component, for messages.
std::string shortName(const std::string &Q) {
  size_t Dot = Q.rfind('.');
  return Dot == std::string::npos ? Q : Q.substr(Dot + 1);
}

template <typename Fn> void forEachFunction(const PyProgram &P, const PyModuleInfo &M, Fn &&Visit) {
  const PyModuleInfo &Tree = P.tree(M);
  PyTypeCache Cache;
  for (const auto &F : Tree.Functions) {
    PyTypes T(P, Tree, F, Cache);
    Visit(T, F);
  }
}

} // namespace

int swappedParameter(const PyTypes &T, TSNode Call) {
  const PySource &S = *T.M.Src;
  TSNode Fn = unparen(field(Call, "function"));
  const bool Setattr = is(Fn, "identifier") && S.text(Fn) == "setattr";
  if (!Setattr && !(is(Fn, "attribute") && (S.text(field(Fn, "attribute")) == "add_module" ||
                                            S.text(field(Fn, "attribute")) == "register_module")))
    return -1;
  CallArgs A = argsOf(S, Call);
  TSNode Object{}, Name{}, Value{};
  if (Setattr && A.Positional.size() == 3 && !T.bindsHere("setattr")) {
    Object = A.Positional[0];
    Name = A.Positional[1];
    Value = A.Positional[2];
  } else if (!Setattr && A.Positional.size() == 2) {
    Object = field(Fn, "object");
    Name = A.Positional[0];
    Value = A.Positional[1];
  } else {
    return -1;
  }
  if (plainString(S, Name) || noModule(T, Value))
    return -1;
  return parameterOf(T, Object);
}

void learnSwappedClasses(PyProgram &P) {
  if (P.Learned.Swaps.empty())
    return;
  // Callers that hand a parameter on to a swapper swap it too; what the
  // others hand in is what gets swapped.
  struct Root {
    std::vector<std::string> Classes;
    std::string Swapper;
  };
  std::vector<Root> Roots;
  std::set<std::string> Named; // short names of the swappers known
  std::vector<std::string> Looking;
  for (const auto &[F, Is] : P.Learned.Swaps)
    if (Named.insert(shortName(F)).second)
      Looking.push_back(shortName(F) + "(");
  // Only modules that spell a swapper's name are read, again for the names
  // of the swappers found among their callers.
  for (int Round = 0; Round < 4 && !Looking.empty(); ++Round) {
    std::vector<std::string> Next;
    for (const auto &M : P.Modules) {
      const std::string &Text = M->Src ? M->Src->text() : M->Text;
      if (std::none_of(Looking.begin(), Looking.end(),
                       [&](const std::string &N) { return Text.find(N) != std::string::npos; }))
        continue;
      forEachFunction(P, *M, [&](const PyTypes &T, const PyFunctionDef &F) {
        walk(F.body(), [&](TSNode N) {
          if (isScope(N) && !ts_node_eq(N, F.body()))
            return false;
          if (!is(N, "call"))
            return true;
          std::string Callee = calledFunction(T, N);
          auto It = P.Learned.Swaps.find(Callee);
          if (It == P.Learned.Swaps.end())
            return true;
          const std::set<unsigned> Indices = It->second;
          CallArgs A = argsOf(*T.M.Src, N);
          for (unsigned I : Indices) {
            if (I >= A.Positional.size())
              continue;
            if (int Own = parameterOf(T, A.Positional[I]); Own >= 0) {
              P.Learned.Swaps[F.QualName].insert(Own);
              if (Named.insert(shortName(F.QualName)).second)
                Next.push_back(shortName(F.QualName) + "(");
              continue;
            }
            Value V = T.valueOf(A.Positional[I]);
            if (V.K == VK::Instance)
              Roots.push_back({V.classes(), Callee});
          }
          return true;
        });
      });
    }
    Looking = std::move(Next);
  }
  // The objects handed in, and everything they hold in attributes.
  std::deque<std::pair<std::string, std::string>> Work;
  for (const auto &R : Roots)
    for (const auto &C : R.Classes)
      Work.emplace_back(C, shortName(R.Swapper));
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
