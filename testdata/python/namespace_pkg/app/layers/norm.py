# layers/ has no __init__.py: a namespace package, imported as app.layers.norm.
import torch


class Norm(torch.nn.Module):
    def forward(self, x):
        scale = x.pow(2).mean().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'Block.forward' is called here under capture
        return x / scale
