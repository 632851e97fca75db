# expected-no-diagnostics
from torch import nn


class GPT2LMHeadModel(nn.Module):
    def forward(self, input_ids):
        return input_ids * 2


class DebugModel(nn.Module):
    def forward(self, input_ids):
        return input_ids[input_ids > 0]
