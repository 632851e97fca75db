// Where a Python call goes, decided by the types of the values involved and
// never by a method's name alone: methods through the receiver's class and
// its MRO, super(), module instances through forward/__call__, and callables
// held by parameters, attributes and locals through what the program stores
// there. Storage is named by keys (a parameter of one function, an attribute
// of one class) that the summaries map to what reaches them, so the points-to
// sets are joined across files when the call graph is walked.
#pragma once

#include "PyTypes.h"
#include "Summary.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

std::string usr(const std::string &QualName);
// What callers pass for parameter Index of Function.
std::string paramKey(const std::string &Function, unsigned Index);
// What the code assigns to Attr of instances of Class, in Class's own
// methods or on receivers known to be of Class.
std::string attrKey(const std::string &Class, const std::string &Attr);
// What the same stores on instances of Class's subclasses assign. Kept apart
// from attrKey so that a class reads its bases' stores and its subclasses',
// never its siblings' (two subclasses of one base both setting self.model).
std::string attrSubclassKey(const std::string &Class, const std::string &Attr);
// What the generator Function yields: `with Function(...) as f` binds it
// when Function is a @contextmanager.
std::string yieldKey(const std::string &Function);

// What the function Function returns: calling `Function(...)(...)` (or a
// name bound to its result) runs it.
std::string returnKey(const std::string &Function);
// Element Element of the tuple Function returns (`return model, opt`): what
// `model, opt = Function(...)` binds to each name.
std::string returnElementKey(const std::string &Function, unsigned Element);

// What the name of the decorated function Function holds once its project
// decorators have run (the wrapper they return); see decoratorCalls.
std::string decoratedKey(const std::string &Function);

// Whether some decorator of Function is a project function (or a call of
// one): its name then holds what the decorators return, not Function.
bool wrappedByProject(const PyTypes &T, const std::string &Function);

// What a call of the decorated Function binds: each plain decorator's
// parameter to what it wrapped (its wrapper calls that alone there).
std::vector<std::pair<std::string, std::string>> decoratorBinds(const PyTypes &T,
                                                                const std::string &Function);

// `@d1 @d2(x) def f`: runs d2(x)'s result, then d1, on f where the
// definition runs. Returns what those calls run; Stores gets what each
// decorator's parameter receives and what f's name holds after them.
std::vector<std::string> decoratorCalls(const PyTypes &T, TSNode Decorated,
                                        std::vector<std::pair<std::string, std::string>> &Stores);

// What iterating E calls: the __iter__ and __next__ of the project class of
// E's value; with Receiver, the class key self has in them where E's value
// is of one class ("=" first where exactly that class).
std::vector<std::string> iterationCalls(const PyTypes &T, TSNode E,
                                        std::string *Receiver = nullptr);

// Whether E (a returned value) is one of T's parameters or hangs off one:
// `model`, `model.module`, `getattr(model, attr)`, through locals.
bool fromParameter(const PyTypes &T, TSNode E);


// The functions stored so that a call through the storage passes its
// arguments at other positions, or fewer: bound by a functools.partial, or
// taken from their class (PyObjectFacts.h, movesArguments).
std::string shiftedKey();

struct Callees {
  std::vector<std::string> Keys; // function USRs and storage keys
  bool Exact = false;            // the receiver's class is exact: no override runs instead
  bool Dynamic = false;          // a call through a value: unknown when nothing is stored there
  std::string SelfMethod;        // `self.m()`: dispatched on self's class when the graph is walked
  // `f = self.a if c else self.b; f()`: the other methods of self it may run.
  std::vector<std::string> AlsoSelf;
  std::string Receiver; // the class key `self` has in the callee, when known
};

// The key a class goes by in the summaries' class hierarchy.
std::string classKey(const std::string &Class);

// The forward of a project torch.autograd.Function subclass, which its
// apply() runs; empty for other classes.
std::string autogradForward(const PyProgram &P, const std::string &Class);

// A project function decorated as a generator context manager
// (@contextlib.contextmanager, @asynccontextmanager).
bool isContextManager(const PyProgram &P, const std::string &Function);

// Whether N is `super()`.
bool isSuperCall(const PyTypes &T, TSNode N);

// Whether one of F's decorators (M's function), its call's arguments taken
// off, is one Named accepts, as M's imports qualify it or as spelled
// (`@lru_cache(maxsize=None)` after `from functools import lru_cache`).
bool decoratedBy(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F,
                 bool (*Named)(const std::string &));

// What a call may run.
Callees calleesOf(const PyTypes &T, TSNode Call);

// Whether a callee key names a function of the analysed code (`py:mod.f`).
bool isProjectFunctionKey(const PyProgram &P, const std::string &K);

// What calling the value of Expr runs: functions, lambdas, partials, bound
// methods, module instances (their forward/__call__), and the storage keys of
// parameters and attributes.
std::vector<std::string> valueTargets(const PyTypes &T, TSNode Expr);

// The functions an argument hands on to be called: a lambda, a project
// function, a bound method or a partial of one. Values that merely hold
// callables (modules, containers) are not: `len(self.layers)` calls nothing.
std::vector<std::string> handedFunctions(const PyTypes &T, TSNode Arg);

// make_graphed_callables((model, fn), ...): what each element captures.
std::vector<std::string> graphedTargets(const PyTypes &T, TSNode Arg);

// The arguments of a call to the project function Callee, each with the
// index of the parameter it binds (keywords matched by name).
std::vector<std::pair<unsigned, TSNode>> boundArguments(const PyTypes &Caller,
                                                        const std::string &Callee, TSNode Call);

// Call's arguments as Callee's parameters take them: a method called through
// its class (`Base.make(self, factory)`) takes its first argument as self,
// which callers' positions do not count.
CallArgs calleeArgs(const PyTypes &Caller, const std::string &Callee, TSNode Call);

// The literal E spells (True, False, None, a number, a plain string), as
// what is passed for parameter Index.
std::optional<ConstArg> literalArgument(const PySource &S, TSNode E, unsigned Index);

// The number a literal spells (`0.0`, `-1`, `1_000`), if E is one.
std::optional<double> numberLiteral(const PySource &S, TSNode E);

// The literal arguments (True, False, None, numbers, plain strings) of a call
// to the project function Callee, by the parameter each binds, and the
// caller's own parameters passed on unchanged (PyConstantBranches.cpp).
std::vector<ConstArg> literalArguments(const PyTypes &Caller, const std::string &Callee,
                                       TSNode Call);

// The tests of T's function's parameters that N runs under: each enclosing
// if/elif, early return and assert (PyConstantBranches.cpp).
std::vector<ParamTest> parameterTestsAt(const PyTypes &T, TSNode N);

// Whether Splat (`**name` in a call) passes on the caller's own `**kwargs`
// as the caller received it: the function only reads the mapping (`.get`,
// `.pop`, `in`, a truth test) or passes it on, never adds a key to it.
bool passesOwnKwargs(const PyTypes &Caller, TSNode Splat);

// `kwargs.get("verbose", False)` (or `.pop`) on the function's own
// `**kwargs`, only read: the key, and the literal it gives where the key is
// missing (None without a default). Nothing for any other expression or a
// default that is no literal.
struct KwargsRead {
  std::string Key;
  ConstArg Default;
};
std::optional<KwargsRead> kwargsRead(const PyTypes &T, TSNode E);

// The literal defaults of F's parameters, by index as callers count them,
// and whether F takes `**kwargs` (FunctionSummary::ParamDefaults).
std::vector<ConstArg> parameterDefaultFacts(const PyFunctionDef &F, const PySource &S);
bool takesKwargs(const PyFunctionDef &F);

// What a call to the project function Callee binds its parameters to, for
// calls made through them in the callee (CallEdge::Binds): the functions an
// argument is known to be (a def, a lambda, a bound method, a partial), or
// the caller's own parameter handed on ("=" and its key).
std::vector<std::pair<std::string, std::string>>
parameterBinds(const PyTypes &Caller, const std::string &Callee, TSNode Call);

// The arguments of a call to the project function Callee that are
// instances of exactly one project class (made by its constructor), as
// ConstArgs whose Attr is ClassFact and the class's key: a method the
// callee calls on that parameter runs that class's own.
std::vector<ConstArg> classArguments(const PyTypes &Caller, const std::string &Callee, TSNode Call);

// Whether E is the current stream: `torch.cuda.current_stream(...)`, or a
// name bound to it and to nothing else where E reads it.
bool currentStream(const PyTypes &T, TSNode E);

// The arguments of a call to the project function Callee that are the
// current stream, or a stream the caller forks from it before the call and
// joins after, as ConstArgs that say the parameter is no side stream
// (SideStream).
std::vector<ConstArg> streamArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call);

// Callables N hands to storage: (storage key, what is stored), for arguments
// bound to a project function's parameters, values assigned to attributes and
// values a generator yields.
void collectStores(const PyTypes &T, TSNode N,
                   std::vector<std::pair<std::string, std::string>> &Out);

} // namespace graphsafe::lint::py
