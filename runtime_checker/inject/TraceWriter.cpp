#include "TraceWriter.h"

#include <unistd.h>

namespace graphsafe::inject {

TraceWriter &trace() {
  static TraceWriter W;
  return W;
}

bool TraceWriter::open(const std::string &Dir) {
  std::lock_guard<std::mutex> L(M);
  std::string Path = Dir + "/trace-" + std::to_string(::getpid()) + ".jsonl";
  F = std::fopen(Path.c_str(), "w");
  return F != nullptr;
}

void TraceWriter::write(const std::string &Line) {
  std::lock_guard<std::mutex> L(M);
  if (!F)
    return;
  std::fputs(Line.c_str(), F);
  std::fputc('\n', F);
  std::fflush(F);
}

void TraceWriter::close() {
  std::lock_guard<std::mutex> L(M);
  if (F) {
    std::fputs("{\"ev\":\"end\"}\n", F);
    std::fclose(F);
    F = nullptr;
  }
}

} // namespace graphsafe::inject
