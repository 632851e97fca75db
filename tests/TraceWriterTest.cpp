// The trace names the pytest test running when each event happened: a `test`
// event precedes the first event after PYTEST_CURRENT_TEST changed.
#include "TraceWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using graphsafe::inject::TraceWriter;

TEST(TraceWriter, EventsArePrecededByTheTestRunningWhenItChanged) {
  fs::path Dir = fs::temp_directory_path() / ("graphsafe-trace-" + std::to_string(::getpid()));
  fs::create_directories(Dir);
  unsetenv("RANK");
  unsetenv("PYTEST_CURRENT_TEST");
  TraceWriter W;
  ASSERT_TRUE(W.open(Dir.string()));
  W.writeEvent({{"ev", "checker_start"}});
  setenv("PYTEST_CURRENT_TEST", "tests/test_a.py::test_b (call)", 1);
  W.writeEvent({{"ev", "launch"}});
  W.writeEvent({{"ev", "launch"}});
  unsetenv("PYTEST_CURRENT_TEST");
  W.writeEvent({{"ev", "launch"}});
  W.close();
  std::vector<std::string> Got;
  std::ifstream In(Dir / ("trace-" + std::to_string(::getpid()) + ".jsonl"));
  for (std::string Line; std::getline(In, Line);) {
    auto J = nlohmann::json::parse(Line);
    Got.push_back(J["ev"].get<std::string>() +
                  (J.contains("name") ? " " + J["name"].get<std::string>() : ""));
  }
  fs::remove_all(Dir);
  EXPECT_EQ(Got, (std::vector<std::string>{"checker_start", "test tests/test_a.py::test_b (call)",
                                           "launch", "launch", "test ", "launch", "end"}));
}

namespace {

struct TraceDir {
  fs::path Dir = fs::temp_directory_path() / ("graphsafe-trace-" + std::to_string(::getpid()));
  TraceDir() {
    fs::create_directories(Dir);
    unsetenv("RANK");
    unsetenv("PYTEST_CURRENT_TEST");
  }
  ~TraceDir() { fs::remove_all(Dir); }
  std::string bytes() const {
    std::ifstream In(Dir / ("trace-" + std::to_string(::getpid()) + ".jsonl"), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(In), {});
  }
};

std::vector<std::string> lines(const std::string &Bytes) {
  std::vector<std::string> Out;
  for (size_t At = 0, End; (End = Bytes.find('\n', At)) != std::string::npos; At = End + 1)
    Out.push_back(nlohmann::json::parse(Bytes.substr(At, End - At))["ev"].get<std::string>());
  return Out;
}

} // namespace

TEST(TraceWriter, ATraceNeverClosedHoldsEveryLineWrittenThenZeroBytes) {
  // What a crash leaves: the file is read while the writer still has it.
  TraceDir T;
  TraceWriter W;
  ASSERT_TRUE(W.open(T.Dir.string()));
  W.writeEvent({{"ev", "checker_start"}});
  W.writeEvent({{"ev", "launch"}});
  std::string Left = T.bytes();
  size_t Last = Left.rfind('\n');
  ASSERT_NE(Last, std::string::npos);
  EXPECT_EQ(lines(Left), (std::vector<std::string>{"checker_start", "launch"}));
  EXPECT_EQ(Left.find_first_not_of(TraceWriter::Unwritten, Last + 1), std::string::npos);
  W.close(); // Cut to what was written.
  std::string Closed = T.bytes();
  EXPECT_EQ(Closed.size(), Closed.rfind('\n') + 1);
  EXPECT_EQ(lines(Closed), (std::vector<std::string>{"checker_start", "launch", "end"}));
}

TEST(TraceWriter, GrowsPastItsFirstMappingWithoutLosingALine) {
  TraceDir T;
  TraceWriter W;
  ASSERT_TRUE(W.open(T.Dir.string()));
  const std::string Pad(200, 'x');
  const unsigned Count = 120000; // about 27 MB: more than one growth step
  for (unsigned I = 0; I < Count; ++I)
    W.writeEvent({{"ev", "launch"}, {"i", I}, {"pad", Pad}});
  W.close();
  std::string Bytes = T.bytes();
  std::vector<std::string> Got = lines(Bytes);
  ASSERT_EQ(Got.size(), Count + 1);
  EXPECT_EQ(Got.back(), "end");
  size_t Middle = Bytes.find("\"i\":77777,");
  EXPECT_NE(Middle, std::string::npos);
}

TEST(TraceWriter, AForkedChildLeavesTheParentsTraceAlone) {
  TraceDir T;
  ASSERT_TRUE(graphsafe::inject::trace().open(T.Dir.string()));
  graphsafe::inject::trace().writeEvent({{"ev", "checker_start"}});
  pid_t Child = ::fork();
  ASSERT_NE(Child, -1);
  if (Child == 0) { // A DataLoader worker: it shares the mapping.
    graphsafe::inject::trace().writeEvent({{"ev", "launch"}});
    graphsafe::inject::trace().close();
    ::_exit(0);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  graphsafe::inject::trace().writeEvent({{"ev", "graph_launch"}});
  graphsafe::inject::trace().close();
  EXPECT_EQ(lines(T.bytes()), (std::vector<std::string>{"checker_start", "graph_launch", "end"}));
}

TEST(TraceWriter, AWriterOpenedAgainAfterCloseStartsAFreshFile) {
  TraceDir T;
  TraceWriter W;
  ASSERT_TRUE(W.open(T.Dir.string()));
  W.writeEvent({{"ev", "checker_start"}});
  W.close();
  ASSERT_TRUE(W.open(T.Dir.string()));
  W.writeEvent({{"ev", "launch"}});
  W.close();
  std::string Bytes = T.bytes();
  EXPECT_EQ(Bytes.find(TraceWriter::Unwritten), std::string::npos);
  EXPECT_EQ(lines(Bytes), (std::vector<std::string>{"launch", "end"}));
}
