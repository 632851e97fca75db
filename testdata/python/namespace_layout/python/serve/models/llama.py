import torch

from .base import BaseModel


class LlamaModel(BaseModel):
    def forward(self, x):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return x * 2


class MistralModel(BaseModel):
    def forward(self, x):
        return x + x.sum().item()  # expected-error {{sync-tensor-read}}
