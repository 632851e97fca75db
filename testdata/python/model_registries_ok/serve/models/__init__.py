# expected-no-diagnostics
# A registry imports only the classes its table names, from its own
# package: a class of that package no entry names, a namesake in another
# package, and a module named at run time by a string no literal spells
# give nothing to the capture.
import importlib

_MODELS = {
    "GPT2LMHeadModel": ("gpt2", "GPT2LMHeadModel"),
}


def load_model_cls(arch: str):
    module_name, cls_name = _MODELS[arch]
    module = importlib.import_module(f"serve.models.{module_name}")
    return getattr(module, cls_name)


def load_plugin_cls(spec: str):
    module_name, cls_name = spec.rsplit(":", 1)
    return getattr(importlib.import_module(module_name), cls_name)
