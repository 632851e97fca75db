// Appends events to this process's trace file, one JSON line each, flushed as
// written so a crash of the target still leaves everything up to the crash.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>
#include <string>

namespace graphsafe::inject {

class TraceWriter {
public:
  bool open(const std::string &Dir);
  void write(const std::string &JsonLine);
  // Kernel names and paths are not always UTF-8; a bad byte is replaced
  // rather than thrown inside the program.
  void writeEvent(const nlohmann::json &Event);
  void close();

private:
  // pytest names the running test in PYTEST_CURRENT_TEST (setting it with
  // os.environ, which the C environment sees). Each event is preceded by a
  // `test` event when that changed since the last one, so findings can name
  // the test that made them without a hook in the program.
  void noteTestLocked();

  std::mutex M;
  FILE *F = nullptr;
  std::string Test;
};

TraceWriter &trace();

} // namespace graphsafe::inject
