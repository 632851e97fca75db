# Device, stream and event synchronization and queries inside capture.
import torch as T

s = T.cuda.Stream()
done = T.cuda.Event()
static_x = T.zeros(4, device="cuda")
g = T.cuda.CUDAGraph()
with T.cuda.graph(g):
    static_x.add_(1)
    T.cuda.synchronize()  # expected-error {{sync-device-synchronize}}
    s.synchronize()  # expected-error {{sync-device-synchronize}}
    done.record()
    done.synchronize()  # expected-error {{sync-device-synchronize}}
    if_ready = done.query()  # expected-error {{sync-event-query}}
