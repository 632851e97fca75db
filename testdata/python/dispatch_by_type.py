# Method calls dispatch on the receiver's class: a subclass instance runs its
# overrides, a mixin's method runs the overrides of the class that mixed it in,
# and a guard helper that does not test capture guards nothing.
import torch


class Scaler:
    def step(self, opt):
        self.unscale_(opt)
        opt.step()

    def unscale_(self, opt):
        pass


class CheckingScaler(Scaler):
    def unscale_(self, opt):
        found_inf = torch.zeros(1, device="cuda")
        if found_inf.item():  # expected-error {{sync-tensor-read}}
            raise RuntimeError("inf")
        # CHECK-NOTES@-2: 'CheckingScaler.unscale_' is called here under capture


class AdapterMixin:
    def forward_adapters(self, x):
        return self.adapter_names(x)

    def adapter_names(self, x):
        return x


class Decoder(torch.nn.Module, AdapterMixin):
    def forward(self, x):
        return self.forward_adapters(x)

    def adapter_names(self, x):
        print("adapters", x.shape)  # expected-warning {{host-io-in-capture}}
        return x


def is_debug():
    return True


def step(x, opt, scaler):
    if not is_debug():  # not a capture test: the print below is captured
        return x
    print("debug step")  # expected-warning {{host-io-in-capture}}
    return Decoder()(x)


def main():
    x = torch.randn(4, device="cuda")
    opt = torch.optim.SGD([x], lr=0.1)
    scaler = CheckingScaler()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        scaler.step(opt)
        step(x, opt, scaler)
