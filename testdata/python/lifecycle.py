# One capture at a time, one capture per graph object, and the end of an
# explicit capture_begin() on every path.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")


def capture_head(graph):
    with torch.cuda.graph(graph):  # expected-error {{nested-capture}}
        return model(static_x)


outer = torch.cuda.CUDAGraph()
inner = torch.cuda.CUDAGraph()
with torch.cuda.graph(outer):
    y = model(static_x)
    with torch.cuda.graph(inner):  # expected-error {{nested-capture}}
        z = model(y)
    head = capture_head(torch.cuda.CUDAGraph())

# The same graph object captured twice.
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    a = model(static_x)
with torch.cuda.graph(g):  # expected-error {{capture-begin-twice}}
    b = model(static_x)

# One graph object for every batch size.
graph = torch.cuda.CUDAGraph()
outputs = {}
for bs in (1, 2, 4):
    with torch.cuda.graph(graph):  # expected-error {{capture-begin-twice}}
        outputs[bs] = model(static_x[:bs])


def capture_checked(h, n):
    h.capture_begin()  # expected-warning {{throw-leaves-capture-open}}
    out = model(static_x)
    if n <= 0:
        raise ValueError("empty batch")
    h.capture_end()
    return out
