#include "Reachability.h"

#include <deque>
#include <fmt/format.h>
#include <map>

namespace graphsafe::lint {

namespace {

struct Reached {
  std::string Caller; // Empty for functions reached straight from a region.
  const CallEdge *Via = nullptr;
};

Finding makeFinding(const Site &S, const RuleSet &Rules) {
  Finding F;
  F.RuleId = S.RuleId;
  F.Message = S.Message;
  F.Loc = S.Loc;
  F.FixIts = S.FixIts;
  F.Notes = S.Notes;
  if (const Rule *R = Rules.find(S.RuleId)) {
    F.Level = R->Level;
    F.Fix = R->Fix;
  }
  if (!S.Fix.empty())
    F.Fix = S.Fix;
  return F;
}

} // namespace

std::vector<Finding> findingsFromSummaries(const std::vector<TUSummary> &TUs,
                                           const RuleSet &Rules) {
  // The same inline or header function is summarised by every TU that sees
  // it; the first summary stands for all.
  std::map<std::string, const FunctionSummary *> ByUsr;
  std::map<std::string, std::vector<std::string>> Overriders;
  for (const auto &TU : TUs) {
    for (const auto &F : TU.Functions) {
      if (!ByUsr.emplace(F.Usr, &F).second)
        continue;
      for (const auto &Base : F.Overrides)
        Overriders[Base].push_back(F.Usr);
    }
    // A call through storage reaches what any TU stored there, as a virtual
    // call reaches every override.
    for (const auto &[Storage, Callee] : TU.CallableStores)
      Overriders[Storage].push_back(Callee);
  }

  std::vector<Finding> Out;
  std::map<std::string, Reached> Seen;
  std::deque<std::string> Queue;
  auto reach = [&](const std::string &Usr, const std::string &Caller, const CallEdge *Via) {
    std::vector<std::string> Targets = {Usr};
    auto It = Overriders.find(Usr);
    if (It != Overriders.end())
      Targets.insert(Targets.end(), It->second.begin(), It->second.end());
    for (const auto &T : Targets)
      if (ByUsr.count(T) && Seen.emplace(T, Reached{Caller, Via}).second)
        Queue.push_back(T);
  };

  for (const auto &[Usr, F] : ByUsr) {
    for (const auto &S : F->Sites)
      if (S.Context == CaptureContext::InRegion) {
        Finding Fd = makeFinding(S, Rules);
        if (S.RegionBegin.valid())
          Fd.Notes.push_back({"the capture region begins here", S.RegionBegin});
        else if (F->IsEntryPoint)
          Fd.Notes.push_back({fmt::format("'{}' is always run under capture", F->Name), F->Loc});
        Out.push_back(std::move(Fd));
      }
    for (const auto &C : F->Calls)
      if (C.Context == CaptureContext::InRegion)
        reach(C.CalleeUsr, "", &C);
  }

  while (!Queue.empty()) {
    std::string Usr = Queue.front();
    Queue.pop_front();
    const FunctionSummary *F = ByUsr[Usr];
    for (const auto &C : F->Calls)
      if (C.Context == CaptureContext::Ambient || C.Context == CaptureContext::InRegion)
        reach(C.CalleeUsr, Usr, &C);
  }

  for (const auto &[Usr, R] : Seen) {
    const FunctionSummary *F = ByUsr[Usr];
    std::vector<Note> Chain;
    std::string Cur = Usr;
    const Reached *Step = &R;
    SourceLoc RegionBegin;
    for (int Depth = 0; Step && Step->Via && Depth < 32; ++Depth) {
      Chain.push_back(
          {fmt::format("'{}' is called here under capture", ByUsr[Cur]->Name), Step->Via->Loc});
      if (Step->Caller.empty()) {
        RegionBegin = Step->Via->RegionBegin;
        break;
      }
      Cur = Step->Caller;
      Step = &Seen[Cur];
    }
    if (RegionBegin.valid())
      Chain.push_back({"the capture region begins here", RegionBegin});
    for (const auto &S : F->Sites) {
      if (S.Context != CaptureContext::Ambient)
        continue;
      Finding Fd = makeFinding(S, Rules);
      Fd.Notes.insert(Fd.Notes.end(), Chain.begin(), Chain.end());
      Out.push_back(std::move(Fd));
    }
  }
  return Out;
}

} // namespace graphsafe::lint
