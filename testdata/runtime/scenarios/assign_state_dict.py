# expect: graph-uses-freed-memory at 23
# expect: graph-uses-freed-memory at 23
# graphcheck: --mode light
# graphcheck: --mode verify
# Inference captured, then new weights loaded with assign=True: the module's
# parameters become the loaded tensors, the old ones are freed, and replays
# keep multiplying by the freed weights.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(256, 256).cuda()
static_x = torch.randn(16, 256, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        m(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_y = m(static_x)
new = {k: torch.randn_like(v) for k, v in m.state_dict().items()}
# Bug: assign=True swaps the parameter tensors; load without it copies in place.
m.load_state_dict(new, assign=True)
g.replay()
torch.cuda.synchronize()
print("replayed", round(static_y.abs().sum().item() > 0))
