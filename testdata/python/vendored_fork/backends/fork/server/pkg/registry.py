# expected-no-diagnostics
from pkg.flash import FlashCausalLM
from pkg.llama import FlashLlama


def get_model(name):
    return FlashCausalLM(model_id=name, model_class=FlashLlama)
