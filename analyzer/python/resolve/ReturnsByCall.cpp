#include "ReturnsByCall.h"

#include "../PyCallGraph.h"
#include "LibrarySemantics.h"

#include <algorithm>

namespace graphsafe::lint::py {

const PyTypes *calleeTypes(const PyTypes &Caller, const std::string &Callee) {
  // The function with its tree (read now if its index came from the cache).
  const PyFunctionDef *F = Caller.P.function(Callee);
  const PyModuleInfo *Home = Caller.P.moduleOfFunction(Callee);
  if (!F || !Home || !Home->Src)
    return nullptr;
  // Reading the callee's types may ask this again (a factory calling
  // itself): while the callee's analysis is being built, nothing.
  PyTypeCache &Cache = Caller.cache();
  auto [Slot, New] = Cache.Methods.try_emplace({F, ""});
  if (!Slot->second && !New)
    return nullptr;
  if (!Slot->second) {
    ++Cache.Depth;
    auto Built = std::make_unique<PyTypes>(Caller.P, *Home, *F, Cache);
    --Cache.Depth;
    // An inner read may have built it meanwhile: keep the one others hold.
    auto &Held = Cache.Methods[{F, ""}];
    if (!Held)
      Held = std::move(Built);
  }
  return Cache.Methods[{F, ""}].get();
}

std::optional<LiveReturns> liveReturns(const PyTypes &Caller, const std::string &Callee,
                                       TSNode Call) {
  const PyFunctionDef *Indexed = Caller.P.functionIndex(Callee);
  // Read the body only where there are returns to choose between and a
  // literal to choose by: a caller's result then depends on that body.
  if (!Indexed || Indexed->IsLambda || Indexed->IsModuleBody || Indexed->Returns < 2 ||
      Caller.cache().Depth > 2)
    return std::nullopt;
  std::vector<ConstArg> Passed = literalArguments(Caller, Callee, Call);
  Passed.erase(
      std::remove_if(Passed.begin(), Passed.end(), [](const ConstArg &C) { return C.From >= 0; }),
      Passed.end());
  if (Passed.empty())
    return std::nullopt;
  const PyTypes *Types = calleeTypes(Caller, Callee);
  if (!Types)
    return std::nullopt;
  PyTypeCache &Cache = Caller.cache();
  ++Cache.Depth;
  LiveReturns Out{Types, {}};
  bool Dead = false;
  walk(Types->F.body(), [&](TSNode N) {
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    // A class test is decided where the object facts know the classes, not
    // by the literals here: a None passed rules out `isinstance(x, C)`, but
    // the returns chosen so lose what the walk bound to the functions they
    // return (Megatron-LM's get_forward_backward_func, docs/precision.md).
    std::vector<ParamTest> When = parameterTestsAt(*Out.Callee, N);
    When.erase(
        std::remove_if(When.begin(), When.end(), [](const ParamTest &T) { return T.ofClass(); }),
        When.end());
    if (runsWith(When, Passed))
      Out.Values.push_back(V);
    else
      Dead = true;
    return false;
  });
  --Cache.Depth;
  // A function that may end without a return gives None there: no value to
  // add, and nothing to rule out either way.
  if (!Dead)
    return std::nullopt;
  return Out;
}

std::vector<TSNode> returnedArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call, int Element) {
  std::vector<TSNode> Out;
  const auto [Def, Home] = Caller.P.signature(Callee);
  if (!Def || !Home)
    return Out;
  // A rebinding through anything but a module wrapper may make another
  // object: then only what is handed back untouched is the argument.
  bool Kept = std::all_of(Def->KeptBy.begin(), Def->KeptBy.end(), [&](const std::string &Spelled) {
    return wrapsModule(Caller.P.qualify(*Home, Spelled));
  });
  std::vector<unsigned> Params;
  if (Element < 0) {
    Params = Def->ReturnsParams;
    if (Kept)
      Params.insert(Params.end(), Def->ReturnsKeptParams.begin(), Def->ReturnsKeptParams.end());
    Params.insert(Params.end(), Def->ReturnsRebuiltParams.begin(), Def->ReturnsRebuiltParams.end());
  } else if (static_cast<size_t>(Element) < Def->ReturnsElementsParams.size() &&
             Def->ReturnsElementsParams[Element] >= 0) {
    // Kept or untouched: an untouched one has no rebinding to check.
    unsigned Index = static_cast<unsigned>(Def->ReturnsElementsParams[Element]);
    if (Kept || Def->KeptBy.empty())
      Params.push_back(Index);
  }
  if (Params.empty())
    return Out;
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call))
    if (std::find(Params.begin(), Params.end(), Index) != Params.end())
      Out.push_back(Arg);
  return Out;
}

} // namespace graphsafe::lint::py
