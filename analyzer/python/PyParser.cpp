#include "PyParser.h"

#include <atomic>
#include <unordered_map>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

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

namespace {

// The grammar's kinds by number: per symbol, the first symbol spelled alike
// (Numbers), and that number per spelling (ByName).
struct KindNumbers {
  std::vector<int> Numbers;
  std::unordered_map<std::string_view, int> ByName;
};

const KindNumbers &kindNumbers() {
  static const KindNumbers Kinds = [] {
    const TSLanguage *Lang = tree_sitter_python();
    const uint32_t Count = ts_language_symbol_count(Lang);
    KindNumbers Out;
    Out.Numbers.resize(Count);
    for (uint32_t I = 0; I < Count; ++I)
      Out.Numbers[I] =
          Out.ByName.emplace(ts_language_symbol_name(Lang, static_cast<TSSymbol>(I)), I)
              .first->second;
    // The parser's error nodes carry a symbol past the grammar's own
    // (ts_builtin_sym_error, which tree-sitter's public header leaves out).
    Out.ByName.emplace("ERROR", static_cast<TSSymbol>(-1));
    return Out;
  }();
  return Kinds;
}

} // namespace

int kindId(std::string_view Name) {
  const auto &ByName = kindNumbers().ByName;
  auto It = ByName.find(Name);
  return It == ByName.end() ? -1 : It->second;
}

int nodeKindId(TSNode N) {
  static const std::vector<int> &Numbers = kindNumbers().Numbers;
  TSSymbol S = ts_node_symbol(N);
  return S < Numbers.size() ? Numbers[S] : S;
}

namespace {

// Counts deleted trees: a later tree may take a deleted one's node
// addresses, which key the laid-out bodies (flatBody), so each thread drops
// its bodies when the count moves.
std::atomic<unsigned> TreeGeneration{0};

void deleteTree(TSTree *Tree) {
  ++TreeGeneration;
  ts_tree_delete(Tree);
}

// Whether a tree was deleted since Seen was taken (moving Seen on): what a
// thread keeps by node address is dropped then.
bool treesDeletedSince(unsigned &Seen) {
  const unsigned Now = TreeGeneration.load(std::memory_order_acquire);
  if (Seen == Now)
    return false;
  Seen = Now;
  return true;
}

// The rows where the tree has an error or a missing token.
std::set<uint32_t> errorRows(TSNode Root) {
  std::set<uint32_t> Out;
  std::vector<TSNode> Stack = {Root};
  while (!Stack.empty()) {
    TSNode N = Stack.back();
    Stack.pop_back();
    if (ts_node_is_missing(N) || std::strcmp(ts_node_type(N), "ERROR") == 0) {
      Out.insert(ts_node_start_point(N).row);
      continue;
    }
    for (uint32_t I = 0; I < ts_node_child_count(N); ++I)
      if (TSNode C = ts_node_child(N, I); ts_node_has_error(C))
        Stack.push_back(C);
  }
  return Out;
}

// The rewrites below keep the text's length and line breaks, so every
// location stays where it was; each is kept only where the original did
// not parse and the rewrite parses better.
//
// The grammar's indentation scanner trips on comment lines indented less
// than the code around them (a decorator commented out at column 0 between a
// method's decorator and its def), which Python ignores: every line that
// holds only a comment is turned into spaces (a line inside a string literal
// that starts with `#` too).
std::string blankCommentLines(std::string Text, const std::set<uint32_t> &) {
  size_t Line = 0;
  while (Line < Text.size()) {
    size_t End = Text.find('\n', Line);
    if (End == std::string::npos)
      End = Text.size();
    size_t First = Text.find_first_not_of(" \t\f", Line);
    if (First < End && Text[First] == '#')
      for (size_t I = First; I < End; ++I)
        if (Text[I] != '\r')
          Text[I] = ' ';
    Line = End + 1;
  }
  return Text;
}

// Hands Visit(Line, End) where each of the given rows of Text begins and
// ends. Visit may rewrite the text, keeping its length.
template <typename Fn>
void forEachRow(std::string &Text, const std::set<uint32_t> &Rows, Fn Visit) {
  uint32_t Row = 0;
  for (size_t Line = 0; Line < Text.size(); ++Row) {
    size_t End = std::min(Text.find('\n', Line), Text.size());
    if (Rows.count(Row))
      Visit(Line, End);
    Line = End + 1;
  }
}

// Hands Visit(I, Line, End) each character of the given rows outside string
// literals and comments, with where its row begins and ends; StartRow() is
// called at each row first. Visit may rewrite the text, keeping its length.
template <typename Start, typename Fn>
void scanRows(std::string &Text, const std::set<uint32_t> &Rows, Start StartRow, Fn Visit) {
  forEachRow(Text, Rows, [&](size_t Line, size_t End) {
    StartRow();
    char Quote = 0;
    for (size_t I = Line; I < End; ++I) {
      char C = Text[I];
      if (Quote) {
        if (C == '\\')
          ++I;
        else if (C == Quote)
          Quote = 0;
      } else if (C == '\'' || C == '"') {
        Quote = C;
      } else if (C == '#') {
        break;
      } else {
        Visit(I, Line, End);
      }
    }
  });
}

// tree-sitter-python rejects starred elements of a bare tuple (`return a,
// *b`, `x = *a, b`, `host, *rest = ...`), valid since Python 3.8: on the rows
// with errors, such a star (outside brackets and strings, after `,`, `=`,
// `return`, `yield` or `in`) becomes a space, so the element is read as the
// iterable it unpacks.
std::string unstarTupleElements(std::string Text, const std::set<uint32_t> &Rows) {
  int Depth = 0;
  scanRows(
      Text, Rows, [&] { Depth = 0; },
      [&](size_t I, size_t Line, size_t End) {
        char C = Text[I];
        if (C == '(' || C == '[' || C == '{') {
          ++Depth;
        } else if (C == ')' || C == ']' || C == '}') {
          --Depth;
        } else if (C == '*' && Depth == 0 && I > Line && I + 1 < End && Text[I + 1] != '*' &&
                   Text[I + 1] != '=' && !std::isspace(static_cast<unsigned char>(Text[I + 1]))) {
          size_t Before = Text.find_last_not_of(" \t", I - 1);
          if (Before == std::string::npos || Before < Line)
            return;
          std::string_view Prefix(Text.data() + Line, Before + 1 - Line);
          auto endsWord = [&](std::string_view W) {
            return Prefix.size() >= W.size() && Prefix.substr(Prefix.size() - W.size()) == W &&
                   (Prefix.size() == W.size() || !std::isalnum(static_cast<unsigned char>(
                                                     Prefix[Prefix.size() - W.size() - 1])));
          };
          char P = Text[Before];
          bool Assign = P == '=' && Before > Line &&
                        std::strchr("=!<>+-*/%&|^@:", Text[Before - 1]) == nullptr;
          if (P == ',' || Assign || endsWord("return") || endsWord("yield") || endsWord("in"))
            Text[I] = ' ';
        }
      });
  return Text;
}

// tree-sitter-python reads a subscripted annotation (`dict[str, int]`) as a
// generic type, after which `or` is an error, though Python evaluates
// `x: dict[str, int] or None = None` like any expression: on the rows with
// errors, such an `or` after a parameter's subscripted annotation becomes `|`
// (a union type, which the grammar reads), in parentheses or on a row of its
// own in a multi-line signature.
std::string unionAnnotationAlternatives(std::string Text, const std::set<uint32_t> &Rows) {
  // Per bracket open on the row: the bracket, and whether an annotation's
  // `:` was seen since the last `,` inside it.
  std::vector<std::pair<char, bool>> Open;
  scanRows(
      Text, Rows,
      [&] {
        Open = {{'(', false}};
      },
      [&](size_t I, size_t, size_t End) {
        char C = Text[I];
        if (C == '(' || C == '[' || C == '{') {
          Open.push_back({C, false});
        } else if (C == ')' || C == ']' || C == '}') {
          if (Open.size() > 1)
            Open.pop_back();
          size_t Or = Text.find_first_not_of(" \t", I + 1);
          if (C == ']' && Open.back().first == '(' && Open.back().second &&
              Or != std::string::npos && Or + 3 < End && Text.compare(Or, 3, "or ") == 0) {
            Text[Or] = '|';
            Text[Or + 1] = ' ';
          }
        } else if (C == ':' && Open.back().first == '(') {
          Open.back().second = true;
        } else if (C == ',' || C == '=') {
          Open.back().second = false;
        }
      });
  return Text;
}

// In an f-string, `{title:=^{width}}` formats `title` centred with `=` as
// the fill (a walrus needs parentheses there), but tree-sitter-python reads
// `:=` as one: on the rows with errors, the `=` right after an
// interpolation's format colon becomes `_`, another fill character.
std::string formatSpecFills(std::string Text, const std::set<uint32_t> &Rows) {
  forEachRow(Text, Rows, [&](size_t Line, size_t End) {
    for (size_t I = Line; I < End; ++I) {
      char Quote = Text[I];
      if (Quote == '#')
        break;
      if (Quote != '\'' && Quote != '"')
        continue;
      size_t Letters = I;
      while (Letters > Line && std::isalpha(static_cast<unsigned char>(Text[Letters - 1])))
        --Letters;
      bool Format = false;
      for (size_t L = Letters; L < I; ++L)
        Format |= Text[L] == 'f' || Text[L] == 'F';
      // Braces open in the interpolation (1: its expression), and brackets
      // open in the expression.
      int Braces = 0, Brackets = 0;
      for (++I; I < End && (Braces > 0 || Text[I] != Quote); ++I) {
        char C = Text[I];
        if (C == '\\' && Braces == 0) {
          ++I;
        } else if (!Format) {
        } else if (C == '{' && Braces == 0 && I + 1 < End && Text[I + 1] == '{') {
          ++I;
        } else if (C == '{' && (Braces == 0 || Brackets == 0)) {
          ++Braces;
          Brackets = 0;
        } else if (C == '}' && Brackets == 0) {
          --Braces;
        } else if (Braces > 0 && (C == '(' || C == '[' || C == '{')) {
          ++Brackets;
        } else if (Braces > 0 && (C == ')' || C == ']' || C == '}')) {
          --Brackets;
        } else if (Braces == 1 && Brackets == 0 && C == ':' && I + 1 < End && Text[I + 1] == '=') {
          Text[I + 1] = '_';
        } else if (Braces > 0 && (C == '\'' || C == '"') && C != Quote) {
          size_t Close = Text.find(C, I + 1);
          I = Close < End ? Close : End;
        }
      }
    }
  });
  return Text;
}

} // namespace

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
  if (std::string Why = notSourceText(S->Text); !Why.empty()) {
    ts_parser_delete(P);
    Error = "not Python source: " + Why +
            "; graphlint did not analyse it (if it is not meant to be "
            "Python, rename it or leave it out of the paths given)";
    return nullptr;
  }
  S->LineStarts.push_back(0);
  for (size_t I = 0; I < S->Text.size(); ++I)
    if (S->Text[I] == '\n')
      S->LineStarts.push_back(I + 1);
  S->Tree = ts_parser_parse_string(P, nullptr, S->Text.data(), S->Text.size());
  // Where the file does not parse, it is read again with the grammar's gaps
  // worked around, each rewrite kept where it leaves fewer errors.
  // An error hides the ones after it on the same statement's way: the
  // rewrite of starred elements runs again on what its last pass left.
  for (auto Rewrite : {blankCommentLines, unstarTupleElements, unstarTupleElements,
                       unstarTupleElements, unionAnnotationAlternatives, formatSpecFills}) {
    if (!S->Tree || !ts_node_has_error(ts_tree_root_node(S->Tree)))
      break;
    std::string Fixed = Rewrite(S->Text, errorRows(ts_tree_root_node(S->Tree)));
    if (Fixed == S->Text)
      continue;
    TSTree *Again = ts_parser_parse_string(P, nullptr, Fixed.data(), Fixed.size());
    if (Again &&
        errorRows(ts_tree_root_node(Again)).size() < errorRows(ts_tree_root_node(S->Tree)).size()) {
      deleteTree(S->Tree);
      S->Tree = Again;
      S->Text = std::move(Fixed);
    } else if (Again) {
      deleteTree(Again);
    }
  }
  // Each pass blanks one statement; a file of nothing but such statements
  // still ends, bounded by its statement count.
  while (S->Tree && S->skipTooDeep(P)) {
  }
  ts_parser_delete(P);
  if (!S->Tree) {
    Error = "the parser gave up on this file";
    return nullptr;
  }
  return S;
}

bool PySource::skipTooDeep(TSParser *P) {
  TSNode Deep{};
  walkWithDepth(ts_tree_root_node(Tree), [&](TSNode N, unsigned Depth) {
    if (Depth > MaxDepth && ts_node_is_null(Deep))
      Deep = N;
    return ts_node_is_null(Deep);
  });
  if (ts_node_is_null(Deep))
    return false;
  // The statement holding it: the ancestor directly in a block or the module.
  TSNode Stmt = Deep;
  for (TSNode Up = parentOf(Stmt); !ts_node_is_null(Up); Up = parentOf(Stmt)) {
    std::string_view K = ts_node_type(Up);
    if (K == "block" || K == "module")
      break;
    Stmt = Up;
  }
  unsigned B = ts_node_start_byte(Stmt), E = ts_node_end_byte(Stmt);
  Skipped.push_back(
      {locAtByte(B),
       fmt::format("this statement nests more than {} levels deep (generated code?), past what "
                   "graphlint analyses: it was skipped, the rest of the file is analysed",
                   MaxDepth)});
  // Same length, same line breaks: every other location stays where it was.
  for (unsigned I = B; I < E; ++I)
    if (Text[I] != '\n' && Text[I] != '\r')
      Text[I] = ' ';
  Text.replace(B, std::min(4u, E - B), std::string("pass").substr(0, std::min(4u, E - B)));
  deleteTree(Tree);
  Tree = ts_parser_parse_string(P, nullptr, Text.data(), Text.size());
  return Tree != nullptr;
}

std::string notSourceText(std::string_view Text) {
  if (auto Nul = Text.find('\0'); Nul != std::string_view::npos)
    return fmt::format("it holds a NUL byte (at byte {}), so it is binary data", Nul);
  // PEP 263: a coding declaration in the first two lines names another encoding.
  size_t SecondLine = Text.find('\n');
  SecondLine = SecondLine == std::string_view::npos ? Text.size() : Text.find('\n', SecondLine + 1);
  if (Text.substr(0, SecondLine).find("coding") != std::string_view::npos)
    return "";
  const auto *U = reinterpret_cast<const unsigned char *>(Text.data());
  for (size_t I = 0, N = Text.size(); I < N;) {
    unsigned Len = U[I] < 0x80           ? 1
                   : (U[I] >> 5) == 0x6  ? 2
                   : (U[I] >> 4) == 0xE  ? 3
                   : (U[I] >> 3) == 0x1E ? 4
                                         : 0;
    bool Ok = Len && I + Len <= N;
    for (unsigned K = 1; Ok && K < Len; ++K)
      Ok = (U[I + K] & 0xC0) == 0x80;
    if (!Ok)
      return fmt::format("byte {} is not UTF-8 and the file declares no other encoding, so "
                         "Python cannot read it either",
                         I);
    I += Len;
  }
  return "";
}

PySource::~PySource() {
  if (Tree)
    deleteTree(Tree);
}

namespace {

// A node of one tree (trees parsed from an edited one share subtrees).
struct FlatKey {
  const void *Tree, *Id;
  bool operator==(const FlatKey &O) const { return Tree == O.Tree && Id == O.Id; }
};
struct FlatKeyHash {
  size_t operator()(const FlatKey &K) const {
    return std::hash<const void *>()(K.Id) ^ (std::hash<const void *>()(K.Tree) << 1);
  }
};
// The bodies one thread walked, dropped together when they grow past
// MaxNodes (a thread reads a module and what it imports at a time).
struct FlatBodies {
  unsigned Generation = 0;
  size_t Nodes = 0;
  std::unordered_map<FlatKey, std::shared_ptr<const std::vector<FlatNode>>, FlatKeyHash> Roots;
  static constexpr size_t MaxNodes = 1 << 17;
};

} // namespace

std::shared_ptr<const std::vector<FlatNode>> flatBody(TSNode Root) {
  if (!is(Root, "block") && !is(Root, "module"))
    return nullptr;
  thread_local FlatBodies Bodies;
  if (treesDeletedSince(Bodies.Generation) || Bodies.Nodes > FlatBodies::MaxNodes) {
    Bodies.Roots.clear();
    Bodies.Nodes = 0;
  }
  auto &Slot = Bodies.Roots[{Root.tree, Root.id}];
  if (Slot)
    return Slot;
  auto Nodes = std::make_shared<std::vector<FlatNode>>();
  // The nodes whose subtree is still open: each one's End is filled in when
  // the cursor leaves it.
  std::vector<uint32_t> Open;
  TSTreeCursor C = ts_tree_cursor_new(Root);
  // Only named nodes are kept, and walk enters neither anonymous nodes nor
  // a nested scope.
  auto enter = [&] {
    TSNode N = ts_tree_cursor_current_node(&C);
    if (!ts_node_is_named(N))
      return false;
    Open.push_back(Nodes->size());
    Nodes->push_back({N, 0, uint32_t(Open.size() - 1)});
    return Open.size() == 1 || !isScope(N);
  };
  bool Descend = enter();
  for (bool Done = false; !Done;) {
    if (Descend && ts_tree_cursor_goto_first_child(&C)) {
      Descend = enter();
      continue;
    }
    // Leaving the current node: closed if it was kept (an anonymous one
    // was not pushed).
    for (bool Kept = ts_node_is_named(ts_tree_cursor_current_node(&C));;) {
      if (Kept) {
        (*Nodes)[Open.back()].End = Nodes->size();
        Open.pop_back();
      }
      if ((Done = Open.empty()))
        break;
      if (ts_tree_cursor_goto_next_sibling(&C)) {
        Descend = enter();
        break;
      }
      ts_tree_cursor_goto_parent(&C);
      Kept = true;
    }
  }
  ts_tree_cursor_delete(&C);
  Bodies.Nodes += Nodes->size();
  Slot = std::move(Nodes);
  return Slot;
}

namespace {

// The nodes from a tree's root down to the parent of the last node one
// thread asked about; emptied when the tree count moves (a later tree may
// take a deleted one's node addresses).
struct LastPath {
  unsigned Generation = 0;
  std::vector<TSNode> Nodes;
};

bool sameNode(TSNode A, TSNode B) { return A.id == B.id && A.tree == B.tree; }

// Down from Path.back() to N, Path growing by each node entered; true when N
// was met (Path.back() is then its parent).
bool descendTo(TSNode N, std::vector<TSNode> &Path) {
  const uint32_t Begin = ts_node_start_byte(N), End = ts_node_end_byte(N);
  TSTreeCursor C = ts_tree_cursor_new(Path.back());
  bool Found = false, Descended = true;
  // The first child ending at or past N's first byte: those before it cannot
  // hold N, and the cursor skips them without making nodes.
  while (!Found && Descended &&
         ts_tree_cursor_goto_first_child_for_byte(&C, Begin ? Begin - 1 : 0) >= 0) {
    Descended = false;
    do {
      TSNode Child = ts_tree_cursor_current_node(&C);
      if ((Found = sameNode(Child, N)) || ts_node_start_byte(Child) > Begin)
        break;
      // A zero-width node holds nothing; one spanning N's bytes holds N if
      // any node there does.
      if (ts_node_end_byte(Child) >= End && ts_node_child_count(Child) > 0 &&
          !(ts_node_start_byte(Child) == ts_node_end_byte(Child) && Begin != End)) {
        Path.push_back(Child);
        Descended = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&C));
  }
  ts_tree_cursor_delete(&C);
  return Found;
}

} // namespace

TSNode parentOf(TSNode N) {
  if (ts_node_is_null(N))
    return N;
  thread_local LastPath Last;
  std::vector<TSNode> &Path = Last.Nodes;
  if (treesDeletedSince(Last.Generation))
    Path.clear();
  // A step up from the last node asked about.
  for (size_t I = Path.size(); I-- > 1;)
    if (sameNode(Path[I], N))
      return Path[I - 1];
  const TSNode Root = ts_tree_root_node(N.tree);
  if (sameNode(Root, N))
    return TSNode{};
  // ts_node_parent searches down from the root on every call, across every
  // statement of the module before N's. The walks ask about nodes near the
  // last one asked, so the search starts from the deepest node of the last
  // path that holds N's bytes.
  size_t Keep = 0;
  if (!Path.empty() && sameNode(Path.front(), Root))
    for (Keep = Path.size(); Keep > 1; --Keep) {
      TSNode P = Path[Keep - 1];
      if (!sameNode(P, N) && ts_node_start_byte(P) <= ts_node_start_byte(N) &&
          ts_node_end_byte(P) >= ts_node_end_byte(N))
        break;
    }
  Path.resize(std::max<size_t>(Keep, 1));
  Path.front() = Root;
  bool Found = descendTo(N, Path);
  if (!Found && Keep > 1) {
    Path.assign(1, Root);
    Found = descendTo(N, Path);
  }
  if (Found)
    return Path.back();
  // Spans the descent cannot tell apart (an empty node beside N):
  // tree-sitter's own search decides those.
  Path.clear();
  return ts_node_parent(N);
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
  // One cursor per thread, reset for each node: a new one allocates its
  // stack, and this is asked of every argument list and parameter list
  // again and again.
  struct Cursor {
    TSTreeCursor C;
    explicit Cursor(TSNode N) : C(ts_tree_cursor_new(N)) {}
    ~Cursor() { ts_tree_cursor_delete(&C); }
  };
  thread_local Cursor Reused(N);
  TSTreeCursor &C = Reused.C;
  ts_tree_cursor_reset(&C, N);
  Out.reserve(ts_node_named_child_count(N));
  if (ts_tree_cursor_goto_first_child(&C))
    do {
      TSNode Child = ts_tree_cursor_current_node(&C);
      if (ts_node_is_named(Child) && !is(Child, "comment"))
        Out.push_back(Child);
    } while (ts_tree_cursor_goto_next_sibling(&C));
  return Out;
}

TSNode unparen(TSNode N) {
  while (is(N, "parenthesized_expression") && ts_node_named_child_count(N) == 1)
    N = ts_node_named_child(N, 0);
  return N;
}

std::string comparisonOperator(const PySource &S, TSNode Comparison) {
  uint32_t Count = ts_node_child_count(Comparison);
  if (!is(Comparison, "comparison_operator") || Count < 3)
    return "";
  std::string Op;
  for (uint32_t I = 1; I + 1 < Count; ++I)
    Op += (Op.empty() ? "" : " ") + std::string(S.text(ts_node_child(Comparison, I)));
  return Op;
}

std::optional<std::string> plainString(const PySource &S, TSNode E) {
  E = unparen(E);
  if (!is(E, "string"))
    return std::nullopt;
  std::string_view T = S.text(E);
  if (T.size() < 2 || T.find('{') != std::string_view::npos || T[0] == 'f' || T[0] == 'F')
    return std::nullopt;
  size_t Q = T.find_first_of("'\"");
  if (Q == std::string_view::npos)
    return std::nullopt;
  char Quote = T[Q];
  size_t Open = T.find_first_not_of(Quote, Q), Close = T.find_last_not_of(Quote);
  if (Open == std::string_view::npos || Close < Open)
    return std::string(); // nothing but quotes: the empty string
  return std::string(T.substr(Open, Close - Open + 1));
}

std::string stringLiteral(const PySource &S, TSNode E) { return plainString(S, E).value_or(""); }

std::optional<StringComparison> stringComparison(const PySource &S, TSNode Cmp) {
  Cmp = unparen(Cmp);
  if (!is(Cmp, "comparison_operator") || ts_node_child_count(Cmp) != 3)
    return std::nullopt;
  const std::string Op = comparisonOperator(S, Cmp);
  TSNode L = unparen(ts_node_child(Cmp, 0)), R = unparen(ts_node_child(Cmp, 2));
  StringComparison Out;
  Out.OneOf = Op == "==" || Op == "in";
  if (Op == "in" || Op == "not in") {
    if (!is(R, "tuple") && !is(R, "list") && !is(R, "set"))
      return std::nullopt;
    for (TSNode E : namedChildren(R)) {
      auto Text = plainString(S, E);
      if (!Text)
        return std::nullopt;
      Out.Texts.push_back(std::move(*Text));
    }
  } else if (Op != "==" && Op != "!=") {
    return std::nullopt;
  } else if (auto Text = plainString(S, R)) {
    Out.Texts.push_back(std::move(*Text));
  } else if (auto Text2 = plainString(S, L)) {
    Out.Texts.push_back(std::move(*Text2));
    std::swap(L, R);
  } else {
    return std::nullopt;
  }
  Out.Subject = L;
  return Out;
}

bool inFailureMessage(TSNode N) {
  for (TSNode Q = N, P = parentOf(N); !ts_node_is_null(P); Q = P, P = parentOf(P)) {
    if (is(P, "raise_statement"))
      return true;
    if (is(P, "assert_statement"))
      return !ts_node_eq(ts_node_named_child(P, 0), Q);
    if (is(P, "block") || is(P, "function_definition") || is(P, "lambda"))
      return false;
  }
  return false;
}

bool onFailurePath(TSNode N) {
  if (inFailureMessage(N))
    return true;
  TSNode Stmt = N, Block = parentOf(N);
  while (!ts_node_is_null(Block) && !is(Block, "block") && !isScope(Block))
    Stmt = Block, Block = parentOf(Block);
  if (ts_node_is_null(Block) || !is(Block, "block"))
    return false;
  // What runs after the statement: plain statements, then the raise.
  bool After = false, Raises = false;
  for (TSNode C : namedChildren(Block)) {
    if (ts_node_eq(C, Stmt)) {
      After = true;
      continue;
    }
    if (!After || is(C, "comment"))
      continue;
    if (is(C, "raise_statement")) {
      Raises = true;
      break;
    }
    if (!is(C, "expression_statement") && !is(C, "pass_statement"))
      return false;
  }
  if (!Raises || (!is(Stmt, "expression_statement") && !is(Stmt, "pass_statement")))
    return false;
  for (TSNode Up = parentOf(Block); !ts_node_is_null(Up) && !isScope(Up); Up = parentOf(Up))
    if (is(Up, "try_statement"))
      return false;
  return true;
}

bool leavesFunction(TSNode Block) {
  uint32_t N = ts_node_named_child_count(Block);
  TSNode Last{};
  while (N > 0 && (ts_node_is_null(Last) || is(Last, "comment")))
    Last = ts_node_named_child(Block, --N);
  if (ts_node_is_null(Last) || is(Last, "comment"))
    return false;
  if (is(Last, "return_statement") || is(Last, "raise_statement"))
    return true;
  // `if c: return a` / `elif d: return b` / `else: return e`: every branch.
  if (!is(Last, "if_statement") || !leavesFunction(field(Last, "consequence")))
    return false;
  bool Else = false;
  for (TSNode C : namedChildren(Last)) {
    if (is(C, "elif_clause") && !leavesFunction(field(C, "consequence")))
      return false;
    if (is(C, "else_clause")) {
      if (!leavesFunction(field(C, "body")))
        return false;
      Else = true;
    }
  }
  return Else;
}

static bool hasElif(TSNode If) {
  for (TSNode C : namedChildren(If))
    if (is(C, "elif_clause"))
      return true;
  return false;
}

void enclosingTests(TSNode N, TSNode Body,
                    const std::function<bool(TSNode Cond, bool Holds)> &Visit) {
  TSNode Cur = N;
  for (int Depth = 0; Depth < 256 && !ts_node_eq(Cur, Body); ++Depth) {
    TSNode Up = parentOf(Cur);
    if (ts_node_is_null(Up))
      return;
    if (is(Up, "if_statement")) {
      if (ts_node_eq(Cur, field(Up, "consequence")) && Visit(field(Up, "condition"), true))
        return;
      if (is(Cur, "else_clause") && !hasElif(Up) && Visit(field(Up, "condition"), false))
        return;
    } else if (is(Up, "elif_clause") && ts_node_eq(Cur, field(Up, "consequence"))) {
      if (Visit(field(Up, "condition"), true))
        return;
    } else if (is(Up, "boolean_operator") && ts_node_eq(Cur, field(Up, "right"))) {
      // `a is not None and a.item()`: the right operand runs when the left
      // held (`and`) or failed (`or`).
      bool And = kind(ts_node_child(Up, 1)) == "and";
      if (Visit(field(Up, "left"), And))
        return;
    } else if (is(Up, "conditional_expression")) {
      // `x.item() if x is not None else 0`
      auto Parts = namedChildren(Up);
      if (Parts.size() == 3 && !ts_node_eq(Cur, Parts[1]) &&
          Visit(Parts[1], ts_node_eq(Cur, Parts[0])))
        return;
    } else if (is(Up, "block")) {
      // `if flag: return` earlier in the block: what follows runs when it did not.
      for (TSNode Before : namedChildren(Up)) {
        if (beginOf(Before) >= beginOf(Cur))
          break;
        if (is(Before, "if_statement") && ts_node_named_child_count(Before) == 2 &&
            leavesFunction(field(Before, "consequence")) &&
            Visit(field(Before, "condition"), false))
          return;
        // `assert cond` earlier in the block: what follows runs when it held.
        if (is(Before, "assert_statement") && Visit(ts_node_named_child(Before, 0), true))
          return;
      }
    }
    Cur = Up;
  }
}

TSNode enclosingFunction(TSNode N) {
  for (TSNode Up = parentOf(N); !ts_node_is_null(Up); Up = parentOf(Up))
    if (is(Up, "function_definition") || is(Up, "lambda"))
      return Up;
  return TSNode{};
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

namespace {

// The key of a dict entry as a view into the source: a plain string literal
// with no escapes; empty otherwise.
std::string_view plainKey(const PySource &S, TSNode Key) {
  if (!is(Key, "string"))
    return {};
  std::string_view Quoted = S.text(Key);
  if (Quoted.empty() || (Quoted[0] != '"' && Quoted[0] != '\''))
    return {}; // f-, b- and r-strings
  TSNode Content{};
  for (TSNode C : namedChildren(Key)) {
    // The grammar marks the quotes as nodes of their own.
    if (is(C, "string_start") || is(C, "string_end"))
      continue;
    if (!is(C, "string_content") || !ts_node_is_null(Content) || ts_node_named_child_count(C))
      return {};
    Content = C;
  }
  return ts_node_is_null(Content) ? std::string_view() : S.text(Content);
}

// The entries of `dict(a=x)` or `{"a": x}`, or false when some key is not
// known from the text (`dict(base, a=x)`, `{**base}`, `{k: v}`).
bool literalEntries(const PySource &S, TSNode E,
                    std::vector<std::pair<std::string_view, TSNode>> &Out) {
  E = unparen(E);
  if (is(E, "call") && S.text(field(E, "function")) == "dict") {
    TSNode List = field(E, "arguments");
    for (TSNode C : namedChildren(List)) {
      if (!is(C, "keyword_argument"))
        return false;
      Out.push_back({S.text(field(C, "name")), field(C, "value")});
    }
    return is(List, "argument_list");
  }
  if (!is(E, "dictionary"))
    return false;
  for (TSNode C : namedChildren(E)) {
    std::string_view Key = is(C, "pair") ? plainKey(S, field(C, "key")) : std::string_view();
    if (Key.empty())
      return false;
    Out.push_back({Key, field(C, "value")});
  }
  return true;
}

bool opensScope(TSNode N) {
  return isAnyOf(N, "function_definition", "lambda", "class_definition", "module");
}

// What `**name` passes when name is bound once, in the scope that holds it,
// to a dict written out, and nothing there changes it or hands it on except
// through `**name` (`kw = dict(q=q, k=k); run(**kw)`): the dict's entries.
bool splatEntriesUncached(const PySource &S, TSNode Name,
                          std::vector<std::pair<std::string_view, TSNode>> &Out);

// splatEntries walks the scopes around Name, and argsOf asks it of the same
// call for every question about its arguments: answers are kept per thread
// until a tree is deleted (a later tree may reuse the node's address).
bool splatEntries(const PySource &S, TSNode Name,
                  std::vector<std::pair<std::string_view, TSNode>> &Out) {
  using Entries = std::vector<std::pair<std::string_view, TSNode>>;
  struct Known {
    unsigned Generation = 0;
    std::unordered_map<FlatKey, std::optional<Entries>, FlatKeyHash> Answers;
  };
  thread_local Known Memo;
  if (treesDeletedSince(Memo.Generation))
    Memo.Answers.clear();
  auto [It, New] = Memo.Answers.try_emplace(FlatKey{Name.tree, Name.id});
  if (New) {
    Entries Found;
    if (splatEntriesUncached(S, Name, Found))
      It->second = std::move(Found);
  }
  if (!It->second)
    return false;
  Out.insert(Out.end(), It->second->begin(), It->second->end());
  return true;
}

bool splatEntriesUncached(const PySource &S, TSNode Name,
                          std::vector<std::pair<std::string_view, TSNode>> &Out) {
  std::string_view Text = S.text(Name);
  for (TSNode Scope = parentOf(Name); !ts_node_is_null(Scope); Scope = parentOf(Scope)) {
    if (!opensScope(Scope))
      continue;
    TSNode Bound{};
    int Bindings = 0;
    bool Escapes = false;
    walk(Scope, [&](TSNode N) {
      if (Escapes)
        return false;
      if (!is(N, "identifier") || S.text(N) != Text)
        return true;
      TSNode Up = parentOf(N);
      switch (dictUse(N, Up, parentOf(Up))) {
      case DictUse::Binds:
        ++Bindings;
        Bound = field(Up, "right");
        break;
      // `**name`, `name=` naming a parameter, reading one entry, and handing
      // it back (nothing here runs after that) leave the dict as written.
      case DictUse::Splats:
      case DictUse::NamesKeyword:
      case DictUse::HandsBack:
      case DictUse::ReadsEntry:
        break;
      // A parameter of that name, a store, a mutation, a hand-over or a
      // binding of another form.
      case DictUse::Unpacks:
      case DictUse::Other:
        Escapes = true;
        break;
      }
      return true;
    });
    if (Bindings == 0 && !Escapes && !is(Scope, "module"))
      continue; // bound further out: a closure
    return !Escapes && Bindings == 1 && literalEntries(S, Bound, Out);
  }
  return false;
}

} // namespace

DictUse dictUse(TSNode N, TSNode Up, TSNode Above) {
  if (is(Up, "assignment") && ts_node_eq(field(Up, "left"), N))
    return DictUse::Binds;
  if ((is(Up, "pattern_list") || is(Up, "tuple_pattern")) && is(Above, "assignment") &&
      ts_node_eq(field(Above, "left"), Up))
    return DictUse::Unpacks;
  if (is(Up, "dictionary_splat"))
    return DictUse::Splats;
  if (is(Up, "keyword_argument") && ts_node_eq(field(Up, "name"), N))
    return DictUse::NamesKeyword;
  if (is(Up, "return_statement") ||
      ((is(Up, "expression_list") || is(Up, "tuple")) && is(Above, "return_statement")))
    return DictUse::HandsBack;
  if (is(Up, "subscript") && ts_node_eq(field(Up, "value"), N) &&
      !(is(Above, "assignment") && ts_node_eq(field(Above, "left"), Up)) &&
      !is(Above, "augmented_assignment") && !is(Above, "delete_statement"))
    return DictUse::ReadsEntry;
  return DictUse::Other;
}

bool declaresName(const PySource &S, TSNode Root, std::string_view Name, bool OrGlobal) {
  bool Declared = false;
  walkWithDepth(Root, [&](TSNode N, unsigned) {
    if (is(N, "nonlocal_statement") || (OrGlobal && is(N, "global_statement")))
      for (TSNode Id : namedChildren(N))
        Declared |= S.text(Id) == Name;
    return !Declared;
  });
  return Declared;
}

bool keywordEntries(const PySource &S, TSNode E,
                    std::vector<std::pair<std::string_view, TSNode>> &Out) {
  E = unparen(E);
  return is(E, "identifier") ? splatEntries(S, E, Out) : literalEntries(S, E, Out);
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
    if (is(C, "keyword_argument")) {
      A.Keywords.push_back({S.text(field(C, "name")), field(C, "value")});
      continue;
    }
    std::vector<std::pair<std::string_view, TSNode>> Entries;
    TSNode Splatted = is(C, "dictionary_splat") ? ts_node_named_child(C, 0) : TSNode{};
    if (!ts_node_is_null(Splatted) && keywordEntries(S, Splatted, Entries))
      A.Keywords.insert(A.Keywords.end(), Entries.begin(), Entries.end());
    else
      A.Positional.push_back(C);
  }
  return A;
}

} // namespace graphsafe::lint::py
