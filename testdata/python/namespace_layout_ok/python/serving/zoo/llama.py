# expected-no-diagnostics
import torch

from .base import BaseModel


class LlamaModel(BaseModel):
    def forward(self, x):
        return x * 2


class MistralModel(BaseModel):
    # Never built: the registry builds LlamaModel alone, so the capture's
    # model.forward() does not run this override.
    def forward(self, x):
        return x + x.sum().item()
