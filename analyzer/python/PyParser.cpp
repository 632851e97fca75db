#include "PyParser.h"

#include <unordered_map>

#include <fmt/format.h>

#include <algorithm>

extern "C" const TSLanguage *tree_sitter_python();

namespace graphsafe::lint::py {

TSFieldId fieldId(std::string_view Name) {
  static const std::unordered_map<std::string_view, TSFieldId> Ids = [] {
    std::unordered_map<std::string_view, TSFieldId> M;
    const TSLanguage *Lang = tree_sitter_python();
    for (TSFieldId I = 1; I <= ts_language_field_count(Lang); ++I)
      if (const char *N = ts_language_field_name_for_id(Lang, I))
        M.emplace(N, I);
    return M;
  }();
  auto It = Ids.find(Name);
  return It == Ids.end() ? 0 : It->second;
}


std::unique_ptr<PySource> PySource::parse(std::string Path, std::string Text, std::string &Error) {
  std::unique_ptr<PySource> S(new PySource(std::move(Path), std::move(Text)));
  TSParser *P = ts_parser_new();
  const TSLanguage *Lang = tree_sitter_python();
  if (!ts_parser_set_language(P, Lang)) {
    Error = fmt::format("the Python grammar (language ABI {}) does not load into this tree-sitter "
                        "runtime (ABI {} to {}); rebuild graphlint against a matching "
                        "libtree-sitter (see third_party/tree-sitter-python/README.md)",
                        ts_language_version(Lang), TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
                        TREE_SITTER_LANGUAGE_VERSION);
    ts_parser_delete(P);
    return nullptr;
  }
  S->Tree = ts_parser_parse_string(P, nullptr, S->Text.data(), S->Text.size());
  ts_parser_delete(P);
  if (!S->Tree) {
    Error = "the parser gave up on this file";
    return nullptr;
  }
  S->LineStarts.push_back(0);
  for (size_t I = 0; I < S->Text.size(); ++I)
    if (S->Text[I] == '\n')
      S->LineStarts.push_back(I + 1);
  return S;
}

PySource::~PySource() {
  if (Tree)
    ts_tree_delete(Tree);
}

SourceLoc PySource::locAtByte(unsigned Byte) const {
  auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Byte);
  unsigned Line = static_cast<unsigned>(It - LineStarts.begin());
  return {Path, Line, Byte - LineStarts[Line - 1] + 1};
}

SourceLoc PySource::loc(TSNode N) const { return locAtByte(beginOf(N)); }

std::vector<std::pair<SourceLoc, std::string>> PySource::syntaxErrors(size_t Max) const {
  std::vector<std::pair<SourceLoc, std::string>> Out;
  if (!ts_node_has_error(root()))
    return Out;
  // Descend only into subtrees that hold an error.
  std::vector<TSNode> Stack = {root()};
  while (!Stack.empty() && Out.size() < Max) {
    TSNode N = Stack.back();
    Stack.pop_back();
    if (ts_node_is_missing(N)) {
      Out.push_back({loc(N), fmt::format("expected '{}' here", kind(N))});
      continue;
    }
    if (kind(N) == "ERROR") {
      std::string_view T = text(N);
      T = T.substr(0, std::min<size_t>(T.find('\n'), 40));
      Out.push_back({loc(N), fmt::format("invalid syntax near '{}'", T)});
      continue;
    }
    for (uint32_t I = ts_node_child_count(N); I-- > 0;) {
      TSNode C = ts_node_child(N, I);
      if (ts_node_has_error(C))
        Stack.push_back(C);
    }
  }
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) { return A.first < B.first; });
  return Out;
}

std::vector<TSNode> namedChildren(TSNode N) {
  std::vector<TSNode> Out;
  if (ts_node_is_null(N))
    return Out;
  TSTreeCursor C = ts_tree_cursor_new(N);
  if (ts_tree_cursor_goto_first_child(&C))
    do {
      TSNode Child = ts_tree_cursor_current_node(&C);
      if (ts_node_is_named(Child) && !is(Child, "comment"))
        Out.push_back(Child);
    } while (ts_tree_cursor_goto_next_sibling(&C));
  ts_tree_cursor_delete(&C);
  return Out;
}

TSNode unparen(TSNode N) {
  while (is(N, "parenthesized_expression") && ts_node_named_child_count(N) == 1)
    N = ts_node_named_child(N, 0);
  return N;
}

TSNode parameterName(TSNode Param) {
  TSNode Name = is(Param, "typed_parameter") ? ts_node_named_child(Param, 0)
                : is(Param, "default_parameter") || is(Param, "typed_default_parameter")
                    ? field(Param, "name")
                    : Param;
  return is(Name, "identifier") ? Name : TSNode{};
}

std::vector<TSNode> withContexts(TSNode With) {
  std::vector<TSNode> Out;
  for (TSNode Item : namedChildren(ts_node_named_child(With, 0))) {
    TSNode V = field(Item, "value");
    Out.push_back(is(V, "as_pattern") ? ts_node_named_child(V, 0) : V);
  }
  return Out;
}

TSNode CallArgs::keyword(std::string_view Name) const {
  for (const auto &[K, V] : Keywords)
    if (K == Name)
      return V;
  return TSNode{};
}

CallArgs argsOf(const PySource &S, TSNode Call) {
  CallArgs A;
  TSNode List = field(Call, "arguments");
  if (!is(List, "argument_list")) {
    if (!ts_node_is_null(List)) // f(x for x in y)
      A.Positional.push_back(List);
    return A;
  }
  for (TSNode C : namedChildren(List)) {
    if (is(C, "keyword_argument"))
      A.Keywords.push_back({S.text(field(C, "name")), field(C, "value")});
    else
      A.Positional.push_back(C);
  }
  return A;
}

} // namespace graphsafe::lint::py
