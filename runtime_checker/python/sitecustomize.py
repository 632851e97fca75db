"""graphcheck's Python shim, put on PYTHONPATH by `graphcheck run`.

Reports tensor-level facts CUPTI cannot see (which storage is a parameter's
.grad, when grads are released) into the injection library's event stream.
It only observes: no hook changes a tensor or a result. It patches torch
after torch is imported, so programs that never import torch pay nothing.
"""
import ctypes
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import sys

_emit = None
_site = None  # graphcheck_python_site: the line blamed for frees made below it.
_matters = None  # graphcheck_graph_memory: whether an address can matter to a graph.


def _graph_memory(addr):
    try:
        return _matters is None or bool(_matters(addr))
    except Exception:
        return True


def _event(**fields):
    if _emit is None:
        return
    try:
        _emit(json.dumps(fields).encode())
    except Exception:  # Never let the checker break the program.
        pass


class _FreeSite:
    """Names the user's line for blocks freed inside a call (zero_grad): PyTorch
    frees tensors with the GIL released, where no Python stack can be read."""

    def __enter__(self):
        if _site is not None:
            try:
                _site(_caller().encode())
            except Exception:
                pass

    def __exit__(self, *exc):
        if _site is not None:
            try:
                _site(None)
            except Exception:
                pass
        return False


def _caller():
    """The innermost Python frame outside this shim and torch (hooks run from C++)."""
    frame = sys._getframe(0)
    here = os.path.dirname(os.path.abspath(__file__))
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(here) and "/torch/" not in name:
            return f"{name}:{frame.f_lineno} {frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


# Backward passes, or zero_grad calls, that find no grad in graph memory
# before that watch stands down until the next capture: a hook on every
# parameter costs a training loop a GIL round trip per parameter per step,
# and a grad that aliases a graph does so from the first step after capture.
_QUIET = 3


def _patch_torch(torch):
    import weakref

    # One name per parameter, whoever saw it first (module or optimizer), so
    # installs and releases reported from different places agree.
    names = {}
    hooks = []  # One _GradHook per watched parameter.
    standing_down = []  # Hooks to remove, outside backward (autograd iterates them).
    zero_grad_quiet = [0]

    class GradHook:
        def __init__(self, name, param):
            self.name, self.param, self.handle, self.quiet = name, weakref.ref(param), None, 0

        def arm(self):
            p = self.param()
            self.quiet = 0
            if self.handle is None and p is not None:
                self.handle = p.register_post_accumulate_grad_hook(self)

        def disarm(self):
            if self.handle is not None:
                self.handle.remove()
                self.handle = None

        def __call__(self, p):
            try:
                g = p.grad
                if g is not None and g.is_cuda and _graph_memory(g.data_ptr()):
                    self.quiet = 0
                    where = _caller()  # "?" on autograd's worker threads
                    _event(ev="grad_installed", param=self.name, addr=hex(g.data_ptr()),
                           size=g.numel() * g.element_size(), stack=[where] if where != "?" else [])
                else:
                    self.quiet += 1
                    if self.quiet == _QUIET:
                        standing_down.append(self)
            except Exception:  # An observer must never break the program.
                pass

    def stand_down():
        while standing_down:
            hook = standing_down.pop()
            if hook.quiet >= _QUIET:
                hook.disarm()

    def watch_again():
        # A new capture may give any parameter a grad in graph memory.
        stand_down()
        zero_grad_quiet[0] = 0
        hooks[:] = [h for h in hooks if h.param() is not None]
        for h in hooks:
            h.arm()

    def watch(name, param):
        if id(param) in names or not param.requires_grad:
            return
        names[id(param)] = name
        hook = GradHook(name, param)
        hooks.append(hook)
        hook.arm()

    def watch_module(mod):
        if isinstance(mod, torch.nn.Module):
            for name, p in mod.named_parameters():
                watch(name, p)

    import itertools

    counter = itertools.count()

    def dead(tid):
        _event(ev="tensor_dead", tensor=tid)

    def hand_out(result):
        # Outputs of a graphed callable live in the graph's static memory.
        try:
            flat = result if isinstance(result, (tuple, list)) else (result,)
            for t in flat:
                if isinstance(t, torch.Tensor) and t.is_cuda:
                    tid = f"out#{next(counter)}"
                    _event(ev="tensor_out", tensor=tid, addr=hex(t.data_ptr()),
                           size=t.numel() * t.element_size(), stack=[_caller()])
                    weakref.finalize(t, dead, tid)
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
            watch_module(c)
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

    def grads_of(params):
        """(param, name, grad storage) for CUDA grads, taken before zero_grad runs."""
        out = []
        stand_down()
        if zero_grad_quiet[0] >= _QUIET:
            return out
        try:
            for name, p in params:
                g = p.grad  # Asked before the call: once freed, its block is gone.
                if g is not None and g.is_cuda and _graph_memory(g.data_ptr()):
                    out.append((p, names.get(id(p), name), g.data_ptr(), g.numel() * g.element_size()))
        except Exception:
            pass
        zero_grad_quiet[0] = 0 if out else zero_grad_quiet[0] + 1
        return out

    def released(before):
        # The storage each grad let go of names it when a graph still writes there.
        try:
            for p, name, addr, size in before:
                if p.grad is None:
                    _event(ev="grad_released", param=name, addr=hex(addr), size=size)
        except Exception:
            pass

    module_zero_grad = torch.nn.Module.zero_grad

    def zero_grad(self, *args, **kwargs):
        before = grads_of(self.named_parameters())
        with _FreeSite():
            out = module_zero_grad(self, *args, **kwargs)
        released(before)
        return out

    torch.nn.Module.zero_grad = zero_grad

    optimizer_zero_grad = torch.optim.Optimizer.zero_grad

    def opt_zero_grad(self, *args, **kwargs):
        before = grads_of((f"param{i}", p) for group in self.param_groups
                          for i, p in enumerate(group["params"]))
        with _FreeSite():
            out = optimizer_zero_grad(self, *args, **kwargs)
        released(before)
        return out

    torch.optim.Optimizer.zero_grad = opt_zero_grad

    def step_pre_hook(optimizer, args, kwargs):
        stand_down()
        try:
            for group in optimizer.param_groups:
                for i, p in enumerate(group["params"]):
                    watch(f"param{i}", p)
        except Exception:
            pass

    importlib.import_module("torch.optim.optimizer").register_optimizer_step_pre_hook(step_pre_hook)

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
                    if "/torch/" not in name and not name.startswith(os.path.dirname(__file__)):
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
        watch_again()
        where = _caller()
        if where != "?":
            _event(ev="capture_site", stack=[where])
        return capture_begin(self, *args, **kwargs)

    torch.cuda.CUDAGraph.capture_begin = begin


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
    global _emit, _site, _matters
    lib = os.environ.get("CUDA_INJECTION64_PATH")
    if not lib:
        return
    try:
        injection = ctypes.CDLL(lib)
        _emit = injection.graphcheck_event
        _emit.argtypes = [ctypes.c_char_p]
        _site = injection.graphcheck_python_site
        _site.argtypes = [ctypes.c_char_p]
        _matters = injection.graphcheck_graph_memory
        _matters.argtypes = [ctypes.c_ulonglong]
    except OSError as exc:
        print(f"graphcheck: Python shim cannot reach the injection library ({exc})", file=sys.stderr)
        return
    sys.meta_path.insert(0, _TorchHook())


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
