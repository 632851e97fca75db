"""GRAPHCHECK_PYTHON_SHIM=off keeps the shim out of a Python process started
by `graphcheck run`, while the sitecustomize it shadows still runs."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM_DIR = os.path.join(HERE, "..", "..", "runtime_checker", "python")
USER_SITE = os.path.join(HERE, "..", "..", "testdata", "runtime", "shim")
PROBE = ("import builtins, sys; "
         "print(getattr(builtins, 'GRAPHSAFE_USER_SITECUSTOMIZE_RAN', False), "
         "any(type(f).__name__ == '_TorchHook' for f in sys.meta_path))")


def run(**env):
    full = {k: v for k, v in os.environ.items() if k != "GRAPHCHECK_PYTHON_SHIM"}
    full.update(PYTHONPATH=f"{SHIM_DIR}:{USER_SITE}",
                CUDA_INJECTION64_PATH=os.path.join(HERE, "no-such-injection.so"), **env)
    return subprocess.run([sys.executable, "-c", PROBE], env=full, capture_output=True, text=True)


class ShimSwitchTest(unittest.TestCase):
    def test_on_by_default_it_reaches_for_the_injection(self):
        r = run()
        self.assertIn("cannot reach the injection library", r.stderr)
        self.assertEqual(r.stdout.split(), ["True", "False"])

    def test_off_it_stays_out_and_the_shadowed_sitecustomize_still_runs(self):
        r = run(GRAPHCHECK_PYTHON_SHIM="off")
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.stdout.split(), ["True", "False"])


if __name__ == "__main__":
    unittest.main()
