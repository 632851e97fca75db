# expected-no-diagnostics
# The runner captures the model the registry built: its class is only
# annotated (under TYPE_CHECKING), and the registry builds LlamaModel where
# the analysis sees it, so only that class's forward runs under the capture.
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from serving.static_inputs import static_input

if TYPE_CHECKING:
    from serving.zoo import BaseModel


class GraphRunner:
    def __init__(self, model: BaseModel, sizes):
        self.graphs = {}
        for n in sizes:
            self.capture(model, n)

    def capture(self, model: BaseModel, n: int):
        x = static_input(n)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = model.forward(x)
        self.graphs[n] = (g, out)
