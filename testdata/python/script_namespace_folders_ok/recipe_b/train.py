# expected-no-diagnostics
from lib import Eager
from utils.trainer import Trainer


def main(x):
    Trainer(Eager()).step(x)
