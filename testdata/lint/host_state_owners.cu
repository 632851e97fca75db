// host-state-mutation asks whose object a store changes. A method writing its
// own fields, or a function writing through a reference or pointer parameter,
// changes what its caller handed it: host state only where that object
// outlives the call. A helper made on a kernel's stack, a size handed back
// into a local, an object a constructor is building, and a cache a kernel
// refills when its key (the input shape) changes are not state replays should
// advance. The same code handed a member of a long-lived object is reported.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void fill(float *x, size_t n, int step) {
  if (threadIdx.x < n)
    x[threadIdx.x] = step;
}

// A pinned staging buffer a kernel makes on its stack for one call.
struct AsyncBuffer {
  float *host = nullptr;
  size_t count = 0;
  size_t capacity = 0;
  int uploads = 0;
  AsyncBuffer() = default;
  explicit AsyncBuffer(size_t n) { reserve(n); }
  void reserve(size_t n) { capacity = n; }
  void clear(float *dev, cudaStream_t s) { cudaMemsetAsync(dev, 0, capacity, s); }
  void upload(float *dev, size_t n, cudaStream_t s) {
    count = n;
    cudaMemcpyAsync(dev, host, count * sizeof(float), cudaMemcpyHostToDevice, s);
    note();
  }
  void note() { ++uploads; }
};

// The same buffer kept by a long-lived object: each replay skips its update.
struct Stager {
  float *host = nullptr;
  size_t count = 0;
  size_t capacity = 0;
  int uploads = 0;
  void reserve(size_t n) { capacity = n; }                      // expected-warning {{host-state-mutation}}
  void clear(float *dev, cudaStream_t s) { cudaMemsetAsync(dev, 0, capacity, s); }
  void upload(float *dev, size_t n, cudaStream_t s) {
    count = n;                                                  // expected-warning {{host-state-mutation}}
    cudaMemcpyAsync(dev, host, count * sizeof(float), cudaMemcpyHostToDevice, s);
    note();
  }
  void note() { ++uploads; }                                    // expected-warning {{host-state-mutation}}
};

// Advances an offset the caller keeps, handed by reference: a local here...
void copyPart(float *dev, const float *src, int &offset, int n, cudaStream_t s) {
  cudaMemcpyAsync(dev, src + offset, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
  offset += n;
}
// ...and a member of the model there.
void advancePart(float *dev, const float *src, int *offset, int n, cudaStream_t s) {
  cudaMemcpyAsync(dev, src + *offset, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
  *offset += n;                                                 // expected-warning {{host-state-mutation}}
}

// Built under the capture: its constructor fills the object it is making.
struct DivMod {
  unsigned d = 1, l = 0;
  explicit DivMod(unsigned by) {
    d = by == 0 ? 1 : by;
    for (l = 0; l < 32; l++)
      if ((1u << l) >= d)
        break;
  }
};

struct ConvState {
  size_t last_n = 0;
  float *y = nullptr;
  size_t y_n = 0;
};

struct Conv {
  ConvState s_;
  size_t last_m_ = 0;
  size_t m_n_ = 0;
  float *scratch_ = nullptr;

  // Keeps s_ in step with the input size: both branches refill the cache.
  void update(float *out, size_t n) {
    if (s_.last_n != n) {
      s_.last_n = n;
      s_.y = out;
      s_.y_n = n;
    } else {
      s_.y = out;
    }
  }
  // The key a member of the object itself.
  void resize(size_t m, float *out) {
    bool changed = last_m_ != m;
    if (changed) {
      last_m_ = m;
      m_n_ = m;
      scratch_ = out;
    }
  }
  // Not a cache: the branch tests no cached key.
  void retarget(float *out, size_t n) {
    if (n > 0)
      s_.y = out;                                               // expected-warning {{host-state-mutation}}
  }
  void compute(cudaStream_t s) {
    fill<<<1, 32, 0, s>>>(s_.y, s_.y_n, 0);
    fill<<<1, 32, 0, s>>>(scratch_, m_n_, 0);
  }
};

DivMod g_div(1);

struct Model {
  Stager staged;
  int cursor = 0;
  Conv conv;

  // Reached from the capture below.
  void forward(float *dev, const float *src, float *out, size_t n, cudaStream_t s) {
    AsyncBuffer local;
    local.upload(dev, n, s);
    AsyncBuffer sized(n);
    sized.clear(dev, s);
    int offset = 0;
    copyPart(dev, src, offset, 8, s);
    copyPart(dev, src, offset, 8, s);
    DivMod by(static_cast<unsigned>(n));
    fill<<<1, 32, 0, s>>>(dev, by.d, by.l);
    conv.update(out, n);
    conv.resize(n, out);
    conv.compute(s);

    staged.upload(dev, n, s);
    staged.reserve(n);
    staged.clear(dev, s);
    advancePart(dev, src, &cursor, 8, s);
    conv.retarget(out, n);
    g_div = DivMod(static_cast<unsigned>(n));                   // expected-warning {{host-state-mutation}}
    fill<<<1, 32, 0, s>>>(dev, g_div.d, 0);
  }
};

// A local of the function that captures lives on through the replays that
// follow: its update, made once at capture, is what they miss.
struct StepCounter {
  int value = 0;
  void advance() { ++value; }                                   // expected-warning {{host-state-mutation}}
};

void trainLoop(float *dev, size_t n, cudaStream_t s) {
  StepCounter steps;
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  steps.advance();
  fill<<<1, 32, 0, s>>>(dev, n, steps.value);                 // expected-warning {{host-scalar-baked}}
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  for (int i = 0; i < 10; ++i)
    cudaGraphLaunch(exec, s);
}

void step(Model &m, float *dev, const float *src, float *out, cudaStream_t s) {
  cudaGraph_t g;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  m.forward(dev, src, out, 64, s);
  cudaStreamEndCapture(s, &g);
}
