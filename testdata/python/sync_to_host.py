# Copies to the host inside capture.
import torch

static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = static_x.relu()
    on_host = y.cpu()  # expected-error {{sync-device-to-host-copy}}
    arr = y.detach().numpy()  # expected-error {{sync-device-to-host-copy}}
    back = y.to("cpu")  # expected-error {{sync-device-to-host-copy}}
