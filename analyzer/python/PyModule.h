// What one Python file defines and imports (pass one), and the program-wide
// tables built from all files of an invocation: which qualified name a
// spelling means, which classes exist and what they derive from.
#pragma once

#include "PyParser.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace graphsafe::lint::py {

// The key a `from m import *` is noted under in PyModuleInfo::Imports (no
// Python name starts so); PyProgram::link binds m's names in its place.
inline constexpr const char *StarImport = "*";

// How PyFunctionDef::ReturnsClassObjects spells what is not a name: a call
// whose returns are handed on (ReturnedByCall and the callee as spelled),
// and the classes `getattr(importlib.import_module(...), name)` may give
// (ImportedClasses, the module or its package with a final dot, `|`, the
// names the class may have, comma-separated).
inline constexpr std::string_view ReturnedByCall = "call:";
inline constexpr std::string_view ImportedClasses = "import:";

struct PyFunctionDef {
  std::string QualName; // module.Class.method; module.<module> for top-level code
  std::string Name;
  std::string ClassQName; // empty unless a method
  TSNode Node{};          // function_definition, lambda, or the module
  bool IsModuleBody = false;
  bool IsLambda = false;
  // What its returns give, as far as other modules may ask without reading
  // its body (part of the module's interface): the callees spelled in
  // `return X(...)` and the globals returned, as `global:NAME`
  // (PyTypes::returnedInstances); the caller-side indices of the
  // parameters it returns as they are (`return f`).
  std::vector<std::string> ReturnsBuilt;
  std::vector<unsigned> ReturnsParams;
  // How many return statements of its own it has: with two or more, the
  // arguments of a call may rule some out (resolve/ReturnsByCall.h).
  unsigned Returns = 0;
  // Where every return gives a tuple of one length (`return model, opt`):
  // for each position, the callees spelled as ReturnsBuilt has them, empty
  // where some return's element is anything else.
  std::vector<std::vector<std::string>> ReturnsElementsBuilt;
  // Parameters handed back after rebinding that keeps what the caller
  // passed, as far as its class and its forward go (`model =
  // model.to(dev)`; `model = DDP(model)`, whose callee spellings KeptBy
  // lists: a reader takes these only where each names a module wrapper):
  // the plain returns' (besides ReturnsParams), and for each position of
  // the tuple every return gives, the parameter there or -1.
  std::vector<unsigned> ReturnsKeptParams;
  std::vector<int> ReturnsElementsParams;
  // Parameters returned by name on some paths and rebound on others only
  // to what calling them gives (`sampler = sampler()` under `elif
  // callable(sampler):`): a call may get back what it passed.
  std::vector<unsigned> ReturnsRebuiltParams;
  // The names of the parameters (and `*args`) whose items its code or a
  // closure in it reads: iterated, indexed, splatted, copied, assigned or
  // handed on whole (resolve/ContainerArguments.h).
  std::vector<std::string> ItemParams;
  std::vector<std::string> KeptBy;
  // Where every value it returns is a call's result (`return
  // torch.mean(d)`, or a local bound to calls alone) and it cannot end
  // without a return or yield anything: those callees as spelled, for
  // PyTypes::returnedTensors; empty otherwise.
  std::vector<std::string> ReturnsCalls;
  // The names its returns may hold as class objects, as spelled: a class
  // named, a `partial` of one, either side of `x if c else y`, through the
  // locals they are bound to (`mixer_cls = partial(mha_cls, ...); return
  // mixer_cls`). Calling the result builds them (a factory of layer classes).
  // Besides names: ReturnedByCall and a callee's spelling for a call whose
  // returns it hands on, and ImportedClasses spellings for a class looked up
  // in an imported module (`getattr(importlib.import_module(...), name)`).
  std::vector<std::string> ReturnsClassObjects;
  // The same for each position of the tuple every return gives.
  std::vector<std::vector<std::string>> ReturnsElementClassObjects;
  // Its decorators as spelled, outermost first (`timed`, `factory()` for a
  // call, `?` for other expressions); and whether it is itself a plain
  // decorator: a function (no method) whose every return is its first
  // parameter or a function defined in its body.
  std::vector<std::string> Decorators;
  bool PlainDecorator = false;
  // A name in its own code (nested definitions aside) speaks of a capture
  // or a graph (`capture_begin`, `torch.cuda.graph`, `self._capture_one`):
  // only such a function's body is read for what calling it does to capture
  // state (PyCaptureEffects.cpp), so that callers of everything else keep
  // their cached results when a body changes.
  bool MentionsCapture = false;
  // Its own code asks whether a device is there (`is_available`,
  // `is_torch_npu_available`): only such a function's result is read for
  // which accelerator it holds on (PyPlatform.cpp).
  bool MentionsDevice = false;
  // A plain function taking no arguments whose every return gives a bare
  // name or `NAME.get()`: only such a function's body is read for the mode
  // global it hands out (PyModeFlags.cpp getterGlobal), so that callers
  // passing other calls' results keep their cached results when a body
  // changes.
  bool MayGetGlobal = false;

  // The statements this function runs: its block, or the whole module.
  TSNode body() const { return IsModuleBody ? Node : field(Node, "body"); }
  // A @staticmethod: callers pass no self. An autograd Function's static
  // forward(ctx, ...) is not one here: apply() passes ctx, callers the rest.
  bool NoSelf = false;
  // Whether its first parameter is one callers do not pass (self, cls, ctx).
  bool takesSelf() const { return !ClassQName.empty() && !NoSelf; }
};

inline constexpr std::string_view SuperCall = "super().";

struct PyClassDef {
  std::string QualName;
  std::vector<std::string> Bases; // qualified after resolution
  std::set<std::string> Methods;
  std::set<std::string> AssignedAttrs; // x of every `self.x = ...` in its methods
  // Per method: the x of its `self.x = ...`, and the m of its `self.m(...)`
  // (SuperCall + m for `super().m(...)`).
  std::map<std::string, std::set<std::string>> StoresBy;
  std::map<std::string, std::set<std::string>> SelfCallsBy;
  // `layer_class = LlamaLayer` in the class body: the name each class-level
  // attribute spells, qualified once the program is linked.
  std::map<std::string, std::string> ClassLevelNames;
  TSNode Node{};
  const struct PyModuleInfo *Module = nullptr;
};

struct PyModuleInfo {
  std::string Path;    // absolute
  std::string Module;  // dotted name (pkg.sub.mod); the file stem for a script
  std::string Package; // for relative imports
  // Set when another tree analysed with this one has a package of the same
  // name (a vendored or forked copy): the dotted folder this module's
  // package root sits in, which prefixes its name and the imports it makes.
  std::string RootPrefix;
  // The other names it can be imported under (resolve/ImportSystem.h).
  std::vector<std::string> Aliases;
  std::unique_ptr<PySource> Src;
  std::map<std::string, std::string> Imports; // local name -> qualified name
  // Every module an import names, in full (`import a.b` binds a, imports a.b).
  std::set<std::string> ImportedModules;
  std::map<std::string, std::string> Defs;   // top-level def/class -> qualified name
  std::vector<PyFunctionDef> Functions;      // all defs, nested and methods, and the module body
  std::map<std::string, PyClassDef> Classes; // by qualified name
  // Per global that functions declare `global`: the callees spelled in the
  // calls assigned to it, in those functions and at top level.
  std::map<std::string, std::vector<std::string>> GlobalsBuilt;
  // Spellings handed to g.register_generator_state(...) anywhere in the file.
  std::set<std::string> RegisteredGenerators;
  // Globals of other modules this one assigns through the module
  // (`runtime.debug_nan = True` after `import pkg.runtime as runtime`), as
  // spelled here (`runtime.debug_nan`).
  std::set<std::string> ModuleAttrStores;
  // Top-level names bound to a `contextvars.ContextVar(...)`: globals whose
  // value `NAME.set(v)` replaces and `NAME.get()` reads.
  std::set<std::string> ContextVars;
  // The module changes where torch makes tensors by default
  // (`torch.set_default_device("cuda")`, `with torch.device("cuda"):`):
  // then a tensor made without a device may be on the GPU.
  bool SetsDefaultDevice = false;
  // The names its code spells where a method can be named: attributes
  // (`buf.set_storage`), names in class bodies, and identifier-like text in
  // strings (`getattr(self, "set_" + kind)` spells "set_"). A method no
  // module spells cannot run (PyProgram::mayRun). Not part of the interface:
  // the program-wide fact it feeds is checked as a whole (PyManifest).
  std::set<std::string> SpelledNames;
  static constexpr char PartOfName = '+'; // leads a string that is part of a name

  // A module whose index came from the cache has no tree until an analysis
  // reads it (PyProgram::tree): Text is parsed then, once, and handed to the tree.
  std::string Text;
  std::once_flag TreeOnce;
  // Frees the syntax tree once no analysis will read it again; the index
  // (names, classes, functions' qualified names) stays, their nodes do not.
  void dropTree() { Src.reset(); }
};

// The qualified name of the scope N is evaluated in: the module, or the
// function, class or lambda whose body holds it.
std::string scopeName(const std::string &Module, const PySource &S, TSNode N);
// A lambda's qualified name: its scope's, then where it starts (unique in
// its module).
std::string lambdaName(const std::string &Module, const PySource &S, TSNode Lambda);

// The parameter nodes of F as callers count them: without self, *args,
// **kwargs and the bare `*` and `/` markers.
std::vector<TSNode> callerParameters(const PyFunctionDef &F);
// The parameters callers pass, in order: `self` (of a method), `*args`,
// `**kw` and the `*`, `/` markers are left out.
std::vector<std::string> parameterNames(const PySource &S, const PyFunctionDef &F);
// The name a method's first parameter binds (`self`), empty when it has none.
std::string_view selfNameOf(const PySource &S, TSNode Method);

// The dotted module name of a file: directories with __init__.py are packages.
std::string moduleNameOf(const std::string &Path, std::string *Package);

// Pass one over a parsed file.
void indexModule(PyModuleInfo &M);

// What an analysis read of modules' code: the modules (what a cache that
// knows nothing finer goes by) and the pieces of them (partKey in PyParts.h).
struct PyReads {
  std::set<std::string> Modules;
  std::vector<std::uint64_t> Parts; // sorted once the ReadLog closes
};

// What one module's calls tell about the parameters of the functions they
// call (PyProgram::tensorParam and the tables beside it): gathered per
// module, so a cached module's share is merged without reading it again.
struct PyLearned {
  std::set<std::string> Graphed;
  // Functions that hand their parameter at these indices to a
  // graphed-callables helper, or to such a function's parameter (a
  // framework's own wrapper of make_graphed_callables): what their callers
  // pass there is captured, and its parameters take the graph's inputs.
  std::map<std::string, std::set<unsigned>> GraphedParams;
  std::map<std::string, std::set<unsigned>> TensorParams;
  using ByParameter = std::map<std::string, std::map<unsigned, std::set<std::string>>>;
  ByParameter Classes;
  ByParameter SuperClasses; // keyed "Function@CallerClass"
  ByParameter ClassObjects;
  // Classes of the instances in a list or tuple callers pass (`run((a, b))`,
  // `run([Block() for ...])`), and at VarargsParam those of the positions
  // that go into the function's `*args` (`Compose(Crop(), Norm())`).
  static constexpr unsigned VarargsParam = 0xFFFD;
  ByParameter ElementClasses;
  // Of ElementClasses, those some caller passes in a list whose elements it
  // did not make itself (`[Block() for ...]` is exact; a list handed in is
  // not).
  ByParameter InexactElementClasses;
  // Of Classes, those some caller passes without knowing the instance's
  // exact class (a parameter, an attribute, a factory's result): there a
  // subclass's override may run. A class only ever passed as made by its
  // constructor (`Runner(Wrapper(net))`) is exact in the callee.
  ByParameter InexactClasses;
  // Functions that hand one of their parameters to another project
  // function: what they were handed is known there only once they are read
  // again with their own parameters known.
  std::set<std::string> HandsOn;
  // Classes whose instances the program may make: called, or handed on as
  // values (analyzer/python/PyAnalysis.cpp, constructs).
  std::set<std::string> Built;
  // The same, by the path of the module that makes them.
  std::map<std::string, std::set<std::string>> BuiltIn;
  // Modules that keep learning rates in tensors: they update a param
  // group's 'lr' in place with a tensor method (`group['lr'].fill_(v)`) or
  // assign it a tensor, so reading one under capture there, or in a module
  // importing them, bakes no host scalar.
  std::set<std::string> TensorLearningRates;
  // Functions that replace submodules of what they are handed at these
  // indices by computed names (resolve/ModuleSwaps.h, swappedParameter).
  std::map<std::string, std::set<unsigned>> Swaps;
  // After learning: the classes whose instances' submodules such a function
  // may have replaced, and its name.
  std::map<std::string, std::string> SwappedClasses;
  void merge(const PyLearned &Other);
};

class PyProgram {
public:
  std::vector<std::unique_ptr<PyModuleInfo>> Modules;

  // Builds the program-wide tables once all modules are indexed.
  void link();
  // Whether code of M may run after some module changed the default
  // device (PyModuleInfo::SetsDefaultDevice): M is that module or one it
  // imports, directly or through others.
  bool defaultDeviceSet(const PyModuleInfo &M) const { return DefaultDeviceIn.count(&M) > 0; }

  // The qualified name `Name` means in module M (import aliases and
  // re-exports followed); Name itself when it is neither.
  std::string canonical(const std::string &Name) const;
  // What a dotted spelling in module M's top-level scope names: through its
  // imports and definitions, then canonical.
  std::string qualify(const PyModuleInfo &M, const std::string &Spelled) const;
  const PyClassDef *classNamed(const std::string &QName) const;
  // The module a dotted name imports, or null when no analysed file is it.
  const PyModuleInfo *moduleNamed(const std::string &Dotted) const { return moduleFor(Dotted); }
  bool isFunction(const std::string &QName) const { return FunctionNames.count(QName); }
  // Whether some module assigns the global QName (`pkg.runtime.debug_nan`)
  // through its module (`runtime.debug_nan = True`): its value is then not
  // what its own module binds.
  bool moduleAttrStored(const std::string &QName) const;
  // Reads of other modules' code go through the accessors below, each of
  // which names the piece it reads, so a ReadLog learns what an analysis
  // depended on and an edit redoes only the analyses that read what it
  // changed (see PyParts.h). Names, classes and bases (the index) are read
  // without them.
  //
  // The function's definition and its module, with their tree: its whole
  // text, and the module's top-level code that its names may come from.
  const PyFunctionDef *function(const std::string &QName) const {
    auto It = FunctionByName.find(QName);
    return It == FunctionByName.end() ? nullptr : readFunction(It->second, false).first;
  }
  // Whether some project function of this name (unqualified) speaks of
  // capture (PyFunctionDef::MentionsCapture): a cheap test before a call's
  // callees are resolved for it.
  bool someCaptureFunctionNamed(std::string_view Name) const {
    return CaptureNames.find(Name) != CaptureNames.end();
  }
  // Its index entry alone: what other modules see without its tree (the
  // module's interface, PyIndexArchive.h), no read noted.
  const PyFunctionDef *functionIndex(const std::string &QName) const {
    auto It = FunctionByName.find(QName);
    return It == FunctionByName.end() ? nullptr : It->second.first;
  }
  const PyModuleInfo *moduleOfFunction(const std::string &QName) const {
    auto It = FunctionByName.find(QName);
    return It == FunctionByName.end() ? nullptr : readFunction(It->second, false).second;
  }
  // The same, for a reader of its signature alone (parameters, defaults,
  // decorators, return annotation), which a body edit leaves as it was.
  std::pair<const PyFunctionDef *, const PyModuleInfo *> signature(const std::string &QName) const {
    auto It = FunctionByName.find(QName);
    if (It == FunctionByName.end())
      return {nullptr, nullptr};
    return readFunction(It->second, true);
  }
  // The module of class C, with its tree, for a reader of C's methods.
  const PyModuleInfo &classTree(const PyClassDef &C) const;
  // M with its syntax tree, parsed now if its index came from the cache: a
  // read of all of M's code.
  const PyModuleInfo &tree(const PyModuleInfo &M) const;
  // Records, while alive, what this thread reads of modules' code: what a
  // cached result of the module being analysed depends on.
  class ReadLog {
  public:
    explicit ReadLog(PyReads &Into);
    ~ReadLog();
    ReadLog(const ReadLog &) = delete;
    ReadLog &operator=(const ReadLog &) = delete;

  private:
    PyReads *Outer;
  };

  // The method a call on an instance of Class reaches, through base classes
  // in method resolution order.
  std::string methodOf(const std::string &Class, const std::string &Method) const;
  // The methods a call of Method on a value of static class Class may run:
  // the one Class resolves to, and unless Exact, the overrides its project
  // subclasses define (never those of unrelated classes that happen to
  // override the same base method).
  std::vector<std::string> dispatch(const std::string &Class, const std::string &Method,
                                    bool Exact) const;
  // Whether instances of Class may exist: the program builds it somewhere,
  // or hands the class on as a value.
  bool built(const std::string &Class) const { return Learned.Built.count(Class) > 0; }
  bool tensorLearningRates(const PyModuleInfo &M) const;
  // From here on dispatch goes by what is built (set once every module's
  // first reading is merged; before, every override is a candidate).
  // A class a class body names (`layer_class = LlamaLayer`) is handed on
  // as a value, as one a function names is.
  void knowBuilt();
  // Every project class below Class: its subclasses, theirs, and so on.
  std::vector<std::string> descendants(const std::string &Class) const;
  // Class and its project ancestors in method resolution order (C3).
  std::vector<std::string> ancestors(const std::string &Class) const;
  // The library classes in Class's method resolution order (`torch.nn.Module`).
  std::vector<std::string> libraryBases(const std::string &Class) const;
  // The project classes an instance of Class (or of a subclass) may build
  // when it calls self.Attr(...), where Attr is a class-level attribute
  // naming a class (`transformer_layer_class = LlamaLayer` in each model
  // subclass): their nearest common project base when they have one, else
  // each of them.
  std::vector<std::string> classAttrClasses(const std::string &Class,
                                            const std::string &Attr) const;
  // Whether Definer's Method runs on instances of Class: no class before
  // Definer in Class's method resolution order overrides it without
  // calling on to it (`super().__init__(...)`, `Base.__init__(self)`).
  bool runsOn(const std::string &Class, const std::string &Definer,
              const std::string &Method) const;
  // Whether a method of Class, an ancestor or a descendant assigns self.Attr.
  bool attrAssigned(const std::string &Class, const std::string &Attr) const;
  // What calling a method named Method on an object of unknown class may
  // assign to it: the x of `self.x = ...` in every project method of that
  // name (constructors aside), and in the methods they call on self.
  const std::set<std::string> &storesOfMethod(const std::string &Method) const;
  // Whether a method named Method that stores on self may run: no module
  // of the program spells its name (SpelledNames) for the methods listed
  // in neverNamed, which nothing here can call. Dunder methods run unnamed.
  bool mayRun(const std::string &Method) const { return !NeverNamed.count(Method); }
  const std::set<std::string> &neverNamed() const { return NeverNamed; }

  // Parameters known to take tensors: every parameter of a callable given to
  // make_graphed_callables, and positions where some caller passes a tensor.
  bool tensorParam(const std::string &Function, unsigned Index) const {
    if (Learned.Graphed.count(Function))
      return true;
    auto It = Learned.TensorParams.find(Function);
    return It != Learned.TensorParams.end() && It->second.count(Index);
  }
  // The project classes of the instances callers pass at Index.
  std::vector<std::string> paramClasses(const std::string &Function, unsigned Index) const {
    return lookUp(Learned.Classes, Function, Index);
  }
  // Whether every caller passes an instance of one class, made by its
  // constructor: no subclass's override runs on the parameter.
  bool exactParam(const std::string &Function, unsigned Index) const {
    return lookUp(Learned.Classes, Function, Index).size() == 1 &&
           lookUp(Learned.InexactClasses, Function, Index).empty();
  }
  // The project classes (the class objects themselves) callers pass at
  // Index: `FlashCausalLM(model_class=FlashLlamaForCausalLM)`.
  std::vector<std::string> paramElementClasses(const std::string &Function, unsigned Index) const {
    return lookUp(Learned.ElementClasses, Function, Index);
  }
  // Whether every class in paramElementClasses is exact: each caller made
  // the elements it passes.
  bool exactElementParam(const std::string &Function, unsigned Index) const {
    return !lookUp(Learned.ElementClasses, Function, Index).empty() &&
           lookUp(Learned.InexactElementClasses, Function, Index).empty();
  }
  std::vector<std::string> paramClassObjects(const std::string &Function, unsigned Index) const {
    return lookUp(Learned.ClassObjects, Function, Index);
  }
  // What the super() calls made in methods of Caller pass at Index.
  std::vector<std::string> superParamClasses(const std::string &Function, const std::string &Caller,
                                             unsigned Index) const {
    return lookUp(Learned.SuperClasses, Function + "@" + Caller, Index);
  }
  using ByParameter = PyLearned::ByParameter;
  // Every module's share, merged.
  PyLearned Learned;

private:
  static std::vector<std::string> lookUp(const ByParameter &Table, const std::string &Function,
                                         unsigned Index) {
    auto It = Table.find(Function);
    if (It == Table.end())
      return {};
    auto At = It->second.find(Index);
    return At == It->second.end() ? std::vector<std::string>{}
                                  : std::vector<std::string>(At->second.begin(), At->second.end());
  }
  std::map<std::string, const PyClassDef *> ClassByName;
  // The same, for look-ups (ClassByName keeps the order walks rely on).
  std::unordered_map<std::string, const PyClassDef *> ClassIndex;
  // Each class's method resolution order, library classes included.
  std::map<std::string, std::vector<std::string>> Mro;
  const std::vector<std::string> &linearize(const std::string &Class,
                                            std::set<std::string> &Visiting);
  std::map<std::string, std::vector<std::string>> Subclasses;
  std::map<std::string, std::vector<std::string>> Descendants; // of each class with subclasses
  std::vector<std::string> findDescendants(const std::string &Class) const;
  // The attribute names class bodies assign classes to.
  std::set<std::string> ClassLevelAttrs;
  // Attributes assigned in each class or any of its descendants.
  std::map<std::string, std::set<std::string>> AssignedBelow;
  std::map<std::string, std::set<std::string>> MethodStores;
  std::set<std::string> NeverNamed;
  void findNeverNamed();
  mutable std::mutex DispatchMutex;
  bool BuiltKnown = false;
  mutable std::map<std::pair<std::string, std::string>, std::vector<std::string>> DispatchMemo;
  // Looked up by every resolution: hashed, since qualified names share long
  // prefixes that an ordered map compares again at every level.
  std::unordered_set<std::string> FunctionNames;
  std::set<std::string, std::less<>> CaptureNames;
  std::unordered_map<std::string, std::pair<const PyFunctionDef *, const PyModuleInfo *>>
      FunctionByName;
  std::pair<const PyFunctionDef *, const PyModuleInfo *>
  readFunction(const std::pair<const PyFunctionDef *, const PyModuleInfo *> &Def,
               bool SignatureOnly) const;
  // M's tree, recording nothing.
  const PyModuleInfo &parsed(const PyModuleInfo &M) const;
  std::unordered_map<std::string, const PyModuleInfo *> ByModule;
  std::set<const PyModuleInfo *> DefaultDeviceIn;
  // The modules by their aliases; an alias two files share is left out (null).
  std::unordered_map<std::string, const PyModuleInfo *> ByAlias;
  const PyModuleInfo *moduleFor(const std::string &Dotted) const;
  void bindSiblingImports();
  void bindStarImports();
};

} // namespace graphsafe::lint::py
