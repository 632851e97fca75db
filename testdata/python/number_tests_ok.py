# expected-no-diagnostics
# The same comparisons where the numbers passed (or the defaults left) rule
# the code out: dropout 0.0, top_k 0, a layer other than the first, and an
# early return for a single token.
import torch


def attention(q, dropout_p=0.0):
    enable_dropout = dropout_p > 0.0
    if enable_dropout:
        seed = torch.randint(0, 1 << 20, (1,), device=q.device)[0].item()
        q = q * seed
    return q


def sample(logits, top_k=0):
    if 0 < top_k:
        return logits.topk(top_k).values.min().item()
    return logits.argmax(-1)


def block(x, layer_idx):
    if layer_idx == 0:
        print("first layer", x.shape)
    return x


def merge(x, n_tokens):
    if n_tokens <= 1:
        return x
    return x[x > 0]


def step(x):
    x = attention(x)
    x = block(x, 3)
    x = merge(x, 1)
    return sample(x)


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = step(x)
    return g, y
