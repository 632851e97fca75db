# A class picked from the module's own namespace by a name known at run time
# (`globals()[args.model]`, `globals().get(name)`) is any class the module
# binds that a string of the program names: its forward runs under capture.
import argparse

import torch
from torch import nn


class Small(nn.Module):
    def forward(self, x):
        return x * 2


class Large(nn.Module):
    def forward(self, x):
        peak = x.max().item()  # expected-error {{sync-tensor-read}}
        return x * peak


parser = argparse.ArgumentParser()
parser.add_argument("--model", choices=["Small", "Large"], default="Small")
args = parser.parse_args()

model_class = globals()[args.model]
model = model_class()
runner_class = globals().get(args.model)
runner = runner_class()

static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = model(static_x)
    z = runner(static_x)
