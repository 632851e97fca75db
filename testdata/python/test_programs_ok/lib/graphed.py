# expected-no-diagnostics
# Captures the schedule it wraps, with the keywords its caller passes.
import torch


class GraphedSchedule:
    def __init__(self, schedule):
        self.schedule = schedule
        self.graph = torch.cuda.CUDAGraph()

    def __call__(self, **kwargs):
        with torch.cuda.graph(self.graph):
            return self.schedule(**kwargs)
