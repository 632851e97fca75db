# expected-no-diagnostics
# The capture is in a method; the model is an attribute built in __init__.
import torch

from app.models.net import Net


class Runner:
    def __init__(self):
        self.model = Net(4).cuda()
        self.x = torch.zeros(2, 8, device="cuda")
        self.graph = torch.cuda.CUDAGraph()

    def capture(self):
        with torch.cuda.graph(self.graph):
            self.out = self.model(self.x)
