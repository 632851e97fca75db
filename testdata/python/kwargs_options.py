# Options read from `**kwargs` with a default, where a captured call does
# pass the key (directly, through a `**kwargs` handed on whole, or with a
# value that is no literal): the branch runs under capture.
import torch


class Kernel:
    def __call__(self, **kwargs):
        return self.launch(**kwargs)

    def launch(self, **kwargs):
        inputs = kwargs.get("inputs", [])
        verbose = kwargs.get("verbose", False)
        if verbose:
            print("inputs", [t.shape for t in inputs])  # expected-warning {{host-io-in-capture}}
        file_id = kwargs.get("file_id", -1)
        saved = ""
        if file_id != -1:
            saved = f"./generated/{file_id}/"
        if saved != "":
            print("saving to", saved)  # expected-warning {{host-io-in-capture}}
        if file_id != -1:
            print("saving kernel", file_id)  # expected-warning {{host-io-in-capture}}
        return [t * 2 for t in inputs]


def scaled(x, **options):
    mode = options.pop("mode", "fast")
    if mode == "checked":
        assert x.abs().max().item() < 1e4  # expected-error {{sync-tensor-read}}
    limit = options.get("limit")
    if limit is not None:
        x = x[: int(limit.item())]  # expected-error {{sync-tensor-read}}
    return x * 2


def capture(x, n, debug):
    kernel = Kernel()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = kernel(inputs=(x,), verbose=debug)[0]
        y = kernel(inputs=(y,), file_id=3)[0]
        y = scaled(y, mode="checked")
        y = scaled(y, limit=n)
    return g, y
