"""graphcheck's Python shim, put on PYTHONPATH by `graphcheck run`.

Reports tensor-level facts CUPTI cannot see (which storage is a parameter's
.grad, when grads are released) into the injection library's event stream.
It only observes: no hook changes a tensor or a result. It patches torch
after torch is imported, so programs that never import torch pay nothing.
"""
import ctypes
import functools
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import time

_emit = None
_site = None  # graphcheck_python_site: the line blamed for frees made below it.
_matters = None  # graphcheck_graph_memory: whether an address can matter to a graph.
_epoch = None  # graphcheck_graph_memory_epoch: moves whenever an answer of _matters may change.
_yield = None  # graphcheck_yield_cupti: hands CUPTI over to a profiler.

# GRAPHCHECK_SELF_TIME=1: the shim adds up the time its own code takes in the
# program's steps (the injection does the same for its callbacks) and says it
# at exit, a figure that the host's noise does not move as it moves loop times.
_TIMED = os.environ.get("GRAPHCHECK_SELF_TIME", "0") not in ("", "0")
_self_ns = {}  # hook -> [nanoseconds, calls]


def _spent(hook, t0):
    spent = _self_ns.setdefault(hook, [0, 0])
    spent[0] += time.perf_counter_ns() - t0
    spent[1] += 1


def _timed(hook):
    """Adds what the function takes to hook's share under GRAPHCHECK_SELF_TIME;
    else the function itself, at no cost."""
    def wrap(fn):
        if not _TIMED:
            return fn

        @functools.wraps(fn)
        def timed(*args, **kwargs):
            t0 = time.perf_counter_ns()
            try:
                return fn(*args, **kwargs)
            finally:
                _spent(hook, t0)
        return timed
    return wrap


def _report_self_time():
    total = sum(ns for ns, _ in _self_ns.values())
    parts = ", ".join(f"{hook} {ns / 1e6:.3f} ms ({calls})"
                      for hook, (ns, calls) in sorted(_self_ns.items()))
    print(f"graphcheck shim self-time: {total / 1e6:.3f} ms: {parts or 'no hook ran'}",
          file=sys.stderr)


def _graph_memory(addr):
    try:
        return _matters is None or bool(_matters(addr))
    except Exception:
        return True


def _memory_epoch():
    """None when the injection cannot say: every address is then asked anew."""
    try:
        return None if _epoch is None else _epoch()
    except Exception:
        return None


def _event(**fields):
    _emit_lines([json.dumps(fields)])


def _emit_lines(lines):
    # One call into the injection per batch: a training step that releases
    # and re-installs every graphed parameter's grad pays one ctypes round
    # trip and one flushed write, not one per parameter. The trace is JSON
    # Lines, so the lines go as one string.
    if _emit is None or not lines:
        return
    try:
        _emit("\n".join(lines).encode())
    except Exception:  # Never let the checker break the program.
        pass


def _grad_line(ev, s, stack=None):
    # Grad events are the shim's per-step traffic: formatted directly from the
    # parameter's name encoded once (json.dumps per event cost more than the
    # rest of a step's checks together).
    line = f'{{"ev": "{ev}", "param": {s.name_json}, "addr": "{s.addr:#x}", "size": {s.size}'
    return line + (f', "stack": {stack}}}' if stack is not None else "}")


class _FreeSite:
    """Names the user's line for blocks freed inside a call (zero_grad). PyTorch
    frees tensors with the GIL released; the injection can still read the
    line through a helper thread, but this costs it no round trip."""

    def __enter__(self):
        if _site is not None:
            try:
                _site(_caller_site().encoded)
            except Exception:
                pass

    def __exit__(self, *exc):
        if _site is not None:
            try:
                _site(None)
            except Exception:
                pass
        return False


class _Where:
    """A user's line as the trace spells it, formatted once per line: the same
    backward() or step() line comes back every training step."""
    __slots__ = ("text", "stack", "encoded")

    def __init__(self, text):
        self.text = text
        self.stack = json.dumps([text])
        self.encoded = text.encode()


_NOWHERE = _Where("?")
_skipped = {}  # code object -> whether its frames are this shim's or torch's
_lines = {}  # (code object, line) -> _Where
_MAX_LINES = 4096  # Generated code can make lines without end: forget them then.


def _caller_site():
    """The innermost Python frame outside this shim and torch (hooks run from C++)."""
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        skip = _skipped.get(code)
        if skip is None:
            name = code.co_filename
            skip = _skipped[code] = name == __file__ or "/torch/" in name
        if not skip:
            key = (code, frame.f_lineno)
            where = _lines.get(key)
            if where is None:
                if len(_lines) >= _MAX_LINES:
                    _lines.clear()
                    _skipped.clear()
                where = _lines[key] = _Where(f"{code.co_filename}:{frame.f_lineno} {code.co_name}")
            return where
        frame = frame.f_back
    return _NOWHERE


def _caller():
    return _caller_site().text


_UNREAD = object()

# Checks that find a parameter's grad outside graph memory before that
# parameter stops being checked, until the next capture: a grad that aliases a
# graph does so from the first step after capture, and a loop over every
# parameter at every step is what a training loop would pay otherwise.
_QUIET = 3


class _Suspect:
    __slots__ = ("name", "name_json", "ref", "quiet", "addr", "size", "asked", "epoch", "answer")

    def __init__(self, name, ref):
        self.name, self.ref, self.quiet, self.addr, self.size = name, ref, 0, 0, 0
        self.name_json = json.dumps(name)
        # The last address asked about, at which epoch, and the answer: the
        # buffer autograd hands back each step is asked about once.
        self.asked, self.epoch, self.answer = 0, None, False

    def in_graph_memory(self, addr, epoch):
        if epoch is None or addr != self.asked or epoch != self.epoch:
            self.asked, self.epoch, self.answer = addr, epoch, _graph_memory(addr)
        return self.answer


class _GradWatch:
    """Which parameters' .grad may be graph memory, and what the trace was told.

    No autograd hooks: a post-accumulate hook costs every backward pass a GIL
    round trip per parameter even after it is removed. The grads are read
    instead where the main thread already is, once per step: after
    torch.autograd.backward, before an optimizer step and around zero_grad.
    """

    def __init__(self, weakref, capturing):
        self.weakref = weakref
        self.capturing = capturing  # whether the current stream is capturing
        self.names = {}  # id(param) -> (name, weakref), whoever saw it first
        self.suspects = {}  # id(param) -> _Suspect, those still checked
        self.stopped = False  # graphcheck handed CUPTI to a profiler

    def stop(self):
        self.names.clear()
        self.suspects.clear()
        self.stopped = True

    def watch(self, name, param):
        if self.stopped:
            return
        known = self.names.get(id(param))
        if (known is not None and known[1]() is param) or not param.requires_grad:
            return
        ref = self.weakref.ref(param)
        self.names[id(param)] = (name, ref)
        self.suspects[id(param)] = _Suspect(name, ref)

    def watch_again(self):
        # A new capture may give any parameter a grad in graph memory.
        live = {}
        for key, (name, ref) in self.names.items():
            if ref() is not None:
                live[key] = (name, ref)
                old = self.suspects.get(key)
                self.suspects[key] = _Suspect(name, ref) if old is None else old
                self.suspects[key].quiet = 0
        self.names = live

    def check(self):
        """Tells the trace about grads that became, or stopped being, graph memory."""
        if not self.suspects:
            return
        stack = capturing = None
        epoch = _UNREAD
        batch = []
        for key, s in list(self.suspects.items()):
            p = s.ref()
            if p is None:
                del self.suspects[key]
                continue
            g = p.grad
            addr = g.data_ptr() if g is not None and g.is_cuda else 0
            if addr == s.addr:
                continue
            if s.addr:
                batch.append(_grad_line("grad_released", s))
                s.addr = 0
            if not addr:
                continue
            # Last step's buffer is asked about again once graph memory
            # changed: its graph may be gone and the address ordinary memory
            # now (the epoch is read before the question, so a change while
            # asking means asking again next time). A grad made during capture
            # is the documented whole-network pattern: the graph refills it at
            # every replay by design, and the trace is told so while the
            # capture is still open. Asked second: the status query is a CUDA
            # call (~14 us), and a grad in graph memory needs no answer.
            if epoch is _UNREAD:
                epoch = _memory_epoch()
            in_graph = s.in_graph_memory(addr, epoch)
            if not in_graph and capturing is None:
                capturing = self.capturing()
            if in_graph or capturing:
                if stack is None:
                    where = _caller_site()  # The user's backward() or step() line.
                    stack = where.stack if where is not _NOWHERE else "[]"
                s.addr, s.size, s.quiet = addr, g.numel() * g.element_size(), 0
                batch.append(_grad_line("grad_installed", s, stack))
            else:
                s.quiet += 1
                if s.quiet >= _QUIET:
                    del self.suspects[key]
        _emit_lines(batch)

    def in_graph_memory(self):
        """Suspects whose grad is graph memory now, read before a zero_grad frees it."""
        self.check()
        return [s for s in self.suspects.values() if s.addr]

    def released(self, before):
        # The storage each grad let go of names it when a graph still writes there.
        batch = []
        for s in before:
            p = s.ref()
            if p is not None and p.grad is None:
                batch.append(_grad_line("grad_released", s))
                s.addr = 0
        _emit_lines(batch)


def _patch_torch(torch):
    import weakref

    def capturing():
        # Asked only once a CUDA grad exists: asking earlier could create a
        # CUDA context in a program that never made one.
        return torch.cuda.is_initialized() and torch.cuda.is_current_stream_capturing()

    grads = _GradWatch(weakref, capturing)

    def watch_module(mod):
        if isinstance(mod, torch.nn.Module):
            for name, p in mod.named_parameters():
                grads.watch(name, p)

    # What was already watched, kept beside the objects rather than on them:
    # an observer adds no attribute to the user's modules and optimizers.
    seen_optimizers = weakref.WeakKeyDictionary()  # optimizer -> parameter count
    seen_modules = weakref.WeakSet()

    def watch_optimizer(optimizer):
        # Once per optimizer and parameter count, not once per step.
        try:
            count = sum(len(group["params"]) for group in optimizer.param_groups)
            if seen_optimizers.get(optimizer) == count:
                return
            for group in optimizer.param_groups:
                for i, p in enumerate(group["params"]):
                    grads.watch(f"param{i}", p)
            seen_optimizers[optimizer] = count
        except Exception:
            pass

    import itertools

    counter = itertools.count()

    # id of a weak reference to a graphed output -> the reference and the
    # output's id in the trace. Keyed by the reference's id: equal references
    # compare their tensors, and a tensor's == is no bool.
    outputs = {}

    @_timed("output_freed")
    def dead(ref):
        _, tid = outputs.pop(id(ref), (None, None))
        if tid is not None:
            _emit_lines([f'{{"ev": "tensor_dead", "tensor": "{tid}"}}'])

    @_timed("graphed_output")
    def hand_out(result):
        # Outputs of a graphed callable live in the graph's static memory.
        # Written by hand like grad lines: this runs every step.
        try:
            flat = result if isinstance(result, (tuple, list)) else (result,)
            lines = []
            for t in flat:
                if isinstance(t, torch.Tensor) and t.is_cuda:
                    tid = f"out#{next(counter)}"
                    lines.append(f'{{"ev": "tensor_out", "tensor": "{tid}", '
                                 f'"addr": "{t.data_ptr():#x}", '
                                 f'"size": {t.numel() * t.element_size()}, '
                                 f'"stack": {_caller_site().stack}}}')
                    # A plain weak reference, not weakref.finalize: its death
                    # is told the same way at a fraction of the cost.
                    ref = weakref.ref(t, dead)
                    outputs[id(ref)] = (ref, tid)
            _emit_lines(lines)
        except Exception:
            pass
        return result

    def observed(fn):
        def call(*a, **k):
            return hand_out(fn(*a, **k))
        return call

    original = torch.cuda.make_graphed_callables

    def make_graphed_callables(callables, *args, **kwargs):
        for c in (callables if isinstance(callables, tuple) else (callables,)):
            try:
                watch_module(c)
            except Exception:
                pass
        graphed = original(callables, *args, **kwargs)
        try:
            out = []
            for g in (graphed if isinstance(graphed, tuple) else (graphed,)):
                if isinstance(g, torch.nn.Module):
                    g.forward = observed(g.forward)
                    out.append(g)
                else:
                    out.append(observed(g))
            return tuple(out) if isinstance(graphed, tuple) else out[0]
        except Exception:
            return graphed

    torch.cuda.make_graphed_callables = make_graphed_callables

    @_timed("zero_grad")
    def in_graph_before_zeroing(owner, watch_owner):
        try:
            watch_owner(owner)
            return grads.in_graph_memory()
        except Exception:  # An observer must never break the program.
            return []

    @_timed("zero_grad")
    def released_by_zeroing(before):
        try:
            grads.released(before)
        except Exception:
            pass

    def zeroing(zero_grad, watch_owner):
        @functools.wraps(zero_grad)
        def wrapped(self, *args, **kwargs):
            before = in_graph_before_zeroing(self, watch_owner)
            if not before:
                return zero_grad(self, *args, **kwargs)
            with _FreeSite():
                out = zero_grad(self, *args, **kwargs)
            released_by_zeroing(before)
            return out
        return wrapped

    def watch_module_once(mod):
        if mod not in seen_modules:
            watch_module(mod)
            seen_modules.add(mod)

    torch.nn.Module.zero_grad = zeroing(torch.nn.Module.zero_grad, watch_module_once)
    torch.optim.Optimizer.zero_grad = zeroing(torch.optim.Optimizer.zero_grad, watch_optimizer)

    @_timed("optimizer_step")
    def step_pre_hook(optimizer, args, kwargs):
        watch_optimizer(optimizer)
        try:
            grads.check()
        except Exception:
            pass

    importlib.import_module("torch.optim.optimizer").register_optimizer_step_pre_hook(step_pre_hook)

    # Autograd adopts a graph's output buffer as .grad here, when .grad was None.
    autograd_backward = torch.autograd.backward

    @_timed("backward")
    def after_backward():
        if grads.suspects:
            try:
                grads.check()
            except Exception:
                pass

    @functools.wraps(autograd_backward)
    def backward(*args, **kwargs):
        out = autograd_backward(*args, **kwargs)
        after_backward()
        return out

    torch.autograd.backward = backward

    # PyTorch refuses some operations during capture itself, before any CUDA
    # call CUPTI could see (a copy to pageable host memory raises "Cannot copy
    # between CPU and CUDA tensors during CUDA graph capture"). The exception
    # leaving `torch.cuda.graph` names the line.
    graph_exit = torch.cuda.graph.__exit__

    def exit_graph(self, exc_type, exc, tb):
        try:
            message = str(exc) if exc is not None else ""
            if isinstance(exc, RuntimeError) and "capture" in message:
                stack = []
                for frame, line in __import__("traceback").walk_tb(tb):
                    name = frame.f_code.co_filename
                    if "/torch/" not in name and name != __file__:
                        stack.insert(0, f"{name}:{line} {frame.f_code.co_name}")
                if stack:
                    first = message.splitlines()[0][:200]
                    _event(ev="api_in_capture", api="torch", stack=stack,
                           kind="sync" if "copy" in message or "synchron" in message else "capture",
                           message=f"PyTorch refused an operation during capture: {first}")
        except Exception:
            pass
        return graph_exit(self, exc_type, exc, tb)

    torch.cuda.graph.__exit__ = exit_graph

    # Where each capture begins names its graph in findings. Reported here,
    # where the GIL is held, rather than from inside the CUDA call.
    capture_begin = torch.cuda.CUDAGraph.capture_begin

    def begin(self, *args, **kwargs):
        try:
            grads.watch_again()
        except Exception:
            pass
        where = _caller()
        if where != "?":
            _event(ev="capture_site", stack=[where])
        return capture_begin(self, *args, **kwargs)

    torch.cuda.CUDAGraph.capture_begin = begin

    if os.environ.get("GRAPHCHECK_PROFILER", "yield") != "keep":
        # torch.profiler reaches Kineto through torch.autograd.profiler's
        # globals, older code through torch.autograd's attributes.
        _yield_to_profiler((torch.autograd, importlib.import_module("torch.autograd.profiler")),
                           grads.stop)


def _profiles_cuda(args, kwargs):
    # _prepare_profiler(config, activities) and _enable_profiler(config, activities, ...)
    activities = kwargs.get("activities", args[1] if len(args) > 1 else ())
    try:
        return any(getattr(a, "name", str(a)).rsplit(".", 1)[-1] == "CUDA" for a in activities)
    except TypeError:
        return True


def _yield_to_profiler(modules, stop=lambda: None):
    """Kineto subscribes to CUPTI when a profile with CUDA activity starts, and
    CUPTI serves one subscriber: graphcheck steps aside just before, so the
    user's profile is whole and the report says where checking stopped."""
    if _yield is None:
        return
    done = []

    def handing_over(start):
        @functools.wraps(start)
        def wrapped(*args, **kwargs):
            if not done and _profiles_cuda(args, kwargs):
                done.append(True)
                try:
                    # Only once graphcheck let go: if CUPTI refused, it checks on.
                    if _yield(_caller().encode()):
                        stop()  # Nothing watches the replays any more: stop paying for it.
                except Exception:
                    pass
            return start(*args, **kwargs)
        return wrapped

    for module in modules:
        for name in ("_prepare_profiler", "_enable_profiler"):
            start = getattr(module, name, None)
            if callable(start):
                setattr(module, name, handing_over(start))


class _TorchHook(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            try:
                _patch_torch(module)
            except Exception as exc:  # Report, then let the program run unobserved.
                print(f"graphcheck: Python shim disabled ({exc})", file=sys.stderr)

        spec.loader.exec_module = exec_and_patch
        return spec


def _install():
    global _emit, _site, _matters, _epoch, _yield
    lib = os.environ.get("CUDA_INJECTION64_PATH")
    # GRAPHCHECK_PYTHON_SHIM=off leaves torch unpatched (to rule the shim out
    # when a program misbehaves, or to measure what it costs); CUDA is still
    # watched, without the tensor-level facts only the shim can give.
    if not lib or os.environ.get("GRAPHCHECK_PYTHON_SHIM", "on") == "off":
        return
    try:
        injection = ctypes.CDLL(lib)
        _emit = injection.graphcheck_event
        _emit.argtypes = [ctypes.c_char_p]
        _site = injection.graphcheck_python_site
        _site.argtypes = [ctypes.c_char_p]
        _matters = injection.graphcheck_graph_memory
        _matters.argtypes = [ctypes.c_ulonglong]
        _yield = injection.graphcheck_yield_cupti
        _yield.argtypes = [ctypes.c_char_p]
        _yield.restype = ctypes.c_int
        # Without the epoch every address is asked anew.
        _epoch = getattr(injection, "graphcheck_graph_memory_epoch", None)
        if _epoch is not None:
            _epoch.argtypes = []
            _epoch.restype = ctypes.c_ulonglong
    except (OSError, AttributeError) as exc:
        print(f"graphcheck: Python shim cannot reach the injection library ({exc})", file=sys.stderr)
        return
    sys.meta_path.insert(0, _TorchHook())
    if _TIMED:
        import atexit
        atexit.register(_report_self_time)


def _chain_shadowed_sitecustomize():
    """Python imports only the first sitecustomize on sys.path, and this one
    comes first: run the one it shadows (the user's or the distribution's)."""
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if os.path.abspath(entry or os.curdir) == here:
            continue
        candidate = os.path.join(entry or os.curdir, "sitecustomize.py")
        if os.path.isfile(candidate):
            import importlib.util
            spec = importlib.util.spec_from_file_location("_shadowed_sitecustomize", candidate)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return


_install()
try:
    _chain_shadowed_sitecustomize()
except Exception as exc:  # Its failure is its own; report it as Python would.
    print(f"Error in sitecustomize; set PYTHONVERBOSE for traceback:\n{type(exc).__name__}: {exc}",
          file=sys.stderr)
