# expected-no-diagnostics
# The registry builds its model classes where the analysis sees them: only
# those classes' overrides run under the capture.
from .llama import LlamaModel


def create_model(architecture, config):
    return LlamaModel()
