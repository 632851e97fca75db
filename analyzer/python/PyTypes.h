// Which Python values are tensors, streams, events, generators, graphs,
// optimizers or plain host values, well enough not to flag `.item()` on a
// number. Flow: each name's last binding before the use, in source order.
#pragma once

#include "PyModule.h"
#include "Summary.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace graphsafe::lint::py {

enum class VK {
  Unknown,
  Host, // a Python number, string, bool or None
  Tensor,
  BoolTensor, // a tensor of truth values (a comparison, a mask)
  Stream,
  Event,
  Generator,
  CudaGenerator,
  Graph,
  Optimizer,
  UncapturableOptimizer, // keeps its step count on the host (no capturable=True)
  Logger,
  Instance, // of a class; Name is the class's qualified name
  // A module held in a variable (`self.device_module =
  // torch.get_device_module(device)`); Name is the module's qualified name.
  Module,
};

struct Value {
  VK K = VK::Unknown;
  std::string Name;
  bool Many = false;  // a list of such values (nn.ModuleList of one class)
  // An Instance made by a constructor here: its class (each of its classes,
  // with Also), not a subclass.
  bool Exact = false;
  // An Instance of a class chosen at run time (a class handed in by each
  // caller, a class attribute each subclass sets): the other classes it may
  // be, besides Name. At most MaxAlternatives; more make the value unknown.
  std::vector<std::string> Also;
  static constexpr size_t MaxAlternatives = 64;
  // Name and Also.
  std::vector<std::string> classes() const {
    std::vector<std::string> Out = {Name};
    Out.insert(Out.end(), Also.begin(), Also.end());
    return Out;
  }
  static Value instanceOfAny(const std::vector<std::string> &Classes) {
    if (Classes.empty() || Classes.size() > MaxAlternatives + 1)
      return {};
    Value V{VK::Instance, Classes.front()};
    V.Also.assign(Classes.begin() + 1, Classes.end());
    return V;
  }
  // Either of two instances (or lists of them): each's classes, exact
  // where both are; unknown where they differ in kind or list-ness.
  static Value either(const Value &A, const Value &B) {
    if (A.K != VK::Instance || B.K != VK::Instance || A.Many != B.Many)
      return {};
    std::vector<std::string> Classes = A.classes();
    for (const auto &C : B.classes())
      if (std::find(Classes.begin(), Classes.end(), C) == Classes.end())
        Classes.push_back(C);
    Value V = instanceOfAny(Classes);
    V.Many = A.Many;
    V.Exact = V.K == VK::Instance && A.Exact && B.Exact;
    return V;
  }
  bool tensor() const { return K == VK::Tensor || K == VK::BoolTensor; }
};

class PyTypes;

// Per-thread memo of class attribute kinds and module-level bindings.
struct PyTypeCache {
  // What a class's own methods store in `self.x`, by the class (and the
  // subclass it is read for) and x; nothing where they store no x.
  std::map<std::string, std::map<std::string, std::optional<Value>>> ClassAttrs;
  // A method read for its `self.x = ...` stores, by the method and the
  // subclass it is read for.
  std::map<std::pair<const PyFunctionDef *, std::string>, std::unique_ptr<PyTypes>> Methods;
  std::map<const PyModuleInfo *, std::unique_ptr<PyTypes>> ModuleScopes;
  // The functions closures are defined in, by the closure's definition.
  std::map<const PyFunctionDef *, std::unique_ptr<PyTypes>> Enclosing;
  // What entering a @contextmanager with given literals holds module
  // globals to (PyModeFlags.cpp), by the function and the literals.
  std::map<std::string, std::vector<ConstArg>> ModeFacts;
  // The global each test node reads ("" for none), and the names each
  // function declares global.
  std::unordered_map<const void *, std::string> GlobalTests;
  std::map<const PyFunctionDef *, std::set<std::string, std::less<>>> DeclaredGlobals;
  // The mode flags every path to a statement leaves known, by the statement;
  // nothing where the paths could not be followed.
  std::unordered_map<const void *, std::optional<std::vector<ConstArg>>> PathFacts;
  // The functions PyModeFlags.cpp has run, with what they did (its own type).
  std::shared_ptr<void> FlagRuns;
  // Whether each project function opens a capture for its caller
  // (PyRegions.cpp).
  std::map<std::string, bool> OpensCapture;
  // Whether each project function raises whenever a capture is open
  // (PyRegions.cpp).
  std::map<std::string, bool> RefusesCapture;
  // What each project function's result says of capture state (PyRegions.cpp).
  std::map<std::string, int> HelperStatus;
  // What each project function's result is in a process that captures, on
  // a CUDA build and on a ROCm build of torch, and the branches of each
  // function that cannot run there, per build (PyPlatform.cpp).
  std::map<std::string, std::array<int, 2>> PlatformHelpers;
  std::unordered_map<const void *, std::array<std::vector<std::pair<unsigned, unsigned>>, 2>>
      OffPlatform;
  // The functions of each module that define functions or lambdas
  // (PyConstantBranches.cpp).
  std::map<const void *, std::set<std::string, std::less<>>> DefinesClosures;
  // Per function: whether a function nested in it declares `nonlocal`
  // (PyConstantBranches.cpp, closureFrameFacts).
  std::unordered_map<const void *, bool> NonlocalClosures;
  // What calling each project function does to capture state
  // (PyCaptureEffects.cpp, its own type).
  std::shared_ptr<void> CaptureEffects;
  // The classes each ImportedClasses spelling may give
  // (resolve/ImportedByName.cpp).
  std::map<std::string, std::vector<std::string>> ImportedClassObjects;
  // The instances each unannotated project function returns, and whether
  // its returns are all tensors (PyTypes.cpp).
  std::map<std::string, Value> ReturnedInstances;
  std::map<std::string, Value> ReturnedTensors;
  // Whether every return of each project function gives a tensor its own
  // code made on the host (PyHostTensors.cpp).
  std::map<std::string, bool> ReturnsHostTensors;
  // What PyObjectFacts.cpp found of functions' returns and attribute stores.
  std::shared_ptr<void> ObjectFacts;
  // The calls each function hands its `*args` and `**kwargs` on to
  // (resolve/ArgumentForwarding.cpp, its own type).
  std::shared_ptr<void> Forwarding;
  // Whether each module's text names a graphed-callables helper
  // (checks/PyLifetimeCheck.cpp): asked for every function, true of few.
  std::map<const PyModuleInfo *, bool> NamesGraphedCallables;
  // Per function: its `a.wait_stream(b)` calls as (begin, end, a, b)
  // (PyCallGraph.cpp, streamArguments): asked for every argument of every
  // call, found in few functions.
  std::unordered_map<const void *,
                     std::vector<std::tuple<unsigned, unsigned, std::string, std::string>>>
      StreamWaits;
  int Depth = 0;
};

class PyTypes {
public:
  // View: when F is a base class's method read for what it leaves in a
  // subclass's instance, that subclass; its super() calls say what F's
  // parameters hold (PyProgram::superParamClasses).
  PyTypes(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F, PyTypeCache &Cache,
          std::string View = "");

  // The qualified name a name or attribute chain spells (`T.cuda.graph` ->
  // torch.cuda.graph); empty for values that are not static names.
  std::string resolve(TSNode Expr) const;
  // The module Expr evaluates to, where it is a torch device module
  // (`torch.cuda`, `torch.get_device_module(dev)`, `getattr(torch, dev)`).
  std::optional<std::string> moduleValue(TSNode Expr) const;
  Value valueOf(TSNode Expr) const;
  Value nameAt(std::string_view Name, unsigned Offset) const;
  // The expression a local name was last bound to before Offset (`f = g`,
  // `fn = self.step`); null for a parameter or a binding of another form.
  TSNode boundExpr(std::string_view Name, unsigned Offset) const;
  // For a name bound by a starred target (`a, *b = x, y, z`): the elements
  // [first, second) of boundExpr's sequence it holds; else (0, -1), all.
  std::pair<int, int> boundSlice(std::string_view Name, unsigned Offset) const;
  // For a name bound by unpacking a call's result (`model, opt = prepare()`):
  // the call and the element the name holds; else a null node and -1.
  std::pair<TSNode, int> boundElement(std::string_view Name, unsigned Offset) const;
  // The other bindings of Name that may reach Offset besides the last one:
  // when that one sits in a branch of an if ending before Offset, the other
  // branches' and, for an if with no else, the one that reached the if. As
  // offsets to ask the other questions at, latest first.
  std::vector<unsigned> alsoReaching(std::string_view Name, unsigned Offset, int Depth = 0) const;
  // The project classes E may hold as class objects (calling E builds them):
  // a class named, a `functools.partial` of one, a project factory's result,
  // a pick from a dict or tuple of classes, what callers pass a parameter.
  std::vector<std::string> classObjects(TSNode E, int Depth = 0) const;
  // The qualified name of the class of another library (not torch) that E
  // names through an import, in CapWords; empty otherwise.
  std::string libraryClass(TSNode E) const;
  // The project classes a container E holds as class objects: a literal's
  // elements (a dict's values), what the code stores into it by item, and
  // the same through `.values()`, `iter()`, `list()`.
  std::vector<std::string> elementClassObjects(TSNode E, int Depth = 0) const;
  // boundExpr when that binding is the only one that may reach Offset
  // (alsoReaching has none); else null.
  TSNode onlyBoundExpr(std::string_view Name, unsigned Offset) const;
  // Every expression Name is bound to anywhere in the function, in order; a
  // null node for a binding of another form (a parameter, a loop target).
  std::vector<TSNode> everyBoundExpr(std::string_view Name) const;
  // The analysis of the top-level code of module Of (this function's own
  // by default), where its globals are bound; null when too deep to look now.
  const PyTypes *moduleScope(const PyModuleInfo *Of = nullptr) const;
  // A name imported from another project module that binds it at its top
  // level (`from cfg import table`): that module's analysis and the name.
  std::optional<std::pair<const PyTypes *, std::string>>
  importedGlobal(std::string_view Name) const;
  // `for name in expr`: the expression name takes elements of, if that is
  // its binding before Offset; else null.
  TSNode iteratedExpr(std::string_view Name, unsigned Offset) const;
  // The caller-side index of Name if the binding before Offset is this
  // function's parameter, else -1.
  int parameterAt(std::string_view Name, unsigned Offset) const;
  // The caller-side index of the parameter whose None-ness Name has before
  // Offset: that parameter, or a value made from it by method calls or
  // indexing only where it was not None (`if mask is not None: mask =
  // mask.to(dtype)`); else -1.
  int noneOfParameterAt(std::string_view Name, unsigned Offset, int Depth = 0) const;
  // `with cm(...) as name`: the context expression name was bound by
  // entering, if that is its binding before Offset; else null.
  TSNode enteredExpr(std::string_view Name, unsigned Offset) const;
  // For a name this function uses but does not bind (a closure's free
  // variable), the nearest enclosing function that binds it, or defines a
  // function of that name; null for a global or a builtin.
  const PyTypes *closureScope(std::string_view Name) const;
  // The enclosing function scope a `nonlocal Name` of this function refers
  // to (this function binds the name too), or null.
  const PyTypes *nonlocalScope(std::string_view Name) const;
  // Whether this function binds Name itself (a local, a parameter, a def).
  bool bindsHere(std::string_view Name) const;
  // What self.Attr holds in an instance of Class; View as for the constructor.
  Value selfAttr(const std::string &Class, const std::string &Attr,
                 const std::string &View = "") const;
  std::optional<Value> storedAttr(const PyClassDef &C, const std::string &Attr,
                                  const std::string &View) const;
  // The class of `self` in a method, else empty.
  const std::string &selfClass() const { return F.ClassQName; }
  bool isSelf(TSNode N) const;
  // Whether the function is a @staticmethod (an autograd Function's forward
  // and backward are).
  bool staticMethod() const {
    return std::find(F.Decorators.begin(), F.Decorators.end(), "staticmethod") !=
           F.Decorators.end();
  }
  PyTypeCache &cache() const { return Cache; }
  // Bindings collected: answers about this function may be remembered.
  bool complete() const { return Complete; }
  // calleesOf's answers for this function's calls (PyCallGraph.cpp, its own
  // type): the summary, the stores and the checks each ask of every call.
  mutable std::shared_ptr<void> CalleeMemo;
  // valueTargets' answers for this function's expressions (PyCallGraph.cpp).
  mutable std::shared_ptr<void> TargetMemo;

  const PyProgram &P;
  const PyModuleInfo &M;
  const PyFunctionDef &F;

private:
  std::string View;
  struct Binding {
    unsigned At = 0;
    // For `name = expr`, valueOf(Expr), worked out when first asked: most
    // locals of a function read for one attribute or one call are never asked.
    mutable Value V;
    TSNode Expr{};         // the bound expression, for `name = expr`
    int Parameter = -1;    // caller-side index, for a parameter
    TSNode Entered{};      // the context expression, for `with expr as name`
    int From = 0, To = -1; // a starred target's elements of Expr
    TSNode Iterated{};     // the iterated expression, for `for name in expr`
    int Element = -1;      // `a, b = f()`: the element of Expr's result it holds
    // The if branches (IfBranches indices) that hold it, once asked.
    mutable std::optional<std::vector<unsigned>> Holding;
    enum class Eval : unsigned char { Ready, Deferred, Busy };
    mutable Eval State = Eval::Ready;
  };
  void bindTarget(TSNode Target, const Value &V, unsigned Offset, TSNode Expr = {});
  // Target = Expr, its value left until asked.
  void bindDeferred(TSNode Target, TSNode Expr, unsigned Offset);
  const Value &valueOf(const Binding &B) const;
  void bindIterated(TSNode Left, TSNode Right, unsigned At);
  // Each branch of each if in the body, by byte offsets: which bindings
  // another branch makes that never reach a use.
  struct IfBranch {
    unsigned IfBegin, IfEnd, BranchBegin, BranchEnd;
    unsigned FirstSibling, Siblings; // the if's branches, IfBranches[First, First + Siblings)
    bool Exhaustive;                 // it has an else: some branch always runs
    // The if's own condition, and whether it holds in this branch (the
    // first) or not (an elif or the else); InLoop: a loop around the if
    // may bind in one pass what a later test of another pass reads.
    TSNode Condition{};
    bool Holds = false, InLoop = false;
  };
  std::vector<IfBranch> IfBranches;
  unsigned branchesApart(const Binding &A, unsigned B) const;
  // Whether Use sits in a branch of a later if testing Bound's condition
  // again, unchanged, with the other outcome: `if graphs: m = A() else: m =
  // B()`, then `if graphs: capture(m)` never sees B's m.
  bool sameTestApart(const IfBranch &Bound, unsigned Use, bool Outcome) const;
  bool stableTest(const IfBranch &Earlier, const IfBranch &Later) const;
  bool objectUsedBetween(std::string_view Root, unsigned Begin, unsigned End) const;
  void noteAppend(TSNode Call);
  // Target = Expr, element by element where both are sequences.
  void bindPattern(TSNode Target, TSNode Expr, unsigned Offset);
  void collect();
  void narrowIsinstance(TSNode If);
  void narrowIsinstanceExpr(TSNode E);
  std::string tensorInstanceTest(TSNode Cond, unsigned At, bool &Negated) const;
  void narrowAway(const std::string &Name, unsigned At, unsigned Begin, unsigned End);
  Value callValue(TSNode Call) const;
  // What a project function's return annotation says it returns (a tensor,
  // a host value); otherwise, annotated with a class or not, the instances
  // its returns build (returnedInstances).
  Value returnValue(const std::string &Function) const;
  // The same for Call's own arguments: only the returns they let run
  // (resolve/ReturnsByCall.h).
  Value returnValueAt(const std::string &Function, TSNode Call) const;
  Value returnedInstances(const std::string &Function) const;
  Value returnedTensors(const std::string &Function, int Depth = 0) const;
  Value returnedElement(TSNode Call, size_t I) const;
  std::vector<std::string> callerClasses(unsigned Index) const;
  // The class objects Function's returns hold (PyTypes.cpp).
  std::vector<std::string> returnedClassObjects(const std::string &Function, int Element,
                                                int Depth) const;
  Value parameterValue(TSNode Param, TSNode Type, TSNode Default, unsigned Index) const;
  // A list or tuple of the instances callers pass at Index (a parameter, or
  // PyLearned::VarargsParam for `*args`).
  Value passedElements(unsigned Index) const;
  const Binding *bindingAt(std::string_view Name, unsigned Offset) const;
  const PyTypes *enclosing() const;
  mutable const PyTypes *EnclosingScope = nullptr;
  mutable bool EnclosingKnown = false;
  std::map<std::string, std::vector<Binding>, std::less<>> Bindings;
  Value computeValue(TSNode E) const;
  bool Complete = false; // bindings collected: valueOf may remember its answers
  mutable std::unordered_map<const void *, Value> Memo;
  std::string SelfName;
  PyTypeCache &Cache;
};

// F's types read as View (a subclass's; "" for F's own class), made the first
// time a reader in this cache asks and kept for the others.
PyTypes &cachedTypes(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F,
                     PyTypeCache &Cache, const std::string &View = "");

bool startsWith(std::string_view S, std::string_view Prefix);

} // namespace graphsafe::lint::py
