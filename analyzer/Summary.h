// Per-function facts gathered from one translation unit. Plain data so the
// summaries of many TUs can be merged and walked after their ASTs are gone.
#pragma once

#include "graphsafe/Finding.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace graphsafe::lint {

// Whether a point in a function body runs under capture.
enum class CaptureContext {
  InRegion, // Inside a capture region visible in this function.
  Ambient,  // No region here: under capture exactly when the function is reached from one.
  Outside,  // Before or after this function's own regions.
  Guarded,  // On the non-capturing side of a capture-status test.
};

// What is known at a call of the callee's parameter Index (or, with Attr set,
// of that parameter's attribute Attr): a literal passed (`only_inputs=True`,
// `mask=None`), or a test the caller made (`else:` of `if state.is_prefill:`),
// so only part may be known (TruthKnown, NoneKnown). With From set, the caller
// passes its own parameter From (or, with FromAttr, that parameter's attribute)
// on unchanged (`inner(x, capturing)`, an object made from it): the value is
// whatever the walk that reached the caller knew for it. With Global set, not
// a parameter but a module global's value (a mode flag a `with` block around
// the call set): it holds in everything the call runs.
struct ConstArg {
  unsigned Index = 0;
  bool Truthy = false;
  bool IsNone = false;
  int From = -1;
  std::string Global;
  std::string Attr;
  std::string FromAttr;
  bool TruthKnown = true;
  bool NoneKnown = true;
  // Holds only where the caller's own `**kwargs`, which the call passes on,
  // is empty: a default the forwarded keywords could otherwise fill.
  bool IfKwargsEmpty = false;
  // The string literal passed (`backend="cudagraph"`), or the number as
  // numberText writes it (`dropout_p=0.0`), where TextKnown: what an `==`
  // or ordering test of the parameter sees.
  bool TextKnown = false;
  std::string Text;
};

inline bool operator==(const ConstArg &A, const ConstArg &B) {
  return std::tie(A.Index, A.Truthy, A.IsNone, A.From, A.Global, A.Attr, A.FromAttr, A.TruthKnown,
                  A.NoneKnown, A.IfKwargsEmpty, A.TextKnown, A.Text) ==
         std::tie(B.Index, B.Truthy, B.IsNone, B.From, B.Global, B.Attr, B.FromAttr, B.TruthKnown,
                  B.NoneKnown, B.IfKwargsEmpty, B.TextKnown, B.Text);
}

// Whose object a site changes. A method writing its own fields, or a
// function writing through a reference or pointer parameter, changes what its
// caller handed it. Such a site carries ParamTest{Index, Truthy, "",
// OutlivesCall}: it is host state only where that object outlives the call.
// A call handing on an object of its own frame (a helper made on the stack, a
// size returned through `size_t&`) passes ConstArg{Index, Truthy = false,
// Attr = OutlivesCall}; one handing on what it was handed passes From.
// ObjectParam is the index of the implicit object, `this`.
inline constexpr unsigned ObjectParam = 0xFFFF;
// A Python function's `**kwargs` parameter: ConstArg{KwargsParam, Truthy =
// false} says it holds no keyword (an empty dict is false).
inline constexpr unsigned KwargsParam = 0xFFFE;
// Which keys a call puts in the callee's `**kwargs`: ConstArg{KwargsParam,
// Attr = KwargsKeys, Text = the keys, comma-separated, sorted}. A test that
// needs key k there (`if kwargs.get("verbose", False):` holding) is
// ParamTest{KwargsParam, Truthy, Attr = KwargsHas + k}; runsWith reads one
// against the other.
inline constexpr const char *KwargsKeys = "&keys";
inline constexpr std::string_view KwargsHas = "&has:";
inline constexpr const char *OutlivesCall = "&outlives";
// A `with torch.cuda.stream(s):` on a stream parameter s runs a side stream
// only where s is not the capturing stream: the site carries
// ParamTest{Index, Truthy, "", SideStream}, and a call passing
// `torch.cuda.current_stream()` passes ConstArg{Index, Truthy = false, Attr =
// SideStream}.
inline constexpr const char *SideStream = "&side-stream";
// The global fact "the code reached has run before the capture": a
// callable make_graphed_callables captures (it runs each one in warm-up
// iterations first), or one the function called before its capture
// region. Code under a lazy initialisation (`if self.x is None: self.x =
// ...`) carries ParamTest{Global = WarmedUp, Falsy}: the warm-up took it.
inline constexpr const char *WarmedUp = "&warmed-up";
// The global-fact names under which a closure tests a parameter of the
// function defining it: ClosureFact + that function's qualified name + "#" +
// the parameter's index. A call in that function under tests of its
// parameters carries them under these names, for the closures it runs or
// hands on.
inline constexpr std::string_view ClosureFact = "&closure:";
// The global fact "the call of this function (FrameFact + its qualified
// name) runs inside the capture": the walk carries it down the chain from the
// calls that function makes, so a closure it defines and hands on sees it
// only where the handing call itself was captured.
inline constexpr std::string_view FrameFact = "&frame:";
// An argument that is a module global's object (what a mode getter such as
// `get_context()` returns): ConstArg{Index, Global = GlobalObjectFact + the
// global's key}. The walk gives the callee's parameter Index the attributes
// the mode facts it carries know of that global (`module._CTX:is_prefill`).
inline constexpr std::string_view GlobalObjectFact = "&object-of:";

// A test of the function's own parameter Index (or of its attribute Attr)
// that must hold for a site or a call to run: under `if flag:` (Truthy),
// `if not flag:` or after `if flag: return` (Falsy), `if x is None:` (IsNone),
// `if x is not None:`. With Global set, a test of that module global instead
// (Index unused).
// A number as ConstArg::Text and ParamTest::Text hold it (`dropout_p=0.0`
// passed, `if dropout_p > 0.0:` tested): a prefix no string literal's text
// starts with, then the value.
inline constexpr std::string_view NumberPrefix = "\x01#";
inline std::string numberText(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return std::string(NumberPrefix) + Buf;
}
inline std::optional<double> numberOf(const std::string &Text) {
  if (Text.compare(0, NumberPrefix.size(), NumberPrefix) != 0)
    return std::nullopt;
  return std::strtod(Text.c_str() + NumberPrefix.size(), nullptr);
}

struct ParamTest {
  // Equals and NotEquals compare with the string literal or number Text (`if
  // backend == "cudagraph":`, `if layer_idx == 0:`); Less to GreaterEqual
  // with the number Text (`if dropout_p > 0.0:`).
  enum class Kind {
    Truthy,
    Falsy,
    IsNone,
    NotNone,
    Equals,
    NotEquals,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    // `isinstance(x, C)` (Text: the classes' qualified names, comma-
    // separated, as a tuple of classes lists them) and `callable(x)`:
    // decided where the classes the value may be are known (Python's
    // resolve/ClassTests.h); here only None answers them (no instance of
    // C, not callable).
    IsInstance,
    NotInstance,
    IsCallable,
    NotCallable
  };
  unsigned Index = 0;
  Kind K = Kind::Truthy;
  std::string Global;
  std::string Attr;
  std::string Text;
  // A test of the value's class, which no literal fact (ConstArg) states:
  // where it held, nothing is known that a walk could carry on.
  bool ofClass() const { return K >= Kind::IsInstance && K <= Kind::NotCallable; }
  // Whether the test may hold for a value of which C tells what is known.
  bool holdsFor(const ConstArg &C) const {
    switch (K) {
    case Kind::Truthy:
      return !C.TruthKnown || C.Truthy;
    case Kind::Falsy:
      return !C.TruthKnown || !C.Truthy;
    case Kind::IsNone:
      return !C.NoneKnown || C.IsNone;
    case Kind::NotNone:
      return !C.NoneKnown || !C.IsNone;
    case Kind::Equals: // None equals no string
      return C.TextKnown ? C.Text == Text : !(C.NoneKnown && C.IsNone);
    case Kind::NotEquals:
      return !C.TextKnown || C.Text != Text;
    case Kind::Less:
    case Kind::LessEqual:
    case Kind::Greater:
    case Kind::GreaterEqual: {
      auto A = C.TextKnown ? numberOf(C.Text) : std::nullopt;
      auto B = numberOf(Text);
      if (!A || !B)
        return !(C.NoneKnown && C.IsNone); // None compared raises
      return K == Kind::Less      ? *A < *B
             : K == Kind::LessEqual ? *A <= *B
             : K == Kind::Greater   ? *A > *B
                                    : *A >= *B;
    }
    case Kind::IsInstance:
    case Kind::IsCallable:
      return !(C.NoneKnown && C.IsNone);
    case Kind::NotInstance:
    case Kind::NotCallable:
      return true;
    }
    return true;
  }
  // What holds for the value where this test held.
  ConstArg fact() const {
    ConstArg C{Index};
    C.Global = Global;
    C.Attr = Attr;
    const bool Ordered = K == Kind::Less || K == Kind::LessEqual || K == Kind::Greater ||
                         K == Kind::GreaterEqual;
    if (ofClass()) {
      // An instance's truth is its class's; only that it is no None is known.
      C.TruthKnown = false;
      C.NoneKnown = K == Kind::IsInstance || K == Kind::IsCallable;
      return C;
    }
    auto Number = numberOf(Text);
    C.Truthy = K == Kind::Truthy || (K == Kind::Equals && !Text.empty() && (!Number || *Number));
    C.IsNone = K == Kind::IsNone;
    C.TruthKnown = K != Kind::NotNone && K != Kind::NotEquals && !Ordered;
    C.NoneKnown = K != Kind::Falsy && K != Kind::NotEquals;
    C.TextKnown = K == Kind::Equals;
    if (C.TextKnown)
      C.Text = Text;
    return C;
  }
};

// Whether every test in When may hold for what a call passed (a test of a
// parameter nothing is known of may hold). A test of an attribute of a
// parameter passed None never runs: reading the attribute raises.
inline ConstArg kwargsKeysFact(std::vector<std::string> Keys) {
  std::sort(Keys.begin(), Keys.end());
  Keys.erase(std::unique(Keys.begin(), Keys.end()), Keys.end());
  ConstArg C{KwargsParam};
  C.Attr = KwargsKeys;
  C.Truthy = !Keys.empty();
  C.TextKnown = true;
  for (const auto &K : Keys)
    C.Text += (C.Text.empty() ? "" : ",") + K;
  return C;
}

// The items of a list separated by Sep (ConstArg::Text of KwargsKeys and
// AttrClasses facts, comma-separated), each stripped of the spaces around it.
inline std::vector<std::string_view> listed(std::string_view Text, char Sep = ',') {
  std::vector<std::string_view> Out;
  while (!Text.empty()) {
    size_t Comma = Text.find(Sep);
    std::string_view One = Text.substr(0, Comma);
    while (!One.empty() && One.front() == ' ')
      One.remove_prefix(1);
    while (!One.empty() && One.back() == ' ')
      One.remove_suffix(1);
    Out.push_back(One);
    Text = Comma == std::string_view::npos ? std::string_view() : Text.substr(Comma + 1);
  }
  return Out;
}

inline bool hasKwargsKey(const ParamTest &T, const ConstArg &Keys) {
  std::string_view Key = std::string_view(T.Attr).substr(KwargsHas.size());
  auto Items = listed(Keys.Text);
  return std::find(Items.begin(), Items.end(), Key) != Items.end();
}

inline bool runsWith(const std::vector<ParamTest> &When, const std::vector<ConstArg> &Passed) {
  for (const ParamTest &T : When)
    for (const ConstArg &C : Passed) {
      if (C.From >= 0 || C.Index != T.Index || C.Global != T.Global)
        continue;
      if (C.Attr == KwargsKeys && C.TextKnown && T.Attr.rfind(KwargsHas, 0) == 0) {
        if (hasKwargsKey(T, C) != (T.K == ParamTest::Kind::Truthy))
          return false;
        continue;
      }
      if (C.Attr == T.Attr
              ? !T.holdsFor(C)
              : T.Global.empty() && !T.Attr.empty() && C.Attr.empty() && C.NoneKnown && C.IsNone)
        return false;
    }
  return true;
}

// One unsafe construct, reported if its context is (or becomes) in capture.
struct Site {
  std::string RuleId;
  std::string Message;
  SourceLoc Loc;
  CaptureContext Context = CaptureContext::Ambient;
  SourceLoc RegionBegin; // For InRegion sites: where the capture began.
  std::vector<FixIt> FixIts;
  std::vector<Note> Notes;
  std::string Fix;             // Empty: the rule's fix. Set where the language needs its own words.
  std::vector<ParamTest> When; // Runs only where these tests of parameters hold.
  // Runs only when the environment sets this variable: at most a note.
  std::string EnvGate;
};

// A call (or a callable handed on) that may run the callee under capture.
struct CallEdge {
  std::string CalleeUsr;
  std::string CalleeName;
  SourceLoc Loc;
  CaptureContext Context = CaptureContext::Ambient;
  SourceLoc RegionBegin;
  // The receiver's class is known exactly (a local made by a constructor,
  // super()): the call reaches this method alone, not its overrides.
  bool Exact = false;
  // A call through a value (a parameter, an attribute, a local holding a
  // callable): what it reaches is whatever the program stored there. When
  // nothing was, the callee is unknown, not absent.
  bool Dynamic = false;
  // A method call on the caller's own `self` (SelfMethod) or on a receiver of
  // a known class: Receiver is that class, the one `self` is in the callee.
  // A self call is dispatched when the graph is walked, on the class `self`
  // had where the walk entered the caller, so a mixin's method calls the
  // overrides of the class that mixed it in, not those of every class that
  // uses the mixin.
  std::string SelfMethod;
  // `=` first: exactly that class, no subclass; `^` first (`super().m()`):
  // self stays the class it had in the caller, this one where unknown.
  std::string Receiver;
  std::vector<ParamTest> When;     // Made only where these tests of the caller's parameters hold.
  std::vector<ConstArg> Constants; // Literals passed for the callee's parameters.
  std::string EnvGate;             // Made only when the environment sets this variable.
  // A call through a value passing only this many positional arguments (no
  // keywords, no `*args`): it cannot run a stored function whose signature
  // does not take them. -1: not such a call.
  int Positional = -1;
  // Made by the capture mechanism itself: between a begin and the end of the
  // function that begins (or ends) the capture. What it reaches keeps the
  // mechanism's books (a registry of capturing graphs); host state and
  // logging there are not findings.
  bool Mechanism = false;
  // Not a call: a callable defined or named here (a lambda, `&fn`), which
  // runs wherever it is called. It does not begin or end a capture here.
  bool HandedOn = false;
  // A direct call of a function the calling TU declares but does not
  // define: when no analysed file defines it either, what it runs is not
  // seen (said with --explain-reach).
  bool Opaque = false;
  // The callee is pure virtual (C++): Opaque too, and what runs is whatever
  // override the analysed files define; when they define none, not seen.
  bool PureVirtual = false;
  // The callee begins or ends a capture and the calling TU saw its body: the
  // caller's own regions already count the call (CaptureRegionFinder), so
  // the pass over wrappers across TUs (CaptureWrappers.h) leaves it be.
  bool EffectSeen = false;
  // Callables this call passes for the callee's callable parameters:
  // (parameter storage, callable USR), or (parameter storage, "=" + a
  // parameter storage of the caller) when it hands on what it was given. A
  // call through the parameter reached by this call runs only these, not
  // everything any caller passes (a thread pool's Schedule(fn)).
  std::vector<std::pair<std::string, std::string>> Binds;
  // A method call on the caller's own parameter ReceiverParam (Python's
  // `optimizer.step()`): where the walk knows the class of the object the
  // caller was handed (ConstArg with Attr ClassFact), it runs that class's
  // ParamMethod alone, not every override the parameter's declared type has.
  int ReceiverParam = -1;
  std::string ParamMethod;
  // With ReceiverAttr set, the call is made on that attribute of the
  // parameter (Python's `self.encoder(x)`, `self.encoder.encode(x)`;
  // ParamMethod empty for calling the object itself): where the walk knows
  // which classes the attribute of this very object may hold (a ConstArg
  // with Attr ReceiverAttr + AttrClasses), only their methods run.
  std::string ReceiverAttr;
  // A call through a value (Python's `self.mixer(x, params=p)`): its callee
  // is found by the walk, so what it passes by keyword is said by name.
  // A ConstArg with Index KeywordParam + k is about the parameter named
  // Keywords[k] of whichever function the walk finds (FunctionSummary::
  // ParamNames).
  std::vector<std::string> Keywords;
  // A call through a value: how many positional arguments it passes, -1
  // where a `*args` may pass more; and what its `**` passes (NoSplat, the
  // caller's own `**kwargs` unchanged, or another mapping). The walk gives
  // the parameters it leaves out their defaults (FunctionSummary::
  // ParamDefaults) where nothing can fill them.
  int LeadingArgs = -1;
  enum class Splat { NoSplat, OwnKwargs, Other };
  Splat KeywordSplat = Splat::NoSplat;
};

inline constexpr unsigned KeywordParam = 0x8000;

// The callee of a call through something that is no storage the program
// writes (a call's result, a cast, a computed lookup): nothing is known of it.
inline constexpr const char *UnknownCallee = "unknown:";
// Storage holding what a lookup by a computed name may give (`getattr(self,
// cfg.step_name)`): the functions it may be, as stores of this key plus the
// lookup's text. A call through it runs them where few take its arguments.
inline constexpr std::string_view ComputedLookup = "lookup:";
// A lookup that may give more functions than this (that take the call's
// arguments) is not followed: the call is said not followed instead.
inline constexpr size_t MaxLookedUp = 8;

// A site's or call's EnvGate is the name of the environment variable it
// waits for, or, after GateClause, the whole condition other than the
// environment that code runs only under by default, as a finding says it.
inline constexpr std::string_view GateClause = "\x01if:";
// The storage of what a C++ function returning callables returns (`auto hook
// = makeHook(); hook(s)`): its key is this and the function's USR, filled by
// the TU that defines it; where none does, the callee is computed unseen.
inline constexpr const char *ReturnedCallables = "storage:ret:";

// A ConstArg whose Attr starts so says the parameter holds an instance of
// exactly the class (a summary class key) that follows.
inline constexpr std::string_view ClassFact = "&class=";
// A ConstArg whose Attr is an attribute's name followed by this says that
// attribute of the object holds an instance of one of the classes (summary
// class keys) listed, comma-separated, in Text: what the constructor that
// built this object stored there, for the arguments it was given.
inline constexpr std::string_view AttrClasses = "&classes";

// A callable handed to a method of an object whose attributes the caller
// knows (`Capture(model, use_graphs=False)(step)`, the method storing
// `self.function = fn`): besides the plain store, a CallableStores entry
// under this key whose value says (storage, callable, what is known of the
// receiver's attributes). A call through `self.function` in a walk that
// knows its self's attributes otherwise (`if self.cuda_graphs_enabled:` on
// the way to the capture) runs only what objects like its self were handed.
inline constexpr std::string_view ReceiverStore = "py:on-receiver";
struct ReceiverFacts {
  std::string Storage, Callable;
  std::vector<ConstArg> Receiver; // Index ObjectParam, Attr set, literals only
};
inline std::string receiverStoreText(const ReceiverFacts &R) {
  std::string Out = R.Storage + "\n" + R.Callable;
  for (const ConstArg &C : R.Receiver)
    Out += std::string("\n") + (C.TruthKnown ? (C.Truthy ? 't' : 'f') : '?') +
           (C.NoneKnown ? (C.IsNone ? 'n' : 'v') : '?') + C.Attr;
  return Out;
}
inline std::optional<ReceiverFacts> parseReceiverStore(std::string_view Text) {
  ReceiverFacts R;
  std::vector<std::string_view> Lines = listed(Text, '\n');
  if (Lines.size() < 3)
    return std::nullopt;
  R.Storage = Lines[0];
  R.Callable = Lines[1];
  for (size_t I = 2; I < Lines.size(); ++I) {
    if (Lines[I].size() < 3)
      return std::nullopt;
    ConstArg C{ObjectParam};
    C.TruthKnown = Lines[I][0] != '?';
    C.Truthy = Lines[I][0] == 't';
    C.NoneKnown = Lines[I][1] != '?';
    C.IsNone = Lines[I][1] == 'n';
    C.Attr = Lines[I].substr(2);
    R.Receiver.push_back(std::move(C));
  }
  return R;
}

// The storage key for what the Python function with USR `py:Q` returns
// (`py:ret:Q`): the front end stores returns there, the walk reads them.
inline constexpr std::string_view PyReturnPrefix = "py:ret:";
inline std::string pyReturnKey(const std::string &FunctionUsr) {
  return std::string(PyReturnPrefix) + FunctionUsr.substr(3);
}

// What a parameter (storage key Param) holds when a call leaves it to its
// default: the front end stores defaults there too.
inline std::string paramDefaultKey(const std::string &Param) { return Param + "!default"; }

// Attribute storage read in program order inside one function
// (python/resolve/AttributeOrder.h): Function's own stores into Base go to
// ownStoreKey, which Base holds; Function's reads made before them read
// beforeOwnStoreKey, which the walk fills with what Base holds but that.
inline constexpr std::string_view BeforeOwnStore = "%before:";
inline constexpr std::string_view OwnStore = "%in:";
inline std::string ownStoreKey(const std::string &Base, const std::string &Function) {
  return Base + std::string(OwnStore) + Function;
}
inline std::string beforeOwnStoreKey(const std::string &Base, const std::string &Function) {
  return Base + std::string(BeforeOwnStore) + Function;
}
// A function that reads an attribute before some of its stores of it names
// each store by its place there: the function, '#', the store's index. A
// key or name with that place taken off names the function's stores.
inline std::string storePlaceName(const std::string &Function, unsigned Index) {
  return Function + "#" + std::to_string(Index);
}
inline std::string withoutStorePlace(const std::string &KeyOrName) {
  return KeyOrName.substr(0, KeyOrName.find('#'));
}
// The same, for a read that sees none of several functions' stores (its own
// later one, a base's method that never runs on the receiver): their names
// joined by commas.
inline std::string beforeOwnStoreKey(const std::string &Base,
                                     const std::vector<std::string> &Functions) {
  std::string Joined;
  for (const auto &F : Functions)
    Joined += (Joined.empty() ? "" : ",") + F;
  return beforeOwnStoreKey(Base, Joined);
}

// A class of the program, for dispatching self calls: its bases in method
// resolution order and the methods it defines itself (name -> USR).
struct ClassSummary {
  std::string Key;
  std::vector<std::string> Bases;
  std::map<std::string, std::string> Methods;
};

struct FunctionSummary {
  std::string Usr;
  std::string Name;
  SourceLoc Loc;
  bool IsEntryPoint = false; // Annotated or named as always captured.
  // Returns with a capture open (a begin wrapper), ends a capture its caller
  // began (an end wrapper). Callers in other TUs are under capture between
  // their calls of the two.
  bool OpensCapture = false;
  bool ClosesCapture = false;
  std::vector<std::string> Overrides; // Virtual methods this one overrides.
  // How many positional arguments a call may pass it (self aside); MaxArgs
  // -1: any number.
  int MinArgs = 0;
  int MaxArgs = -1;
  // The names of its parameters as callers count them (Python), for the
  // keywords of calls through values (CallEdge::Keywords).
  std::vector<std::string> ParamNames;
  // The literal defaults of those parameters (by their index), and whether
  // it takes `**kwargs`: what a call through a value that leaves them out
  // passes (CallEdge::LeadingArgs).
  std::vector<ConstArg> ParamDefaults;
  bool TakesKwargs = false;
  std::vector<Site> Sites;
  std::vector<CallEdge> Calls;
  // Branches that leave the function by a return, first and last position:
  // in an end wrapper, the ones before its end call run with no capture open
  // (NotCapturedPaths.h, findEarlyExits).
  std::vector<std::pair<SourceLoc, SourceLoc>> ReturnBranches;
};

struct TUSummary {
  std::string File;
  std::vector<FunctionSummary> Functions;
  // Callables stored into a std::function, a function pointer or a container
  // of them: (storage key, callee USR). An indirect call is an edge to the
  // storage key, which reaches every callable any TU stored there. What is
  // stored may be another storage key (a parameter handed on to an attribute),
  // or `ext:NAME`: code outside the analysed files, known but not followed.
  std::vector<std::pair<std::string, std::string>> CallableStores;
  // Callables this TU starts on other threads (std::thread, std::async, ...),
  // with where each is started.
  std::vector<CallEdge> ThreadEntries;
  // Where this TU begins a capture in global mode (cudaStreamCaptureModeGlobal,
  // PyTorch's default); invalid when it does not.
  SourceLoc GlobalCapture;
  // Where it begins a capture in any mode.
  SourceLoc AnyCapture;
  std::vector<ClassSummary> Classes;
  // Python: the analysed files this module imports (with the packages above
  // them, whose __init__ runs first), and the classes (ClassSummary keys) it
  // makes instances of. A script or test that nothing imports is a program
  // of its own: classes only other such programs build never reach its
  // captures.
  std::vector<std::string> ImportedFiles;
  std::vector<std::string> BuiltClasses;
};

} // namespace graphsafe::lint
