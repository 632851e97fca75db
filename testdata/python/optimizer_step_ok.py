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
