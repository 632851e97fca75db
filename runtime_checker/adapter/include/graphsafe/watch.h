// graphcheck's libtorch adapter: tells `graphcheck run` the tensor-level facts
// CUPTI cannot see in a libtorch program (which storage each parameter's
// .grad is, which tensors a replay handed out). Every call is a no-op when
// the program does not run under graphcheck.
//
//   graphsafe::watch(model);                 // once, after building the model
//   auto out = graphsafe::handedOut(static_out, "logits"); // after a replay
#pragma once

#include <torch/torch.h>

#include <string>

namespace graphsafe {

// Whether the program runs under `graphcheck run`.
bool active();

// Watches every parameter of M (named as in named_parameters(), after
// Prefix): before each graph launch graphcheck learns which storage each
// .grad is, so a grad that aliases a graph's buffer is caught at the replay
// that overwrites it, and grads reset to undefined count as released.
void watch(const torch::nn::Module &M, const std::string &Prefix = "");
void watch(const std::string &Name, const torch::Tensor &Param);

// T came out of a graph replay and stays valid only until the next replay of
// that graph; reading it after that is reported (read-after-overwrite).
// Returns T, so it wraps the expression that produced it.
const torch::Tensor &handedOut(const torch::Tensor &T, const std::string &Name);

// Call just before starting a profiler that records CUDA activity (Kineto,
// through torch::autograd::profiler): CUPTI serves one tool at a time, so
// graphcheck stops watching here and its report says so at Where ("file:line").
// A no-op under `graphcheck run --profiler keep`.
void yieldToProfiler(const std::string &Where);

} // namespace graphsafe
