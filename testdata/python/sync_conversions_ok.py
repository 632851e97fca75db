# expected-no-diagnostics
# float()/int() of host numbers and shapes are plain Python, also where an
# isinstance test kept in a local says the value is no tensor, or one in the
# same expression does (`2 if isinstance(s, Tensor) else (1 if s != 1.0 else
# 0)`).
import torch


def scale_arg(x, scale):
    scale_is_tensor = isinstance(scale, torch.Tensor)
    if scale_is_tensor:
        arg = scale.float().reshape(1)
    else:
        arg = float(scale)
    return x * arg


def scalar_mode(scalar, neutral=1.0):
    return 2 if isinstance(scalar, torch.Tensor) else (1 if scalar != neutral else 0)


def scalar_value(scalar):
    return scalar if not isinstance(scalar, torch.Tensor) and float(scalar) > 0 else 0.0


def step(x, lr: float, steps: int = 10):
    n = int(x.shape[0])
    half = float(lr) / 2
    m = int(steps)
    big = bool(x.numel() > 4)
    return x * half


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(static_x, 0.1)
    static_z = scale_arg(static_x, static_x.max())
    mode = scalar_mode(static_x.max())
    value = scalar_value(static_x.max())
