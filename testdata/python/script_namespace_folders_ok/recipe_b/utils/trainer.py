# expected-no-diagnostics
from lib import Base


class Trainer:
    def __init__(self, model: Base):
        self.model = model

    def step(self, x):
        return self.model(x)
