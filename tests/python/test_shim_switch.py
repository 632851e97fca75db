"""GRAPHCHECK_PYTHON_SHIM=off keeps the shim out of a Python process started
by `graphcheck run`, while the sitecustomize it shadows still runs. The
injection is a stand-in library with the shim's entry points (the first
argument), so an installed shim is told apart by its import hook."""
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


INJECTION = None  # Set from the command line.


def run(injection=None, **env):
    full = {k: v for k, v in os.environ.items() if k != "GRAPHCHECK_PYTHON_SHIM"}
    full.update(PYTHONPATH=f"{SHIM_DIR}:{USER_SITE}",
                CUDA_INJECTION64_PATH=injection or INJECTION, **env)
    return subprocess.run([sys.executable, "-c", PROBE], env=full, capture_output=True, text=True)


class ShimSwitchTest(unittest.TestCase):
    def test_on_by_default_it_installs_its_torch_hook(self):
        r = run()
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.stdout.split(), ["True", "True"])

    def test_an_injection_it_cannot_load_is_named_and_nothing_is_installed(self):
        r = run(injection=os.path.join(HERE, "no-such-injection.so"))
        self.assertIn("cannot reach the injection library", r.stderr)
        self.assertEqual(r.stdout.split(), ["True", "False"])

    def test_off_it_stays_out_and_the_shadowed_sitecustomize_still_runs(self):
        r = run(GRAPHCHECK_PYTHON_SHIM="off")
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.stdout.split(), ["True", "False"])


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: test_shim_switch.py FAKE_INJECTION.so [unittest options]")
    INJECTION = os.path.abspath(sys.argv.pop(1))
    unittest.main()
