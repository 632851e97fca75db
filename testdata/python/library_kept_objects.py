# A library's object keeps what its constructor is handed by keyword as the
# attribute of that name (diffusers' and transformers' pipelines, Python's
# `self.x = x` habit): calling that attribute under capture runs the
# project's module it was handed, also where the object is built by
# `from_pretrained`, moved by `.to()`, and kept on self by a class whose
# parameter is annotated with the library's class. typing's names are no
# library class: a value annotated `Any` may still be a tensor.
from typing import Any

import torch
from torch import nn
from diffusers import StableDiffusionXLPipeline, UNet2DConditionModel
from transformers import Pipeline


class PatchUNet(nn.Module):
    def __init__(self, unet):
        super().__init__()
        self.unet = unet

    def forward(self, x, record=False):
        if not record:
            return self.unet(x)
        return self.unet(x) * x.sum().item()  # expected-error {{sync-tensor-read}}


class Runner:
    def __init__(self, pipeline: StableDiffusionXLPipeline):
        self.pipeline = pipeline

    def prepare(self, x):
        pipeline = self.pipeline
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            out = pipeline.unet(x, record=True)
        return g, out


def build(path):
    unet = UNet2DConditionModel.from_pretrained(path, subfolder="unet")
    unet = PatchUNet(unet)
    pipeline = StableDiffusionXLPipeline.from_pretrained(path, unet=unet).to("cuda")
    return Runner(pipeline)


class Head(nn.Module):
    def forward(self, x):
        return x[x > 0]  # expected-error {{boolean-mask-indexing}}


class Scorer(nn.Module):
    def forward(self, x):
        return float(x.max())  # expected-error {{sync-tensor-read}}


def keys(values: Any):
    return values.tolist()  # expected-error {{sync-tensor-read}}


def direct(x):
    pipe = Pipeline(model=Head(), scorer=Scorer())
    score = pipe.scorer
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = pipe.model(x)
        score(y)
        keys(y)
