# The example's training loop in Python, as most users write it: a model captured whole with
# torch.cuda.graph and replayed per batch. Four capture bugs are planted; graphlint reports each.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 64)
        self.fc2 = nn.Linear(64, 10)
        self.dropout_gen = torch.Generator(device="cuda")
        self.forward_calls = 0

    def forward(self, x):
        self.forward_calls += 1  # bug: a host counter replays never advance
        h = torch.relu(self.fc1(x))
        keep = torch.rand(h.shape, device=h.device, generator=self.dropout_gen)  # bug: unregistered generator
        h = h * (keep > 0.1)
        if h.abs().max() > 100:  # bug: a branch on a device value (a sync)
            h = h / 100
        return self.fc2(h)


def main():
    model = Net().cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    static_x = torch.randn(32, 64, device="cuda")
    static_y = torch.randint(0, 10, (32,), device="cuda")

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # warm-up
            opt.zero_grad(set_to_none=True)
            nn.functional.cross_entropy(model(static_x), static_y).backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(side)

    g = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(g):
        static_loss = nn.functional.cross_entropy(model(static_x), static_y)
        static_loss.backward()
        opt.step()

    for step in range(100):
        x = torch.randn(32, 64)
        static_x = x.cuda()  # bug: rebinds the static input; the graph keeps reading the old one
        static_y.copy_(torch.randint(0, 10, (32,)))
        g.replay()
        if step % 10 == 0:
            print(f"step {step} loss {static_loss.item():.3f}")


if __name__ == "__main__":
    main()
