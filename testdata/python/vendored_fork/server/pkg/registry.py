# expected-no-diagnostics
from pkg.causal import CausalLM
from pkg.flash import FlashCausalLM
from pkg.llama import Bloom, FlashLlama, FlashMistral


def get_model(name):
    if name == "llama":
        return FlashCausalLM(model_id=name, model_class=FlashLlama)
    if name == "mistral":
        return FlashCausalLM(model_id=name, model_class=FlashMistral)
    return CausalLM(model_id=name, model_class=Bloom)
