// The hazard engine over recorded traces (testdata/runtime/*.jsonl). Each
// trace names the findings it must produce in `# expect: rule-id` lines; a
// trace with none is a clean negative.
#include "HazardEngine.h"
#include "Symbolizer.h"

#include <dlfcn.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace graphsafe;

namespace {

RuleSet bundledRules() {
  std::vector<RuleError> Errors;
  return loadRules({GRAPHSAFE_RULES}, Errors);
}

std::vector<std::string> traceNames() {
  std::vector<std::string> Out;
  for (const auto &E : fs::directory_iterator(std::string(GRAPHSAFE_TESTDATA) + "/runtime"))
    if (E.path().extension() == ".jsonl")
      Out.push_back(E.path().stem().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::vector<Finding> run(const std::string &Path, std::vector<std::string> *Expected = nullptr) {
  std::ifstream In(Path);
  std::string Line;
  std::stringstream Body;
  while (std::getline(In, Line)) {
    if (Expected && Line.rfind("# expect: ", 0) == 0)
      Expected->push_back(Line.substr(10));
    Body << Line << "\n";
  }
  std::vector<rt::TraceError> Errors;
  auto Events = rt::readTrace(Body, Errors);
  EXPECT_TRUE(Errors.empty()) << Path << ":" << Errors.front().Line << ": "
                              << Errors.front().Message;
  static RuleSet Rules = bundledRules();
  rt::HazardEngine Engine(Rules);
  for (const auto &E : Events)
    Engine.feed(E);
  return Engine.findings();
}

class RuntimeTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(RuntimeTrace, FindingsMatchExpectations) {
  std::vector<std::string> Expected;
  auto Findings =
      run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/" + GetParam() + ".jsonl", &Expected);
  std::vector<std::string> Got;
  for (const auto &F : Findings)
    Got.push_back(F.RuleId);
  std::sort(Got.begin(), Got.end());
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(Got, Expected);
}

INSTANTIATE_TEST_SUITE_P(Testdata, RuntimeTrace, ::testing::ValuesIn(traceNames()));

TEST(HazardEngine, GradAliasFindingNamesParamGraphKernelAndBuffer) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/accumulation_bug.jsonl");
  ASSERT_EQ(F.size(), 2u); // weight.grad and bias.grad, once each.
  const Finding &W = F[0].Message.find("weight.grad") != std::string::npos ? F[0] : F[1];
  EXPECT_EQ(W.Level, Severity::Error);
  ASSERT_TRUE(W.Runtime);
  EXPECT_EQ(W.Runtime->Graph, "bwd");
  EXPECT_EQ(W.Runtime->Kernel, "gemm_wgrad");
  EXPECT_NE(W.Message.find("weight.grad"), std::string::npos) << W.Message;
  EXPECT_NE(W.Runtime->Buffer.find("0x7f0000400000"), std::string::npos);
  EXPECT_EQ(W.Loc.File, "train.py");
  EXPECT_EQ(W.Loc.Line, 14u);
  // The graph is named by where its capture began.
  auto Site = std::find_if(W.Notes.begin(), W.Notes.end(), [](const Note &N) {
    return N.Message == "graph bwd was captured here";
  });
  ASSERT_NE(Site, W.Notes.end());
  EXPECT_EQ(Site->Loc.Line, 8u);
}

TEST(HazardEngine, StaleReadNamesWhereTheTensorWasHandedOut) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/retained_output.jsonl");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].RuleId, "read-after-overwrite");
  EXPECT_EQ(F[0].Loc.Line, 9u); // The read.
  ASSERT_TRUE(F[0].Runtime);
  EXPECT_EQ(F[0].Runtime->Graph, "fwd");
  auto Out = std::find_if(F[0].Notes.begin(), F[0].Notes.end(), [](const Note &N) {
    return N.Message.find("out#1 was handed out here") == 0;
  });
  ASSERT_NE(Out, F[0].Notes.end());
  EXPECT_EQ(Out->Loc.Line, 7u);
}

TEST(HazardEngine, NoLostWriteAcrossAStretchOfUnwatchedLaunches) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/eager_write_then_unobserved.jsonl");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].RuleId, "eager-write-lost-at-replay");
  // The add before the gap may have been read unseen; the mul after it was not.
  EXPECT_NE(F[0].Message.find("'mul_'"), std::string::npos) << F[0].Message;
  EXPECT_EQ(F[0].Message.find("'add_'"), std::string::npos) << F[0].Message;
}

TEST(HazardEngine, DotMarksTheFlaggedNodesAndBuffer) {
  std::ifstream In(std::string(GRAPHSAFE_TESTDATA) + "/runtime/accumulation_bug.jsonl");
  std::vector<rt::TraceError> Errors;
  auto Events = rt::readTrace(In, Errors);
  RuleSet Rules = bundledRules();
  rt::HazardEngine Engine(Rules);
  for (const auto &E : Events)
    Engine.feed(E);
  std::string Dot = Engine.dot("bwd");
  EXPECT_NE(Dot.find("\"n0\" [shape=box, label=\"0: gemm_wgrad\", color=red"), std::string::npos)
      << Dot;
  EXPECT_NE(Dot.find("\"n1\" [shape=box, label=\"1: reduce_bgrad\", color=red"), std::string::npos)
      << Dot;
  EXPECT_NE(Dot.find("[0x7f0000400000, 0x7f0000600000)\", color=red"), std::string::npos) << Dot;
  EXPECT_EQ(Engine.dot("fwd").find("color=red"), std::string::npos) << "fwd has no finding";
  EXPECT_EQ(Engine.dot("nope"), "");
}

TEST(HazardEngine, SyncInCaptureNamesTheLine) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/item_in_capture.jsonl");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Loc.File, "train.py");
  EXPECT_EQ(F[0].Loc.Line, 21u);
  EXPECT_NE(F[0].Message.find("cudaStreamSynchronize"), std::string::npos);
}

TEST(HazardEngine, FreedBlockFindingNamesNodeBlockAndFreeSite) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/block_rebound_static_input.jsonl");
  ASSERT_EQ(F.size(), 1u); // One per graph and block, not one per node or replay.
  EXPECT_EQ(F[0].RuleId, "graph-uses-freed-memory");
  ASSERT_TRUE(F[0].Runtime.has_value());
  EXPECT_EQ(F[0].Runtime->Graph, "g0");
  EXPECT_EQ(F[0].Runtime->Node, "0");
  EXPECT_EQ(F[0].Runtime->Buffer, "[0x7f0000000000, 0x7f0000002000) (8192 bytes)");
  EXPECT_EQ(F[0].Loc.File, "train.py"); // Where the block was freed.
  EXPECT_EQ(F[0].Loc.Line, 21u);
  EXPECT_NE(F[0].Message.find("2 node(s)"), std::string::npos) << F[0].Message;
  EXPECT_NE(F[0].Message.find("3 replay(s)"), std::string::npos) << F[0].Message;
  EXPECT_NE(F[0].Fix.find("copy_"), std::string::npos);
}

TEST(HazardEngine, FreedGradFindingNamesTheParameter) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/block_zero_grad_frees_grads.jsonl");
  ASSERT_EQ(F.size(), 2u);
  std::vector<std::string> Buffers;
  for (const auto &X : F) {
    EXPECT_EQ(X.Loc.Line, 25u);
    EXPECT_NE(X.Fix.find("set_to_none=False"), std::string::npos);
    Buffers.push_back(X.Runtime->Node + " " + X.Runtime->Buffer);
  }
  std::sort(Buffers.begin(), Buffers.end());
  EXPECT_EQ(Buffers[0], "5 [0x7f0000001000, 0x7f0000002000) (4096 bytes) = 0.weight.grad");
  EXPECT_EQ(Buffers[1], "6 [0x7f0000002000, 0x7f0000002200) (512 bytes) = 0.bias.grad");
}

TEST(TraceFormat, MalformedLinesAreReportedAndSkipped) {
  std::stringstream In(
      "{\"ev\":\"alloc\",\"addr\":\"0x10\",\"size\":16}\nnot json\n{\"ev\":\"teleport\"}\n");
  std::vector<rt::TraceError> Errors;
  auto Events = rt::readTrace(In, Errors);
  EXPECT_EQ(Events.size(), 1u);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(Errors[0].Line, 2u);
  EXPECT_EQ(Errors[1].Line, 3u);
  EXPECT_NE(Errors[1].Message.find("teleport"), std::string::npos);
}

TEST(TraceFormat, TheZeroBytesACrashLeavesAreNoLines) {
  // A process killed mid-run leaves its mapped trace file at the mapping's
  // size: the lines it wrote, then zero bytes, possibly after half a line.
  std::string Body = "{\"ev\":\"alloc\",\"addr\":\"0x10\",\"size\":16}\n";
  Body += std::string(4096, '\0');
  std::stringstream Whole(Body);
  std::vector<rt::TraceError> Errors;
  EXPECT_EQ(rt::readTrace(Whole, Errors).size(), 1u);
  EXPECT_TRUE(Errors.empty());
  std::stringstream Cut(Body.substr(0, Body.find('\n') + 1) + "{\"ev\":\"al" +
                        std::string(100, '\0'));
  EXPECT_EQ(rt::readTrace(Cut, Errors).size(), 1u);
  ASSERT_EQ(Errors.size(), 1u); // the half line, as a write cut by the crash always was
  EXPECT_EQ(Errors[0].Line, 2u);
}

TEST(TraceFormat, WrittenEventsReadBack) {
  rt::Event E;
  E.K = rt::Event::Kind::GraphExec;
  E.Graph = "g";
  E.Exec = "g#0";
  E.Nodes.push_back({"3", "gemm", {0x7f0000000000ull, 0x7f0000000100ull}, {}});
  std::stringstream SS;
  rt::writeEvent(SS, E);
  std::vector<rt::TraceError> Errors;
  auto Back = rt::readTrace(SS, Errors);
  ASSERT_EQ(Back.size(), 1u);
  EXPECT_EQ(Back[0].Exec, "g#0");
  ASSERT_EQ(Back[0].Nodes.size(), 1u);
  EXPECT_EQ(Back[0].Nodes[0].Pointers[1], 0x7f0000000100ull);
}

TEST(TraceFormat, WritesRoundTrip) {
  rt::Event E;
  E.K = rt::Event::Kind::ExecWrites;
  E.Exec = "x";
  E.Nodes.push_back({"1", "", {}, {{0x1000, 0x1200}}});
  std::stringstream SS;
  rt::writeEvent(SS, E);
  std::vector<rt::TraceError> Errors;
  auto Back = rt::readTrace(SS, Errors);
  ASSERT_EQ(Back.size(), 1u);
  ASSERT_EQ(Back[0].Nodes.at(0).Writes.size(), 1u);
  EXPECT_EQ(Back[0].Nodes[0].Writes[0].End, 0x1200u);
}

// A function whose address the symbolizer test resolves; kept out of line.
__attribute__((noinline)) int symbolizerTarget(int X) { return X * 3 + 1; }

TEST(Symbolizer, NativeFramesBecomeFileLineFunction) {
  Dl_info Info;
  ASSERT_TRUE(dladdr(reinterpret_cast<void *>(&symbolizerTarget), &Info));
  auto Offset =
      reinterpret_cast<uintptr_t>(&symbolizerTarget) - reinterpret_cast<uintptr_t>(Info.dli_fbase);
  char Frame[4096];
  std::snprintf(Frame, sizeof Frame, "native:%s+0x%lx symbolizerTarget(int)", Info.dli_fname,
                static_cast<unsigned long>(Offset));
  std::vector<rt::Event> Events(1);
  Events[0].Stack = {Frame, "native:/no/such/lib.so+0x10 f()", "train.py:3 <module>"};
  rt::symbolizeNativeFrames(Events);
  // Built with -g (tests/CMakeLists.txt): the frame resolves to this file.
  EXPECT_NE(Events[0].Stack[0].find("HazardEngineTest.cpp:"), std::string::npos)
      << Events[0].Stack[0];
  EXPECT_NE(Events[0].Stack[0].find("symbolizerTarget"), std::string::npos);
  // A module that cannot be read keeps its name, offset and symbol.
  EXPECT_EQ(Events[0].Stack[1], "lib.so+0x10 f()");
  EXPECT_EQ(Events[0].Stack[2], "train.py:3 <module>");
}

// A return address inside a function inlined into its caller.
__attribute__((noinline)) void *returnAddress() { return __builtin_return_address(0); }
constexpr unsigned HelperLine = __LINE__ + 2;
static inline __attribute__((always_inline)) void *inlinedHelper() {
  void *R = returnAddress();
  asm volatile("" ::: "memory"); // Not a tail call: the return address stays in the caller.
  return R;
}
constexpr unsigned CallerLine = __LINE__ + 1;
__attribute__((noinline)) void *outerCaller() { return inlinedHelper(); }

TEST(Symbolizer, InlinedFramesExpandToTheirCallers) {
  void *Ret = outerCaller();
  Dl_info Info;
  ASSERT_TRUE(dladdr(Ret, &Info));
  auto Offset = reinterpret_cast<uintptr_t>(Ret) - 1 - reinterpret_cast<uintptr_t>(Info.dli_fbase);
  char Frame[4096];
  std::snprintf(Frame, sizeof Frame, "native:%s+0x%lx ?", Info.dli_fname,
                static_cast<unsigned long>(Offset));
  std::vector<rt::Event> Events(1);
  Events[0].Stack = {Frame};
  rt::symbolizeNativeFrames(Events);
  // Innermost first: the inlined helper's line, then the line it was inlined at.
  ASSERT_EQ(Events[0].Stack.size(), 2u);
  EXPECT_NE(Events[0].Stack[0].find("HazardEngineTest.cpp:" + std::to_string(HelperLine) + " "),
            std::string::npos)
      << Events[0].Stack[0];
  EXPECT_NE(Events[0].Stack[1].find("HazardEngineTest.cpp:" + std::to_string(CallerLine) + " "),
            std::string::npos)
      << Events[0].Stack[1];
}

} // namespace

TEST(HazardEngine, ReplayRaceNamesBothGraphsStreamsAndTheSharedSegment) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/replay_race_shared_pool.jsonl");
  ASSERT_EQ(F.size(), 1u); // Both steps race; one finding per pair of graphs.
  const Finding &R = F[0];
  EXPECT_EQ(R.RuleId, "replay-race-shared-pool");
  for (const char *Part : {"graph g2 on stream 0x6002", "graph g1 on stream 0x6001", "seg-pool"})
    EXPECT_NE(R.Message.find(Part), std::string::npos) << Part << " in: " << R.Message;
  EXPECT_EQ(R.Loc.Line, 22u); // The second replay's line.
  auto Said = [&](const std::string &What) {
    return std::any_of(R.Notes.begin(), R.Notes.end(),
                       [&](const Note &N) { return N.Message.find(What) != std::string::npos; });
  };
  EXPECT_TRUE(Said("graph g1 was replayed here, on stream 0x6001"));
  EXPECT_TRUE(Said("graph g1 was captured here"));
  EXPECT_TRUE(Said("graph g2 was captured here"));
}

TEST(HazardEngine, PoolDataflowNamesReaderProducerOverwriterAndTheFree) {
  auto F = run(std::string(GRAPHSAFE_TESTDATA) + "/runtime/pool_intermediate_out_of_order.jsonl");
  ASSERT_EQ(F.size(), 1u); // Two steps out of order; one finding per three graphs.
  const Finding &R = F[0];
  EXPECT_EQ(R.RuleId, "replay-input-overwritten");
  ASSERT_TRUE(R.Runtime);
  EXPECT_EQ(R.Runtime->Graph, "g1");
  EXPECT_EQ(R.Runtime->Kernel, "sigmoid");
  for (const char *Part : {"replay 1 of graph g1", "graph g0 produced", "replay 1 of graph g2",
                           "freed during the capture of g1 (at train.py:15)"})
    EXPECT_NE(R.Message.find(Part), std::string::npos) << Part << " in: " << R.Message;
  EXPECT_EQ(R.Loc.Line, 23u); // The reader's replay.
  auto NoteAt = [&](const std::string &What) {
    for (const Note &N : R.Notes)
      if (N.Message.find(What) != std::string::npos)
        return N.Loc.Line;
    return 0u;
  };
  EXPECT_EQ(NoteAt("graph g0 (which produced the data) was captured here"), 10u);
  EXPECT_EQ(NoteAt("graph g2 (which overwrote it) was captured here"), 17u);
  EXPECT_EQ(NoteAt("freed here"), 15u);
  EXPECT_EQ(NoteAt("graph g2 was replayed here"), 22u);
}

TEST(HazardEngine, FindingsNameTheTestThatMadeThemAndEveryTestIsListed) {
  std::ifstream In(std::string(GRAPHSAFE_TESTDATA) + "/runtime/pytest_findings_per_test.jsonl");
  std::vector<rt::TraceError> Errors;
  auto Events = rt::readTrace(In, Errors);
  ASSERT_TRUE(Errors.empty());
  RuleSet Rules = bundledRules();
  rt::HazardEngine Engine(Rules);
  for (const auto &E : Events)
    Engine.feed(E);
  std::vector<std::string> Tests;
  for (const Finding &F : Engine.findings())
    Tests.push_back(F.RuleId + " @ " + F.Test);
  EXPECT_EQ(Tests, (std::vector<std::string>{
                       "sync-during-capture @ tests/test_graphs.py::test_sync",
                       "sync-during-capture @ tests/test_graphs.py::test_sync_again[cpu-first]",
                       "replay-input-overwritten @ tests/test_graphs.py::TestPools::test_pool"}));
  EXPECT_EQ(Engine.tests(),
            (std::vector<std::string>{"tests/test_graphs.py::test_sync",
                                      "tests/test_graphs.py::test_sync_again[cpu-first]",
                                      "tests/test_graphs.py::TestPools::test_clean",
                                      "tests/test_graphs.py::TestPools::test_pool"}));
  // Captured in the fixture's setup of the same test: no "in test" aside.
  const Finding &Pool = Engine.findings().back();
  EXPECT_TRUE(std::any_of(Pool.Notes.begin(), Pool.Notes.end(),
                          [](const Note &N) { return N.Message == "graph p1 was captured here"; }));
}
