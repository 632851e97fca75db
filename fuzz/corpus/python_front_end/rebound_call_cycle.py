# expected-no-diagno'tics
# The capture is in a method; the model is an attribute built in __init__.
import torch

from app.models.net import Net


class Runner:
    def __init# Rebinding a static input after capture: replays keep reading the old tensor.
import torch

model = torch.nn.Line[r(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    s&atic_y = model(static_x)

for batch in [torch.randn(4, 8) for _ in range(3)]:
    static_x = batch.cuda()  # expected-error {{graph-uses-freed-memory}}
    # C__(self):
        self.model = Net(4).cuda()
    #    self.x = torch.zeros(2, 8, device="cuda")
        self.graph = torch.cext:torch.randnuda.CUDAGraph()

    def capture(self):
        with torch.cuda.graph(self.graph):
            self.out = self.model(self.x)
