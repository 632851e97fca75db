# Capture probe: does a construct graphlint reports really fail CUDA graph capture?
# Run on a GPU machine, one case per process (a failed capture poisons the
# context): python3 scripts/capture-probe.py CASE, CASE one of control,
# eager-nonzero, scripted-nonzero, eager-mask, scripted-mask. Each warms up on a
# side stream first, as training scripts do before capturing.
import torch

class Head(torch.nn.Module):
    def forward(self, seq, labels):
        idx = torch.nonzero(labels.view(-1) != -1).squeeze()
        return torch.index_select(seq.view(-1, seq.shape[-1]), 0, idx)

class Crit(torch.nn.Module):
    def forward(self, labels):
        flat = labels.view(-1)
        return flat[flat != -1].float().sum()

def try_capture(name, fn, *args):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn(*args)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g):
            out = fn(*args)
        torch.cuda.synchronize()
        print(name, "captured OK")
    except Exception as e:
        print(name, "capture FAILED:", type(e).__name__, str(e).splitlines()[0][:200])
    torch.cuda.synchronize()

seq = torch.randn(4, 16, 8, device="cuda")
labels = torch.full((4, 16), -1, device="cuda", dtype=torch.long)
labels[:, ::3] = 1
import sys
which = sys.argv[1]
cases = {
    "eager-nonzero": lambda: try_capture(which, Head(), seq, labels),
    "scripted-nonzero": lambda: try_capture(which, torch.jit.script(Head()), seq, labels),
    "eager-mask": lambda: try_capture(which, Crit(), labels),
    "scripted-mask": lambda: try_capture(which, torch.jit.script(Crit()), labels),
    "control": lambda: try_capture(which, lambda l: (l * 2).sum(), labels),
}
cases[which]()
