#include "PyParts.h"

#include <llvm/Support/xxhash.h>

namespace graphsafe::lint::py {

namespace {

std::uint64_t hashOf(std::string_view Text, unsigned Start) {
  std::uint64_t Hash = llvm::xxh3_64bits(llvm::StringRef(Text.data(), Text.size()));
  if (Text.find("lambda") != std::string_view::npos)
    Hash = llvm::xxh3_64bits(std::to_string(Hash) + "@" + std::to_string(Start));
  return Hash;
}

// The node a def's decorators belong to, when it has any.
TSNode withDecorators(TSNode N) {
  TSNode Parent = parentOf(N);
  return is(Parent, "decorated_definition") ? Parent : N;
}

} // namespace

std::uint64_t partKey(PyPart Kind, const std::string &Path, const std::string &Name) {
  std::string Key = std::to_string(static_cast<int>(Kind)) + ":" + Path;
  Key.push_back('\0');
  Key += Name;
  return llvm::xxh3_64bits(Key);
}

PyPartHashes partHashes(const PyModuleInfo &M) {
  const PySource &S = *M.Src;
  std::map<std::uint64_t, std::uint64_t> Out;
  const std::uint64_t AllOfIt = llvm::xxh3_64bits(S.text());
  Out[partKey(PyPart::Module, M.Path)] = AllOfIt;
  // Top-level code, with where each statement starts when a lambda is among
  // them (hashOf's reasoning).
  std::string Top, Starts;
  for (TSNode N : namedChildren(S.root()))
    if (!is(N, "function_definition") && !is(N, "class_definition") &&
        !is(N, "decorated_definition")) {
      Top += S.text(N);
      Top += "\n";
      Starts += std::to_string(ts_node_start_byte(N)) + ",";
    }
  if (Top.find("lambda") != std::string::npos)
    Top += Starts;
  Out[partKey(PyPart::TopLevel, M.Path)] = llvm::xxh3_64bits(Top);
  for (const auto &F : M.Functions) {
    if (F.IsModuleBody) {
      Out[partKey(PyPart::Function, M.Path, F.QualName)] = AllOfIt;
      Out[partKey(PyPart::Signature, M.Path, F.QualName)] = AllOfIt;
      continue;
    }
    TSNode Whole = withDecorators(F.Node);
    const unsigned Start = ts_node_start_byte(Whole);
    Out[partKey(PyPart::Function, M.Path, F.QualName)] = hashOf(S.text(Whole), Start);
    TSNode Body = field(F.Node, "body");
    std::string_view Head = S.text(Whole);
    if (!F.IsLambda && !ts_node_is_null(Body))
      Head = Head.substr(0, ts_node_start_byte(Body) - Start);
    Out[partKey(PyPart::Signature, M.Path, F.QualName)] = hashOf(Head, Start);
  }
  for (const auto &[Name, C] : M.Classes) {
    TSNode Whole = withDecorators(C.Node);
    Out[partKey(PyPart::Class, M.Path, Name)] = hashOf(S.text(Whole), ts_node_start_byte(Whole));
  }
  return PyPartHashes(Out.begin(), Out.end());
}

void changedParts(const PyPartHashes &Before, const PyPartHashes &After,
                  std::set<std::uint64_t> &Into) {
  auto B = Before.begin(), A = After.begin();
  while (B != Before.end() || A != After.end()) {
    if (A == After.end() || (B != Before.end() && B->first < A->first)) {
      Into.insert((B++)->first);
    } else if (B == Before.end() || A->first < B->first) {
      Into.insert((A++)->first);
    } else {
      if (A->second != B->second)
        Into.insert(A->first);
      ++A, ++B;
    }
  }
}

} // namespace graphsafe::lint::py
