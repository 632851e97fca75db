# An f-string's format spec may begin with `=` as its fill character
# (`{title:=^{width}}` centres `title` between `=` signs); it is no walrus
# (one needs parentheses inside an f-string). The file reads as Python
# reads it, and the capture after such a banner is still checked.
import torch


def banner(title, width=40):
    print(f"{title:=^{width}}")
    print(f'{title!r:=>{width}} {width:=10}')
    return f"{'done':=<12}"


def step(x):
    return x * x.sum().item()  # expected-error {{sync-tensor-read}}


static_x = torch.zeros(4, device="cuda")
banner("capture")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x)
