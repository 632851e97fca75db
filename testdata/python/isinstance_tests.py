# A factory helper hands back the object it is given when that is already
# one of its kind and builds one from a config otherwise: a buffer built
# from a config samples with the sampler the config builds, one built with a
# SyncSampler() samples with that (a test through a tuple of classes and a
# negated one alike).
import torch


class Sampler:
    def sample(self, n):
        return torch.arange(n, device="cuda")


class SyncSampler(Sampler):
    def sample(self, n):
        torch.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
        return torch.arange(n, device="cuda")


class ConfigSampler(Sampler):
    def __init__(self, config):
        self.config = config

    def sample(self, n):
        return torch.arange(n, device="cuda").nonzero()  # expected-error {{data-dependent-shape}}


class Buffer:
    def __init__(self, sampler):
        self._sampler = self._make_sampler(sampler)

    def _make_sampler(self, sampler):
        if isinstance(sampler, Sampler):
            return sampler
        return ConfigSampler(sampler)

    def sample(self, n):
        return self._sampler.sample(n)


class TupleBuffer(Buffer):
    def _make_sampler(self, sampler):
        if not isinstance(sampler, (Sampler, dict)):
            raise TypeError("sampler must be a Sampler or a config dict")
        return sampler


def main():
    from_config = Buffer({"kind": "config"})
    synced = TupleBuffer(SyncSampler())
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        from_config.sample(8)
        synced.sample(8)
