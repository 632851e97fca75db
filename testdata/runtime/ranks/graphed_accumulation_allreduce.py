# expect: grad-aliases-graph-buffer on every rank
# expect: grad-aliases-graph-buffer on every rank
# (weight.grad and bias.grad, on each rank)
# Data parallel by hand around make_graphed_callables: two micro-batches
# accumulate into .grad, then an all-reduce averages the grads. Autograd
# adopted the graph's grad buffer as .grad after the first micro-batch, so
# the second replay overwrites it: every rank averages half its gradient.
import datetime
import os

import torch
import torch.distributed as dist

rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(rank % torch.cuda.device_count())
# A rank that fails must not leave the other waiting for NCCL's 10 minutes.
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60))
torch.manual_seed(0)
H = 64
m = torch.nn.Linear(H, H).cuda()
ref = torch.nn.Linear(H, H).cuda()
ref.load_state_dict(m.state_dict())
gm = torch.cuda.make_graphed_callables(m, (torch.randn(8, H, device="cuda", requires_grad=True),))
xs = [torch.randn(8, H, device="cuda", requires_grad=True) for _ in range(2)]
for x in xs:
    gm(x).pow(2).sum().backward()
for x in xs:
    ref(x).pow(2).sum().backward()
for p in (*m.parameters(), *ref.parameters()):
    dist.all_reduce(p.grad)
torch.cuda.synchronize()
if rank == 0:
    print("max |graphed - eager| weight.grad:",
          round((m.weight.grad - ref.weight.grad).abs().max().item(), 3))
dist.destroy_process_group()
