# expected-no-diagnostics
# Model classes are looked up by name: nothing here calls a model class the
# analysis can see.
import importlib

_REGISTRY = {
    "LlamaForCausalLM": (".llama", "LlamaModel"),
    "MistralForCausalLM": (".llama", "MistralModel"),
}


def create_model(architecture, config):
    module_path, class_name = _REGISTRY[architecture]
    module = importlib.import_module(module_path, package=__package__)
    return getattr(module, class_name)(config)
