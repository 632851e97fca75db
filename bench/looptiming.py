"""The timing the graphcheck loop benchmarks share: the loop timed whole and
in chunks. A neighbour on a shared host only ever adds time, so the fastest
chunk, scaled to the whole loop, is the figure least disturbed by it
(timeit's reasoning); a per-step cost that grows over the run shows up as
later chunks slowing down. Prints what scripts/device-bench.sh reads."""
import time

import torch


def time_loop(step, steps, chunk=50):
    chunks = []
    torch.cuda.synchronize()
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(0, steps, chunk):
        n = min(chunk, steps - i)
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        torch.cuda.synchronize()
        chunks.append((time.perf_counter() - t0) / n)
    print(f"loop_s {time.perf_counter() - start:.4f}")
    # CPU time of all the process's threads: what a checker adds, without the
    # time a busy host kept the process waiting.
    print(f"cpu_s {time.process_time() - cpu_start:.4f}")
    print(f"best_chunk_s {min(chunks) * steps:.4f}")
    print("step_ms_by_chunk " + " ".join(f"{c * 1e3:.2f}" for c in chunks))
