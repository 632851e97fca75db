# A factory handed to the training loop (`agent_wrapper=make_agent`, then
# `agent = agent_wrapper()`): calling it builds what its returns build, so
# the captured update is that class's, not nothing.
import torch


class Agent:
    def __init__(self, lr):
        self.lr = lr

    def update(self, batch):
        loss = (batch * self.lr).sum()
        print(loss.item())  # expected-error {{sync-tensor-read}} expected-warning {{host-io-in-capture}}
        return loss


class Evaluator:
    def update(self, batch):
        return batch.sum().item()  # built by a factory no capture calls


def train(agent_wrapper, batch):
    agent = agent_wrapper()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        loss = agent.update(batch)
    return graph, loss


def evaluate(evaluator_wrapper, batch):
    return evaluator_wrapper().update(batch)


def main(batch):
    def make_agent() -> Agent:
        return Agent(lr=0.1)

    def make_evaluator():
        return Evaluator()

    train(agent_wrapper=make_agent, batch=batch)
    evaluate(make_evaluator, batch)
