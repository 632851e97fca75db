"""Replay-heavy training loop for graphcheck's overhead benchmark: a graph of
a few hundred kernel nodes replayed thousands of times, with eager work
between replays. Prints the loop's own time in seconds."""
import sys
import time

import torch

replays = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
torch.manual_seed(0)
layers = [torch.nn.Linear(256, 256).cuda() for _ in range(100)]
static_x = torch.randn(64, 256, device="cuda")


def forward(x):
    for layer in layers:
        x = torch.relu(layer(x)) + x
    return x


s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        forward(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = forward(static_x)
torch.cuda.synchronize()
start = time.perf_counter()
acc = torch.zeros((), device="cuda")
for i in range(replays):
    static_x.copy_(torch.randn(64, 256, device="cuda"))
    g.replay()
    acc += static_y.mean()
torch.cuda.synchronize()
print(f"loop_s {time.perf_counter() - start:.4f}")
