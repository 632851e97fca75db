// Appends events to this process's trace file, one JSON line each, flushed as
// written so a crash of the target still leaves everything up to the crash.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

namespace graphsafe::inject {

class TraceWriter {
public:
  bool open(const std::string &Dir);
  void write(const std::string &JsonLine);
  void close();

private:
  std::mutex M;
  FILE *F = nullptr;
};

TraceWriter &trace();

} // namespace graphsafe::inject
