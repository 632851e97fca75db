# expected-no-diagnostics
import torch


class Base(torch.nn.Module):
    pass


class Safe(Base):
    def forward(self, x):
        return x * 2


class Eager(Base):
    def forward(self, x):
        return x * x.sum().item()  # recipe_b runs it eagerly: no capture reaches it
