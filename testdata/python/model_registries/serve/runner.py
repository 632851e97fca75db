# expected-no-diagnostics
import torch
from torch import nn

from serve.loader import get_model


class CUDAGraphRunner:
    def __init__(self, model: nn.Module):
        self.model = model
        self._graph = None

    def capture(self, input_ids, positions):
        self._graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self._graph):
            out = self.model(input_ids=input_ids, positions=positions)
        return out


class ModelRunner:
    def __init__(self, model_config, load_config, cache_config):
        self.model_config = model_config
        self.load_config = load_config
        self.cache_config = cache_config

    def load_model(self):
        self.model = get_model(
            model_config=self.model_config,
            load_config=self.load_config,
            cache_config=self.cache_config,
        )

    def capture_model(self, input_ids, positions):
        runner = CUDAGraphRunner(self.model)
        return runner.capture(input_ids, positions)
