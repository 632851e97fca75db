# expected-no-diagnostics
# capturable=True, and SGD (no host step count), can be stepped in capture, as the PyTorch docs do.
import torch

model = torch.nn.Linear(4, 4).cuda()
adam = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)
sgd = torch.optim.SGD(model.parameters(), lr=0.1)
static_x = torch.randn(2, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    loss = model(static_x).sum()
    loss.backward()
    adam.step()
    sgd.step()

# Every param group capturable, one saying so itself.
head = torch.nn.Linear(4, 4).cuda()
grouped = torch.optim.AdamW(
    [{"params": model.parameters()}, {"params": head.parameters(), "capturable": True}],
    capturable=True,
)
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2):
    head(static_x).sum().backward()
    grouped.step()

# capturable turned on by the same setting that turns on the graph: the
# value is not known here, and the code sets it where the step is captured.
def train(args):
    params = torch.nn.Linear(4, 4).cuda().parameters()
    opt = torch.optim.Adam(params, capturable=args.cudagraphs and not args.compile)
    g3 = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g3):
        opt.step()
