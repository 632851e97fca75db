#include "ClassTests.h"

#include <algorithm>
#include <set>

namespace graphsafe::lint::py {

namespace {

// Library bases that add no `__call__` to what derives from them.
bool plainBase(std::string_view Base) {
  static const std::set<std::string, std::less<>> Plain = {
      "object", "abc.ABC", "typing.Generic", "typing.Protocol", "enum.Enum", "Exception"};
  return Plain.count(Base) > 0;
}

// Builtin classes a project class is an instance of only by deriving from
// them.
bool builtinClass(std::string_view Name) {
  static const std::set<std::string, std::less<>> Builtins = {
      "int",  "float", "bool",      "str",     "bytes", "list",  "tuple",
      "dict", "set",   "frozenset", "complex", "slice", "range", "bytearray"};
  return Builtins.count(Name) > 0;
}

ClassAnswer instanceOfOne(const PyProgram &P, const std::string &Class, std::string_view Tested) {
  if (Tested == "object")
    return ClassAnswer::Yes;
  std::vector<std::string> Own = P.ancestors(Class);
  if (std::find(Own.begin(), Own.end(), Tested) != Own.end())
    return ClassAnswer::Yes;
  std::vector<std::string> Library = P.libraryBases(Class);
  if (std::find(Library.begin(), Library.end(), Tested) != Library.end())
    return ClassAnswer::Yes;
  // No library class derives from a project class.
  if (P.classNamed(std::string(Tested)))
    return ClassAnswer::No;
  if (builtinClass(Tested) && std::all_of(Library.begin(), Library.end(), plainBase))
    return ClassAnswer::No;
  return ClassAnswer::Maybe;
}

} // namespace

ClassAnswer instanceOf(const PyProgram &P, const std::string &Class, std::string_view Tested) {
  ClassAnswer Out = ClassAnswer::No;
  while (!Tested.empty()) {
    size_t Comma = Tested.find(',');
    ClassAnswer A = instanceOfOne(P, Class, Tested.substr(0, Comma));
    if (A == ClassAnswer::Yes)
      return A;
    if (A == ClassAnswer::Maybe)
      Out = A;
    Tested = Comma == std::string_view::npos ? std::string_view() : Tested.substr(Comma + 1);
  }
  return Out;
}

ClassAnswer callableInstance(const PyProgram &P, const std::string &Class) {
  for (const std::string &A : P.ancestors(Class))
    if (const PyClassDef *D = P.classNamed(A); D && D->Methods.count("__call__"))
      return ClassAnswer::Yes;
  std::vector<std::string> Library = P.libraryBases(Class);
  if (std::any_of(Library.begin(), Library.end(),
                  [](std::string_view B) { return B.rfind("torch.nn.", 0) == 0; }))
    return ClassAnswer::Yes;
  return std::all_of(Library.begin(), Library.end(), plainBase) ? ClassAnswer::No
                                                                : ClassAnswer::Maybe;
}

bool classTestMayHold(const PyProgram &P, const ParamTest &PT,
                      const std::vector<std::string> &Classes) {
  using K = ParamTest::Kind;
  const bool Callable = PT.K == K::IsCallable || PT.K == K::NotCallable;
  const bool Holds = PT.K == K::IsInstance || PT.K == K::IsCallable;
  for (const std::string &C : Classes) {
    ClassAnswer A = Callable ? callableInstance(P, C) : instanceOf(P, C, PT.Text);
    if (A == ClassAnswer::Maybe || (A == ClassAnswer::Yes) == Holds)
      return true;
  }
  return Classes.empty();
}

} // namespace graphsafe::lint::py
