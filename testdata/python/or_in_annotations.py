# `x: dict[str, int] or None = None`: an annotation written with `or` after a
# subscript (Python evaluates it as an expression; tree-sitter-python's
# grammar rejects it). The file is read as Python reads it, with no parse
# warning, and the captured code behind such signatures is checked.
import torch


class Block(torch.nn.Module):
    def forward(
        self,
        x: torch.Tensor,
        mask: torch.Tensor or None = None,
        extra: dict[str, torch.Tensor] or None = None,
        sizes: tuple[int, ...] or list[int] = (1,),
    ):
        if extra is not None:
            x = x + extra["bias"]
        n = x.sum().item()  # expected-error {{sync-tensor-read}}
        return x * n


def shape_of(x, dims: tuple[int, ...] or list[int], keep: bool = False):
    torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    return x.reshape(dims)


def run(x):
    block = Block()
    flag = x[0] or x[1]
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = block(x, extra={"bias": x})
        y = shape_of(y, (4, 4))
    return y, flag
