#include "TorchApi.h"

#include <set>
#include <string>
#include <unordered_map>

namespace graphsafe::lint::py {

namespace {

// The table's text, embedded at build time (CMake writes TorchReturnsData.inc).
const char *const TableText =
#include "TorchReturnsData.inc"
    ;

TorchKind kindNamed(std::string_view K) {
  if (K == "tensor")
    return TorchKind::Tensor;
  if (K == "bool" || K == "number" || K == "str" || K == "device" || K == "dtype" || K == "none")
    return TorchKind::Host;
  if (K == "stream")
    return TorchKind::Stream;
  if (K == "event")
    return TorchKind::Event;
  if (K == "generator")
    return TorchKind::Generator;
  return TorchKind::Other;
}

const std::unordered_map<std::string, TorchKind> &table() {
  static const std::unordered_map<std::string, TorchKind> Table = [] {
    std::unordered_map<std::string, TorchKind> T;
    std::string_view Text(TableText);
    while (!Text.empty()) {
      size_t End = Text.find('\n');
      std::string_view Line = Text.substr(0, End);
      Text = End == std::string_view::npos ? "" : Text.substr(End + 1);
      size_t Tab = Line.find('\t');
      if (Line.empty() || Line[0] == '#' || Tab == std::string_view::npos)
        continue;
      T.emplace(std::string(Line.substr(0, Tab)), kindNamed(Line.substr(Tab + 1)));
    }
    return T;
  }();
  return Table;
}

std::optional<TorchKind> lookup(const std::string &Key) {
  auto It = table().find(Key);
  if (It == table().end())
    return std::nullopt;
  return It->second;
}

} // namespace

std::optional<TorchKind> torchReturnKind(std::string_view QualName) {
  if (auto Kind = lookup(std::string(QualName)))
    return Kind;
  // A device plug-in's module (torch.npu, torch.mlu) is not in the table; its
  // availability query answers a bool like every one the table has.
  constexpr std::string_view Query = ".is_available";
  if (QualName.size() > Query.size() &&
      QualName.compare(QualName.size() - Query.size(), Query.size(), Query) == 0)
    return TorchKind::Host;
  return std::nullopt;
}

std::optional<TorchKind> tensorMethodKind(std::string_view Method) {
  return lookup("Tensor." + std::string(Method));
}

bool moduleReturnsItself(std::string_view Method) {
  static const std::set<std::string, std::less<>> Chainable = {
      "cuda",     "to",  "train",          "eval",         "half",  "float",    "double",
      "bfloat16", "cpu", "requires_grad_", "share_memory", "apply", "to_empty", "type"};
  return Chainable.count(Method) > 0;
}

} // namespace graphsafe::lint::py
