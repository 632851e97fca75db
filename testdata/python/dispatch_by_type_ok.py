# Dispatch by type keeps out what cannot run: an exact receiver's overrides in
# subclasses, the overrides of classes that mix in the same mixin, a tensor
# branch on the side where isinstance says the value is no tensor, code behind
# a guard helper or CUDA's lazy initialisation, and containers captured code
# makes afresh to hold its static buffers.
# expected-no-diagnostics
import torch


class Scaler:
    def step(self, opt):
        self.unscale_(opt)
        opt.step()

    def unscale_(self, opt):
        pass


class CheckingScaler(Scaler):
    def unscale_(self, opt):
        if torch.zeros(1, device="cuda").item():  # only a CheckingScaler runs this
            raise RuntimeError("inf")


class AdapterMixin:
    def forward_adapters(self, x):
        return self.adapter_names(x)

    def adapter_names(self, x):
        return x


class Decoder(torch.nn.Module, AdapterMixin):
    def __init__(self):
        super().__init__()
        self.bufs = None
        self.sos = 0

    def forward(self, x):
        self.bufs = []
        self.bufs.append(torch.zeros_like(x))  # built at capture to hold static buffers
        return self.forward_adapters(x)

    def predict(self, label):
        if isinstance(label, torch.Tensor):
            return label.long()
        if label == self.sos:  # an int here: a host comparison
            return None
        return label


class TestModel(torch.nn.Module, AdapterMixin):  # another user of the mixin
    def adapter_names(self, x):
        print("test adapters", x)
        return x


def capturing():
    return torch.cuda.is_current_stream_capturing()


def lazy_init():
    if torch.cuda.is_initialized() or capturing():
        return
    print("initialising CUDA")  # a capture needs CUDA initialised: never captured


def step(x):
    lazy_init()
    if not capturing():
        torch.cuda.synchronize()
    return Decoder()(x)


def main():
    x = torch.randn(4, device="cuda")
    opt = torch.optim.SGD([x], lr=0.1)
    scaler = Scaler()
    dec = Decoder()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        scaler.step(opt)
        step(x)
        dec.predict(x)
    TestModel()(x)
