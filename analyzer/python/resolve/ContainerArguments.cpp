#include "ContainerArguments.h"

#include "../PyCallGraph.h"
#include "ArgumentForwarding.h"

#include <algorithm>
#include <set>

namespace graphsafe::lint::py {

namespace {

constexpr int MaxDepth = 4;

// itemSources, with the name or attribute at the bottom of the copies in
// Root.
void sourcesOf(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out, TSNode &Root) {
  E = unparen(E);
  if (ts_node_is_null(E) || Depth > MaxDepth)
    return;
  const PySource &S = *T.M.Src;
  if (is(E, "identifier") || is(E, "attribute")) {
    Root = E;
    for (auto &K : itemLoadKeys(T, E, ""))
      Out.push_back(std::move(K));
    return;
  }
  if (is(E, "subscript") && is(field(E, "subscript"), "slice")) {
    sourcesOf(T, field(E, "value"), Depth + 1, Out, Root);
    return;
  }
  if (is(E, "call")) {
    // Copies that keep the items as they are.
    static const std::set<std::string, std::less<>> Copies = {
        "list", "tuple", "sorted", "reversed", "torch.nn.ModuleList", "torch.nn.ParameterList"};
    CallArgs A = argsOf(S, E);
    if (A.Positional.size() == 1 && !is(A.Positional[0], "list_splat") &&
        Copies.count(T.resolve(field(E, "function"))))
      sourcesOf(T, A.Positional[0], Depth + 1, Out, Root);
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
      sourcesOf(T, field(Loop, "right"), Depth + 1, Out, Root);
  }
}

// Whether E (a name bound in T) is a container T's code makes: a literal,
// a comprehension, a copy, at one of its bindings.
bool localContainer(const PyTypes &T, TSNode E) {
  std::string_view Name = T.M.Src->text(E);
  unsigned At = 0;
  const PyTypes *Scope = bindingScope(T, Name, beginOf(E), At);
  if (!Scope)
    return false;
  TSNode Bound = unparen(Scope->boundExpr(Name, At));
  if (is(Bound, "list") || is(Bound, "tuple") || is(Bound, "list_comprehension") ||
      is(Bound, "generator_expression"))
    return true;
  return is(Bound, "call") && !itemSources(*Scope, Bound).empty();
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
  // A name: a container the caller makes, or its own parameter handed on;
  // or an attribute (`run(self.hooks)`), whose items are its class's.
  TSNode Root{};
  std::vector<std::string> Sources;
  sourcesOf(Caller, A, 0, Sources, Root);
  if (is(Root, "attribute")) {
    H.Linked = std::move(Sources);
    return;
  }
  if (!is(Root, "identifier"))
    return;
  const bool Own = ownParameter(Caller, S.text(Root), beginOf(Root));
  if (!Own && !localContainer(Caller, Root))
    return;
  H.Linked = std::move(Sources);
  if (Own && ts_node_eq(Root, A))
    H.HandedOn = parameterItemKey(Caller.F.QualName, S.text(A));
  // A local bound to a literal: its elements, and what appends add (Linked).
  if (!Own && ts_node_eq(Root, A))
    if (auto Els = sequenceElements(Caller, A))
      H.Elements = std::move(*Els);
}

} // namespace

std::vector<std::string> itemSources(const PyTypes &T, TSNode E) {
  std::vector<std::string> Out;
  TSNode Root{};
  sourcesOf(T, E, 0, Out, Root);
  return Out;
}

std::vector<HandedItems> handedItems(const PyTypes &Caller, const std::string &Callee, TSNode Call,
                                     const std::vector<std::pair<unsigned, TSNode>> &Bound) {
  std::vector<HandedItems> Out;
  const auto [F, M] = Caller.P.signature(Callee);
  if (!F || !M || !M->Src || F->IsModuleBody)
    return Out;
  const std::vector<std::string> &Used = F->ItemParams;
  if (Used.empty())
    return Out;
  auto used = [&](std::string_view Name) {
    return std::find(Used.begin(), Used.end(), Name) != Used.end();
  };
  const std::vector<std::string> Names = parameterNames(*M->Src, *F);
  for (const auto &[Index, Arg] : Bound) {
    if (Index >= Names.size() || !used(Names[Index]))
      continue;
    HandedItems H;
    describe(Caller, Arg, H);
    if (H.Elements.empty() && H.Linked.empty() && !H.Complete)
      continue;
    H.Key = parameterItemKey(Callee, Names[Index]);
    Out.push_back(std::move(H));
  }
  std::string_view Varargs = splatNames(*M->Src, *F).Varargs;
  if (Varargs.empty() || !used(Varargs))
    return Out;
  // The positions past the named parameters, each one item of `*args`;
  // `*xs` there adds xs's items.
  HandedItems H;
  H.Key = parameterItemKey(Callee, Varargs);
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
