// Every getStreamFromPool() call hands out another stream: a second pool
// stream inside the capture needs an event fork from the capture stream and a
// join back before capture_end().
#include "lint_prelude.h"

void switchWithoutFork(at::cuda::CUDAGraph &g, at::Tensor x) {
  c10::cuda::CUDAStreamGuard guard(c10::cuda::getStreamFromPool());
  g.capture_begin();
  x.mul_(2);
  {
    c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool()); // expected-error {{side-stream-without-fork}}
    x.add_(1);
  }
  g.capture_end();
}

void forkedNeverJoined(at::cuda::CUDAGraph &g, at::Tensor x) {
  auto main = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(main);
  g.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(main);
  fork.block(other);
  {
    c10::cuda::CUDAStreamGuard side(other);
    x.add_(1);
  }
  g.capture_end();                                          // expected-error {{fork-not-joined}}
}

// Safe: forked with an event and joined back.
void forkedAndJoined(at::cuda::CUDAGraph &g, at::Tensor x) {
  auto main = c10::cuda::getStreamFromPool();
  auto other = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(main);
  g.capture_begin();
  at::cuda::CUDAEvent fork, join;
  fork.record(main);
  fork.block(other);
  {
    c10::cuda::CUDAStreamGuard side(other);
    x.add_(1);
    join.record(other);
  }
  join.block(main);
  g.capture_end();
}

// Safe: the same pool stream, named once and guarded twice.
void sameStreamTwice(at::cuda::CUDAGraph &g, at::Tensor x) {
  auto main = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard guard(main);
  g.capture_begin();
  {
    c10::cuda::CUDAStreamGuard again(main);
    x.add_(1);
  }
  g.capture_end();
}
