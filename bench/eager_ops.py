"""Per-op cost of a checker on eager PyTorch: a tight loop of tiny CUDA ops,
where CPU-side launch overhead is all there is. `inplace` launches without
allocating (x.add_), `alloc` makes and frees one caching-allocator block per
op (x + 1), so the difference between the two shows what allocator tracking
costs apart from what watching launches costs."""
import sys
import time

import torch

kind = sys.argv[1] if len(sys.argv) > 1 else "inplace"
ops = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
if kind not in ("inplace", "alloc"):
    sys.exit(f"usage: eager_ops.py inplace|alloc [ops]; got {kind!r}")
x = torch.zeros(256, device="cuda")


def run(n):
    y = x
    if kind == "inplace":
        for _ in range(n):
            x.add_(1.0)
    else:
        for _ in range(n):
            y = x + 1.0
    return y


run(1000)
torch.cuda.synchronize()
chunk = 10000
chunks = []
start, cpu_start = time.perf_counter(), time.process_time()
for i in range(0, ops, chunk):
    t0 = time.perf_counter()
    run(min(chunk, ops - i))
    torch.cuda.synchronize()
    chunks.append((time.perf_counter() - t0) / min(chunk, ops - i))
print(f"loop_s {time.perf_counter() - start:.4f}")
print(f"cpu_s {time.process_time() - cpu_start:.4f}")
print(f"best_chunk_s {min(chunks) * ops:.4f}")
print(f"per_op_us {min(chunks) * 1e6:.3f}")
