# expected-no-diagnostics
# What a library's constructor keeps runs only where that attribute of that
# class's object is called: another attribute, another library class's
# object, and a branch the call's literal rules out run none of it.
import torch
from torch import nn
from diffusers import StableDiffusionPipeline
from transformers import Pipeline


class Debug(nn.Module):
    def forward(self, x, record=False):
        if not record:
            print(x.sum().item())
        return x * 2


class Vae(nn.Module):
    def forward(self, x):
        return x.nonzero()


def build(path):
    return StableDiffusionPipeline.from_pretrained(path, unet=Debug(), vae=Vae())


def capture(path, x):
    pipe = build(path)
    other = Pipeline(model=nn.Linear(4, 4))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = pipe.unet(x, record=True)
        y = other.vae(y)
        y = other.model(y)
    pipe.vae(y)
    return g, y
