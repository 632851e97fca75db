# Clean: torch.profiler (Kineto, a CUPTI client in the same process) records
# CUDA activity around captured replays. CUPTI serves one client at a time,
# so graphcheck checks the capture, then hands CUPTI over as the profile
# starts (saying so at the `with profile` line): the program prints the same
# with and without graphcheck, the profiler's kernel count included.
import torch
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)).cuda()
static_x = torch.randn(16, 64, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        model(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.no_grad(), torch.cuda.graph(g):
    static_y = model(static_x)
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(5):
        static_x.copy_(torch.randn(16, 64, device="cuda"))
        g.replay()
        torch.nn.functional.gelu(static_y).sum()
    torch.cuda.synchronize()
cuda_events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
print("profiler saw CUDA activity:", len(cuda_events) > 0)
print("output finite:", bool(torch.isfinite(static_y).all().item()))
