# expect: read-after-overwrite
# PENDING (not run by scripts/gpu-tests.sh): the shim reports both outputs
# (tensor_out), but the read of `a` by torch.equal is not observed. Eager
# launches made through the CUDA runtime do not raise CUPTI's driver-level
# cuLaunchKernel callbacks on PyTorch 2.11 / CUDA 13, and resolving a runtime
# kernel handle inside the callback disturbs the program's CUDA error state.
# The engine side is tested from testdata/runtime/retained_output.jsonl.
# Calling a graphed module twice before using the first output: the first
# output silently holds the second call's values.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(32, 32).cuda()
gm = torch.cuda.make_graphed_callables(m, (torch.randn(4, 32, device="cuda"),))
with torch.no_grad():
    a = gm(torch.ones(4, 32, device="cuda"))
    b = gm(torch.zeros(4, 32, device="cuda"))
    print("a equals b:", bool(torch.equal(a, b)))
