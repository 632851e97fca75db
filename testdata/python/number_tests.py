# Comparisons of a parameter with a number (`dropout_p > 0.0`, `0 < top_k`,
# `layer_idx == 0`, through a local flag too) run where the numbers the
# callers pass let them.
import torch


def attention(q, dropout_p=0.0):
    enable_dropout = dropout_p > 0.0
    if enable_dropout:
        seed = torch.randint(0, 1 << 20, (1,), device=q.device)[0].item()  # expected-error {{sync-tensor-read}}
        q = q * seed
    return q


def sample(logits, top_k=0):
    if 0 < top_k:
        return logits.topk(top_k).values.min().item()  # expected-error {{sync-tensor-read}}
    return logits.argmax(-1)


def block(x, layer_idx):
    if layer_idx == 0:
        print("first layer", x.shape)  # expected-warning {{host-io-in-capture}}
    return x


def step(x):
    x = attention(x, dropout_p=0.1)
    x = block(x, 0)
    return sample(x, top_k=50)


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y
