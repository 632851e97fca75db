# Clean: torch.compile(mode="reduce-overhead"), the way most users get CUDA
# graphs today. CUDA graph trees capture forward and backward into one shared
# pool, hand out outputs they overwrite on the next run, and free and reuse
# that pool's blocks between runs: a correct training loop and an inference
# loop that copies what it keeps.
# graphcheck: --mode light
# graphcheck: --mode verify
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
train_step = torch.compile(model, mode="reduce-overhead")
x = torch.randn(32, 64, device="cuda")
y = torch.randn(32, 1, device="cuda")
for _ in range(8):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(train_step(x), y)
    loss.backward()
    opt.step()
print(f"train loss {loss.item():.5f}")

infer = torch.compile(model.eval(), mode="reduce-overhead")
kept = []
with torch.no_grad():
    for i in range(6):
        kept.append(infer(x + i).clone())
print("infer " + " ".join(f"{t.sum().item():.4f}" for t in kept))
