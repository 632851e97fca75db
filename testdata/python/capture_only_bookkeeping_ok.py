# expected-no-diagnostics
# Host bookkeeping on the capturing side of a capture-status test is meant to
# happen once, at capture: buffers kept alive for the graph's lifetime, a log
# line saying what was captured, done directly or by a helper called there.
import logging

import torch

logger = logging.getLogger(__name__)


class Scheduler:
    def __init__(self):
        self.captured_plans = []
        self.plan = None
        self.graphs_seen = 0

    def _keep_for_graph(self, plan):
        self.captured_plans.append(plan)
        self.graphs_seen += 1
        logger.info("kept plan %d for the graph", self.graphs_seen)

    def metadata(self, lens):
        plan = lens * 2
        is_capturing = torch.cuda.is_current_stream_capturing()
        if is_capturing:
            # Graphs hold raw pointers, not the tensors' owners.
            self.captured_plans.append(plan)
            logger.info("captured a plan")
        else:
            self.plan = plan
        return plan

    def metadata_through_helper(self, lens):
        plan = lens + 1
        if not torch.cuda.is_current_stream_capturing():
            self.plan = plan
        else:
            self._keep_for_graph(plan)
        return plan


sched = Scheduler()
static_lens = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    a = sched.metadata(static_lens)
    b = sched.metadata_through_helper(static_lens)
