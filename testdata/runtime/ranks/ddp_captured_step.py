# expect: nothing (no finding on any rank)
# Clean: the PyTorch documentation's recipe for DDP under CUDA graphs: DDP
# built on a side stream, 11 eager warm-up steps, then the whole step
# (forward, backward with DDP's NCCL all-reduce, optimizer step) captured and
# replayed with new data copied into the static input.
import datetime
import os

# The recipe's first step: ProcessGroupNCCL's watchdog must not query the
# events of a capturing stream.
os.environ["TORCH_NCCL_ASYNC_ERROR_HANDLING"] = "0"
os.environ["NCCL_ASYNC_ERROR_HANDLING"] = "0"
import torch
import torch.distributed as dist

rank = int(os.environ["LOCAL_RANK"])
ngpus = torch.cuda.device_count()
torch.cuda.set_device(rank % ngpus)
# A rank that fails must not leave the other waiting for NCCL's 10 minutes.
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60))
torch.manual_seed(0)
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    model = torch.nn.parallel.DistributedDataParallel(
        torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8)).cuda(),
        device_ids=[torch.cuda.current_device()])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    static_x = torch.randn(16, 64, device="cuda")
    static_y = torch.randn(16, 8, device="cuda")
    for _ in range(11):
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.mse_loss(model(static_x), static_y).backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
opt.zero_grad(set_to_none=True)
with torch.cuda.graph(g):
    static_loss = torch.nn.functional.mse_loss(model(static_x), static_y)
    static_loss.backward()
    opt.step()
gen = torch.Generator(device="cuda").manual_seed(1)
for _ in range(20):
    static_x.copy_(torch.randn(16, 64, device="cuda", generator=gen))
    g.replay()
torch.cuda.synchronize()
w = model.module[0].weight.detach().clone()
gathered = [torch.empty_like(w) for _ in range(dist.get_world_size())]
dist.all_gather(gathered, w)
if rank == 0:
    print("ranks agree:", all(torch.equal(gathered[0], t) for t in gathered),
          "loss finite:", bool(torch.isfinite(static_loss).item()))
# The graph holds NCCL's captured all-reduce; ncclCommDestroy waits for every
# graph that holds a kernel of the communicator, so a process that destroys
# the group first never exits (pytorch/pytorch#115388). Release it first.
g.reset()
dist.destroy_process_group()
