# expected-no-diagnostics
# The same runner shape with layers that do only device work, and a class
# attribute naming a class nobody captures (the tokenizer) that syncs: only
# what the captured step can reach is checked.
import torch


class LayerBase:
    def token_forward(self, x):
        return x

    def tp_token_forward(self, x):
        return x * 2


class LlamaLayer(LayerBase):
    def token_forward(self, x):
        return torch.relu(x)


class Tokenizer:
    def encode(self, ids):
        return ids.cpu().tolist()


class GraphRunner:
    def capture(self, step, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = step(x)
        return g, out


class BaseModel:
    layer_class = LayerBase
    tokenizer_class = Tokenizer

    def __init__(self, disable_graph):
        self.layers = [self.layer_class() for _ in range(4)]
        self.tokenizer = self.tokenizer_class()
        self.runner = None if disable_graph else GraphRunner()
        self.mode = 0

    def _token_forward(self, x):
        for layer in self.layers:
            x = (layer.token_forward, layer.tp_token_forward)[self.mode](x)
        return x

    def decode(self, x, ids):
        self.tokenizer.encode(ids)
        return self.runner.capture(self._token_forward, x)


class LlamaModel(BaseModel):
    layer_class = LlamaLayer
