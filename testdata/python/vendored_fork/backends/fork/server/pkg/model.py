# expected-no-diagnostics
# The base every runner shares: the model it runs is handed in by each
# subclass's constructor through super().__init__(model=...).
import torch


class Model:
    def __init__(self, model_id: str, model: torch.nn.Module):
        self.model_id = model_id
        self.model = model.eval()
