# Clean: frees a graph cannot notice. An output in the graph's own pool dies
# between replays; a graph is reset before its input is freed; an input is
# rebound and then captured again into a new graph (the old one never replays
# again); the last static input dies after the last replay.
import torch
torch.manual_seed(0)
m = torch.nn.Linear(64, 64).cuda()


def capture(x):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s), torch.no_grad():
        m(x)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g), torch.no_grad():
        y = torch.relu(m(x))
    return g, y


static_x = torch.randn(32, 64, device="cuda")
g, static_y = capture(static_x)
total = 0.0
for step in range(3):
    static_x.copy_(torch.randn(32, 64, device="cuda"))
    g.replay()
    total += static_y.sum().item()
del static_y  # The graph's own output dying is normal...
g.replay()  # ...the graph keeps writing its own pool.
g.reset()
del static_x  # Freed after its graph was reset.
static_x = torch.randn(32, 64, device="cuda")
g2, y2 = capture(static_x)
static_x = torch.randn(32, 64, device="cuda")  # Rebound, then captured again.
g3, y3 = capture(static_x)
for step in range(2):
    static_x.copy_(torch.randn(32, 64, device="cuda"))
    g3.replay()
    total += y3.sum().item()
del static_x  # After the last replay.
torch.cuda.synchronize()
print("total is finite:", total == total)
