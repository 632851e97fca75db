"""The allocator tracker's Python line for a free made with the GIL released
(PyTorch releases it before a storage dies): read by a helper thread, within
a bounded wait, never by taking the GIL under the allocator's lock."""
import ctypes
import json
import os
import sys
import threading
import time
import unittest

LIB = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ["STACK_PROBE_LIB"]
released = ctypes.CDLL(LIB)  # Calls let the GIL go.
holding = ctypes.PyDLL(LIB)  # Calls keep the GIL.
for lib in (released, holding):
    lib.probe_released_stack.restype = ctypes.c_char_p


def free_site(wait_ms=100, sleep_first_ms=0):
    return json.loads(released.probe_released_stack(wait_ms, sleep_first_ms))  # Freed here.


FREE_LINE = free_site.__code__.co_firstlineno + 1


class ReleasedThreadStackTest(unittest.TestCase):
    def test_names_the_callers_line_and_function(self):
        stack = free_site()["stack"]
        self.assertEqual(stack[0], f"{__file__}:{FREE_LINE} free_site")
        self.assertTrue(stack[1].endswith(" test_names_the_callers_line_and_function"), stack)

    def test_other_threads_are_read_as_their_own(self):
        out = {}

        def worker():
            out["stack"] = free_site()["stack"]

        t = threading.Thread(target=worker)
        t.start()
        t.join()
        self.assertEqual(out["stack"][0], f"{__file__}:{FREE_LINE} free_site")
        self.assertTrue(out["stack"][1].endswith(" worker"), out["stack"])

    def test_a_gil_held_elsewhere_costs_a_bounded_wait_not_a_deadlock(self):
        holder = threading.Thread(target=holding.probe_hold_gil, args=(600,))
        result = {}

        def asker():
            # Asks once the holder has the GIL and sleeps with it.
            result.update(free_site(wait_ms=50, sleep_first_ms=150))

        a = threading.Thread(target=asker)
        a.start()
        time.sleep(0.02)
        holder.start()
        a.join()
        holder.join()
        self.assertEqual(result["stack"], [])
        self.assertLess(result["ms"], 300)
        # Once the GIL is free again the helper has caught up and answers.
        time.sleep(0.05)
        self.assertEqual(free_site()["stack"][0], f"{__file__}:{FREE_LINE} free_site")

    def test_a_forked_child_reads_with_its_own_helper(self):
        self.assertTrue(free_site()["stack"])  # The parent's helper runs.
        pid = os.fork()
        if pid == 0:
            out = free_site()
            os._exit(0 if out["stack"] and out["stack"][0].endswith(" free_site") else 1)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)

    def test_a_thread_holding_the_gil_gets_nothing_here(self):
        # pythonStackIfHeld serves that case; this reader must not wait on itself.
        out = json.loads(holding.probe_released_stack(50, 0))
        self.assertEqual(out["stack"], [])
        self.assertLess(out["ms"], 10)


if __name__ == "__main__":
    unittest.main()
