# A method called through its class with the object as its first argument
# runs with that object as self: what it calls on self, and what the
# arguments after it hold, are followed.
import torch


class Runner:
    def run(self, fn, x):
        self.log(x)
        return fn(x)

    def log(self, x):
        print("running", x.shape)  # expected-warning {{host-io-in-capture}}


def scaled(x):
    return x * x.max().item()  # expected-error {{sync-tensor-read}}


def step(runner, x):
    return Runner.run(runner, scaled, x)


static_x = torch.zeros(2, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = step(Runner(), static_x)
