// Entry points for test_released_thread_stack.py: calls through ctypes.CDLL
// let the GIL go, as PyTorch does before a storage dies, and then ask for the
// caller's Python frames the way the allocator tracker does.
#include "HostStack.h"

#include <chrono>
#include <string>
#include <thread>

namespace gi = graphsafe::inject;

// {"stack": [...], "ms": how long the read took}: timed here, since the
// caller cannot look at a clock before it has the GIL back.
extern "C" const char *probe_released_stack(int WaitMs, int SleepFirstMs) {
  static thread_local std::string Out;
  std::this_thread::sleep_for(std::chrono::milliseconds(SleepFirstMs));
  auto Start = std::chrono::steady_clock::now();
  nlohmann::json Stack = gi::pythonStackOfReleasedThread(std::chrono::milliseconds(WaitMs));
  std::chrono::duration<double, std::milli> Took = std::chrono::steady_clock::now() - Start;
  Out = nlohmann::json{{"stack", Stack}, {"ms", Took.count()}}.dump();
  return Out.c_str();
}

// Called through ctypes.PyDLL: keeps the GIL while it sleeps.
extern "C" void probe_hold_gil(int Ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(Ms));
}
