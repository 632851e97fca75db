# A model whose submodules are replaced by name once it is built (`setattr`
# over a dotted key read from a rule file, as kernel-injection frameworks and
# quantizers do) runs, in those places, classes that no assignment names:
# what its classes reach through their submodule attributes is said as a
# note. Code the model runs itself, a model never handed to the swapper, and
# one whose parameters, config fields, methods or listed attributes alone are
# set by name stay errors.
import torch
from torch import nn


def set_module(model, key, module):
    *path, last = key.split(".")
    cur = model
    for name in path:
        cur = getattr(cur, name)
    setattr(cur, last, module)


def inject(model, rules):
    for key, make in rules.items():
        set_module(model, key, make())


def attach(model, names, make):
    for name in names:
        model.add_module(name, make())


def set_head(model, head):
    setattr(model, "head", head)


def set_config(model, key, value):
    setattr(model.config, key, value)


def wrap_methods(module, names):
    for name in names:
        original = getattr(module, name)

        def wrapped(*args, **kwargs):
            return original(*args, **kwargs)

        setattr(module, name, wrapped)


def copy_attributes(destination, source):
    for attr in ("mlp", "scale"):
        if hasattr(source, attr):
            setattr(destination, attr, getattr(source, attr))


def set_param(module, name, weight):
    param = nn.parameter.Parameter(weight, requires_grad=False)
    setattr(module, name, param)


def move(module, name, device):
    setattr(module, name, getattr(module, name).to(device))


class Experts(nn.Module):
    def forward(self, x):
        counts = x.sum(0).cpu()  # expected-note {{sync-device-to-host-copy}}
        return x * counts.numel()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = Experts()

    def forward(self, x):
        return self.mlp(x)


class Injected(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(2)])

    def forward(self, x):
        scale = x.abs().max().item()  # expected-error {{sync-tensor-read}}
        for layer in self.layers:
            x = layer(x)
        return x * scale


class PlainExperts(nn.Module):
    def forward(self, x):
        return x * x.sum().item()  # expected-error {{sync-tensor-read}}


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = PlainExperts()

    def forward(self, x):
        return self.mlp(x)


class WeightedExperts(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(2))

    def forward(self, x):
        return x * self.weight.sum().item()  # expected-error {{sync-tensor-read}}


class Weighted(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = WeightedExperts()

    def forward(self, x):
        return self.mlp(x)


class AddedExperts(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-note {{boolean-mask-indexing}}


class Added(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = AddedExperts()

    def forward(self, x):
        return self.mlp(x)


class HeadExperts(nn.Module):
    def forward(self, x):
        return x * x.mean().item()  # expected-error {{sync-tensor-read}}


class Headed(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = HeadExperts()

    def forward(self, x):
        return self.mlp(x)


class Config:
    def __init__(self):
        self.fast = False


class ConfiguredExperts(nn.Module):
    def forward(self, x):
        return x * x.amax().item()  # expected-error {{sync-tensor-read}}


class Configured(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = Config()
        self.mlp = ConfiguredExperts()

    def forward(self, x):
        return self.mlp(x)


def serve(rules, x):
    model = Injected()
    inject(model, rules)
    plain = Plain()
    weighted = Weighted()
    set_param(weighted.mlp, "weight", torch.ones(2))
    move(weighted, "mlp", "cuda")
    added = Added()
    attach(added, rules, nn.Identity)
    headed = Headed()
    set_head(headed, nn.Identity())
    configured = Configured()
    set_config(configured, "fast", True)
    wrap_methods(configured, ["forward"])
    copy_attributes(configured, plain)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x) + plain(x) + weighted(x) + added(x) + headed(x) + configured(x)
    return g, y
