# Serving runners keep the layer classes as class attributes that each model
# subclass overrides (`transformer_layer_class = LlamaLayer`), build the layers
# from them, choose a layer's method from a tuple by mode, and hold the graph
# runner as `None if disabled else Runner()`. What the captured step reaches
# through each of these is checked.
import torch


class LayerBase:
    def token_forward(self, x):
        return x

    def tp_token_forward(self, x):
        return x


class LlamaLayer(LayerBase):
    def token_forward(self, x):
        n = x.sum().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'LlamaLayer.token_forward' is called here under capture
        return x * n


class QwenLayer(LayerBase):
    def tp_token_forward(self, x):
        print("tp", x.shape)  # expected-warning {{host-io-in-capture}}
        return x


class PostBase:
    def token_forward(self, x):
        return x


class LlamaPost(PostBase):
    def token_forward(self, x):
        return x.cpu()  # expected-error {{sync-device-to-host-copy}}


class GraphRunner:
    def __init__(self):
        self.pool = torch.cuda.graph_pool_handle()

    def capture(self, step, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g, pool=self.pool):
            out = step(x)
        return g, out


class BaseModel:
    layer_class = None
    post_class = None

    def __init__(self, disable_graph):
        self.layers = [self.layer_class() for _ in range(4)]
        self.post = self.post_class()
        self.runner = None if disable_graph else GraphRunner()
        self.mode = 0

    def _token_forward(self, x):
        for i in range(4):
            layer = self.layers[i]
            method = (layer.token_forward, layer.tp_token_forward)[self.mode]
            x = method(x)
        return self.post.token_forward(x)

    def decode(self, x):
        if self.runner is not None:
            return self.runner.capture(self._token_forward, x)
        return self._token_forward(x)


class LlamaModel(BaseModel):
    layer_class = LlamaLayer
    post_class = LlamaPost


class QwenModel(BaseModel):
    layer_class = QwenLayer
    post_class = PostBase
