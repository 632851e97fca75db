# expected-no-diagnostics
# Builds a Legacy optimizer outside any capture: Legacy.step is reachable
# through run_step only where a capture passes a Legacy.
from proj.optim import Legacy, run_step


def train_eagerly():
    run_step(Legacy())
