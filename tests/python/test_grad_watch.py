"""The Python shim's grad watch, without torch or a GPU: which grad events
reach the trace for the grad lifetimes graphcheck cares about."""
import importlib.util
import json
import os
import unittest
import weakref

SHIM = os.path.join(os.path.dirname(__file__), "..", "..", "runtime_checker", "python",
                    "sitecustomize.py")


def load_shim():
    # Loaded under another name: importing it as sitecustomize would install it.
    spec = importlib.util.spec_from_file_location("graphcheck_shim", SHIM)
    module = importlib.util.module_from_spec(spec)
    saved = os.environ.pop("CUDA_INJECTION64_PATH", None)
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is not None:
            os.environ["CUDA_INJECTION64_PATH"] = saved
    return module


class Grad:
    def __init__(self, addr, numel=16):
        self.addr, self.n, self.is_cuda = addr, numel, True

    def data_ptr(self):
        return self.addr

    def numel(self):
        return self.n

    def element_size(self):
        return 4


class Param:
    def __init__(self):
        self.grad, self.requires_grad = None, True


GRAPH = 0x7000  # Addresses at or above are graph memory.


class GradWatchTest(unittest.TestCase):
    def setUp(self):
        self.shim = load_shim()
        self.events = []
        self.emits = 0  # Calls into the injection, each one JSON Lines string.
        self.asked = []  # Addresses the injection was asked about.

        def emit(lines):
            self.emits += 1
            self.events.extend(json.loads(line) for line in lines.decode().split("\n"))

        def matters(addr):
            self.asked.append(addr)
            return addr >= GRAPH

        self.shim._emit = emit
        self.shim._matters = matters
        self.epoch = 0  # What graph memory is changes only where a test moves it.
        self.shim._epoch = lambda: self.epoch
        self.capturing = False
        self.watch = self.shim._GradWatch(weakref, lambda: self.capturing)

    def kinds(self):
        out = [(e["ev"], e["param"], e["addr"]) for e in self.events]
        self.events.clear()
        return out

    def test_adopted_graph_buffer_is_installed_once_and_released_by_zero_grad(self):
        w = Param()
        self.watch.watch("weight", w)
        w.grad = Grad(0x7100)  # autograd adopted the graph's buffer
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7100")])
        self.watch.check()  # Same grad, nothing new to say.
        self.assertEqual(self.kinds(), [])
        before = self.watch.in_graph_memory()
        self.assertEqual([s.name for s in before], ["weight"])
        w.grad = None  # zero_grad(set_to_none=True)
        self.watch.released(before)
        self.assertEqual(self.kinds(), [("grad_released", "weight", "0x7100")])
        w.grad = Grad(0x7100)  # The next step adopts it again: a new install.
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7100")])

    def test_grad_lines_are_the_json_of_every_field_whatever_the_name(self):
        # Grad lines are formatted by hand for speed: they must read back as
        # the same objects json.dumps would have written.
        odd = 'layer."q"\\proj\n\u00e9'
        w = Param()
        self.watch.watch(odd, w)
        w.grad = Grad(0x7100, numel=3)
        self.watch.check()
        before = self.watch.in_graph_memory()
        w.grad = None
        self.watch.released(before)
        installed, released = self.events
        self.assertEqual(set(installed), {"ev", "param", "addr", "size", "stack"})
        self.assertEqual((installed["param"], installed["addr"], installed["size"]),
                         (odd, "0x7100", 12))
        self.assertIsInstance(installed["stack"], list)
        self.assertEqual(released, {"ev": "grad_released", "param": odd, "addr": "0x7100",
                                    "size": 12})

    def test_a_step_reaches_the_injection_once_per_check_not_once_per_grad(self):
        w, b = Param(), Param()
        self.watch.watch("weight", w)
        self.watch.watch("bias", b)
        w.grad, b.grad = Grad(0x7100), Grad(0x7200)
        self.watch.check()
        self.assertEqual(self.emits, 1)
        before = self.watch.in_graph_memory()
        w.grad = b.grad = None  # zero_grad(set_to_none=True)
        self.watch.released(before)
        self.assertEqual(self.emits, 2)
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7100"),
                                        ("grad_installed", "bias", "0x7200"),
                                        ("grad_released", "weight", "0x7100"),
                                        ("grad_released", "bias", "0x7200")])
        # The next step's backward hands the same buffers back: installed
        # again, in one call as well.
        w.grad, b.grad = Grad(0x7100), Grad(0x7200)
        self.watch.check()
        self.assertEqual(self.emits, 3)
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7100"),
                                        ("grad_installed", "bias", "0x7200")])
        self.watch.check()  # Nothing changed: nothing sent.
        self.assertEqual(self.emits, 3)

    def test_a_buffer_whose_graph_is_gone_is_not_installed_again(self):
        global GRAPH
        w = Param()
        self.watch.watch("weight", w)
        w.grad = Grad(0x7100)
        self.watch.check()
        before = self.watch.in_graph_memory()
        w.grad = None
        self.watch.released(before)
        self.kinds()
        # The graph was destroyed and its memory reused: the same address is
        # ordinary memory now, and the parameter stands down in time.
        saved, GRAPH = GRAPH, 0x10000
        self.epoch += 1
        try:
            for _ in range(self.shim._QUIET):
                w.grad = Grad(0x7100)
                self.watch.check()
                w.grad = None
        finally:
            GRAPH = saved
        self.assertEqual(self.kinds(), [])
        self.assertEqual(self.watch.suspects, {})

    def test_the_buffer_handed_back_each_step_is_asked_about_once_per_epoch(self):
        w = Param()
        self.watch.watch("weight", w)
        for _ in range(3):  # backward installs it, zero_grad releases it
            w.grad = Grad(0x7100)
            self.watch.check()
            before = self.watch.in_graph_memory()
            w.grad = None
            self.watch.released(before)
        self.assertEqual(self.asked, [0x7100])
        self.assertEqual([e[0] for e in self.kinds()], ["grad_installed", "grad_released"] * 3)
        self.epoch += 1  # A graph was instantiated or a watched block freed.
        w.grad = Grad(0x7100)
        self.watch.check()
        self.assertEqual(self.asked, [0x7100, 0x7100])
        w.grad = Grad(0x7200)  # Another address: asked whatever the epoch.
        self.watch.check()
        self.assertEqual(self.asked, [0x7100, 0x7100, 0x7200])

    def test_without_an_epoch_every_install_is_asked_about(self):
        self.shim._epoch = None
        w = Param()
        self.watch.watch("weight", w)
        for _ in range(2):
            w.grad = Grad(0x7100)
            self.watch.check()
            w.grad = None
            self.watch.check()
        self.assertEqual(self.asked, [0x7100, 0x7100])

    def test_the_users_line_is_formatted_once_per_line(self):
        def from_here():
            return self.shim._caller_site()
        first, again = from_here(), from_here()
        self.assertIs(first, again)
        self.assertTrue(first.text.startswith(f"{__file__}:"))
        self.assertTrue(first.text.endswith(" from_here"))
        self.assertEqual(json.loads(first.stack), [first.text])
        self.assertIsNot(self.shim._caller_site(), first)  # another line

    def test_grad_replaced_by_own_memory_is_released(self):
        w = Param()
        self.watch.watch("weight", w)
        w.grad = Grad(0x7100)
        self.watch.check()
        w.grad = Grad(0x100)  # e.g. `p.grad = p.grad.clone()`
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7100"),
                                        ("grad_released", "weight", "0x7100")])

    def test_quiet_parameters_stop_being_checked_until_the_next_capture(self):
        w = Param()
        self.watch.watch("weight", w)
        for step in range(self.shim._QUIET):
            w.grad = Grad(0x100 + step)
            self.watch.check()
        self.assertEqual(self.watch.suspects, {})
        w.grad = Grad(0x7200)  # Not looked at: the parameter stood down.
        self.watch.check()
        self.assertEqual(self.kinds(), [])
        self.watch.watch_again()  # capture_begin
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x7200")])

    def test_after_handing_cupti_to_a_profiler_nothing_is_watched(self):
        w = Param()
        self.watch.watch("weight", w)
        self.watch.stop()
        w.grad = Grad(0x7100)
        self.watch.check()
        self.watch.watch_again()  # A capture after the hand-over re-arms nothing.
        self.watch.watch("bias", Param())
        self.watch.check()
        self.assertEqual(self.kinds(), [])
        self.assertEqual(self.watch.suspects, {})

    def test_grad_missing_does_not_count_as_quiet(self):
        w = Param()
        self.watch.watch("weight", w)
        for _ in range(2 * self.shim._QUIET):
            self.watch.check()
        self.assertIn(id(w), self.watch.suspects)

    def test_grad_made_during_capture_is_reported_while_capturing(self):
        w = Param()
        self.watch.watch("weight", w)
        self.capturing = True
        w.grad = Grad(0x300)  # Not yet known as graph memory while capturing.
        self.watch.check()
        self.capturing = False
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "weight", "0x300")])
        self.assertEqual(len(self.watch.in_graph_memory()), 1)

    def test_dead_parameter_is_forgotten_and_its_id_may_be_reused(self):
        w = Param()
        self.watch.watch("old", w)
        del w
        self.watch.check()
        self.assertEqual(self.watch.suspects, {})
        fresh = Param()
        self.watch.watch("fresh", fresh)
        fresh.grad = Grad(0x7300)
        self.watch.check()
        self.assertEqual(self.kinds(), [("grad_installed", "fresh", "0x7300")])

    def test_frozen_parameters_are_not_watched(self):
        w = Param()
        w.requires_grad = False
        self.watch.watch("frozen", w)
        self.assertEqual(self.watch.suspects, {})


if __name__ == "__main__":
    unittest.main()
