// walk and walkWithParents step through laid-out bodies (PyParser.cpp
// flatBody) where the root is a function, class or module body: they must
// visit exactly what a tree cursor would, skip what Visit declines, and never
// hand out nodes of a tree that was deleted.
#include "python/PyParser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace graphsafe::lint::py;

namespace {

const char *const Source = R"py(import torch

class Block(torch.nn.Module):
    scale = 2

    def forward(self, x, *, flag: dict[str, int] or None = None):
        def inner(y):
            return [z * 2 for z in y if z]
        f = lambda a: a + 1
        if flag:
            x = f(x) + inner([x, x])[0]
        return {"k": x.sum(), "s": "call(x)"}

def run(block, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = block(x)
    return y
)py";

std::unique_ptr<PySource> parse(const std::string &Text) {
  std::string Error;
  auto S = PySource::parse("walk.py", Text, Error);
  EXPECT_TRUE(S) << Error;
  return S;
}

// What walk visits, by a cursor alone: named nodes in source order, nested
// scopes visited but not entered, children skipped where Visit says so.
template <typename Fn> void cursorWalk(TSNode Root, Fn &&Visit) {
  walkWithDepth(Root, [&](TSNode N, unsigned Depth) {
    return ts_node_is_named(N) && Visit(N) && (Depth == 0 || !isScope(N));
  });
}

// Every block and the module: the roots walks are asked about.
std::vector<TSNode> bodies(const PySource &S) {
  std::vector<TSNode> Out;
  walkWithDepth(S.root(), [&](TSNode N, unsigned) {
    if (is(N, "block") || is(N, "module"))
      Out.push_back(N);
    return true;
  });
  return Out;
}

std::vector<std::string> visited(const PySource &S, TSNode Root, bool Flat, bool SkipCalls) {
  std::vector<std::string> Out;
  auto Visit = [&](TSNode N) {
    Out.push_back(std::string(kind(N)) + ":" + std::string(S.text(N)));
    return !(SkipCalls && is(N, "call"));
  };
  if (Flat)
    walk(Root, Visit);
  else
    cursorWalk(Root, Visit);
  return Out;
}

TEST(PyWalk, LaidOutBodiesVisitWhatACursorVisits) {
  auto S = parse(Source);
  ASSERT_TRUE(S);
  auto Roots = bodies(*S);
  ASSERT_GE(Roots.size(), 5u);
  for (TSNode Root : Roots)
    for (bool SkipCalls : {false, true}) {
      // Twice: the second walk reads the kept layout.
      for (int Round = 0; Round < 2; ++Round)
        EXPECT_EQ(visited(*S, Root, true, SkipCalls), visited(*S, Root, false, SkipCalls))
            << kind(Root) << " at row " << ts_node_start_point(Root).row;
    }
}

TEST(PyWalk, ParentsAreTheTreesParents) {
  auto S = parse(Source);
  ASSERT_TRUE(S);
  for (TSNode Root : bodies(*S)) {
    size_t Count = 0;
    walkWithParents(Root, [&](TSNode N, TSNode Up, TSNode UpUp) {
      TSNode Parent = ts_node_parent(N);
      EXPECT_TRUE(ts_node_eq(Up, Parent)) << S->text(N);
      if (!ts_node_is_null(Parent))
        EXPECT_TRUE(ts_node_eq(UpUp, ts_node_parent(Parent))) << S->text(N);
      ++Count;
      return true;
    });
    std::vector<std::string> Cursor;
    cursorWalk(Root, [&](TSNode) {
      Cursor.emplace_back();
      return true;
    });
    EXPECT_EQ(Count, Cursor.size());
  }
}

TEST(PyWalk, ANewTreeIsNotReadThroughAnOldOnesLayout) {
  // The same text parsed again after the first tree is gone may reuse its
  // memory; the walk must see the new tree's nodes and text.
  std::vector<std::string> First;
  {
    auto S = parse("x = 1\ny = f(x)\n");
    ASSERT_TRUE(S);
    First = visited(*S, S->root(), true, false);
  }
  auto T = parse("a = g(b, c)\n");
  ASSERT_TRUE(T);
  EXPECT_EQ(visited(*T, T->root(), true, false), visited(*T, T->root(), false, false));
  EXPECT_NE(visited(*T, T->root(), true, false), First);
}

TEST(PyWalk, EachLiteralIsLookedUpOncePerThread) {
  // Literals sit bytes apart, and the walks ask hundreds of them in turn:
  // every answer must be kept (a table that let them evict each other made
  // most kind questions scans of the grammar's names again).
  static const char Packed[1500] = {};
  int Asked = 0;
  auto Lookup = [&](const char *L) {
    ++Asked;
    return static_cast<int>(L - Packed);
  };
  for (int Round = 0; Round < 3; ++Round)
    for (int I = 0; I < 1500; ++I)
      ASSERT_EQ(byLiteralAddress(Packed + I, Lookup), I);
  EXPECT_EQ(Asked, 1500);
}

TEST(PyWalk, KindNumbersAnswerAsKindNames) {
  // Broken input too, so that error nodes are among those asked about.
  auto S = parse(std::string(Source) + "def broken(:\n    return )\n");
  ASSERT_TRUE(S);
  std::vector<TSNode> Nodes;
  std::vector<TSNode> Todo = {S->root()};
  while (!Todo.empty()) {
    TSNode N = Todo.back();
    Todo.pop_back();
    Nodes.push_back(N);
    for (uint32_t I = 0; I < ts_node_child_count(N); ++I)
      Todo.push_back(ts_node_child(N, I));
  }
  int Errors = 0;
  for (TSNode N : Nodes) {
    const std::string_view Name = kind(N);
    EXPECT_EQ(nodeKindId(N), kindId(Name)) << Name;
    EXPECT_EQ(is(N, "call"), Name == "call");
    EXPECT_EQ(is(N, "identifier"), Name == "identifier");
    EXPECT_EQ(is(N, "string"), Name == "string");
    EXPECT_EQ(is(N, "ERROR"), Name == "ERROR");
    EXPECT_EQ(isAnyOf(N, "lambda", "block", "with_statement"),
              Name == "lambda" || Name == "block" || Name == "with_statement");
    Errors += Name == "ERROR";
  }
  EXPECT_GT(Errors, 0);
  EXPECT_EQ(kindId("no_such_kind"), -1);
}

} // namespace
