#include "ContainerArguments.h"

#include "../PyCallGraph.h"
#include "ArgumentForwarding.h"

#include <set>

namespace graphsafe::lint::py {

namespace {

constexpr int MaxDepth = 4;

void sourcesOf(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out) {
  E = unparen(E);
  if (ts_node_is_null(E) || Depth > MaxDepth)
    return;
  const PySource &S = *T.M.Src;
  if (is(E, "identifier") || is(E, "attribute")) {
    for (auto &K : itemLoadKeys(T, E, ""))
      Out.push_back(std::move(K));
    return;
  }
  if (is(E, "subscript") && is(field(E, "subscript"), "slice")) {
    sourcesOf(T, field(E, "value"), Depth + 1, Out);
    return;
  }
  if (is(E, "call")) {
    // Copies that keep the items as they are.
    static const std::set<std::string, std::less<>> Copies = {
        "list", "tuple", "sorted", "reversed", "torch.nn.ModuleList", "torch.nn.ParameterList"};
    CallArgs A = argsOf(S, E);
    if (A.Positional.size() == 1 && !is(A.Positional[0], "list_splat") &&
        Copies.count(T.resolve(field(E, "function"))))
      sourcesOf(T, A.Positional[0], Depth + 1, Out);
    return;
  }
  // `[f for f in fns]`, `(m for m in modules if m.enabled)`: a subset of
  // the items iterated.
  if (is(E, "list_comprehension") || is(E, "generator_expression") || is(E, "set_comprehension")) {
    TSNode Body = unparen(field(E, "body"));
    TSNode Loop{};
    int Loops = 0;
    for (TSNode C : namedChildren(E))
      if (is(C, "for_in_clause")) {
        Loop = C;
        ++Loops;
      }
    if (Loops != 1 || !is(Body, "identifier"))
      return;
    TSNode Var = unparen(field(Loop, "left"));
    if (is(Var, "identifier") && S.text(Var) == S.text(Body))
      sourcesOf(T, field(Loop, "right"), Depth + 1, Out);
  }
}

// Whether Name is T's own parameter or `*args`, read at Offset.
bool ownParameter(const PyTypes &T, std::string_view Name, unsigned Offset) {
  if (T.parameterAt(Name, Offset) >= 0)
    return true;
  if (T.F.IsModuleBody || T.F.IsLambda)
    return false;
  return !Name.empty() && splatNames(*T.M.Src, T.F).Varargs == Name;
}

// What Arg, passed for one container parameter, holds.
void describe(const PyTypes &Caller, TSNode Arg, HandedItems &H) {
  TSNode A = unparen(Arg);
  const PySource &S = *Caller.M.Src;
  const bool Literal = is(A, "list") || is(A, "tuple") || is(A, "expression_list");
  if (Literal)
    if (auto Els = sequenceElements(Caller, A)) {
      H.Elements = std::move(*Els);
      H.Complete = true;
    }
  H.Linked = itemSources(Caller, A);
  if (is(A, "identifier") && ownParameter(Caller, S.text(A), beginOf(A)))
    H.HandedOn = parameterItemKeys(Caller.F.QualName, S.text(A)).back();
}

} // namespace

std::vector<std::string> itemSources(const PyTypes &T, TSNode E) {
  std::vector<std::string> Out;
  sourcesOf(T, E, 0, Out);
  return Out;
}

std::vector<HandedItems> handedItems(const PyTypes &Caller, const std::string &Callee,
                                     TSNode Call) {
  std::vector<HandedItems> Out;
  const auto [F, M] = Caller.P.signature(Callee);
  if (!F || !M || !M->Src || F->IsModuleBody)
    return Out;
  const std::vector<std::string> Names = parameterNames(*M->Src, *F);
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call)) {
    if (Index >= Names.size())
      continue;
    HandedItems H;
    describe(Caller, Arg, H);
    if (H.Elements.empty() && H.Linked.empty() && !H.Complete)
      continue;
    H.Keys = parameterItemKeys(Callee, Names[Index]);
    Out.push_back(std::move(H));
  }
  if (F->IsLambda)
    return Out;
  std::string_view Varargs = splatNames(*M->Src, *F).Varargs;
  if (Varargs.empty())
    return Out;
  // The positions past the named parameters, each one item of `*args`;
  // `*xs` there adds xs's items.
  HandedItems H;
  H.Keys = parameterItemKeys(Callee, Varargs);
  H.Complete = true;
  CallArgs A = calleeArgs(Caller, Callee, Call);
  const unsigned Named = positionalParameters(*F);
  for (unsigned I = 0; I < A.Positional.size(); ++I) {
    TSNode Arg = A.Positional[I];
    if (is(Arg, "dictionary_splat"))
      continue;
    if (is(Arg, "list_splat")) {
      // Which of its items bind named parameters is not known.
      HandedItems Inner;
      describe(Caller, ts_node_named_child(Arg, 0), Inner);
      H.Elements.insert(H.Elements.end(), Inner.Elements.begin(), Inner.Elements.end());
      H.Linked.insert(H.Linked.end(), Inner.Linked.begin(), Inner.Linked.end());
      H.Complete = H.Complete && Inner.Complete && I >= Named;
      continue;
    }
    if (I >= Named)
      H.Elements.push_back({&Caller, Arg});
  }
  Out.push_back(std::move(H));
  return Out;
}

} // namespace graphsafe::lint::py
