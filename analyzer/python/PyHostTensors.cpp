#include "PyHostTensors.h"

#include "PyModule.h"
#include "checks/PyCheck.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace graphsafe::lint::py {

namespace {

// Factories that make a tensor on the default device unless told otherwise.
bool isFactory(std::string_view Q) {
  static const std::set<std::string_view> Factories = {
      "torch.tensor",     "torch.as_tensor",   "torch.zeros",     "torch.ones",
      "torch.empty",      "torch.full",        "torch.arange",    "torch.range",
      "torch.linspace",   "torch.logspace",    "torch.eye",       "torch.rand",
      "torch.randn",      "torch.randint",     "torch.randperm",  "torch.zeros_like",
      "torch.ones_like",  "torch.empty_like",  "torch.full_like", "torch.rand_like",
      "torch.randn_like", "torch.randint_like"};
  return Factories.count(Q) > 0;
}

// Always on the host, whatever they are handed.
bool isHostType(std::string_view Q) {
  static const std::set<std::string_view> Host = {
      "torch.from_numpy", "torch.Tensor",     "torch.FloatTensor", "torch.DoubleTensor",
      "torch.HalfTensor", "torch.LongTensor", "torch.IntTensor",   "torch.ShortTensor",
      "torch.ByteTensor", "torch.CharTensor", "torch.BoolTensor",  "torch.BFloat16Tensor"};
  return Host.count(Q) > 0;
}

// Methods whose result may sit elsewhere than their receiver.
bool movesDevice(std::string_view Method) {
  return Method == "to" || Method == "cuda" || Method == "type" || Method == "new_tensor" ||
         Method == "share_memory_" || Method == "pin_memory";
}

class HostTensors {
public:
  // DefaultDevice: the module may run where torch makes tensors on the GPU
  // by default; what factories make is then not known to be on the host,
  // while `.cpu()` and `from_numpy` still are.
  HostTensors(const PyTypes &T, bool DefaultDevice)
      : T(T), S(*T.M.Src), DefaultDevice(DefaultDevice) {}

  bool host(TSNode E, int Depth) const {
    E = unparen(E);
    if (ts_node_is_null(E) || Depth > 8)
      return false;
    if (is(E, "identifier")) {
      if (T.parameterAt(S.text(E), beginOf(E)) >= 0)
        return false;
      TSNode Bound = T.onlyBoundExpr(S.text(E), beginOf(E));
      // `a, b = host_tensor.view(...)`: the elements of what is on the host.
      if (ts_node_is_null(Bound) && T.alsoReaching(S.text(E), beginOf(E)).empty())
        Bound = T.boundElement(S.text(E), beginOf(E)).first;
      return !ts_node_is_null(Bound) && beginOf(Bound) < beginOf(E) && host(Bound, Depth + 1);
    }
    if (is(E, "subscript"))
      return host(field(E, "value"), Depth + 1);
    if (is(E, "binary_operator") || is(E, "comparison_operator") || is(E, "unary_operator") ||
        is(E, "boolean_operator"))
      return operandsHost(namedChildren(E), Depth);
    if (!is(E, "call"))
      return false;
    TSNode Fn = unparen(field(E, "function"));
    CallArgs A = argsOf(S, E);
    // A device said outright decides, whatever the default device is; any
    // other device argument may be the GPU.
    TSNode Device = A.keyword("device");
    const bool ToHost = !ts_node_is_null(Device) && hostDevice(Device, Depth);
    if (!ts_node_is_null(Device) && !ToHost)
      return false;
    if (is(Fn, "attribute")) {
      std::string_view Method = S.text(field(Fn, "attribute"));
      TSNode Recv = field(Fn, "object");
      // `.to("cpu")` copies to the host as `.cpu()` does (the copy is the
      // sync sync-device-to-host-copy reports).
      const bool CopyToHost =
          Method == "to" && (ToHost || (!A.Positional.empty() &&
                                        hostDevice(A.Positional.front(), Depth)));
      if (Method == "cpu" || Method == "numpy" || CopyToHost)
        return mayBeTensor(T, Recv);
      if (!movesDevice(Method) && host(Recv, Depth + 1))
        return argumentsHost(A, Depth, true);
      // A method of a value (not of a module path such as `torch.`) whose
      // receiver is not known to be on the host.
      if (mayBeTensor(T, Recv))
        return false;
    }
    std::string Q = T.resolve(Fn);
    if (T.P.isFunction(Q))
      return returnsHost(Q);
    if (isHostType(Q))
      return !DefaultDevice || Q == "torch.from_numpy";
    if (Q.rfind("torch.", 0) != 0 || Q.rfind("torch.cuda", 0) == 0)
      return false;
    if (isFactory(Q)) {
      if (DefaultDevice && !ToHost)
        return false;
      // `torch.tensor(t)` keeps t's device; `torch.zeros_like(t)` too.
      TSNode Data = A.Positional.empty() ? A.keyword("data") : A.Positional.front();
      return ts_node_is_null(Data) || plainData(Data, Depth) || host(Data, Depth + 1);
    }
    return argumentsHost(A, Depth, false);
  }

private:
  // Every return of the project function Q gives a tensor its own code
  // made on the host (`def config(): out = torch.empty(7, device="cpu");
  // fill(out); return out`); what its parameters hold is not known there.
  bool returnsHost(const std::string &Q) const {
    PyTypeCache &Cache = T.cache();
    if (auto It = Cache.ReturnsHostTensors.find(Q); It != Cache.ReturnsHostTensors.end())
      return It->second;
    const PyFunctionDef *F = T.P.function(Q);
    const PyModuleInfo *M = F ? T.P.moduleOfFunction(Q) : nullptr;
    if (!F || !M || F->IsModuleBody || F->IsLambda || Cache.Depth > 2)
      return false;
    Cache.ReturnsHostTensors[Q] = false; // a function returning its own call
    ++Cache.Depth;
    PyTypes Callee(T.P, *M, *F, Cache);
    const HostTensors Inner(Callee, T.P.defaultDeviceSet(*M));
    bool Any = false, All = true;
    walk(F->body(), [&](TSNode N) {
      if (!All || is(N, "function_definition") || is(N, "lambda") || is(N, "class_definition"))
        return false;
      if (is(N, "yield")) {
        All = false;
        return false;
      }
      if (!is(N, "return_statement"))
        return true;
      Any = true;
      All = Inner.host(ts_node_named_child(N, 0), 1);
      return false;
    });
    --Cache.Depth;
    return Cache.ReturnsHostTensors[Q] = Any && All;
  }

  // The one expression the local Name is bound to, where that binding comes
  // before Name; null otherwise.
  TSNode earlierBinding(TSNode Name) const {
    TSNode Bound = T.onlyBoundExpr(S.text(Name), beginOf(Name));
    return !ts_node_is_null(Bound) && beginOf(Bound) < beginOf(Name) ? Bound : TSNode{};
  }

  // D names the host: `"cpu"`, `"cpu:0"`, `torch.device("cpu")`, or a local
  // bound once to one of them before.
  bool hostDevice(TSNode D, int Depth) const {
    D = unparen(D);
    if (ts_node_is_null(D) || Depth > 8)
      return false;
    if (std::optional<std::string> Name = plainString(S, D))
      return *Name == "cpu" || Name->rfind("cpu:", 0) == 0;
    if (is(D, "identifier")) {
      if (T.parameterAt(S.text(D), beginOf(D)) >= 0)
        return false;
      TSNode Bound = earlierBinding(D);
      return !ts_node_is_null(Bound) && hostDevice(Bound, Depth + 1);
    }
    if (!is(D, "call") || T.resolve(unparen(field(D, "function"))) != "torch.device")
      return false;
    CallArgs A = argsOf(S, D);
    TSNode Type = A.Positional.empty() ? A.keyword("type") : A.Positional.front();
    return !ts_node_is_null(Type) && plainString(S, Type).has_value() && hostDevice(Type, Depth + 1);
  }

  // Data that is no tensor: numbers, lists and tuples of them written out,
  // shapes. A list of tensors (`torch.tensor([x.max(), x.min()])`) is read
  // value by value, on the host: a sync where they are on the GPU.
  bool plainData(TSNode E, int Depth) const {
    E = unparen(E);
    if (Depth > 8)
      return false;
    if (is(E, "list") || is(E, "tuple")) {
      for (TSNode Element : namedChildren(E))
        if (!plainData(Element, Depth + 1))
          return false;
      return true;
    }
    if (is(E, "list_comprehension"))
      return plainData(field(E, "body"), Depth + 1);
    if (!mayBeTensor(T, E))
      return true;
    if (is(E, "integer") || is(E, "float"))
      return true;
    if (is(E, "attribute") && S.text(field(E, "attribute")) == "shape")
      return true;
    if (is(E, "identifier") && T.parameterAt(S.text(E), beginOf(E)) >= 0)
      return shapeAnnotated(S.text(E));
    if (is(E, "identifier") && Depth < 8) {
      TSNode Bound = earlierBinding(E);
      return !ts_node_is_null(Bound) && plainData(Bound, Depth + 1);
    }
    return false;
  }

  // A parameter annotated as numbers or a shape (`shape: tuple`,
  // `sizes: List[int]`, `torch.Size`), not as tensors.
  bool shapeAnnotated(std::string_view Name) const {
    for (TSNode Param : namedChildren(field(T.F.Node, "parameters"))) {
      TSNode Type = field(Param, "type");
      if (ts_node_is_null(Type) || S.text(parameterName(Param)) != Name)
        continue;
      std::string_view A = S.text(Type);
      if (A.find("Tensor") != std::string_view::npos)
        return false;
      for (std::string_view Plain : {"tuple", "Tuple", "list", "List", "Sequence", "Size", "int"})
        if (A.find(Plain) != std::string_view::npos)
          return true;
      return false;
    }
    return false;
  }

  // Every tensor among the operands is made on the host, and one is (or,
  // with HaveOne, the receiver already was).
  bool operandsHost(const std::vector<TSNode> &Operands, int Depth, bool HaveOne = false) const {
    bool Any = HaveOne;
    for (TSNode O : Operands) {
      if (!mayBeTensor(T, O))
        continue;
      if (!host(O, Depth + 1))
        return false;
      Any = true;
    }
    return Any;
  }

  bool argumentsHost(const CallArgs &A, int Depth, bool HaveOne) const {
    std::vector<TSNode> Operands = A.Positional;
    for (const auto &[Name, V] : A.Keywords)
      Operands.push_back(V);
    return operandsHost(Operands, Depth, HaveOne);
  }

  const PyTypes &T;
  const PySource &S;
  const bool DefaultDevice;
};

} // namespace

bool madeOnHost(const PyTypes &T, TSNode E) {
  return HostTensors(T, T.P.defaultDeviceSet(T.M)).host(E, 0);
}

} // namespace graphsafe::lint::py
