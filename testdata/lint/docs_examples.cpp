// Correct code shaped like the PyTorch "CUDA semantics" CUDA-graph examples,
// in libtorch C++: no finding may fire here.
// expected-no-diagnostics
#include "lint_prelude.h"

struct Model {
  at::Tensor w1, w2;
  at::Tensor forward(const at::Tensor &x) { return (x.matmul(w1)).relu().matmul(w2); }
};

// Whole-network capture: warm up on a side stream, capture, replay with new data
// copied into the static input.
void whole_network(Model &model, std::vector<at::Tensor> &batches) {
  at::Tensor static_input = at::zeros({8, 64}, at::kCUDA);
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  {
    c10::cuda::CUDAStreamGuard guard(s);
    ready.block(s);
    for (int i = 0; i < 3; ++i)
      model.forward(static_input);
  }
  cudaDeviceSynchronize();

  at::cuda::CUDAGraph graph;
  at::Tensor static_output;
  {
    c10::cuda::CUDAStreamGuard guard(s);
    graph.capture_begin();
    static_output = model.forward(static_input);
    graph.capture_end();
  }
  for (auto &batch : batches) {
    static_input.copy_(batch);
    graph.replay();
    float loss = static_output.sum().item<float>();
    std::printf("loss %f\n", loss);
  }
}

// Partial capture: only the middle of the step is graphed; the rest stays eager.
at::Tensor partial(Model &model, at::cuda::CUDAGraph &graph, const at::Tensor &x, at::Tensor &static_mid_in,
                   at::Tensor &static_mid_out) {
  auto pre = x.relu();
  if (pre.sum().item<float>() > 0)
    pre = pre * 2;
  static_mid_in.copy_(pre);
  graph.replay();
  return static_mid_out.nonzero();
}

// Multi-stream work inside the capture: fork with an event, join back before the end.
void fork_join(Model &model, at::Tensor static_in, at::Tensor &a, at::Tensor &b) {
  auto capture_stream = c10::cuda::getStreamFromPool();
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAGraph graph;
  c10::cuda::CUDAStreamGuard guard(capture_stream);
  graph.capture_begin();
  at::cuda::CUDAEvent fork, join;
  fork.record(capture_stream);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard side_guard(side);
    b = model.forward(static_in);
    join.record(side);
  }
  a = static_in * 2;
  join.block(capture_stream);
  graph.capture_end();
  graph.replay();
}

// Graphs sharing one memory pool, captured in the order they replay.
void shared_pool(Model &model, at::Tensor static_in) {
  at::cuda::CUDAGraph g1, g2;
  auto s = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(s);
  g1.capture_begin();
  at::Tensor mid = model.forward(static_in);
  g1.capture_end();
  g2.capture_begin(g1.pool());
  at::Tensor out = mid.relu();
  g2.capture_end();
  g1.replay();
  g2.replay();
}

// Raw CUDA stream capture with the sync before and after.
void raw_stream_capture(float *d, cudaStream_t s) {
  cudaDeviceSynchronize();
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  cudaMemsetAsync(d, 0, 256, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
}
