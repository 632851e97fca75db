# expected-no-diagnostics
# Two recipes, each a script next to its own utils/ folder without an
# __init__.py (a namespace package to the script, as Python runs it: the
# script's folder comes first on sys.path). recipe_a's `utils.trainer` is
# its own, which captures; the model it is handed is recipe_a's Safe, not
# every Base the program builds.
from lib import Safe
from utils.trainer import Trainer


def main(x):
    Trainer(Safe()).step(x)
