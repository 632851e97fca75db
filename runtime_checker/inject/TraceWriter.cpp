#include "TraceWriter.h"

#include "SelfTime.h"

#include <cstdlib>
#include <unistd.h>

namespace graphsafe::inject {

TraceWriter &trace() {
  static auto *W = new TraceWriter; // Never destroyed: written to until exit.
  return *W;
}

bool TraceWriter::open(const std::string &Dir) {
  std::lock_guard<std::mutex> L(M);
  // torchrun and other launchers say which rank a process is.
  std::string Name = std::to_string(::getpid());
  for (const char *Var : {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"})
    if (const char *R = std::getenv(Var); R && *R) {
      Name = "rank" + std::string(R) + "-" + Name;
      break;
    }
  std::string Path = Dir + "/trace-" + Name + ".jsonl";
  F = std::fopen(Path.c_str(), "w");
  return F != nullptr;
}

void TraceWriter::write(const std::string &Line) {
  SelfTimer Timed(SelfTimed::TraceWrites);
  std::lock_guard<std::mutex> L(M);
  if (!F)
    return;
  noteTestLocked();
  std::fputs(Line.c_str(), F);
  std::fputc('\n', F);
  std::fflush(F);
}

void TraceWriter::noteTestLocked() {
  const char *Now = std::getenv("PYTEST_CURRENT_TEST");
  if (Test == (Now ? Now : ""))
    return;
  Test = Now ? Now : "";
  std::string Line = nlohmann::json{{"ev", "test"}, {"name", Test}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::fputs(Line.c_str(), F);
  std::fputc('\n', F);
}

void TraceWriter::writeEvent(const nlohmann::json &Event) {
  write(Event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
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
