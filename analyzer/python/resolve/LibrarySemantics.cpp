#include "LibrarySemantics.h"

#include <set>

namespace graphsafe::lint::py {

namespace {

bool startsWith(std::string_view S, std::string_view P) { return S.substr(0, P.size()) == P; }

bool endsWith(std::string_view S, std::string_view Tail) {
  return S.size() >= Tail.size() && S.substr(S.size() - Tail.size()) == Tail;
}

using Names = std::set<std::string, std::less<>>;

// Functions that look at a callable and return without calling it.
const Names Inspecting = {"callable",
                          "getattr",
                          "hasattr",
                          "setattr",
                          "delattr",
                          "id",
                          "isinstance",
                          "issubclass",
                          "type",
                          "repr",
                          "str",
                          "print",
                          "len",
                          "hash",
                          "vars",
                          "dir",
                          "format",
                          "bool",
                          "functools.wraps",
                          "functools.update_wrapper",
                          "functools.cache",
                          "functools.lru_cache",
                          "typing.cast",
                          "copy.copy",
                          "copy.deepcopy",
                          "pickle.dumps",
                          "staticmethod",
                          "classmethod",
                          "property",
                          "weakref.ref",
                          "weakref.WeakMethod",
                          "torch.jit.ignore",
                          "torch.jit.unused",
                          "torch._dynamo.disable",
                          "torch.compiler.disable"};

// Functions that keep a callable to call it later, when something else
// happens (an object dies, the interpreter exits, a module runs).
const Names Keeping = {"functools.partial", "functools.partialmethod", "weakref.finalize",
                       "atexit.register", "signal.signal", "sys.settrace", "sys.setprofile",
                       "threading.settrace", "contextlib.ExitStack.callback", "copyreg.pickle",
                       // Containers and records built with callables in them (`SimpleNamespace(
                       // quantize=quantize)`, `dict(run=run)`): called where they are taken out.
                       "types.SimpleNamespace", "argparse.Namespace", "dict", "list", "tuple",
                       "set", "frozenset", "collections.OrderedDict", "collections.defaultdict",
                       "collections.deque", "collections.ChainMap", "types.MappingProxyType",
                       "dataclasses.field"};

// Constructors and functions that run a callable on another thread or
// process.
const Names Threads = {"threading.Thread",
                       "threading.Timer",
                       "multiprocessing.Process",
                       "torch.multiprocessing.Process",
                       "_thread.start_new_thread",
                       "torch.multiprocessing.spawn",
                       "torch.multiprocessing.start_processes"};

// Module wrappers, by each path PyTorch exports them under. torch.jit.trace
// is not one: a traced module replays what tracing recorded, not the code.
const Names ModuleWrappers = {
    "torch.nn.parallel.DistributedDataParallel",
    "torch.nn.parallel.distributed.DistributedDataParallel",
    "torch.nn.DataParallel",
    "torch.nn.parallel.DataParallel",
    "torch.nn.parallel.data_parallel.DataParallel",
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
    "torch.jit.script"};

} // namespace

bool makesDeviceKernel(const std::string &Decorator) {
  static const Names Exact = {"cutlass.cute.kernel",
                              "cutlass.cute.jit",
                              "cute.kernel",
                              "cute.jit",
                              "triton.jit",
                              "triton.autotune",
                              "triton.heuristics",
                              "triton.runtime.jit.jit",
                              "triton.runtime.autotuner.autotune",
                              "triton.runtime.autotuner.heuristics",
                              "numba.cuda.jit",
                              "numba.njit",
                              "numba.jit",
                              "cuda.tile.kernel",
                              "cuda.tile.function",
                              "warp.kernel",
                              "warp.func",
                              "tilelang.jit",
                              "tilelang.language.prim_func",
                              "tvm.script.tir.prim_func",
                              "helion.kernel",
                              "cupyx.jit.rawkernel",
                              "cupy.fuse"};
  return Exact.count(Decorator) > 0;
}

bool buildsCalledClass(std::string_view Method) {
  static const Names Builders = {"from_pretrained", "from_config", "_from_config",
                                 "from_single_file", "load_from_checkpoint"};
  return Builders.count(Method) > 0;
}

bool memoizes(const std::string &Decorator) {
  return Decorator == "functools.cache" || Decorator == "functools.lru_cache";
}

bool holdsWhileCapturing(const std::string &Callee) {
  return Callee == "torch.cuda.is_available" || Callee == "torch.cuda.is_initialized";
}

bool holdsOnlyWhileTracing(const std::string &Callee) {
  static const std::set<std::string> Queries = {"torch.compiler.is_compiling",
                                                "torch.compiler.is_dynamo_compiling",
                                                "torch.compiler.is_exporting",
                                                "torch._dynamo.is_compiling",
                                                "torch._dynamo.external_utils.is_compiling",
                                                "torch._utils.is_compiling",
                                                "torch.jit.is_scripting",
                                                "torch.jit.is_tracing",
                                                "torch.fx._symbolic_trace.is_fx_tracing",
                                                "torch.onnx.is_in_onnx_export"};
  return Queries.count(Callee) > 0;
}

bool otherDeviceAvailable(const std::string &Callee) {
  // The backends PyTorch's device plug-ins register (torch_npu for Ascend,
  // torch_mlu, torch_musa, Habana's hpu), Intel's xpu and Apple's mps.
  static const std::set<std::string> Devices = {"npu", "xpu", "mps", "hpu", "mlu", "musa"};
  static const std::set<std::string> Helpers = {"transformers.utils",
                                                "transformers.utils.import_utils",
                                                "accelerate.utils", "accelerate.utils.imports"};
  const size_t Cut = Callee.rfind('.');
  if (Cut == std::string::npos)
    return false;
  const std::string Owner = Callee.substr(0, Cut), Name = Callee.substr(Cut + 1);
  if (Name == "is_available") {
    // torch.npu.is_available, torch_npu.npu.is_available,
    // torch.backends.mps.is_available, habana_frameworks.torch.hpu.is_available
    const size_t Dot = Owner.rfind('.');
    const std::string Device = Dot == std::string::npos ? Owner : Owner.substr(Dot + 1);
    const std::string Package = Owner.substr(0, Owner.find('.'));
    return Devices.count(Device) > 0 &&
           (Package == "torch" || Package == "torch_" + Device || Package == "habana_frameworks");
  }
  // is_torch_npu_available(), is_npu_available(), is_torch_xpu_available(check_device=...)
  if (!Helpers.count(Owner) || Name.rfind("is_", 0) != 0 || Name.size() < 13 ||
      Name.compare(Name.size() - 10, 10, "_available") != 0)
    return false;
  std::string Device = Name.substr(3, Name.size() - 13);
  if (Device.rfind("torch_", 0) == 0)
    Device = Device.substr(6);
  return Devices.count(Device) > 0;
}

bool wrapsModule(const std::string &Callee) { return ModuleWrappers.count(Callee) > 0; }

bool callsFirstArgument(const std::string &Callee) {
  return Callee == "functools.partial" || Callee == "partial" || Callee == "torch.compile" ||
         Callee == "torch.cuda.graphs.make_graphed_callables" || wrapsModule(Callee);
}

HandedUse handedUse(const std::string &Callee, std::string_view Method, std::string_view Keyword) {
  if (Inspecting.count(Callee) || startsWith(Callee, "inspect.") || startsWith(Callee, "typing."))
    return HandedUse::Inspects;
  if (Keeping.count(Callee))
    return HandedUse::Keeps;
  if (Threads.count(Callee))
    return Keyword.empty() || Keyword == "target" || Keyword == "function" || Keyword == "fn"
               ? HandedUse::OtherThread
               : HandedUse::Keeps;
  // Methods by what every library spelling them means: an executor runs what
  // it is given on its workers; hooks and callbacks run when their object
  // does; containers hold what is put in them.
  if (Method == "submit" || Method == "apply_async" || Method == "map_async" ||
      Method == "run_in_executor" || Method == "start_new_thread")
    return HandedUse::OtherThread;
  if (startsWith(Method, "register_") || endsWith(Method, "_hook") || endsWith(Method, "_hooks") ||
      Method == "add_done_callback" || Method == "append" || Method == "appendleft" ||
      Method == "add" || Method == "insert" || Method == "extend" || Method == "setdefault" ||
      Method == "update" || Method == "put" || Method == "put_nowait" || Method == "connect" ||
      Method == "callback" || Method == "push")
    return HandedUse::Keeps;
  return HandedUse::CallsNow;
}

} // namespace graphsafe::lint::py
