# expected-no-diagnostics
# The class comes back from the registry as the first element of a tuple,
# through a function that hands the registry's result on; a loader chosen
# by configuration (annotated with the loaders' base) builds it and hands
# it back through `.eval()`.
from abc import ABC, abstractmethod
from typing import Tuple, Type

import torch
from torch import nn

from serve.models import ModelRegistry


def get_model_architecture(model_config) -> Tuple[Type[nn.Module], str]:
    architectures = getattr(model_config.hf_config, "architectures", [])
    return ModelRegistry.resolve_model_cls(architectures)


def build_model(model_class: Type[nn.Module], hf_config, cache_config) -> nn.Module:
    return model_class(config=hf_config, cache_config=cache_config)


def _initialize_model(model_config, cache_config) -> nn.Module:
    model_class, _ = get_model_architecture(model_config)
    return build_model(model_class, model_config.hf_config, cache_config=cache_config)


class BaseModelLoader(ABC):
    def __init__(self, load_config):
        self.load_config = load_config

    @abstractmethod
    def load_model(self, *, model_config, cache_config) -> nn.Module: ...


class DefaultModelLoader(BaseModelLoader):
    def load_model(self, *, model_config, cache_config) -> nn.Module:
        with torch.device("cuda"):
            model = _initialize_model(model_config, cache_config)
        return model.eval()


class DummyModelLoader(BaseModelLoader):
    def load_model(self, *, model_config, cache_config) -> nn.Module:
        model = _initialize_model(model_config, cache_config)
        return model.to("cuda")


def get_model_loader(load_config) -> BaseModelLoader:
    if load_config.load_format == "dummy":
        return DummyModelLoader(load_config)
    return DefaultModelLoader(load_config)


def get_model(*, model_config, load_config, cache_config) -> nn.Module:
    loader = get_model_loader(load_config)
    return loader.load_model(model_config=model_config, cache_config=cache_config)
