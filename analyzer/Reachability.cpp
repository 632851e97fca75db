#include "Reachability.h"

#include "CaptureWrappers.h"
#include "ClassHierarchy.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>

namespace graphsafe::lint {

namespace {

// Gate: the environment variable the site runs only under (its own, or
// that of every call chain reaching it); such code is off by default, so it
// is at most a note.
Finding makeFinding(const Site &S, const RuleSet &Rules, const std::string &Gate = "") {
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
  const std::string &Env = S.EnvGate.empty() ? Gate : S.EnvGate;
  if (std::string_view(Env).substr(0, GateClause.size()) == GateClause) {
    F.Level = std::min(F.Level, Severity::Note);
    F.Message += fmt::format(" ({})", Env.substr(GateClause.size()));
  } else if (!Env.empty()) {
    F.Level = std::min(F.Level, Severity::Note);
    F.Message += fmt::format(" (only when the environment sets {})", Env);
  }
  return F;
}

// The functions of all TUs and who calls whom. Capture regions and thread
// starts are both roots of the same walk: what a root reaches runs where the
// root does.
class CallGraph {
public:
  struct Reached {
    std::string Caller; // Empty for functions reached straight from a root.
    const CallEdge *Via = nullptr;
    // The literals each walk of the function had for its parameters (one
    // entry per context; an empty entry: none known, every branch may run).
    std::vector<std::vector<ConstArg>> With;
    // Per entry of With: the environment variable that walk needed set.
    std::vector<std::string> Gates;
    // Per entry of With: the walk came through the capture mechanism's own
    // calls (its registry, its logging), whose host bookkeeping is no finding.
    std::vector<bool> Mechanisms;
    // Per entry of With: the caller and the call that walk came through,
    // and which of the caller's walks made it (-1 for a root), so that a
    // chain follows the walk that reached the code, not the caller's first.
    std::vector<std::pair<std::string, const CallEdge *>> From;
    std::vector<int> FromWalk;
    // Whether code under these tests of the parameters runs in some walk.
    bool runs(const std::vector<ParamTest> &When) const {
      return When.empty() || std::any_of(With.begin(), With.end(),
                                         [&](const auto &W) { return runsWith(When, W); });
    }
    // For code under When: "" when some walk running it needed no
    // environment variable, else the variable one of them needed; nothing
    // when no walk runs it. Bookkeeping: host state and logging, which the
    // walks through the capture mechanism do not count for.
    std::optional<std::string> gate(const std::vector<ParamTest> &When,
                                    bool Bookkeeping = false) const {
      std::optional<std::string> Out;
      for (size_t I = 0; I < With.size(); ++I)
        if (runsWith(When, With[I]) && !(Bookkeeping && Mechanisms[I])) {
          if (Gates[I].empty())
            return std::string();
          Out = Out ? Out : Gates[I];
        }
      return Out;
    }
  };
  using ReachedSet = std::map<std::string, Reached>;

  CallGraph(const std::vector<TUSummary> &TUs, const RuleSet &Rules)
      : Classes(TUs), AcrossUnits(regionsAcrossUnits(TUs, Rules)) {
    // The same inline or header function is summarised by every TU that sees
    // it; the first summary stands for all.
    for (const auto &TU : TUs) {
      for (const auto &F : TU.Functions) {
        auto Adjusted = AcrossUnits.find(F.Usr);
        if (!ByUsr.emplace(F.Usr, Adjusted == AcrossUnits.end() ? &F : &Adjusted->second).second)
          continue;
        for (const auto &Base : F.Overrides)
          Overriders[Base].push_back(F.Usr);
        auto note = [&](const ParamTest &T) {
          if (!T.Global.empty())
            return;
          Tested[F.Usr].insert(T.Index);
          if (!T.Attr.empty())
            TestedAttrs.insert(T.Attr.rfind(KwargsHas, 0) == 0 ? KwargsKeys : T.Attr);
        };
        for (const auto &S : F.Sites)
          for (const auto &T : S.When)
            note(T);
        for (const auto &C : F.Calls) {
          for (const auto &T : C.When)
            note(T);
          // Parameters some function calls through or hands on: only
          // bindings of those make a walk's context.
          CalledParams.insert(C.CalleeUsr);
          for (const auto &B : C.Binds)
            if (B.second.rfind('=', 0) == 0)
              CalledParams.insert(B.second.substr(1));
          // The class of the object a method is called on.
          if (C.ReceiverParam >= 0)
            Tested[F.Usr].insert(static_cast<unsigned>(C.ReceiverParam));
          if (!C.ReceiverAttr.empty())
            TestedAttrs.insert(C.ReceiverAttr + std::string(AttrClasses));
          // A parameter passed on is tested where it goes.
          for (const auto &K : C.Constants)
            if (K.From >= 0)
              Tested[F.Usr].insert(static_cast<unsigned>(K.From));
          // Its `**kwargs` passed on decides the callee's defaults.
          if (C.KeywordSplat == CallEdge::Splat::OwnKwargs ||
              std::any_of(C.Constants.begin(), C.Constants.end(),
                          [](const ConstArg &K) { return K.IfKwargsEmpty; }))
            Tested[F.Usr].insert(KwargsParam);
        }
      }
      // A call through storage reaches what any TU stored there; what is
      // stored may itself be storage (a parameter handed to an attribute).
      for (const auto &[Storage, Callee] : TU.CallableStores)
        if (Storage == "py:shifted") {
          Shifted.insert(Callee);
        } else if (Storage == ReceiverStore) {
          if (auto R = parseReceiverStore(Callee)) {
            // What a receiver is known to hold is worth carrying down a walk.
            for (const ConstArg &C : R->Receiver)
              TestedAttrs.insert(C.Attr);
            OnReceivers[{R->Storage, R->Callable}].push_back(std::move(R->Receiver));
          }
        } else {
          Stores[Storage].push_back(Callee);
        }
    }
    // A callable also stored where nothing was known of the receiver may
    // run on any object.
    for (auto It = OnReceivers.begin(); It != OnReceivers.end();) {
      const auto &Held = Stores[It->first.first];
      auto Plain = static_cast<size_t>(std::count(Held.begin(), Held.end(), It->first.second));
      It = Plain > It->second.size() ? OnReceivers.erase(It) : std::next(It);
    }
    fillBeforeOwnStores();
    bindArgumentsOfStoredCalls();
    learnPrograms(TUs);
    learnCallableParams();
  }

  // The functions a call may run: the callee, its overrides unless the
  // receiver's class is exact, and whatever reaches its storage, transitively.
  // SelfClass is the class `self` has in the caller, where the walk knows it.
  // Bound: the callables the walk's caller was handed for its parameters; a
  // call through one of them runs those alone.
  using Bindings = std::map<std::string, std::vector<std::string>>;
  // Whether the method Caller, whose `self.m()` may run the override M,
  // runs on instances of M's class at all: a subclass that overrides Caller
  // runs its own, so from Caller its overrides of m are never reached (a
  // base's forward calling `self.moe_infer()` does not run the moe_infer of
  // a subclass with a forward of its own). Self's own class, as the walk
  // knows it (a `super().forward()` from that subclass), and a caller that is
  // no method of that hierarchy (a closure), leave M be.
  bool runsOnOwnerOf(const std::string &Caller, const std::string &M,
                     const std::string &SelfClass) const {
    size_t Dot = Caller.rfind('.');
    std::string Owner = Classes.owner(M);
    if (Caller.empty() || Dot == std::string::npos || Owner.empty() || Owner == SelfClass ||
        Classes.derives(SelfClass, Owner))
      return true;
    const auto &Runs = Classes.dispatch(Owner, Caller.substr(Dot + 1), true);
    if (Runs.empty() || Runs.front() == Caller)
      return true;
    // Another method of that name runs there: an override below Caller's class.
    return !Classes.derives(Classes.owner(Runs.front()), Classes.owner(Caller));
  }

  // External, when given, receives the code outside the analysed files the
  // call may run (`ext:NAME` keys). BlockedIO: the own stores the walk's
  // caller may not see (noteBeforeOwnStore), and on return those this call
  // may not either: a wrapper read before its function stores the attribute
  // wraps none of that function's stores, however deep it calls.
  std::vector<std::string> targets(const CallEdge &Via, bool *Known = nullptr,
                                   const std::string &SelfClass = "",
                                   const Bindings *Bound = nullptr,
                                   std::vector<std::string> *External = nullptr,
                                   const std::vector<ConstArg> *CallerKnew = nullptr,
                                   std::set<std::string> *BlockedIO = nullptr,
                                   const std::string &Caller = "",
                                   std::set<std::string> *Computed = nullptr) const {
    std::vector<std::string> Out;
    std::map<std::string, std::vector<std::string>> Lookups;
    if (CallerKnew && !receiverMayRun(Via, *CallerKnew))
      return Out;
    std::set<std::string> Seen = {Via.CalleeUsr}, Unblocked;
    std::set<std::string> &Blocked = BlockedIO ? *BlockedIO : Unblocked;
    std::vector<std::string> Todo = {Via.CalleeUsr};
    if (Bound)
      if (auto It = Bound->find(Via.CalleeUsr); It != Bound->end()) {
        Todo = It->second;
        Seen.insert(Todo.begin(), Todo.end());
      }
    if (!Via.SelfMethod.empty()) {
      std::string Class = SelfClass.empty() ? Via.Receiver : SelfClass;
      bool Exact = !Class.empty() && Class[0] == '=';
      const auto &Methods =
          Classes.dispatch(Exact ? Class.substr(1) : Class, Via.SelfMethod, Exact);
      for (const auto &M : Methods)
        if (runsOnOwnerOf(Caller, M, Exact ? Class.substr(1) : Class)) {
          Todo.push_back(M);
          Seen.insert(M);
        }
    }
    while (!Todo.empty()) {
      std::string Key = std::move(Todo.back());
      Todo.pop_back();
      // A lookup by a computed name stored there: weighed below, once the
      // arguments have ruled out what cannot take them.
      if (Key.rfind(ComputedLookup, 0) == 0) {
        auto It = Stores.find(Key);
        Lookups[Key] = It == Stores.end() ? std::vector<std::string>() : It->second;
        continue;
      }
      if (ByUsr.count(Key))
        Out.push_back(Key);
      // What the functions held in some storage return, called.
      if (Key.rfind(ResultOf, 0) == 0)
        for (const auto &F : storedFunctions(Key.substr(ResultOf.size())))
          if (std::string R = pyReturnKey(F); Seen.insert(R).second)
            Todo.push_back(R);
      if (Key.rfind("ext:", 0) == 0) {
        if (Known)
          *Known = true;
        if (External)
          External->push_back(Key);
      }
      noteBeforeOwnStore(Key, Blocked);
      auto follow = [&](const std::map<std::string, std::vector<std::string>> &Edges) {
        if (auto It = Edges.find(Key); It != Edges.end())
          for (const auto &T : It->second)
            if (!blocked(T, Blocked) && !storedOnOthers(Via, Key, T, CallerKnew) &&
                Seen.insert(T).second)
              Todo.push_back(T);
      };
      follow(Stores);
      if (!Via.Exact || Key != Via.CalleeUsr)
        if (auto It = Overriders.find(Key); It != Overriders.end())
          for (const auto &T : madeOverrides(Key, It->second))
            if (Seen.insert(T).second)
              Todo.push_back(T);
    }
    // A call through a value passing N positional arguments does not run a
    // stored function that cannot take N (it would raise TypeError).
    auto cannotTake = [&](const std::string &T) {
      const FunctionSummary *F = ByUsr.at(T);
      return Via.Dynamic && Via.Positional >= 0 && !Shifted.count(T) &&
             (F->MinArgs > Via.Positional || (F->MaxArgs >= 0 && F->MaxArgs < Via.Positional));
    };
    Out.erase(std::remove_if(Out.begin(), Out.end(), cannotTake), Out.end());
    // Of what the attribute's type lets run, only the methods of the classes
    // this very object's attribute holds do. (The type stays the bound: it
    // knows what the constructors' branches cannot build here, a platform's
    // branches among them.)
    if (auto Runs = CallerKnew ? attributeRuns(Via, *CallerKnew) : std::nullopt)
      Out.erase(std::remove_if(Out.begin(), Out.end(),
                               [&](const std::string &T) { return !Runs->count(T); }),
                Out.end());
    // What a lookup may give and can take these arguments is run where it
    // is a few functions (`forward_{mode}` of a handful of modes); past
    // that, or where nothing narrows the name, the call is said not to be
    // followed there.
    for (const auto &[Lookup, Candidates] : Lookups) {
      std::vector<std::string> Fit;
      for (const auto &C : Candidates)
        if (ByUsr.count(C) && !cannotTake(C))
          Fit.push_back(C);
      if (Fit.empty() || Fit.size() > MaxLookedUp) {
        if (Computed)
          Computed->insert(Lookup.substr(ComputedLookup.size()));
        continue;
      }
      for (auto &F : Fit)
        if (std::find(Out.begin(), Out.end(), F) == Out.end())
          Out.push_back(std::move(F));
    }
    return Out;
  }

  // Whether the call `self.attr(...)` cannot run T, stored under Key: every
  // store of T there was made by a call on an object whose attributes, as
  // that caller knew them, differ from what this walk knows of its self
  // (`Capture(model, use_graphs=False)(step)` against a capture reached
  // under `if self.cuda_graphs_enabled:`).
  bool storedOnOthers(const CallEdge &Via, const std::string &Key, const std::string &T,
                      const std::vector<ConstArg> *CallerKnew) const {
    if (!CallerKnew || Via.ReceiverAttr.empty() ||
        Via.ReceiverParam != static_cast<int>(ObjectParam))
      return false;
    auto It = OnReceivers.find({Key, T});
    if (It == OnReceivers.end())
      return false;
    auto differs = [&](const std::vector<ConstArg> &Receiver) {
      for (const ConstArg &R : Receiver)
        for (const ConstArg &K : *CallerKnew)
          if (K.Index == ObjectParam && K.From < 0 && K.Global.empty() && K.Attr == R.Attr &&
              ((K.TruthKnown && R.TruthKnown && K.Truthy != R.Truthy) ||
               (K.NoneKnown && R.NoneKnown && K.IsNone != R.IsNone)))
            return true;
      return false;
    };
    return std::all_of(It->second.begin(), It->second.end(), differs);
  }

  // The overrides a virtual call leaves out, at any depth below its callee,
  // because no analysed file constructs a class that runs them (rapid type
  // analysis): what it runs unchecked where such an object is made in code
  // outside the analysis.
  std::vector<std::string> overridesNotMade(const CallEdge &Via) const {
    std::vector<std::string> Out;
    if (Via.Exact)
      return Out;
    std::set<std::string> Seen = {Via.CalleeUsr};
    std::vector<std::string> Todo = {Via.CalleeUsr};
    while (!Todo.empty()) {
      std::string Key = std::move(Todo.back());
      Todo.pop_back();
      auto It = Overriders.find(Key);
      if (It == Overriders.end())
        continue;
      const std::vector<std::string> Kept = madeOverrides(Key, It->second);
      for (const auto &O : It->second) {
        if (!Seen.insert(O).second)
          continue;
        if (std::find(Kept.begin(), Kept.end(), O) == Kept.end())
          Out.push_back(O);
        else
          Todo.push_back(O);
      }
    }
    return Out;
  }

  const std::map<std::string, const FunctionSummary *> &functions() const { return ByUsr; }
  const FunctionSummary *at(const std::string &Usr) const { return ByUsr.at(Usr); }
  const FunctionSummary *find(const std::string &Usr) const {
    auto It = ByUsr.find(Usr);
    return It == ByUsr.end() ? nullptr : It->second;
  }

  // Everything the root edges reach through calls made in the callee's own
  // context (not before or after its own regions, nor behind a guard).
  // A function is walked once per class its `self` may have (a few at most),
  // so the self calls of an inherited method dispatch on the class that
  // reached it; the first way a function is reached is the one reported.
  ReachedSet reach(const std::vector<const CallEdge *> &Roots,
                   const std::vector<std::vector<ConstArg>> &RootKnew = {},
                   const std::vector<Bindings> &RootBound = {}) const {
    ReachedSet Seen;
    // A context: the class `self` has, the literals the call passed, and the
    // environment variable the chain of calls needed set.
    struct Context {
      std::string Self;
      std::vector<ConstArg> Passed;
      std::string Gate;
      bool Mechanism = false;
      Bindings Bound;
      int Walk = -1;                 // its entry in the function's Reached
      std::set<std::string> Blocked; // see targets()
      int Hidden = 0;                // the classes its program cannot meet (hiddenFor)
    };
    std::map<std::pair<std::string, std::string>, Context> Walked;
    // Per function and program: each program has room for its own contexts.
    std::map<std::pair<std::string, int>, int> Contexts;
    // And per class of self: a method inherited by several subclasses is
    // walked for each, each with room for its own literals.
    std::map<std::tuple<std::string, int, std::string>, int> SelfContexts;
    std::deque<std::pair<std::string, std::string>> Queue;
    auto visit = [&](const CallEdge &Via, const std::string &Caller, const std::string &Self,
                     const std::string &CallerGate, const std::vector<ConstArg> &CallerKnew,
                     bool CallerMechanism, const Bindings &CallerBound, int CallerWalk,
                     const std::set<std::string> &CallerBlocked, int Hidden) {
      // What this call hands the callee's callable parameters; a parameter
      // handed on carries what the caller was handed, when the walk knows it.
      Bindings CallsBound;
      std::string CallsBoundKey;
      for (const auto &[Param, Callable] : Via.Binds) {
        if (Callable.empty()) { // the call hands it no callable
          if (CalledParams.count(Param))
            CallsBound[Param];
          continue;
        }
        if (Callable.rfind('=', 0) != 0) {
          CallsBound[Param].push_back(Callable);
          continue;
        }
        if (auto It = CallerBound.find(Callable.substr(1)); It != CallerBound.end())
          CallsBound[Param].insert(CallsBound[Param].end(), It->second.begin(), It->second.end());
      }
      for (const auto &[Param, Callables] : CallsBound)
        CallsBoundKey += fmt::format("|{}={}", Param, fmt::join(Callables, ","));
      std::vector<ConstArg> Known = factsAtCall(Via, CallerKnew, false);
      const std::string &Gate = CallerGate.empty() ? Via.EnvGate : CallerGate;
      bool Mechanism = CallerMechanism || Via.Mechanism;
      bool KeepsSelf = Via.Receiver.rfind('^', 0) == 0;
      std::string CalleeSelf = KeepsSelf ? (Self.empty() ? Via.Receiver.substr(1) : Self)
                               : Via.SelfMethod.empty() ? Via.Receiver
                               : Self.empty()           ? Via.Receiver
                                                        : Self;
      std::set<std::string> Blocked = CallerBlocked;
      auto Targets =
          targets(Via, nullptr, Self, &CallerBound, nullptr, &CallerKnew, &Blocked, Caller);
      std::string BlockedKey =
          Blocked.empty() ? "" : fmt::format("|blocked={}", fmt::join(Blocked, ","));
      const bool ThroughBound = CallerBound.count(Via.CalleeUsr) > 0;
      for (const auto &T : Targets) {
        if (hiddenCode(T, *HiddenSets[Hidden]))
          continue;
        // A closure of a function the walk knows the callables of sees them
        // too (`def call_fn(): fn(*args)` inside the capturing helper).
        Bindings Bound = CallsBound;
        std::string BoundKey = CallsBoundKey;
        for (const auto &[Param, Callables] : CallerBound)
          if (!Bound.count(Param) && enclosedBy(T, Param)) {
            Bound[Param] = Callables;
            BoundKey += fmt::format("|{}={}", Param, fmt::join(Callables, ","));
          }
        Reached &R = Seen.emplace(T, Reached{Caller, &Via}).first->second;
        // Inside a method a subclass of the receiver's class defines, self is
        // an instance of that subclass: its own self calls dispatch below it,
        // not over the receiver class's other subclasses.
        std::string TargetSelf = CalleeSelf;
        if (!TargetSelf.empty() && TargetSelf[0] != '=' && TargetSelf[0] != '^')
          if (std::string Owner = Classes.owner(T);
              !Owner.empty() && Owner != TargetSelf && Classes.derives(Owner, TargetSelf))
            TargetSelf = std::move(Owner);
        // Only literals for parameters the callee tests make a context of
        // their own; the rest would walk it again for nothing.
        std::vector<ConstArg> Passed;
        std::string Key = TargetSelf;
        auto It = Tested.find(T);
        bool Moved = Via.Dynamic && Shifted.count(T);
        std::vector<ConstArg> KnownHere =
            byCallee(Moved ? factsAtCall(Via, CallerKnew, true) : Known, Via, T,
                     kwargsEmpty(CallerKnew), Moved);
        if (ThroughBound)
          if (auto CF = closureFacts().find(T); CF != closureFacts().end())
            for (const ConstArg &C : CF->second)
              if (std::none_of(KnownHere.begin(), KnownHere.end(),
                               [&](const ConstArg &K) { return K.Global == C.Global; }))
                KnownHere.push_back(C);
        for (const ConstArg &C : KnownHere)
          if (!C.Global.empty()) {
            if (!concerns(C, T))
              continue;
            // Kept whether or not this callee tests it: a callee further down may.
            Passed.push_back(C);
            Key += fmt::format("|{}{}", C.Global, C.Truthy ? "t" : "f");
          } else if (It != Tested.end() && It->second.count(C.Index) &&
                     (C.Attr.empty() || testedAttr(C.Attr) || C.Attr.rfind(ClassFact, 0) == 0)) {
            Passed.push_back(C);
            Key += fmt::format("|{}.{}{}{}{}{}", C.Index, C.Attr,
                               C.TruthKnown ? (C.Truthy ? "t" : "f") : "?",
                               C.NoneKnown ? (C.IsNone ? "n" : "v") : "?", C.TextKnown ? "=" : "",
                               C.Text);
          }
        if (!Gate.empty())
          Key += "|env";
        if (Mechanism)
          Key += "|mechanism";
        Key += BoundKey + BlockedKey;
        if (Hidden)
          Key += fmt::format("|program{}", Hidden);
        // Past the bound, one context stands for the rest: it knows only the
        // literals every one of them passes, and is walked again each time a
        // later one leaves one of those out.
        int &OfSelf = SelfContexts[{T, Hidden, TargetSelf}];
        bool Room = OfSelf < MaxContextsPerSelf && Contexts[{T, Hidden}] < MaxContexts;
        Context Ctx = Room
                          ? Context{TargetSelf, Passed, Gate, Mechanism, Bound, -1, Blocked, Hidden}
                          : Context{{}, Passed};
        Ctx.Hidden = Hidden;
        Ctx.Walk = static_cast<int>(R.With.size());
        std::string Fallback = Hidden ? fmt::format("|program{}", Hidden) : "";
        auto [At, New] = Walked.emplace(std::make_pair(T, Room ? Key : Fallback), Ctx);
        if (New) {
          ++Contexts[{T, Hidden}];
          ++OfSelf;
          R.FromWalk.push_back(CallerWalk);
          R.With.push_back(Ctx.Passed);
          R.Gates.push_back(Ctx.Gate);
          R.Mechanisms.push_back(Ctx.Mechanism);
          R.From.push_back({Caller, &Via});
          Queue.push_back({T, Room ? Key : Fallback});
        } else if (!Room && meetFacts(At->second.Passed, Passed)) {
          R.With[At->second.Walk] = At->second.Passed;
          Queue.push_back({T, Fallback});
        }
      }
    };
    for (size_t I = 0; I < Roots.size(); ++I)
      visit(*Roots[I], "", "", "", I < RootKnew.size() ? RootKnew[I] : std::vector<ConstArg>{},
            false, I < RootBound.size() ? RootBound[I] : Bindings{}, -1, {}, hiddenFor(*Roots[I]));
    while (!Queue.empty()) {
      auto At = Queue.front();
      Queue.pop_front();
      // std::map keeps references valid while visit adds contexts.
      const Context &Ctx = Walked.at(At);
      for (const auto &C : ByUsr.at(At.first)->Calls)
        if ((C.Context == CaptureContext::Ambient || C.Context == CaptureContext::InRegion) &&
            runsWith(C.When, Ctx.Passed))
          visit(C, At.first, Ctx.Self, Ctx.Gate, Ctx.Passed, Ctx.Mechanism, Ctx.Bound, Ctx.Walk,
                Ctx.Blocked, Ctx.Hidden);
    }
    return Seen;
  }

  // Notes from Usr back to the root that reached it, one per call, worded by
  // CallNote; the root's own call is worded by RootNote. Both are fmt
  // templates of the callee's name. Root receives the root edge. For code
  // under tests of Usr's parameters (When), the first call is one whose
  // literals let that code run.
  std::vector<Note> chain(const ReachedSet &Seen, const std::string &Usr, const char *CallNote,
                          const char *RootNote, const CallEdge **Root,
                          const std::vector<ParamTest> &When = {}) const {
    std::vector<Note> Out;
    std::string Cur = Usr;
    const Reached &First = Seen.at(Usr);
    std::string Caller = First.Caller;
    const CallEdge *Via = First.Via;
    int Walk = First.FromWalk.empty() ? -1 : First.FromWalk.front();
    for (size_t I = 0; !When.empty() && I < First.With.size(); ++I)
      if (runsWith(When, First.With[I])) {
        std::tie(Caller, Via) = First.From[I];
        Walk = First.FromWalk[I];
        break;
      }
    for (int Depth = 0; Via && Depth < 32; ++Depth) {
      bool AtRoot = Caller.empty();
      Out.push_back(
          {fmt::format(fmt::runtime(AtRoot ? RootNote : CallNote), ByUsr.at(Cur)->Name), Via->Loc});
      if (AtRoot) {
        *Root = Via;
        break;
      }
      Cur = Caller;
      const Reached &Step = Seen.at(Cur);
      Caller = Step.Caller;
      Via = Step.Via;
      if (Walk >= 0 && static_cast<size_t>(Walk) < Step.From.size()) {
        std::tie(Caller, Via) = Step.From[Walk];
        Walk = Step.FromWalk[Walk];
      } else {
        Walk = Step.FromWalk.empty() ? -1 : Step.FromWalk.front();
      }
    }
    return Out;
  }

  // The ways Usr is entered, each with what holds on it: mode flags (a
  // caller's `with set_mode(True):`, or its own callers'), Usr's parameters
  // and their attributes (a literal passed, the `else:` of
  // `if state.is_prefill:` in a caller above). One way per chain of callers,
  // so a caller whose own callers rule out the call (`assert state1 is None`
  // where they pass an object) adds none; past MaxEntries, one way with what
  // they all agree on. One way knowing nothing when nothing calls Usr or a
  // chain is cut (a cycle, more than 8 callers up). Callers outside the
  // analysed code are not seen.
  using Entries = std::vector<std::vector<ConstArg>>;
  Entries entryContexts(const std::string &Usr) const {
    learnCallers();
    std::set<std::string> Visiting;
    return entryContextsAt(Usr, 0, Visiting);
  }

  // The callables Usr's callable parameters hold where code of Usr runs
  // under When (tests of its parameters): what the calls into Usr pass that
  // can meet When, and what their callers hand on, likewise, up to four
  // callers up. A capture that runs only under a flag calls what the callers
  // setting the flag pass, not what every caller passes (a benchmark helper
  // capturing when `use_cuda_graph` is set). A chain the callers cannot tell
  // (too far up, a cycle) leaves the parameter's storage: every caller's.
  Bindings entryBindings(const std::string &Usr, const std::vector<ParamTest> &When) const {
    learnCallers();
    std::set<std::string> Visiting;
    return entryBindingsAt(Usr, When, 0, Visiting);
  }

  // A method called on an object the caller was handed runs, where the
  // walk knows the object's class, that class's method alone; where it does
  // not, the method of the class the parameter is declared or passed as,
  // and no override of a subclass (those are not guessed: --explain-reach
  // says which were left).
  bool receiverMayRun(const CallEdge &Via, const std::vector<ConstArg> &CallerKnew) const {
    if (Via.ReceiverParam < 0)
      return true;
    if (!Via.ReceiverAttr.empty())
      return true; // decided per function reached (attributeRuns)
    std::string Class = Via.Receiver;
    bool Known = false;
    for (const ConstArg &K : CallerKnew)
      if (K.Global.empty() && K.From < 0 && static_cast<int>(K.Index) == Via.ReceiverParam &&
          K.Attr.rfind(ClassFact, 0) == 0) {
        Class = K.Attr.substr(ClassFact.size());
        Known = true;
      }
    bool Exact = Known;
    if (!Class.empty() && Class[0] == '=') {
      Class = Class.substr(1);
      Exact = true;
    }
    if (Class.empty())
      return true;
    // A declared class (an annotation) whose hierarchy the program never
    // builds an object of: the objects come from code not analysed (a
    // registry importing classes by name), so any override may run.
    if (!Exact && !madeBelow(Class, Via.ParamMethod))
      return true;
    const auto &Ms = Classes.dispatch(Class, Via.ParamMethod, true);
    return Ms.empty() ? !Known : Ms.front() == Via.CalleeUsr;
  }

  // A call on an attribute of the receiver (`self.encoder(x)`): where the
  // walk knows which classes this object's attribute holds, the functions
  // those classes dispatch the call to; nothing where it does not know.
  std::optional<std::set<std::string>>
  attributeRuns(const CallEdge &Via, const std::vector<ConstArg> &CallerKnew) const {
    if (Via.ReceiverAttr.empty())
      return std::nullopt;
    const std::string Attr = Via.ReceiverAttr + std::string(AttrClasses);
    auto Known = std::find_if(CallerKnew.begin(), CallerKnew.end(), [&](const ConstArg &K) {
      return K.Global.empty() && K.From < 0 && static_cast<int>(K.Index) == Via.ReceiverParam &&
             K.Attr == Attr && K.TextKnown;
    });
    if (Known == CallerKnew.end())
      return std::nullopt;
    std::vector<std::string> Methods = {Via.ParamMethod};
    if (Via.ParamMethod.empty())
      Methods = {"forward", "__call__"};
    std::set<std::string> Runs;
    for (std::string_view Class : listed(Known->Text))
      for (const auto &M : Methods)
        if (const auto &Ms = Classes.dispatch(std::string(Class), M, true); !Ms.empty())
          Runs.insert(Ms.front());
    return Runs;
  }

private:
  static constexpr std::string_view ResultOf = "py:retof:", ArgumentOf = "py:argof:";

  // The Python functions storage Key holds, through other storage and the
  // results of calls through it, remembered. A key asked again while being
  // worked out (storage whose functions return into it) gives what is found
  // so far; past the depth bound nothing, and what depended on that is not
  // remembered.
  const std::vector<std::string> &storedFunctions(const std::string &Key, int Depth = 0) const {
    if (auto It = StoredMemo.find(Key); It != StoredMemo.end())
      return It->second;
    // A result the depth bound cut serves any ask as deep or deeper: asked
    // again there it would be cut as short. Without this, chains of storage
    // through call results (NeMo's) were worked out again at every ask.
    // It is still cut: what is worked out from it is too.
    if (auto It = Partial.find(Key); It != Partial.end() && It->second.first <= Depth) {
      ++Cut;
      return It->second.second;
    }
    static const std::vector<std::string> None;
    if (Depth >= 16) {
      ++Cut;
      return None;
    }
    const unsigned long CutBefore = Cut;
    StoredMemo.emplace(Key, std::vector<std::string>{});
    std::vector<std::string> Found = findStoredFunctions(Key, Depth);
    if (CutBefore == Cut)
      return StoredMemo[Key] = std::move(Found);
    StoredMemo.erase(Key);
    auto &Cached = Partial[Key];
    Cached = {Depth, std::move(Found)};
    return Cached.second;
  }
  mutable std::map<std::string, std::vector<std::string>> StoredMemo;
  mutable std::map<std::string, std::pair<int, std::vector<std::string>>> Partial;
  mutable unsigned long Cut = 0;
  std::set<std::string> CalledParams, CallableParams;

  std::vector<std::string> findStoredFunctions(const std::string &Key, int Depth) const {
    std::vector<std::string> Out;
    std::unordered_set<std::string> Found;
    std::set<std::string> Seen = {Key}, Blocked;
    std::vector<std::string> Todo = {Key};
    while (!Todo.empty()) {
      std::string K = std::move(Todo.back());
      Todo.pop_back();
      // Storage already worked out holds what it was found to hold: most
      // keys lead into the same few large sets (a parameter every caller fills).
      // Under a read before its own function's store, what others found
      // may hold that store: walked again.
      noteBeforeOwnStore(K, Blocked);
      if (K != Key && Blocked.empty())
        if (auto It = StoredMemo.find(K); It != StoredMemo.end()) {
          for (const auto &F : It->second)
            if (Found.insert(F).second)
              Out.push_back(F);
          continue;
        }
      if (ByUsr.count(K) && K.rfind("py:", 0) == 0 && Found.insert(K).second)
        Out.push_back(K);
      if (K.rfind(ResultOf, 0) == 0)
        for (const auto &F : storedFunctions(K.substr(ResultOf.size()), Depth + 1))
          if (std::string R = pyReturnKey(F); Seen.insert(R).second)
            Todo.push_back(R);
      if (auto It = Stores.find(K); It != Stores.end())
        for (const auto &T : It->second)
          if (!blocked(T, Blocked) && Seen.insert(T).second)
            Todo.push_back(T);
    }
    return Out;
  }

  // A read made before its own function's store of the attribute (K) sees
  // none of that function's stores, also where another function copied the
  // attribute (`x.f = align(x.f)`) and so holds them: they are blocked for
  // the rest of the walk.
  // The stores are kept under each class of the receiver and its bases, so
  // what is blocked is the attribute's name and the function.
  static void noteBeforeOwnStore(const std::string &K, std::set<std::string> &Blocked) {
    if (size_t At = K.find(BeforeOwnStore); At != std::string::npos)
      for (const auto &F : unseenFunctions(K, At))
        Blocked.insert(ownStoreKey(attributeName(K.substr(0, At)), F));
  }
  // The functions whose stores a before-own-store key leaves out.
  static std::vector<std::string> unseenFunctions(const std::string &K, size_t At) {
    std::vector<std::string> Out;
    std::string_view Rest = std::string_view(K).substr(At + BeforeOwnStore.size());
    for (size_t Comma; (Comma = Rest.find(',')) != std::string_view::npos;
         Rest.remove_prefix(Comma + 1))
      Out.emplace_back(Rest.substr(0, Comma));
    Out.emplace_back(Rest);
    return Out;
  }
  static bool blocked(const std::string &K, const std::set<std::string> &Blocked) {
    if (Blocked.empty())
      return false;
    size_t At = K.find(OwnStore);
    if (At == std::string::npos)
      return false;
    std::string Attr = attributeName(K.substr(0, At)), Store = K.substr(At + OwnStore.size());
    return Blocked.count(ownStoreKey(Attr, Store)) ||
           Blocked.count(ownStoreKey(Attr, withoutStorePlace(Store)));
  }
  static std::string attributeName(const std::string &Base) {
    return Base.substr(Base.rfind('.') + 1);
  }

  // An attribute read before its own function's later store sees every
  // store of the attribute but that function's (`x.f = wrap(x.f)` hands
  // wrap the old value, not the wrapper).
  void fillBeforeOwnStores() {
    std::set<std::string> Keys;
    auto note = [&](const std::string &K) {
      if (K.find(BeforeOwnStore) != std::string::npos)
        Keys.insert(K);
    };
    for (const auto &[K, Values] : Stores)
      for (const auto &V : Values)
        note(V);
    for (const auto &[Usr, F] : ByUsr)
      for (const auto &C : F->Calls)
        note(C.CalleeUsr);
    for (const auto &K : Keys) {
      size_t At = K.find(BeforeOwnStore);
      std::string Base = K.substr(0, At);
      std::set<std::string> Own;
      for (const auto &F : unseenFunctions(K, At))
        Own.insert(ownStoreKey(Base, F));
      auto It = Stores.find(Base);
      if (It == Stores.end())
        continue;
      // A store is named by its function, or by its place there
      // (storePlaceName).
      std::vector<std::string> Seen;
      for (const auto &V : It->second)
        if (!Own.count(V) && !Own.count(withoutStorePlace(V)))
          Seen.push_back(V);
      Stores[K] = std::move(Seen);
    }
  }

  // Python test modules that nothing imports are programs of their own
  // (TUSummary::ImportedFiles): a class only such files build (a test's
  // stub) exists only while the test building it runs. LeafOnly: those
  // classes. Other files nothing analysed imports may be imported from
  // outside (a server's registry), so what they build counts everywhere.
  static bool isPythonFile(const std::string &File) {
    return File.size() > 3 && File.compare(File.size() - 3, 3, ".py") == 0;
  }
  static bool isTestFile(const std::string &File) {
    std::string Name = File.substr(File.rfind('/') + 1);
    if (!isPythonFile(Name))
      return false; // C++ test sources link with the rest
    return Name.rfind("test_", 0) == 0 ||
           (Name.size() > 8 && Name.compare(Name.size() - 8, 8, "_test.py") == 0);
  }
  void learnPrograms(const std::vector<TUSummary> &TUs) {
    std::map<std::string, std::set<std::string>> BuiltIn;
    for (const auto &TU : TUs) {
      TUByFile.emplace(TU.File, &TU);
      Imported.insert(TU.ImportedFiles.begin(), TU.ImportedFiles.end());
      for (const auto &C : TU.BuiltClasses)
        BuiltIn[C].insert(TU.File);
    }
    // Test modules, and the helpers only tests import: code that runs only in
    // the programs of the tests importing it.
    std::map<std::string, std::vector<std::string>> Importers;
    for (const auto &TU : TUs)
      for (const auto &F : TU.ImportedFiles)
        Importers[F].push_back(TU.File);
    for (const auto &TU : TUs)
      if (isTestFile(TU.File) || TU.File.substr(TU.File.rfind('/') + 1) == "conftest.py")
        TestOnly.insert(TU.File);
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const auto &[File, By] : Importers)
        if (isPythonFile(File) && TUByFile.count(File) && !TestOnly.count(File) &&
            std::all_of(By.begin(), By.end(),
                        [&](const std::string &I) { return TestOnly.count(I) > 0; }))
          Grew |= TestOnly.insert(File).second;
    }
    for (const auto &[Class, Files] : BuiltIn) {
      BuiltAnywhere.insert(Class);
      if (std::all_of(Files.begin(), Files.end(),
                      [&](const std::string &F) { return !Imported.count(F) && isTestFile(F); }))
        LeafOnly.emplace(Class, Files);
    }
  }

  // The leaf-only classes a capture in File cannot meet: those no file of
  // its program builds. Its program is File, what it imports, transitively,
  // and the conftest.py files pytest loads for it. Empty for a file some
  // module imports (it runs in every program that does).
  const std::set<std::string> &hiddenInFile(const std::string &File) const {
    auto [Memo, New] = HiddenInFileMemo.try_emplace(File);
    std::set<std::string> &Hidden = Memo->second;
    if (New && (!LeafOnly.empty() || !TestOnly.empty()) && TUByFile.count(File) &&
        !Imported.count(File)) {
      std::set<std::string> Program;
      std::vector<std::string> Todo = {File};
      for (std::string Dir = File; Dir.rfind('/') != std::string::npos && Dir.rfind('/') > 0;) {
        Dir.resize(Dir.rfind('/'));
        Todo.push_back(Dir + "/conftest.py");
      }
      while (!Todo.empty()) {
        std::string F = std::move(Todo.back());
        Todo.pop_back();
        auto It = TUByFile.find(F);
        if (It == TUByFile.end() || !Program.insert(F).second)
          continue;
        Todo.insert(Todo.end(), It->second->ImportedFiles.begin(), It->second->ImportedFiles.end());
      }
      for (const auto &[Class, Files] : LeafOnly)
        if (std::none_of(Files.begin(), Files.end(),
                         [&](const std::string &F) { return Program.count(F); }))
          Hidden.insert(Class);
      for (const auto &Test : TestOnly)
        if (!Program.count(Test))
          Hidden.insert(hiddenFileKey(Test));
    }
    return Hidden;
  }

  // For a capture in the function owning Root: the leaf-only classes no
  // program running it can meet. A function in a module others import runs
  // in the programs of the scripts and tests that call it, when its callers
  // lead to such files alone; a caller chain ending elsewhere (an entry
  // point of a library, a cycle, too far up) makes its program unknown.
  int hiddenFor(const CallEdge &Root) const {
    const std::string &File = Root.Loc.File;
    auto TU = TUByFile.find(File);
    if ((LeafOnly.empty() && TestOnly.empty()) || TU == TUByFile.end())
      return 0;
    std::string Owner;
    for (const auto &F : TU->second->Functions)
      if (!F.Calls.empty() && &F.Calls.front() <= &Root && &Root <= &F.Calls.back())
        Owner = F.Usr;
    // An owner not found among the TU's own summaries (one adjusted across
    // units) is told apart by its file.
    std::string MemoKey = Owner.empty() ? "file:" + File : Owner;
    if (auto It = HiddenOfFunction.find(MemoKey); It != HiddenOfFunction.end())
      return It->second;
    std::optional<std::set<std::string>> Hidden;
    auto meet = [&](const std::set<std::string> &H) {
      if (!Hidden) {
        Hidden = H;
        return;
      }
      std::set<std::string> Both;
      std::set_intersection(Hidden->begin(), Hidden->end(), H.begin(), H.end(),
                            std::inserter(Both, Both.end()));
      Hidden = std::move(Both);
    };
    if (!Imported.count(File)) {
      meet(hiddenInFile(File));
    } else if (!Owner.empty()) {
      learnCallers();
      std::set<std::string> Seen = {Owner};
      std::vector<std::string> Todo = {Owner};
      while (!Todo.empty() && (!Hidden || !Hidden->empty())) {
        std::string F = std::move(Todo.back());
        Todo.pop_back();
        if (Seen.size() > 4096) {
          Hidden = std::set<std::string>{}; // too far up to tell: any program
          break;
        }
        // Nothing analysed calls it: a program outside, which cannot build
        // the classes of files nothing imports.
        auto It = Callers.find(F);
        if (It == Callers.end())
          continue;
        for (const auto &[Caller, Edge] : It->second) {
          const std::string &CallerFile = Edge->Loc.File;
          if (TUByFile.count(CallerFile) && !Imported.count(CallerFile))
            meet(hiddenInFile(CallerFile));
          else if (Seen.insert(Caller).second)
            Todo.push_back(Caller);
        }
      }
    }
    if (!Hidden) { // no script or test calls it
      Hidden.emplace();
      for (const auto &[Class, Files] : LeafOnly)
        Hidden->insert(Class);
      for (const auto &Test : TestOnly)
        Hidden->insert(hiddenFileKey(Test));
    }
    auto [Id, New] = HiddenIds.emplace(std::move(*Hidden), static_cast<int>(HiddenSets.size()));
    if (New)
      HiddenSets.push_back(&Id->first);
    return HiddenOfFunction[MemoKey] = Id->second;
  }

  // Keeps in Facts those Other holds too; whether any was dropped.
  static bool meetFacts(std::vector<ConstArg> &Facts, const std::vector<ConstArg> &Other) {
    size_t Before = Facts.size();
    Facts.erase(std::remove_if(Facts.begin(), Facts.end(),
                               [&](const ConstArg &F) {
                                 return std::find(Other.begin(), Other.end(), F) == Other.end();
                               }),
                Facts.end());
    return Facts.size() != Before;
  }

  // Whether T cannot run in a program that cannot meet Hidden: T is code of
  // a hidden test file, or a method no instance of which exists there (every
  // class running it that anything builds is hidden).
  bool hiddenCode(const std::string &T, const std::set<std::string> &Hidden) const {
    if (Hidden.empty())
      return false;
    // Code a test file defines runs only in that test's program: its
    // functions, handed to library code (a step function given to a
    // schedule), never reach a capture the test's program cannot run.
    if (auto F = ByUsr.find(T);
        F != ByUsr.end() && Hidden.count(hiddenFileKey(F->second->Loc.File)))
      return true;
    bool AnyBuilt = false;
    for (const auto &C : Classes.runners(T)) {
      if (!BuiltAnywhere.count(C))
        continue;
      if (!Hidden.count(C))
        return false;
      AnyBuilt = true;
    }
    return AnyBuilt;
  }

  // Whether Usr is a function nested in the one whose parameter storage
  // Param is (`py:param:mod.f#0` or its items `py:item:mod.f:fns[*]`, and
  // `py:mod.f.inner`).
  static bool enclosedBy(const std::string &Usr, const std::string &Param) {
    constexpr std::string_view Prefix = "py:param:", Items = "py:item:";
    const bool OfItems = Param.rfind(Items, 0) == 0;
    if (Param.rfind(Prefix, 0) != 0 && !OfItems)
      return false;
    const size_t From = OfItems ? Items.size() : Prefix.size();
    size_t End = OfItems ? Param.find(':', From) : Param.rfind('#');
    if (End == std::string::npos)
      return false;
    std::string Owner = "py:" + Param.substr(From, End - From) + ".";
    return Usr.rfind(Owner, 0) == 0;
  }

  // The parameters that hold callables: called through, or handed on to
  // such a parameter of another function (until nothing changes).
  void learnCallableParams() {
    std::multimap<std::string, std::string> HandedTo; // callee param -> caller param
    for (const auto &[Usr, F] : ByUsr)
      for (const auto &C : F->Calls) {
        if (C.CalleeUsr.rfind("py:param:", 0) == 0 || C.CalleeUsr.rfind("py:item:", 0) == 0)
          CallableParams.insert(C.CalleeUsr);
        for (const auto &[Param, Callable] : C.Binds)
          if (Callable.rfind('=', 0) == 0)
            HandedTo.emplace(Param, Callable.substr(1));
      }
    std::vector<std::string> Todo(CallableParams.begin(), CallableParams.end());
    while (!Todo.empty()) {
      std::string P = std::move(Todo.back());
      Todo.pop_back();
      auto [B, E] = HandedTo.equal_range(P);
      for (auto It = B; It != E; ++It)
        if (CallableParams.insert(It->second).second)
          Todo.push_back(It->second);
    }
  }

  // Whether the program makes an object that runs the method with USR Method.
  bool made(const std::string &Method) const {
    const auto &Runners = Classes.runners(Method);
    return std::any_of(Runners.begin(), Runners.end(),
                       [&](const std::string &C) { return BuiltAnywhere.count(C) > 0; });
  }

  // Whether the program makes an object that runs Method of Class or one of
  // its overrides below Class.
  bool madeBelow(const std::string &Class, const std::string &Method) const {
    const auto &Ms = Classes.dispatch(Class, Method);
    return std::any_of(Ms.begin(), Ms.end(), [&](const std::string &M) { return made(M); });
  }

  // Rapid type analysis of a virtual call to Base: the overrides some
  // object the program makes runs (ClassHierarchy::runners). When the
  // program makes no object running Base or any override (the objects come
  // from code not analysed), every override, as the class hierarchy says.
  std::vector<std::string> madeOverrides(const std::string &Base,
                                         const std::vector<std::string> &Overrides) const {
    if (BuiltAnywhere.empty())
      return Overrides;
    auto known = [&](const std::string &Method) { return !Classes.runners(Method).empty(); };
    std::vector<std::string> Out;
    bool AnyMade = made(Base);
    for (const auto &O : Overrides)
      if (!known(O) || made(O)) {
        Out.push_back(O);
        AnyMade |= known(O);
      }
    return AnyMade ? Out : Overrides;
  }

  // A call through storage passes its arguments to whatever function is
  // stored there: `py:argof:KEY#I` holds what such calls pass at position I,
  // which becomes what those functions' parameter I holds. Until nothing
  // changes (a parameter bound here may hold storage called elsewhere).
  void bindArgumentsOfStoredCalls() {
    for (int Round = 0; Round < 8; ++Round) {
      bool Changed = false;
      // What storage holds is remembered within a round; the stores the
      // round adds are seen by the next.
      StoredMemo.clear();
      std::vector<std::pair<std::string, std::vector<std::string>>> Passed;
      for (const auto &[Key, Values] : Stores)
        if (Key.rfind(ArgumentOf, 0) == 0)
          Passed.push_back({Key, Values});
      for (const auto &[Key, Values] : Passed) {
        size_t Hash = Key.rfind('#');
        if (Hash == std::string::npos)
          continue;
        std::string Storage = Key.substr(ArgumentOf.size(), Hash - ArgumentOf.size());
        std::string Index = Key.substr(Hash + 1);
        for (const auto &F : storedFunctions(Storage)) {
          if (Shifted.count(F))
            continue; // its arguments sit at other positions
          auto &To = Stores["py:param:" + F.substr(3) + "#" + Index];
          for (const auto &V : Values)
            if (std::find(To.begin(), To.end(), V) == To.end()) {
              To.push_back(V);
              Changed = true;
            }
        }
      }
      if (!Changed)
        break;
    }
    StoredMemo.clear();
  }

  // What the callee's parameters and the mode flags are known to hold where
  // Via is made: the literals it passes, and the caller's own parameters (or
  // their attributes) it passes on where the walk of the caller knew them
  // (CallerKnew) or the call is made under a test of them. Moved: the callee
  // is reached through a partial that binds arguments, or as a method taken
  // from its class, so the arguments' positions say nothing.
  std::vector<ConstArg> factsAtCall(const CallEdge &Via, const std::vector<ConstArg> &CallerKnew,
                                    bool Moved) const {
    std::vector<ConstArg> Caller = CallerKnew;
    for (const ParamTest &T : Via.When)
      if (T.Global.empty() && !T.ofClass())
        Caller.push_back(T.fact());
    // What the call says of an attribute of a callee parameter stands over
    // what a whole object passed on says of it.
    auto restated = [&](unsigned Index, const std::string &Attr) {
      return std::any_of(Via.Constants.begin(), Via.Constants.end(), [&](const ConstArg &C) {
        return C.Global.empty() && C.Index == Index && C.Attr == Attr;
      });
    };
    std::vector<ConstArg> Known;
    for (const ConstArg &C : Via.Constants) {
      if (C.Global.rfind(GlobalObjectFact, 0) == 0) {
        // The global's attributes as the caller's walk knew them.
        const std::string Prefix = C.Global.substr(GlobalObjectFact.size()) + ":";
        for (const ConstArg &K : CallerKnew)
          if (K.Global.rfind(Prefix, 0) == 0 && !restated(C.Index, K.Global.substr(Prefix.size()))) {
            ConstArg F = K;
            F.Index = C.Index;
            F.Attr = K.Global.substr(Prefix.size());
            F.Global.clear();
            Known.push_back(std::move(F));
          }
        continue;
      }
      if (!C.Global.empty()) {
        Known.push_back(C);
        continue;
      }
      if (Moved)
        continue;
      if (C.IfKwargsEmpty) {
        if (kwargsEmpty(Caller)) {
          Known.push_back(C);
          Known.back().IfKwargsEmpty = false;
        }
        continue;
      }
      if (C.From < 0) {
        if (C.TruthKnown || C.NoneKnown)
          Known.push_back(C);
        continue;
      }
      for (const ConstArg &K : Caller) {
        if (!K.Global.empty() || K.From >= 0 || static_cast<int>(K.Index) != C.From)
          continue;
        std::string Attr = C.Attr;
        if (!C.FromAttr.empty()) {
          // The object an attribute holds, handed on whole (`self.model(x)`):
          // what the caller knew of its parts (`model.encoder&classes`).
          if (C.Attr.empty() && K.Attr.size() > C.FromAttr.size() &&
              K.Attr.compare(0, C.FromAttr.size() + 1, C.FromAttr + ".") == 0 &&
              !restated(C.Index, K.Attr.substr(C.FromAttr.size() + 1)))
            Attr = K.Attr.substr(C.FromAttr.size() + 1);
          else if (K.Attr != C.FromAttr)
            continue;
        } else if (!K.Attr.empty()) {
          // The whole object passed on: its attributes go with it.
          if (!C.Attr.empty() || restated(C.Index, K.Attr))
            continue;
          Attr = K.Attr;
        }
        ConstArg F = K;
        F.Index = C.Index;
        F.Attr = std::move(Attr);
        Known.push_back(std::move(F));
      }
    }
    // A global the caller's walk knew (a mode its caller's `with` set) holds
    // in the callee too, unless this call sits in a block setting it anew.
    for (const ConstArg &K : CallerKnew)
      if (!K.Global.empty() && std::none_of(Known.begin(), Known.end(), [&](const ConstArg &C) {
            return C.Global == K.Global;
          }))
        Known.push_back(K);
    return Known;
  }

  // Whether some function tests the attribute Attr of a parameter, or of a
  // part of it (`model.encoder&classes` as `encoder&classes`).
  bool testedAttr(std::string_view Attr) const {
    for (;;) {
      if (TestedAttrs.count(std::string(Attr)))
        return true;
      size_t Dot = Attr.find('.');
      if (Dot == std::string_view::npos)
        return false;
      Attr.remove_prefix(Dot + 1);
    }
  }

  static std::string factKey(const ConstArg &C) {
    return fmt::format("{}|{}.{}|{}{}{}{}{}{}", C.Global, C.Index, C.Attr, C.TruthKnown, C.Truthy,
                       C.NoneKnown, C.IsNone, C.TextKnown ? "=" : "", C.Text);
  }

  Entries entryContextsAt(const std::string &Usr, int Depth,
                          std::set<std::string> &Visiting) const {
    if (auto Known = EntryMemo.find(Usr); Known != EntryMemo.end())
      return Known->second;
    auto It = Callers.find(Usr);
    if (It == Callers.end() || Depth > 8 || !Visiting.insert(Usr).second)
      return {{}};
    Entries Out;
    std::set<std::string> Seen;
    for (const auto &[Caller, Via] : It->second)
      for (const auto &CallerKnew : entryContextsAt(Caller, Depth + 1, Visiting)) {
        // A call its caller never makes on this way in.
        if (!runsWith(Via->When, CallerKnew))
          continue;
        bool Moved = Via->Dynamic && Shifted.count(Usr);
        std::vector<ConstArg> Here = byCallee(factsAtCall(*Via, CallerKnew, Moved), *Via, Usr,
                                              kwargsEmpty(CallerKnew), Moved);
        // A caller's frame holds this function's capture: it is not inside
        // it (FrameFact comes only from calls followed under capture).
        Here.erase(std::remove_if(Here.begin(), Here.end(),
                                  [&](const ConstArg &C) {
                                    return !concerns(C, Usr) || C.Global.rfind(FrameFact, 0) == 0;
                                  }),
                   Here.end());
        std::vector<std::string> Keys;
        for (const ConstArg &C : Here)
          Keys.push_back(factKey(C));
        std::sort(Keys.begin(), Keys.end());
        if (Seen.insert(fmt::format("{}", fmt::join(Keys, ";"))).second)
          Out.push_back(std::move(Here));
      }
    Visiting.erase(Usr);
    if (Out.empty())
      Out = {{}};
    if (Out.size() > MaxEntries) {
      // What every way agrees on.
      std::vector<ConstArg> Common = Out.front();
      for (const auto &Way : Out) {
        std::set<std::string> Keys;
        for (const ConstArg &C : Way)
          Keys.insert(factKey(C));
        Common.erase(std::remove_if(Common.begin(), Common.end(),
                                    [&](const ConstArg &C) { return !Keys.count(factKey(C)); }),
                     Common.end());
      }
      Out = {Common};
    }
    // A caller cut off by a cycle or the depth bound counted as knowing
    // nothing: what is remembered can only be less than the truth.
    return EntryMemo[Usr] = Out;
  }

  // Who calls each function (Callers), worked out the first time a mode
  // needs it.
  void learnCallers() const {
    if (!Callers.empty())
      return;
    for (const auto &[Caller, F] : ByUsr)
      for (const auto &C : F->Calls)
        for (const auto &T : targets(C))
          Callers[T].push_back({Caller, &C});
  }

  Bindings entryBindingsAt(const std::string &Usr, const std::vector<ParamTest> &When, int Depth,
                           std::set<std::string> &Visiting) const {
    Bindings Out;
    auto It = Callers.find(Usr);
    if (It == Callers.end() || Depth > 4 || !Visiting.insert(Usr).second)
      return Out;
    std::string MemoKey = Usr;
    for (const ParamTest &T : When)
      MemoKey += fmt::format("|{}.{}.{}.{}.{}", T.Index, static_cast<int>(T.K), T.Global, T.Attr,
                             T.Text);
    if (auto Known = BindingsMemo.find(MemoKey); Known != BindingsMemo.end()) {
      Visiting.erase(Usr);
      return Known->second;
    }
    std::set<std::string> Unknown; // parameters some way in leaves to storage
    std::set<std::string> Params;
    for (const auto &[Caller, Via] : It->second)
      for (const auto &[Param, Callable] : Via->Binds)
        if (CallableParams.count(Param)) // a callable parameter, not data
          Params.insert(Param);
    for (const auto &[Caller, Via] : It->second) {
      // What this call passes decides the tests: a literal (or a literal
      // default) that fails When means Usr's code there never runs for it.
      bool Moved = Via->Dynamic && Shifted.count(Usr);
      if (!runsWith(When, byCallee(factsAtCall(*Via, {}, Moved), *Via, Usr, false, Moved)))
        continue;
      std::set<std::string> Passed;
      for (const auto &[Param, Callable] : Via->Binds) {
        Passed.insert(Param);
        auto &To = Out[Param];
        auto add = [&](const std::string &C) {
          if (std::find(To.begin(), To.end(), C) == To.end())
            To.push_back(C);
        };
        if (Callable.empty())
          continue; // no callable here
        if (Callable.rfind('=', 0) != 0) {
          add(Callable);
          continue;
        }
        // Handed on from the caller's own parameter: what reaches it there.
        std::string From = Callable.substr(1);
        Bindings Up =
            entryBindingsAt(Caller, liftedTests(When, *Via, Usr, Moved), Depth + 1, Visiting);
        if (auto U = Up.find(From); U != Up.end())
          for (const auto &C : U->second)
            add(C);
        else
          add(From);
      }
      for (const auto &P : Params)
        if (!Passed.count(P))
          Unknown.insert(P);
    }
    Visiting.erase(Usr);
    // A call whose argument there is no callable the analysis knows (a
    // library object's method, a value computed at run time) passes what
    // nothing here can follow: said by --explain-reach, as any such call.
    // (A call leaving the parameter out passes its default.)
    for (const auto &P : Unknown)
      if (auto B = Out.find(P); B != Out.end()) {
        B->second.push_back(std::string(UnknownCallee) + P);
        B->second.push_back(paramDefaultKey(P));
      }
    // A chain cut by a cycle or the depth bound left storage in: what is
    // remembered is never less than the truth.
    return BindingsMemo[MemoKey] = Out;
  }
  mutable std::map<std::string, Bindings> BindingsMemo;

  // The tests the caller's own parameters must meet for a call to Usr to
  // meet When: those the call sits under, and When's tests of parameters the
  // call hands the caller's own parameters to (`_impl(fn, backend=backend)`
  // under `if backend == "cudagraph":` in _impl asks the same of the
  // caller's backend), so a chain of callers each passing the flag on is
  // held to it at the top.
  std::vector<ParamTest> liftedTests(const std::vector<ParamTest> &When, const CallEdge &Via,
                                     const std::string &Usr, bool Moved) const {
    std::vector<ParamTest> Out = Via.When;
    if (Moved)
      return Out;
    const std::vector<ConstArg> Passed = byCallee(Via.Constants, Via, Usr);
    for (const ParamTest &T : When) {
      if (!T.Global.empty())
        continue;
      for (const ConstArg &C : Passed) {
        if (C.From < 0 || C.Index != T.Index || !C.Global.empty() || !C.Attr.empty())
          continue;
        if (!C.FromAttr.empty() && !T.Attr.empty())
          continue; // an attribute of an attribute: not a test of a parameter
        ParamTest Up = T;
        Up.Index = static_cast<unsigned>(C.From);
        Up.Attr = C.FromAttr.empty() ? T.Attr : C.FromAttr;
        Out.push_back(std::move(Up));
      }
    }
    return Out;
  }

  // Whether the caller's walk knew its `**kwargs` empty.
  static bool kwargsEmpty(const std::vector<ConstArg> &Caller) {
    return std::any_of(Caller.begin(), Caller.end(), [](const ConstArg &K) {
      return K.Index == KwargsParam && K.Global.empty() && K.Attr.empty() && K.From < 0 &&
             K.TruthKnown && !K.Truthy && !K.IfKwargsEmpty;
    });
  }

  // Facts a call through a value passes by keyword (Index KeywordParam +
  // k), restated as parameters of the callee Usr the walk found by their
  // names; a keyword Usr does not take says nothing of it. Added: the
  // defaults of the parameters such a call leaves out, where no `*args` or
  // `**kwargs` (but the caller's own, known empty) can fill them.
  std::vector<ConstArg> byCallee(std::vector<ConstArg> Facts, const CallEdge &Via,
                                 const std::string &Usr, bool CallerKwargsEmpty = false,
                                 bool Moved = false) const {
    auto F = ByUsr.find(Usr);
    if (!Moved && Via.Dynamic && Via.LeadingArgs >= 0 && F != ByUsr.end() &&
        (Via.KeywordSplat == CallEdge::Splat::NoSplat ||
         (Via.KeywordSplat == CallEdge::Splat::OwnKwargs && CallerKwargsEmpty))) {
      const auto &Names = F->second->ParamNames;
      auto named = [&](unsigned I) {
        return I < Names.size() &&
               std::find(Via.Keywords.begin(), Via.Keywords.end(), Names[I]) != Via.Keywords.end();
      };
      for (const ConstArg &D : F->second->ParamDefaults)
        if (D.Index >= static_cast<unsigned>(Via.LeadingArgs) && !named(D.Index))
          Facts.push_back(D);
      if (F->second->TakesKwargs) {
        std::vector<std::string> Keys;
        for (const auto &K : Via.Keywords)
          if (std::find(Names.begin(), Names.end(), K) == Names.end())
            Keys.push_back(K);
        ConstArg Kwargs{KwargsParam};
        Kwargs.Truthy = !Keys.empty();
        Facts.push_back(Kwargs);
        Facts.push_back(kwargsKeysFact(std::move(Keys)));
      }
    }
    if (Via.Keywords.empty())
      return Facts;
    std::vector<ConstArg> Out;
    for (ConstArg &C : Facts) {
      if (!C.Global.empty() || C.Index < KeywordParam || C.Index >= KwargsParam) {
        Out.push_back(std::move(C));
        continue;
      }
      unsigned K = C.Index - KeywordParam;
      if (F == ByUsr.end() || K >= Via.Keywords.size())
        continue;
      const auto &Names = F->second->ParamNames;
      auto It = std::find(Names.begin(), Names.end(), Via.Keywords[K]);
      if (It == Names.end())
        continue;
      C.Index = static_cast<unsigned>(It - Names.begin());
      Out.push_back(std::move(C));
    }
    return Out;
  }

  // Whether the fact C can matter in Usr: a closure fact (ClosureFact) only
  // in the functions nested in the one it is about; it reaches closures
  // handed elsewhere through closureFacts(). Carrying it further would only
  // multiply contexts.
  static bool concerns(const ConstArg &C, const std::string &Usr) {
    if (C.Global.rfind(ClosureFact, 0) != 0)
      return true;
    std::string_view Defining = std::string_view(C.Global).substr(ClosureFact.size());
    Defining = Defining.substr(0, Defining.rfind('#'));
    return Usr.size() > Defining.size() + 4 && Usr.compare(0, 3, "py:") == 0 &&
           Usr.compare(3, Defining.size(), Defining) == 0 && Usr[3 + Defining.size()] == '.';
  }

  // What the calls handing a closure to a callable parameter knew of the
  // parameters of the function defining it (the `&closure:` facts the Python
  // front end gives a call under tests of them), agreed by every such call:
  // `execute` handed on after `if single_run: return` runs with single_run
  // false, whoever calls it through that parameter.
  const std::map<std::string, std::vector<ConstArg>> &closureFacts() const {
    if (ClosureFactsKnown)
      return ClosureFacts;
    ClosureFactsKnown = true;
    std::map<std::string, std::optional<std::vector<ConstArg>>> Agreed;
    for (const auto &[Caller, F] : ByUsr)
      for (const auto &C : F->Calls)
        for (const auto &[Param, Callable] : C.Binds) {
          if (Callable.empty() || Callable[0] == '=')
            continue;
          std::vector<ConstArg> Facts;
          for (const ConstArg &K : C.Constants)
            if (K.Global.rfind(ClosureFact, 0) == 0 && concerns(K, Callable))
              Facts.push_back(K);
          auto &A = Agreed[Callable];
          if (!A) {
            A = std::move(Facts);
            continue;
          }
          A->erase(std::remove_if(A->begin(), A->end(),
                                  [&](const ConstArg &K) {
                                    return std::none_of(Facts.begin(), Facts.end(),
                                                        [&](const ConstArg &F) {
                                                          return factKey(F) == factKey(K);
                                                        });
                                  }),
                   A->end());
        }
    for (auto &[Callable, A] : Agreed)
      if (A && !A->empty())
        ClosureFacts[Callable] = std::move(*A);
    return ClosureFacts;
  }
  mutable std::map<std::string, std::vector<ConstArg>> ClosureFacts;
  mutable bool ClosureFactsKnown = false;

  std::map<std::string, const FunctionSummary *> ByUsr;
  // Who calls each function, built when modes need it.
  mutable std::map<std::string, std::vector<std::pair<std::string, const CallEdge *>>> Callers;
  mutable std::map<std::string, Entries> EntryMemo;
  static constexpr size_t MaxEntries = 16;
  std::map<std::string, std::vector<std::string>> Overriders;
  std::map<std::string, std::vector<std::string>> Stores;
  // Programs (learnPrograms).
  std::map<std::string, const TUSummary *> TUByFile;
  std::set<std::string> Imported, BuiltAnywhere;
  // Python test modules and the modules only they import (learnPrograms).
  std::set<std::string> TestOnly;
  static std::string hiddenFileKey(const std::string &File) { return "file:" + File; }
  std::map<std::string, std::set<std::string>> LeafOnly;
  mutable std::map<std::string, int> HiddenOfFunction;
  // A script's program is walked once, however many captures its callers
  // lead to.
  mutable std::map<std::string, std::set<std::string>> HiddenInFileMemo;
  mutable std::map<std::set<std::string>, int> HiddenIds = {{{}, 0}};
  mutable std::vector<const std::set<std::string> *> HiddenSets = {&HiddenIds.begin()->first};
  // Functions a partial binding leading arguments was stored for.
  std::set<std::string> Shifted;
  // Per (storage, callable) every store of which was made on a receiver with
  // known attributes: what each store knew of it (ReceiverStore).
  std::map<std::pair<std::string, std::string>, std::vector<std::vector<ConstArg>>> OnReceivers;
  // The parameters each function's sites and calls test (ParamTest::Index),
  // and the attributes any function tests of a parameter: what is known of
  // others makes walks apart for nothing.
  std::map<std::string, std::set<unsigned>> Tested;
  std::set<std::string> TestedAttrs;
  ClassHierarchy Classes;
  // Functions whose regions only show once all TUs are known (CaptureWrappers.h).
  std::map<std::string, FunctionSummary> AcrossUnits;
  // Contexts a function is walked in, per class of self and in all: past
  // them, one context with nothing known stands for the rest.
  static constexpr int MaxContextsPerSelf = 8;
  static constexpr int MaxContexts = 32;
};

// Calls through values under capture whose callee the program never shows:
// what they run was not checked, and the user should know.
void unknownCallees(const CallGraph &G, const RuleSet &Rules,
                    const std::vector<const CallEdge *> &Roots, const CallGraph::ReachedSet &Seen,
                    std::vector<Finding> &Out) {
  const Rule *R = Rules.find("capture-reach-unknown");
  if (!R)
    return;
  // The note at Loc, with the chain that reached it or, for a call in the
  // region itself, where the region began.
  auto emit = [&](const SourceLoc &Loc, std::string Message, std::string Fix,
                  const std::vector<Note> &Notes, const SourceLoc &RegionBegin) {
    Site S;
    S.RuleId = R->Id;
    S.Loc = Loc;
    S.Message = std::move(Message);
    S.Fix = std::move(Fix);
    Finding Fd = makeFinding(S, Rules);
    Fd.Notes = Notes;
    if (RegionBegin.valid() && Notes.empty())
      Fd.Notes.push_back({"the capture region begins here", RegionBegin});
    Out.push_back(std::move(Fd));
  };
  // One call may have several edges (one per class an attribute may live
  // in); it is unknown when none of them leads anywhere.
  auto report = [&](const std::vector<const CallEdge *> &Edges, const std::vector<Note> &Notes) {
    std::map<SourceLoc, std::pair<const CallEdge *, bool>> Calls;
    std::map<SourceLoc, std::set<std::string>> Computed;
    for (const CallEdge *E : Edges) {
      if (!E->Dynamic && !E->Opaque)
        continue;
      bool External = false;
      std::set<std::string> &Lookups = Computed[E->Loc];
      bool Resolved =
          !G.targets(*E, &External, "", nullptr, nullptr, nullptr, nullptr, "", &Lookups).empty() ||
          External;
      auto [It, New] = Calls.emplace(E->Loc, std::make_pair(E, Resolved));
      if (!New)
        It->second.second |= Resolved;
    }
    for (const auto &[Loc, Call] : Calls) {
      const std::set<std::string> &Lookups = Computed[Loc];
      if (Call.second && !Lookups.empty()) {
        // Followed where it goes to functions the program names; not where
        // a computed lookup stored it.
        emit(Loc,
             fmt::format("'{}' may also call what '{}' gives, an attribute named at run time "
                         "that graphlint cannot follow; the rest of what it calls here was "
                         "checked",
                         Call.first->CalleeName, *Lookups.begin()),
             "", Notes, Call.first->RegionBegin);
        continue;
      }
      if (Call.second)
        continue;
      std::string Message =
          !Lookups.empty()
              ? fmt::format("what '{}' calls here is what '{}' gives, an attribute named at run "
                            "time that graphlint cannot narrow to a few methods, so the code it "
                            "runs under capture was not checked",
                            Call.first->CalleeName, *Lookups.begin())
          : Call.first->PureVirtual
              ? fmt::format("'{}' is pure virtual and none of the analysed files defines an "
                            "override of it that runs here, so the code it runs under capture "
                            "was not checked",
                            Call.first->CalleeName)
          : Call.first->Opaque
              ? fmt::format("'{}' is defined in none of the analysed files, so the code it runs "
                            "under capture was not checked",
                            Call.first->CalleeName)
          : Call.first->CalleeUsr.rfind(UnknownCallee, 0) == 0 ||
                  Call.first->CalleeUsr.rfind(ReturnedCallables, 0) == 0
              ? fmt::format("what '{}' calls here is not known to graphlint (the callee is "
                            "computed, not read from storage the analysed code writes), so the "
                            "code it runs under capture was not checked",
                            Call.first->CalleeName)
              : fmt::format("what '{}' calls here is not known to graphlint (nothing the "
                            "analysed code stores there is a function it can see), so the code "
                            "it runs under capture was not checked",
                            Call.first->CalleeName);
      emit(Loc, std::move(Message), "", Notes, Call.first->RegionBegin);
    }
  };
  // Virtual calls whose overrides in classes never constructed here were
  // left out (rapid type analysis): said, since the objects may come from
  // files outside the analysis.
  auto reportNotMade = [&](const std::vector<const CallEdge *> &Edges,
                           const std::vector<Note> &Notes) {
    std::map<SourceLoc, std::pair<const CallEdge *, std::set<std::string>>> Calls;
    for (const CallEdge *E : Edges)
      for (const auto &O : G.overridesNotMade(*E)) {
        auto &Call =
            Calls.emplace(E->Loc, std::make_pair(E, std::set<std::string>())).first->second;
        Call.second.insert(G.at(O)->Name);
      }
    for (const auto &[Loc, Call] : Calls) {
      const auto &Names = Call.second;
      std::string Listed;
      size_t Shown = 0;
      for (const auto &N : Names) {
        if (Shown == 3) {
          Listed += fmt::format(" and {} more", Names.size() - Shown);
          break;
        }
        Listed += (Shown++ ? ", '" : "'") + N + "'";
      }
      emit(Loc,
           fmt::format("'{}' is virtual, and {} override{} of it in classes no analysed file "
                       "constructs ({}) {} not followed: an object of such a class made outside "
                       "the analysed files would run code under capture that was not checked",
                       Call.first->CalleeName, Names.size(), Names.size() == 1 ? "" : "s", Listed,
                       Names.size() == 1 ? "was" : "were"),
           "Add the files that construct those classes to the compile database so graphlint "
           "sees the objects made, or name the overrides that run here in a capture file's "
           "entry-points so graphlint checks them as captured code.",
           Notes, Call.first->RegionBegin);
    }
  };
  report(Roots, {});
  reportNotMade(Roots, {});
  for (const auto &[Usr, Rd] : Seen) {
    const CallEdge *Root = nullptr;
    std::vector<Note> Chain = G.chain(Seen, Usr, "'{}' is called here under capture",
                                      "'{}' is called here under capture", &Root);
    if (Root && Root->RegionBegin.valid())
      Chain.push_back({"the capture region begins here", Root->RegionBegin});
    std::vector<const CallEdge *> Ambient;
    std::map<SourceLoc, std::pair<const CallEdge *, size_t>> Left;
    for (const auto &C : G.at(Usr)->Calls) {
      if (C.Context != CaptureContext::Ambient || !Rd.runs(C.When))
        continue;
      Ambient.push_back(&C);
      if (C.ReceiverParam >= 0 && C.ReceiverAttr.empty() &&
          std::none_of(Rd.With.begin(), Rd.With.end(),
                       [&](const auto &W) { return G.receiverMayRun(C, W); }))
        Left.emplace(C.Loc, std::make_pair(&C, 0)).first->second.second++;
    }
    report(Ambient, Chain);
    reportNotMade(Ambient, Chain);
    for (const auto &[Loc, Call] : Left)
      emit(Loc,
           fmt::format("which class's '{}' runs here is not known to graphlint (the object comes "
                       "from the caller, and no call on the way says its class), so {} "
                       "override{} of it in classes the program builds {} not checked",
                       Call.first->ParamMethod, Call.second, Call.second == 1 ? "" : "s",
                       Call.second == 1 ? "was" : "were"),
           "", Chain, SourceLoc{});
  }
}

// Sites of the capture rules inside a region, or in functions a region reaches.
void captureFindings(const CallGraph &G, const RuleSet &Rules, bool ExplainReach,
                     std::vector<Finding> &Out) {
  // A site of an unknown rule (a rule file removed since) counts as capture's.
  auto capturing = [&](const Site &S) {
    const Rule *R = Rules.find(S.RuleId);
    return !R || R->Reach == "capture";
  };
  std::vector<const CallEdge *> Roots;
  std::vector<std::vector<ConstArg>> RootModes;
  std::vector<CallGraph::Bindings> RootBound;
  for (const auto &[Usr, F] : G.functions()) {
    bool HasRegion =
        std::any_of(F->Sites.begin(), F->Sites.end(),
                    [](const Site &S) { return S.Context == CaptureContext::InRegion; }) ||
        std::any_of(F->Calls.begin(), F->Calls.end(),
                    [](const CallEdge &C) { return C.Context == CaptureContext::InRegion; });
    CallGraph::Entries Ways = HasRegion ? G.entryContexts(Usr) : CallGraph::Entries{{}};
    auto runs = [&](const std::vector<ParamTest> &When) {
      return std::any_of(Ways.begin(), Ways.end(),
                         [&](const std::vector<ConstArg> &W) { return runsWith(When, W); });
    };
    for (const auto &S : F->Sites)
      if (S.Context == CaptureContext::InRegion && capturing(S) && runs(S.When)) {
        Finding Fd = makeFinding(S, Rules);
        if (S.RegionBegin.valid())
          Fd.Notes.push_back({"the capture region begins here", S.RegionBegin});
        else if (F->IsEntryPoint)
          Fd.Notes.push_back({fmt::format("'{}' is always run under capture", F->Name), F->Loc});
        Out.push_back(std::move(Fd));
      }
    for (const auto &C : F->Calls)
      if (C.Context == CaptureContext::InRegion)
        for (const auto &W : Ways)
          if (runsWith(C.When, W)) {
            Roots.push_back(&C);
            RootModes.push_back(W);
            RootBound.push_back(G.entryBindings(Usr, C.When));
          }
  }
  CallGraph::ReachedSet Seen = G.reach(Roots, RootModes, RootBound);
  for (const auto &[Usr, R] : Seen) {
    auto chainTo = [&, &Usr = Usr](const std::vector<ParamTest> &When) {
      const CallEdge *Root = nullptr;
      std::vector<Note> Chain = G.chain(Seen, Usr, "'{}' is called here under capture",
                                        "'{}' is called here under capture", &Root, When);
      if (Root && Root->RegionBegin.valid())
        Chain.push_back({"the capture region begins here", Root->RegionBegin});
      return Chain;
    };
    std::vector<Note> Chain = chainTo({});
    for (const auto &S : G.at(Usr)->Sites) {
      const Rule *Rl = Rules.find(S.RuleId);
      std::optional<std::string> Gate = R.gate(S.When, Rl && Rl->isHostSideEffect());
      if (S.Context != CaptureContext::Ambient || !capturing(S) || !Gate)
        continue;
      Finding Fd = makeFinding(S, Rules, *Gate);
      std::vector<Note> Own = S.When.empty() ? Chain : chainTo(S.When);
      Fd.Notes.insert(Fd.Notes.end(), Own.begin(), Own.end());
      Out.push_back(std::move(Fd));
    }
  }
  if (ExplainReach)
    unknownCallees(G, Rules, Roots, Seen, Out);
}

// Sites of `reach: other-threads` rules in code that runs on a thread the
// program starts, when some TU captures in global mode: while that capture
// runs, such a call on any other thread fails and invalidates the capture.
void otherThreadFindings(const std::vector<TUSummary> &TUs, const CallGraph &G,
                         const RuleSet &Rules, std::vector<Finding> &Out) {
  SourceLoc Global, Any;
  std::vector<const CallEdge *> Roots;
  for (const auto &TU : TUs) {
    if (TU.GlobalCapture.valid() && (!Global.valid() || TU.GlobalCapture < Global))
      Global = TU.GlobalCapture;
    if (TU.AnyCapture.valid() && (!Any.valid() || TU.AnyCapture < Any))
      Any = TU.AnyCapture;
    for (const auto &E : TU.ThreadEntries)
      Roots.push_back(&E);
  }
  if (!Any.valid())
    return;
  CallGraph::ReachedSet Seen = G.reach(Roots);
  for (const auto &[Usr, R] : Seen) {
    const CallEdge *Root = nullptr;
    std::vector<Note> Chain = G.chain(Seen, Usr, "'{}' is called here on that thread",
                                      "'{}' runs on another thread, started here", &Root);
    // A `thread-entry-points` function is its own root: nothing starts it here.
    if (const FunctionSummary *RootFn = Root ? G.find(Root->CalleeUsr) : nullptr;
        RootFn && !Chain.empty() && Root->Loc == RootFn->Loc)
      Chain.back().Message = fmt::format(
          "'{}' may run on another thread (the capture file's thread-entry-points)", RootFn->Name);
    for (const auto &S : G.at(Usr)->Sites) {
      const Rule *Rl = Rules.find(S.RuleId);
      std::optional<std::string> Gate = R.gate(S.When);
      if (S.Context != CaptureContext::Ambient || !Rl || !Gate)
        continue;
      bool AnyMode = Rl->Reach == "other-threads-any-mode";
      if (!(AnyMode || (Rl->Reach == "other-threads" && Global.valid())))
        continue;
      Finding Fd = makeFinding(S, Rules, *Gate);
      Fd.Notes.insert(Fd.Notes.end(), Chain.begin(), Chain.end());
      Fd.Notes.push_back(AnyMode ? Note{"a capture begins here", Any}
                                 : Note{"a capture in global mode begins here", Global});
      Out.push_back(std::move(Fd));
    }
  }
}

} // namespace

ResolvedCalls resolvedCalls(const std::vector<TUSummary> &TUs, const RuleSet &Rules,
                            bool FromRegions) {
  CallGraph G(TUs, Rules);
  ResolvedCalls Out;
  auto add = [&](const std::string &Caller, const CallEdge &C) {
    if (C.HandedOn)
      return;
    std::vector<std::string> External;
    auto &To = Out[Caller];
    for (auto &T : G.targets(C, nullptr, "", nullptr, &External))
      To[std::move(T)].emplace(C.Loc.File, C.Loc.Line);
    for (auto &T : External)
      To[std::move(T)].emplace(C.Loc.File, C.Loc.Line);
  };
  if (!FromRegions) {
    for (const auto &[Usr, F] : G.functions()) {
      Out[Usr];
      for (const auto &C : F->Calls)
        add(Usr, C);
    }
    return Out;
  }
  std::vector<const CallEdge *> Roots;
  for (const auto &[Usr, F] : G.functions())
    for (const auto &C : F->Calls)
      if (C.Context == CaptureContext::InRegion) {
        Roots.push_back(&C);
        add(Usr, C);
      }
  for (const auto &[Usr, R] : G.reach(Roots)) {
    Out[Usr];
    for (const auto &C : G.at(Usr)->Calls)
      if ((C.Context == CaptureContext::Ambient || C.Context == CaptureContext::InRegion) &&
          R.runs(C.When))
        add(Usr, C);
  }
  return Out;
}

std::vector<Finding> findingsFromSummaries(const std::vector<TUSummary> &TUs, const RuleSet &Rules,
                                           bool ExplainReach) {
  CallGraph G(TUs, Rules);
  std::vector<Finding> Out;
  captureFindings(G, Rules, ExplainReach, Out);
  otherThreadFindings(TUs, G, Rules, Out);
  return Out;
}

} // namespace graphsafe::lint
