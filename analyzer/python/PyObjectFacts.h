// What a call's arguments are known to hold beyond the literals written at
// the call: attributes of objects and whether they are None, where the
// object is the caller's own parameter, a copy of it, or one a project
// function builds from its parameters (`state = self._make_state(inp)`
// returning a new object with `state.is_prefill = inp.is_prefill`). Facts
// are stated in literals and the caller's own parameters, so the walk of the
// call graph can carry what a caller above knew (`else:` of
// `if inp.is_prefill:`) down into the captured code that tests it.
//
// Assumed, as Python code is usually written: a call that an object is
// passed to leaves the object's attributes as they were; a method called on
// the object may change those some project class assigns to `self`.
#pragma once

#include "PyTypes.h"
#include "Summary.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

// `state.flag` where `state` is T's function's parameter and the function
// has not changed `state.flag` before E: the parameter's caller-side index
// and the attribute.
std::optional<std::pair<unsigned, std::string>> parameterAttribute(const PyTypes &T, TSNode E);

// For a call made on an attribute of self (`self.encoder(x)`, Method set
// empty; `self.encoder.encode(x)`, Method set to "encode"): the attribute's
// name; else "" and Method untouched.
std::string selfAttributeCalled(const PyTypes &T, TSNode Call, std::string &Method);

// What a call to the project function Callee passes beyond literalArguments:
// ConstArgs with Attr or FromAttr set, None-ness of objects, objects passed
// on through locals, copies and project functions. With Callee empty, a call
// through a value: every fact, literals included, by position alone.
std::vector<ConstArg> objectArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call);

// What a call through a value passes by keyword (`self.mixer(x,
// params=params)`): literals and object facts, each with Index KeywordParam
// + k for the keyword Names[k] (CallEdge::Keywords), matched to the callee's
// parameter names when the walk finds the callee.
std::vector<ConstArg> keywordArguments(const PyTypes &Caller, TSNode Call,
                                       std::vector<std::string> &Names);

// What a call of a method of self's own class (`self.m(...)`, dispatched at
// run time) passes for the receiver: self's facts, as this method's caller
// gave them and this method left them.
std::vector<ConstArg> receiverArguments(const PyTypes &Caller, TSNode Call);

// What the caller knows of the object E evaluates to, for the self of a
// method the language calls on it without a call written (`for batch in
// buffer`: buffer's __iter__ and __next__).
std::vector<ConstArg> iteratedObjectFacts(const PyTypes &T, TSNode E);

// What the caller knows of the attributes of the object E is, as literals
// (ConstArgs with Index ObjectParam, Attr set, From unset): the receiver of
// a method call, or the object a decorator expression builds.
std::vector<ConstArg> knownAttributes(const PyTypes &T, TSNode E);
// The same of the receiver of Call, a call of the method Callee, with what a
// closure's tests of its method's self say (`if self.enabled: self.m()`).
std::vector<ConstArg> receiverAttributes(const PyTypes &Caller, const std::string &Callee,
                                         TSNode Call);

// The attributes the object E evaluates to holds where it is made (`Context(
// is_prefill, ...)`, a project class's constructor or a @dataclass): each a
// literal, or From one of T's parameters (caller-side index).
std::map<std::string, ConstArg> builtAttributes(const PyTypes &T, TSNode E);

// Whether calling E's value passes its arguments at other positions than
// written, or needs fewer: a functools.partial binding arguments, or a method
// taken from its class (`Model.forward`), whose self comes first.
bool movesArguments(const PyTypes &T, TSNode E);

// How many positional arguments a call of F may pass (self aside): the
// least and the most, -1 for any number. A keyword-only parameter without a
// default makes the least unreachable by positions alone.
std::pair<int, int> positionalArity(const PyFunctionDef &F);

// For a call through a value: how many positional arguments it passes, or
// -1 when it passes keywords or `*args`, or moves its arguments.
int positionalCount(const PyTypes &T, TSNode Call);

// For a call through a value: how many positional arguments it passes and
// what its `**` passes (CallEdge::LeadingArgs, KeywordSplat), so the walk
// can give the parameters it leaves out their defaults.
void describeSplats(const PyTypes &T, TSNode Call, CallEdge &E);

} // namespace graphsafe::lint::py
