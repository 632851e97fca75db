# expected-no-diagnostics
# Logging around replays, and a guarded log line in captured code.
import logging

import torch

logger = logging.getLogger(__name__)


def train_step(x):
    if not torch.cuda.is_current_stream_capturing():
        logger.info("eager step")
    return x * 2


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = train_step(static_x)
for step in range(3):
    g.replay()
    logger.info("step %d", step)
