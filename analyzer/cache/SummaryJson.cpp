#include "SummaryJson.h"

namespace graphsafe {

void to_json(nlohmann::json &J, const SourceLoc &L) { J = {L.File, L.Line, L.Column}; }
void from_json(const nlohmann::json &J, SourceLoc &L) {
  L.File = J.at(0).get<std::string>();
  L.Line = J.at(1).get<unsigned>();
  L.Column = J.at(2).get<unsigned>();
}
void to_json(nlohmann::json &J, const Note &N) { J = {N.Message, N.Loc}; }
void from_json(const nlohmann::json &J, Note &N) {
  N.Message = J.at(0).get<std::string>();
  N.Loc = J.at(1).get<SourceLoc>();
}
void to_json(nlohmann::json &J, const FixIt &F) { J = {F.Begin, F.End, F.Replacement}; }
void from_json(const nlohmann::json &J, FixIt &F) {
  F.Begin = J.at(0).get<SourceLoc>();
  F.End = J.at(1).get<SourceLoc>();
  F.Replacement = J.at(2).get<std::string>();
}

namespace lint {

void to_json(nlohmann::json &J, const Site &S) {
  J = {{"rule", S.RuleId},        {"message", S.Message}, {"loc", S.Loc},    {"context", S.Context},
       {"region", S.RegionBegin}, {"fixits", S.FixIts},   {"notes", S.Notes}};
}
void from_json(const nlohmann::json &J, Site &S) {
  S.RuleId = J.at("rule").get<std::string>();
  S.Message = J.at("message").get<std::string>();
  S.Loc = J.at("loc").get<SourceLoc>();
  S.Context = J.at("context").get<CaptureContext>();
  S.RegionBegin = J.at("region").get<SourceLoc>();
  S.FixIts = J.at("fixits").get<std::vector<FixIt>>();
  S.Notes = J.at("notes").get<std::vector<Note>>();
}
void to_json(nlohmann::json &J, const CallEdge &C) {
  J = {{"usr", C.CalleeUsr},
       {"name", C.CalleeName},
       {"loc", C.Loc},
       {"context", C.Context},
       {"region", C.RegionBegin}};
}
void from_json(const nlohmann::json &J, CallEdge &C) {
  C.CalleeUsr = J.at("usr").get<std::string>();
  C.CalleeName = J.at("name").get<std::string>();
  C.Loc = J.at("loc").get<SourceLoc>();
  C.Context = J.at("context").get<CaptureContext>();
  C.RegionBegin = J.at("region").get<SourceLoc>();
}
void to_json(nlohmann::json &J, const FunctionSummary &F) {
  J = {{"usr", F.Usr},
       {"name", F.Name},
       {"loc", F.Loc},
       {"entry", F.IsEntryPoint},
       {"overrides", F.Overrides},
       {"sites", F.Sites},
       {"calls", F.Calls}};
}
void from_json(const nlohmann::json &J, FunctionSummary &F) {
  F.Usr = J.at("usr").get<std::string>();
  F.Name = J.at("name").get<std::string>();
  F.Loc = J.at("loc").get<SourceLoc>();
  F.IsEntryPoint = J.at("entry").get<bool>();
  F.Overrides = J.at("overrides").get<std::vector<std::string>>();
  F.Sites = J.at("sites").get<std::vector<Site>>();
  F.Calls = J.at("calls").get<std::vector<CallEdge>>();
}

nlohmann::json summaryToJson(const TUSummary &S) {
  return {{"file", S.File}, {"functions", S.Functions}, {"callable_stores", S.CallableStores}};
}

std::optional<TUSummary> summaryFromJson(const nlohmann::json &J) {
  try {
    TUSummary S;
    S.File = J.at("file").get<std::string>();
    S.Functions = J.at("functions").get<std::vector<FunctionSummary>>();
    S.CallableStores =
        J.at("callable_stores").get<std::vector<std::pair<std::string, std::string>>>();
    return S;
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

} // namespace lint
} // namespace graphsafe
