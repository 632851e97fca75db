// host-state-mutation, host-io-in-capture, host-scalar-baked.
#include "lint_prelude.h"

#include <chrono>

static int g_captures = 0;

struct Trainer {
  at::cuda::CUDAGraph graph;
  at::Tensor static_in, static_out;
  std::vector<float> history;
  double lr = 0.1;
  int step = 0;
  bool debug = false, quiet = false;

  void capture() {
    c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    int local_before = 0;
    graph.capture_begin();
    static_out = static_in * 2;                       // Rebinding tensor handles is how outputs are kept.
    std::vector<at::Tensor> outs;
    outs.push_back(static_out);
    int64_t rows = static_in.size(0);                 // Locals that shape the work are fine.
    ++step;                                           // expected-warning {{host-state-mutation}}
    lr *= 0.99;                                       // expected-warning {{host-state-mutation}}
    history.push_back(1.0f);                          // expected-warning {{host-state-mutation}}
    g_captures += 1;                                  // expected-warning {{host-state-mutation}}
    local_before = 3;                                 // A local: nothing changes it between replays.
    for (int i = 0; i < 3; ++i)
      static_out.add_(1);
    auto t0 = std::chrono::steady_clock::now();       // expected-warning {{host-io-in-capture}}
    std::printf("capturing\n");                       // expected-warning {{host-io-in-capture}}
    std::cout << "rows " << rows << "\n";             // expected-warning {{host-io-in-capture}}
    if (debug && !quiet)                              // A boolean switch: diagnostics on demand.
      std::printf("debug: rows %lld\n", (long long)rows);
    if (step % 10 == 0)                               // A test of a value is no switch.
      std::printf("step %d\n", step);                // expected-warning {{host-io-in-capture}}
    static_out.mul_(lr);                              // expected-warning {{host-scalar-baked}}
    graph.capture_end();
  }

  void schedule() { lr = lr * 0.5; }
};

// Reads of host values that never change after capture are fine; so is
// host work around replay.
struct StableTrainer {
  at::cuda::CUDAGraph graph;
  at::Tensor static_in, static_out;
  double scale = 2.0;
  int replays = 0;

  void capture() {
    c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
    graph.capture_begin();
    static_out = static_in * scale;
    graph.capture_end();
  }
  void run() {
    graph.replay();
    ++replays;
    std::printf("replayed %d\n", replays);
  }
};
