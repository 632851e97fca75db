// Appends events to this process's trace file, one JSON line each. The file
// is mapped into memory and lines are copied into the mapping: the kernel
// keeps those pages whatever becomes of the process, so a crash of the target
// (a signal, abort, even SIGKILL) still leaves everything up to the crash, at
// the cost of a copy rather than a system call per line.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace graphsafe::inject {

class TraceWriter {
public:
  bool open(const std::string &Dir);
  void write(std::string_view JsonLine);
  // Kernel names and paths are not always UTF-8; a bad byte is replaced
  // rather than thrown inside the program.
  void writeEvent(const nlohmann::json &Event);
  // Writes the end marker and cuts the file to what was written.
  void close();

  // A trace left by a process that never closed it ends in zero bytes, the
  // part of the mapping it never reached: readers drop them.
  static constexpr char Unwritten = '\0';

private:
  // pytest names the running test in PYTEST_CURRENT_TEST (setting it with
  // os.environ, which the C environment sees). Each event is preceded by a
  // `test` event when that changed since the last one, so findings can name
  // the test that made them without a hook in the program.
  void noteTestLocked();
  void appendLocked(std::string_view Line);
  // Makes room for Bytes more; false when the file cannot grow, and then
  // writing goes on through write(2).
  bool reserveLocked(size_t Bytes);
  // Lets go of the mapping and cuts the file to what was written.
  void unmapLocked();
  // A forked child (a DataLoader worker) shares the parent's file and
  // mapping: it writes nothing, as it runs no CUDA work of its own.
  static void forgetInChild();

  std::mutex M;
  int Fd = -1;
  char *Map = nullptr;
  size_t Mapped = 0, Used = 0;
  std::atomic<bool> InChild{false};
  std::string Test;
};

TraceWriter &trace();

} // namespace graphsafe::inject
