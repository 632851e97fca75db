# One capture at a time, one capture per graph object, and the end of an
# explicit capture_begin() on every path.
import torch

model = torch.nn.Linear(8, 8).cuda()
static_x = torch.randn(4, 8, device="cuda")


def capture_head(graph):
    with torch.cuda.graph(graph):  # expected-error {{nested-capture}}
        return model(static_x)


outer = torch.cuda.CUDAGraph()
inner = torch.cuda.CUDAGraph()
with torch.cuda.graph(outer):
    y = model(static_x)
    with torch.cuda.graph(inner):  # expected-error {{nested-capture}}
        z = model(y)
    head = capture_head(torch.cuda.CUDAGraph())

# The same graph object captured twice.
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    a = model(static_x)
with torch.cuda.graph(g):  # expected-error {{capture-begin-twice}}
    b = model(static_x)

# One graph object for every batch size.
graph = torch.cuda.CUDAGraph()
outputs = {}
for bs in (1, 2, 4):
    with torch.cuda.graph(graph):  # expected-error {{capture-begin-twice}}
        outputs[bs] = model(static_x[:bs])


def capture_checked(h, n):
    h.capture_begin()  # expected-warning {{throw-leaves-capture-open}}
    out = model(static_x)
    if n <= 0:
        raise ValueError("empty batch")
    h.capture_end()
    return out


# A loop index tested by something other than equality, or against a value
# the loop moves: the capture runs on more than one iteration.
def capture_first_two(batches):
    g = torch.cuda.CUDAGraph()
    for i in range(len(batches)):
        if i < 2:
            with torch.cuda.graph(g):  # expected-error {{capture-begin-twice}}
                model(batches[i])
        else:
            g.replay()


def capture_at_moving_step(batches, every):
    g = torch.cuda.CUDAGraph()
    next_capture = 0
    for step, batch in enumerate(batches):
        if step == next_capture:
            with torch.cuda.graph(g):  # expected-error {{capture-begin-twice}}
                model(batch)
            next_capture += every
        g.replay()


class Recapturer:
    # The step tested for equality moves with the loop (`self.next` is
    # assigned in it): a capture on more than one iteration.
    def run(self, batches, every):
        graph = torch.cuda.CUDAGraph()
        self.next = 0
        for step in range(len(batches)):
            if step == 0:
                model(batches[step])
            elif step == self.next + 1:
                with torch.cuda.graph(graph):  # expected-error {{capture-begin-twice}}
                    model(batches[step])
                self.next += every
            graph.replay()
