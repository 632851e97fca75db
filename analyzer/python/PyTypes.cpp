#include "PyTypes.h"

#include "PyPlatform.h"
#include "TorchApi.h"
#include "resolve/ImportedByName.h"
#include "resolve/LibrarySemantics.h"
#include "resolve/ReturnsByCall.h"

#include <optional>
#include <set>

namespace graphsafe::lint::py {

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

namespace {

// Tensor methods whose result lives on the host.
const std::set<std::string, std::less<>> HostResultMethods = {
    "item",           "tolist",   "numel",      "dim",
    "size",           "stride",   "data_ptr",   "is_contiguous",
    "element_size",   "nelement", "get_device", "is_floating_point",
    "storage_offset", "numpy",    "is_complex", "is_pinned",
    "is_set_to",      "__len__",  "ndimension", "untyped_storage"};
const std::set<std::string, std::less<>> BoolMethods = {
    "bool",        "eq",          "ne",      "gt",       "lt",          "ge",
    "le",          "isnan",       "isinf",   "isfinite", "logical_and", "logical_or",
    "logical_not", "logical_xor", "isclose", "signbit",  "isneginf",    "isposinf"};
const std::set<std::string, std::less<>> HostAttrs = {
    "shape", "dtype",   "device",    "ndim",         "is_cuda", "requires_grad", "layout",
    "names", "is_leaf", "is_sparse", "is_quantized", "is_meta", "itemsize",      "nbytes"};
// Besides a tensor's own: the fields of the named tuples torch's reductions
// give (`x.topk(k).values`, `torch.max(x, dim=1).indices`), typed as tensors.
const std::set<std::string, std::less<>> TensorAttrs = {
    "grad", "data", "T", "mT", "H", "mH", "real", "imag", "values", "indices"};
const std::set<std::string, std::less<>> HostBuiltins = {
    "int",   "float", "str", "len",  "bool", "round",  "repr",     "isinstance", "hasattr",
    "range", "ord",   "chr", "hash", "id",   "format", "callable", "issubclass"};
const std::set<std::string, std::less<>> HostModules = {
    "numpy.", "math.",    "time.",     "random.",     "os.",        "sys.",
    "json.",  "pathlib.", "datetime.", "statistics.", "itertools.", "collections."};
// Names on torch itself that return no tensors (a submodule's functions are
// told apart by TensorSubmodules).
const std::vector<std::string_view> TorchNonTensor = {
    "torch.device",        "torch.dtype",       "torch.Size",
    "torch.are_",          "torch.has_",        "torch.can_cast",
    "torch.promote_types", "torch.result_type", "torch.typename",
    "torch.version",       "torch.is_",         "torch.get_",
    "torch.set_",          "torch.manual_seed", "torch.seed",
    "torch.initial_seed",  "torch.no_grad",     "torch.inference_mode",
    "torch.enable_grad",   "torch.compile",     "torch.Generator",
    "torch.numel",         "torch.finfo",       "torch.iinfo",
    "torch.save",          "torch.load",        "torch.use_deterministic_algorithms"};
// torch's submodules whose functions compute tensors.
const std::set<std::string, std::less<>> TensorSubmodules = {
    "linalg", "fft", "special", "sparse", "nested", "masked", "functional", "Tensor"};

const std::set<std::string, std::less<>> TorchBool = {
    "torch.eq",          "torch.ne",          "torch.gt",         "torch.lt",
    "torch.ge",          "torch.le",          "torch.isnan",      "torch.isinf",
    "torch.isfinite",    "torch.logical_and", "torch.logical_or", "torch.logical_not",
    "torch.logical_xor", "torch.isclose",     "torch.isin"};
// Optimizers that keep their step count on the host unless capturable=True.
const std::set<std::string, std::less<>> CapturableOptimizers = {
    "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop", "RMSprop", "Adadelta"};

bool mentionsCuda(const PySource &S, TSNode Call) {
  CallArgs A = argsOf(S, Call);
  auto Cuda = [&](TSNode N) { return S.text(N).find("cuda") != std::string_view::npos; };
  if (TSNode D = A.keyword("device"); !ts_node_is_null(D))
    return Cuda(D);
  return !A.Positional.empty() && Cuda(A.Positional.front());
}

} // namespace

PyTypes::PyTypes(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F,
                 PyTypeCache &Cache, std::string View)
    : P(P), M(M), F(F), Cache(Cache), View(std::move(View)) {
  collect();
  Complete = true;
}

bool PyTypes::isSelf(TSNode N) const {
  return !SelfName.empty() && is(N, "identifier") && M.Src->text(N) == SelfName;
}

namespace {

bool isPattern(TSNode T) {
  return is(T, "pattern_list") || is(T, "tuple_pattern") || is(T, "list_pattern") ||
         is(T, "tuple") || is(T, "list");
}

// What a loop over a value of V binds: an element of a list of instances
// (`for layer in self.layers`); nothing known of other values.
Value elementOf(Value V) {
  if (!V.Many)
    return {};
  V.Many = false;
  return V;
}

bool isSequenceLiteral(TSNode E) {
  return is(E, "expression_list") || is(E, "tuple") || is(E, "list");
}

} // namespace

void PyTypes::bindTarget(TSNode T, const Value &V, unsigned Offset, TSNode Expr) {
  T = unparen(T);
  if (is(T, "identifier")) {
    Bindings[std::string(M.Src->text(T))].push_back({Offset, V, Expr, -1});
    return;
  }
  if (isPattern(T) || is(T, "list_splat_pattern"))
    for (TSNode C : namedChildren(T))
      bindTarget(C, Value{}, Offset);
}

void PyTypes::bindDeferred(TSNode Target, TSNode Expr, unsigned Offset) {
  Target = unparen(Target);
  if (!is(Target, "identifier")) {
    bindTarget(Target, Value{}, Offset, Expr);
    return;
  }
  Binding B;
  B.At = Offset;
  B.Expr = Expr;
  B.State = Binding::Eval::Deferred;
  Bindings[std::string(M.Src->text(Target))].push_back(std::move(B));
}

const Value &PyTypes::valueOf(const Binding &B) const {
  if (B.State == Binding::Eval::Deferred) {
    B.State = Binding::Eval::Busy;
    Value V = B.Element >= 0 ? returnedElement(B.Expr, static_cast<size_t>(B.Element))
              : !ts_node_is_null(B.Iterated) ? elementOf(valueOf(B.Iterated))
                                             : valueOf(B.Expr);
    B.V = std::move(V);
    B.State = Binding::Eval::Ready;
  }
  // Asked again while being worked out (`x = f(x)` in a loop, where the
  // first binding stands in for the use): nothing is known of it yet.
  static const Value Unknown;
  return B.State == Binding::Eval::Busy ? Unknown : B.V;
}

void PyTypes::bindPattern(TSNode Target, TSNode Expr, unsigned Offset) {
  Target = unparen(Target);
  TSNode E = unparen(Expr);
  if (!isPattern(Target)) {
    bindDeferred(Target, E, Offset);
    return;
  }
  auto Ts = namedChildren(Target);
  auto Es = isSequenceLiteral(E) ? namedChildren(E) : std::vector<TSNode>{};
  bool Splat = std::any_of(Es.begin(), Es.end(), [](TSNode C) { return is(C, "list_splat"); });
  size_t Star = Ts.size();
  for (size_t I = 0; I < Ts.size(); ++I)
    if (is(Ts[I], "list_splat_pattern"))
      Star = I;
  // `a, *b, c = x, y, z, w`: each name its element, the starred one the
  // elements between. What cannot be matched binds an unknown value.
  bool Matches = !Es.empty() && !Splat &&
                 (Star == Ts.size() ? Es.size() == Ts.size() : Es.size() + 1 >= Ts.size());
  if (!Matches) {
    bindTarget(Target, Value{}, Offset);
    // `model, opt = prepare(args)`: each name holds one element of what the
    // call returns, which the call graph follows (PyCallGraph.cpp).
    if (is(E, "call") && Star == Ts.size())
      for (size_t I = 0; I < Ts.size(); ++I)
        if (TSNode Name = unparen(Ts[I]); is(Name, "identifier")) {
          Binding &B = Bindings[std::string(M.Src->text(Name))].back();
          B.Expr = E;
          B.Element = static_cast<int>(I);
          B.State = Binding::Eval::Deferred;
        }
    return;
  }
  for (size_t I = 0; I < Ts.size(); ++I) {
    if (I == Star) {
      TSNode Name = unparen(ts_node_named_child(Ts[I], 0));
      if (is(Name, "identifier"))
        Bindings[std::string(M.Src->text(Name))].push_back(
            {Offset,
             Value{},
             E,
             -1,
             {},
             static_cast<int>(I),
             static_cast<int>(Es.size() - (Ts.size() - 1 - I))});
      continue;
    }
    bindPattern(Ts[I], I < Star ? Es[I] : Es[Es.size() - (Ts.size() - I)], Offset);
  }
}

// The project classes callers pass at Index: when F is read for a subclass
// (View), what that subclass's (or its nearest ancestor's) super() call
// passes, else what every caller passes.
std::vector<std::string> PyTypes::callerClasses(unsigned Index) const {
  if (!View.empty())
    for (const auto &A : P.ancestors(View))
      if (auto Cs = P.superParamClasses(F.QualName, A, Index); !Cs.empty())
        return Cs;
  return P.paramClasses(F.QualName, Index);
}

namespace {

// The type an annotation gives the value itself: quotes, `Optional[...]`,
// `Union[X, None]` and `X | None` taken off. `List[Tensor]` stays whole:
// it is a list, whatever it holds.
std::string valueAnnotation(std::string_view Text) {
  std::string T;
  for (char C : Text)
    if (C != ' ' && C != '\n' && C != '"' && C != '\'')
      T.push_back(C);
  auto strip = [&](const std::string &Head) {
    if (T.rfind(Head, 0) == 0 && T.back() == ']') {
      T = T.substr(Head.size(), T.size() - Head.size() - 1);
      return true;
    }
    return false;
  };
  for (bool Changed = true; Changed;) {
    Changed = strip("Optional[") || strip("typing.Optional[");
    if (T.size() > 5 && T.compare(T.size() - 5, 5, "|None") == 0)
      T.resize(T.size() - 5), Changed = true;
    if (T.rfind("None|", 0) == 0)
      T = T.substr(5), Changed = true;
    std::string Before = T;
    if ((strip("Union[") || strip("typing.Union[")) && T.find('[') == std::string::npos) {
      // Union[X, None]: X; a union of several types says no one kind.
      std::string Rest = T;
      if (auto At = Rest.find(",None"); At != std::string::npos)
        Rest.erase(At, 5);
      else if (Rest.rfind("None,", 0) == 0)
        Rest.erase(0, 5);
      T = Rest.find(',') == std::string::npos ? Rest : "";
      Changed = true;
    } else {
      T = Before;
    }
  }
  return T;
}

// A subscripted annotation whose outer type holds other values: what it
// holds (`List[Tensor]`, `Dict[str, Tensor]`) is not the value.
bool containerAnnotation(const std::string &T) {
  auto Open = T.find('[');
  if (Open == std::string::npos)
    return false;
  std::string Outer = T.substr(0, Open);
  Outer = Outer.substr(Outer.rfind('.') == std::string::npos ? 0 : Outer.rfind('.') + 1);
  static const std::set<std::string> Holders = {
      "List",        "list",        "Tuple",     "tuple",     "Sequence",      "MutableSequence",
      "Iterable",    "Iterator",    "Dict",      "dict",      "Mapping",       "MutableMapping",
      "Set",         "set",         "FrozenSet", "frozenset", "Deque",         "deque",
      "Callable",    "Type",        "type",      "Generator", "AsyncIterator", "Collection",
      "DefaultDict", "OrderedDict", "Awaitable", "Coroutine"};
  return Holders.count(Outer) > 0;
}

} // namespace

// A parameter's kind: its annotation, its default, or what callers pass.
Value PyTypes::parameterValue(TSNode Param, TSNode Type, TSNode Default, unsigned Index) const {
  const PySource &S = *M.Src;
  Value V;
  const std::string Annotation =
      ts_node_is_null(Type) ? std::string() : valueAnnotation(S.text(Type));
  // What callers pass; exact where every one of them passes an instance its
  // constructor made (read for a subclass, its super() call alone is known).
  auto passed = [&](const std::vector<std::string> &Classes) {
    Value Out = Value::instanceOfAny(Classes);
    Out.Exact = Out.K == VK::Instance && View.empty() && P.exactParam(F.QualName, Index);
    return Out;
  };
  if (!ts_node_is_null(Type) && (Annotation.empty() || containerAnnotation(Annotation))) {
    // A container, or a union of kinds: nothing the rules can lean on.
  } else if (!ts_node_is_null(Type)) {
    std::string_view T = Annotation;
    TSNode TypeExpr = is(Type, "type") ? ts_node_named_child(Type, 0) : Type;
    if (T.find("Tensor") != std::string_view::npos)
      V.K = VK::Tensor;
    else if (T == "int" || T == "float" || T == "bool" || T == "str")
      V.K = VK::Host;
    else if (T.find("Stream") != std::string_view::npos)
      V.K = VK::Stream;
    else if (T.find("Generator") != std::string_view::npos)
      V.K = VK::Generator;
    else if (std::string Q = resolve(TypeExpr); !Q.empty() && P.classNamed(Q)) {
      // An annotation narrows what callers pass, never widens it: the
      // classes they pass, where all are the annotated one or below it.
      auto Passed = callerClasses(Index);
      auto Above = [&](const std::string &C) {
        auto As = P.ancestors(C);
        return std::find(As.begin(), As.end(), Q) != As.end();
      };
      if (!Passed.empty() && std::all_of(Passed.begin(), Passed.end(), Above))
        V = passed(Passed);
      else if (!Passed.empty() && std::none_of(Passed.begin(), Passed.end(), Above))
        // Every class the callers pass contradicts the annotation (`model:
        // "Model"` handed the wrapped nn.Module): the code says what runs.
        V = passed(Passed);
      else
        V = {VK::Instance, Q};
    } else {
      // An annotation naming a library base (`model: torch.nn.Module`) says
      // less than the project classes callers pass.
      V = passed(callerClasses(Index));
      // Another library's class (`pipeline: StableDiffusionXLPipeline`) no
      // caller is seen to pass a project class for: that library's object,
      // whose attributes hold what its constructors were handed.
      if (V.K == VK::Unknown)
        if (std::string Q = libraryClass(TypeExpr); !Q.empty())
          V = {VK::Instance, Q};
    }
  } else if (!ts_node_is_null(Default) && isLiteral(Default) && !is(Default, "none")) {
    V.K = VK::Host;
  } else if (((F.Name == "forward" && !staticMethod()) || P.tensorParam(F.QualName, Index)) &&
             ts_node_is_null(Default)) {
    // nn.Module.forward takes the tensors the graph captures; other
    // functions, an autograd Function's static forward among them (its flags
    // and lists beside the tensors), what their callers pass.
    V.K = VK::Tensor;
  } else {
    V = passed(callerClasses(Index));
  }
  if (V.K == VK::Unknown && View.empty() && Index != ~0u)
    V = passedElements(Index);
  (void)Param;
  return V;
}

Value PyTypes::passedElements(unsigned Index) const {
  Value V = Value::instanceOfAny(P.paramElementClasses(F.QualName, Index));
  V.Many = V.K == VK::Instance;
  V.Exact = V.Many && P.exactElementParam(F.QualName, Index);
  return V;
}

void PyTypes::collect() {
  const PySource &S = *M.Src;
  TSNode Params = F.IsModuleBody ? TSNode{} : field(F.Node, "parameters");
  if (!ts_node_is_null(Params)) {
    bool First = true;
    unsigned Index = 0;
    for (TSNode Param : namedChildren(Params)) {
      // Positions as callers count them: `self` is not passed.
      bool Self = First && F.takesSelf();
      First = false;
      TSNode NameNode = parameterName(Param);
      if (is(Param, "list_splat_pattern")) {
        // `*args`: a tuple of what the positions past the named parameters
        // hold, instances where callers pass them.
        if (TSNode Name = ts_node_named_child(Param, 0); is(Name, "identifier"))
          Bindings[std::string(S.text(Name))].push_back(
              {0, passedElements(PyLearned::VarargsParam)});
        continue;
      }
      if (is(Param, "dictionary_splat_pattern") || is(Param, "keyword_separator") ||
          is(Param, "positional_separator"))
        continue;
      unsigned ThisIndex = Self ? ~0u : Index++;
      if (ts_node_is_null(NameNode))
        continue;
      std::string Name(S.text(NameNode));
      TSNode Default = field(Param, "value");
      Value V;
      if (Self && ts_node_is_null(Default)) {
        SelfName = Name;
        V = {VK::Instance, F.ClassQName};
      } else {
        V = parameterValue(Param, field(Param, "type"), Default, ThisIndex);
      }
      Bindings[Name].push_back({0, V, {}, Self ? -1 : static_cast<int>(ThisIndex)});
    }
  }
  TSNode Body = F.body();
  walk(Body, [&](TSNode N) {
    auto K = kind(N);
    if (K == "assignment") {
      TSNode Right = field(N, "right");
      TSNode Left = field(N, "left");
      // a, (b, *c) = x, (y, z, w); `a = b = x` binds each target.
      std::vector<TSNode> Targets = {Left};
      TSNode R = Right;
      for (; is(R, "assignment"); R = field(R, "right"))
        Targets.push_back(field(R, "left"));
      for (TSNode L : Targets)
        if (ts_node_is_null(R))
          bindTarget(L, Value{}, endOf(N), R);
        else if (!isPattern(unparen(L)))
          bindDeferred(L, R, endOf(N));
        else
          bindPattern(L, R, endOf(N));
    } else if (K == "augmented_assignment") {
      TSNode Left = field(N, "left");
      Value Old = valueOf(Left), Add = valueOf(field(N, "right"));
      Value V = Old.tensor() || Add.tensor()             ? Value{VK::Tensor, ""}
                : Old.K == VK::Host && Add.K == VK::Host ? Value{VK::Host, ""}
                                                         : Value{};
      bindTarget(Left, V, endOf(N));
    } else if (K == "conditional_expression" || K == "boolean_operator") {
      narrowIsinstanceExpr(N);
    } else if (K == "if_statement") {
      narrowIsinstance(N);
      const unsigned First = IfBranches.size();
      bool InLoop = false;
      for (TSNode Up = parentOf(N); !ts_node_is_null(Up) && !isScope(Up) && !InLoop;
           Up = parentOf(Up))
        InLoop = is(Up, "for_statement") || is(Up, "while_statement");
      for (TSNode C : namedChildren(N))
        if (is(C, "block") || is(C, "elif_clause") || is(C, "else_clause"))
          IfBranches.push_back({beginOf(N), endOf(N), beginOf(C), endOf(C), First, 0, false,
                                field(N, "condition"), is(C, "block"), InLoop});
      for (unsigned I = First; I < IfBranches.size(); ++I) {
        IfBranches[I].Siblings = IfBranches.size() - First;
        IfBranches[I].Exhaustive =
            !ts_node_is_null(field(N, "alternative")) &&
            is(ts_node_named_child(N, ts_node_named_child_count(N) - 1), "else_clause");
      }
    } else if (K == "call") {
      noteAppend(N);
    } else if (K == "named_expression") {
      bindTarget(field(N, "name"), valueOf(field(N, "value")), endOf(N));
    } else if (K == "for_statement" || K == "for_in_clause") {
      TSNode Right = field(N, "right");
      TSNode Left = unparen(field(N, "left"));
      // A comprehension's element is written before its `for`.
      bindIterated(Left, Right, K == "for_in_clause" ? beginOf(parentOf(N)) : beginOf(N));
    } else if (K == "as_pattern") {
      if (TSNode Alias = field(N, "alias"); !ts_node_is_null(Alias)) {
        TSNode Target = unparen(ts_node_named_child(Alias, 0));
        bindTarget(Target, Value{}, endOf(N));
        // What `with cm() as f` binds comes from entering cm: a generator
        // context manager's yield (PyCallGraph.cpp follows it).
        if (is(parentOf(N), "with_item") && is(Target, "identifier"))
          Bindings[std::string(S.text(Target))].back().Entered = ts_node_named_child(N, 0);
      }
    }
    return true;
  });
}

// `blocks.append(Block())` onto a list begun empty: from here on the name
// holds instances of that class, as `[Block() ...]` would.
void PyTypes::noteAppend(TSNode Call) {
  const PySource &S = *M.Src;
  TSNode Fn = unparen(field(Call, "function"));
  if (!is(Fn, "attribute") || S.text(field(Fn, "attribute")) != "append")
    return;
  TSNode List = unparen(field(Fn, "object"));
  CallArgs A = argsOf(S, Call);
  if (!is(List, "identifier") || A.Positional.size() != 1)
    return;
  TSNode Before = unparen(boundExpr(S.text(List), beginOf(Call)));
  if (!is(Before, "list") || ts_node_named_child_count(Before) != 0)
    return;
  Value V = valueOf(A.Positional[0]);
  if (V.K != VK::Instance || V.Many)
    return;
  V.Many = true;
  // Exact only where this is the list's one append: another may add
  // another class, and the name holds the last one's alone.
  unsigned Appends = 0;
  walk(F.body(), [&](TSNode N) {
    if (is(N, "call"))
      if (TSNode G = unparen(field(N, "function"));
          is(G, "attribute") && S.text(field(G, "attribute")) == "append" &&
          S.text(field(G, "object")) == S.text(List))
        ++Appends;
    return true;
  });
  V.Exact &= Appends == 1;
  bindTarget(List, V, endOf(Call), Before);
}

// A loop target, from what Right yields: the elements of a list of
// instances (`for layer in self.layers`), and through zip() and
// enumerate() the elements of each sequence (`for i, (fn, graph) in
// enumerate(zip(fns, graphs))`).
void PyTypes::bindIterated(TSNode Left, TSNode Right, unsigned At) {
  const PySource &S = *M.Src;
  Left = unparen(Left);
  Right = unparen(Right);
  if (is(Right, "call") && (is(Left, "pattern_list") || is(Left, "tuple_pattern"))) {
    std::string Fn(S.text(field(Right, "function")));
    CallArgs A = argsOf(S, Right);
    std::vector<TSNode> Parts = namedChildren(Left);
    if (Fn == "enumerate" && Parts.size() == 2 && !A.Positional.empty()) {
      bindTarget(Parts[0], Value{VK::Host, ""}, At);
      bindIterated(Parts[1], A.Positional[0], At);
      return;
    }
    if (Fn == "zip" && Parts.size() == A.Positional.size()) {
      for (size_t I = 0; I < Parts.size(); ++I)
        bindIterated(Parts[I], A.Positional[I], At);
      return;
    }
  }
  // A pattern's names are bound to nothing known whatever Right holds.
  if (!is(Left, "identifier")) {
    bindTarget(Left, Value{}, At);
    return;
  }
  std::string_view Name = S.text(Left);
  // `for x in x` reads the name bound before the loop, which a value worked
  // out after collect() would no longer see: that one is read now.
  auto readsItself = [&] {
    bool Reads = false;
    walk(Right, [&](TSNode N) {
      Reads |= is(N, "identifier") && S.text(N) == Name;
      return !Reads;
    });
    return Reads;
  };
  Binding B;
  B.At = At;
  // What a call of the name calls: an element of Right, also where
  // enumerate() or zip() handed it (`for i, layer in enumerate(self.layers)`).
  B.Iterated = Right;
  if (is(Right, "call") && S.text(field(Right, "function")) == "range")
    B.V.K = VK::Host;
  else if (readsItself())
    B.V = elementOf(valueOf(Right));
  else
    B.State = Binding::Eval::Deferred; // most loop names are never asked about
  Bindings[std::string(Name)].push_back(std::move(B));
}

// The if statement whose different branches hold binding A and byte
// offset B (by its start), or ~0u; from the branches collect() listed, no
// tree walk. A binding's offset is where its statement ends: a branch holds
// its end.
unsigned PyTypes::branchesApart(const Binding &A, unsigned B) const {
  auto holds = [](const IfBranch &Br, unsigned X) {
    return Br.BranchBegin <= X && X <= Br.BranchEnd;
  };
  if (!A.Holding) {
    A.Holding.emplace();
    for (unsigned I = 0; I < IfBranches.size(); ++I)
      if (holds(IfBranches[I], A.At))
        A.Holding->push_back(I);
  }
  for (unsigned I : *A.Holding) {
    const IfBranch &Br = IfBranches[I];
    if (B > Br.IfEnd && sameTestApart(Br, B, !Br.Holds))
      return Br.IfBegin;
    if (B < Br.IfBegin || B > Br.IfEnd || holds(Br, B))
      continue;
    for (unsigned J = Br.FirstSibling; J < Br.FirstSibling + Br.Siblings; ++J)
      if (holds(IfBranches[J], B))
        return Br.IfBegin;
  }
  return ~0u;
}

bool PyTypes::sameTestApart(const IfBranch &Bound, unsigned Use, bool Outcome) const {
  if (Bound.InLoop || ts_node_is_null(Bound.Condition))
    return false;
  for (const IfBranch &U : IfBranches)
    if (U.IfBegin > Bound.IfEnd && U.BranchBegin <= Use && Use <= U.BranchEnd &&
        U.Holds == Outcome && stableTest(Bound, U))
      return true;
  return false;
}

namespace {
// What a chain of attributes, subscripts and calls starts from (`self` of
// `self.model[0](x).y`).
TSNode chainRoot(TSNode E) {
  E = unparen(E);
  while (is(E, "attribute") || is(E, "subscript") || is(E, "call"))
    E = unparen(is(E, "attribute")   ? field(E, "object")
                : is(E, "subscript") ? field(E, "value")
                                     : field(E, "function"));
  return E;
}
} // namespace

// A method called on Root (`self.capture()`) or Root handed to a call
// between Begin and End: either may store into it.
bool PyTypes::objectUsedBetween(std::string_view Root, unsigned Begin, unsigned End) const {
  const PySource &S = *M.Src;
  auto rooted = [&](TSNode E) {
    E = chainRoot(E);
    return is(E, "identifier") && S.text(E) == Root;
  };
  bool Used = false;
  walk(F.body(), [&](TSNode N) {
    if (Used || endOf(N) <= Begin || beginOf(N) >= End)
      return false;
    if (is(N, "call")) {
      // `self.capture()` may store into self; `self.model(x)` calls what an
      // attribute holds, not a method of self's class.
      TSNode Fn = unparen(field(N, "function"));
      Used = is(Fn, "attribute") && rooted(field(Fn, "object"));
      if (Used && Root == selfNameOf(S, F.Node) && !F.ClassQName.empty() &&
          is(unparen(field(Fn, "object")), "identifier"))
        Used = !P.methodOf(F.ClassQName, std::string(S.text(field(Fn, "attribute")))).empty();
      CallArgs A = argsOf(S, N);
      for (TSNode Arg : A.Positional)
        Used = Used || rooted(is(Arg, "list_splat") ? ts_node_named_child(Arg, 0) : Arg);
      for (const auto &KV : A.Keywords)
        Used = Used || rooted(KV.second);
    }
    return !Used;
  });
  return Used;
}

// The same test text over locals and their attributes, literals and
// operators, none of them bound again from the first if to the second: a
// call could answer differently the second time.
bool PyTypes::stableTest(const IfBranch &Earlier, const IfBranch &Later) const {
  const PySource &S = *M.Src;
  if (ts_node_is_null(Later.Condition) || S.text(Earlier.Condition) != S.text(Later.Condition))
    return false;
  std::string_view Between =
      std::string_view(S.text()).substr(Earlier.IfBegin, Later.IfBegin - Earlier.IfBegin);
  std::vector<TSNode> Work{Earlier.Condition};
  while (!Work.empty()) {
    TSNode E = Work.back();
    Work.pop_back();
    std::string_view K = kind(E);
    if (K == "identifier") {
      auto It = Bindings.find(S.text(E));
      if (It == Bindings.end())
        return false; // a global: any call between may set it
      for (const Binding &B : It->second)
        if (B.At > Earlier.IfBegin && B.At <= Later.IfBegin)
          return false;
    } else if (K == "attribute") {
      // `args.graphs`, `self.use_graphs`: no store to it between.
      std::string Chain(S.text(E));
      for (size_t At = Between.find(Chain); At != std::string_view::npos;
           At = Between.find(Chain, At + 1)) {
        std::string_view Rest = Between.substr(At + Chain.size());
        Rest.remove_prefix(std::min(Rest.find_first_not_of(" \t"), Rest.size()));
        bool Assigns = Rest.size() > 1 && Rest[0] == '=' && Rest[1] != '=';
        bool Updates = Rest.size() > 1 && Rest[1] == '=' &&
                       std::string_view("+-*/|&%^@").find(Rest[0]) != std::string_view::npos;
        if (Assigns || Updates)
          return false;
      }
      TSNode Root = chainRoot(E);
      if (is(Root, "identifier") && objectUsedBetween(S.text(Root), Earlier.IfBegin, Later.IfBegin))
        return false;
      Work.push_back(field(E, "object"));
    } else if (K == "comparison_operator" || K == "boolean_operator" || K == "not_operator" ||
               K == "parenthesized_expression") {
      for (TSNode C : namedChildren(E))
        Work.push_back(C);
    } else if (K == "string") {
      for (TSNode C : namedChildren(E))
        if (is(C, "interpolation"))
          return false;
    } else if (K != "integer" && K != "float" && K != "true" && K != "false" && K != "none" &&
               K != "comment") {
      return false;
    }
  }
  return true;
}

const PyTypes::Binding *PyTypes::bindingAt(std::string_view Name, unsigned Offset) const {
  auto It = Bindings.find(Name);
  if (It == Bindings.end())
    return nullptr;
  const Binding *Last = nullptr;
  for (const auto &B : It->second)
    if (B.At <= Offset && (!Last || B.At >= Last->At))
      Last = &B;
  // A binding in another branch of an if than the use never reaches it:
  // `if one: f = fs[0] else: f = tuple(fs)` reads the first f in tuple().
  if (Last && !IfBranches.empty() && Offset != ~0u && branchesApart(*Last, Offset) != ~0u) {
    const Binding *Reaching = nullptr;
    for (const auto &B : It->second)
      if (B.At <= Offset && (!Reaching || B.At >= Reaching->At) && branchesApart(B, Offset) == ~0u)
        Reaching = &B;
    if (Reaching)
      return Reaching;
  }
  // Bound later in a loop: the earliest binding stands in.
  return Last ? Last : &It->second.front();
}

TSNode PyTypes::boundExpr(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B && B->Element < 0 ? B->Expr : TSNode{};
}

std::pair<TSNode, int> PyTypes::boundElement(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B && B->Element >= 0 ? std::make_pair(B->Expr, B->Element) : std::make_pair(TSNode{}, -1);
}

TSNode PyTypes::onlyBoundExpr(std::string_view Name, unsigned Offset) const {
  return alsoReaching(Name, Offset).empty() ? boundExpr(Name, Offset) : TSNode{};
}

std::vector<TSNode> PyTypes::everyBoundExpr(std::string_view Name) const {
  std::vector<TSNode> Out;
  if (auto It = Bindings.find(Name); It != Bindings.end())
    for (const Binding &B : It->second)
      Out.push_back(B.Element < 0 ? B.Expr : TSNode{});
  return Out;
}

std::vector<unsigned> PyTypes::alsoReaching(std::string_view Name, unsigned Offset,
                                            int Depth) const {
  std::vector<unsigned> Out;
  const Binding *B = bindingAt(Name, Offset);
  if (!B || B->At > Offset || IfBranches.empty())
    return Out;
  branchesApart(*B, B->At); // fills B->Holding
  auto It = Bindings.find(Name);
  for (unsigned I : *B->Holding) {
    const IfBranch &Br = IfBranches[I];
    if (Br.IfEnd > Offset)
      continue; // used inside the if: B's own branch
    // The last binding in each other branch.
    for (unsigned J = Br.FirstSibling; J < Br.FirstSibling + Br.Siblings; ++J) {
      const IfBranch &Other = IfBranches[J];
      if (Other.BranchBegin <= B->At && B->At <= Other.BranchEnd)
        continue;
      if (sameTestApart(Other, Offset, !Other.Holds))
        continue;
      const Binding *Last = nullptr;
      for (const auto &O : It->second)
        if (Other.BranchBegin <= O.At && O.At <= Other.BranchEnd && (!Last || O.At >= Last->At))
          Last = &O;
      if (Last)
        Out.push_back(Last->At);
    }
    // The binding before an if with no else reaches where the branch did
    // not run: not under a later test of the same condition with the
    // branch's outcome, where B sits in that branch's own block.
    bool BranchRan = false;
    if (!Br.Exhaustive && Br.Holds && sameTestApart(Br, Offset, true)) {
      BranchRan = true;
      for (unsigned K : *B->Holding)
        BranchRan = BranchRan && IfBranches[K].IfBegin <= Br.IfBegin;
    }
    // That binding may sit in a branch of an earlier if itself (`if a: m =
    // A() elif b: m = B()`, then `if c: m = Wrap(m)`): what reached the
    // later if from there reaches too.
    if (!Br.Exhaustive && !BranchRan)
      if (const Binding *Before = bindingAt(Name, Br.IfBegin); Before && Before->At <= Br.IfBegin) {
        Out.push_back(Before->At);
        if (Depth < 4)
          for (unsigned More : alsoReaching(Name, Br.IfBegin, Depth + 1))
            Out.push_back(More);
      }
  }
  std::sort(Out.rbegin(), Out.rend());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

int PyTypes::parameterAt(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B ? B->Parameter : -1;
}

int PyTypes::noneOfParameterAt(std::string_view Name, unsigned Offset, int Depth) const {
  const Binding *B = bindingAt(Name, Offset);
  if (!B || B->Parameter >= 0 || Depth > 3)
    return B ? B->Parameter : -1;
  if (ts_node_is_null(B->Expr) || B->Element >= 0)
    return -1;
  const PySource &S = *M.Src;
  // `name = expr` itself, not a tuple or starred target.
  TSNode Assignment = parentOf(B->Expr);
  if (!is(Assignment, "assignment") || !is(field(Assignment, "left"), "identifier"))
    return -1;
  // Made from the name itself: `x.to(...)`, `x[:, None]`, `x.float().t()`.
  TSNode Root = unparen(B->Expr);
  while (is(Root, "call") || is(Root, "attribute") || is(Root, "subscript")) {
    if (is(Root, "call"))
      Root = field(Root, "function");
    Root = unparen(is(Root, "subscript") ? field(Root, "value") : field(Root, "object"));
  }
  if (!is(Root, "identifier") || S.text(Root) != Name || ts_node_eq(Root, unparen(B->Expr)))
    return -1;
  // Only where an if around it found the name not None.
  for (TSNode Up = parentOf(B->Expr); !ts_node_is_null(Up) && !isScope(Up); Up = parentOf(Up)) {
    if (!is(Up, "block"))
      continue;
    TSNode If = parentOf(Up);
    if (!is(If, "if_statement") || !ts_node_eq(field(If, "consequence"), Up))
      continue;
    std::vector<TSNode> Conjuncts{unparen(field(If, "condition"))};
    while (!Conjuncts.empty()) {
      TSNode C = Conjuncts.back();
      Conjuncts.pop_back();
      if (is(C, "boolean_operator") && kind(ts_node_child(C, 1)) == "and") {
        Conjuncts.push_back(unparen(field(C, "left")));
        Conjuncts.push_back(unparen(field(C, "right")));
      } else if (is(C, "comparison_operator") && ts_node_child_count(C) == 3 &&
                 kind(ts_node_child(C, 1)) == "is not" && is(ts_node_child(C, 2), "none") &&
                 is(ts_node_child(C, 0), "identifier") && S.text(ts_node_child(C, 0)) == Name) {
        return noneOfParameterAt(Name, beginOf(C), Depth + 1);
      }
    }
  }
  return -1;
}

TSNode PyTypes::enteredExpr(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B ? B->Entered : TSNode{};
}

TSNode PyTypes::iteratedExpr(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B ? B->Iterated : TSNode{};
}

bool PyTypes::bindsHere(std::string_view Name) const {
  return Bindings.count(Name) ||
         (!F.IsModuleBody && P.isFunction(F.QualName + "." + std::string(Name)));
}

// The function whose body defines this one, when this one is nested in a
// function (a class in between still sees the function's names).
const PyTypes *PyTypes::enclosing() const {
  if (EnclosingKnown)
    return EnclosingScope;
  if (F.IsModuleBody)
    return nullptr;
  // Too deep to look now: say nothing, and remember nothing.
  if (Cache.Depth > 2)
    return nullptr;
  EnclosingKnown = true;
  TSNode Outer = enclosingFunction(F.Node);
  if (ts_node_is_null(Outer))
    return nullptr;
  for (const auto &G : M.Functions)
    if (!G.IsModuleBody && ts_node_eq(G.Node, Outer)) {
      auto &Slot = Cache.Enclosing[&G];
      if (!Slot) {
        ++Cache.Depth;
        Slot = std::make_unique<PyTypes>(P, M, G, Cache);
        --Cache.Depth;
      }
      EnclosingScope = Slot.get();
      break;
    }
  return EnclosingScope;
}

const PyTypes *PyTypes::closureScope(std::string_view Name) const {
  // Asked of every name a function does not bind: most functions are not
  // nested, and answer before building any name.
  const PyTypes *Outer = F.IsModuleBody ? nullptr : enclosing();
  if (!Outer || bindsHere(Name))
    return nullptr;
  for (; Outer; Outer = Outer->enclosing())
    if (Outer->bindsHere(Name))
      return Outer;
  return nullptr;
}

const PyTypes *PyTypes::nonlocalScope(std::string_view Name) const {
  for (const PyTypes *Outer = F.IsModuleBody ? nullptr : enclosing(); Outer;
       Outer = Outer->enclosing())
    if (!Outer->F.IsModuleBody && Outer->bindsHere(Name))
      return Outer;
  return nullptr;
}

// The name an `isinstance(x, torch.Tensor)` test (or its negation, or a
// local bound to it alone before At) asks about; empty for any other test.
std::string PyTypes::tensorInstanceTest(TSNode Cond, unsigned At, bool &Negated) const {
  const PySource &S = *M.Src;
  Cond = unparen(Cond);
  Negated = false;
  if (is(Cond, "not_operator")) {
    Negated = true;
    Cond = unparen(field(Cond, "argument"));
  }
  // `is_tensor = isinstance(x, torch.Tensor)`, its only binding, then `if
  // is_tensor:`.
  if (is(Cond, "identifier"))
    if (auto It = Bindings.find(S.text(Cond)); It != Bindings.end() && It->second.size() == 1 &&
                                               It->second.front().Element < 0 &&
                                               It->second.front().At < At)
      Cond = unparen(It->second.front().Expr);
  if (!is(Cond, "call") || S.text(field(Cond, "function")) != "isinstance")
    return "";
  CallArgs A = argsOf(S, Cond);
  if (A.Positional.size() != 2 || !is(A.Positional[0], "identifier") ||
      S.text(A.Positional[1]).find("Tensor") == std::string_view::npos)
    return "";
  return std::string(S.text(A.Positional[0]));
}

// In [Begin, End) Name holds no tensor; from End on, what it held before At.
void PyTypes::narrowAway(const std::string &Name, unsigned At, unsigned Begin, unsigned End) {
  const Binding *Before = bindingAt(Name, At);
  std::optional<Binding> After;
  if (Before) {
    After = *Before;
    After->At = End;
  }
  Binding Narrowed;
  Narrowed.At = Begin;
  Bindings[Name].push_back(Narrowed);
  if (After)
    Bindings[Name].push_back(*After);
}

// `if isinstance(x, torch.Tensor): ... else: <here x is not a tensor>`, and
// `if not isinstance(x, torch.Tensor): <here>`: callers may pass either.
void PyTypes::narrowIsinstance(TSNode If) {
  bool Negated = false;
  const std::string Name = tensorInstanceTest(field(If, "condition"), beginOf(If), Negated);
  if (Name.empty())
    return;
  unsigned Begin = 0, End = endOf(If);
  if (Negated) {
    TSNode Body = field(If, "consequence");
    Begin = beginOf(Body);
    End = endOf(Body);
  } else if (TSNode Alt = field(If, "alternative"); !ts_node_is_null(Alt)) {
    Begin = beginOf(Alt);
  } else {
    // `if isinstance(x, Tensor): return ...`: below it, x is no tensor.
    auto Stmts = namedChildren(field(If, "consequence"));
    auto Last = Stmts.empty() ? std::string_view() : kind(Stmts.back());
    if (Last != "return_statement" && Last != "raise_statement" && Last != "continue_statement")
      return;
    Begin = endOf(If);
    End = endOf(parentOf(If));
  }
  narrowAway(Name, beginOf(If), Begin, End);
}

// The same inside an expression: `a if isinstance(x, Tensor) else <here>`,
// `<here> if not isinstance(x, Tensor) else b`, `isinstance(x, Tensor) or
// <here>`, `not isinstance(x, Tensor) and <here>`.
void PyTypes::narrowIsinstanceExpr(TSNode E) {
  bool Negated = false;
  TSNode Cond{}, Away{};
  if (is(E, "conditional_expression") && ts_node_named_child_count(E) == 3) {
    Cond = ts_node_named_child(E, 1);
    if (std::string Name = tensorInstanceTest(Cond, beginOf(E), Negated); !Name.empty()) {
      Away = ts_node_named_child(E, Negated ? 0 : 2);
      narrowAway(Name, beginOf(E), beginOf(Away), endOf(Away));
    }
  } else if (is(E, "boolean_operator")) {
    const bool Or = M.Src->text(field(E, "operator")) == "or";
    if (std::string Name = tensorInstanceTest(field(E, "left"), beginOf(E), Negated);
        !Name.empty() && Or != Negated) {
      Away = field(E, "right");
      narrowAway(Name, beginOf(E), beginOf(Away), endOf(Away));
    }
  }
}

Value PyTypes::nameAt(std::string_view Name, unsigned Offset) const {
  if (const Binding *B = bindingAt(Name, Offset)) {
    const Value &BV = valueOf(*B);
    // `if a: m = A() else: m = B()`, or `if a: m = Wrapped(m)`, used after
    // the if: either class.
    if (BV.K != VK::Instance || ts_node_is_null(B->Expr) || B->At > Offset)
      return BV;
    std::vector<std::string> Classes = BV.classes();
    for (unsigned At : alsoReaching(Name, Offset)) {
      const Binding *O = bindingAt(Name, At);
      if (!O || O == B || ts_node_is_null(O->Expr))
        continue;
      const Value &OV = valueOf(*O);
      if (OV.K != VK::Instance || OV.Many != BV.Many)
        continue;
      for (const auto &C : OV.classes())
        if (std::find(Classes.begin(), Classes.end(), C) == Classes.end())
          Classes.push_back(C);
    }
    if (Classes.size() == BV.classes().size())
      return BV;
    Value V = Value::instanceOfAny(Classes);
    V.Many = BV.Many;
    return V;
  }
  if (const PyTypes *Outer = closureScope(Name))
    return Outer->nameAt(Name, Offset);
  // A global: its value at the end of the module's top-level code.
  if (const PyTypes *Scope = moduleScope(); Scope && Scope != this && Scope->bindsHere(Name))
    return Scope->nameAt(Name, ~0u);
  // A global of another module, imported by name (`from pkg import model`).
  if (auto Global = importedGlobal(Name))
    return Global->first->nameAt(Global->second, ~0u);
  return {};
}

std::optional<std::pair<const PyTypes *, std::string>>
PyTypes::importedGlobal(std::string_view Name) const {
  auto It = M.Imports.find(std::string(Name));
  if (It == M.Imports.end())
    return std::nullopt;
  std::string Q = P.canonical(It->second);
  size_t Dot = Q.rfind('.');
  if (Dot == std::string::npos || P.isFunction(Q) || P.classNamed(Q))
    return std::nullopt;
  const PyModuleInfo *Of = P.moduleNamed(Q.substr(0, Dot));
  const PyTypes *Scope = Of && Of != &M ? moduleScope(Of) : nullptr;
  std::string Global = Q.substr(Dot + 1);
  if (!Scope || !Scope->bindsHere(Global))
    return std::nullopt;
  return std::make_pair(Scope, Global);
}

const PyTypes *PyTypes::moduleScope(const PyModuleInfo *Of) const {
  if (!Of)
    Of = &M;
  if ((Of == &M && F.IsModuleBody) || Cache.Depth > 2)
    return Of == &M && F.IsModuleBody ? this : nullptr;
  auto &Scope = Cache.ModuleScopes[Of];
  if (!Scope) {
    ++Cache.Depth;
    const PyModuleInfo &Read = P.tree(*Of);
    Scope = std::make_unique<PyTypes>(P, Read, Read.Functions.front(), Cache);
    --Cache.Depth;
  }
  return Scope.get();
}

std::pair<int, int> PyTypes::boundSlice(std::string_view Name, unsigned Offset) const {
  const Binding *B = bindingAt(Name, Offset);
  return B ? std::make_pair(B->From, B->To) : std::make_pair(0, -1);
}

namespace {

// Whether the store N into self.Attr is overwritten by the very next
// statement before anything could read it: the next store's right side
// neither reads self.Attr nor calls a method of self or hands self on
// (`self.model = shard(m)` then `self.model = Wrapper(m).to(dev)`). No other
// method sees the first value, so it says nothing of what the attribute holds.
bool overwrittenAtOnce(const PyTypes &T, const PySource &S, TSNode N, std::string_view Attr) {
  TSNode Stmt = parentOf(N);
  if (!is(Stmt, "expression_statement"))
    return false;
  TSNode Next = ts_node_next_named_sibling(Stmt);
  while (is(Next, "comment"))
    Next = ts_node_next_named_sibling(Next);
  TSNode Later = ts_node_is_null(Next) ? TSNode{} : ts_node_named_child(Next, 0);
  if (!is(Next, "expression_statement") || !is(Later, "assignment"))
    return false;
  TSNode L = field(Later, "left");
  // `self.x: Client` after the store declares its type and stores nothing.
  if (!is(L, "attribute") || !T.isSelf(field(L, "object")) ||
      S.text(field(L, "attribute")) != Attr || ts_node_is_null(field(Later, "right")))
    return false;
  bool Reads = false;
  walk(field(Later, "right"), [&](TSNode E) {
    if (Reads)
      return false;
    if (is(E, "attribute") && T.isSelf(field(E, "object"))) {
      TSNode Up = parentOf(E);
      Reads = S.text(field(E, "attribute")) == Attr ||
              (is(Up, "call") && ts_node_eq(field(Up, "function"), E));
      return false;
    }
    Reads = T.isSelf(E);
    return !Reads;
  });
  return !Reads;
}

} // namespace

// What Class's own methods store into self.Attr, joined: values that
// disagree (or an augmented update) make the kind unknown, except a
// counter: a number increased stays a host value. Only the methods the
// index says store Attr (or register buffers) are read, and each once.
std::optional<Value> PyTypes::storedAttr(const PyClassDef &C, const std::string &Attr,
                                         const std::string &ViewFrom) const {
  std::vector<Value> Vs;
  bool Stored = false;
  auto holds = [](const std::map<std::string, std::set<std::string>> &By, const std::string &Method,
                  const std::string &What) {
    auto It = By.find(Method);
    return It != By.end() && It->second.count(What) > 0;
  };
  auto reads = [&](const std::string &Method) {
    return holds(C.StoresBy, Method, Attr) || holds(C.SelfCallsBy, Method, "register_buffer");
  };
  if (std::none_of(C.Methods.begin(), C.Methods.end(), reads))
    return std::nullopt;
  const PyModuleInfo &Home = P.classTree(C);
  for (const auto &Fn : Home.Functions) {
    if (Fn.ClassQName != C.QualName || !reads(Fn.Name))
      continue;
    bool Buffers = holds(C.SelfCallsBy, Fn.Name, "register_buffer");
    PyTypes *T = &cachedTypes(P, Home, Fn, Cache, ViewFrom);
    const PySource &S = *Home.Src;
    walk(field(Fn.Node, "body"), [&](TSNode N) {
      // `if use_npu: self.model = NpuModel(...)`: no capture meets it.
      if (is(N, "block") && offPlatform(*T, N))
        return false;
      if (is(N, "assignment") || is(N, "augmented_assignment")) {
        TSNode L = field(N, "left");
        if (is(L, "attribute") && T->isSelf(field(L, "object")) &&
            S.text(field(L, "attribute")) == Attr) {
          Stored = true;
          TSNode R = field(N, "right");
          // `self.x = None` (reset, or set later) says nothing of what x holds.
          if (is(N, "assignment") && !is(unparen(R), "none") && !overwrittenAtOnce(*T, S, N, Attr))
            Vs.push_back(T->valueOf(R));
          else if (!is(N, "assignment"))
            Vs.push_back(Value{});
        } else if (TSNode Of = is(L, "subscript") ? unparen(field(L, "value")) : TSNode{};
                   is(N, "assignment") && is(Of, "attribute") && T->isSelf(field(Of, "object")) &&
                   S.text(field(Of, "attribute")) == Attr &&
                   !isLiteral(unparen(field(L, "subscript")))) {
          // `self.attn[i] = Wrapper(...)` into a list made as `[None] * n`,
          // at an index a value chooses: a list of such instances. (At a
          // literal index the container's own slots say what each holds.)
          Stored = true;
          Value Item = T->valueOf(field(N, "right"));
          if (Item.K == VK::Instance && !Item.Many) {
            Item.Many = true;
            Vs.push_back(Item);
          }
        }
      } else if (Buffers && is(N, "call")) {
        // self.register_buffer("name", tensor)
        TSNode Fn2 = field(N, "function");
        if (is(Fn2, "attribute") && T->isSelf(field(Fn2, "object")) &&
            S.text(field(Fn2, "attribute")) == "register_buffer") {
          CallArgs A = argsOf(S, N);
          if (!A.Positional.empty() && stringLiteral(S, A.Positional[0]) == Attr) {
            Stored = true;
            Vs.push_back({VK::Tensor, ""});
          }
        }
      }
      return true;
    });
  }
  if (!Stored)
    return std::nullopt;
  Value V;
  for (const auto &O : Vs)
    if (V.K == VK::Unknown)
      V = O;
  // Stores of instances of different classes (`if tied: self.proj =
  // ModuleList([first] + [tied] * n) else: self.proj = ModuleList([Linear()
  // ...])`): any of them.
  for (const auto &O : Vs)
    if (O.K != VK::Unknown && (O.K != V.K || O.Name != V.Name))
      V = V.K == VK::Instance ? Value::either(V, O) : Value{};
  // Exact where every store is an instance its constructor made (or a list
  // of such), and no subclass stores the attribute too (a store of unknown
  // kind may hold a subclass).
  auto made = [&](const Value &O) { return O.K == VK::Instance && O.Exact && O.Many == V.Many; };
  bool Exact = V.K == VK::Instance && std::all_of(Vs.begin(), Vs.end(), made);
  // A subclass storing the attribute too makes it hold that subclass's
  // classes where self is one: still exact, where its stores are (`del
  // self.blocks; self.blocks = nn.ModuleList([ViewBlock() ...])`).
  // Read for a subclass (ViewFrom), only that subclass's own subclasses
  // may be self: a sibling's stores are not this object's.
  // Not exact, the value is an instance of V's classes or of their
  // subclasses; a subclass of C storing an instance of another class
  // (overriding the method that stores it) adds that class.
  const std::string &Self = ViewFrom.empty() ? C.QualName : ViewFrom;
  for (const auto &D : V.K == VK::Instance ? P.descendants(Self) : std::vector<std::string>{}) {
    const PyClassDef *Below = P.classNamed(D);
    if (!Below || !Below->AssignedAttrs.count(Attr))
      continue;
    std::optional<Value> Sub;
    if (Cache.Depth < 3) {
      ++Cache.Depth;
      Sub = storedAttr(*Below, Attr, "");
      --Cache.Depth;
    }
    const bool Instance = Sub && Sub->K == VK::Instance && Sub->Many == V.Many;
    Exact = Exact && Instance && Sub->Exact;
    if (Instance)
      V = Value::either(V, *Sub);
    if (V.K != VK::Instance)
      break;
  }
  Exact = Exact && V.K == VK::Instance;
  V.Exact = Exact;
  return V;
}

Value PyTypes::selfAttr(const std::string &Class, const std::string &Attr,
                        const std::string &ViewFrom) const {
  const PyClassDef *C = P.classNamed(Class);
  if (!C)
    return {};
  const std::string Key = ViewFrom.empty() ? Class : Class + "@" + ViewFrom;
  auto &Attrs = Cache.ClassAttrs[Key];
  auto Found = Attrs.find(Attr);
  if (Found == Attrs.end()) {
    // Too deep to look now: say nothing, and remember nothing, so a shallower
    // question later still gets the answer.
    if (Cache.Depth > 2)
      return {};
    ++Cache.Depth;
    std::optional<Value> Own = storedAttr(*C, Attr, ViewFrom);
    --Cache.Depth;
    Found = Attrs.emplace(Attr, std::move(Own)).first;
  }
  if (Found->second)
    return *Found->second;
  // Inherited from a base class of the project.
  for (const auto &B : C->Bases)
    if (B != Class && Cache.Depth < 4) {
      ++Cache.Depth;
      // Read from Class: what Class's own super().__init__(...) hands B.
      Value V = selfAttr(B, Attr, ViewFrom.empty() ? Class : ViewFrom);
      --Cache.Depth;
      if (V.K != VK::Unknown)
        return V;
    }
  return {};
}

PyTypes &cachedTypes(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F,
                     PyTypeCache &Cache, const std::string &View) {
  auto &T = Cache.Methods[{&F, View}];
  if (!T)
    T = std::make_unique<PyTypes>(P, M, F, Cache, View);
  return *T;
}

std::string PyTypes::resolve(TSNode E) const {
  E = unparen(E);
  const PySource &S = *M.Src;
  if (is(E, "identifier")) {
    std::string Name(S.text(E));
    // A def nested in this function.
    if (!F.IsModuleBody && P.isFunction(F.QualName + "." + Name))
      return F.QualName + "." + Name;
    if (auto It = Bindings.find(Name); It != Bindings.end() && !M.Imports.count(Name)) {
      // A module's def that an assignment rebinds later (`update =
      // CudaGraphModule(update)`): up to that assignment, the def.
      auto Def = F.IsModuleBody ? M.Defs.find(Name) : M.Defs.end();
      if (Def != M.Defs.end() && std::none_of(It->second.begin(), It->second.end(),
                                              [&](const Binding &B) { return B.At <= beginOf(E); }))
        return Def->second;
      return ""; // a local variable
    }
    if (const PyTypes *Outer = closureScope(Name))
      return Outer->resolve(E); // a closure's free variable
    if (auto It = M.Imports.find(Name); It != M.Imports.end())
      return P.canonical(It->second);
    if (auto It = M.Defs.find(Name); It != M.Defs.end())
      return It->second;
    return Name; // a builtin, or a global defined elsewhere
  }
  if (is(E, "attribute")) {
    std::string Base = resolve(field(E, "object"));
    std::string Attr(S.text(field(E, "attribute")));
    // `self.device_module.graph(g)`: a module held in a variable. Asked
    // only for what torch.cuda has, so that resolving `x.sum` does not work
    // out what every receiver holds.
    if (Base.empty() && Complete &&
        (torchReturnKind("torch.cuda." + Attr) || Attr == "graph" || Attr == "CUDAGraph"))
      if (Value V = valueOf(field(E, "object")); V.K == VK::Module)
        Base = V.Name;
    if (Base.empty())
      return "";
    return P.canonical(Base + "." + Attr);
  }
  return "";
}

std::optional<std::string> PyTypes::moduleValue(TSNode E) const {
  E = unparen(E);
  // Asked of every call and attribute a value is worked out for: the
  // spelling first, resolving only what may name one of these (or an
  // imported name, which an alias may spell otherwise).
  TSNode Last = is(E, "call") ? unparen(field(E, "function")) : E;
  Last = is(Last, "attribute") ? field(Last, "attribute") : Last;
  std::string Spelled(M.Src->text(Last));
  if (Spelled != "get_device_module" && Spelled != "getattr" && Spelled != "cuda" &&
      !(is(Last, "identifier") && M.Imports.count(Spelled)))
    return std::nullopt;
  // The device module a program picks by device type is torch.cuda where
  // CUDA graphs are captured at all.
  if (is(E, "call")) {
    std::string Fn = resolve(field(E, "function"));
    if (Fn == "torch.get_device_module")
      return "torch.cuda";
    CallArgs A = argsOf(*M.Src, E);
    if (Fn == "getattr" && A.Positional.size() == 2 && resolve(A.Positional[0]) == "torch") {
      auto Name = plainString(*M.Src, unparen(A.Positional[1]));
      if (!Name || *Name == "cuda")
        return "torch.cuda";
    }
    return std::nullopt;
  }
  if ((is(E, "attribute") || is(E, "identifier")) && resolve(E) == "torch.cuda")
    return "torch.cuda";
  return std::nullopt;
}

Value PyTypes::returnedInstances(const std::string &Function) const {
  if (auto It = Cache.ReturnedInstances.find(Function); It != Cache.ReturnedInstances.end())
    return It->second;
  // The instances its returns build (`return Runner(cfg)`), and those a
  // global it returns is set to in its module (`global acc; ... acc =
  // CudaAccelerator(); return acc`): the classes the code is seen to build,
  // read from the module's index (PyFunctionDef::ReturnsBuilt), so a caller
  // depends on the callee's interface, not its body. A value set from
  // elsewhere (`acc = accel_obj`) adds none.
  const auto [Fn, Mod] = P.signature(Function);
  if (!Fn || !Mod)
    return {};
  std::vector<std::string> Classes;
  auto add = [&](const std::string &Spelled) {
    if (std::string Q = P.qualify(*Mod, Spelled); P.classNamed(Q))
      Classes.push_back(Q);
  };
  for (const auto &R : Fn->ReturnsBuilt)
    if (R.rfind("global:", 0) != 0)
      add(R);
    else if (auto It = Mod->GlobalsBuilt.find(R.substr(7)); It != Mod->GlobalsBuilt.end())
      for (const auto &Spelled : It->second)
        add(Spelled);
  std::sort(Classes.begin(), Classes.end());
  Classes.erase(std::unique(Classes.begin(), Classes.end()), Classes.end());
  return Cache.ReturnedInstances[Function] = Value::instanceOfAny(Classes);
}

// What position I of the tuple a project function returns holds, where
// every return builds it (PyFunctionDef::ReturnsElementsBuilt).
Value PyTypes::returnedElement(TSNode Call, size_t I) const {
  TSNode Fn = unparen(field(Call, "function"));
  std::string Function = resolve(Fn);
  if (!P.isFunction(Function) && is(Fn, "attribute"))
    if (Value Recv = valueOf(field(Fn, "object")); Recv.K == VK::Instance && !Recv.Many)
      Function = P.methodOf(Recv.Name, std::string(M.Src->text(field(Fn, "attribute"))));
  // `values, indices = x.topk(k)`, `q, k = qkv.chunk(2)`: a tensor, or a
  // torch call's tuple of them (its declared kind is tensor), unpacks into
  // tensors; so does a helper whose every return is such a call.
  if (!P.isFunction(Function) ? valueOf(Call).tensor() : returnedTensors(Function).tensor())
    return {VK::Tensor, ""};
  const auto [Def, Mod] = P.signature(Function);
  if (!Def || !Mod)
    return {};
  // `model, dist = distribute(model)`: the argument handed back there.
  if (std::vector<TSNode> Args = returnedArguments(*this, Function, Call, static_cast<int>(I));
      !Args.empty())
    return valueOf(Args.front());
  if (I >= Def->ReturnsElementsBuilt.size())
    return {};
  std::vector<std::string> Classes;
  for (const auto &Spelled : Def->ReturnsElementsBuilt[I])
    if (std::string Q = P.qualify(*Mod, Spelled); P.classNamed(Q))
      Classes.push_back(Q);
    else
      return {}; // a library's class, or a function named in CapWords
  std::sort(Classes.begin(), Classes.end());
  Classes.erase(std::unique(Classes.begin(), Classes.end()), Classes.end());
  return Value::instanceOfAny(Classes);
}

// The class objects a project function's returns hold, or (Element >= 0)
// position Element of the tuple every return gives, also where it returns
// another function's call: from its index entry, read without its tree (a
// call handed on is noted as a read of the body, the others are its
// interface).
std::vector<std::string> PyTypes::returnedClassObjects(const std::string &Function, int Element,
                                                       int Depth) const {
  std::vector<std::string> Out;
  const auto [Def, Home] = P.signature(Function);
  if (!Def || !Home || Depth > 4)
    return Out;
  // `return Registry._get_model(arch)`, or `cls._get_model(arch)` in a class
  // method: what that function's returns hold.
  auto handedOn = [&](const std::string &Spelled, int At) {
    // A fact of Function's body, not of its interface (interfaceHash): a
    // cache redoes this reader when that body changes.
    (void)P.function(Function);
    std::string Callee = Spelled.substr(ReturnedByCall.size());
    std::string Q = P.qualify(*Home, Callee);
    if (auto Dot = Callee.find('.');
        !P.isFunction(Q) && Dot != std::string::npos && !Def->ClassQName.empty() &&
        (Callee.compare(0, Dot, "cls") == 0 || Callee.compare(0, Dot, "self") == 0))
      Q = P.methodOf(Def->ClassQName, Callee.substr(Dot + 1));
    if (P.isFunction(Q) && Q != Function)
      for (auto &C : returnedClassObjects(Q, At, Depth + 1))
        Out.push_back(std::move(C));
  };
  // One spelling; At is the position wanted of a call handed on, and a
  // name or a module's lookup is never a tuple.
  auto take = [&](const std::string &S, int At) {
    if (startsWith(S, ReturnedByCall))
      handedOn(S, At);
    else if (At >= 0)
      return;
    else if (startsWith(S, ImportedClasses))
      for (const auto &C : importedClasses(
               P, Cache, std::string_view(S).substr(ImportedClasses.size()), Home->RootPrefix))
        Out.push_back(C);
    else if (std::string Q = P.qualify(*Home, S); P.classNamed(Q))
      Out.push_back(std::move(Q));
  };
  for (const auto &S : Def->ReturnsClassObjects)
    take(S, Element);
  if (Element >= 0 && static_cast<size_t>(Element) < Def->ReturnsElementClassObjects.size())
    for (const auto &S : Def->ReturnsElementClassObjects[Element])
      take(S, -1);
  return Out;
}

// The project classes E may hold as a class object: the class named, a
// local bound to one, a parameter callers hand one, a `functools.partial` of one (calling it builds
// the class), one picked from a dict or tuple of classes (`{"a": A, "b": B}[kind]`), either side of
// `x if c else y`.
std::vector<std::string> PyTypes::classObjects(TSNode E, int Depth) const {
  E = unparen(E);
  const PySource &S = *M.Src;
  std::vector<std::string> Out;
  if (ts_node_is_null(E) || Depth > 4)
    return Out;
  auto add = [&](TSNode Part) {
    for (auto &Q : classObjects(Part, Depth + 1))
      Out.push_back(std::move(Q));
  };
  std::string Named = resolve(E);
  if (!Named.empty() && P.classNamed(Named)) {
    Out.push_back(std::move(Named));
  } else if (!Named.empty() && P.isFunction(Named)) {
    // A factory handed around (`agent_wrapper=make_agent`, then `agent =
    // agent_wrapper()`): calling it builds what its returns build.
    if (Value Built = returnValue(Named); Built.K == VK::Instance && !Built.Many)
      for (auto &C : Built.classes())
        if (P.classNamed(C))
          Out.push_back(std::move(C));
  } else if (auto Global = is(E, "identifier") ? importedGlobal(S.text(E)) : std::nullopt) {
    // A global of another module (`from .model import DEFAULT_BACKBONE`).
    Out = Global->first->classObjects(Global->first->boundExpr(Global->second, ~0u), Depth + 1);
  } else if (is(E, "identifier") && !bindsHere(S.text(E))) {
    // A global of this module (`DEFAULT_BACKBONE = next(iter(...))`).
    std::string Name(S.text(E));
    if (const PyTypes *Module = moduleScope(); Module && Module != this && Module->bindsHere(Name))
      Out = Module->classObjects(Module->boundExpr(Name, ~0u), Depth + 1);
  } else if (is(E, "identifier")) {
    // Every binding that may reach E: a parameter holds what callers pass.
    std::string_view Name = S.text(E);
    std::vector<unsigned> Reaching = alsoReaching(Name, beginOf(E));
    Reaching.push_back(beginOf(E));
    for (unsigned At : Reaching)
      if (int Index = parameterAt(Name, At); Index >= 0 && !F.IsModuleBody) {
        for (auto &Q : P.paramClassObjects(F.QualName, Index))
          Out.push_back(std::move(Q));
        // A caller leaving the parameter out passes its default
        // (`layer_class=TransformerLayer`).
        for (TSNode Param : namedChildren(field(F.Node, "parameters")))
          if (TSNode Id = parameterName(Param); !ts_node_is_null(Id) && S.text(Id) == Name)
            add(field(Param, "value"));
      } else if (TSNode Seq = iteratedExpr(Name, At); !ts_node_is_null(Seq)) {
        // `for cls in (Llama, Mixtral):` takes each class in turn.
        for (auto &Q : elementClassObjects(Seq, Depth + 1))
          Out.push_back(std::move(Q));
      } else if (auto [Call, Element] = boundElement(Name, At); Element >= 0) {
        // `model_cls, arch = resolve_model_cls(archs)`: what that position
        // of the tuple the function returns holds.
        if (std::string Fn = resolve(field(Call, "function")); P.isFunction(Fn))
          for (auto &Q : returnedClassObjects(Fn, Element, Depth + 1))
            Out.push_back(std::move(Q));
      } else {
        add(boundExpr(Name, At));
      }
  } else if (is(E, "call") && resolve(field(E, "function")) == "functools.partial") {
    if (CallArgs A = argsOf(S, E); !A.Positional.empty())
      add(A.Positional[0]);
  } else if (std::string Fn = is(E, "call") ? resolve(field(E, "function")) : "";
             !Fn.empty() && P.isFunction(Fn)) {
    // A project function's result: the class objects its returns hold
    // (a factory of layer classes, a registry's lookup).
    Out = returnedClassObjects(Fn, -1, Depth);
  } else if (is(E, "subscript")) {
    for (auto &Q : elementClassObjects(field(E, "value"), Depth))
      Out.push_back(std::move(Q));
  } else if (std::string Fn = is(E, "call") ? resolve(field(E, "function")) : "";
             Fn == "next" || Fn == "builtins.next") {
    // `next(iter(BACKBONES.values()))`: the first of a registry's classes.
    if (CallArgs A = argsOf(S, E); !A.Positional.empty())
      for (auto &Q : elementClassObjects(A.Positional[0], Depth))
        Out.push_back(std::move(Q));
  } else if (TSNode Fn = is(E, "call") ? unparen(field(E, "function")) : TSNode{};
             is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "get") {
    // `REGISTRY.get(name, Default)`.
    for (auto &Q : elementClassObjects(field(Fn, "object"), Depth + 1))
      Out.push_back(std::move(Q));
    if (CallArgs A = argsOf(S, E); A.Positional.size() == 2)
      add(A.Positional[1]);
  } else if (is(E, "conditional_expression")) {
    auto Parts = namedChildren(E);
    if (Parts.size() == 3) {
      add(Parts[0]);
      add(Parts[2]);
    }
  }
  return Out;
}

std::vector<std::string> PyTypes::elementClassObjects(TSNode E, int Depth) const {
  E = unparen(E);
  const PySource &S = *M.Src;
  std::vector<std::string> Out;
  if (ts_node_is_null(E) || Depth > 4)
    return Out;
  auto add = [&](const PyTypes &Scope, TSNode Part) {
    for (auto &Q : Scope.classObjects(Part, Depth + 1))
      Out.push_back(std::move(Q));
  };
  if (is(E, "dictionary")) {
    for (TSNode Pair : namedChildren(E))
      add(*this, field(Pair, "value"));
  } else if (is(E, "tuple") || is(E, "list") || is(E, "set")) {
    for (TSNode Item : namedChildren(E))
      add(*this, Item);
  } else if (is(E, "call")) {
    // `D.values()`, `iter(x)`, `list(x)`: the same elements.
    TSNode Fn = unparen(field(E, "function"));
    std::string Q = resolve(Fn);
    CallArgs A = argsOf(S, E);
    // Wrappers, not steps through bindings: the depth stays.
    if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "values" && A.Positional.empty())
      Out = elementClassObjects(field(Fn, "object"), Depth);
    else if ((Q == "iter" || Q == "list" || Q == "tuple" || Q == "sorted" || Q == "reversed") &&
             A.Positional.size() == 1)
      Out = elementClassObjects(A.Positional[0], Depth);
    else if (Q == "globals" && A.Positional.empty() && A.Keywords.empty())
      Out = namespaceClasses(P, Cache, M);
  } else if (is(E, "identifier")) {
    // A registry: the literal the name is bound to, and the classes the
    // scope binding it stores by item (`BACKBONES["torch"] = TorchBackbone`),
    // in that module when the name is imported from one.
    std::string Name(S.text(E));
    const PyTypes *Scope = this;
    unsigned At = beginOf(E);
    if (auto Global = importedGlobal(Name)) {
      Scope = Global->first;
      Name = Global->second;
      At = ~0u;
    } else if (!bindsHere(Name)) {
      const PyTypes *Module = moduleScope();
      Scope = Module && Module->bindsHere(Name) ? Module : nullptr;
      At = ~0u;
    }
    if (!Scope)
      return Out;
    // The literal is what the name stands for: no step deeper.
    if (TSNode Bound = unparen(Scope->boundExpr(Name, At));
        is(Bound, "dictionary") || is(Bound, "list") || is(Bound, "tuple"))
      for (auto &Q : Scope->elementClassObjects(Bound, Depth))
        Out.push_back(std::move(Q));
    const PySource &In = *Scope->M.Src;
    walk(Scope->F.body(), [&](TSNode N) {
      if (is(N, "function_definition") || is(N, "class_definition") || is(N, "lambda"))
        return false;
      if (!is(N, "assignment"))
        return true;
      TSNode L = unparen(field(N, "left"));
      if (is(L, "subscript") && In.text(unparen(field(L, "value"))) == Name &&
          is(unparen(field(L, "value")), "identifier"))
        add(*Scope, field(N, "right"));
      return true;
    });
  }
  return Out;
}

namespace {
// What a function gives back where its returns give A or B: as far as the
// known one goes when the other is not known.
Value joinReturned(const Value &A, const Value &B) {
  if (A.K == VK::Unknown)
    return B;
  if (B.K == VK::Unknown || (A.K == B.K && A.K != VK::Instance))
    return A;
  return Value::either(A, B);
}
} // namespace

Value PyTypes::returnValueAt(const std::string &Function, TSNode Call) const {
  auto Live = liveReturns(*this, Function, Call);
  if (!Live) {
    // `model = prepare(model)` handing its argument back: what this call
    // passes, not what every caller's would.
    Value Out = returnValue(Function);
    for (TSNode Arg : returnedArguments(*this, Function, Call, -1))
      Out = joinReturned(Out, valueOf(Arg));
    return Out;
  }
  // What the returns this call can reach give back; `return None` on a path
  // says nothing of what the others hold.
  // Reading the returns may ask this again (a factory calling itself):
  // past the depth liveReturns allows, the joined returns answer.
  ++Cache.Depth;
  Value Out;
  bool First = true;
  for (TSNode V : Live->Values) {
    if (ts_node_is_null(V) || is(unparen(V), "none"))
      continue;
    Value X = Live->Callee->valueOf(V);
    if (First)
      Out = X;
    else if (Out.K == VK::Instance)
      Out = Value::either(Out, X);
    else if (X.K != Out.K || X.Name != Out.Name)
      Out = {};
    First = false;
  }
  --Cache.Depth;
  return Out;
}

// A tensor where every value the project function returns is a tensor
// operation's (`return torch.mean(diff / norms)`, a loss helper) or another
// such function's result: read from its index (PyFunctionDef::ReturnsCalls),
// so callers depend on its interface, not its body.
Value PyTypes::returnedTensors(const std::string &Function, int Depth) const {
  if (auto It = Cache.ReturnedTensors.find(Function); It != Cache.ReturnedTensors.end())
    return It->second;
  const auto [Def, Home] = P.signature(Function);
  if (!Def || !Home || Def->ReturnsCalls.empty() || Depth > 3)
    return {};
  Cache.ReturnedTensors[Function] = {}; // a function returning its own call
  Value Out;
  for (const auto &Spelled : Def->ReturnsCalls) {
    std::string Q = P.qualify(*Home, Spelled);
    // `return self._loss(x)`: the class's own method (as its class has it).
    if (std::string_view Rest(Spelled); startsWith(Rest, "self.") && !Def->ClassQName.empty() &&
                                        Rest.find('.', 5) == std::string_view::npos)
      Q = P.methodOf(Def->ClassQName, std::string(Rest.substr(5)));
    Value X;
    if (P.isFunction(Q))
      X = returnedTensors(Q, Depth + 1);
    else if (auto Declared = torchReturnKind(Q); Declared && *Declared == TorchKind::Tensor)
      X = {TorchBool.count(Q) ? VK::BoolTensor : VK::Tensor, ""};
    else if (startsWith(Q, "torch.nn.functional."))
      X = {VK::Tensor, ""};
    if (!X.tensor()) {
      Out = {};
      break;
    }
    Out = Out.K == VK::Unknown || Out.K == X.K ? X : Value{VK::Tensor, ""};
  }
  return Cache.ReturnedTensors[Function] = Out;
}

Value PyTypes::returnValue(const std::string &Function) const {
  const auto [Fn, Mod] = P.signature(Function);
  if (!Fn || !Mod || Fn->IsModuleBody || Fn->IsLambda)
    return {};
  TSNode Ret = field(Fn->Node, "return_type");
  if (ts_node_is_null(Ret)) {
    Value Built = returnedInstances(Function);
    return Built.K != VK::Unknown ? Built : returnedTensors(Function);
  }
  std::string_view T = Mod->Src->text(Ret);
  if (T.find("Tensor") != std::string_view::npos)
    return {VK::Tensor, ""};
  if (T == "bool" || T == "int" || T == "float" || T == "str" || T == "None")
    return {VK::Host, ""};
  // `-> BaseModelLoader` over `return DummyModelLoader(cfg)`: the classes
  // its returns build say more than the base the annotation names.
  return returnedInstances(Function);
}

Value PyTypes::callValue(TSNode Call) const {
  const PySource &S = *M.Src;
  TSNode Fn = unparen(field(Call, "function"));
  if (is(Fn, "attribute")) {
    Value Recv = valueOf(field(Fn, "object"));
    std::string_view Method = S.text(field(Fn, "attribute"));
    if (Recv.tensor()) {
      if (HostResultMethods.count(Method))
        return {VK::Host, ""};
      // `t.type()` names the type ('torch.cuda.FloatTensor'); `t.type(dtype)`
      // casts.
      if (Method == "type")
        if (CallArgs A = argsOf(S, Call); A.Positional.empty() && A.Keywords.empty())
          return {VK::Host, ""};
      if (auto Declared = tensorMethodKind(Method); Declared && *Declared == TorchKind::Host)
        return {VK::Host, ""};
      if (BoolMethods.count(Method) || Method == "any" || Method == "all")
        return {VK::BoolTensor, ""};
      return {VK::Tensor, ""};
    }
    if (Recv.K == VK::Host)
      return Recv; // a method of a number, a string or a numpy value
    if (Recv.K == VK::Instance && Recv.Many)
      return {}; // a method of the list, not of what it holds
    if (Recv.K == VK::Instance) {
      if (std::string Q = P.methodOf(Recv.Name, std::string(Method)); !Q.empty())
        if (Value R = returnValueAt(Q, Call); R.K != VK::Unknown)
          return R;
      if (Method == "forward")
        return {VK::Tensor, ""};
      if (Value Built = Value::instanceOfAny(P.classAttrClasses(Recv.Name, std::string(Method)));
          Built.K == VK::Instance)
        return Built;
      if (moduleReturnsItself(Method))
        return Recv;
    }
    // `Net.from_pretrained(path)`, the class method a library base gives
    // Net: a Net, unless the project's own definition of it says otherwise.
    if (Recv.K == VK::Unknown && buildsCalledClass(Method)) {
      std::vector<std::string> Classes = classObjects(field(Fn, "object"));
      for (const auto &C : Classes)
        if (std::string Q = P.methodOf(C, std::string(Method)); !Q.empty())
          if (Value R = returnValue(Q); R.K != VK::Unknown)
            return R;
      if (Value V = Value::instanceOfAny(Classes); V.K == VK::Instance) {
        V.Exact = true;
        return V;
      }
      // `Pipeline.from_pretrained(path, unet=unet)` of a library's class.
      if (std::string Q = libraryClass(field(Fn, "object")); !Q.empty())
        return {VK::Instance, Q};
    }
  }
  std::string Q = resolve(Fn);
  if (!Q.empty()) {
    // DistributedDataParallel(model): called, it runs model's forward.
    if (wrapsModule(Q)) {
      CallArgs A = argsOf(S, Call);
      return A.Positional.empty() ? Value{} : valueOf(A.Positional[0]);
    }
    if (Q == "torch.cuda.Stream" || Q == "torch.cuda.current_stream" ||
        Q == "torch.cuda.default_stream" || Q == "torch.cuda.ExternalStream" ||
        Q == "torch.cuda.streams.Stream")
      return {VK::Stream, ""};
    if (Q == "torch.cuda.Event" || Q == "torch.cuda.streams.Event")
      return {VK::Event, ""};
    if (Q == "torch.Generator" || Q == "torch._C.Generator")
      return {mentionsCuda(S, Call) ? VK::CudaGenerator : VK::Generator, ""};
    if (Q == "torch.cuda.CUDAGraph" || Q == "torch.cuda.graphs.CUDAGraph")
      return {VK::Graph, ""};
    if (Q == "logging.getLogger")
      return {VK::Logger, ""};
    if (Q == "torch.nn.ModuleList" || Q == "torch.nn.modules.container.ModuleList" ||
        Q == "tuple" || Q == "list") {
      CallArgs A = argsOf(S, Call);
      if (!A.Positional.empty()) {
        Value V = valueOf(A.Positional[0]);
        if (V.Many)
          return V;
      }
      return {};
    }
    if (startsWith(Q, "torch.optim.")) {
      std::string_view Cls = std::string_view(Q).substr(Q.rfind('.') + 1);
      if (Cls.empty() || !isupper(static_cast<unsigned char>(Cls[0])) ||
          startsWith(Q, "torch.optim.lr_scheduler."))
        return {};
      CallArgs Args = argsOf(S, Call);
      TSNode Cap = Args.keyword("capturable");
      // Only a literal says it is off: `capturable=args.cudagraphs and not
      // args.compile` turns it on exactly where the step is captured.
      bool Capturable = !ts_node_is_null(Cap) && !is(unparen(Cap), "false") &&
                        !is(unparen(Cap), "none") && S.text(unparen(Cap)) != "0";
      // A param group's own 'capturable' overrides the default
      // (`Adam([{'params': a}, {'params': b, 'capturable': False}], capturable=True)`):
      // PyTorch refuses to capture step() when any group is not capturable.
      TSNode Groups = !Args.Positional.empty() ? Args.Positional[0] : Args.keyword("params");
      if (Capturable && !ts_node_is_null(Groups) && is(unparen(Groups), "list"))
        for (TSNode G : namedChildren(unparen(Groups)))
          if (is(G, "dictionary"))
            for (TSNode Pair : namedChildren(G))
              if (is(Pair, "pair") && S.text(field(Pair, "value")) == "False" &&
                  S.text(field(Pair, "key")).find("capturable") != std::string_view::npos)
                Capturable = false;
      return {CapturableOptimizers.count(Cls) && !Capturable ? VK::UncapturableOptimizer
                                                             : VK::Optimizer,
              Q};
    }
    if (HostBuiltins.count(Q))
      return {VK::Host, ""};
    for (const auto &H : HostModules)
      if (startsWith(Q, H))
        return {VK::Host, ""};
    if (P.classNamed(Q))
      return {VK::Instance, Q, false, true};
    // A function of the analysed code (PyTorch's own, when torch/ is analysed)
    // returns what its annotation says, whatever its module is named.
    if (P.isFunction(Q))
      return returnValueAt(Q, Call);
    if (auto Declared = torchReturnKind(Q)) {
      switch (*Declared) {
      case TorchKind::Tensor:
        return {TorchBool.count(Q) ? VK::BoolTensor : VK::Tensor, ""};
      case TorchKind::Host:
        return {VK::Host, ""};
      case TorchKind::Stream:
        return {VK::Stream, ""};
      case TorchKind::Event:
        return {VK::Event, ""};
      case TorchKind::Generator:
        return {mentionsCuda(S, Call) ? VK::CudaGenerator : VK::Generator, ""};
      case TorchKind::Other:
        return {};
      }
    }
    if (startsWith(Q, "torch.nn.functional."))
      return {VK::Tensor, ""};
    if (startsWith(Q, "torch.nn.")) {
      std::string_view Last = std::string_view(Q).substr(Q.rfind('.') + 1);
      if (!Last.empty() && isupper(static_cast<unsigned char>(Last[0])))
        return {VK::Instance, Q};
      return {};
    }
    if (startsWith(Q, "torch.")) {
      for (auto Prefix : TorchNonTensor)
        if (startsWith(Q, Prefix))
          return {};
      // Functions on torch itself (`torch.nonzero`, `torch._foreach_add`)
      // and in its operator namespaces are tensor operations; other
      // submodules' helpers (`torch.onnx.is_in_onnx_export`,
      // `torch._utils._get_available_device_type`, a vendor backend's
      // `torch.npu.current_device`) are not, unless the table says so.
      if (std::string_view Rest = std::string_view(Q).substr(6);
          Rest.find('.') != std::string_view::npos &&
          !TensorSubmodules.count(Rest.substr(0, Rest.find('.'))))
        return {};
      if (TorchBool.count(Q))
        return {VK::BoolTensor, ""};
      return {VK::Tensor, ""};
    }
  }
  // `model = model_class(config)`: an instance of the classes callers pass.
  // (or of those a local may hold: a `partial` of one, a factory's result,
  // on every path that reaches the call; a registry's entry,
  // `MODELS[name](cfg)`, `MODELS.get(name, Default)(cfg)`).
  if (is(Fn, "identifier") || is(Fn, "subscript") || is(Fn, "call")) {
    std::vector<std::string> Classes = classObjects(Fn);
    std::sort(Classes.begin(), Classes.end());
    Classes.erase(std::unique(Classes.begin(), Classes.end()), Classes.end());
    if (Value V = Value::instanceOfAny(Classes); V.K == VK::Instance)
      return V;
  }
  // Calling a module instance runs its forward.
  Value Callee = valueOf(Fn);
  if (Callee.K == VK::Instance && (P.classNamed(Callee.Name) || startsWith(Callee.Name, "torch.")))
    return {VK::Tensor, ""};
  // `Cls(...)` of a class another library defines: an instance, whose
  // methods are that library's.
  if (std::string Q = libraryClass(Fn); !Q.empty())
    return {VK::Instance, Q};
  return {};
}

std::string PyTypes::libraryClass(TSNode E) const {
  std::string Q = resolve(E);
  auto Dot = Q.rfind('.');
  if (Dot == std::string::npos || startsWith(Q, "torch.") || P.classNamed(Q) || P.isFunction(Q))
    return {};
  // A project module's own global (a TypeVar, an alias of a union), and the
  // names of typing and the standard library's abstract types (`Any`,
  // `Callable`, `Sequence`), which say nothing of the object's class.
  static const std::set<std::string, std::less<>> Abstract = {
      "typing", "typing_extensions", "collections.abc", "types", "numbers", "abc", "builtins"};
  std::string_view Module = std::string_view(Q).substr(0, Dot);
  if (P.moduleNamed(std::string(Module)) || Abstract.count(Module))
    return {};
  TSNode Head = unparen(E);
  while (is(Head, "attribute"))
    Head = unparen(field(Head, "object"));
  // Named in CapWords, as classes are, through an import.
  std::string_view Last = std::string_view(Q).substr(Dot + 1);
  if (is(Head, "identifier") && M.Imports.count(std::string(M.Src->text(Head))) && !Last.empty() &&
      isupper(static_cast<unsigned char>(Last[0])))
    return Q;
  return {};
}

Value PyTypes::valueOf(TSNode E) const {
  E = unparen(E);
  if (ts_node_is_null(E))
    return {};
  // Every check asks about the same receivers and arguments again; once the
  // bindings are complete an answer never changes.
  if (!Complete)
    return computeValue(E);
  if (auto It = Memo.find(E.id); It != Memo.end())
    return It->second;
  Value V = computeValue(E);
  Memo.emplace(E.id, V);
  return V;
}

Value PyTypes::computeValue(TSNode E) const {
  const PySource &S = *M.Src;
  auto K = kind(E);
  if (isLiteral(E))
    return {VK::Host, ""};
  if (K == "identifier")
    return nameAt(S.text(E), beginOf(E));
  if (K == "call" || K == "attribute")
    if (auto Module = moduleValue(E))
      return {VK::Module, *Module};
  if (K == "attribute") {
    TSNode Obj = field(E, "object");
    std::string Attr(S.text(field(E, "attribute")));
    if (isSelf(Obj))
      return selfAttr(F.ClassQName, Attr);
    if (HostAttrs.count(Attr))
      return {VK::Host, ""};
    if (TensorAttrs.count(Attr)) {
      Value O = valueOf(Obj);
      if (O.tensor() || Attr == "grad")
        return {VK::Tensor, ""};
    }
    Value O = valueOf(Obj);
    if (O.K == VK::Instance)
      return selfAttr(O.Name, Attr);
    return {};
  }
  if (K == "call")
    return callValue(E);
  if (K == "list" || K == "tuple" || K == "list_comprehension" || K == "generator_expression") {
    // What its first element is, for the elements; a container of
    // containers of instances is taken for one of instances (`(modules,)`
    // where modules may already be a tuple).
    const bool Literal = K == "list" || K == "tuple";
    TSNode First = Literal ? ts_node_named_child(E, 0) : field(E, "body");
    Value V = ts_node_is_null(First) ? Value{} : valueOf(First);
    if (V.K != VK::Instance)
      return {};
    // `[Block(...) for _ in range(n)]` holds Blocks made here, not a
    // subclass: exact where the one expression making every element is. A
    // literal holds each element's classes (`[Embed(), Linear()]`), exact
    // where every element is.
    if (Literal)
      for (TSNode El : namedChildren(E)) {
        Value EV = valueOf(El);
        if (EV.K != VK::Instance || EV.Many != V.Many) {
          V.Exact = false;
          continue;
        }
        V = Value::either(V, EV);
      }
    V.Many = true;
    return V;
  }
  if (K == "subscript") {
    TSNode Obj = unparen(field(E, "value"));
    if (is(Obj, "attribute") && S.text(field(Obj, "attribute")) == "shape")
      return {VK::Host, ""};
    Value O = valueOf(Obj);
    if (O.tensor())
      return O;
    if (O.Many)
      return {O.K, O.Name, false, O.Exact, O.Also};
    return {};
  }
  if (K == "binary_operator") {
    Value L = valueOf(field(E, "left")), R = valueOf(field(E, "right"));
    // `[first] + [tied] * (n - 1)`: lists joined hold either's elements; a
    // list repeated holds its own.
    if (L.K == VK::Instance && L.Many && R.K == VK::Instance && R.Many)
      return Value::either(L, R);
    if (TSNode Op = field(E, "operator"); S.text(Op) == "*") {
      if (L.K == VK::Instance && L.Many && R.K != VK::Instance)
        return L;
      if (R.K == VK::Instance && R.Many && L.K != VK::Instance)
        return R;
    }
    if (L.K == VK::BoolTensor && R.K == VK::BoolTensor)
      return {VK::BoolTensor, ""};
    if (L.tensor() || R.tensor())
      return {VK::Tensor, ""};
    if (L.K == VK::Host && R.K == VK::Host)
      return {VK::Host, ""};
    return {};
  }
  if (K == "comparison_operator") {
    // `x is None`, `k in d`: Python's own tests.
    for (uint32_t I = 0; I < ts_node_child_count(E); ++I) {
      auto Op = kind(ts_node_child(E, I));
      if (Op == "is" || Op == "in" || Op == "not" || Op == "is not" || Op == "not in")
        return {VK::Host, ""};
    }
    // `scale == None`: a tensor's `==` does not take None, and Python falls
    // back to identity, a bool on the host (`assert w1_scale == None`).
    if (ts_node_child_count(E) == 3 &&
        (is(unparen(ts_node_child(E, 0)), "none") || is(unparen(ts_node_child(E, 2)), "none")))
      return {VK::Host, ""};
    bool AnyTensor = false, AllHost = true;
    for (TSNode C : namedChildren(E)) {
      Value V = valueOf(C);
      AnyTensor |= V.tensor();
      AllHost &= V.K == VK::Host;
    }
    return AnyTensor ? Value{VK::BoolTensor, ""} : AllHost ? Value{VK::Host, ""} : Value{};
  }
  if (K == "unary_operator")
    return valueOf(field(E, "argument"));
  if (K == "not_operator")
    return {VK::Host, ""};
  if (K == "boolean_operator" && S.text(field(E, "operator")) == "or") {
    // `writer or RoundRobinWriter()`: the object given, else the default; a
    // left side nothing is known of says nothing against the default's
    // class (as None in a conditional expression).
    Value L = valueOf(field(E, "left")), R = valueOf(field(E, "right"));
    if (R.K == VK::Instance && L.K == VK::Instance)
      return Value::either(L, R);
    if (R.K == VK::Instance && L.K == VK::Unknown)
      return R;
    return {};
  }
  if (K == "conditional_expression") {
    auto Cs = namedChildren(E);
    if (Cs.size() == 3) {
      // `None if disabled else Runner()`: None says nothing of what the
      // name holds when it is used (callers test it first), as in assignments.
      if (is(unparen(Cs[0]), "none"))
        return valueOf(Cs[2]);
      if (is(unparen(Cs[2]), "none"))
        return valueOf(Cs[0]);
      Value A = valueOf(Cs[0]), B = valueOf(Cs[2]);
      if (A.K == B.K)
        return A;
    }
    return {};
  }
  if (K == "named_expression")
    return valueOf(field(E, "value"));
  return {};
}

} // namespace graphsafe::lint::py
