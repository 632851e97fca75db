// host-state-mutation where a change between replays matters, and quiet where
// it cannot: locals and node parameters built on the host, objects just made with
// new, handles handed back through out-parameters, and the bookkeeping of pools
// and caches that captured code reaches. A value GPU work takes (a kernel argument) and that
// reached code advances is still reported, and so is a counter bumped by one
// (a step or call counter the program expects to advance per step: a cache's
// lookup counter reads the same way).
#include <cuda_runtime.h>

#include <map>
#include <vector>

__global__ void scaled(float *x, float s) { x[threadIdx.x] *= s; }
__global__ void dropout(float *x, unsigned long long seed, unsigned long long offset) {
  x[threadIdx.x] *= (seed + offset) & 1;
}

struct Pool {
  std::vector<void *> Blocks;
  size_t Used = 0;
  void *take(size_t N) {
    Used += N;
    Blocks.push_back(nullptr);
    return Blocks.back();
  }
};

// Filling a small container: `Data[Ndim++] = v` appends, it counts no step.
struct Shape {
  size_t Data[8];
  size_t Ndim = 0;
  void push_back(size_t V) { Data[Ndim++] = V; }
};
void describe(Shape &S) { S.push_back(32); }

struct GraphCache {
  std::map<int, cudaGraphExec_t> Execs;
  int Lookups = 0;
  cudaGraphExec_t find(int Key, cudaGraphExec_t Made) {
    auto [It, New] = Execs.emplace(Key, Made);
    ++Lookups;                                               // expected-warning {{host-state-mutation}}
    return It->second;
  }
};

struct Philox {
  unsigned long long Seed = 42, Offset = 0;
  unsigned long long next(unsigned long long N) {
    unsigned long long Old = Offset;
    Offset += N;                                             // expected-warning {{host-state-mutation}}
    return Old;
  }
};

void makeEvent(cudaEvent_t *Out) { cudaEventCreateWithFlags(Out, cudaEventDisableTiming); }

struct Slot {
  int Mode = 0;
};
Slot *g_shared = nullptr;

struct Runner {
  Slot *slots[2] = {};
  Pool pool;
  GraphCache cache;
  Philox rng;
  Shape dims;
  int step = 0;
  cudaStream_t s;

  void run(float *d) {
    cudaGraph_t g;
    cudaKernelNodeParams Params = {};
    int Launches = 0;
    cudaEvent_t Done;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    Params.gridDim = dim3(1);
    Params.blockDim = dim3(32);
    cudaGraphNodeParams Node = {cudaGraphNodeTypeKernel};
    Node.kernel.gridDim.x = 1;                               // A local, however deep the member.
    ++Launches;
    pool.take(256);
    cache.find(3, nullptr);
    describe(dims);
    makeEvent(&Done);
    scaled<<<1, 32, 0, s>>>(d, 0.5f);
    dropout<<<1, 32, 0, s>>>(d, rng.Seed, rng.next(32));
    ++step;                                                  // expected-warning {{host-state-mutation}}
    Slot *made = new Slot;
    made->Mode = step;                                       // Filling an object made just now.
    slots[0] = new Slot;                                     // Handing back a new object.
    g_shared->Mode = step;                                   // expected-warning {{host-state-mutation}}
    cudaStreamEndCapture(s, &g);
  }
};
