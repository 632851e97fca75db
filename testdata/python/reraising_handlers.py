# A handler that swallows the error goes on capturing: what it runs is
# captured code like any other. So is one that may leave it by `return`.
import torch


def launch(x):
    try:
        return x * 2
    except RuntimeError:
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x


def launch_or_fallback(x, strict):
    try:
        return x * 2
    except RuntimeError:
        if not strict:
            return x.cpu()  # expected-error {{sync-device-to-host-copy}}
        raise


def capture(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        launch(x)
        launch_or_fallback(x, False)
    return g
