# expected-no-diagnostics
# A graphed module with capture-safe code, as in the PyTorch docs.
import torch

module1 = torch.nn.Linear(8, 8).cuda()


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 2)

    def forward(self, x):
        return torch.relu(self.lin(x))


head = Head().cuda()
x = torch.randn(4, 8, device="cuda")
module1, head = torch.cuda.make_graphed_callables((module1, head), ((x,), (x,)))
for data in range(3):
    out = head(module1(x))
    print(out.sum().item())
