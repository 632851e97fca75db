# expected-no-diagnostics
# Decode inputs made by the serving loop and the warm-up: a dataclass whose
# `is_prefill` defaults to False, handed back in tuples and collected in a
# list.
import dataclasses

import torch

from serving.runner import Model


@dataclasses.dataclass
class Input:
    ids: torch.Tensor
    batch_size: int
    seq_lens: torch.Tensor
    is_prefill: bool = False
    cached_lens: torch.Tensor = None


def prepare_decode(reqs):
    ids = torch.tensor(reqs, device="cuda")
    return Input(ids=ids, batch_size=len(reqs), seq_lens=ids), len(reqs)


def prepare_pair(reqs):
    first, n0 = prepare_decode(reqs[: len(reqs) // 2])
    second, n1 = prepare_decode(reqs[len(reqs) // 2 :])
    return first, n0, second, n1


def serve(model: Model, reqs):
    first, _, second, _ = prepare_pair(reqs)
    return model.overlap_decode(first, second)


def warmup(model: Model, ids):
    batches = []
    for _ in range(2):
        batches.append(Input(ids, ids.shape[0], ids, is_prefill=False))
    return model.overlap_decode(batches[0], batches[1])
