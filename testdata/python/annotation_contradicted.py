# annotation_contradicted_ok.py where one caller does hand the annotated
# class: the annotation stands, and its forward runs under the capture.
import torch
from torch import nn


class ServingWrapper:
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


class Net(nn.Module):
    def forward(self, x):
        return x * 2


def trace(model: ServingWrapper, x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model.forward(x)
    return g, y


def main(x):
    trace(ServingWrapper(), x)
    return trace(Net(), x)
