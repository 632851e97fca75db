# expected-no-diagnostics
# A schedule that runs whatever step function it is given: the training
# script's, under its capture, and the tests', eagerly.
def run_steps(step_fn, x, steps=1):
    out = x
    for _ in range(steps):
        out = step_fn(out)
    return out
