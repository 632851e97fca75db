#include "PyObjectFacts.h"

#include "PyCallGraph.h"
#include "PyModeFlags.h"
#include "TorchApi.h"
#include "resolve/ArgumentForwarding.h"
#include "resolve/ClassTests.h"
#include "resolve/LibrarySemantics.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace graphsafe::lint::py {

namespace {

// Steps from a use back through locals and attributes in one function, and
// project functions followed into from one call.
constexpr int MaxDepth = 8;
constexpr int MaxNesting = 4;
// Steps one question (an argument's facts, a test's attribute) may take.
constexpr unsigned MaxSteps = 20000;

// What one value is known to be, in the terms of one function: a literal
// (what of it is known), or what its parameter From (its attribute FromAttr)
// held on entry. A ConstArg with Index unused.
using Source = ConstArg;

bool sameSource(const Source &A, const Source &B) {
  return A.From == B.From && A.FromAttr == B.FromAttr && A.TruthKnown == B.TruthKnown &&
         A.NoneKnown == B.NoneKnown && (!A.TruthKnown || A.Truthy == B.Truthy) &&
         (!A.NoneKnown || A.IsNone == B.IsNone);
}

Source notNone() {
  Source S;
  S.TruthKnown = false;
  return S;
}

Source fromParameter(int Index, std::string Attr = "") {
  Source S;
  S.From = Index;
  S.FromAttr = std::move(Attr);
  return S;
}

// A project class a value may be an instance of where the tests When of
// the function's parameters hold; with From set, whichever classes the
// function's parameter From holds (a constructor storing its argument), or
// with FromAttr too, that attribute of it (From ObjectParam: of the method's
// receiver, `self._init_storage` read in a method __init__ calls).
// Unknown: an instance of classes not known, where When holds (`if factory
// is not None: transform = factory()`).
struct MayBe {
  std::vector<ParamTest> When;
  std::string Class;
  int From = -1;
  bool Unknown = false;
  std::string FromAttr;
};
// Nothing: not known which classes.
using ClassSet = std::optional<std::vector<MayBe>>;

ClassSet unite(const ClassSet &A, const ClassSet &B) {
  if (!A || !B)
    return std::nullopt;
  std::vector<MayBe> Out = *A;
  Out.insert(Out.end(), B->begin(), B->end());
  return Out;
}

bool isKey(const std::string &Attr) { return !Attr.empty() && Attr.front() == '['; }

// What is known of an object at one point of a function.
struct Obj {
  // The function's parameter the value is (or is a copy of): its attributes
  // are those the caller passed, but for Changed and Attrs.
  int Alias = -1;
  std::set<std::string> Changed;
  std::map<std::string, Source> Attrs;
  std::optional<Source> Self; // the value itself
  // A parameter (Alias) whose attribute every path here read or stored
  // first: no None (dereferencedBefore).
  bool Dereferenced = false;
  // A tuple's elements by position; a list's elements, all alike (List
  // without Element: no element yet).
  std::shared_ptr<const std::vector<Obj>> Items;
  bool List = false;
  std::shared_ptr<const Obj> Element;
  // The project classes the value may be an instance of, where it was built
  // by a constructor; per attribute (`["key"]` for a dict's items), those
  // of what the object's stores left there.
  ClassSet Classes;
  std::map<std::string, ClassSet> AttrClasses;
  // Attributes of an object being built that a branch alone stored (after
  // `if n is None: return`): the classes of what was there before stay.
  std::set<std::string> StoredInBranch;
  // Where the value (Choices) or an attribute (AttrChoices) was bound on
  // some paths and not others: one of these, not known which. An empty
  // list in AttrChoices: some path stored a value nothing is known of.
  std::vector<Source> Choices;
  std::map<std::string, std::vector<Source>> AttrChoices;
  // An item stored under a key not known here, or a method that may change
  // a dict's keys, was applied: the parameter's `["key"]` items are no longer
  // what the caller passed.
  bool KeysChanged = false;
  bool known() const {
    return Alias >= 0 || !Attrs.empty() || Self || Items || List || Classes ||
           !AttrClasses.empty() || !Choices.empty() || !AttrChoices.empty();
  }
  // Whether the function stored into A, or called what may have: not, and
  // A is what it was when the function began.
  bool touched(const std::string &A) const {
    return Attrs.count(A) || Changed.count(A) || AttrChoices.count(A) || AttrClasses.count(A);
  }
  bool kept(const std::string &A) const {
    return Alias >= 0 && !Changed.count(A) && !(KeysChanged && isKey(A));
  }
  // Forgets what is known of the parts of the object held in attribute A
  // (`A.inner`: AttrClasses of it, by a dotted name).
  void forgetParts(const std::string &A) {
    const std::string Prefix = A + ".";
    for (auto It = AttrClasses.begin(); It != AttrClasses.end();)
      It = It->first.rfind(Prefix, 0) == 0 ? AttrClasses.erase(It) : std::next(It);
  }
  // Keeps, as the parts of attribute A, what is known of the attributes of
  // the object Part that A holds now; one level of parts below A at most.
  void keepParts(const std::string &A, const std::map<std::string, ClassSet> &Part) {
    for (const auto &[K, V] : Part)
      if (K.find('.') == std::string::npos && V)
        AttrClasses[A + "." + K] = V;
  }
  // Forgets what is known of the dict's items.
  void forgetKeys() {
    for (auto It = Attrs.begin(); It != Attrs.end();)
      It = isKey(It->first) ? Attrs.erase(It) : std::next(It);
    for (auto It = AttrClasses.begin(); It != AttrClasses.end();)
      It = isKey(It->first) ? AttrClasses.erase(It) : std::next(It);
    KeysChanged = Alias >= 0;
  }
  std::optional<Source> attr(const std::string &A) const {
    if (auto It = Attrs.find(A); It != Attrs.end())
      return It->second;
    if (kept(A))
      return fromParameter(Alias, A);
    return std::nullopt;
  }
  // Self, or the parameter the value is, as a source.
  std::optional<Source> whole() const {
    if (Self)
      return Self;
    if (Alias >= 0 && Changed.empty() && Attrs.empty())
      return fromParameter(Alias);
    return std::nullopt;
  }
  // What the value may be: the one source known, or each binding's; empty
  // where nothing is known.
  std::vector<Source> choices() const {
    if (auto W = whole())
      return {*W};
    return Choices;
  }
};

// A binding's or a constructor's branches past this many: nothing known.
constexpr size_t MaxChoices = 8;

// What holds of a value that is one of Choices, each in the caller's terms:
// the source all of them are, or what literals all agree on (all false, all
// None, all not None, one string); nothing where they disagree.
std::optional<Source> agreed(const std::vector<Source> &Choices) {
  if (Choices.empty())
    return std::nullopt;
  const Source &First = Choices.front();
  if (std::all_of(Choices.begin(), Choices.end(), [&](const Source &C) {
        return sameSource(C, First) && C.TextKnown == First.TextKnown && C.Text == First.Text;
      }))
    return First;
  if (std::any_of(Choices.begin(), Choices.end(), [](const Source &C) { return C.From >= 0; }))
    return std::nullopt;
  Source Out;
  Out.TruthKnown = std::all_of(Choices.begin(), Choices.end(), [&](const Source &C) {
    return C.TruthKnown && C.Truthy == First.Truthy;
  });
  Out.Truthy = Out.TruthKnown && First.Truthy;
  Out.NoneKnown = std::all_of(Choices.begin(), Choices.end(), [&](const Source &C) {
    return C.NoneKnown && C.IsNone == First.IsNone;
  });
  Out.IsNone = Out.NoneKnown && First.IsNone;
  Out.TextKnown = std::all_of(Choices.begin(), Choices.end(),
                              [&](const Source &C) { return C.TextKnown && C.Text == First.Text; });
  if (Out.TextKnown)
    Out.Text = First.Text;
  if (!Out.TruthKnown && !Out.NoneKnown)
    return std::nullopt;
  return Out;
}

// What holds on both of two paths.
Obj join(const Obj &A, const Obj &B) {
  Obj Out;
  Out.Alias = A.Alias == B.Alias ? A.Alias : -1;
  if (Out.Alias >= 0) {
    Out.Changed = A.Changed;
    Out.Changed.insert(B.Changed.begin(), B.Changed.end());
  }
  std::set<std::string> Names;
  for (const auto &[K, V] : A.Attrs)
    Names.insert(K);
  for (const auto &[K, V] : B.Attrs)
    Names.insert(K);
  for (const auto &K : Names) {
    auto X = A.attr(K), Y = B.attr(K);
    if (X && Y && sameSource(*X, *Y))
      Out.Attrs[K] = *X;
    else if (Out.Alias >= 0)
      Out.Changed.insert(K);
  }
  for (auto It = Out.Attrs.begin(); It != Out.Attrs.end();)
    It = Out.Alias >= 0 && It->second.From == Out.Alias && It->second.FromAttr == It->first
             ? (Out.Changed.erase(It->first), Out.Attrs.erase(It))
             : std::next(It);
  if (A.Items && B.Items && A.Items->size() == B.Items->size()) {
    std::vector<Obj> Both;
    for (size_t I = 0; I < A.Items->size(); ++I)
      Both.push_back(join((*A.Items)[I], (*B.Items)[I]));
    Out.Items = std::make_shared<const std::vector<Obj>>(std::move(Both));
  }
  if (A.List && B.List) {
    Out.List = true;
    Out.Element = !A.Element   ? B.Element
                  : !B.Element ? A.Element
                               : std::make_shared<const Obj>(join(*A.Element, *B.Element));
  }
  Out.KeysChanged = Out.Alias >= 0 && (A.KeysChanged || B.KeysChanged);
  // Two objects (or one on two paths): the classes of either, where each
  // says what they are.
  Out.Classes = unite(A.Classes, B.Classes);
  for (const auto &[K, V] : A.AttrClasses)
    if (auto It = B.AttrClasses.find(K); It != B.AttrClasses.end())
      Out.AttrClasses[K] = unite(V, It->second);
  if (A.Self && B.Self && sameSource(*A.Self, *B.Self))
    Out.Self = A.Self;
  else if (A.Self && B.Self && A.Self->From < 0 && B.Self->From < 0 && A.Self->NoneKnown &&
           B.Self->NoneKnown && !A.Self->IsNone && !B.Self->IsNone)
    Out.Self = notNone();
  // One of either's choices, where both know theirs.
  auto both = [](std::vector<Source> X, const std::vector<Source> &Y) {
    if (X.empty() || Y.empty() || X.size() + Y.size() > MaxChoices)
      return std::vector<Source>();
    X.insert(X.end(), Y.begin(), Y.end());
    return X;
  };
  if (!Out.Self)
    Out.Choices = both(A.choices(), B.choices());
  for (const auto &[K, V] : A.AttrChoices)
    if (auto It = B.AttrChoices.find(K); It != B.AttrChoices.end())
      Out.AttrChoices[K] = both(V, It->second);
  return Out;
}

// What a function does to its names, in one walk of its body: attribute
// stores (`x.a = v`, `x.a += v`), item stores (`x[i] = v`, Attr "[]") and
// method calls (`x.m()`, Attr empty).
struct Event {
  unsigned At = 0;
  std::string Attr;
  std::string Method;
  TSNode Stmt{};  // the assignment, or the call
  TSNode Value{}; // a plain store's value
};
// Where a name is bound: `x = v` (Expr v, Index -1), `a, x = v` (Index 1),
// any other way (Expr null: unknown).
struct Bind {
  unsigned At = 0;
  TSNode Stmt{};
  TSNode Expr{};
  int Index = -1;
};
struct FunctionEvents {
  std::map<std::string, std::vector<Event>, std::less<>> Uses;
  std::map<std::string, std::vector<Bind>, std::less<>> Binds;
  // The calls each name is handed to as an argument: read only for objects
  // whose parts' classes are known, kept apart so the rest never walk them.
  std::map<std::string, std::vector<std::pair<unsigned, TSNode>>, std::less<>> Handed;
  // Where the first `return` in the body begins: a store after it may not
  // run (`if n is None: return` before `self.sampler = Consuming()`).
  unsigned FirstReturn = ~0u;
};

struct State {
  std::unordered_map<const PyFunctionDef *, FunctionEvents> ByFunction;
  // What a name holds: by its function, its binding's end (the body's start
  // for a parameter) and how many uses of it, and calls it was handed to,
  // come before the point asked.
  using NameKey = std::tuple<const PyFunctionDef *, std::string, unsigned, size_t, size_t>;
  std::map<NameKey, Obj> Names;
  std::map<std::string, std::optional<Obj>> Returns;
  std::set<std::string> Active; // being followed: recursion knows nothing
  // Per function and name: the statements reading or storing an attribute
  // of it, as their end and their block's extent (dereferencedBefore).
  struct Deref {
    unsigned End, BlockBegin, BlockEnd;
  };
  std::map<std::pair<const PyFunctionDef *, std::string>, std::vector<Deref>> Derefs;
  int Nesting = 0;
  bool Cut = false;   // a bound was hit: the answer is less than the truth
  unsigned Steps = 0; // spent on the question asked now
};

State &stateOf(PyTypeCache &C) {
  if (!C.ObjectFacts)
    C.ObjectFacts = std::make_shared<State>();
  return *static_cast<State *>(C.ObjectFacts.get());
}

// What a store to Target (an attribute or an item) sets: the attribute's
// name, `["key"]` for an item under a plain string key, "[]" for any other.
std::string storedName(const PySource &S, TSNode Target) {
  if (is(Target, "attribute"))
    return std::string(S.text(field(Target, "attribute")));
  if (auto Key = plainString(S, unparen(field(Target, "subscript"))))
    return "[" + *Key + "]";
  return "[]";
}

// Calls that leave the attributes of an object handed to them as they were
// (or make a new object of it), by what they resolve to.
bool keepsAttributes(const PyTypes &T, TSNode Call) {
  static const std::set<std::string, std::less<>> Keeping = {
      "isinstance", "issubclass",    "len",           "print", "id",     "type",
      "getattr",    "hasattr",       "str",           "repr",  "format", "callable",
      "copy.copy",  "copy.deepcopy", "torch.compile", "super"};
  std::string Q = T.resolve(field(Call, "function"));
  return Keeping.count(Q) || wrapsModule(Q) || startsWith(Q, "logging.");
}

// Methods that leave a dict's items as they were.
bool readsItems(std::string_view Method) {
  for (std::string_view M :
       {"get", "keys", "values", "items", "copy", "__contains__", "__getitem__"})
    if (Method == M)
      return true;
  return false;
}

const FunctionEvents &eventsOf(const PyTypes &T) {
  State &St = stateOf(T.cache());
  auto [It, New] = St.ByFunction.try_emplace(&T.F);
  if (!New)
    return It->second;
  const PySource &S = *T.M.Src;
  FunctionEvents &Out = It->second;
  auto bind = [&](TSNode Target, unsigned At, TSNode Stmt, TSNode Expr, int Index) {
    Target = unparen(Target);
    if (is(Target, "identifier"))
      Out.Binds[std::string(S.text(Target))].push_back({At, Stmt, Expr, Index});
    else if (is(Target, "pattern_list") || is(Target, "tuple_pattern") ||
             is(Target, "list_pattern") || is(Target, "tuple") || is(Target, "list"))
      for (TSNode C : namedChildren(Target)) // bound, but not followed
        if (is(unparen(C), "identifier"))
          Out.Binds[std::string(S.text(unparen(C)))].push_back({At, Stmt, {}, -1});
  };
  walk(T.F.body(), [&](TSNode N) {
    if (isScope(N))
      return false;
    bool Plain = is(N, "assignment");
    if (Plain || is(N, "augmented_assignment")) {
      TSNode L = unparen(field(N, "left"));
      bool Many = is(L, "pattern_list") || is(L, "tuple_pattern");
      for (TSNode Target : Many ? namedChildren(L) : std::vector<TSNode>{L}) {
        TSNode Obj = unparen(field(Target, "object"));
        if (is(Target, "subscript"))
          Obj = unparen(field(Target, "value"));
        if ((is(Target, "attribute") || is(Target, "subscript")) && is(Obj, "identifier"))
          Out.Uses[std::string(S.text(Obj))].push_back(
              {beginOf(N), storedName(S, Target), "", N,
               Plain && !Many ? field(N, "right") : TSNode{}});
      }
      if (!Plain) {
        bind(L, endOf(N), N, {}, -1);
      } else if (Many) {
        auto Ls = namedChildren(L);
        for (size_t I = 0; I < Ls.size(); ++I)
          bind(Ls[I], endOf(N), N, field(N, "right"), static_cast<int>(I));
      } else {
        bind(L, endOf(N), N, field(N, "right"), -1);
      }
    } else if (is(N, "call")) {
      TSNode Fn = unparen(field(N, "function"));
      if (TSNode Obj = unparen(field(Fn, "object")); is(Fn, "attribute") && is(Obj, "identifier"))
        Out.Uses[std::string(S.text(Obj))].push_back(
            {beginOf(N), "", std::string(S.text(field(Fn, "attribute"))), N, {}});
      CallArgs A = argsOf(S, N);
      std::vector<TSNode> Handed = A.Positional;
      for (const auto &K : A.Keywords)
        Handed.push_back(K.second);
      for (TSNode Arg : Handed)
        if (Arg = unparen(Arg); is(Arg, "identifier"))
          Out.Handed[std::string(S.text(Arg))].push_back({beginOf(N), N});
    } else if (is(N, "return_statement")) {
      Out.FirstReturn = std::min(Out.FirstReturn, beginOf(N));
    } else if (is(N, "for_statement") || is(N, "for_in_clause")) {
      bind(field(N, "left"), beginOf(N), N, {}, -1);
    } else if (is(N, "as_pattern") || is(N, "named_expression")) {
      TSNode Name = is(N, "named_expression") ? field(N, "name") : field(N, "alias");
      if (is(Name, "as_pattern_target"))
        Name = ts_node_named_child(Name, 0);
      bind(Name, endOf(N), N, {}, -1);
    }
    return true;
  });
  return Out;
}

// The innermost block (or the body) holding N.
TSNode blockOf(TSNode N) {
  for (TSNode Up = parentOf(N); !ts_node_is_null(Up); Up = parentOf(Up))
    if (is(Up, "block") || is(Up, "module"))
      return Up;
  return TSNode{};
}

Obj factsOf(const PyTypes &T, TSNode E, unsigned At, int Depth);

// Changes what is known of Name's object for what the function does to it
// in [From, To): a store in the block that bound it (Home) sets the
// attribute, one elsewhere leaves it unknown, a method call may change what
// project methods of that name store on self, an append adds to a list.
// Classes under the tests of T's parameters that Stmt runs under.
ClassSet guarded(const PyTypes &T, const ClassSet &Classes, TSNode Stmt) {
  if (!Classes)
    return std::nullopt;
  // A question inside the one being answered: its steps count apart, and
  // past a few such questions inside one another, no tests (more classes).
  static thread_local int Nesting = 0;
  State &St = stateOf(T.cache());
  unsigned Steps = St.Steps;
  std::vector<ParamTest> When;
  if (Nesting < 3) {
    ++Nesting;
    When = parameterTestsAt(T, Stmt);
    --Nesting;
  }
  St.Steps = Steps;
  std::vector<MayBe> Out = *Classes;
  for (MayBe &M : Out)
    M.When.insert(M.When.begin(), When.begin(), When.end());
  return Out;
}

// What calling Method on an instance of one of Classes (each exactly that
// class, as a constructor made it) may store on it: the attributes that
// method, as Classes and their bases define it, and the methods it calls on
// self store. Null where a class is not known exactly: then any project
// method of that name may run.
std::optional<std::set<std::string>> storesOn(const PyProgram &P, const ClassSet &Classes,
                                              const std::string &Method) {
  if (!Classes || Classes->empty())
    return std::nullopt;
  std::set<std::string> Out;
  for (const MayBe &M : *Classes) {
    if (M.From >= 0 || M.Unknown || M.Class.empty())
      return std::nullopt;
    std::vector<const PyClassDef *> Chain;
    for (const std::string &A : P.ancestors(M.Class))
      if (const PyClassDef *D = P.classNamed(A))
        Chain.push_back(D);
    std::set<std::string> Seen;
    for (std::vector<std::string> Todo = {Method}; !Todo.empty();) {
      std::string Next = std::move(Todo.back());
      Todo.pop_back();
      if (Next.rfind(SuperCall, 0) == 0)
        Next.erase(0, SuperCall.size());
      if (!Seen.insert(Next).second)
        continue;
      for (const PyClassDef *D : Chain) {
        if (auto It = D->StoresBy.find(Next); It != D->StoresBy.end())
          Out.insert(It->second.begin(), It->second.end());
        if (auto It = D->SelfCallsBy.find(Next); It != D->SelfCallsBy.end())
          Todo.insert(Todo.end(), It->second.begin(), It->second.end());
      }
    }
  }
  return Out;
}

// Whether E runs whenever Home does: in Home's own block, and not after a
// return that may leave the function first.
bool runsAlways(const PyTypes &T, const FunctionEvents &Events, const Event &E, TSNode Home) {
  return ts_node_eq(blockOf(E.Stmt), Home) &&
         !(ts_node_eq(Home, T.F.body()) && Events.FirstReturn < E.At);
}

using Parts = std::map<std::string, ClassSet>;
struct CalledParts {
  Parts Stored;
  std::set<std::string> InBranch; // stored on some paths only
};
std::optional<CalledParts> selfCallParts(const PyTypes &T, const std::string &Method, TSNode Call,
                                         int Depth, const Obj &O);

void applyEvents(const PyTypes &T, std::string_view Name, unsigned From, unsigned To, TSNode Home,
                 int Depth, Obj &O, bool Building) {
  const FunctionEvents &Events = eventsOf(T);
  // What a call does to the object is not read (its other facts are assumed
  // kept, PyObjectFacts.h); which classes its parts are decides what a
  // capture runs, so a call that may store others (`swap_encoder(model)`,
  // `quantize(model)`) leaves them unknown, until a store after it says.
  // Read in program order with the other uses, only while parts are known.
  static const std::vector<std::pair<unsigned, TSNode>> NoCalls;
  auto Handed = Events.Handed.find(Name);
  const auto &Calls = Handed == Events.Handed.end() ? NoCalls : Handed->second;
  size_t NextCall = 0;
  auto handUpTo = [&](unsigned Before) {
    for (; NextCall < Calls.size() && Calls[NextCall].first < Before; ++NextCall)
      if (Calls[NextCall].first >= From && !O.AttrClasses.empty() &&
          !keepsAttributes(T, Calls[NextCall].second))
        O.AttrClasses.clear();
  };
  const auto &Es = Events.Uses;
  auto It = Es.find(Name);
  if (It == Es.end()) {
    handUpTo(To);
    return;
  }
  for (const Event &E : It->second) {
    if (E.At < From || E.At >= To)
      continue;
    handUpTo(E.At);
    if (!O.Self || O.Self->From >= 0 || (O.Self->NoneKnown && O.Self->IsNone))
      O.Self = notNone(); // None has no attributes to set or methods to call
    if (O.List) {
      // A list built by appending: what each append adds, wherever it is.
      CallArgs A = argsOf(*T.M.Src, E.Stmt);
      if (E.Method == "append" && A.Positional.size() == 1 && A.Keywords.empty()) {
        Obj Added = factsOf(T, A.Positional[0], E.At, Depth + 1);
        O.Element = std::make_shared<const Obj>(O.Element ? join(*O.Element, Added) : Added);
      } else {
        O.List = false;
        O.Element.reset();
      }
      continue;
    }
    if (E.Attr == "[]") {
      O.forgetKeys();
      continue;
    }
    if (E.Attr.empty()) {
      // `self._init()` while __init__ builds the object: the parts that
      // method stores, for this object.
      std::optional<CalledParts> Stored;
      if (Building)
        Stored = selfCallParts(T, E.Method, E.Stmt, Depth, O);
      // The call itself in a branch: all it stores is.
      if (Stored && !runsAlways(T, Events, E, Home))
        for (const auto &[A, Cs] : Stored->Stored)
          Stored->InBranch.insert(A);
      Parts Before;
      if (Stored)
        for (const auto &A : Stored->InBranch)
          if (auto It = O.AttrClasses.find(A); It != O.AttrClasses.end())
            Before[A] = It->second;
      // A method called on it may store what that method stores on self: the
      // object's own class's (`buf.extend(x)` on a buffer built here), or,
      // where its class is not known exactly, any project method's of that
      // name.
      std::optional<std::set<std::string>> Own = storesOn(T.P, O.Classes, E.Method);
      for (const auto &A : Own ? *Own : T.P.storesOfMethod(E.Method)) {
        O.Attrs.erase(A);
        if (Building)
          O.AttrChoices[A].clear();
        else
          O.AttrChoices.erase(A);
        O.AttrClasses.erase(A);
        O.forgetParts(A);
        if (O.Alias >= 0)
          O.Changed.insert(A);
      }
      // A store the method makes under a test (after `if n is None:
      // return`) may leave what was there before.
      if (Stored)
        for (auto &[A, Cs] : Stored->Stored) {
          if (!Cs)
            continue;
          auto Was = Before.find(A);
          O.AttrClasses[A] = Was == Before.end() ? std::move(Cs) : unite(Was->second, Cs);
          // Stored on some paths and nothing here before: so for the caller.
          if (Was == Before.end() && Stored->InBranch.count(A))
            O.StoredInBranch.insert(A);
          else if (!Stored->InBranch.count(A))
            O.StoredInBranch.erase(A);
        }
      if (!readsItems(E.Method))
        O.forgetKeys(); // `.update()`, `.pop()`, `.setdefault()`
      continue;
    }
    std::optional<Source> Before = O.attr(E.Attr);
    O.Attrs.erase(E.Attr);
    bool Straight = !ts_node_is_null(E.Value) && runsAlways(T, Events, E, Home);
    // The value's facts where they are kept: a store that runs always, or
    // classes to add to those known (or an object being built).
    Obj Value;
    if (!ts_node_is_null(E.Value) && (Straight || Building || O.AttrClasses.count(E.Attr)))
      Value = factsOf(T, E.Value, E.At, Depth + 1);
    if (std::optional<Source> V = Straight ? Value.whole() : std::nullopt)
      O.Attrs[E.Attr] = *V;
    else
      O.Changed.insert(E.Attr);
    // An object being built: a store in a branch (`if on_gpu: self.graphs =
    // use_graphs else: self.graphs = False`) leaves one of the values the
    // branches store, or the one before them.
    // (An empty list: a value nothing is known of was stored before.)
    if (Straight && O.Attrs.count(E.Attr)) {
      O.AttrChoices.erase(E.Attr);
    } else if (Straight) {
      O.AttrChoices[E.Attr] = Value.Choices;
    } else if (Building) {
      auto [Slot, First] = O.AttrChoices.try_emplace(E.Attr);
      if (First && Before)
        Slot->second.push_back(*Before);
      std::vector<Source> Adds = Value.choices();
      if (Adds.empty() || (!First && Slot->second.empty()) ||
          Slot->second.size() + Adds.size() > MaxChoices)
        Slot->second.clear();
      else
        Slot->second.insert(Slot->second.end(), Adds.begin(), Adds.end());
    } else {
      O.AttrChoices.erase(E.Attr);
    }
    // A store in a branch adds its classes to those before it; one that runs
    // always replaces them. Where nothing was stored before, only the
    // object's constructor may take the branch's classes as all there are.
    ClassSet Stored = guarded(T, Value.Classes, E.Stmt);
    O.forgetParts(E.Attr);
    if (Straight)
      O.keepParts(E.Attr, Value.AttrClasses);
    if (auto It = O.AttrClasses.find(E.Attr); Straight) {
      O.AttrClasses[E.Attr] = std::move(Stored);
      O.StoredInBranch.erase(E.Attr);
    } else if (It != O.AttrClasses.end()) {
      It->second = unite(It->second, Stored);
    } else if (Building) {
      O.AttrClasses[E.Attr] = std::move(Stored);
      O.StoredInBranch.insert(E.Attr);
    }
  }
  handUpTo(To);
}

// What calling one of the project functions Callees returns, in the terms of
// T's function, for the arguments of Call.
std::optional<Obj> returnedBy(const PyTypes &T, const std::vector<std::string> &Callees,
                              TSNode Call, int Depth);

// What constructing the project class Class with Call's arguments leaves in
// the new object.
Obj constructed(const PyTypes &T, const std::string &Class, TSNode Call, int Depth);

// A dict built from plain string keys (a literal's pairs, `dict(k=v)`): each
// item as an attribute `["key"]`. A `**other` or a computed key may replace
// the items before it.
Obj dictOf(const PyTypes &T, const std::vector<std::pair<std::string_view, TSNode>> &Items,
           unsigned At, int Depth) {
  Obj Out;
  Out.Self = notNone();
  for (const auto &[Key, V] : Items) {
    if (ts_node_is_null(V)) {
      Out.Attrs.clear();
      Out.AttrClasses.clear();
      continue;
    }
    std::string A = "[" + std::string(Key) + "]";
    Obj Item = factsOf(T, V, At, Depth + 1);
    Out.Attrs.erase(A);
    Out.AttrClasses.erase(A);
    if (auto W = Item.whole())
      Out.Attrs[A] = *W;
    if (Item.Classes)
      Out.AttrClasses[A] = Item.Classes;
  }
  return Out;
}

Obj factsOfCall(const PyTypes &T, TSNode Call, int Depth) {
  const PySource &S = *T.M.Src;
  std::string Q = T.resolve(field(Call, "function"));
  CallArgs A = argsOf(S, Call);
  // `super().sample(n)`: the method runs on this very self, with what it
  // holds here.
  if (Q == "super" && !T.F.ClassQName.empty() && !T.F.IsLambda)
    if (std::string_view Self = selfNameOf(S, T.F.Node); !Self.empty()) {
      Obj Out;
      Out.Alias = static_cast<int>(ObjectParam);
      applyEvents(T, Self, beginOf(T.F.body()), beginOf(Call), T.F.body(), Depth, Out, false);
      return Out;
    }
  if ((Q == "copy.copy" || Q == "copy.deepcopy") && A.Positional.size() == 1)
    return factsOf(T, A.Positional[0], beginOf(Call), Depth + 1);
  Obj Out;
  if (!Q.empty() && T.P.classNamed(Q))
    return constructed(T, Q, Call, Depth);
  // `torch.jit.script(model)`, `DDP(model)`: calling the wrapper runs the
  // module's own forward on the module, attributes and all.
  if ((wrapsModule(Q) || Q == "torch.compile") && !A.Positional.empty() &&
      !is(A.Positional[0], "list_splat"))
    return factsOf(T, A.Positional[0], beginOf(Call), Depth + 1);
  if ((Q == "dict" || Q == "builtins.dict") && A.Positional.empty())
    return dictOf(T, A.Keywords, beginOf(Call), Depth);
  // `create_model(args).to(device)`, `model.eval()`: nn.Module's set-up
  // methods hand back the module itself, where no project class overrides them.
  if (TSNode Fn = unparen(field(Call, "function"));
      is(Fn, "attribute") && moduleReturnsItself(S.text(field(Fn, "attribute")))) {
    std::string Method(S.text(field(Fn, "attribute")));
    Value V = T.valueOf(field(Fn, "object"));
    std::vector<std::string> Classes = V.classes();
    if (V.K == VK::Instance && !V.Many &&
        std::all_of(Classes.begin(), Classes.end(), [&](const std::string &C) {
          return T.P.classNamed(C) && T.P.dispatch(C, Method, false).empty();
        }))
      return factsOf(T, field(Fn, "object"), beginOf(Call), Depth + 1);
  }
  Callees Cs = calleesOf(T, Call);
  if (Cs.Dynamic || Cs.Keys.empty())
    return Out;
  std::vector<std::string> Fns;
  for (const auto &K : Cs.Keys) {
    if (K.rfind("py:", 0) != 0 || !T.P.isFunction(K.substr(3)))
      return Out;
    // A class called through a value (`self.state_class()`): a new instance
    // of a class chosen at run time.
    if (K.size() > 9 && K.compare(K.size() - 9, 9, ".__init__") == 0) {
      Out.Self = notNone();
      return Out;
    }
    Fns.push_back(K.substr(3));
  }
  if (auto R = returnedBy(T, Fns, Call, Depth))
    return *R;
  return Out;
}

// Whether an attribute of the parameter Name was read or stored on every
// path to Use (`params.seqlen_offset = n` before `model(..., params)`):
// Python raises on None there, so at Use it is no None. A statement of a
// block around Use that ends before it runs first; a use under `and`, `or`,
// `x if c else y`, a lambda or a comprehension may not run. Each function's
// such statements are found once per name.
bool dereferencedBefore(const PyTypes &T, std::string_view Name, TSNode Use) {
  auto [It, New] = stateOf(T.cache()).Derefs.try_emplace({&T.F, std::string(Name)});
  if (New) {
    const PySource &S = *T.M.Src;
    auto derefs = [&](TSNode Stmt) {
      bool Found = false;
      walk(Stmt, [&](TSNode N) {
        if (Found || is(N, "boolean_operator") || is(N, "conditional_expression") ||
            is(N, "lambda") || is(N, "list_comprehension") || is(N, "generator_expression") ||
            is(N, "dictionary_comprehension") || is(N, "set_comprehension"))
          return false;
        Found = is(N, "attribute") && is(unparen(field(N, "object")), "identifier") &&
                S.text(unparen(field(N, "object"))) == Name;
        return !Found;
      });
      return Found;
    };
    walk(T.F.body(), [&](TSNode N) {
      if (is(N, "function_definition") || is(N, "lambda") || is(N, "class_definition"))
        return false;
      if (!is(N, "expression_statement"))
        return true;
      if (TSNode Block = parentOf(N); (is(Block, "block") || is(Block, "module")) && derefs(N))
        It->second.push_back({endOf(N), beginOf(Block), endOf(Block)});
      return false;
    });
  }
  unsigned At = beginOf(Use);
  return std::any_of(It->second.begin(), It->second.end(), [&](const State::Deref &D) {
    return D.End <= At && D.BlockBegin <= At && At < D.BlockEnd;
  });
}

// A closure's free variable Name that its enclosing function (Outer) binds
// once, to a literal, and no function nested there rebinds through
// `nonlocal`: whenever the closure runs, it reads that literal.
std::optional<ConstArg> closureLiteral(const PyTypes &Outer, std::string_view Name) {
  std::vector<TSNode> Bound = Outer.everyBoundExpr(Name);
  if (Bound.size() != 1 || ts_node_is_null(Bound.front()))
    return std::nullopt;
  const PySource &S = *Outer.M.Src;
  if (declaresName(S, Outer.F.body(), Name, false))
    return std::nullopt;
  return literalArgument(S, Bound.front(), 0);
}

// A closure's free variable E that its enclosing function (Outer) binds
// once, before the nested function that reads it, and neither changes nor
// hands on after that function's definition: what Outer's code leaves of the
// object there, in literals and classes alone (Outer's parameters are no
// parameters of the closure). `model = Net("dense")`, then `def step(x):
// return model(x)` captured: the model's parts are those Net("dense") has.
Obj closureObject(const PyTypes &Outer, TSNode E, int Depth) {
  Obj Out;
  const PySource &S = *Outer.M.Src;
  std::string_view Name = S.text(E);
  std::vector<TSNode> Bound = Outer.everyBoundExpr(Name);
  if (Bound.size() != 1 || ts_node_is_null(Bound.front()) || Outer.F.IsModuleBody ||
      declaresName(S, Outer.F.body(), Name, false))
    return Out;
  // Where the outermost function nested in Outer around E is defined.
  unsigned DefAt = ~0u;
  for (TSNode Up = parentOf(E); !ts_node_is_null(Up) && !ts_node_eq(Up, Outer.F.Node);
       Up = parentOf(Up))
    if (is(Up, "function_definition") || is(Up, "lambda"))
      DefAt = beginOf(Up);
  if (DefAt == ~0u || beginOf(Bound.front()) >= DefAt)
    return Out;
  const FunctionEvents &Events = eventsOf(Outer);
  if (auto It = Events.Uses.find(Name); It != Events.Uses.end())
    for (const Event &Ev : It->second)
      if (Ev.At >= DefAt)
        return Out;
  if (auto It = Events.Handed.find(Name); It != Events.Handed.end())
    for (const auto &H : It->second)
      if (H.first >= DefAt)
        return Out;
  Obj There = factsOf(Outer, E, DefAt, Depth + 1);
  auto literal = [](const std::optional<Source> &V) { return V && V->From < 0; };
  auto plain = [](const ClassSet &Cs) {
    return Cs && std::all_of(Cs->begin(), Cs->end(),
                             [](const MayBe &M) { return M.From < 0 && M.When.empty(); });
  };
  if (literal(There.Self))
    Out.Self = There.Self;
  for (const auto &[A, V] : There.Attrs)
    if (V.From < 0)
      Out.Attrs[A] = V;
  if (plain(There.Classes))
    Out.Classes = There.Classes;
  for (const auto &[A, Cs] : There.AttrClasses)
    if (plain(Cs))
      Out.AttrClasses[A] = Cs;
  return Out;
}

// The one value `@pytest.mark.parametrize("name", [value])` gives the
// parameter Name of T's test function, where it is a literal.
std::optional<ConstArg> parametrizedValue(const PyTypes &T, std::string_view Name) {
  TSNode Decorated = parentOf(T.F.Node);
  if (T.F.IsModuleBody || T.F.IsLambda || !is(Decorated, "decorated_definition"))
    return std::nullopt;
  const PySource &S = *T.M.Src;
  for (TSNode D : namedChildren(Decorated)) {
    TSNode Call = is(D, "decorator") ? unparen(ts_node_named_child(D, 0)) : TSNode{};
    if (!is(Call, "call"))
      continue;
    std::string_view Fn = S.text(field(Call, "function"));
    if (Fn != "parametrize" && !(Fn.size() > 12 && Fn.substr(Fn.size() - 12) == ".parametrize"))
      continue;
    CallArgs A = argsOf(S, Call);
    if (A.Positional.size() < 2 || !ts_node_is_null(A.keyword("indirect")))
      continue;
    auto Names = plainString(S, unparen(A.Positional[0]));
    if (!Names)
      continue;
    std::vector<std::string_view> Split = listed(*Names);
    auto Pos = std::find(Split.begin(), Split.end(), Name);
    if (Pos == Split.end())
      continue;
    TSNode Values = unparen(A.Positional[1]);
    if (!is(Values, "list") && !is(Values, "tuple"))
      return std::nullopt;
    std::vector<TSNode> Elements;
    for (TSNode C : namedChildren(Values))
      if (!is(C, "comment"))
        Elements.push_back(unparen(C));
    if (Elements.size() != 1)
      return std::nullopt;
    TSNode V = Elements.front();
    if (Split.size() > 1) {
      std::vector<TSNode> Items;
      for (TSNode C : namedChildren(V))
        if (!is(C, "comment"))
          Items.push_back(C);
      if ((!is(V, "tuple") && !is(V, "list")) || Items.size() != Split.size())
        return std::nullopt;
      V = Items[static_cast<size_t>(Pos - Split.begin())];
    }
    return literalArgument(S, V, 0);
  }
  return std::nullopt;
}

// The classes a local bound in branches may hold at Use: each binding's,
// under the tests it runs under, and a parameter's, whatever its caller
// passed (`if storage is None: storage = ListStorage()`). Nothing when a
// binding is of another form.
ClassSet bindingClasses(const PyTypes &T, std::string_view Name, const std::vector<Bind> &Binds,
                        unsigned Use, int Depth) {
  std::vector<MayBe> Out;
  if (int P = T.parameterAt(Name, beginOf(T.F.body())); P >= 0) {
    Out.push_back({{}, "", P});
  }
  for (const Bind &B : Binds) {
    if (B.At > Use)
      continue;
    if (ts_node_is_null(B.Expr) || B.Index >= 0)
      return std::nullopt;
    ClassSet Here = guarded(T, factsOf(T, B.Expr, beginOf(B.Stmt), Depth + 1).Classes, B.Stmt);
    if (!Here) {
      // Not known what it builds, but only where its branch runs.
      MayBe Some{{}, "", -1, true};
      Here = guarded(T, std::vector<MayBe>{Some}, B.Stmt);
      if (Here->front().When.empty())
        return std::nullopt;
    }
    Out.insert(Out.end(), Here->begin(), Here->end());
  }
  if (Out.empty())
    return std::nullopt;
  return Out;
}

// The values a name bound in branches may hold at Use: each binding's before
// it, and a parameter's value on entry (`if not ok: use_graphs = False`);
// nothing where one of them is not known.
std::vector<Source> bindingChoices(const PyTypes &T, std::string_view Name,
                                   const std::vector<Bind> &Binds, unsigned Use, int Depth) {
  std::vector<Source> Out;
  if (int P = T.parameterAt(Name, beginOf(T.F.body())); P >= 0)
    Out.push_back(fromParameter(P));
  for (const Bind &B : Binds) {
    if (B.At > Use)
      continue;
    std::optional<Source> V;
    if (!ts_node_is_null(B.Expr) && B.Index < 0 && Out.size() < MaxChoices)
      V = factsOf(T, B.Expr, beginOf(B.Stmt), Depth + 1).whole();
    if (!V)
      return {};
    Out.push_back(*V);
  }
  return Out;
}

Obj factsOf(const PyTypes &T, TSNode E, unsigned At, int Depth) {
  E = unparen(E);
  Obj Out;
  if (ts_node_is_null(E) || Depth > MaxDepth)
    return Out;
  if (State &St = stateOf(T.cache()); ++St.Steps > MaxSteps) {
    St.Cut = true;
    return Out;
  }
  const PySource &S = *T.M.Src;
  if (auto L = literalArgument(S, E, 0)) {
    Out.Self = *L;
    return Out;
  }
  if (is(E, "call"))
    return factsOfCall(T, E, Depth);
  // `ListStorage() if storage is None else storage`, `norm or LayerNorm()`:
  // an instance of either operand's classes, each where the test lets that
  // operand be the value.
  bool Or = is(E, "boolean_operator") && kind(ts_node_child(E, 1)) == "or";
  if (Or || is(E, "conditional_expression")) {
    auto Parts = namedChildren(E);
    std::vector<TSNode> Operands = {Or ? field(E, "left") : Parts[0],
                                    Or ? field(E, "right") : Parts.back()};
    Out.Classes = std::vector<MayBe>{};
    for (TSNode Op : Operands)
      Out.Classes = unite(Out.Classes, guarded(T, factsOf(T, Op, At, Depth + 1).Classes, Op));
    return Out;
  }
  if (is(E, "dictionary")) {
    std::vector<std::pair<std::string_view, TSNode>> Items;
    std::deque<std::string> Keys; // the texts Items views
    for (TSNode C : namedChildren(E)) {
      if (is(C, "comment"))
        continue;
      std::optional<std::string> Key;
      if (is(C, "pair"))
        Key = plainString(S, unparen(field(C, "key")));
      Keys.push_back(Key.value_or(""));
      Items.push_back({Keys.back(), Key ? field(C, "value") : TSNode{}});
    }
    return dictOf(T, Items, At, Depth);
  }
  if (is(E, "tuple") || is(E, "expression_list") || is(E, "list")) {
    std::vector<Obj> Items;
    for (TSNode C : namedChildren(E)) {
      if (is(C, "list_splat") || is(C, "dictionary_splat"))
        return Out;
      Items.push_back(factsOf(T, C, At, Depth + 1));
    }
    if (is(E, "list")) {
      Out.List = true;
      for (const Obj &I : Items)
        Out.Element = std::make_shared<const Obj>(Out.Element ? join(*Out.Element, I) : I);
    } else {
      Out.Items = std::make_shared<const std::vector<Obj>>(std::move(Items));
    }
    Out.Self = notNone();
    return Out;
  }
  if (is(E, "subscript")) {
    TSNode Index = unparen(field(E, "subscript"));
    // `args["model"]`: an item of a dict known here.
    if (auto Key = plainString(S, Index)) {
      Obj Of = factsOf(T, field(E, "value"), beginOf(E), Depth + 1);
      std::string A = "[" + *Key + "]";
      Out.Self = Of.attr(A);
      if (auto It = Of.AttrClasses.find(A); It != Of.AttrClasses.end())
        Out.Classes = It->second;
      return Out;
    }
    // `pair[0]`, `batches[1]`: an element of a tuple or list known here.
    bool Negative = is(Index, "unary_operator") && S.text(Index).substr(0, 1) == "-";
    TSNode Digits = Negative ? unparen(field(Index, "argument")) : Index;
    if (!is(Digits, "integer"))
      return Out;
    Obj Of = factsOf(T, field(E, "value"), beginOf(E), Depth + 1);
    long I = std::strtol(std::string(S.text(Digits)).c_str(), nullptr, 10) * (Negative ? -1 : 1);
    if (Of.Items) {
      long N = static_cast<long>(Of.Items->size());
      if (I < 0)
        I += N;
      if (I >= 0 && I < N)
        return (*Of.Items)[I];
    }
    if (Of.List && Of.Element)
      return *Of.Element;
    return Out;
  }
  if (is(E, "attribute")) {
    TSNode Of = unparen(field(E, "object"));
    if (!is(Of, "identifier"))
      return Out;
    Obj Base = factsOf(T, Of, beginOf(E), Depth + 1);
    std::string A(S.text(field(E, "attribute")));
    Out.Self = Base.attr(A);
    if (auto It = Base.AttrClasses.find(A); It != Base.AttrClasses.end())
      Out.Classes = It->second;
    else if (Base.Alias == static_cast<int>(ObjectParam) && Base.kept(A))
      Out.Classes = std::vector<MayBe>{{{}, "", Base.Alias, false, A}};
    return Out;
  }
  if (!is(E, "identifier"))
    return Out;
  if (const PyTypes *Outer = T.closureScope(S.text(E))) {
    if (auto L = closureLiteral(*Outer, S.text(E))) {
      Out.Self = *L;
      return Out;
    }
    Out = closureObject(*Outer, E, Depth);
    if (Out.known())
      applyEvents(T, S.text(E), beginOf(T.F.body()), std::min(At, beginOf(E)), T.F.body(), Depth,
                  Out, false);
    return Out;
  }
  std::string_view Name = S.text(E);
  unsigned Use = std::min(At, beginOf(E));
  // A name's value depends only on its binding and the uses of it between
  // that and here: remembered by both, so a chain of objects built from one
  // another is followed once, not once per path to it.
  State &St = stateOf(T.cache());
  auto remembered = [&](unsigned From) -> std::pair<State::NameKey, const Obj *> {
    const FunctionEvents &Events = eventsOf(T);
    size_t Count = 0;
    if (auto It = Events.Uses.find(Name); It != Events.Uses.end())
      for (const Event &E : It->second)
        Count += E.At >= From && E.At < Use;
    size_t Handed = 0;
    if (auto It = Events.Handed.find(Name); It != Events.Handed.end())
      for (const auto &H : It->second)
        Handed += H.first >= From && H.first < Use;
    State::NameKey Key{&T.F, std::string(Name), From, Count, Handed};
    auto It = St.Names.find(Key);
    return {Key, It == St.Names.end() ? nullptr : &It->second};
  };
  int P = T.parameterAt(Name, Use);
  // The method's receiver: its attributes are what the caller's object
  // held (ObjectParam), less what this method changed before Use.
  if (P < 0 && T.isSelf(E) && !eventsOf(T).Binds.count(Name))
    P = static_cast<int>(ObjectParam);
  if (P >= 0 && P != static_cast<int>(ObjectParam))
    if (auto L = parametrizedValue(T, Name)) {
      Out.Self = *L;
      return Out;
    }
  if (P >= 0) {
    auto [Key, Known] = remembered(beginOf(T.F.body()));
    if (Known) {
      Out = *Known;
    } else {
      Out.Alias = P;
      applyEvents(T, Name, beginOf(T.F.body()), Use, T.F.body(), Depth, Out, false);
      St.Names[Key] = Out;
    }
    // Not remembered with the rest: it depends on where in the block E is.
    Out.Dereferenced = P != static_cast<int>(ObjectParam) && dereferencedBefore(T, Name, E);
    if (P != static_cast<int>(ObjectParam))
      Out.Classes = std::vector<MayBe>{{{}, "", P}};
    return Out;
  }
  // A local: its last binding before the use, in a block around it.
  const auto &Binds = eventsOf(T).Binds;
  auto Found = Binds.find(Name);
  if (Found == Binds.end())
    return Out;
  const Bind *Last = nullptr;
  for (const Bind &B : Found->second)
    if (B.At <= Use && (!Last || B.At >= Last->At))
      Last = &B;
  if (!Last || ts_node_is_null(Last->Expr))
    return Out;
  TSNode Home = blockOf(Last->Stmt);
  if (ts_node_is_null(Home) || beginOf(Home) > Use || endOf(Home) < Use) {
    // Bound in branches: what it holds is one binding's value, not known
    // which; its class is one of theirs.
    Out.Classes = bindingClasses(T, Name, Found->second, Use, Depth);
    Out.Choices = bindingChoices(T, Name, Found->second, Use, Depth);
    return Out;
  }
  auto [Key, Known] = remembered(endOf(Last->Stmt));
  if (Known)
    return *Known;
  TSNode Bound = unparen(Last->Expr);
  if (Last->Index < 0) {
    Out = factsOf(T, Bound, beginOf(Last->Stmt), Depth + 1);
  } else if ((is(Bound, "expression_list") || is(Bound, "tuple")) &&
             static_cast<int>(ts_node_named_child_count(Bound)) > Last->Index) {
    // a, b = x, y
    Out = factsOf(T, ts_node_named_child(Bound, Last->Index), beginOf(Last->Stmt), Depth + 1);
  } else {
    Obj Whole = factsOf(T, Bound, beginOf(Last->Stmt), Depth + 1);
    size_t Count = namedChildren(unparen(field(Last->Stmt, "left"))).size();
    if (!Whole.Items || Whole.Items->size() != Count)
      return St.Names[Key] = Out;
    Out = (*Whole.Items)[Last->Index];
  }
  applyEvents(T, Name, endOf(Last->Stmt), Use, Home, Depth, Out, false);
  return St.Names[Key] = Out;
}

// Follows into the project function Fn to answer a question about it
// (Key): Compute reads Fn's code through T, a view of it. Nothing when Fn is
// not followed (recursion, too deep); an answer no bound cut short is
// remembered for every later question.
template <typename Compute>
std::optional<Obj> followInto(const PyTypes &Caller, const std::string &Fn, const std::string &Key,
                              Compute &&C) {
  State &St = stateOf(Caller.cache());
  if (auto It = St.Returns.find(Key); It != St.Returns.end())
    return It->second;
  const PyFunctionDef *F = Caller.P.function(Fn);
  const PyModuleInfo *M = Caller.P.moduleOfFunction(Fn);
  if (!F || !M || F->IsLambda || F->IsModuleBody)
    return St.Returns[Key] = std::nullopt;
  if (St.Active.count(Key) || St.Nesting >= MaxNesting || Caller.cache().Depth > 2) {
    St.Cut = true;
    return std::nullopt;
  }
  bool OuterCut = std::exchange(St.Cut, false);
  St.Active.insert(Key);
  ++St.Nesting;
  ++Caller.cache().Depth;
  PyTypes T(Caller.P, *M, *F, Caller.cache());
  --Caller.cache().Depth;
  std::optional<Obj> Out = C(T, *F, *M);
  --St.Nesting;
  St.Active.erase(Key);
  if (!St.Cut)
    St.Returns[Key] = Out;
  St.Cut |= OuterCut;
  return Out;
}

Obj none() {
  Obj O;
  O.Self = Source{};
  O.Self->IsNone = true;
  return O;
}

// What Fn returns, in the terms of its own parameters: what every `return`
// (and falling off the end) agrees on; nothing for a generator.
std::optional<Obj> returnsOf(const PyTypes &Caller, const std::string &Fn) {
  return followInto(
      Caller, Fn, Fn,
      [](const PyTypes &T, const PyFunctionDef &F, const PyModuleInfo &) -> std::optional<Obj> {
        std::optional<Obj> Out;
        bool Generator = false;
        auto add = [&](const Obj &O) { Out = Out ? join(*Out, O) : O; };
        walk(F.body(), [&](TSNode N) {
          if (isScope(N))
            return false;
          Generator |= is(N, "yield");
          if (!is(N, "return_statement"))
            return true;
          TSNode V = ts_node_named_child(N, 0);
          if (ts_node_is_null(V))
            return add(none()), false;
          // `if storage is None: return ListStorage()`: that class only
          // where the caller's argument lets the branch run.
          Obj Returned = factsOf(T, V, beginOf(N), 0);
          Returned.Classes = guarded(T, Returned.Classes, N);
          add(Returned);
          return false;
        });
        if (!leavesFunction(F.body()))
          add(none());
        if (Generator || !Out || !Out->known())
          return std::nullopt;
        return Out;
      });
}

// The arguments of a call to the project function Callee by parameter, with
// the literal defaults of those it leaves out (unless `*args` or `**kwargs`
// may fill them).
struct BoundCall {
  std::map<unsigned, TSNode> Args;
  std::map<unsigned, Source> Defaults;
};

// The literal defaults of F's parameters that B binds no argument to.
void addLiteralDefaults(const PyFunctionDef &F, const PyModuleInfo &M, BoundCall &B) {
  std::vector<TSNode> Params = callerParameters(F);
  for (unsigned I = 0; I < Params.size(); ++I) {
    bool HasDefault =
        is(Params[I], "default_parameter") || is(Params[I], "typed_default_parameter");
    if (!B.Args.count(I) && HasDefault)
      if (auto L = literalArgument(*M.Src, field(Params[I], "value"), I))
        B.Defaults[I] = *L;
  }
}

BoundCall bindCall(const PyTypes &T, const std::string &Callee, TSNode Call) {
  BoundCall B;
  for (const auto &[Index, Arg] : boundArguments(T, Callee, Call))
    B.Args[Index] = Arg;
  CallArgs A = argsOf(*T.M.Src, Call);
  for (TSNode N : A.Positional)
    if (is(N, "list_splat") || is(N, "dictionary_splat"))
      return B;
  const auto [F, M] = T.P.signature(Callee);
  if (F && M)
    addLiteralDefaults(*F, *M, B);
  return B;
}

// Source, in the callee's terms, restated in the caller's through the
// arguments of Call.
std::optional<Source> restate(const PyTypes &T, const Source &In, const BoundCall &B, TSNode Call,
                              int Depth) {
  if (In.From < 0)
    return In;
  auto It = B.Args.find(static_cast<unsigned>(In.From));
  if (It == B.Args.end()) {
    auto D = B.Defaults.find(static_cast<unsigned>(In.From));
    if (D == B.Defaults.end() || !In.FromAttr.empty())
      return std::nullopt;
    return D->second;
  }
  Obj Arg = factsOf(T, It->second, beginOf(Call), Depth + 1);
  return In.FromAttr.empty() ? Arg.whole() : Arg.attr(In.FromAttr);
}

// A class test (`callable(sampler)`) of the callee's parameter or of its
// receiver's attribute, against the classes what Call passes there may be:
// ruled out, restated as a test of the caller's own parameter the value is,
// or neither, where nothing is known of it (it may hold).
struct ClassTestAt {
  bool Ruled = false;
  std::optional<ParamTest> Up;
};
ClassTestAt classTestAt(const PyTypes &T, const ParamTest &PT, const BoundCall &B, TSNode Call,
                        int Depth, const Obj *Receiver) {
  ClassTestAt Out;
  ClassSet Cs;
  if (PT.Index == ObjectParam) {
    if (!Receiver || PT.Attr.empty())
      return Out;
    if (!Receiver->touched(PT.Attr)) {
      Out.Up = PT; // what the receiver's own receiver held
      return Out;
    }
    if (auto It = Receiver->AttrClasses.find(PT.Attr); It != Receiver->AttrClasses.end())
      Cs = It->second;
  } else if (auto It = B.Args.find(PT.Index); It != B.Args.end()) {
    Obj Arg = factsOf(T, It->second, beginOf(Call), Depth + 1);
    if (PT.Attr.empty())
      Cs = Arg.Classes;
    else if (auto A = Arg.AttrClasses.find(PT.Attr); A != Arg.AttrClasses.end())
      Cs = A->second;
  }
  if (!Cs || Cs->empty())
    return Out;
  const MayBe &First = Cs->front();
  if (Cs->size() == 1 && First.From >= 0 && First.When.empty() && !First.Unknown) {
    ParamTest Up = PT;
    Up.Index = static_cast<unsigned>(First.From);
    Up.Attr = First.FromAttr;
    Out.Up = std::move(Up);
    return Out;
  }
  std::vector<std::string> Classes;
  for (const MayBe &M : *Cs) {
    if (M.From >= 0 || M.Unknown || M.Class.empty())
      return Out;
    Classes.push_back(M.Class);
  }
  Out.Ruled = !classTestMayHold(T.P, PT, Classes);
  return Out;
}

// Tests of the callee's parameters restated in the caller's through the
// arguments of Call: a test the arguments decide goes (nothing when one
// fails), one of the caller's own parameter passed on is kept as a test of
// that, one nothing is known of may hold.
std::optional<std::vector<ParamTest>> restateTests(const PyTypes &T,
                                                   const std::vector<ParamTest> &When,
                                                   const BoundCall &B, TSNode Call, int Depth,
                                                   const Obj *Receiver = nullptr) {
  std::vector<ParamTest> Out;
  for (const ParamTest &PT : When) {
    if (!PT.Global.empty())
      continue;
    if (PT.ofClass()) {
      ClassTestAt At = classTestAt(T, PT, B, Call, Depth, Receiver);
      if (At.Ruled)
        return std::nullopt;
      if (At.Up)
        Out.push_back(std::move(*At.Up));
      continue;
    }
    std::optional<Source> V;
    if (PT.Index == ObjectParam) {
      if (Receiver && !PT.Attr.empty() && !Receiver->touched(PT.Attr)) {
        // What the receiver's own receiver held: a question for its caller.
        Out.push_back(PT);
        continue;
      }
      if (Receiver && !PT.Attr.empty())
        V = Receiver->attr(PT.Attr);
    } else if (auto It = B.Args.find(PT.Index); It != B.Args.end()) {
      Obj Arg = factsOf(T, It->second, beginOf(Call), Depth + 1);
      V = PT.Attr.empty() ? Arg.whole() : Arg.attr(PT.Attr);
    } else if (auto D = B.Defaults.find(PT.Index); D != B.Defaults.end() && PT.Attr.empty()) {
      V = D->second;
    }
    if (!V)
      continue;
    if (V->From >= 0) {
      ParamTest Up = PT;
      Up.Index = static_cast<unsigned>(V->From);
      Up.Attr = V->FromAttr;
      Out.push_back(std::move(Up));
    } else if (!PT.holdsFor(*V)) {
      return std::nullopt;
    }
  }
  return Out;
}

// Classes in the callee's terms restated in the caller's through the
// arguments of Call: those whose tests the arguments let hold, a
// parameter's taken from its argument, and with Receiver (the object a
// method runs on, as the caller holds it), the receiver's attribute's.
ClassSet restateClasses(const PyTypes &T, const ClassSet &In, const BoundCall &B, TSNode Call,
                        int Depth, const Obj *Receiver = nullptr) {
  if (!In)
    return std::nullopt;
  std::vector<MayBe> Out;
  for (const MayBe &M : *In) {
    auto When = restateTests(T, M.When, B, Call, Depth, Receiver);
    if (!When)
      continue;
    // Not known what it is, but only where tests still open hold: a caller
    // further up may rule them out (`callable(sampler)` for a Sampler()).
    if (M.Unknown && When->empty())
      return std::nullopt;
    if (M.Unknown) {
      Out.push_back({*When, "", -1, true});
      continue;
    }
    if (M.From < 0) {
      Out.push_back({*When, M.Class, -1});
      continue;
    }
    if (!M.FromAttr.empty()) {
      if (M.From != static_cast<int>(ObjectParam) || !Receiver)
        return std::nullopt;
      if (!Receiver->touched(M.FromAttr)) {
        Out.push_back({*When, "", M.From, false, M.FromAttr});
        continue;
      }
      auto Held = Receiver->AttrClasses.find(M.FromAttr);
      if (Held == Receiver->AttrClasses.end() || !Held->second)
        return std::nullopt;
      for (MayBe P : *Held->second) {
        P.When.insert(P.When.end(), When->begin(), When->end());
        Out.push_back(std::move(P));
      }
      continue;
    }
    auto It = B.Args.find(static_cast<unsigned>(M.From));
    if (It == B.Args.end()) {
      // A literal default (`storage=None`) is an instance of no project class.
      if (B.Defaults.count(static_cast<unsigned>(M.From)))
        continue;
      return std::nullopt;
    }
    ClassSet Passed = factsOf(T, It->second, beginOf(Call), Depth + 1).Classes;
    if (!Passed)
      return std::nullopt;
    for (MayBe P : *Passed) {
      P.When.insert(P.When.end(), When->begin(), When->end());
      Out.push_back(std::move(P));
    }
  }
  // Every class ruled out: the call raises, or what was read is wrong;
  // claim nothing.
  if (Out.empty())
    return std::nullopt;
  return Out;
}

// Whether Class's instances get Attr from Init alone: no other method of
// Class or of its project bases stores it, and none of them names it at
// class level (a default a branch in Init may leave). The methods __init__
// calls on self (`self._init()`, and what that calls on self) store as part
// of it; a method whose name no code spells cannot run (`set_storage` that
// nothing calls).
bool storedByInitAlone(const PyProgram &P, const std::string &Class, const std::string &Init,
                       const std::string &Attr, bool AnyInit = false) {
  std::vector<const PyClassDef *> Chain;
  std::vector<std::string> Todo = {Class};
  std::set<std::string> Seen;
  while (!Todo.empty()) {
    std::string C = std::move(Todo.back());
    Todo.pop_back();
    const PyClassDef *D = Seen.insert(C).second ? P.classNamed(C) : nullptr;
    if (!D)
      continue;
    if (D->ClassLevelNames.count(Attr))
      return false;
    Chain.push_back(D);
    Todo.insert(Todo.end(), D->Bases.begin(), D->Bases.end());
  }
  std::set<std::string> Runs;
  for (std::vector<std::string> Next = {"__init__"}; !Next.empty();) {
    std::string M = std::move(Next.back());
    Next.pop_back();
    if (Runs.insert(M).second)
      for (const PyClassDef *D : Chain)
        if (auto It = D->SelfCallsBy.find(M); It != D->SelfCallsBy.end())
          Next.insert(Next.end(), It->second.begin(), It->second.end());
  }
  for (const PyClassDef *D : Chain)
    for (const auto &[Method, Stores] : D->StoresBy) {
      if (!Stores.count(Attr) || D->QualName + "." + Method == Init || !P.mayRun(Method))
        continue;
      if (Method == "__init__" ? !AnyInit : !Runs.count(Method))
        return false;
    }
  return true;
}

void baseInitialised(const PyTypes &T, const PyFunctionDef &F, std::string_view SelfName, Obj &O);

// What __init__ leaves in self, in the terms of its own parameters: the
// attributes its own body sets, and those its base's __init__, called
// first, sets (methods it calls on self may set others).
std::optional<Obj> initialised(const PyTypes &Caller, const std::string &Init) {
  return followInto(
      Caller, Init, Init + "#self",
      [](const PyTypes &T, const PyFunctionDef &F, const PyModuleInfo &M) -> std::optional<Obj> {
        std::string_view SelfName = selfNameOf(*M.Src, F.Node);
        if (SelfName.empty())
          return std::nullopt;
        Obj O;
        O.Self = notNone();
        baseInitialised(T, F, SelfName, O);
        applyEvents(T, SelfName, beginOf(F.body()), endOf(F.body()), F.body(), 0, O, true);
        return O;
      });
}

// `super().__init__(model, None, use_graphs)` (or `Base.__init__(self, ...)`)
// as a statement of the __init__ F, before it stores anything on self: the
// attributes the base's __init__ leaves, in F's terms. F's own stores after
// it replace them.
void baseInitialised(const PyTypes &T, const PyFunctionDef &F, std::string_view SelfName, Obj &O) {
  const PySource &S = *T.M.Src;
  for (TSNode Stmt : namedChildren(F.body())) {
    TSNode Call = unparen(ts_node_named_child(Stmt, 0));
    TSNode Fn = is(Call, "call") ? unparen(field(Call, "function")) : TSNode{};
    if (!is(Stmt, "expression_statement") || !is(Fn, "attribute") ||
        S.text(field(Fn, "attribute")) != "__init__") {
      // A statement that may store on self before the base runs: the base's
      // values may not be the last.
      if (!is(Call, "string") && S.text(Stmt).find(SelfName) != std::string_view::npos)
        return;
      continue;
    }
    Callees C = calleesOf(T, Call);
    if (C.Keys.size() != 1 || C.Keys.front().rfind("py:", 0) != 0)
      return;
    std::string BaseInit = C.Keys.front().substr(3);
    std::optional<Obj> R = initialised(T, BaseInit);
    if (!R)
      return;
    BoundCall B = bindCall(T, BaseInit, Call);
    for (const auto &[A, V] : R->Attrs)
      if (auto Mine = restate(T, V, B, Call, 1))
        O.Attrs[A] = *Mine;
    for (const auto &[A, Vs] : R->AttrChoices) {
      std::vector<Source> Mine;
      for (const Source &V : Vs)
        if (auto Here = restate(T, V, B, Call, 1))
          Mine.push_back(*Here);
      O.AttrChoices[A] = Mine.size() == Vs.size() ? Mine : std::vector<Source>();
    }
    for (const auto &[A, Cs] : R->AttrClasses)
      O.AttrClasses[A] = restateClasses(T, Cs, B, Call, 1);
    return;
  }
}

// A @dataclass's fields in order, each with its literal default (or none).
std::vector<std::pair<std::string, std::optional<Source>>> dataclassFields(const PyProgram &P,
                                                                           const PyClassDef &C) {
  std::vector<std::pair<std::string, std::optional<Source>>> Out;
  const PyModuleInfo &M = P.classTree(C);
  auto It = M.Classes.find(C.QualName);
  if (It == M.Classes.end() || ts_node_is_null(It->second.Node))
    return Out;
  TSNode Node = It->second.Node;
  TSNode Decorated = parentOf(Node);
  bool Dataclass = false;
  if (is(Decorated, "decorated_definition"))
    for (TSNode D : namedChildren(Decorated))
      Dataclass |= is(D, "decorator") && M.Src->text(D).find("dataclass") != std::string_view::npos;
  if (!Dataclass)
    return Out;
  for (TSNode Stmt : namedChildren(field(Node, "body"))) {
    TSNode A = ts_node_named_child(Stmt, 0);
    if (!is(Stmt, "expression_statement") || !is(A, "assignment") ||
        ts_node_is_null(field(A, "type")) || !is(field(A, "left"), "identifier"))
      continue;
    std::string_view Type = M.Src->text(field(A, "type"));
    if (Type.find("ClassVar") != std::string_view::npos)
      continue;
    TSNode Default = field(A, "right");
    Out.push_back({std::string(M.Src->text(field(A, "left"))),
                   ts_node_is_null(Default) ? std::nullopt : literalArgument(*M.Src, Default, 0)});
  }
  return Out;
}

// A method called without arguments on self while __init__ builds the object
// (Call, in __init__ or in a method it calls so), where it is the one project
// method of that name whatever subclass self is: the parts it stores, for
// self as O holds it before the call. Without arguments, what it stores
// follows from self alone, so the same method run again later stores the
// same (storedByInitAlone counts it with __init__).
std::optional<CalledParts> selfCallParts(const PyTypes &T, const std::string &Method, TSNode Call,
                                         int Depth, const Obj &O) {
  if (T.F.ClassQName.empty() || Depth > MaxDepth || !is(Call, "call") ||
      ts_node_named_child_count(field(Call, "arguments")) > 0 || stateOf(T.cache()).Nesting > 2)
    return std::nullopt;
  std::vector<std::string> Targets = T.P.dispatch(T.F.ClassQName, Method, false);
  if (Targets.size() != 1)
    return std::nullopt;
  const PyFunctionDef *F = T.P.functionIndex(Targets.front());
  const PyClassDef *C = F ? T.P.classNamed(F->ClassQName) : nullptr;
  if (!C)
    return std::nullopt;
  // Only a method that stores on self, itself or through what it calls on
  // self, is worth following: most calls in constructors store nothing.
  auto Stores = C->StoresBy.find(Method);
  auto Calls = C->SelfCallsBy.find(Method);
  if ((Stores == C->StoresBy.end() || Stores->second.empty()) &&
      (Calls == C->SelfCallsBy.end() || Calls->second.empty()))
    return CalledParts{};
  std::optional<Obj> R = initialised(T, Targets.front());
  if (!R)
    return std::nullopt;
  BoundCall B = bindCall(T, Targets.front(), Call);
  CalledParts Out;
  for (const auto &[A, Cs] : R->AttrClasses)
    if (A.find('.') == std::string::npos)
      Out.Stored[A] = restateClasses(T, Cs, B, Call, Depth + 1, &O);
  Out.InBranch = R->StoredInBranch;
  return Out;
}

// `super().__init__(**kwargs)` in Init: the parts the base's __init__
// stores, from the keywords Call hands on through Init and the base's
// defaults for the rest, but for keywords Init's own code names (`kwargs[
// "writer"] = ...`, `kwargs.setdefault("writer", ...)`): not known.
void forwardedParts(const PyTypes &T, const std::string &Class, const std::string &Init,
                    TSNode Call, int Depth, Obj &Out) {
  std::vector<std::string> Bases = kwargsBaseInits(T, Init);
  if (Bases.empty())
    return;
  const PyFunctionDef *Def = T.P.function(Init);
  const PyModuleInfo *Mod = T.P.moduleOfFunction(Init);
  if (!Def || !Mod)
    return;
  std::string_view InitText = T.P.tree(*Mod).Src->text(Def->Node);
  auto namedByInit = [&](const std::string &Name) {
    for (char Quote : {'"', '\''})
      if (InitText.find(Quote + Name + Quote) != std::string_view::npos)
        return true;
    return false;
  };
  std::vector<ForwardedArgument> Handed = forwardedArguments(T, Init, Call);
  for (const std::string &BaseInit : Bases) {
    std::optional<Obj> R = initialised(T, BaseInit);
    const auto [BaseDef, BaseMod] = T.P.signature(BaseInit);
    if (!R || !BaseDef || !BaseMod)
      continue;
    BoundCall B;
    for (const ForwardedArgument &A : Handed)
      if (A.Callee == BaseInit)
        B.Args[A.Index] = A.Arg;
    addLiteralDefaults(*BaseDef, *BaseMod, B);
    std::vector<std::string> Names = parameterNames(*BaseMod->Src, *BaseDef);
    for (unsigned I = 0; I < Names.size(); ++I)
      if (namedByInit(Names[I])) {
        B.Args.erase(I);
        B.Defaults.erase(I);
      }
    for (const auto &[A, Cs] : R->AttrClasses)
      if (!Out.AttrClasses.count(A) &&
          storedByInitAlone(T.P, Class, Init, A.substr(0, A.find('.')), true))
        if (ClassSet Mine = restateClasses(T, Cs, B, Call, Depth))
          Out.AttrClasses[A] = std::move(Mine);
  }
}

// Whether every instance of Class is true: no class it derives from
// defines __bool__ or __len__ (`Compose()` with no transforms is false), and
// the library classes among them are ones known not to.
bool alwaysTrue(const PyProgram &P, const std::string &Class) {
  static const std::set<std::string, std::less<>> PlainLibrary = {
      "object", "abc.ABC", "torch.nn.Module", "torch.nn.modules.module.Module"};
  std::vector<std::string> Todo = {Class};
  std::set<std::string> Seen;
  while (!Todo.empty()) {
    std::string C = std::move(Todo.back());
    Todo.pop_back();
    if (!Seen.insert(C).second)
      continue;
    const PyClassDef *D = P.classNamed(C);
    if (!D) {
      if (!PlainLibrary.count(C))
        return false;
      continue;
    }
    if (D->Methods.count("__bool__") || D->Methods.count("__len__"))
      return false;
    Todo.insert(Todo.end(), D->Bases.begin(), D->Bases.end());
  }
  return true;
}

Obj constructed(const PyTypes &T, const std::string &Class, TSNode Call, int Depth) {
  Obj Out;
  Out.Self = notNone();
  if (alwaysTrue(T.P, Class)) {
    // `writer or RoundRobinWriter()` given a writer: not the default.
    Out.Self->TruthKnown = Out.Self->Truthy = true;
  }
  Out.Classes = std::vector<MayBe>{{{}, Class, -1}};
  if (std::string Init = T.P.methodOf(Class, "__init__"); !Init.empty()) {
    std::optional<Obj> R = initialised(T, Init);
    if (!R)
      return Out;
    BoundCall B = bindCall(T, Init, Call);
    for (const auto &[A, V] : R->Attrs)
      if (auto Mine = restate(T, V, B, Call, Depth))
        Out.Attrs[A] = *Mine;
    // Stored in branches: what the values this call lets them be agree on.
    for (const auto &[A, Vs] : R->AttrChoices) {
      if (Vs.empty() || R->Attrs.count(A) || !storedByInitAlone(T.P, Class, Init, A, true))
        continue;
      std::vector<Source> Mine;
      for (const Source &V : Vs)
        if (auto Here = restate(T, V, B, Call, Depth))
          Mine.push_back(*Here);
      if (Mine.size() == Vs.size())
        if (auto Agreed = agreed(Mine))
          Out.Attrs[A] = *Agreed;
    }
    for (const auto &[A, Cs] : R->AttrClasses) {
      if (!storedByInitAlone(T.P, Class, Init, A.substr(0, A.find('.')), true))
        continue;
      if (ClassSet Mine = restateClasses(T, Cs, B, Call, Depth))
        Out.AttrClasses[A] = std::move(Mine);
      // `self.model = model`: the parts of the very object handed in.
      if (Cs && Cs->size() == 1 && Cs->front().From >= 0 && Cs->front().When.empty())
        if (auto It = B.Args.find(static_cast<unsigned>(Cs->front().From)); It != B.Args.end())
          Out.keepParts(A, factsOf(T, It->second, beginOf(Call), Depth + 1).AttrClasses);
    }
    forwardedParts(T, Class, Init, Call, Depth, Out);
    return Out;
  }
  const PyClassDef *C = T.P.classNamed(Class);
  if (!C)
    return Out;
  auto Fields = dataclassFields(T.P, *C);
  CallArgs A = argsOf(*T.M.Src, Call);
  bool Splat = false;
  std::map<std::string, TSNode, std::less<>> Given;
  for (unsigned I = 0; I < A.Positional.size(); ++I) {
    Splat |= is(A.Positional[I], "list_splat") || is(A.Positional[I], "dictionary_splat");
    if (!Splat && I < Fields.size())
      Given[Fields[I].first] = A.Positional[I];
  }
  for (const auto &[Name, V] : A.Keywords)
    Given[std::string(Name)] = V;
  for (const auto &[Name, Default] : Fields) {
    if (auto It = Given.find(Name); It != Given.end()) {
      if (auto V = factsOf(T, It->second, beginOf(Call), Depth + 1).whole())
        Out.Attrs[Name] = *V;
    } else if (Default && !Splat) {
      Out.Attrs[Name] = *Default;
    }
  }
  return Out;
}

// R, in the callee's terms, restated in the caller's through the arguments
// of Call.
Obj restateObj(const PyTypes &T, const Obj &R, const BoundCall &B, TSNode Call, int Depth) {
  Obj Here;
  if (R.Alias >= 0) {
    if (auto It = B.Args.find(static_cast<unsigned>(R.Alias)); It != B.Args.end())
      Here = factsOf(T, It->second, beginOf(Call), Depth + 1);
    for (const auto &A : R.Changed) {
      Here.Attrs.erase(A);
      Here.AttrClasses.erase(A);
      Here.forgetParts(A);
      if (Here.Alias >= 0)
        Here.Changed.insert(A);
    }
    if (R.KeysChanged)
      Here.forgetKeys();
  }
  for (const auto &[A, V] : R.Attrs) {
    Here.Attrs.erase(A);
    if (auto Mine = restate(T, V, B, Call, Depth))
      Here.Attrs[A] = *Mine;
    else if (Here.Alias >= 0)
      Here.Changed.insert(A);
  }
  for (const auto &[A, Cs] : R.AttrClasses)
    Here.AttrClasses[A] = restateClasses(T, Cs, B, Call, Depth);
  if (R.Classes)
    Here.Classes = restateClasses(T, R.Classes, B, Call, Depth);
  if (R.Self)
    Here.Self = restate(T, *R.Self, B, Call, Depth);
  if (R.Items) {
    std::vector<Obj> Items;
    for (const Obj &I : *R.Items)
      Items.push_back(restateObj(T, I, B, Call, Depth));
    Here.Items = std::make_shared<const std::vector<Obj>>(std::move(Items));
  }
  if (R.List) {
    Here.List = true;
    if (R.Element)
      Here.Element = std::make_shared<const Obj>(restateObj(T, *R.Element, B, Call, Depth));
  }
  return Here;
}

std::optional<Obj> returnedBy(const PyTypes &T, const std::vector<std::string> &Callees,
                              TSNode Call, int Depth) {
  std::optional<Obj> Out;
  for (const auto &Fn : Callees) {
    std::optional<Obj> R = returnsOf(T, Fn);
    if (!R)
      return std::nullopt;
    Obj Here = restateObj(T, *R, bindCall(T, Fn, Call), Call, Depth);
    Out = Out ? join(*Out, Here) : Here;
  }
  return Out;
}

// The facts an argument passes for the callee's parameter Index.
void argumentFacts(const PyTypes &T, unsigned Index, TSNode Arg, TSNode Call,
                   std::vector<ConstArg> &Out) {
  // `fallback(x, context)` with `context = get_context()`: the mode
  // global's object, whose attributes the walk knows where a mode is set.
  if (std::string Key = globalTested(T, Arg); !Key.empty() && Key.find(':') == std::string::npos) {
    ConstArg G;
    G.Index = Index;
    G.Global = std::string(GlobalObjectFact) + Key;
    Out.push_back(std::move(G));
  }
  stateOf(T.cache()).Steps = 0;
  Obj O = factsOf(T, Arg, beginOf(Call), 0);
  auto add = [&](Source S, const std::string &Attr) {
    S.Index = Index;
    S.Attr = Attr;
    Out.push_back(std::move(S));
  };
  Source Unknown;
  Unknown.TruthKnown = Unknown.NoneKnown = false;
  if (O.Alias >= 0) {
    add(fromParameter(O.Alias), "");
    if (O.Dereferenced)
      add(notNone(), "");
    // What no longer holds of the parameter's attributes: nothing known.
    for (const auto &A : O.Changed)
      add(Unknown, A);
  } else if (O.Self) {
    add(*O.Self, "");
  }
  for (const auto &[A, V] : O.Attrs)
    add(V, A);
  // Which classes the object's attributes hold: tests of this function's
  // parameters left in them may hold.
  for (const auto &[A, Cs] : O.AttrClasses) {
    if (!Cs || Cs->empty() || std::any_of(Cs->begin(), Cs->end(), [](const MayBe &M) {
          return M.From >= 0 || M.Unknown || M.Class.empty();
        }))
      continue;
    std::set<std::string> Keys;
    for (const MayBe &M : *Cs)
      Keys.insert(classKey(M.Class));
    Source C;
    C.TruthKnown = false; // an object's truth is its __bool__'s
    C.TextKnown = true;
    for (const auto &K : Keys)
      C.Text += (C.Text.empty() ? "" : ",") + K;
    add(std::move(C), A + std::string(AttrClasses));
  }
}

// The object a call of the method Callee runs on: `obj` of `obj.m(...)`,
// `obj(...)` for forward and __call__, `self` of `self.m(...)`; null for a
// function, a static or class method, a constructor, or a method called on
// its class (`Base.m(obj)`, whose receiver is an argument).
TSNode receiverOf(const PyTypes &T, const std::string &Callee, TSNode Call) {
  // The index entry: reading the callee's tree would make this module
  // depend on its body.
  const PyFunctionDef *F = T.P.functionIndex(Callee);
  if (!F || !F->takesSelf() || F->IsLambda)
    return {};
  std::string_view Method = std::string_view(Callee).substr(Callee.rfind('.') + 1);
  if (Method == "__init__" || Method == "__new__")
    return {};
  TSNode Fn = unparen(field(Call, "function"));
  const bool Calls = Method == "forward" || Method == "__call__";
  TSNode Obj = is(Fn, "attribute") ? unparen(field(Fn, "object")) : Calls ? Fn : TSNode{};
  // `self.model(x)`: the object self holds there is the receiver, not self
  // (`self.fwd(x)` on a method of self's own class taken earlier is self's).
  if (Calls && is(Fn, "attribute") && T.isSelf(Obj) &&
      T.M.Src->text(field(Fn, "attribute")) != Method && Callee.rfind(T.F.ClassQName + ".", 0) != 0)
    Obj = Fn;
  // `self.model(x)`, `self.model.encode(x)`: facts of that attribute of self.
  bool SelfPart = is(Obj, "attribute") && T.isSelf(unparen(field(Obj, "object")));
  // `Capture(model, use_graphs=False)(step)`: the object just built.
  bool Built = is(Obj, "call") && T.P.classNamed(T.resolve(field(Obj, "function")));
  // `super().sample(n)`: self, as it is here.
  if ((!is(Obj, "identifier") && !SelfPart && !Built && !isSuperCall(T, Obj)) ||
      T.P.classNamed(T.resolve(Obj)))
    return {};
  return Obj;
}

} // namespace

std::vector<ConstArg> keywordArguments(const PyTypes &Caller, TSNode Call,
                                       std::vector<std::string> &Names) {
  std::vector<ConstArg> Out;
  const PySource &S = *Caller.M.Src;
  if (movesArguments(Caller, field(Call, "function")))
    return Out;
  for (const auto &[Name, Value] : argsOf(S, Call).Keywords) {
    unsigned Index = KeywordParam + static_cast<unsigned>(Names.size());
    if (Index >= KwargsParam)
      break;
    Names.emplace_back(Name);
    if (auto C = literalArgument(S, Value, Index))
      Out.push_back(*C);
    else
      argumentFacts(Caller, Index, Value, Call, Out);
  }
  return Out;
}

namespace {

// What the test Cond, where it went Holds, says of attributes of the name
// Self (`self.enabled`, `not self.enabled`, `self.graph is None`, their
// `and`s that held).
void selfAttributeTests(const PySource &S, TSNode Cond, bool Holds, std::string_view Self,
                        std::vector<ConstArg> &Out) {
  Cond = unparen(Cond);
  auto selfAttr = [&](TSNode E) -> std::string {
    E = unparen(E);
    if (!is(E, "attribute") || !is(unparen(field(E, "object")), "identifier") ||
        S.text(unparen(field(E, "object"))) != Self)
      return "";
    return std::string(S.text(field(E, "attribute")));
  };
  if (is(Cond, "not_operator")) {
    selfAttributeTests(S, field(Cond, "argument"), !Holds, Self, Out);
  } else if (is(Cond, "boolean_operator")) {
    if (Holds == (kind(ts_node_child(Cond, 1)) == "and")) {
      selfAttributeTests(S, field(Cond, "left"), Holds, Self, Out);
      selfAttributeTests(S, field(Cond, "right"), Holds, Self, Out);
    }
  } else if (std::string A = selfAttr(Cond); !A.empty()) {
    ConstArg C{ObjectParam};
    C.Attr = std::move(A);
    C.Truthy = Holds;
    C.NoneKnown = Holds; // a true value is no None
    Out.push_back(std::move(C));
  } else if (is(Cond, "comparison_operator") && ts_node_named_child_count(Cond) == 2 &&
             is(unparen(ts_node_named_child(Cond, 1)), "none")) {
    std::string Op = comparisonOperator(S, Cond);
    std::string A = selfAttr(ts_node_named_child(Cond, 0));
    if (A.empty() || (Op != "is" && Op != "is not"))
      return;
    ConstArg C{ObjectParam};
    C.Attr = std::move(A);
    C.IsNone = (Op == "is") == Holds;
    C.TruthKnown = C.IsNone;
    C.Truthy = false;
    Out.push_back(std::move(C));
  }
}

// A closure calling a method on the self of the method that defines it
// (`def decorated(*args): if self.graphs_enabled: self._capture(*args)`):
// what its tests of self's attributes found holds for the callee's self.
void closureReceiverTests(const PyTypes &Caller, TSNode Of, TSNode Call,
                          std::vector<ConstArg> &Out) {
  if (!is(Of, "identifier") || Caller.F.IsLambda || Caller.isSelf(Of))
    return;
  const PyTypes *Outer = Caller.closureScope(Caller.M.Src->text(Of));
  if (!Outer || !Outer->isSelf(Of))
    return;
  enclosingTests(Call, Caller.F.body(), [&](TSNode Cond, bool Holds) {
    selfAttributeTests(*Caller.M.Src, Cond, Holds, Caller.M.Src->text(Of), Out);
    return false;
  });
}

// A literal fact of one plain attribute of the receiver.
bool literalAttributeFact(const ConstArg &C) {
  return C.Index == ObjectParam && C.From < 0 && C.Global.empty() && !C.Attr.empty() &&
         C.Attr.find_first_of("&[.") == std::string::npos && (C.TruthKnown || C.NoneKnown);
}

} // namespace

std::vector<ConstArg> knownAttributes(const PyTypes &T, TSNode E) {
  std::vector<ConstArg> All, Out;
  argumentFacts(T, ObjectParam, E, E, All);
  for (ConstArg &C : All)
    if (literalAttributeFact(C))
      Out.push_back(std::move(C));
  return Out;
}

std::vector<ConstArg> receiverAttributes(const PyTypes &Caller, const std::string &Callee,
                                         TSNode Call) {
  TSNode Receiver = receiverOf(Caller, Callee, Call);
  if (ts_node_is_null(Receiver))
    return {};
  std::vector<ConstArg> Out = knownAttributes(Caller, Receiver), Tested;
  closureReceiverTests(Caller, Receiver, Call, Tested);
  for (ConstArg &C : Tested)
    if (literalAttributeFact(C))
      Out.push_back(std::move(C));
  return Out;
}

std::vector<ConstArg> iteratedObjectFacts(const PyTypes &T, TSNode E) {
  std::vector<ConstArg> Out;
  argumentFacts(T, ObjectParam, E, E, Out);
  return Out;
}

std::vector<ConstArg> receiverArguments(const PyTypes &Caller, TSNode Call) {
  std::vector<ConstArg> Out;
  TSNode Fn = unparen(field(Call, "function"));
  TSNode Of = is(Fn, "attribute") ? unparen(field(Fn, "object")) : TSNode{};
  if (Caller.isSelf(Of))
    argumentFacts(Caller, ObjectParam, Of, Call, Out);
  else
    closureReceiverTests(Caller, Of, Call, Out);
  return Out;
}

std::optional<std::pair<unsigned, std::string>> parameterAttribute(const PyTypes &T, TSNode E) {
  E = unparen(E);
  TSNode Of{};
  std::string Attr;
  if (is(E, "identifier") && T.parameterAt(T.M.Src->text(E), beginOf(E)) < 0) {
    // `n = self._init_n` then `if n is None: return`: a local that still
    // holds what the parameter's attribute held.
    stateOf(T.cache()).Steps = 0;
    std::optional<Source> V = factsOf(T, E, beginOf(E), 0).Self;
    if (!V || V->From < 0 || V->FromAttr.empty())
      return std::nullopt;
    return std::make_pair(static_cast<unsigned>(V->From), V->FromAttr);
  }
  if (is(E, "attribute")) {
    Of = unparen(field(E, "object"));
    Attr = T.M.Src->text(field(E, "attribute"));
  } else if (auto Key = is(E, "subscript") ? plainString(*T.M.Src, unparen(field(E, "subscript")))
                                           : std::nullopt) {
    Of = unparen(field(E, "value")); // `args["model"]`
    Attr = "[" + *Key + "]";
  }
  if (!is(Of, "identifier"))
    return std::nullopt;
  stateOf(T.cache()).Steps = 0;
  Obj O = factsOf(T, Of, beginOf(E), 0);
  std::optional<Source> V = O.attr(Attr);
  if (!V || V->From < 0 || V->FromAttr != Attr || O.Alias != V->From)
    return std::nullopt;
  return std::make_pair(static_cast<unsigned>(V->From), Attr);
}

std::string selfAttributeCalled(const PyTypes &T, TSNode Call, std::string &Method) {
  TSNode Fn = unparen(field(Call, "function"));
  if (!is(Fn, "attribute") || T.F.ClassQName.empty() || T.staticMethod())
    return "";
  const PySource &S = *T.M.Src;
  TSNode Of = unparen(field(Fn, "object"));
  if (T.isSelf(Of)) {
    Method.clear();
    return std::string(S.text(field(Fn, "attribute")));
  }
  if (is(Of, "attribute") && T.isSelf(unparen(field(Of, "object")))) {
    Method = S.text(field(Fn, "attribute"));
    return std::string(S.text(field(Of, "attribute")));
  }
  return "";
}

std::map<std::string, ConstArg> builtAttributes(const PyTypes &T, TSNode E) {
  stateOf(T.cache()).Steps = 0;
  return factsOf(T, E, beginOf(E), 0).Attrs;
}

std::vector<ConstArg> objectArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call) {
  std::vector<ConstArg> Out;
  const PySource &S = *Caller.M.Src;
  if (Callee.empty()) {
    if (movesArguments(Caller, field(Call, "function")))
      return Out;
    CallArgs A = argsOf(S, Call);
    for (unsigned I = 0; I < A.Positional.size(); ++I) {
      if (is(A.Positional[I], "list_splat") || is(A.Positional[I], "dictionary_splat"))
        break;
      argumentFacts(Caller, I, A.Positional[I], Call, Out);
    }
    // `layer(x)` on an object (`self.layer(x)` on one self holds): its facts
    // go to forward's (or __call__'s) self; a plain function reached this way
    // has no receiver to read.
    if (TSNode Fn = unparen(field(Call, "function"));
        is(Fn, "identifier") ||
        (is(Fn, "attribute") && Caller.isSelf(unparen(field(Fn, "object")))))
      argumentFacts(Caller, ObjectParam, Fn, Call, Out);
    return Out;
  }
  if (TSNode Receiver = receiverOf(Caller, Callee, Call); !ts_node_is_null(Receiver)) {
    argumentFacts(Caller, ObjectParam, Receiver, Call, Out);
    closureReceiverTests(Caller, Receiver, Call, Out);
  }
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call)) {
    // literalArguments has these.
    TSNode E = unparen(Arg);
    if (literalArgument(S, E, Index) ||
        (is(E, "identifier") && Caller.parameterAt(S.text(E), beginOf(E)) >= 0 &&
         !eventsOf(Caller).Uses.count(S.text(E))))
      continue;
    argumentFacts(Caller, Index, Arg, Call, Out);
  }
  return Out;
}

bool movesArguments(const PyTypes &T, TSNode E) {
  for (int Depth = 0; Depth < MaxDepth; ++Depth) {
    E = unparen(E);
    if (is(E, "identifier")) {
      E = T.boundExpr(T.M.Src->text(E), beginOf(E));
      continue;
    }
    if (is(E, "attribute")) {
      std::string Of = T.resolve(field(E, "object"));
      return !Of.empty() && T.P.classNamed(Of);
    }
    if (!is(E, "call"))
      return false;
    std::string Q = T.resolve(field(E, "function"));
    if (Q != "functools.partial" && Q != "partial")
      return false;
    // Keywords it binds move nothing along, but leave fewer to pass.
    CallArgs A = argsOf(*T.M.Src, E);
    return A.Positional.size() > 1 || !A.Keywords.empty();
  }
  return false;
}

std::pair<int, int> positionalArity(const PyFunctionDef &F) {
  if (F.IsModuleBody)
    return {0, -1};
  TSNode Params = field(F.Node, "parameters");
  if (ts_node_is_null(Params))
    return {0, 0};
  constexpr int Unreachable = 1 << 20;
  int Min = 0, Max = 0;
  bool KeywordOnly = false, First = true;
  for (TSNode Param : namedChildren(Params)) {
    bool Self = First && F.takesSelf();
    First = false;
    if (Self || is(Param, "positional_separator") || is(Param, "dictionary_splat_pattern"))
      continue;
    if (is(Param, "list_splat_pattern") || is(Param, "keyword_separator")) {
      if (is(Param, "list_splat_pattern"))
        Max = -1;
      KeywordOnly = true;
      continue;
    }
    bool HasDefault = is(Param, "default_parameter") || is(Param, "typed_default_parameter");
    if (KeywordOnly) {
      if (!HasDefault)
        Min = Unreachable;
      continue;
    }
    if (!HasDefault)
      ++Min;
    if (Max >= 0)
      ++Max;
  }
  return {Min, Max};
}

int positionalCount(const PyTypes &T, TSNode Call) {
  CallArgs A = argsOf(*T.M.Src, Call);
  if (!A.Keywords.empty() || movesArguments(T, field(Call, "function")))
    return -1;
  for (TSNode N : A.Positional)
    if (is(N, "list_splat") || is(N, "dictionary_splat"))
      return -1;
  return static_cast<int>(A.Positional.size());
}

void describeSplats(const PyTypes &T, TSNode Call, CallEdge &E) {
  if (movesArguments(T, field(Call, "function")))
    return;
  int Leading = 0;
  for (TSNode N : argsOf(*T.M.Src, Call).Positional) {
    if (is(N, "list_splat"))
      return;
    if (!is(N, "dictionary_splat")) {
      ++Leading;
      continue;
    }
    bool Own = E.KeywordSplat == CallEdge::Splat::NoSplat && passesOwnKwargs(T, N);
    E.KeywordSplat = Own ? CallEdge::Splat::OwnKwargs : CallEdge::Splat::Other;
  }
  E.LeadingArgs = Leading;
}

} // namespace graphsafe::lint::py
