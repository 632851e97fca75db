# expected-no-diagnostics
# Tests that run the schedule eagerly with steps that read values on the
# host. Their program never captures: before, every step any caller handed
# run_steps was taken to run under the training script's capture.
import torch

from lib.schedule import run_steps
from step_helpers import checking_step


def test_checked_steps():
    run_steps(checking_step, torch.ones(4), steps=2)


def test_local_step():
    def printing_step(x):
        print(x)
        return x

    run_steps(printing_step, torch.ones(4))
