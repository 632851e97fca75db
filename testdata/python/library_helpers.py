# The operator namespaces of torch (`torch.linalg`, `torch.fft`,
# `torch.special`) compute tensors: a branch on their result reads the GPU.
import torch


class Normed(torch.nn.Module):
    def forward(self, x):
        if torch.linalg.vector_norm(x) > 1:  # expected-error {{data-dependent-branch}}
            x = x / 2
        return torch.special.expit(x).sum().item()  # expected-error {{sync-tensor-read}}


def capture(x):
    m = Normed()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        m(x)
    return g
