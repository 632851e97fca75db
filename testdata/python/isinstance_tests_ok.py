# expected-no-diagnostics
# A factory helper hands back the object it is given when that is already
# one of its kind and builds one from a config otherwise: the captured
# buffer is built with a QuietSampler(), which is a Sampler, so the sampler
# built from a config (which syncs) is never its sampler.
import torch


class Sampler:
    def sample(self, n):
        return torch.arange(n, device="cuda")


class QuietSampler(Sampler):
    def sample(self, n):
        return torch.arange(n, device="cuda") * 2


class ConfigSampler(Sampler):
    def __init__(self, config):
        self.config = config

    def sample(self, n):
        torch.cuda.synchronize()
        return torch.arange(n, device="cuda")


class Buffer:
    def __init__(self, sampler):
        self._sampler = self._make_sampler(sampler)

    def _make_sampler(self, sampler):
        if isinstance(sampler, Sampler):
            return sampler
        return ConfigSampler(sampler)

    def sample(self, n):
        return self._sampler.sample(n)


def main():
    Buffer({"kind": "config"}).sample(4)
    buf = Buffer(QuietSampler())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        buf.sample(8)
