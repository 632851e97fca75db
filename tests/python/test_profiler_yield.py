"""The Python shim hands CUPTI to torch.profiler, without torch or a GPU:
when it steps aside, and that it does so once, before Kineto starts."""
import os
import sys
import types
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from test_grad_watch import load_shim  # noqa: E402


class Activity:
    def __init__(self, name):
        self.name = name


CPU, CUDA = Activity("CPU"), Activity("CUDA")


class ProfilerYieldTest(unittest.TestCase):
    def setUp(self):
        self.shim = load_shim()
        self.calls = []
        self.handed_over = 1  # What the injection answers: 1 when it let go of CUPTI.

        def yield_cupti(site):
            self.calls.append(("yield", site.decode()))
            return self.handed_over

        self.shim._yield = yield_cupti
        self.autograd = types.SimpleNamespace(
            _prepare_profiler=lambda config, activities: self.calls.append(("prepare",)),
            _enable_profiler=lambda config, activities, scopes=None: self.calls.append(("enable",)))
        self.profiler = types.SimpleNamespace(_prepare_profiler=self.autograd._prepare_profiler,
                                              _enable_profiler=self.autograd._enable_profiler)
        self.stops = []
        self.shim._yield_to_profiler((self.autograd, self.profiler),
                                     lambda: self.stops.append(True))

    def test_cuda_profile_takes_cupti_before_kineto_starts_once(self):
        self.profiler._prepare_profiler(None, {CPU, CUDA})
        self.profiler._enable_profiler(None, {CPU, CUDA})
        self.autograd._prepare_profiler(None, activities={CUDA})
        self.assertEqual([c[0] for c in self.calls], ["yield", "prepare", "enable", "prepare"])
        self.assertEqual(self.stops, [True])  # The shim's own watching ends with it.
        # The site is the user's line, here this test's.
        self.assertIn("test_profiler_yield.py:", self.calls[0][1])

    def test_refused_hand_over_keeps_the_grad_watch(self):
        self.handed_over = 0  # CUPTI would not let graphcheck go: it checks on.
        self.profiler._prepare_profiler(None, {CPU, CUDA})
        self.assertEqual([c[0] for c in self.calls], ["yield", "prepare"])
        self.assertEqual(self.stops, [])

    def test_cpu_only_profile_keeps_graphcheck_watching(self):
        self.profiler._prepare_profiler(None, {CPU})
        self.profiler._enable_profiler(None, [CPU])
        self.assertEqual([c[0] for c in self.calls], ["prepare", "enable"])
        self.assertEqual(self.stops, [])

    def test_unreadable_activities_yield_rather_than_blind_the_profiler(self):
        self.profiler._prepare_profiler(None, 42)
        self.assertEqual(self.calls[0][0], "yield")

    def test_without_the_injection_nothing_is_wrapped(self):
        shim = load_shim()
        module = types.SimpleNamespace(_prepare_profiler=print)
        shim._yield_to_profiler((module,))
        self.assertIs(module._prepare_profiler, print)


if __name__ == "__main__":
    unittest.main()
