// Python frames of a thread that let the GIL go, read by a helper thread.
//
// PyTorch releases the GIL before a tensor's storage goes back to the caching
// allocator, so the allocator's callbacks run on a Python thread that cannot
// read its own frames without taking the GIL again, and must not: they run
// under the allocator's lock, which the GIL's holder may be waiting for. A
// helper thread, holding no lock, takes the GIL and reads the waiting
// thread's frames (the way sys._current_frames reads other threads'), while
// the waiting thread gives it a bounded time. Frames of a thread blocked in C
// do not change, and a thread state cannot go away while the helper holds the
// GIL, so what is read is the line that freed the tensor.
#include "HostStack.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace graphsafe::inject {

namespace {

// After this many requests go unanswered, the program is one whose GIL is
// busy elsewhere when it frees graph memory: stop making it wait.
constexpr int MaxTimeouts = 8;

struct Reader {
  std::mutex M;
  std::condition_variable Cv;
  // Asked != Answered while a request waits or is served (the helper maybe
  // waiting for the GIL); the helper serves one at a time.
  uint64_t Asked = 0;    // Id of the latest request.
  uint64_t Answered = 0; // Id of the latest request the helper finished.
  void *ThreadState = nullptr;
  nlohmann::json Answer;
  int Timeouts = 0;
  bool Started = false;
};

// Never destroyed: the helper may still wait on it while the process exits.
// A forked child (a DataLoader worker) has no helper and maybe a lock held by
// a thread that did not come along: it starts over with a fresh reader.
Reader *Current = [] {
  pthread_atfork(nullptr, nullptr, [] { Current = new Reader; });
  return new Reader;
}();

bool finalizing() {
  static auto Is = pythonSymbol<int (*)()>("Py_IsFinalizing");
  static auto IsOld = pythonSymbol<int (*)()>("_Py_IsFinalizing");
  return (Is && Is()) || (IsOld && IsOld());
}

// Whether TState is still a thread of the interpreter (with the GIL held).
bool liveThreadState(void *TState) {
  static auto Head = pythonSymbol<void *(*)()>("PyInterpreterState_Head");
  static auto Next = pythonSymbol<void *(*)(void *)>("PyInterpreterState_Next");
  static auto ThreadHead = pythonSymbol<void *(*)(void *)>("PyInterpreterState_ThreadHead");
  static auto ThreadNext = pythonSymbol<void *(*)(void *)>("PyThreadState_Next");
  if (!Head || !Next || !ThreadHead || !ThreadNext)
    return false;
  for (void *I = Head(); I; I = Next(I))
    for (void *T = ThreadHead(I); T; T = ThreadNext(T))
      if (T == TState)
        return true;
  return false;
}

nlohmann::json readFrames(void *TState) {
  static auto Ensure = pythonSymbol<int (*)()>("PyGILState_Ensure");
  static auto Release = pythonSymbol<void (*)(int)>("PyGILState_Release");
  static auto GetFrame = pythonSymbol<void *(*)(void *)>("PyThreadState_GetFrame");
  static auto GcDisable = pythonSymbol<int (*)()>("PyGC_Disable");
  static auto GcEnable = pythonSymbol<int (*)()>("PyGC_Enable");
  if (!Ensure || !Release || !GetFrame || !pythonRunning() || finalizing())
    return nlohmann::json::array();
  int State = Ensure();
  // A collection started here could free a tensor, and its storage would
  // wait for the allocator's lock that the asking thread holds.
  int GcWasOn = GcDisable ? GcDisable() : 0;
  nlohmann::json Out = nlohmann::json::array();
  if (liveThreadState(TState))
    Out = pythonFramesFrom(GetFrame(TState), /*FrameOwned=*/true);
  if (GcWasOn && GcEnable)
    GcEnable();
  Release(State);
  return Out;
}

void helperLoop(Reader &R) {
  std::unique_lock<std::mutex> L(R.M);
  for (;;) {
    R.Cv.wait(L, [&R] { return R.Asked != R.Answered; });
    uint64_t Id = R.Asked;
    void *TState = R.ThreadState;
    L.unlock();
    nlohmann::json Frames = readFrames(TState);
    L.lock();
    R.Answered = Id;
    R.Answer = std::move(Frames);
    R.Cv.notify_all();
  }
}

} // namespace

nlohmann::json pythonStackOfReleasedThread(std::chrono::milliseconds Wait) {
  static auto ThisThreadState = pythonSymbol<void *(*)()>("PyGILState_GetThisThreadState");
  static auto Check = pythonSymbol<int (*)()>("PyGILState_Check");
  if (!ThisThreadState || !Check || !pythonRunning() || Check())
    return nlohmann::json::array();
  void *TState = ThisThreadState();
  if (!TState)
    return nlohmann::json::array(); // Not a Python thread: it has no Python frames.
  Reader &R = *Current;
  std::unique_lock<std::mutex> L(R.M);
  // A helper still waiting for the GIL on an older request means the GIL is
  // held elsewhere: asking again would only wait out the time as well.
  if (R.Asked != R.Answered || R.Timeouts >= MaxTimeouts)
    return nlohmann::json::array();
  if (!R.Started) {
    std::thread(helperLoop, std::ref(R)).detach();
    R.Started = true;
  }
  uint64_t Id = ++R.Asked;
  R.ThreadState = TState;
  R.Cv.notify_all();
  if (!R.Cv.wait_for(L, Wait, [&R, Id] { return R.Answered == Id; })) {
    ++R.Timeouts;
    return nlohmann::json::array();
  }
  return std::move(R.Answer);
}

} // namespace graphsafe::inject
