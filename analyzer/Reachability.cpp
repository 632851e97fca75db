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

// Sites of `reach: other-threads` rules in code that runs on a thread the
// program starts, when some TU captures in global mode: while that capture
// runs, such a call on any other thread fails and invalidates the capture.
void otherThreadFindings(const std::vector<TUSummary> &TUs,
                         const std::map<std::string, const FunctionSummary *> &ByUsr,
                         const std::map<std::string, std::vector<std::string>> &Overriders,
                         const RuleSet &Rules, std::vector<Finding> &Out) {
  SourceLoc Global;
  for (const auto &TU : TUs)
    if (TU.GlobalCapture.valid() && (!Global.valid() || TU.GlobalCapture < Global))
      Global = TU.GlobalCapture;
  if (!Global.valid())
    return;
  struct Step {
    std::string Caller; // empty for a thread entry
    const CallEdge *Via;
  };
  std::map<std::string, Step> Seen;
  std::deque<std::string> Queue;
  auto reach = [&](const std::string &Usr, const std::string &Caller, const CallEdge *Via) {
    std::vector<std::string> Targets = {Usr};
    if (auto It = Overriders.find(Usr); It != Overriders.end())
      Targets.insert(Targets.end(), It->second.begin(), It->second.end());
    for (const auto &T : Targets)
      if (ByUsr.count(T) && Seen.emplace(T, Step{Caller, Via}).second)
        Queue.push_back(T);
  };
  for (const auto &TU : TUs)
    for (const auto &E : TU.ThreadEntries)
      reach(E.CalleeUsr, "", &E);
  while (!Queue.empty()) {
    std::string Usr = Queue.front();
    Queue.pop_front();
    for (const auto &C : ByUsr.at(Usr)->Calls)
      if (C.Context == CaptureContext::Ambient || C.Context == CaptureContext::InRegion)
        reach(C.CalleeUsr, Usr, &C);
  }
  for (const auto &[Usr, S0] : Seen) {
    const FunctionSummary *F = ByUsr.at(Usr);
    std::vector<Note> Chain;
    std::string Cur = Usr;
    const Step *St = &S0;
    for (int Depth = 0; St && St->Via && Depth < 32; ++Depth) {
      if (St->Caller.empty()) {
        Chain.push_back(
            {fmt::format("'{}' runs on another thread, started here", ByUsr.at(Cur)->Name),
             St->Via->Loc});
        break;
      }
      Chain.push_back(
          {fmt::format("'{}' is called here on that thread", ByUsr.at(Cur)->Name), St->Via->Loc});
      Cur = St->Caller;
      St = &Seen.at(Cur);
    }
    Chain.push_back({"a capture in global mode begins here", Global});
    for (const auto &S : F->Sites) {
      const Rule *R = Rules.find(S.RuleId);
      if (!R || R->Reach != "other-threads" || S.Context != CaptureContext::Ambient)
        continue;
      Finding Fd = makeFinding(S, Rules);
      Fd.Notes.insert(Fd.Notes.end(), Chain.begin(), Chain.end());
      Out.push_back(std::move(Fd));
    }
  }
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

  auto capturing = [&](const Site &S) {
    const Rule *R = Rules.find(S.RuleId);
    return !R || R->Reach == "capture";
  };
  for (const auto &[Usr, F] : ByUsr) {
    for (const auto &S : F->Sites)
      if (S.Context == CaptureContext::InRegion && capturing(S)) {
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
      if (S.Context != CaptureContext::Ambient || !capturing(S))
        continue;
      Finding Fd = makeFinding(S, Rules);
      Fd.Notes.insert(Fd.Notes.end(), Chain.begin(), Chain.end());
      Out.push_back(std::move(Fd));
    }
  }
  otherThreadFindings(TUs, ByUsr, Overriders, Rules, Out);
  return Out;
}

} // namespace graphsafe::lint
