#include "SummaryJson.h"

// Field names are the members' own: the cache is private to one graphlint
// build (its fingerprint is in every key), so the format needs no stability.
namespace graphsafe {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SourceLoc, File, Line, Column)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Note, Message, Loc)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FixIt, Begin, End, Replacement)

namespace lint {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ConstArg, Index, Truthy, IsNone)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ParamTest, Index, K)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Site, RuleId, Message, Loc, Context, RegionBegin,
                                                FixIts, Notes, Fix, When, EnvGate)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CallEdge, CalleeUsr, CalleeName, Loc, Context,
                                                RegionBegin, Exact, Dynamic, SelfMethod, Receiver,
                                                When, Constants, EnvGate)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ClassSummary, Key, Bases, Methods)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FunctionSummary, Usr, Name, Loc, IsEntryPoint,
                                                OpensCapture, ClosesCapture, Overrides, Sites,
                                                Calls)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TUSummary, File, Functions, CallableStores,
                                                ThreadEntries, GlobalCapture, AnyCapture, Classes)

nlohmann::json summaryToJson(const TUSummary &S) { return S; }

std::optional<TUSummary> summaryFromJson(const nlohmann::json &J) {
  try {
    return J.get<TUSummary>();
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

} // namespace lint
} // namespace graphsafe
