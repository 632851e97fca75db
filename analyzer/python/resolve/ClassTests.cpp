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

} // namespace

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
  const bool Holds = PT.K == ParamTest::Kind::IsCallable;
  for (const std::string &C : Classes) {
    ClassAnswer A = callableInstance(P, C);
    if (A == ClassAnswer::Maybe || (A == ClassAnswer::Yes) == Holds)
      return true;
  }
  return Classes.empty();
}

} // namespace graphsafe::lint::py
