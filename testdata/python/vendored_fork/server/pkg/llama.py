import torch


class FlashLlama(torch.nn.Module):
    def __init__(self, prefix, config):
        super().__init__()

    def forward(self, x):
        n = x.sum().item()  # expected-error {{sync-tensor-read}}
        # CHECK-NOTES@-1: 'FlashLlama.forward' is called here under capture
        return x * n


class FlashMistral(torch.nn.Module):
    def __init__(self, prefix, config):
        super().__init__()

    def forward(self, x):
        return x * 2


class Bloom(torch.nn.Module):
    def __init__(self, prefix, config):
        super().__init__()

    def forward(self, x):
        # Only CausalLM runs this model, and it captures nothing.
        return x[x > 0].cpu()
