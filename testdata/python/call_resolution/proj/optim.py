# Optimizers behind one base class: which step runs depends on the object
# the caller made, not on every subclass the tree has.
import torch


class Base:
    def step(self):
        pass


class Fused(Base):
    def step(self):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}


class Legacy(Base):
    def step(self):
        print("stepping")  # no finding: no capture runs a Legacy step


class Unused(Base):
    def step(self):
        torch.cuda.synchronize()  # no finding: the program never builds one


def run_step(opt: Base):
    opt.step()
