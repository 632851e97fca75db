#!/usr/bin/env python3
"""Regenerates analyzer/python/data/torch-returns.tsv from an installed PyTorch.

graphlint needs to know which `torch.*` calls give tensors and which give host
values (bools, numbers, strings, devices, dtypes): a branch on a tensor is
data-dependent, a branch on `torch.jit.is_scripting()` is not. The table is
read from PyTorch's own declarations, not guessed from names:

- the type stubs the wheel ships (`torch/_C/*.pyi`, `torch/**/*.pyi`), whose
  `def name(...) -> Ret` lines give the return type of every builtin,
  overloads included;
- the annotations of the Python-level functions of torch's public modules
  (`inspect.signature`), for what has no stub;
- for `Tensor` methods, the stub of `torch._C.TensorBase`.

Usage (on a machine with the PyTorch to describe):
    python3 scripts/gen-torch-returns.py > analyzer/python/data/torch-returns.tsv

Each line: `qualified-name<TAB>kind`, kind one of tensor, bool, number, str,
device, dtype, none, stream, event, generator, other. A name whose overloads
disagree takes `mixed` (graphlint then knows nothing about it).
"""
import ast
import importlib
import inspect
import os
import pkgutil
import sys

import torch

ROOT = os.path.dirname(torch.__file__)

# Modules whose public callables users call inside captured code.
MODULES = [
    "torch", "torch.cuda", "torch.cuda.amp", "torch.cuda.graphs", "torch.cuda.memory",
    "torch.cuda.random", "torch.cuda.streams", "torch.jit", "torch.xpu", "torch.mps",
    "torch.cpu", "torch.amp", "torch.autograd", "torch.autograd.grad_mode",
    "torch.nn.functional", "torch.nn.init", "torch.nn.utils", "torch.linalg", "torch.fft",
    "torch.special", "torch.random", "torch.distributed", "torch.backends",
    "torch.backends.cuda", "torch.backends.cudnn", "torch.backends.mps", "torch.overrides",
    "torch.utils.checkpoint", "torch.compiler", "torch._dynamo", "torch.fx",
    "torch.distributed.distributed_c10d", "torch.functional", "torch.accelerator",
    "torch._utils", "torch._jit_internal", "torch.testing", "torch.library",
]


def kind_of(ann):
    """The kind an annotation's text names."""
    if ann is None:
        return None
    t = ann.replace("torch.", "").replace("typing.", "").replace(" ", "")
    if t in ("None", "NoReturn"):
        return "none"
    # `torch.return_types.topk` and the like: named tuples of tensors, whose
    # elements (`values, indices = x.topk(k)`) are what the code tests.
    if "return_types" in t:
        return "tensor"
    if "Tensor" in t or t.startswith("Parameter"):
        return "tensor"
    if t in ("bool", "_bool", "builtins.bool"):
        return "bool"
    if t in ("int", "_int", "float", "_float", "complex", "_complex", "Number", "SymInt",
             "SymFloat", "SymBool", "Union[int,SymInt]", "Union[_int,SymInt]", "_size"):
        return "number" if t != "SymBool" else "bool"
    if t in ("str", "_str", "builtins.str"):
        return "str"
    if t in ("device", "_device", "_C.device", "Optional[device]"):
        return "device"
    if t in ("dtype", "_dtype", "_C.dtype", "Optional[dtype]"):
        return "dtype"
    if "Stream" in t:
        return "stream"
    if "Event" in t:
        return "event"
    if "Generator" in t:
        return "generator"
    return "other"


def merge(table, name, kind):
    if kind is None:
        return
    old = table.get(name)
    table[name] = kind if old in (None, kind) else "mixed"


def stub_module_name(path):
    rel = os.path.relpath(path, os.path.dirname(ROOT))[: -len(".pyi")].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def read_stubs(table):
    for dirpath, _, files in os.walk(ROOT):
        for f in files:
            if not f.endswith(".pyi"):
                continue
            path = os.path.join(dirpath, f)
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            mod = stub_module_name(path)
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    merge(table, f"{mod}.{node.name}", kind_of(ast.unparse(node.returns))
                          if node.returns is not None else None)
                elif isinstance(node, ast.ClassDef) and node.name in ("TensorBase", "Tensor"):
                    for m in node.body:
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.returns:
                            merge(table, f"Tensor.{m.name}", kind_of(ast.unparse(m.returns)))


def read_modules(table):
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except Exception:
            continue
        for attr in dir(mod):
            if attr.startswith("__"):
                continue
            try:
                obj = getattr(mod, attr)
            except Exception:
                continue
            q = f"{name}.{attr}"
            if inspect.isclass(obj):
                continue
            if not callable(obj):
                continue
            # Builtins exported under torch.* take the stub's kind of their own name.
            origin = getattr(obj, "__module__", None) or ""
            own = f"{origin}.{getattr(obj, '__name__', attr)}"
            if own in table and q not in table:
                table[q] = table[own]
                continue
            try:
                sig = inspect.signature(obj)
            except (TypeError, ValueError):
                continue
            if sig.return_annotation is inspect.Signature.empty:
                continue
            ann = sig.return_annotation
            text = ann if isinstance(ann, str) else getattr(ann, "__name__", None) or str(ann)
            merge(table, q, kind_of(text))


def main():
    table = {}
    read_stubs(table)
    # torch._C._VariableFunctions is what torch.* builtins are.
    for k in list(table):
        if k.startswith("torch._C._VariableFunctions."):
            merge(table, "torch." + k.rsplit(".", 1)[1], table[k])
    read_modules(table)
    print(f"# generated by scripts/gen-torch-returns.py from PyTorch {torch.__version__}; "
          "do not edit")
    for k in sorted(table):
        if table[k] != "mixed":
            print(f"{k}\t{table[k]}")


if __name__ == "__main__":
    sys.exit(main())
