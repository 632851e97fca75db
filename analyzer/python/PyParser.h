// One Python file parsed with tree-sitter: the text, its syntax tree, and the
// small vocabulary the rest of the Python front end reads nodes with.
#pragma once

#include "graphsafe/Finding.h"

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace graphsafe::lint::py {

// Why Text cannot be Python source (binary data, undecodable bytes), or empty.
std::string notSourceText(std::string_view Text);

class PySource {
public:
  // Null with Error set when the grammar cannot be loaded into the runtime.
  static std::unique_ptr<PySource> parse(std::string Path, std::string Text, std::string &Error);
  ~PySource();
  PySource(const PySource &) = delete;
  PySource &operator=(const PySource &) = delete;

  const std::string &path() const { return Path; }
  const std::string &text() const { return Text; }
  TSNode root() const { return ts_tree_root_node(Tree); }

  std::string_view text(TSNode N) const {
    return std::string_view(Text).substr(ts_node_start_byte(N),
                                         ts_node_end_byte(N) - ts_node_start_byte(N));
  }
  SourceLoc loc(TSNode N) const;
  SourceLoc locAtByte(unsigned Byte) const;

  // Where the parser had to skip or invent tokens, first ones first.
  std::vector<std::pair<SourceLoc, std::string>> syntaxErrors(size_t Max = 5) const;

  // Statements nested deeper than the analysis walks (generated code's
  // 20,000-term sums): each was replaced by `pass` before analysis, so the
  // rest of the file is read; the caller reports them as errors.
  const std::vector<std::pair<SourceLoc, std::string>> &skipped() const { return Skipped; }
  static constexpr unsigned MaxDepth = 1000;

private:
  PySource(std::string Path, std::string Text) : Path(std::move(Path)), Text(std::move(Text)) {}
  // Finds a statement nested past MaxDepth, blanks it in Text and reparses;
  // false when there is none.
  bool skipTooDeep(TSParser *P);

  std::string Path, Text;
  std::vector<unsigned> LineStarts;
  std::vector<std::pair<SourceLoc, std::string>> Skipped;
  TSTree *Tree = nullptr;
};

inline std::string_view kind(TSNode N) { return ts_node_is_null(N) ? "" : ts_node_type(N); }
inline bool is(TSNode N, std::string_view K) { return kind(N) == K; }

// One number per kind name of the grammar (the symbols it spells alike,
// aliases and anonymous tokens of a named kind's spelling included, share
// it); -1 for a name the grammar does not have.
int kindId(std::string_view Name);
// The kind number of N's type, as kindId(kind(N)) without reading the name.
int nodeKindId(TSNode N);

// The remembered answers of look-ups by a string literal's address: each
// literal is looked up once per thread, then found by a few instructions
// (the walks ask `is(N, "call")` and `field(N, "function")` of every node
// they pass; names compared and hashed there were a sixth of a run). The
// program spells a few hundred literals, packed bytes apart: an answer is
// kept until the thread ends, in an open-addressed table whose slot the
// address picks by Fibonacci hashing, so two literals never evict each
// other (one slot shared by all of them once made most questions a fresh
// look-up: 1.6 times the instructions of a run).
template <typename Look> int byLiteralAddress(const char *Literal, Look &&Lookup) {
  struct Slot {
    const char *Key;
    int Value;
  };
  constexpr unsigned Bits = 11, Size = 1u << Bits;
  thread_local Slot Slots[Size] = {};
  const auto Spread =
      static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(Literal)) * 0x9E3779B97F4A7C15ull;
  for (auto I = static_cast<unsigned>(Spread >> (64 - Bits)), Probes = 0u; Probes < Size;
       I = (I + 1) & (Size - 1), ++Probes) {
    Slot &S = Slots[I];
    if (S.Key == Literal)
      return S.Value;
    if (!S.Key) {
      S = {Literal, Lookup(Literal)};
      return S.Value;
    }
  }
  return Lookup(Literal); // more literals than slots: asked afresh
}

// kindId of a string literal.
inline int literalKindId(const char *Literal) {
  return byLiteralAddress(Literal, [](const char *L) { return kindId(L); });
}

// The common spelling, `is(N, "call")`, with a string literal: compared by
// kind number. A name held in a variable goes through the string_view form.
template <size_t Size> inline bool is(TSNode N, const char (&K)[Size]) {
  return !ts_node_is_null(N) && nodeKindId(N) == literalKindId(K);
}
// Whether N is of one of the kinds named (string literals), N's kind read
// once for them all.
template <size_t... Sizes> inline bool isAnyOf(TSNode N, const char (&...K)[Sizes]) {
  if (ts_node_is_null(N))
    return false;
  const int Id = nodeKindId(N);
  return ((Id == literalKindId(K)) || ...);
}
// The grammar's id of a field name, looked up once: tree-sitter's own lookup
// compares the name against every field of the grammar on each call.
TSFieldId fieldId(std::string_view Name);
inline TSNode field(TSNode N, std::string_view Name) {
  return ts_node_child_by_field_id(N, fieldId(Name));
}
template <size_t Size> inline TSNode field(TSNode N, const char (&Name)[Size]) {
  return ts_node_child_by_field_id(
      N, static_cast<TSFieldId>(byLiteralAddress(Name, [](const char *L) { return fieldId(L); })));
}
inline unsigned beginOf(TSNode N) { return ts_node_start_byte(N); }
inline unsigned endOf(TSNode N) { return ts_node_end_byte(N); }
inline bool contains(TSNode Outer, TSNode Inner) {
  return beginOf(Outer) <= beginOf(Inner) && endOf(Inner) <= endOf(Outer);
}
std::vector<TSNode> namedChildren(TSNode N);
// Strips parentheses: `(x)` is x.
TSNode unparen(TSNode N);
// A number, string, True, False or None written out.
inline bool isLiteral(TSNode N) {
  std::string_view K = ts_node_is_null(N) ? std::string_view() : ts_node_type(N);
  return K == "integer" || K == "float" || K == "string" || K == "concatenated_string" ||
         K == "true" || K == "false" || K == "none";
}
// What a plain string literal says (`"x"`, `r'x'`, a triple-quoted one), ""
// included; nullopt for anything else, an f-string included.
std::optional<std::string> plainString(const PySource &S, TSNode E);
// The same, "" for anything else.
std::string stringLiteral(const PySource &S, TSNode E);
// Whether N is (in) the message of an exception raised or of an assert:
// evaluated only where the code fails anyway, at capture as in eager runs,
// and never by a replay.
bool inFailureMessage(TSNode N);
// inFailureMessage, or N in a plain statement of a block that goes on
// straight to a raise (`print(f"{name} not found"); raise KeyError(name)`),
// with no try around it in the function that could take the path back.
bool onFailurePath(TSNode N);
// Whether a block always leaves the function: it ends in return or raise,
// or in an if/elif/else chain every branch of which does.
bool leavesFunction(TSNode Block);
// The tests N runs under, from the innermost out to Body: each enclosing
// if/elif condition with the way it went (Holds false in an else), the left
// operand of an `and` (held) or `or` (failed) whose right operand holds N,
// the test of an `x if c else y` around N, each `if cond: return` earlier
// in an enclosing block (Holds false), and each `assert cond` earlier in
// one (Holds true). Stops when Visit returns true.
void enclosingTests(TSNode N, TSNode Body,
                    const std::function<bool(TSNode Cond, bool Holds)> &Visit);

// The operator of a two-operand comparison as written (`==`, `is not`,
// `not in`), whether the grammar gives it one token or two; "" otherwise.
std::string comparisonOperator(const PySource &S, TSNode Comparison);

// A two-operand comparison of an expression with string literals: `x ==
// "a"`, `"a" == x`, `x != "a"`, `x in ("a", "b")`, `x not in [...]`.
struct StringComparison {
  TSNode Subject;
  // Whether the comparison holding means Subject is one of Texts (`==`,
  // `in`), rather than none of them (`!=`, `not in`).
  bool OneOf = true;
  std::vector<std::string> Texts;
};
std::optional<StringComparison> stringComparison(const PySource &S, TSNode Comparison);

// The positional and keyword arguments of a call.
struct CallArgs {
  std::vector<TSNode> Positional;
  std::vector<std::pair<std::string_view, TSNode>> Keywords;
  TSNode keyword(std::string_view Name) const;
};
CallArgs argsOf(const PySource &S, TSNode Call);
// The entries of a dict E writes out (`{"q": q}`, `dict(q=q)`), or of the
// one a name E is bound to once in its scope and never changed: what `**E`
// passes. False when some key is not known from the text.
bool keywordEntries(const PySource &S, TSNode E,
                    std::vector<std::pair<std::string_view, TSNode>> &Out);

// How an identifier N (with its parent Up and grandparent Above) uses the
// dict it names, as `**name` needs to know: bound by an assignment
// (`name = {...}`) or by unpacking (`name, n = f()`), splatted (`**name`),
// the name of a keyword (`f(name=x)`), handed back by a return, one entry
// read (`name["k"]`), or anything else (a store into it, a mutation, a
// hand-over to a call).
enum class DictUse { Binds, Unpacks, Splats, NamesKeyword, HandsBack, ReadsEntry, Other };
DictUse dictUse(TSNode N, TSNode Up, TSNode Above);

// Whether Root, or a function nested in it, declares Name `nonlocal` (or,
// with OrGlobal, `global`): a binding of it there may not be the only one.
bool declaresName(const PySource &S, TSNode Root, std::string_view Name, bool OrGlobal);

// The function definition or lambda nearest above N; null at module level.
TSNode enclosingFunction(TSNode N);

// The identifier a parameter binds (`x`, `x: T`, `x=1`, `x: T = 1`); null
// for `*args`, `**kw` and the bare `*` and `/` markers.
TSNode parameterName(TSNode Param);

// The context expressions of a `with` statement (`with a() as x, b():` gives
// a() and b()).
std::vector<TSNode> withContexts(TSNode With);

// Nodes that start a scope of their own: walked as functions or classes, not
// as part of the body around them.
inline bool isScope(TSNode N) {
  return isAnyOf(N, "function_definition", "class_definition", "lambda");
}

// What walk visits below a root, laid out in visiting order: the named
// nodes, nested functions and classes without their bodies, each with its
// depth below the root and the index just past its own subtree. The type
// reader, the learning rounds and every check walk the same function bodies
// a dozen times each, and a tree cursor's moves were a quarter of a whole
// run's time; a laid-out body is walked by stepping through an array.
struct FlatNode {
  TSNode Node;
  uint32_t End;
  uint32_t Depth;
};
// Root laid out, kept per thread for function, class and module bodies;
// null for other roots (most walks are of a call's few nodes, where a
// look-up costs more than the walk).
std::shared_ptr<const std::vector<FlatNode>> flatBody(TSNode Root);

// N's parent, as ts_node_parent gives it, found from the last path down
// this thread took: the walks step up from nearby nodes to their statement,
// block and function again and again, and ts_node_parent starts each search
// from the module's first statement.
TSNode parentOf(TSNode N);

// Visits Root and every node below it in source order, with its depth below
// Root; Visit returns whether to enter the node's children. A tree cursor,
// not ts_node_named_child: that one scans the siblings before the child it
// returns, which made walks quadratic in wide nodes.
template <typename Fn> void walkWithDepth(TSNode Root, Fn &&Visit) {
  // A field the grammar leaves out (`self.x: int` has no right side) is a
  // null node; a cursor on it reads through a null tree.
  if (ts_node_is_null(Root))
    return;
  TSTreeCursor C = ts_tree_cursor_new(Root);
  unsigned Depth = 0;
  for (;;) {
    bool Descend = Visit(ts_tree_cursor_current_node(&C), Depth);
    if (Descend && ts_tree_cursor_goto_first_child(&C)) {
      ++Depth;
      continue;
    }
    bool Done = Depth == 0;
    while (!Done && !ts_tree_cursor_goto_next_sibling(&C)) {
      ts_tree_cursor_goto_parent(&C);
      Done = --Depth == 0;
    }
    if (Done)
      break;
  }
  ts_tree_cursor_delete(&C);
}

// Visits Root and its named descendants in source order, with their depth
// below Root. Nested functions and classes are visited but not entered.
// Visit returns false to skip children. A function, class or module body is
// read from its layout.
template <typename Fn> void walkNamed(TSNode Root, Fn &&Visit) {
  if (ts_node_is_null(Root))
    return;
  if (auto Flat = flatBody(Root)) {
    const std::vector<FlatNode> &Nodes = *Flat;
    for (size_t I = 0; I < Nodes.size();)
      I = Visit(Nodes[I].Node, Nodes[I].Depth) ? I + 1 : Nodes[I].End;
    return;
  }
  walkWithDepth(Root, [&](TSNode N, unsigned Depth) {
    return ts_node_is_named(N) && Visit(N, Depth) && (Depth == 0 || !isScope(N));
  });
}

// As walkNamed, without the depth.
template <typename Fn> void walk(TSNode Root, Fn &&Visit) {
  walkNamed(Root, [&](TSNode N, unsigned) { return Visit(N); });
}

// As walk, handing Visit each node's parent and grandparent as well:
// ts_node_parent searches down from the root of the tree on every call,
// which costs more than the whole walk where asked of every node.
template <typename Fn> void walkWithParents(TSNode Root, Fn &&Visit) {
  // Path[0] and Path[1]: Root's grandparent and parent, asked once; then
  // the nodes from Root down to the one visited.
  if (ts_node_is_null(Root))
    return;
  std::vector<TSNode> Path(2);
  Path[1] = parentOf(Root);
  if (!ts_node_is_null(Path[1]))
    Path[0] = parentOf(Path[1]);
  walkNamed(Root, [&](TSNode N, unsigned Depth) {
    Path.resize(Depth + 2);
    Path.push_back(N);
    return Visit(N, Path[Depth + 1], Path[Depth]);
  });
}

} // namespace graphsafe::lint::py
