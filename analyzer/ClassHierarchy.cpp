#include "ClassHierarchy.h"

#include <algorithm>
#include <functional>
#include <set>

namespace graphsafe::lint {

ClassHierarchy::ClassHierarchy(const std::vector<TUSummary> &TUs) {
  for (const auto &TU : TUs)
    for (const auto &C : TU.Classes)
      if (ByKey.emplace(C.Key, &C).second) {
        for (const auto &B : C.Bases)
          if (B != C.Key)
            Subclasses[B].push_back(C.Key);
        for (const auto &[Name, Usr] : C.Methods)
          MethodOwner.emplace(Usr, std::make_pair(C.Key, Name));
      }
}

void ClassHierarchy::walkDown(const std::string &Class,
                              const std::function<bool(const std::string &)> &Visit) const {
  std::set<std::string> Seen = {Class};
  std::vector<std::string> Down = {Class};
  while (!Down.empty() && Seen.size() < 4096) {
    std::string C = std::move(Down.back());
    Down.pop_back();
    auto Sub = Subclasses.find(C);
    if (Sub == Subclasses.end())
      continue;
    for (const auto &S : Sub->second)
      if (Seen.insert(S).second && Visit(S))
        Down.push_back(S);
  }
}

const std::vector<std::string> &ClassHierarchy::runners(const std::string &MethodUsr) const {
  auto [It, New] = RunnersMemo.try_emplace(MethodUsr);
  std::vector<std::string> &Out = It->second;
  auto Owner = MethodOwner.find(MethodUsr);
  if (!New || Owner == MethodOwner.end())
    return Out;
  const auto &[Class, Method] = Owner->second;
  Out.push_back(Class);
  walkDown(Class, [&](const std::string &S) {
    if (inherited(S, Method) != MethodUsr)
      return false; // it and its subclasses run another override
    Out.push_back(S);
    return true;
  });
  return Out;
}

std::string ClassHierarchy::owner(const std::string &MethodUsr) const {
  auto It = MethodOwner.find(MethodUsr);
  return It == MethodOwner.end() ? std::string() : It->second.first;
}

bool ClassHierarchy::derives(const std::string &Class, const std::string &Base) const {
  auto It = ByKey.find(Class);
  return It != ByKey.end() && std::find(It->second->Bases.begin(), It->second->Bases.end(), Base) !=
                                  It->second->Bases.end();
}

std::string ClassHierarchy::inherited(const std::string &Class, const std::string &Method) const {
  std::set<std::string> Seen;
  std::vector<std::string> Todo = {Class};
  while (!Todo.empty()) {
    std::string C = std::move(Todo.back());
    Todo.pop_back();
    if (!Seen.insert(C).second)
      continue;
    auto It = ByKey.find(C);
    if (It == ByKey.end())
      continue;
    if (auto M = It->second->Methods.find(Method); M != It->second->Methods.end())
      return M->second;
    Todo.insert(Todo.end(), It->second->Bases.rbegin(), It->second->Bases.rend());
  }
  return "";
}

const std::vector<std::string> &
ClassHierarchy::dispatch(const std::string &Class, const std::string &Method, bool Exact) const {
  auto [It, New] = Memo.try_emplace({Class, Method, Exact});
  if (!New)
    return It->second;
  std::vector<std::string> &Out = It->second;
  if (std::string Base = inherited(Class, Method); !Base.empty())
    Out.push_back(Base);
  if (Exact)
    return Out;
  walkDown(Class, [&](const std::string &S) {
    const ClassSummary *D = ByKey.at(S);
    if (auto M = D->Methods.find(Method); M != D->Methods.end())
      Out.push_back(M->second);
    return true;
  });
  return Out;
}

} // namespace graphsafe::lint
