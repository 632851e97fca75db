// The trace names the pytest test running when each event happened: a `test`
// event precedes the first event after PYTEST_CURRENT_TEST changed.
#include "TraceWriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
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
