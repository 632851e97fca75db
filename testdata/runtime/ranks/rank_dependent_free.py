# expect: graph-uses-freed-memory on rank1
# A bug that only one rank has: each rank captures its forward on a static
# input, and a rank-dependent branch (the last rank, which loads its shard
# another way) rebinds the static input (`static_x = batch.cuda()`) instead of
# copying into it. That rank's graph keeps reading the old, freed block; the
# other rank is clean.
import datetime
import os

import torch
import torch.distributed as dist

rank = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(rank % torch.cuda.device_count())
# A rank that fails must not leave the other waiting for NCCL's 10 minutes.
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60))
last = rank == dist.get_world_size() - 1
torch.manual_seed(0)
m = torch.nn.Linear(64, 64).cuda()
static_x = torch.randn(32, 64, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(3):
        m(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_y = torch.relu(m(static_x))
for step in range(3):
    batch = torch.randn(32, 64) * (step + 1)
    if last:
        static_x = batch.cuda()  # Bug: should be static_x.copy_(batch)
    else:
        static_x.copy_(batch)
    g.replay()
torch.cuda.synchronize()
steps = torch.tensor([step + 1.0], device="cuda")
dist.all_reduce(steps)
if rank == 0:
    print("steps replayed on all ranks:", int(steps.item()))
g.reset()
dist.destroy_process_group()
