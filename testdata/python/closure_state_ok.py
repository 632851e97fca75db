# expected-no-diagnostics
# A pipeline schedule captured whole: its closures update `nonlocal` handles
# and queues of the schedule's own call, which begins and ends inside the
# capture. Nothing they change outlives the captured call.
import torch


def send_recv(y):
    handles = {"recv_prev": y}
    return y, handles


def run_microbatch(model, x, post_forward=None):
    y = model(x)
    if post_forward is not None:
        y = post_forward(y)
    return y


def schedule(model, x, microbatches):
    wait_handles = None
    received = []

    def post_forward(y):
        nonlocal wait_handles
        y, wait_handles = send_recv(y)
        if "recv_prev" in wait_handles:
            received.append(wait_handles.pop("recv_prev"))
        return y

    for _ in range(microbatches):
        run_microbatch(model, x, post_forward=post_forward)
    return received


class FullIterationGraph:
    def __init__(self, step_fn):
        self.step_fn = step_fn
        self.graph = None

    def __call__(self, model, x):
        if self.graph is None:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph):
                self.out = self.step_fn(model, x, 4)
        self.graph.replay()
        return self.out


def train(model, x):
    step = FullIterationGraph(schedule)
    return step(model, x)
