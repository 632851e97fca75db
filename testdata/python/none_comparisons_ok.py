# expected-no-diagnostics
# A tensor compared with None by `==` or `!=`: the tensor's comparison does
# not take None, and Python falls back to identity, a bool on the host. No
# sync, whatever the tensor holds (sglang's triton MoE asserts its scales
# are None so).
from typing import Optional

import torch


def fused_experts(x, w1_scale: Optional[torch.Tensor] = None, bias: Optional[torch.Tensor] = None):
    assert w1_scale == None, "w1_scale is not supported"
    if bias != None:
        x = x + bias
    if None == bias:
        x = x * 2
    return x


def capture(x, scale, bias):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = fused_experts(x, scale, bias)
    return g, y
