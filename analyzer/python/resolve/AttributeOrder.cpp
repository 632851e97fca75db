#include "AttributeOrder.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {
namespace {

// Per function: each attribute name it reads before one of its assignments
// of that name, with where each assignment takes effect (the end of its
// statement: `x.f = wrap(x.f)` reads before it stores), in order.
std::map<std::string, std::vector<unsigned>, std::less<>> findStoresAfterReads(const PyTypes &T) {
  const PySource &S = *T.M.Src;
  std::map<std::string, std::vector<unsigned>, std::less<>> Stores;
  std::map<std::string, unsigned, std::less<>> FirstRead;
  std::set<std::string, std::less<>> InLoop;
  std::vector<std::pair<unsigned, unsigned>> Loops, Targets;
  auto inLoop = [&](TSNode N) {
    for (const auto &[B, E] : Loops)
      if (B <= beginOf(N) && endOf(N) <= E)
        return true;
    return false;
  };
  auto target = [&](TSNode L, TSNode Statement) {
    L = unparen(L);
    std::vector<TSNode> Ls = {L};
    if (is(L, "pattern_list") || is(L, "tuple_pattern"))
      Ls = namedChildren(L);
    for (TSNode E : Ls) {
      E = unparen(E);
      if (!is(E, "attribute"))
        continue;
      Targets.push_back({beginOf(E), endOf(E)});
      std::string Attr(S.text(field(E, "attribute")));
      Stores[Attr].push_back(endOf(Statement));
      if (inLoop(E))
        InLoop.insert(Attr);
    }
  };
  TSNode Body = T.F.body();
  walk(Body, [&](TSNode N) {
    if (!ts_node_eq(N, Body) && isScope(N))
      return false;
    if (is(N, "for_statement") || is(N, "while_statement"))
      Loops.push_back({beginOf(N), endOf(N)});
    else if (is(N, "assignment"))
      target(field(N, "left"), N);
    else if (is(N, "attribute") && std::find(Targets.begin(), Targets.end(),
                                             std::make_pair(beginOf(N), endOf(N))) == Targets.end())
      FirstRead.emplace(std::string(S.text(field(N, "attribute"))), beginOf(N));
    return true;
  });
  std::map<std::string, std::vector<unsigned>, std::less<>> Out;
  for (auto &[Attr, Ends] : Stores) {
    std::sort(Ends.begin(), Ends.end());
    if (auto R = FirstRead.find(Attr);
        R != FirstRead.end() && R->second < Ends.back() && !InLoop.count(Attr))
      Out.emplace(Attr, std::move(Ends));
  }
  return Out;
}

} // namespace

const std::vector<unsigned> *storesAfterRead(const PyTypes &T, std::string_view Attr) {
  // Asked at every attribute read and store the call graph looks at; the
  // answer is the function's, worked out once.
  static std::mutex Mutex;
  static std::map<std::string, std::map<std::string, std::vector<unsigned>, std::less<>>> Memo;
  const std::map<std::string, std::vector<unsigned>, std::less<>> *Facts;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Memo.find(T.M.Src->path() + ":" + T.F.QualName);
    Facts = It == Memo.end() ? nullptr : &It->second;
  }
  if (!Facts) {
    auto Found = findStoresAfterReads(T);
    std::lock_guard<std::mutex> Lock(Mutex);
    Facts = &Memo.emplace(T.M.Src->path() + ":" + T.F.QualName, std::move(Found)).first->second;
  }
  if (auto It = Facts->find(Attr); It != Facts->end())
    return &It->second;
  return nullptr;
}

std::string ownStoreName(const PyTypes &T, unsigned Index) {
  return storePlaceName(T.F.QualName, Index);
}

} // namespace graphsafe::lint::py
