# expected-no-diagnostics
# A serving runner that builds its model from the class its caller names and
# captures the model's forward: each class a caller names is checked.
import torch

from pkg.model import Model


class FlashCausalLM(Model):
    def __init__(self, model_id: str, model_class, config=None):
        model = model_class(None, config)
        super().__init__(model_id=model_id, model=model)

    def warmup(self, x):
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            logits = self.model.forward(x)
        return logits
