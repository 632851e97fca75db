# expect: read-after-overwrite
# The first output of a graphed module is kept across a second call and then
# read by a matmul. cuBLAS launches through its own private CUDA runtime, so
# graphcheck names its kernels from the cubins of loaded modules.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(64, 64).cuda()
w = torch.randn(64, 64, device="cuda")
gm = torch.cuda.make_graphed_callables(m, (torch.randn(32, 64, device="cuda"),))
with torch.no_grad():
    (torch.randn(32, 64, device="cuda") @ w).sum()  # the GEMM's module is loaded by now
    a = gm(torch.ones(32, 64, device="cuda"))
    b = gm(torch.zeros(32, 64, device="cuda"))
    c = a @ w  # Reads a, which now holds the second call's output.
    print("a @ w equals b @ w:", bool(((c - b @ w).abs().max() == 0).item()))
