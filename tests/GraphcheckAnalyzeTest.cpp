// `graphcheck analyze` on crafted traces, without a GPU: what a trace holds
// (graph names, module paths, offsets) is data, never a command or a path
// outside the --dot folder.
#include "Events.h"
#include "Symbolizer.h"

#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
namespace rt = graphsafe::rt;

namespace {

std::string tempDir() {
  std::string T = (fs::temp_directory_path() / "graphcheck-test-XXXXXX").string();
  return ::mkdtemp(T.data());
}

std::string readAll(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

void replaceAll(std::string &S, const std::string &From, const std::string &To) {
  for (size_t P = 0; (P = S.find(From, P)) != std::string::npos; P += To.size())
    S.replace(P, From.size(), To);
}

// Found by fuzzing: a size too large for 64 bits (a float in JSON) was
// converted with undefined behaviour; it is a malformed event.
TEST(TraceReader, SizesThatAreNotByteCountsAreMalformedEvents) {
  std::istringstream In("{\"ev\":\"alloc\",\"alloc\":\"a\",\"addr\":\"0x10\",\"size\":2e131}\n"
                        "{\"ev\":\"alloc\",\"alloc\":\"b\",\"addr\":\"0x10\",\"size\":-4}\n"
                        "{\"ev\":\"alloc\",\"alloc\":\"c\",\"addr\":\"0x10\",\"size\":64}\n");
  std::vector<rt::TraceError> Errors;
  auto Events = rt::readTrace(In, Errors);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(Errors[0].Line, 1u);
  EXPECT_NE(Errors[0].Message.find("non-negative integer"), std::string::npos);
  EXPECT_EQ(Errors[1].Line, 2u);
  ASSERT_EQ(Events.size(), 1u);
  EXPECT_EQ(Events[0].Size, 64u);
}

TEST(SymbolizerSecurity, OffsetsFromATraceAreNeverShellText) {
  std::string Dir = tempDir();
  std::string Marker = Dir + "/ran";
  std::vector<rt::Event> Events(1);
  // /bin/sh exists, so the module is read; the offset carries a command.
  Events[0].Stack = {"native:/bin/sh+0x1;touch${IFS}" + Marker + " f()",
                     "native:/bin/sh+0x1$(touch${IFS}" + Marker + ") g()"};
  rt::symbolizeNativeFrames(Events);
  EXPECT_FALSE(fs::exists(Marker));
  ASSERT_EQ(Events[0].Stack.size(), 2u);
  EXPECT_EQ(Events[0].Stack[0], "sh+0x1;touch${IFS}" + Marker + " f()");
  fs::remove_all(Dir);
}

TEST(GraphcheckAnalyze, GraphNamesNeitherRunCommandsNorEscapeTheDotFolder) {
  std::string Dir = tempDir();
  std::string Marker = Dir + "/ran";
  std::string Trace =
      readAll(std::string(GRAPHSAFE_TESTDATA) + "/runtime/freed_static_input.jsonl");
  replaceAll(Trace, "\"graph\":\"fwd\"",
             "\"graph\":\"../../fwd';touch ${IFS}" + Marker + ";'$(touch " + Marker + ")\"");
  std::ofstream(Dir + "/trace.jsonl") << Trace << "{\"ev\":\"end\"}\n";
  fs::create_directories(Dir + "/dots");
  // A stand-in graphviz, so the DOT-to-SVG step runs here too.
  fs::create_directories(Dir + "/bin");
  std::ofstream(Dir + "/bin/dot") << "#!/bin/sh\nexit 0\n";
  fs::permissions(Dir + "/bin/dot", fs::perms::owner_all);
  std::string Cmd = "PATH=" + Dir + "/bin:$PATH " + std::string(GRAPHCHECK_BIN) + " analyze " +
                    Dir + "/trace.jsonl --dot " + Dir + "/dots --format json -o " + Dir +
                    "/report.json";
  int Status = std::system(Cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 1); // The trace's finding is still reported.
  EXPECT_FALSE(fs::exists(Marker));
  std::vector<std::string> Written;
  for (const auto &E : fs::recursive_directory_iterator(Dir))
    if (E.is_regular_file())
      Written.push_back(fs::relative(E.path(), Dir).string());
  std::sort(Written.begin(), Written.end());
  ASSERT_GE(Written.size(), 3u);
  for (const auto &W : Written)
    EXPECT_TRUE(W == "trace.jsonl" || W == "report.json" || W == "bin/dot" ||
                W.rfind("dots/trace-", 0) == 0)
        << W;
  EXPECT_NE(readAll(Dir + "/report.json").find("graph-uses-freed-memory"), std::string::npos);
  fs::remove_all(Dir);
}

// CI jobs upload -o whatever happened: with nothing observed (no CUDA use
// here; no GPU or no CUPTI elsewhere) the file still exists, valid, empty of
// results, with a notification saying why; the exit code is the program's.
TEST(GraphcheckRun, ReportIsWrittenWhenNothingCouldBeObserved) {
  std::string Dir = tempDir();
  std::string Sarif = Dir + "/report.sarif";
  int Status = std::system((std::string(GRAPHCHECK_BIN) + " run --format sarif -o " + Sarif +
                            " -- sh -c 'exit 3' 2>/dev/null")
                               .c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 3);
  ASSERT_TRUE(fs::exists(Sarif));
  auto J = nlohmann::json::parse(readAll(Sarif));
  const auto &Run = J["runs"][0];
  EXPECT_TRUE(Run["results"].empty());
  EXPECT_FALSE(Run["invocations"][0]["executionSuccessful"].get<bool>());
  ASSERT_FALSE(Run["invocations"][0]["toolExecutionNotifications"].empty());
  EXPECT_NE(Run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
                .get<std::string>()
                .find("nothing was checked"),
            std::string::npos);
  fs::remove_all(Dir);
}

// A target that crashes: graphcheck exits with its status (128 + signal, as
// a shell does) and the report, still written, says how the program ended.
TEST(GraphcheckRun, CrashedTargetIsNamedInTheReportAndItsStatusKept) {
  std::string Dir = tempDir();
  std::string Json = Dir + "/report.json";
  int Status = std::system((std::string(GRAPHCHECK_BIN) + " run --format json -o " + Json +
                            " -- sh -c 'kill -SEGV $$' 2>/dev/null")
                               .c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 128 + SIGSEGV);
  auto J = nlohmann::json::parse(readAll(Json));
  EXPECT_FALSE(J["complete"].get<bool>());
  bool Named = false;
  for (const auto &E : J["errors"])
    Named |= E["message"].get<std::string>().find("killed by signal 11") != std::string::npos;
  EXPECT_TRUE(Named) << J["errors"].dump();
  fs::remove_all(Dir);
}

// A launcher stopping the run (torchrun ending the other ranks once one has
// failed, a CI timeout) signals graphcheck: the program gets the signal and
// ends, and the report is still written, saying so. Before, graphcheck died
// at once, leaving no report and the program running.
TEST(GraphcheckRun, TerminatingGraphcheckEndsTheProgramAndKeepsTheReport) {
  std::string Dir = tempDir();
  std::string Json = Dir + "/report.json";
  std::string Script = std::string(GRAPHCHECK_BIN) + " run --format json -o " + Json +
                       " -- sleep 60 2>/dev/null & sleep 1; kill -TERM $!; wait $!";
  auto Start = std::chrono::steady_clock::now();
  int Status = std::system(Script.c_str());
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(30));
  EXPECT_EQ(WEXITSTATUS(Status), 128 + SIGTERM);
  ASSERT_TRUE(fs::exists(Json));
  auto J = nlohmann::json::parse(readAll(Json));
  EXPECT_FALSE(J["complete"].get<bool>());
  EXPECT_NE(J["errors"].dump().find("killed by signal 15"), std::string::npos) << J.dump();
  fs::remove_all(Dir);
}

// torchrun ranks leave one trace each: one report, the same hazard once,
// naming every rank that hit it; a hazard of one rank names that rank.
TEST(GraphcheckAnalyze, SeveralTracesGiveOneReportNamingTheRanks) {
  std::string Dir = tempDir();
  std::string Src = std::string(GRAPHSAFE_TESTDATA) + "/runtime/";
  fs::copy_file(Src + "accumulation_bug.jsonl", Dir + "/trace-rank0-100.jsonl");
  fs::copy_file(Src + "accumulation_bug.jsonl", Dir + "/trace-rank1-101.jsonl");
  fs::copy_file(Src + "freed_static_input.jsonl", Dir + "/trace-rank1-102.jsonl");
  // These fixtures stop where their story ends; the ranks here exit cleanly.
  for (const char *T :
       {"/trace-rank0-100.jsonl", "/trace-rank1-101.jsonl", "/trace-rank1-102.jsonl"})
    std::ofstream(Dir + T, std::ios::app) << "{\"ev\":\"end\"}\n";
  std::string Json = Dir + "/report.json";
  int Status = std::system((std::string(GRAPHCHECK_BIN) + " analyze --format json -o " + Json +
                            " " + Dir + "/trace-rank0-100.jsonl " + Dir +
                            "/trace-rank1-101.jsonl " + Dir + "/trace-rank1-102.jsonl")
                               .c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 1);
  auto J = nlohmann::json::parse(readAll(Json));
  std::map<std::string, std::vector<std::string>> Ranks;
  for (const auto &F : J["findings"])
    for (const auto &P : F["processes"])
      Ranks[F["rule"].get<std::string>()].push_back(P.get<std::string>());
  // accumulation_bug.jsonl holds two grad findings (weight and bias).
  EXPECT_EQ(Ranks["grad-aliases-graph-buffer"],
            (std::vector<std::string>{"rank 0", "rank 1", "rank 0", "rank 1"}));
  EXPECT_EQ(Ranks["graph-uses-freed-memory"], (std::vector<std::string>{"rank 1"}));
  fs::remove_all(Dir);
}

// A freed-static-input trace that ends with the checker's event Ev (message
// Message, at train.py:42): the report must keep its finding, stay complete
// and carry the event as one warning at that line.
void expectWarningAtItsLine(const std::string &Ev, const std::string &Message) {
  std::string Dir = tempDir();
  std::string Trace =
      readAll(std::string(GRAPHSAFE_TESTDATA) + "/runtime/freed_static_input.jsonl");
  Trace +=
      nlohmann::json{{"ev", Ev}, {"stack", {"train.py:42 main"}}, {"message", Message}}.dump() +
      "\n{\"ev\":\"end\"}\n";
  std::ofstream(Dir + "/trace.jsonl") << Trace;
  std::string Json = Dir + "/report.json";
  int Status = std::system((std::string(GRAPHCHECK_BIN) + " analyze --format json -o " + Json +
                            " " + Dir + "/trace.jsonl")
                               .c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 1);
  auto J = nlohmann::json::parse(readAll(Json));
  EXPECT_TRUE(J["complete"].get<bool>());
  EXPECT_TRUE(J["errors"].empty());
  ASSERT_EQ(J["warnings"].size(), 1u) << J.dump();
  EXPECT_EQ(J["warnings"][0]["where"], "train.py:42 main");
  EXPECT_EQ(J["warnings"][0]["message"], Message);
  EXPECT_EQ(J["findings"][0]["rule"], "graph-uses-freed-memory");
  fs::remove_all(Dir);
}

// torch.profiler started mid-run took CUPTI: the findings from before stay,
// and the report says, at the user's line, that checking stopped there.
TEST(GraphcheckAnalyze, HandingCuptiToAProfilerIsSaidAtItsLine) {
  expectWarningAtItsLine("checker_yield", "torch.profiler starts here");
}

// CUPTI that could not be handed over: the check went on to the end, so the
// report is complete and its finding stands; the warning says the profile lost.
TEST(GraphcheckAnalyze, CuptiNotHandedOverIsAWarningAndTheCheckGoesOn) {
  expectWarningAtItsLine("checker_warning", "could not hand CUPTI over");
}

// A profiler that set CUDA_INJECTION64_PATH keeps it: graphcheck says so in
// one line, the program runs unchanged, the report says nothing was checked.
TEST(GraphcheckRun, AnotherInjectionLibraryIsLeftInPlace) {
  std::string Dir = tempDir();
  std::string Json = Dir + "/report.json";
  std::string Cmd = "CUDA_INJECTION64_PATH=/opt/profiler/libinject.so " +
                    std::string(GRAPHCHECK_BIN) + " run --format json -o " + Json +
                    " -- sh -c 'echo $CUDA_INJECTION64_PATH > " + Dir + "/seen' 2>" + Dir +
                    "/stderr";
  int Status = std::system(Cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(Status), 0);
  EXPECT_EQ(readAll(Dir + "/seen"), "/opt/profiler/libinject.so\n");
  std::string Err = readAll(Dir + "/stderr");
  if (Err.find("injection library was not built") != std::string::npos)
    GTEST_SKIP() << "built without CUPTI: no injection library to leave out";
  EXPECT_NE(Err.find("CUDA_INJECTION64_PATH already names /opt/profiler/libinject.so"),
            std::string::npos)
      << Err;
  auto J = nlohmann::json::parse(readAll(Json));
  EXPECT_TRUE(J["findings"].empty());
  EXPECT_NE(J["errors"].dump().find("another injection library"), std::string::npos);
  fs::remove_all(Dir);
}

// torchrun running graphcheck once per rank: each rank keeps its own report.
TEST(GraphcheckRun, EachRankOfALauncherWritesItsOwnReport) {
  std::string Dir = tempDir();
  std::string Json = Dir + "/report.json";
  for (const char *Rank : {"0", "1"}) {
    int Status = std::system(("RANK=" + std::string(Rank) + " " + GRAPHCHECK_BIN +
                              " run --format json -o " + Json + " -- true 2>/dev/null")
                                 .c_str());
    EXPECT_EQ(WEXITSTATUS(Status), 0);
  }
  EXPECT_FALSE(fs::exists(Json));
  EXPECT_TRUE(fs::exists(Json + ".rank0"));
  EXPECT_TRUE(fs::exists(Json + ".rank1"));
  fs::remove_all(Dir);
}

} // namespace
