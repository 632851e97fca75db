#include "ReturnsByCall.h"

#include "../PyCallGraph.h"

#include <algorithm>

namespace graphsafe::lint::py {

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
  // The function with its tree (read now if its index came from the cache).
  const PyFunctionDef *F = Caller.P.function(Callee);
  const PyModuleInfo *Home = Caller.P.moduleOfFunction(Callee);
  if (!F || !Home || !Home->Src)
    return std::nullopt;
  // Reading the callee's types may ask this again (a factory calling
  // itself): past the depth allowed, or while the callee's analysis is
  // being built, the joined returns answer instead.
  PyTypeCache &Cache = Caller.cache();
  auto [Slot, New] = Cache.Methods.try_emplace({F, ""});
  if (!Slot->second && !New)
    return std::nullopt;
  ++Cache.Depth;
  if (!Slot->second) {
    auto Built = std::make_unique<PyTypes>(Caller.P, *Home, *F, Cache);
    // An inner read may have built it meanwhile: keep the one others hold.
    auto &Held = Cache.Methods[{F, ""}];
    if (!Held)
      Held = std::move(Built);
  }
  LiveReturns Out{Cache.Methods[{F, ""}].get(), {}};
  bool Dead = false;
  walk(F->body(), [&](TSNode N) {
    if (!is(N, "return_statement"))
      return true;
    TSNode V = ts_node_named_child(N, 0);
    if (runsWith(parameterTestsAt(*Out.Callee, N), Passed))
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

} // namespace graphsafe::lint::py
