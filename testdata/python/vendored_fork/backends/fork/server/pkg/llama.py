# A vendored fork of the server's package (same module names): its runner
# builds the fork's own models, never the server's.
import torch


class FlashLlama(torch.nn.Module):
    def __init__(self, prefix, config):
        super().__init__()

    def forward(self, x):
        print("fork llama", x.shape)  # expected-warning {{host-io-in-capture}}
        return x
