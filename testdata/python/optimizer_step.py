# Optimizers that keep their step count on the host cannot be stepped in capture.
import torch

model = torch.nn.Linear(4, 4).cuda()
adam = torch.optim.Adam(model.parameters(), lr=1e-3)
adamw = torch.optim.AdamW(model.parameters(), capturable=False)
static_x = torch.randn(2, 4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    loss = model(static_x).sum()
    loss.backward()
    adam.step()  # expected-error {{optimizer-step-in-capture}}
    adamw.step()  # expected-error {{optimizer-step-in-capture}}

# One param group opts out: PyTorch refuses to capture the step ("param_groups'
# capturable is False") though the optimizer's default is capturable.
head = torch.nn.Linear(4, 4).cuda()
mixed = torch.optim.Adam(
    [{"params": model.parameters()}, {"params": head.parameters(), "capturable": False}],
    lr=1e-3,
    capturable=True,
)
g2 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g2):
    head(static_x).sum().backward()
    mixed.step()  # expected-error {{optimizer-step-in-capture}}
