// The classes of all summaries joined: which method a call on a value of some
// class runs, with the overrides its subclasses may put in its place.
#pragma once

#include "Summary.h"

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace graphsafe::lint {

class ClassHierarchy {
public:
  explicit ClassHierarchy(const std::vector<TUSummary> &TUs);

  // The method Method of a value whose class is Class or one of its
  // subclasses: the one Class inherits (bases depth first, left to right)
  // and, unless Exact, every override its subclasses define.
  const std::vector<std::string> &dispatch(const std::string &Class, const std::string &Method,
                                           bool Exact = false) const;

  // The classes whose instances run the method with USR MethodUsr: the one
  // defining it and the subclasses that inherit it.
  // Asked for every target of every call the walk visits: remembered.
  const std::vector<std::string> &runners(const std::string &MethodUsr) const;

  // The class defining the method with USR MethodUsr; empty for a function.
  std::string owner(const std::string &MethodUsr) const;
  // Whether Class has Base among its bases (its method resolution order).
  bool derives(const std::string &Class, const std::string &Base) const;

private:
  // Visits Class's subclasses, each once, going below those Visit accepts.
  void walkDown(const std::string &Class,
                const std::function<bool(const std::string &)> &Visit) const;
  std::string inherited(const std::string &Class, const std::string &Method) const;
  std::map<std::string, const ClassSummary *> ByKey;
  std::map<std::string, std::vector<std::string>> Subclasses;
  std::map<std::string, std::pair<std::string, std::string>> MethodOwner; // USR -> class, name
  mutable std::map<std::tuple<std::string, std::string, bool>, std::vector<std::string>> Memo;
  mutable std::map<std::string, std::vector<std::string>> RunnersMemo;
};

} // namespace graphsafe::lint
