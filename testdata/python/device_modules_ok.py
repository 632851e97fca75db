# expected-no-diagnostics
# The device module a program picks by device type, used outside its
# captures: synchronizing after a replay, and a capture through it that
# keeps every value on the device.
import torch


class GraphRunner:
    def __init__(self, device):
        self.device_module = torch.get_device_module(device)

    def capture(self, model, x):
        graph = torch.cuda.CUDAGraph()
        self.device_module.synchronize()
        with self.device_module.graph(graph):
            y = model(x)
        return graph, y

    def replay(self, graph):
        graph.replay()
        self.device_module.synchronize()
