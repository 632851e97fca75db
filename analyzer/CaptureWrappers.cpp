#include "CaptureWrappers.h"

#include <algorithm>
#include <optional>
#include <set>

namespace graphsafe::lint {

namespace {

struct Effect {
  bool Opens = false, Closes = false;
};

using Overriders = std::map<std::string, std::vector<std::string>>;

// What a call does to the capture: its callee's effect, or for a virtual
// call (not known exact) that of the overrides, one of which may run: a
// session calling its providers' OnRunStart through their interface begins
// the capture when the graph provider's override does.
Effect effectOfCall(const CallEdge &C, const std::map<std::string, Effect> &Effects,
                    const Overriders &Over) {
  if (auto It = Effects.find(C.CalleeUsr); It != Effects.end())
    return It->second;
  Effect E;
  if (C.Exact)
    return E;
  std::vector<std::string> Todo = {C.CalleeUsr};
  std::set<std::string> Seen(Todo.begin(), Todo.end());
  while (!Todo.empty()) {
    std::string Usr = std::move(Todo.back());
    Todo.pop_back();
    if (auto It = Effects.find(Usr); It != Effects.end()) {
      E.Opens |= It->second.Opens;
      E.Closes |= It->second.Closes;
    }
    if (auto It = Over.find(Usr); It != Over.end())
      for (const auto &O : It->second)
        if (Seen.insert(O).second)
          Todo.push_back(O);
  }
  return E;
}

// Calls of wrappers in source order: +1 for a begin wrapper, -1 for an end
// wrapper (a function that does both, like a balanced step, is neither).
std::vector<std::pair<const CallEdge *, int>>
boundaryCalls(const FunctionSummary &F, const std::map<std::string, Effect> &Effects,
              const Overriders &Over) {
  std::vector<std::pair<const CallEdge *, int>> Out;
  for (const auto &C : F.Calls) {
    if (C.CalleeUsr == F.Usr || C.HandedOn || C.EffectSeen)
      continue;
    Effect E = effectOfCall(C, Effects, Over);
    if (E.Opens == E.Closes)
      continue;
    Out.push_back({&C, E.Opens ? 1 : -1});
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const auto &A, const auto &B) { return A.first->Loc < B.first->Loc; });
  return Out;
}

Effect effectOf(const std::vector<std::pair<const CallEdge *, int>> &Calls) {
  Effect E;
  int Open = 0;
  for (const auto &[C, Step] : Calls) {
    if (Step > 0)
      ++Open;
    else if (Open > 0)
      --Open;
    else
      E.Closes = true;
  }
  E.Opens = Open > 0;
  return E;
}

struct Span {
  SourceLoc Begin; // Invalid: from the function's start (an end wrapper).
  std::optional<SourceLoc> End;
  bool Balanced = false;
  bool contains(const SourceLoc &L) const {
    return (!Begin.valid() || Begin < L) && (!End || L < *End);
  }
};

std::vector<Span> spansOf(const std::vector<std::pair<const CallEdge *, int>> &Calls) {
  std::vector<Span> Out;
  std::vector<SourceLoc> Open;
  for (const auto &[C, Step] : Calls) {
    if (Step > 0) {
      Open.push_back(C->Loc);
    } else if (!Open.empty()) {
      Out.push_back({Open.back(), C->Loc, true});
      Open.pop_back();
    } else {
      Out.push_back({SourceLoc{}, C->Loc, false});
    }
  }
  for (const auto &B : Open)
    Out.push_back({B, std::nullopt, false});
  return Out;
}

} // namespace

std::map<std::string, FunctionSummary> regionsAcrossUnits(const std::vector<TUSummary> &TUs,
                                                          const RuleSet &Rules) {
  std::map<std::string, const FunctionSummary *> ByUsr;
  std::map<std::string, Effect> Effects;
  Overriders Over;
  for (const auto &TU : TUs)
    for (const auto &F : TU.Functions) {
      if (!ByUsr.emplace(F.Usr, &F).second)
        continue;
      if (F.OpensCapture || F.ClosesCapture)
        Effects[F.Usr] = {F.OpensCapture, F.ClosesCapture};
      for (const auto &Base : F.Overrides)
        Over[Base].push_back(F.Usr);
    }
  std::map<std::string, FunctionSummary> Out;
  if (Effects.empty())
    return Out;
  // Wrappers of wrappers, across TUs: a few rounds cover realistic depth.
  for (int Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (const auto &[Usr, F] : ByUsr) {
      if (Effects.count(Usr))
        continue;
      Effect E = effectOf(boundaryCalls(*F, Effects, Over));
      if (E.Opens || E.Closes) {
        Effects[Usr] = E;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  auto mechanism = [&](const Site &S) {
    const Rule *R = Rules.find(S.RuleId);
    return R && R->isHostSideEffect();
  };
  for (const auto &[Usr, F] : ByUsr) {
    auto Calls = boundaryCalls(*F, Effects, Over);
    if (Calls.empty())
      continue;
    std::vector<Span> Spans = spansOf(Calls);
    // An end wrapper's code after its end call runs once the capture is over
    // (ONNX Runtime's OnRunEnd replays the graph it just captured).
    std::optional<SourceLoc> EndedAt;
    for (const Span &S : Spans)
      if (!S.Begin.valid() && S.End && (!EndedAt || *EndedAt < *S.End))
        EndedAt = S.End;
    FunctionSummary Copy = *F;
    bool Changed = false;
    // An end wrapper's way out before its end call runs with no capture open
    // (were one open, it would stay so): `if (!GraphsOn) { ...; return; }`.
    auto earlyExit = [&](const SourceLoc &L, const SourceLoc &End) {
      for (const auto &[First, Last] : F->ReturnBranches)
        if (First.File == L.File && !(L < First) && !(Last < L) && Last < End)
          return true;
      return false;
    };
    auto adjust = [&](CaptureContext &Ctx, SourceLoc &RegionBegin, const SourceLoc &L) {
      if (Ctx != CaptureContext::Ambient)
        return (const Span *)nullptr;
      for (const Span &S : Spans)
        if (S.contains(L)) {
          if (!S.Begin.valid() && S.End && earlyExit(L, *S.End)) {
            Ctx = CaptureContext::Outside;
            Changed = true;
            return (const Span *)nullptr;
          }
          if (S.Begin.valid()) {
            Ctx = CaptureContext::InRegion;
            RegionBegin = S.Begin;
            Changed = true;
          }
          return &S;
        }
      if (EndedAt && *EndedAt < L) {
        Ctx = CaptureContext::Outside;
        Changed = true;
      }
      return (const Span *)nullptr;
    };
    // The call of the end wrapper that closes a span runs under the capture
    // until the wrapper's own end call: what it does first (Paddle's
    // EndCUDAGraphCapture, ONNX Runtime's OnRunEnd) is captured code.
    // By the call (where, what): where its span began.
    std::map<std::pair<SourceLoc, std::string>, SourceLoc> Closing;
    for (const auto &[C, Step] : Calls)
      if (Step < 0)
        for (const Span &S : Spans)
          if (S.Balanced && S.End && C->Loc == *S.End)
            Closing.emplace(std::make_pair(C->Loc, C->CalleeUsr), S.Begin);
    // A wrapper's own span (it begins or ends the capture for its caller) is
    // the mechanism, for what its calls reach too.
    for (auto &C : Copy.Calls) {
      if (const Span *In = adjust(C.Context, C.RegionBegin, C.Loc); In && !In->Balanced)
        C.Mechanism = Changed = true;
      if (auto It = Closing.find({C.Loc, C.CalleeUsr});
          It != Closing.end() && C.Context == CaptureContext::Ambient) {
        C.Context = CaptureContext::InRegion;
        C.RegionBegin = It->second;
        Changed = true;
      }
    }
    std::vector<Site> Kept;
    for (auto &S : Copy.Sites) {
      const Span *In = adjust(S.Context, S.RegionBegin, S.Loc);
      if (In && !In->Balanced && mechanism(S)) {
        Changed = true;
        continue;
      }
      Kept.push_back(std::move(S));
    }
    Copy.Sites = std::move(Kept);
    if (Changed)
      Out.emplace(Usr, std::move(Copy));
  }
  return Out;
}

} // namespace graphsafe::lint
