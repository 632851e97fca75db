# expected-no-diagnostics
# Options read from `**kwargs` with a default (`kwargs.get("verbose",
# False)`, `.pop`, `is not None`, a string compared): the captured calls
# never pass the key, directly or through a `**kwargs` handed on whole, so
# each reads its default and the host-side branch never runs.
import torch


class Kernel:
    def __call__(self, **kwargs):
        return self.launch(**kwargs)

    def launch(self, **kwargs):
        inputs = kwargs.get("inputs", [])
        verbose = kwargs.get("verbose", False)
        if verbose:
            print("inputs", [t.shape for t in inputs])
        if kwargs.get("profile"):
            torch.cuda.synchronize()
        file_id = kwargs.get("file_id", -1)
        saved = ""
        if file_id != -1:
            saved = f"./generated/{file_id}/"
        if saved != "":
            print("saving to", saved)
        if file_id != -1:
            print("saving kernel", file_id)
        return [t * 2 for t in inputs]


def scaled(x, **options):
    mode = options.pop("mode", "fast")
    if mode == "checked":
        assert x.abs().max().item() < 1e4
    limit = options.get("limit")
    if limit is not None:
        x = x[: int(limit.item())]
    if not options.get("quiet", True):
        print("scaled", x.shape)
    return x * 2


def capture(x):
    kernel = Kernel()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = kernel(inputs=(x,), stream=None)[0]
        y = scaled(y, quiet=True)
        y = scaled(y, mode="fast")
    return g, y
