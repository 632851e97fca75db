# Every spelling of a capture region.
import torch
import torch as T
import torch.cuda.graphs
from torch.cuda import graph
from torch.cuda import graph as cuda_graph
from torch.cuda import CUDAGraph

x = T.randn(4, device="cuda")
g1, g2, g3, g4, g5 = (CUDAGraph() for _ in range(5))
with T.cuda.graph(g1):
    a = x.sum().item()  # expected-error {{sync-tensor-read}}
with graph(g2):
    b = x.sum().item()  # expected-error {{sync-tensor-read}}
with cuda_graph(g3, pool=g1.pool()) as ctx:
    c = x.sum().item()  # expected-error {{sync-tensor-read}}
with torch.cuda.graphs.graph(g4):
    d = x.sum().item()  # expected-error {{sync-tensor-read}}
g5.capture_begin()
e = x.sum().item()  # expected-error {{sync-tensor-read}}
g5.capture_end()
f = x.sum().item()
