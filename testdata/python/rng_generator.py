# A private CUDA generator used in capture without registering it with the graph.
import torch

gen = torch.Generator(device="cuda")
gen.manual_seed(1234)
static_x = torch.randn(64, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    noise = torch.randn(64, device="cuda", generator=gen)  # expected-error {{rng-unregistered-generator}}
    mask = torch.bernoulli(torch.full_like(static_x, 0.9), generator=gen)  # expected-error {{rng-unregistered-generator}}
    static_y = static_x * mask + noise
