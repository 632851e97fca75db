// What code outside the analysed files does with a callable handed to it:
// call it before returning (`map`, `sorted(key=)`, `functools.reduce`,
// `torch.utils.checkpoint.checkpoint`), keep it for a later call
// (`functools.partial`, `weakref.finalize`, `atexit.register`, hooks,
// containers), start it on another thread (`threading.Thread(target=)`,
// an executor's `submit`), or only look at it (`inspect.signature`,
// `getattr`, `callable`). A call this table does not know may call what it
// is handed, as before.
#pragma once

#include <string>
#include <string_view>

namespace graphsafe::lint::py {

enum class HandedUse { CallsNow, Keeps, OtherThread, Inspects };

// Callee: the qualified name the call resolves to (`functools.reduce`,
// `threading.Thread`), empty when it does not resolve; Method: the
// attribute called (`submit`, `register_forward_hook`), empty for a plain
// name; Keyword: the keyword the callable is passed as, empty when positional.
HandedUse handedUse(const std::string &Callee, std::string_view Method, std::string_view Keyword);

// Library wrappers whose result, called, runs their first argument with the
// same arguments: `functools.partial`, `torch.compile`,
// `make_graphed_callables` on one callable, and the module wrappers
// (`DistributedDataParallel(model)`, `DataParallel`, FSDP,
// `torch.jit.script`), whose call runs the wrapped module's forward.
bool callsFirstArgument(const std::string &Callee);

// Of those, the module wrappers: the result stands for the module it wraps.
bool wrapsModule(const std::string &Callee);

// Decorators (qualified, call parentheses dropped) that make a function GPU
// code of a kernel language: CuTe DSL (`cute.kernel`, `cute.jit`), Triton
// (`triton.jit`, `triton.autotune`, `triton.heuristics`), Numba CUDA,
// cuTile, Warp, TileLang, Helion, CuPy's JIT. Calling such a function
// compiles or launches a kernel; its body is traced for the device, never
// run as host Python, so it is no captured host code.
bool makesDeviceKernel(const std::string &Decorator);

// Class methods that library base classes give their subclasses to build
// an instance of the class they are called on: Hugging Face's
// `from_pretrained` / `from_config` (transformers, diffusers, peft),
// diffusers' `from_single_file`, Lightning's `load_from_checkpoint`.
// `Net.from_pretrained(path)` on a project class Net is a Net.
bool buildsCalledClass(std::string_view Method);

// A decorator, qualified, that memoizes the function (`functools.cache`,
// `functools.lru_cache`, with or without arguments): its body runs on a
// miss only, which a warm-up call with the same arguments settles.
bool memoizes(const std::string &Decorator);

// A query that holds whenever a capture is open (`torch.cuda.is_available`):
// like a capture-status query, its being false means no capture is open.
bool holdsWhileCapturing(const std::string &Callee);

// A query that holds only while PyTorch traces or compiles the code
// (`torch.compiler.is_compiling()`, `torch.jit.is_scripting()`,
// `torch.onnx.is_in_onnx_export()`): false wherever Python code runs
// eagerly, as it does under a capture it begins itself.
bool holdsOnlyWhileTracing(const std::string &Callee);

// A query that holds only where another accelerator than CUDA is the device
// (`torch.npu.is_available`, `torch.xpu.is_available`, transformers'
// `is_torch_npu_available`): false in any process that captures CUDA graphs.
bool otherDeviceAvailable(const std::string &Callee);

} // namespace graphsafe::lint::py
