# expected-no-diagnostics
# python/ is the folder a pyproject puts on the path (package-dir), and
# serve/ has no __init__.py: a namespace package, imported as
# `serve.static_inputs` although the analysis starts at the folder above.
import torch


def static_input(n):
    return torch.zeros(n, device="cuda")
