#include "SummaryJson.h"

// Each struct is an array of its members, in order, not an object keyed by
// their names: reading a large tree's cached summaries back is most of a warm
// run, and arrays read several times faster than maps. The cache is private
// to one graphlint build (its fingerprint is in every key, and in a shard
// file), so the format needs no stability.
#define GRAPHSAFE_JSON_PUT(Field) J.push_back(O.Field);
#define GRAPHSAFE_JSON_GET(Field) J.at(I++).get_to(O.Field);
#define GRAPHSAFE_JSON_AS_ARRAY(Type, ...)                                                         \
  inline void to_json(nlohmann::json &J, const Type &O) {                                          \
    J = nlohmann::json::array();                                                                   \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GRAPHSAFE_JSON_PUT, __VA_ARGS__))                     \
  }                                                                                                \
  inline void from_json(const nlohmann::json &J, Type &O) {                                        \
    size_t I = 0;                                                                                  \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GRAPHSAFE_JSON_GET, __VA_ARGS__))                     \
  }

namespace graphsafe {
GRAPHSAFE_JSON_AS_ARRAY(SourceLoc, File, Line, Column)
GRAPHSAFE_JSON_AS_ARRAY(Note, Message, Loc)
GRAPHSAFE_JSON_AS_ARRAY(FixIt, Begin, End, Replacement)

namespace lint {
GRAPHSAFE_JSON_AS_ARRAY(ConstArg, Index, Truthy, IsNone, From, Global, Attr, FromAttr, TruthKnown,
                        NoneKnown, IfKwargsEmpty, TextKnown, Text)
GRAPHSAFE_JSON_AS_ARRAY(ParamTest, Index, K, Global, Attr, Text)
GRAPHSAFE_JSON_AS_ARRAY(Site, RuleId, Message, Loc, Context, RegionBegin, FixIts, Notes, Fix, When,
                        EnvGate)
GRAPHSAFE_JSON_AS_ARRAY(CallEdge, CalleeUsr, CalleeName, Loc, Context, RegionBegin, Exact, Dynamic,
                        SelfMethod, Receiver, When, Constants, EnvGate, Positional, Mechanism,
                        HandedOn, Binds, ReceiverParam, ParamMethod, ReceiverAttr, Opaque,
                        PureVirtual, EffectSeen, Keywords, LeadingArgs, KeywordSplat)
GRAPHSAFE_JSON_AS_ARRAY(ClassSummary, Key, Bases, Methods)
GRAPHSAFE_JSON_AS_ARRAY(FunctionSummary, Usr, Name, Loc, IsEntryPoint, OpensCapture, ClosesCapture,
                        Overrides, MinArgs, MaxArgs, ParamNames, ParamDefaults, TakesKwargs, Sites,
                        Calls, ReturnBranches)
GRAPHSAFE_JSON_AS_ARRAY(TUSummary, File, Functions, CallableStores, ThreadEntries, GlobalCapture,
                        AnyCapture, Classes, ImportedFiles, BuiltClasses)

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
