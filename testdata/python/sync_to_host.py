# Copies to the host inside capture.
import torch

static_x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = static_x.relu()
    on_host = y.cpu()  # expected-error {{sync-device-to-host-copy}}
    arr = y.detach().numpy()  # expected-error {{sync-device-to-host-copy}}
    back = y.to("cpu")  # expected-error {{sync-device-to-host-copy}}
    # The copy is the sync, said once; what runs on the host copy is not another.
    lens = (y - 1).detach().cpu().numpy()  # expected-error {{sync-device-to-host-copy}}
    first = y.cpu().tolist()  # expected-error {{sync-device-to-host-copy}}
