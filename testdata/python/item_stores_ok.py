# expected-no-diagnostics
# item_stores.py with a helper that keeps to the GPU: nothing to report.
import torch


class AttentionPlan:
    def __init__(self, batch):
        self.batch = batch

    def calc_indices(self, n):
        n = n * self.batch
        return n


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.plans = [None] * 8

    def init_plan(self, graph_idx, batch):
        self.plans[graph_idx] = AttentionPlan(batch)

    def forward(self, x, graph_idx=0):
        self.plans[graph_idx].calc_indices(x.shape[0])
        return x * 2


def capture(x):
    model = Model()
    model.init_plan(0, 4)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x, 0)
    return g, y
