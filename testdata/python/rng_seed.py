# Reseeding inside capture: replays do not reseed.
import torch

gen = torch.Generator(device="cuda")
static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
g.register_generator_state(gen)
with torch.cuda.graph(g):
    torch.manual_seed(0)  # expected-error {{rng-seed-in-capture}}
    torch.cuda.manual_seed_all(0)  # expected-error {{rng-seed-in-capture}}
    gen.manual_seed(1)  # expected-error {{rng-seed-in-capture}}
    static_y = static_x + torch.rand(8, device="cuda", generator=gen)
