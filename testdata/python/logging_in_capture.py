# Logging inside captured code runs once, at capture.
import logging
import warnings

import torch

logger = logging.getLogger(__name__)


def train_step(x):
    y = x * 2
    logger.info("step done")  # expected-warning {{host-io-in-capture}}
    logging.debug("debug %d", 3)  # DEBUG is off in training runs: nothing lost
    warnings.warn("slow path")  # printed once per location anyway: nothing lost
    logger.warning("clipped")  # expected-warning {{host-io-in-capture}}
    print("stepping")  # expected-warning {{host-io-in-capture}}
    return y


static_x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_y = train_step(static_x)
