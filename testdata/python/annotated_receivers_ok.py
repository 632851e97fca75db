# expected-no-diagnostics
# A checking helper annotated with the project's model base (`model:
# Module`) is handed, by every caller, a model that a set-up function builds
# and returns in a tuple (`model, inputs = setup()`, `Net(...).to(device)`):
# the capture runs that model's forward alone, not every subclass of the
# base that the program builds somewhere else.
import torch


class Module(torch.nn.Module):
    pass


class Net(Module):
    def forward(self, x):
        return x * 2


class Guarded(Module):
    def forward(self, x):
        if x.sum().item() > 0:  # eager only: nothing passes a Guarded to the check
            return x
        return -x


def validate_graphs(model: Module, args=()):
    graphed = torch.cuda.make_graphed_callables(model, sample_args=args)
    return graphed(*args)


def test_net():
    def setup():
        model = Net().to("cuda")
        inputs = torch.randn(4, device="cuda")
        return model, inputs

    model, inputs = setup()
    assert validate_graphs(model, (inputs,))


def test_guarded_eager():
    guarded = Guarded()
    guarded(torch.randn(4))
