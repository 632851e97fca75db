# expected-no-diagnostics
# A registry of model classes by architecture, imported by name the way
# vLLM-style servers load them: the module and the class are strings.
import functools
import importlib
from typing import List, Optional, Tuple, Type

import torch.nn as nn

_TEXT_MODELS = {
    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),
    "MistralForCausalLM": ("llama", "LlamaForCausalLM"),
}
_OTHER_MODELS = {
    "GPT2LMHeadModel": ("gpt2", "GPT2LMHeadModel"),
}
_MODELS = {**_TEXT_MODELS, **_OTHER_MODELS}
_OOT_MODELS = {}


class ModelRegistry:
    @staticmethod
    @functools.lru_cache(maxsize=128)
    def _get_model(model_arch: str):
        module_name, model_cls_name = _MODELS[model_arch]
        module = importlib.import_module(f"serve.models.{module_name}")
        return getattr(module, model_cls_name, None)

    @staticmethod
    def _try_load_model_cls(model_arch: str) -> Optional[Type[nn.Module]]:
        if model_arch in _OOT_MODELS:
            return _OOT_MODELS[model_arch]
        if model_arch not in _MODELS:
            return None
        return ModelRegistry._get_model(model_arch)

    @staticmethod
    def resolve_model_cls(architectures: List[str]) -> Tuple[Type[nn.Module], str]:
        for arch in architectures:
            model_cls = ModelRegistry._try_load_model_cls(arch)
            if model_cls is not None:
                return (model_cls, arch)
        raise ValueError(f"unsupported: {architectures}")
