# expected-no-diagnostics
import torch

from serve.models import load_model_cls, load_plugin_cls


def capture(arch, plugin, input_ids):
    model = load_model_cls(arch)()
    extra = load_plugin_cls(plugin)()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = model(input_ids)
        out = extra(out)
    return g, out
