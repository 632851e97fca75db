# expected-no-diagnostics
# The one program that runs the capture, with a step that captures fine.
import torch

from lib.graphed import GraphedSchedule
from lib.schedule import run_steps


def train_step(x):
    return x * 2


def main():
    graphed = GraphedSchedule(run_steps)
    graphed(step_fn=train_step, x=torch.zeros(4, device="cuda"))


if __name__ == "__main__":
    main()
