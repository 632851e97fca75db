# expected-no-diagnostics
# The generator is registered with the graph before capture; the default generator needs nothing.
import torch

gen = torch.Generator(device="cuda")
static_x = torch.randn(64, device="cuda")
g = torch.cuda.CUDAGraph()
g.register_generator_state(gen)
with torch.cuda.graph(g):
    noise = torch.randn(64, device="cuda", generator=gen)
    drop = torch.nn.functional.dropout(static_x, p=0.1)
    static_y = drop + noise
