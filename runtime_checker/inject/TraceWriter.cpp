#include "TraceWriter.h"

#include "SelfTime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace graphsafe::inject {

namespace {
// Grown by at least this much at a time: a remap per few seconds of a busy
// trace at most. Unwritten space costs no disk (the file is sparse) and is cut
// off at close.
constexpr size_t Growth = size_t(16) << 20;
} // namespace

TraceWriter &trace() {
  static auto *W = new TraceWriter; // Never destroyed: written to until exit.
  return *W;
}

void TraceWriter::forgetInChild() {
  // Nothing else is touched: the lock may have been held by another thread
  // of the parent at the fork, and the file and its mapping are the parent's.
  trace().InChild.store(true, std::memory_order_relaxed);
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
  Fd = ::open(Path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return false;
  Used = 0; // A writer opened again after close starts a new file.
  if (this == &trace()) {
    static std::once_flag AtFork;
    std::call_once(AtFork, [] { pthread_atfork(nullptr, nullptr, forgetInChild); });
  }
  reserveLocked(Growth);
  return true;
}

bool TraceWriter::reserveLocked(size_t Bytes) {
  if (Map && Used + Bytes <= Mapped)
    return true;
  size_t Want = Mapped + std::max(Growth, Used + Bytes - Mapped);
  if (::ftruncate(Fd, static_cast<off_t>(Want)) != 0) {
    unmapLocked();
    return false;
  }
  void *P = Map ? ::mremap(Map, Mapped, Want, MREMAP_MAYMOVE)
                : ::mmap(nullptr, Want, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  if (P == MAP_FAILED) {
    unmapLocked();
    return false;
  }
  Map = static_cast<char *>(P);
  Mapped = Want;
  return true;
}

void TraceWriter::unmapLocked() {
  // What is written stays; any line after it goes through write(2).
  if (Map)
    ::munmap(Map, Mapped);
  Map = nullptr;
  Mapped = 0;
  if (::ftruncate(Fd, static_cast<off_t>(Used)) == 0)
    ::lseek(Fd, static_cast<off_t>(Used), SEEK_SET);
}

void TraceWriter::appendLocked(std::string_view Line) {
  if (reserveLocked(Line.size() + 1)) {
    std::memcpy(Map + Used, Line.data(), Line.size());
    Map[Used + Line.size()] = '\n';
    Used += Line.size() + 1;
    return;
  }
  std::string Whole(Line);
  Whole += '\n';
  for (size_t Done = 0; Done < Whole.size();) {
    ssize_t N = ::write(Fd, Whole.data() + Done, Whole.size() - Done);
    if (N <= 0)
      return;
    Done += static_cast<size_t>(N);
  }
  Used += Whole.size();
}

void TraceWriter::write(std::string_view Line) {
  SelfTimer Timed(SelfTimed::TraceWrites);
  if (InChild.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> L(M);
  if (Fd < 0)
    return;
  noteTestLocked();
  appendLocked(Line);
}

void TraceWriter::noteTestLocked() {
  const char *Now = std::getenv("PYTEST_CURRENT_TEST");
  if (Test == (Now ? Now : ""))
    return;
  Test = Now ? Now : "";
  appendLocked(nlohmann::json{{"ev", "test"}, {"name", Test}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void TraceWriter::writeEvent(const nlohmann::json &Event) {
  write(Event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void TraceWriter::close() {
  if (InChild.load(std::memory_order_relaxed))
    return; // A child's exit must not cut the parent's file.
  std::lock_guard<std::mutex> L(M);
  if (Fd < 0)
    return;
  appendLocked("{\"ev\":\"end\"}");
  // Cut to what was written; should that fail, readers drop the zero bytes
  // after the end marker.
  unmapLocked();
  ::close(Fd);
  Fd = -1;
}

} // namespace graphsafe::inject
