#include "CaptureWrappers.h"

#include <algorithm>
#include <optional>

namespace graphsafe::lint {

namespace {

struct Effect {
  bool Opens = false, Closes = false;
};

// Calls of wrappers in source order: +1 for a begin wrapper, -1 for an end
// wrapper (a function that does both, like a balanced step, is neither).
std::vector<std::pair<const CallEdge *, int>>
boundaryCalls(const FunctionSummary &F, const std::map<std::string, Effect> &Effects) {
  std::vector<std::pair<const CallEdge *, int>> Out;
  for (const auto &C : F.Calls) {
    auto It = Effects.find(C.CalleeUsr);
    if (It == Effects.end() || C.CalleeUsr == F.Usr || It->second.Opens == It->second.Closes)
      continue;
    Out.push_back({&C, It->second.Opens ? 1 : -1});
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
  for (const auto &TU : TUs)
    for (const auto &F : TU.Functions)
      if (ByUsr.emplace(F.Usr, &F).second && (F.OpensCapture || F.ClosesCapture))
        Effects[F.Usr] = {F.OpensCapture, F.ClosesCapture};
  std::map<std::string, FunctionSummary> Out;
  if (Effects.empty())
    return Out;
  // Wrappers of wrappers, across TUs: a few rounds cover realistic depth.
  for (int Round = 0; Round < 4; ++Round) {
    bool Changed = false;
    for (const auto &[Usr, F] : ByUsr) {
      if (Effects.count(Usr))
        continue;
      Effect E = effectOf(boundaryCalls(*F, Effects));
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
    return R && R->Category == "host-side-effect";
  };
  for (const auto &[Usr, F] : ByUsr) {
    auto Calls = boundaryCalls(*F, Effects);
    if (Calls.empty())
      continue;
    std::vector<Span> Spans = spansOf(Calls);
    FunctionSummary Copy = *F;
    bool Changed = false;
    auto adjust = [&](CaptureContext &Ctx, SourceLoc &RegionBegin, const SourceLoc &L) {
      if (Ctx != CaptureContext::Ambient)
        return (const Span *)nullptr;
      for (const Span &S : Spans)
        if (S.contains(L)) {
          if (S.Begin.valid()) {
            Ctx = CaptureContext::InRegion;
            RegionBegin = S.Begin;
            Changed = true;
          }
          return &S;
        }
      return (const Span *)nullptr;
    };
    for (auto &C : Copy.Calls)
      adjust(C.Context, C.RegionBegin, C.Loc);
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
