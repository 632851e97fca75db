#include "PyCallGraph.h"

#include "PyObjectFacts.h"
#include "TorchApi.h"
#include "resolve/ArgumentForwarding.h"
#include "resolve/AttributeOrder.h"
#include "resolve/ContainerArguments.h"
#include "resolve/Containers.h"
#include "resolve/LibrarySemantics.h"
#include "resolve/ReturnsByCall.h"

#include <algorithm>
#include <unordered_map>

namespace graphsafe::lint::py {

std::string usr(const std::string &QualName) { return "py:" + QualName; }

std::string paramKey(const std::string &Function, unsigned Index) {
  return "py:param:" + Function + "#" + std::to_string(Index);
}

std::string attrKey(const std::string &Class, const std::string &Attr) {
  return "py:attr:" + Class + "." + Attr;
}

std::string attrSubclassKey(const std::string &Class, const std::string &Attr) {
  return "py:attr:" + Class + ":sub." + Attr;
}

std::string yieldKey(const std::string &Function) { return "py:yield:" + Function; }

std::string returnKey(const std::string &Function) { return pyReturnKey(usr(Function)); }

std::string returnElementKey(const std::string &Function, unsigned Element) {
  return returnKey(Function) + "#" + std::to_string(Element);
}

std::string decoratedKey(const std::string &Function) { return "py:dec:" + Function; }

std::string classKey(const std::string &Class) { return "py:cls:" + Class; }

std::string shiftedKey() { return "py:shifted"; }

bool decoratedBy(const PyProgram &P, const PyModuleInfo &M, const PyFunctionDef &F,
                 bool (*Named)(const std::string &)) {
  for (std::string D : F.Decorators) {
    if (size_t Paren = D.find('('); Paren != std::string::npos)
      D.resize(Paren);
    if (Named(P.qualify(M, D)) || Named(D))
      return true;
  }
  return false;
}

bool isProjectFunctionKey(const PyProgram &P, const std::string &K) {
  return K.rfind("py:", 0) == 0 && P.isFunction(K.substr(3));
}

namespace {

// Code outside the analysed files: known, not followed, not unknown.
std::string external(const std::string &Q) { return "ext:" + Q; }

// What calling an instance of Class runs: nn.Module's forward, or __call__.
void addInstanceCall(const PyProgram &P, const Value &V, std::vector<std::string> &Out) {
  for (const auto &C : V.classes()) {
    size_t Before = Out.size();
    for (const char *M : {"forward", "__call__"})
      for (const auto &Q : P.dispatch(C, M, V.Exact))
        Out.push_back(usr(Q));
    // An instance of a library's class (`nn.Linear`) no analysed class
    // derives from: calling it runs that library's code.
    if (Out.size() == Before && !P.classNamed(C) && C.find('.') != std::string::npos)
      Out.push_back(external(C));
  }
}

// A function some kernel language's decorator makes GPU code
// (LibrarySemantics.h, makesDeviceKernel).
bool isDeviceKernel(const PyProgram &P, const std::string &Function) {
  const auto [F, M] = P.signature(Function);
  return F && M && decoratedBy(P, *M, *F, makesDeviceKernel);
}

// Calling a kernel launches (or compiles) it: code outside the host's
// reach, known and not followed.
void launchKernels(const PyProgram &P, std::vector<std::string> &Keys) {
  for (auto &K : Keys)
    if (isProjectFunctionKey(P, K) && isDeviceKernel(P, K.substr(3)))
      K = external(K.substr(3));
}

// Storage whose callables are known only once every file's stores are
// joined: parameters, attributes, items, returns, decorated names.
bool isStorageKey(const std::string &K) {
  for (const char *Prefix :
       {"py:param:", "py:attr:", "py:item:", "py:ret:", "py:retof:", "py:dec:", "py:yield:"})
    if (K.rfind(Prefix, 0) == 0)
      return true;
  return false;
}

// What calling the callables held in storage K returns.
std::string resultKey(const std::string &K) { return "py:retof:" + K; }

// What calls through storage K pass at position Index.
std::string argumentKey(const std::string &K, unsigned Index) {
  return "py:argof:" + K + "#" + std::to_string(Index);
}

// `self.x` or `obj.x` for obj of project classes: the classes obj may be
// (one, or several chosen at run time), else none.
std::vector<std::string> receiverClasses(const PyTypes &T, TSNode Obj, bool *Exact = nullptr) {
  if (T.isSelf(Obj))
    return {T.selfClass()};
  Value V = T.valueOf(Obj);
  if (V.K != VK::Instance || V.Many)
    return {};
  std::vector<std::string> Out;
  for (auto &C : V.classes())
    if (T.P.classNamed(C))
      Out.push_back(std::move(C));
  if (Exact)
    *Exact = V.Exact && V.Also.empty();
  return Out;
}

// A callable kept in attribute Attr of an instance of Class. A store is kept
// under the receiver's class and, as a subclass's, under each of its
// ancestors, so looking under Class, its ancestors and Class's subclass
// stores finds what Class, its bases and its subclasses assign, and not
// what a sibling class assigns.
// Read at Use: before its function's own later store, without that store.
// Nor does it see what a base's method stores when that method never runs on
// Class's instances (overridden without a super() call on to it).
void addAttrTargets(const PyTypes &T, const std::string &Class, const std::string &Attr, TSNode Use,
                    std::vector<std::string> &Out) {
  // The function's own stores that take effect after the read.
  std::vector<std::string> Later;
  if (const auto *Stores = storesAfterRead(T, Attr))
    for (unsigned I = 0; I < Stores->size(); ++I)
      if (beginOf(Use) < (*Stores)[I])
        Later.push_back(ownStoreName(T, I));
  // Read on self in a method: a subclass's method that overrides this one
  // without calling on to it runs on other instances than this one does.
  std::vector<std::string> Apart;
  if (T.isSelf(field(Use, "object")) && !T.F.ClassQName.empty())
    for (const auto &D : T.P.descendants(T.F.ClassQName))
      if (const PyClassDef *Def = T.P.classNamed(D))
        for (const auto &[Method, Attrs] : Def->StoresBy)
          if (Method == T.F.Name && Attrs.count(Attr) && !T.P.runsOn(D, T.F.ClassQName, T.F.Name))
            Apart.push_back(D + "." + Method);
  for (const auto &C : T.P.ancestors(Class)) {
    std::vector<std::string> Unseen = Apart;
    Unseen.insert(Unseen.end(), Later.begin(), Later.end());
    if (const PyClassDef *Def = C != Class ? T.P.classNamed(C) : nullptr)
      for (const auto &[Method, Attrs] : Def->StoresBy)
        if (Attrs.count(Attr) && !T.P.runsOn(Class, C, Method))
          Unseen.push_back(C + "." + Method);
    Out.push_back(Unseen.empty() ? attrKey(C, Attr) : beforeOwnStoreKey(attrKey(C, Attr), Unseen));
  }
  std::vector<std::string> Unseen = Apart;
  Unseen.insert(Unseen.end(), Later.begin(), Later.end());
  const std::string Sub = attrSubclassKey(Class, Attr);
  Out.push_back(Unseen.empty() ? Sub : beforeOwnStoreKey(Sub, Unseen));
}

// Whether another class's method of this name may run instead of F on some
// instances (a subclass overrides it, or it overrides a base's): F's stores
// are kept apart then, so readers of the other instances can leave them out.
bool overridesOrOverridden(const PyTypes &T) {
  if (T.F.ClassQName.empty())
    return false;
  auto defines = [&](const std::string &Q) {
    const PyClassDef *C = Q != T.F.ClassQName ? T.P.classNamed(Q) : nullptr;
    return C && C->Methods.count(T.F.Name) > 0;
  };
  auto Above = T.P.ancestors(T.F.ClassQName), Below = T.P.descendants(T.F.ClassQName);
  return std::any_of(Above.begin(), Above.end(), defines) ||
         std::any_of(Below.begin(), Below.end(), defines);
}

// `with cm(...) as f`: f is what the generator cm yields.
void enteredTargets(const PyTypes &T, TSNode Cm, std::vector<std::string> &Out) {
  Cm = unparen(Cm);
  if (!is(Cm, "call"))
    return;
  for (const auto &K : calleesOf(T, Cm).Keys)
    if (K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)) && isContextManager(T.P, K.substr(3)))
      Out.push_back(yieldKey(K.substr(3)));
}

// T's remembered answers of one kind (held in Slot), or null where an answer
// may not be kept: while T's bindings are still being collected, or inside
// another question, whose depth limits may cut the answer short.
template <typename Answer>
std::unordered_map<const void *, Answer> *topMemo(const PyTypes &T, std::shared_ptr<void> &Slot) {
  using Memo = std::unordered_map<const void *, Answer>;
  if (!T.complete() || T.cache().Depth != 0)
    return nullptr;
  if (!Slot)
    Slot = std::make_shared<Memo>();
  return static_cast<Memo *>(Slot.get());
}

void valueTargetsAt(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out);
std::pair<TSNode, TSNode> computedLookup(const PySource &S, TSNode Value);
std::pair<std::string, std::string> namePattern(const PySource &S, TSNode Name);
std::vector<std::string> lookedUpMethods(const PyProgram &P,
                                         const std::vector<std::string> &Classes,
                                         const std::pair<std::string, std::string> &Pattern);

void subscriptTargets(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out) {
  TSNode Of = unparen(field(E, "value")), Index = field(E, "subscript");
  if (is(Index, "slice"))
    return; // a slice is a list, not a callable
  std::string Key = constantKey(T, Index);
  if (auto Elements = sequenceElements(T, Of)) {
    // An index that is no literal (or out of the literal's range) may pick
    // any element.
    long Size = static_cast<long>(Elements->size()), At = -1;
    if (!Key.empty() && Key[0] != '\'') {
      At = std::stol(Key);
      At = At < 0 ? At + Size : At;
    }
    bool Overwritten = At >= 0 && overwrittenBefore(T, Of, Key, E);
    for (long I = 0; I < Size; ++I)
      if ((At < 0 || At >= Size || I == At) && !Overwritten)
        valueTargetsAt(*(*Elements)[I].Scope, (*Elements)[I].Node, Depth + 1, Out);
  } else if (auto Entries = dictEntries(T, Of)) {
    bool Overwritten = overwrittenBefore(T, Of, Key, E);
    for (const auto &[K, El] : *Entries)
      if (Key.empty() || K.empty() || (K == Key && !Overwritten))
        valueTargetsAt(*El.Scope, El.Node, Depth + 1, Out);
  }
  for (auto &K : itemLoadKeys(T, Of, Key))
    Out.push_back(std::move(K));
  // An element of a list of instances (a parameter callers fill so).
  if (Value V = T.valueOf(E); V.K == VK::Instance && !V.Many)
    addInstanceCall(T.P, V, Out);
}

// The values iterating E yields: a literal's elements, a container's stored
// items, a generator's yields.
void iterationTargets(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out) {
  E = unparen(E);
  if (auto Elements = sequenceElements(T, E)) {
    for (const auto &El : *Elements)
      valueTargetsAt(*El.Scope, El.Node, Depth + 1, Out);
    return;
  }
  for (auto &K : itemSources(T, E))
    Out.push_back(std::move(K));
  for (const auto &Next : iterationCalls(T, E))
    if (Next.size() > 8 && Next.compare(Next.size() - 8, 8, "__next__") == 0)
      Out.push_back(returnKey(Next.substr(3)));
  if (is(E, "call"))
    for (const auto &K : calleesOf(T, E).Keys)
      if (K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)))
        Out.push_back(yieldKey(K.substr(3)));
}

// What the name Name, bound in T as of Offset, holds when called.
void boundTargets(const PyTypes &T, std::string_view Name, unsigned Offset, int Depth,
                  std::vector<std::string> &Out) {
  // `if ddp: model = DDP(model)` (no else), used after the if: what model
  // held before may reach the use too.
  for (unsigned At : T.alsoReaching(Name, Offset))
    if (Depth < 4)
      boundTargets(T, Name, At, Depth + 1, Out);
  if (auto [Call, Element] = T.boundElement(Name, Offset); Element >= 0) {
    // `model, opt = prepare(args)`: element Element of what prepare returns.
    for (const auto &K : calleesOf(T, Call).Keys)
      if (isProjectFunctionKey(T.P, K)) {
        Out.push_back(returnElementKey(K.substr(3), static_cast<unsigned>(Element)));
        // A parameter handed back there is what this call passes.
        if (Depth < 4)
          for (TSNode Arg : returnedArguments(T, K.substr(3), Call, Element))
            valueTargetsAt(T, Arg, Depth + 1, Out);
      }
  } else if (int Index = T.parameterAt(Name, Offset); Index >= 0) {
    Out.push_back(paramKey(T.F.QualName, Index));
  } else if (TSNode Bound = T.boundExpr(Name, Offset); !ts_node_is_null(Bound)) {
    // A starred target holds a list: calling it calls nothing.
    if (T.boundSlice(Name, Offset).second < 0)
      valueTargetsAt(T, Bound, Depth + 1, Out);
  } else if (TSNode Cm = T.enteredExpr(Name, Offset); !ts_node_is_null(Cm)) {
    enteredTargets(T, Cm, Out);
  } else if (TSNode Seq = T.iteratedExpr(Name, Offset); !ts_node_is_null(Seq)) {
    iterationTargets(T, Seq, Depth, Out);
  }
}

void valueTargetsAt(const PyTypes &T, TSNode E, int Depth, std::vector<std::string> &Out) {
  E = unparen(E);
  if (ts_node_is_null(E) || Depth > 4)
    return;
  const PySource &S = *T.M.Src;
  if (is(E, "lambda")) {
    Out.push_back(usr(lambdaName(T.M.Module, S, E)));
    return;
  }
  // `(layer.forward, layer.tp_forward)[mode]`, `handlers[0]`, `table[k]`:
  // the element a literal index picks, else any; and what was stored since.
  if (is(E, "subscript")) {
    subscriptTargets(T, E, Depth, Out);
    return;
  }
  if (is(E, "conditional_expression")) {
    auto Cs = namedChildren(E);
    if (Cs.size() == 3) {
      valueTargetsAt(T, Cs[0], Depth + 1, Out);
      valueTargetsAt(T, Cs[2], Depth + 1, Out);
    }
    return;
  }
  if (is(E, "boolean_operator")) {
    valueTargetsAt(T, field(E, "left"), Depth + 1, Out);
    valueTargetsAt(T, field(E, "right"), Depth + 1, Out);
    return;
  }
  if (is(E, "call")) {
    std::string Q = T.resolve(field(E, "function"));
    if (callsFirstArgument(Q)) {
      CallArgs A = argsOf(S, E);
      if (!A.Positional.empty())
        valueTargetsAt(T, A.Positional[0], Depth + 1, Out);
      return;
    }
    TSNode Fn = unparen(field(E, "function"));
    if (Value V = T.valueOf(E); V.K == VK::Instance && !V.Many) {
      if (T.P.classNamed(V.Name))
        addInstanceCall(T.P, V, Out);
      else
        Out.push_back(external(V.Name)); // torch.nn.Linear(...)
    } else if (is(Fn, "attribute") && Q.empty() &&
               moduleReturnsItself(S.text(field(Fn, "attribute")))) {
      // `model.eval()`, `model.to(device)` on a module known only by what
      // the program stores (a loader's result): the same module.
      valueTargetsAt(T, field(Fn, "object"), Depth + 1, Out);
    } else if (auto [Obj, Name] = computedLookup(S, E); !ts_node_is_null(Name)) {
      // `forward = getattr(submodule, config.method_name)`: the methods whose
      // names fit what the name is known to look like, where they are few;
      // else nothing known, and a call through it is said not followed.
      auto Ms = lookedUpMethods(T.P, receiverClasses(T, Obj), namePattern(S, Name));
      if (Ms.size() <= MaxLookedUp)
        Out.insert(Out.end(), Ms.begin(), Ms.end());
    } else if (!Q.empty() && !T.P.isFunction(Q) && !T.P.classNamed(Q)) {
      Out.push_back(external(Q + "()"));
    } else {
      // What the functions the call runs return; a parameter handed back
      // is what this call passes there.
      for (const auto &K : calleesOf(T, E).Keys)
        if (isProjectFunctionKey(T.P, K)) {
          // Only the returns this call's literal arguments let run, where
          // they rule some out; else every call's returns, joined.
          if (auto Live = liveReturns(T, K.substr(3), E)) {
            ++T.cache().Depth;
            for (TSNode V : Live->Values)
              if (!ts_node_is_null(V) && !fromParameter(*Live->Callee, V))
                valueTargetsAt(*Live->Callee, V, Depth + 1, Out);
            --T.cache().Depth;
          } else {
            Out.push_back(returnKey(K.substr(3)));
          }
          for (TSNode Arg : returnedArguments(T, K.substr(3), E, -1))
            valueTargetsAt(T, Arg, Depth + 1, Out);
        } else if (isStorageKey(K)) {
          Out.push_back(resultKey(K));
        }
    }
    return;
  }
  if (is(E, "identifier")) {
    // A closure's free variable: what the enclosing function binds it to.
    if (const PyTypes *Outer = T.closureScope(S.text(E))) {
      valueTargetsAt(*Outer, E, Depth + 1, Out);
      return;
    }
    std::string Q = T.resolve(E);
    if (!Q.empty() && T.P.isFunction(Q)) {
      Out.push_back(wrappedByProject(T, Q) ? decoratedKey(Q) : usr(Q));
      return;
    }
    if (!Q.empty() && T.P.classNamed(Q)) {
      if (std::string Init = T.P.methodOf(Q, "__init__"); !Init.empty())
        Out.push_back(usr(Init));
      return;
    }
    std::string_view Name = S.text(E);
    unsigned At = 0;
    if (const PyTypes *Module = bindingScope(T, Name, beginOf(E), At);
        Module && Module != &T && !Q.empty()) {
      // A global of this module: what its top level binds it to.
      boundTargets(*Module, Name, At, Depth, Out);
      return;
    }
    if (!Q.empty() && T.parameterAt(Name, beginOf(E)) < 0) {
      Out.push_back(external(Q)); // an import, a builtin, a global of another module
      return;
    }
    boundTargets(T, Name, beginOf(E), Depth, Out);
    if (Value V = T.valueOf(E); V.K == VK::Instance && !V.Many)
      addInstanceCall(T.P, V, Out);
    return;
  }
  if (is(E, "attribute")) {
    std::string Attr(S.text(field(E, "attribute")));
    if (auto Classes = receiverClasses(T, field(E, "object")); !Classes.empty()) {
      // A bound method, or a callable held in the attribute.
      bool Held = false;
      for (const auto &Class : Classes) {
        auto Ms = T.P.dispatch(Class, Attr, false);
        for (const auto &M : Ms)
          Out.push_back(usr(M));
        if (Ms.empty()) {
          addAttrTargets(T, Class, Attr, E, Out);
          Held = true;
        }
      }
      if (Value V = T.valueOf(E); Held && V.K == VK::Instance && !V.Many)
        addInstanceCall(T.P, V, Out);
      return;
    }
    std::string Q = T.resolve(E);
    if (!Q.empty() && T.P.isFunction(Q)) {
      Out.push_back(wrappedByProject(T, Q) ? decoratedKey(Q) : usr(Q));
    } else if (!Q.empty() && T.P.classNamed(Q)) {
      if (std::string Init = T.P.methodOf(Q, "__init__"); !Init.empty())
        Out.push_back(usr(Init));
    } else if (Value V = T.valueOf(E); V.K == VK::Instance && !V.Many) {
      addInstanceCall(T.P, V, Out);
    } else if (!Q.empty()) {
      Out.push_back(external(Q)); // torch.nn.functional.relu
    } else if (Value O = T.valueOf(field(E, "object"));
               O.K == VK::Instance && !O.Many && !T.P.classNamed(O.Name)) {
      Out.push_back(external(O.Name + "." + Attr)); // a library object's method
      Out.push_back(attrKey(O.Name, Attr));         // or what its constructor kept
    }
  }
}

// The library class whose object Call builds (`Pipeline(...)`,
// `Pipeline.from_pretrained(...)`); empty for other calls.
std::string libraryConstructed(const PyTypes &T, TSNode Call) {
  TSNode Fn = unparen(field(Call, "function"));
  if (std::string Q = T.libraryClass(Fn); !Q.empty())
    return Q;
  if (is(Fn, "attribute") && buildsCalledClass(T.M.Src->text(field(Fn, "attribute"))))
    return T.libraryClass(field(Fn, "object"));
  return {};
}

// Whether calling E goes through a value the program fills at run time (a
// parameter, a local, an attribute it assigns) rather than a name it defines
// or a library's function.
bool throughValue(const PyTypes &T, TSNode E) {
  E = unparen(E);
  const PySource &S = *T.M.Src;
  if (is(E, "identifier")) {
    std::string_view Name = S.text(E);
    if (const PyTypes *Outer = T.closureScope(Name))
      return throughValue(*Outer, E);
    if (T.parameterAt(Name, beginOf(E)) >= 0)
      return true;
    std::string Q = T.resolve(E);
    return Q.empty() && (!ts_node_is_null(T.boundExpr(Name, beginOf(E))) ||
                         !ts_node_is_null(T.enteredExpr(Name, beginOf(E))) ||
                         !ts_node_is_null(T.iteratedExpr(Name, beginOf(E))) ||
                         T.boundElement(Name, beginOf(E)).second >= 0);
  }
  if (is(E, "attribute")) {
    std::string Attr(S.text(field(E, "attribute")));
    for (const auto &Class : receiverClasses(T, field(E, "object")))
      if (T.P.methodOf(Class, Attr).empty() && T.P.attrAssigned(Class, Attr))
        return true;
    return false;
  }
  // An element of such a value (`self.model_parts[0](x)`, `layers[i](h)`).
  if (is(E, "subscript"))
    return throughValue(T, field(E, "value"));
  return false;
}

void dedupe(std::vector<std::string> &Keys) {
  std::vector<std::string> Out;
  for (auto &K : Keys)
    if (std::find(Out.begin(), Out.end(), K) == Out.end())
      Out.push_back(std::move(K));
  Keys = std::move(Out);
}

} // namespace

std::vector<std::string> valueTargets(const PyTypes &T, TSNode Expr) {
  // What a call returns is asked of the call's own callee (calleesOf), which
  // may be a name bound to that very call (`x = x()` in a loop): nesting,
  // not the depth within one question, bounds it.
  static thread_local int Nesting = 0;
  if (Nesting > 8)
    return {};
  // The stores, the summary and the checks ask this of the same arguments
  // (a fifth of the questions on PyTorch's tree are repeats).
  auto *Known = Nesting == 0 ? topMemo<std::vector<std::string>>(T, T.TargetMemo) : nullptr;
  if (Known)
    if (auto It = Known->find(Expr.id); It != Known->end())
      return It->second;
  ++Nesting;
  std::vector<std::string> Out;
  valueTargetsAt(T, Expr, 0, Out);
  --Nesting;
  launchKernels(T.P, Out);
  dedupe(Out);
  if (Known)
    Known->emplace(Expr.id, Out);
  return Out;
}

namespace {

std::vector<TSNode> decoratorsOf(TSNode Decorated) {
  std::vector<TSNode> Out;
  for (TSNode D : namedChildren(Decorated))
    if (is(D, "decorator"))
      Out.push_back(ts_node_named_child(D, 0));
  return Out;
}

} // namespace

namespace {

// What the decorators of a definition do, innermost first, read from the
// module's index (PyFunctionDef::Decorators), so that a caller of the
// decorated function depends on its interface alone: each plain project
// decorator (PyFunctionDef::PlainDecorator: its wrapper stands for the one
// function it decorates, and is followed with that function bound to its
// parameter at each call) with what its parameter receives, and what the
// name holds after them all. Other decorators (a class's __call__ handing
// the function on through other calls, a factory's result) are taken to
// call what they wrap: following them would join every function they
// decorate.
struct DecoratorChain {
  std::vector<std::pair<std::string, std::string>> Steps; // (decorator, what it receives)
  std::vector<std::string> Holds;
};

DecoratorChain decoratorChain(const PyProgram &P, const std::string &Function) {
  DecoratorChain C;
  C.Holds = {usr(Function)};
  const auto [F, M] = P.signature(Function);
  if (!F || !M)
    return C;
  for (auto It = F->Decorators.rbegin(); It != F->Decorators.rend(); ++It) {
    std::string D = P.qualify(*M, *It);
    const PyFunctionDef *Dec = P.isFunction(D) ? P.signature(D).first : nullptr;
    if (!Dec || !Dec->PlainDecorator)
      continue;
    for (const auto &H : C.Holds)
      C.Steps.push_back({D, H});
    std::vector<std::string> Next = {returnKey(D)};
    // `def register(f): ...; return f`: the name still holds f.
    if (std::find(Dec->ReturnsParams.begin(), Dec->ReturnsParams.end(), 0u) !=
        Dec->ReturnsParams.end())
      Next.insert(Next.end(), C.Holds.begin(), C.Holds.end());
    C.Holds = std::move(Next);
  }
  return C;
}

} // namespace

bool wrappedByProject(const PyTypes &T, const std::string &Function) {
  return !decoratorChain(T.P, Function).Steps.empty();
}

std::vector<std::pair<std::string, std::string>> decoratorBinds(const PyTypes &T,
                                                                const std::string &Function) {
  std::vector<std::pair<std::string, std::string>> Out;
  for (const auto &[D, Receives] : decoratorChain(T.P, Function).Steps)
    Out.push_back({paramKey(D, 0), Receives});
  return Out;
}

namespace {

// The stores Out holds from First on, made by Call to the method Callee on
// its receiver (or on Object, a decorator's), again with what the caller
// knows of the receiver's attributes (ReceiverStore): an object built with
// its capture turned off is handed callables no capture of its own runs.
void receiverStores(const PyTypes &T, const std::string &Callee, TSNode Call, size_t First,
                    std::vector<std::pair<std::string, std::string>> &Out,
                    TSNode Object = TSNode{}) {
  const PyFunctionDef *F = T.P.functionIndex(Callee);
  if (First == Out.size() || !F || !F->takesSelf() || F->IsLambda)
    return;
  ReceiverFacts R;
  R.Receiver =
      ts_node_is_null(Object) ? receiverAttributes(T, Callee, Call) : knownAttributes(T, Object);
  if (R.Receiver.empty())
    return;
  for (size_t I = First, End = Out.size(); I < End; ++I) {
    if (Out[I].first == shiftedKey())
      continue;
    R.Storage = Out[I].first;
    R.Callable = Out[I].second;
    Out.push_back({std::string(ReceiverStore), receiverStoreText(R)});
  }
}

} // namespace

std::vector<std::string> decoratorCalls(const PyTypes &T, TSNode Decorated,
                                        std::vector<std::pair<std::string, std::string>> &Stores) {
  TSNode Def = field(Decorated, "definition");
  if (!is(Def, "function_definition"))
    return {};
  std::string Function =
      scopeName(T.M.Module, *T.M.Src, Def) + "." + std::string(T.M.Src->text(field(Def, "name")));
  if (!T.P.isFunction(Function))
    return {};
  // Every decorator runs here, on the function: a project function, or a
  // factory's result (`@factory(x)`).
  std::vector<std::string> Called;
  const std::vector<TSNode> Decorators = decoratorsOf(Decorated);
  for (size_t I = 0; I < Decorators.size(); ++I)
    for (const auto &K : valueTargets(T, Decorators[I])) {
      bool Project = isProjectFunctionKey(T.P, K);
      if (!Project && K.rfind("py:ret:", 0) != 0)
        continue;
      Called.push_back(K);
      // What the innermost decorator runs receives the function itself: a
      // class instance's `__call__(self, fn)` (`@StaticCapture(model=m)`),
      // which may keep it (`self.function = fn`) for a capture that calls
      // it later. The outer ones receive what the one below returned.
      if (I + 1 == Decorators.size()) {
        size_t First = Stores.size();
        Stores.push_back({Project ? paramKey(K.substr(3), 0) : argumentKey(K, 0), usr(Function)});
        if (Project)
          receiverStores(T, K.substr(3), Decorators[I], First, Stores, Decorators[I]);
      }
    }
  DecoratorChain C = decoratorChain(T.P, Function);
  for (const auto &[D, Receives] : C.Steps)
    Stores.push_back({paramKey(D, 0), Receives});
  if (!C.Steps.empty())
    for (const auto &H : C.Holds)
      Stores.push_back({decoratedKey(Function), H});
  return Called;
}

std::vector<std::string> iterationCalls(const PyTypes &T, TSNode E, std::string *Receiver) {
  std::vector<std::string> Out;
  Value V = T.valueOf(E);
  if (V.K != VK::Instance || V.Many)
    return Out;
  if (Receiver && V.Also.empty() && T.P.classNamed(V.Name))
    *Receiver = (V.Exact ? "=" : "") + classKey(V.Name);
  for (const auto &C : V.classes())
    if (T.P.classNamed(C))
      for (const char *M : {"__iter__", "__next__"})
        for (const auto &Q : T.P.dispatch(C, M, V.Exact))
          Out.push_back(usr(Q));
  return Out;
}

bool fromParameter(const PyTypes &T, TSNode E) {
  E = unparen(E);
  for (int Depth = 0; Depth < 8 && !ts_node_is_null(E); ++Depth) {
    if (is(E, "attribute") || is(E, "subscript")) {
      E = unparen(field(E, is(E, "attribute") ? "object" : "value"));
      continue;
    }
    if (is(E, "call")) {
      // getattr(model, name), model.get(name)
      TSNode Fn = unparen(field(E, "function"));
      CallArgs A = argsOf(*T.M.Src, E);
      if (is(Fn, "identifier") && T.M.Src->text(Fn) == "getattr" && !A.Positional.empty())
        E = unparen(A.Positional[0]);
      else
        return false;
      continue;
    }
    if (!is(E, "identifier"))
      return false;
    std::string_view Name = T.M.Src->text(E);
    if (T.parameterAt(Name, beginOf(E)) >= 0 && !T.isSelf(E))
      return true;
    TSNode Bound = T.boundExpr(Name, beginOf(E));
    if (ts_node_is_null(Bound) || beginOf(Bound) >= beginOf(E))
      return false;
    E = unparen(Bound);
  }
  return false;
}

bool isSuperCall(const PyTypes &T, TSNode N) {
  N = unparen(N);
  return is(N, "call") && T.resolve(field(N, "function")) == "super";
}

bool isContextManager(const PyProgram &P, const std::string &Function) {
  const auto [F, M] = P.signature(Function);
  if (!F || !M || F->IsLambda || F->IsModuleBody)
    return false;
  TSNode Decorated = parentOf(F->Node);
  if (!is(Decorated, "decorated_definition"))
    return false;
  for (TSNode D : namedChildren(Decorated)) {
    std::string_view Text = M->Src->text(D);
    if (is(D, "decorator") && Text.size() >= 14 &&
        Text.substr(Text.size() - 14) == "contextmanager")
      return true;
  }
  return false;
}

std::string autogradForward(const PyProgram &P, const std::string &Class) {
  if (Class.empty() || !P.classNamed(Class))
    return "";
  bool Autograd = false;
  for (const auto &B : P.libraryBases(Class))
    Autograd |= B == "torch.autograd.Function" || B == "torch.autograd.function.Function" ||
                B == "torch.autograd.function.InplaceFunction";
  return Autograd ? P.methodOf(Class, "forward") : "";
}

namespace {

// The methods of self a local name holds where E uses it, when every
// binding that may reach E is `self.method` (a bound method of this
// instance); else none.
std::vector<std::string> boundSelfMethods(const PyTypes &T, TSNode E) {
  std::vector<std::string> Out;
  if (!is(E, "identifier") || T.selfClass().empty())
    return Out;
  std::string_view Name = T.M.Src->text(E);
  std::vector<unsigned> At = {beginOf(E)};
  auto Also = T.alsoReaching(Name, beginOf(E));
  At.insert(At.end(), Also.begin(), Also.end());
  for (unsigned Offset : At) {
    TSNode Bound = unparen(T.boundExpr(Name, Offset));
    if (!is(Bound, "attribute") || !T.isSelf(unparen(field(Bound, "object"))) ||
        beginOf(Bound) >= beginOf(E))
      return {};
    std::string Method(T.M.Src->text(field(Bound, "attribute")));
    if (T.P.methodOf(T.selfClass(), Method).empty())
      return {};
    if (std::find(Out.begin(), Out.end(), Method) == Out.end())
      Out.push_back(std::move(Method));
  }
  return Out;
}

} // namespace

namespace {

Callees resolveCallees(const PyTypes &T, TSNode Call);

} // namespace

Callees calleesOf(const PyTypes &T, TSNode Call) {
  auto *Known = topMemo<Callees>(T, T.CalleeMemo);
  if (Known)
    if (auto It = Known->find(Call.id); It != Known->end())
      return It->second;
  Callees Out = resolveCallees(T, Call);
  launchKernels(T.P, Out.Keys);
  if (Known)
    Known->emplace(Call.id, Out);
  return Out;
}

namespace {

// `get_module().op(...)` where every function the call may run returns
// `SimpleNamespace(op=op_impl, ...)` (a JIT-built module's table of
// operations): what op_impl is in that function. Empty when a return is
// anything else or leaves op out.
std::vector<std::string> namespaceMember(const PyTypes &T, TSNode Obj, std::string_view Attr) {
  Obj = unparen(Obj);
  if (is(Obj, "identifier"))
    Obj = unparen(T.onlyBoundExpr(T.M.Src->text(Obj), beginOf(Obj)));
  PyTypeCache &Cache = T.cache();
  if (!is(Obj, "call") || Cache.Depth > 2)
    return {};
  std::vector<std::string> Out;
  ++Cache.Depth;
  for (const auto &K : resolveCallees(T, Obj).Keys) {
    const PyFunctionDef *F = K.rfind("py:", 0) == 0 ? T.P.function(K.substr(3)) : nullptr;
    const PyModuleInfo *M = F ? T.P.moduleOfFunction(K.substr(3)) : nullptr;
    if (!F || !M || F->IsModuleBody) {
      Out.clear();
      break;
    }
    PyTypes Callee(T.P, *M, *F, Cache);
    bool Known = true;
    walk(F->body(), [&](TSNode N) {
      if (!Known || is(N, "function_definition") || is(N, "lambda"))
        return false;
      if (!is(N, "return_statement"))
        return true;
      TSNode V = unparen(ts_node_named_child(N, 0));
      if (is(V, "identifier"))
        V = unparen(Callee.onlyBoundExpr(M->Src->text(V), beginOf(V)));
      TSNode Member =
          is(V, "call") && Callee.resolve(field(V, "function")) == "types.SimpleNamespace"
              ? argsOf(*M->Src, V).keyword(Attr)
              : TSNode{};
      Known = !ts_node_is_null(Member);
      if (Known)
        for (auto &Target : valueTargets(Callee, Member))
          Out.push_back(std::move(Target));
      return false;
    });
    if (!Known) {
      Out.clear();
      break;
    }
  }
  --Cache.Depth;
  return Out;
}

// The bases of a class defined in a function (`def wrap(cls): class
// Graphed(cls): ...`) that are values there, not classes the program
// names: the project classes each may hold. Nothing when every base is a
// named class.
std::optional<std::vector<std::string>> factoryBases(const PyTypes &T, const PyClassDef &C) {
  TSNode Def = C.Node;
  TSNode Up = ts_node_is_null(Def) ? TSNode{} : parentOf(Def);
  while (!ts_node_is_null(Up) && !is(Up, "function_definition") && !is(Up, "class_definition"))
    Up = parentOf(Up);
  if (!is(Up, "function_definition"))
    return std::nullopt;
  const PyModuleInfo &Home = T.P.classTree(C);
  auto Fn = std::find_if(Home.Functions.begin(), Home.Functions.end(),
                         [&](const PyFunctionDef &F) { return ts_node_eq(F.Node, Up); });
  if (Fn == Home.Functions.end())
    return std::nullopt;
  std::optional<std::vector<std::string>> Out;
  for (TSNode B : namedChildren(field(Def, "superclasses"))) {
    if (!is(B, "identifier"))
      continue;
    const PyTypes &Factory = cachedTypes(T.P, Home, *Fn, T.cache());
    if (Factory.parameterAt(Home.Src->text(B), beginOf(B)) < 0 &&
        ts_node_is_null(Factory.boundExpr(Home.Src->text(B), beginOf(B))))
      continue;
    if (!Out)
      Out.emplace();
    for (auto &Q : Factory.classObjects(B))
      Out->push_back(std::move(Q));
  }
  return Out;
}

Callees resolveCallees(const PyTypes &T, TSNode Call) {
  const PySource &S = *T.M.Src;
  Callees Out;
  TSNode Fn = unparen(field(Call, "function"));
  if (is(Fn, "attribute")) {
    TSNode Obj = unparen(field(Fn, "object"));
    std::string Method(S.text(field(Fn, "attribute")));
    // super().m(): the first base class after this one that defines m.
    if (isSuperCall(T, Obj)) {
      const PyClassDef *C = T.P.classNamed(T.selfClass());
      if (!C)
        return Out;
      for (const auto &B : C->Bases)
        if (std::string Q = T.P.methodOf(B, Method); !Q.empty()) {
          Out.Keys.push_back(usr(Q));
          Out.Exact = true;
          // The base's method still runs on this object: its self calls
          // dispatch on the class self has here.
          Out.Receiver = "^" + classKey(T.selfClass());
          return Out;
        }
      // `class Graphed(cls):` made by a factory: the base is what the
      // factory's callers pass; one the analysis cannot name leaves the call
      // unknown, so --explain-reach says so.
      if (auto Bases = factoryBases(T, *C)) {
        for (const auto &B : *Bases)
          if (std::string Q = T.P.methodOf(B, Method); !Q.empty())
            Out.Keys.push_back(usr(Q));
        Out.Exact = !Out.Keys.empty();
        if (Out.Exact)
          Out.Receiver = "^" + classKey(T.selfClass());
        else
          Out.Keys.push_back(std::string(UnknownCallee) + std::string(S.text(Fn)));
        Out.Dynamic = !Out.Exact;
      }
      return Out;
    }
    // Function.apply(...) of a project autograd Function runs its forward
    // with the arguments after ctx.
    if (Method == "apply")
      if (std::string Q = autogradForward(T.P, T.resolve(Obj)); !Q.empty()) {
        Out.Keys.push_back(usr(Q));
        Out.Exact = true;
        return Out;
      }
    bool Exact = false;
    if (auto Classes = receiverClasses(T, Obj, &Exact); Classes.size() == 1) {
      const std::string &Class = Classes.front();
      if (auto Ms = T.P.dispatch(Class, Method, Exact); !Ms.empty()) {
        for (const auto &M : Ms)
          Out.Keys.push_back(usr(M));
        Out.Exact = true; // dispatch already chose the overrides
        // An exact receiver stays exact for the self calls of the callee.
        Out.Receiver = (Exact ? "=" : "") + classKey(Class);
        if (T.isSelf(Obj))
          Out.SelfMethod = Method;
        return Out;
      }
      // Not a method of the project: `self.layer(x)` calls what the attribute
      // holds, if the project assigns it; else it is the library base class's
      // own method (nn.Module.parameters()).
      if (T.P.attrAssigned(Class, Method)) {
        Out.Keys = valueTargets(T, Fn);
        Out.Dynamic = true;
      } else if (auto Bases = T.P.libraryBases(Class); !Bases.empty()) {
        Out.Keys.push_back(external(Bases.front() + "." + Method));
      }
      return Out;
    } else if (!Classes.empty()) {
      // A receiver of a class chosen at run time: each class's method (and
      // its overrides), or what each class's attribute holds.
      Out.Keys = valueTargets(T, Fn);
      Out.Exact = true;
      return Out;
    }
  }
  // `fn = self._capture` or `self._replay` by a branch, then `fn(...)`: a
  // self call, dispatched on the class self has where the walk came from.
  if (auto Methods = boundSelfMethods(T, Fn); !Methods.empty()) {
    for (const auto &M : Methods)
      for (const auto &Q : T.P.dispatch(T.selfClass(), M, false))
        Out.Keys.push_back(usr(Q));
    Out.Exact = true;
    Out.Receiver = classKey(T.selfClass());
    Out.SelfMethod = Methods.front();
    Out.AlsoSelf.assign(Methods.begin() + 1, Methods.end());
    return Out;
  }
  std::string Q = T.resolve(Fn);
  if (!Q.empty() && T.P.isFunction(Q) && wrappedByProject(T, Q)) {
    Out.Keys.push_back(decoratedKey(Q));
  } else if (!Q.empty() && T.P.isFunction(Q)) {
    Out.Keys.push_back(usr(Q));
  } else if (!Q.empty() && T.P.classNamed(Q)) {
    if (std::string Init = T.P.methodOf(Q, "__init__"); !Init.empty())
      Out.Keys.push_back(usr(Init));
    else if (auto Bases = T.P.libraryBases(Q); !Bases.empty())
      Out.Keys.push_back(external(Bases.front() + ".__init__"));
    Out.Exact = true;
  } else if (is(Fn, "attribute") && !Q.empty() && Q.find('.') != std::string::npos) {
    Out.Keys.push_back(external(Q)); // a library's function: torch.cuda.synchronize
  } else if (Value V = is(Fn, "attribute") ? T.valueOf(field(Fn, "object")) : Value{};
             V.K == VK::Instance && !V.Many && !V.Name.empty() && !T.P.classNamed(V.Name)) {
    // A method of a library class's instance (`linear.forward`), or what its
    // constructor was handed under that name (`pipeline.unet(x)`).
    std::string Attr(S.text(field(Fn, "attribute")));
    Out.Keys.push_back(external(V.Name + "." + Attr));
    Out.Keys.push_back(attrKey(V.Name, Attr));
    Out.Dynamic = true; // what it holds gets this call's arguments
  } else if (auto Members = is(Fn, "attribute") ? namespaceMember(T, field(Fn, "object"),
                                                                  S.text(field(Fn, "attribute")))
                                                : std::vector<std::string>{};
             !Members.empty()) {
    Out.Keys = std::move(Members);
  } else {
    Out.Keys = valueTargets(T, Fn);
    Out.Dynamic = throughValue(T, Fn);
    // Through a value of which nothing is known (an element of a list the
    // library filled): the call is kept, so --explain-reach says it was not
    // followed.
    if (Out.Dynamic && Out.Keys.empty())
      Out.Keys.push_back(std::string(UnknownCallee) + std::string(S.text(Fn)));
  }
  return Out;
}

} // namespace

std::vector<std::string> handedFunctions(const PyTypes &T, TSNode Arg) {
  Arg = unparen(Arg);
  const PySource &S = *T.M.Src;
  bool FunctionLike = is(Arg, "lambda");
  if (is(Arg, "identifier") || is(Arg, "attribute")) {
    std::string Q = T.resolve(Arg);
    FunctionLike = !Q.empty() && T.P.isFunction(Q);
    if (!FunctionLike && is(Arg, "attribute"))
      for (const auto &Class : receiverClasses(T, field(Arg, "object")))
        FunctionLike |= !T.P.methodOf(Class, std::string(S.text(field(Arg, "attribute")))).empty();
  } else if (is(Arg, "call")) {
    FunctionLike = callsFirstArgument(T.resolve(field(Arg, "function")));
  }
  if (!FunctionLike)
    return {};
  std::vector<std::string> Out;
  for (auto &K : valueTargets(T, Arg))
    if (K.rfind("py:", 0) == 0 && T.P.isFunction(K.substr(3)))
      Out.push_back(std::move(K));
  return Out;
}

std::vector<std::string> graphedTargets(const PyTypes &T, TSNode Arg) {
  std::vector<std::string> Out;
  Arg = unparen(Arg);
  if (is(Arg, "tuple") || is(Arg, "list")) {
    for (TSNode C : namedChildren(Arg)) {
      auto Sub = graphedTargets(T, C);
      Out.insert(Out.end(), Sub.begin(), Sub.end());
    }
    return Out;
  }
  return valueTargets(T, Arg);
}

namespace {
// Whether calling a value with these targets runs what they name alone:
// functions, storage that holds them, library code.
bool knownTargets(const PyProgram &P, const std::vector<std::string> &Targets) {
  return !Targets.empty() && std::all_of(Targets.begin(), Targets.end(), [&](const auto &K) {
    return isProjectFunctionKey(P, K) || isStorageKey(K) || K.rfind("ext:", 0) == 0;
  });
}
} // namespace

std::vector<std::pair<std::string, std::string>>
parameterBinds(const PyTypes &Caller, const std::string &Callee, TSNode Call) {
  std::vector<std::pair<std::string, std::string>> Out;
  const PySource &S = *Caller.M.Src;
  const auto Passed = boundArguments(Caller, Callee, Call);
  for (const auto &[Index, Arg] : Passed) {
    TSNode A = unparen(Arg);
    // The caller's own parameter handed on: what the walk bound it to.
    if (is(A, "identifier"))
      if (int From = Caller.parameterAt(S.text(A), beginOf(A)); From >= 0) {
        Out.push_back({paramKey(Callee, Index), "=" + paramKey(Caller.F.QualName, From)});
        continue;
      }
    // What calling the argument runs, as the stores of the parameter would
    // have it from this call (functions, storage that holds them, a module's
    // forward): the other callers' arguments are not this call's. An
    // argument of which nothing is known leaves the parameter to the stores.
    auto Targets = valueTargets(Caller, A);
    if (knownTargets(Caller.P, Targets))
      for (const auto &K : Targets)
        Out.push_back({paramKey(Callee, Index), K});
    else if (is(A, "none"))
      Out.push_back({paramKey(Callee, Index), ""}); // holds no callable here
  }
  // The items of a container parameter (`*args` included) this call fills:
  // what the elements it spells run, or none where it spells none.
  for (const auto &H : handedItems(Caller, Callee, Call, Passed)) {
    if (!H.HandedOn.empty()) {
      Out.push_back({H.Key, "=" + H.HandedOn});
      continue;
    }
    if (!H.Complete)
      continue;
    std::vector<std::string> Targets;
    bool Known = true;
    for (const auto &El : H.Elements) {
      auto Ts = valueTargets(*El.Scope, El.Node);
      Known = Known && knownTargets(Caller.P, Ts);
      Targets.insert(Targets.end(), Ts.begin(), Ts.end());
    }
    if (!Known)
      continue;
    if (Targets.empty())
      Out.push_back({H.Key, ""});
    for (const auto &Target : Targets)
      Out.push_back({H.Key, Target});
  }
  // A parameter this call leaves to a literal default (`post_forward=None`)
  // holds no callable here, whatever other callers pass.
  CallArgs Args = calleeArgs(Caller, Callee, Call);
  if (std::any_of(Args.Positional.begin(), Args.Positional.end(),
                  [](TSNode A) { return is(A, "list_splat") || is(A, "dictionary_splat"); }))
    return Out;
  const PyFunctionDef *F = Caller.P.signature(Callee).first;
  if (!F)
    return Out;
  auto Params = callerParameters(*F);
  for (unsigned I = 0; I < Params.size(); ++I)
    if (isLiteral(unparen(field(Params[I], "value"))) &&
        std::none_of(Passed.begin(), Passed.end(), [&](const auto &P) { return P.first == I; }))
      Out.push_back({paramKey(Callee, I), ""});
  return Out;
}

std::vector<ConstArg> classArguments(const PyTypes &Caller, const std::string &Callee,
                                     TSNode Call) {
  std::vector<ConstArg> Out;
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call)) {
    Value V = Caller.valueOf(Arg);
    if (V.K != VK::Instance || V.Many || !V.Exact || !V.Also.empty() ||
        !Caller.P.classNamed(V.Name))
      continue;
    ConstArg C{Index};
    C.Attr = std::string(ClassFact) + classKey(V.Name);
    C.TruthKnown = false; // an object's truth is its __bool__'s
    C.NoneKnown = true;   // but it is no None
    Out.push_back(std::move(C));
  }
  return Out;
}

bool currentStream(const PyTypes &T, TSNode E) {
  E = unparen(E);
  if (is(E, "identifier"))
    E = unparen(T.onlyBoundExpr(T.M.Src->text(E), beginOf(E)));
  return is(E, "call") && T.resolve(field(E, "function")) == "torch.cuda.current_stream";
}

namespace {

// The `a.wait_stream(b)` calls of T's function as (begin, end, a, b), found
// once: a loop target stands for every element of what it loops over (`for
// s in ctx.streams: s.wait_stream(cur)` waits with `ctx.streams[]`).
const std::vector<std::tuple<unsigned, unsigned, std::string, std::string>> &
streamWaits(const PyTypes &T) {
  auto [Waits, New] = T.cache().StreamWaits.try_emplace(T.F.Node.id);
  if (!New)
    return Waits->second;
  const PySource &S = *T.M.Src;
  auto spelled = [&](TSNode E) {
    E = unparen(E);
    if (is(E, "identifier"))
      if (TSNode Over = T.iteratedExpr(S.text(E), beginOf(E)); !ts_node_is_null(Over))
        return std::string(S.text(unparen(Over))) + "[]";
    return std::string(S.text(E));
  };
  walk(T.F.body(), [&](TSNode N) {
    if (!is(N, "call"))
      return true;
    TSNode Fn = unparen(field(N, "function"));
    if (!is(Fn, "attribute") || S.text(field(Fn, "attribute")) != "wait_stream")
      return true;
    CallArgs A = argsOf(S, N);
    if (A.Positional.size() == 1)
      Waits->second.emplace_back(beginOf(N), endOf(N), spelled(field(Fn, "object")),
                                 spelled(A.Positional[0]));
    return true;
  });
  return Waits->second;
}

// Whether a wait's stream W, as streamWaits spells it, is Side: the same
// spelling, or a list whose every element waits, Side being the list or an
// element of it.
bool sameStream(std::string_view W, std::string_view Side) {
  if (W == Side)
    return true;
  if (W.size() < 3 || W.substr(W.size() - 2) != "[]")
    return false;
  std::string_view List = W.substr(0, W.size() - 2);
  return Side == List || (Side.size() > List.size() && Side.substr(0, List.size()) == List &&
                          Side[List.size()] == '[');
}

bool forkedAroundIn(
    const std::vector<std::tuple<unsigned, unsigned, std::string, std::string>> &Waits,
    std::string_view Side, TSNode Call) {
  bool Forked = false, Joined = false;
  for (const auto &[Begin, End, Waiter, On] : Waits) {
    if (End <= beginOf(Call))
      Forked |= sameStream(Waiter, Side);
    else if (Begin >= endOf(Call))
      Joined |= sameStream(On, Side);
  }
  return Forked && Joined;
}

// Whether the caller forks the stream Arg spells from its current stream
// before Call and joins it after (`side.wait_stream(cur)`, the callee's
// work, `cur.wait_stream(side)`): what the callee runs on it is part of the
// capture, as if the callee had forked it itself.
bool forkedAround(const PyTypes &Caller, TSNode Arg, TSNode Call) {
  const PySource &S = *Caller.M.Src;
  std::string_view Side = S.text(unparen(Arg));
  if (forkedAroundIn(streamWaits(Caller), Side, Call))
    return true;
  // A closure (`def call_ag(): launch(ctx.streams[0])`) that the function
  // defining it calls only between forking the stream and joining it.
  if (Caller.F.IsModuleBody || Caller.F.IsLambda)
    return false;
  TSNode Outer = enclosingFunction(Caller.F.Node);
  if (ts_node_is_null(Outer))
    return false;
  auto Def = std::find_if(Caller.M.Functions.begin(), Caller.M.Functions.end(),
                          [&](const PyFunctionDef &F) { return ts_node_eq(F.Node, Outer); });
  if (Def == Caller.M.Functions.end() ||
      S.text(Def->body()).find("wait_stream") == std::string_view::npos)
    return false;
  // Typed only the first time: every argument of every call the closure
  // makes asks again, and streamWaits keeps what it found.
  std::optional<PyTypes> OuterTypes;
  auto Known = Caller.cache().StreamWaits.find(Def->Node.id);
  const auto &OuterWaits =
      Known != Caller.cache().StreamWaits.end()
          ? Known->second
          : streamWaits(OuterTypes.emplace(Caller.P, Caller.M, *Def, Caller.cache()));
  bool Any = false, All = true;
  walk(Def->body(), [&](TSNode N) {
    if (is(N, "call"))
      if (TSNode Fn = unparen(field(N, "function"));
          is(Fn, "identifier") && S.text(Fn) == Caller.F.Name) {
        Any = true;
        All = All && forkedAroundIn(OuterWaits, Side, N);
      }
    return true;
  });
  return Any && All;
}

} // namespace

std::vector<ConstArg> streamArguments(const PyTypes &Caller, const std::string &Callee,
                                      TSNode Call) {
  std::vector<ConstArg> Out;
  for (const auto &[Index, Arg] : boundArguments(Caller, Callee, Call))
    if (currentStream(Caller, Arg) || forkedAround(Caller, Arg, Call)) {
      ConstArg C{Index};
      C.Attr = SideStream;
      C.Truthy = false;
      C.NoneKnown = false;
      Out.push_back(std::move(C));
    }
  return Out;
}

CallArgs calleeArgs(const PyTypes &Caller, const std::string &Callee, TSNode Call) {
  CallArgs A = argsOf(*Caller.M.Src, Call);
  TSNode Fn = unparen(field(Call, "function"));
  if (A.Positional.empty() || !is(Fn, "attribute"))
    return A;
  const auto [F, M] = Caller.P.signature(Callee);
  // The method named at the call (not one the call runs through another,
  // as `Function.apply` runs the static `forward(ctx, ...)`).
  if (!F || !M || !F->takesSelf() || F->IsLambda ||
      Caller.M.Src->text(field(Fn, "attribute")) != F->Name ||
      std::find(F->Decorators.begin(), F->Decorators.end(), "classmethod") != F->Decorators.end())
    return A;
  if (std::string Of = Caller.resolve(field(Fn, "object")); !Of.empty() && Caller.P.classNamed(Of))
    A.Positional.erase(A.Positional.begin());
  return A;
}

std::vector<std::pair<unsigned, TSNode>> boundArguments(const PyTypes &Caller,
                                                        const std::string &Callee, TSNode Call) {
  std::vector<std::pair<unsigned, TSNode>> Out;
  const auto [F, M] = Caller.P.signature(Callee);
  if (!F || !M)
    return Out;
  CallArgs A = calleeArgs(Caller, Callee, Call);
  // Positions past the named parameters go into `*args`, not into the
  // keyword-only parameters that follow it.
  const unsigned Named = positionalParameters(*F);
  for (unsigned I = 0; I < A.Positional.size() && I < Named; ++I) {
    if (is(A.Positional[I], "list_splat"))
      break; // f(*args): positions after it are unknown
    // `**kwargs` comes after the positions and binds none of them.
    if (!is(A.Positional[I], "dictionary_splat"))
      Out.push_back({I, A.Positional[I]});
  }
  if (A.Keywords.empty())
    return Out;
  std::vector<std::string> Names = parameterNames(*M->Src, *F);
  for (const auto &[Name, Value] : A.Keywords)
    for (unsigned I = 0; I < Names.size(); ++I)
      if (Names[I] == Name)
        Out.push_back({I, Value});
  return Out;
}

namespace {

// `getattr(obj, name)` with a name that is no string literal: obj and the
// name's expression, else nulls.
std::pair<TSNode, TSNode> computedLookup(const PySource &S, TSNode Value) {
  Value = unparen(Value);
  if (!is(Value, "call") || S.text(unparen(field(Value, "function"))) != "getattr")
    return {};
  CallArgs A = argsOf(S, Value);
  if (A.Positional.size() < 2 || plainString(S, unparen(A.Positional[1])))
    return {};
  return {unparen(A.Positional[0]), unparen(A.Positional[1])};
}

// What a computed attribute name is known to start and end with:
// `f"forward_{mode}"`, `"step_" + kind`; nothing for a name read elsewhere.
std::pair<std::string, std::string> namePattern(const PySource &S, TSNode Name) {
  if (is(Name, "binary_operator") && S.text(ts_node_child(Name, 1)) == "+")
    if (auto Head = plainString(S, unparen(field(Name, "left"))))
      return {*Head, ""};
  if (!is(Name, "string"))
    return {};
  std::string Head, Tail;
  bool Interpolated = false;
  for (TSNode C : namedChildren(Name)) {
    if (is(C, "interpolation")) {
      Interpolated = true;
      Tail.clear();
    } else if (is(C, "string_content")) {
      (Interpolated ? Tail : Head) += S.text(C);
    }
  }
  return {Head, Tail};
}

// The methods an instance of Classes (or of a subclass) has whose names fit
// Pattern: what `getattr(obj, f"forward_{mode}")` may give, dunders aside.
// None where the code says nothing of the name (`getattr(self,
// cfg.step_name)`): any method taking the call's arguments would fit, and
// following them all reports what no configuration runs.
std::vector<std::string> lookedUpMethods(const PyProgram &P,
                                         const std::vector<std::string> &Classes,
                                         const std::pair<std::string, std::string> &Pattern) {
  std::set<std::string> Out;
  if (Pattern.first.empty() && Pattern.second.empty())
    return {};
  auto fits = [&](const std::string &M) {
    const auto &[Head, Tail] = Pattern;
    return M.rfind("__", 0) != 0 && M.size() >= Head.size() + Tail.size() &&
           M.compare(0, Head.size(), Head) == 0 &&
           M.compare(M.size() - Tail.size(), Tail.size(), Tail) == 0;
  };
  for (const auto &Class : Classes) {
    std::vector<std::string> Made = P.descendants(Class);
    Made.push_back(Class);
    for (const auto &C : Made) {
      std::set<std::string> Names;
      for (const auto &A : P.ancestors(C))
        if (const PyClassDef *D = P.classNamed(A))
          Names.insert(D->Methods.begin(), D->Methods.end());
      for (const auto &M : Names)
        if (fits(M))
          if (std::string Q = P.methodOf(C, M); !Q.empty())
            Out.insert(usr(Q));
    }
  }
  return {Out.begin(), Out.end()};
}

// E's text on one line, cut short: what a note quotes.
std::string collapsedText(const PySource &S, TSNode E) {
  std::string Out;
  for (char C : S.text(E)) {
    if (C == '\n' || C == '\r' || C == '\t')
      C = ' ';
    if (C == ' ' && (Out.empty() || Out.back() == ' ' || Out.back() == '(' || Out.back() == '['))
      continue;
    if ((C == ')' || C == ']' || C == ',') && !Out.empty() && Out.back() == ' ')
      Out.pop_back();
    Out += C;
  }
  return Out.size() > 60 ? Out.substr(0, 57) + "..." : Out;
}

} // namespace

void collectStores(const PyTypes &T, TSNode N,
                   std::vector<std::pair<std::string, std::string>> &Out) {
  const PySource &S = *T.M.Src;
  // What Value holds goes to each key; a partial binding leading arguments
  // (or a method taken from its class) is noted too, so calls through the
  // keys are not taken to pass their arguments at the positions they are
  // written.
  auto storeIn = [&](const PyTypes &Scope, const std::vector<std::string> &Keys, TSNode Value) {
    const PySource &Src = *Scope.M.Src;
    bool Shifted = movesArguments(Scope, Value);
    std::vector<std::string> Targets;
    // `getattr(self, cfg.step_name)`: an attribute named where the program
    // runs, not a library's result. Kept as a lookup holding the methods
    // the object has whose names fit what the name is known to look like; a
    // call through the storage follows those that take its arguments where
    // they are few, and says it did not follow the lookup otherwise.
    if (auto [Obj, Name] = computedLookup(Src, Value); !ts_node_is_null(Name)) {
      std::string Lookup = std::string(ComputedLookup) + collapsedText(Src, Value);
      for (const auto &M :
           lookedUpMethods(Scope.P, receiverClasses(Scope, Obj), namePattern(Src, Name)))
        Out.push_back({Lookup, M});
      Targets.push_back(std::move(Lookup));
    } else {
      Targets = valueTargets(Scope, Value);
    }
    for (const auto &Target : Targets) {
      if (Shifted)
        Out.push_back({shiftedKey(), Target});
      for (const auto &Key : Keys)
        Out.push_back({Key, Target});
    }
  };
  auto store = [&](const std::vector<std::string> &Keys, TSNode Value) { storeIn(T, Keys, Value); };
  // A container's items, kept as the items of Keys: the elements it spells
  // and what the item storage it copies (Linked) holds.
  auto keepItems = [&](const std::vector<std::string> &Keys, const std::vector<Element> &Elements,
                       const std::vector<std::string> &Linked) {
    if (Keys.empty())
      return;
    for (const auto &El : Elements)
      storeIn(*El.Scope, Keys, El.Node);
    for (const auto &From : Linked)
      for (const auto &Key : Keys)
        if (Key != From)
          Out.push_back({Key, From});
  };
  if (is(N, "function_definition") || (is(N, "lambda") && !ts_node_eq(N, T.F.Node))) {
    // Defaults are evaluated where the definition runs: a call that leaves
    // the parameter out passes them.
    std::string Function =
        is(N, "lambda") ? lambdaName(T.M.Module, S, N)
                        : scopeName(T.M.Module, S, N) + "." + std::string(S.text(field(N, "name")));
    const PyFunctionDef *F = T.P.signature(Function).first;
    if (!F)
      return;
    auto Params = callerParameters(*F);
    for (unsigned I = 0; I < Params.size(); ++I)
      if (TSNode Default = field(Params[I], "value"); !ts_node_is_null(Default))
        store({paramKey(Function, I), paramDefaultKey(paramKey(Function, I))}, Default);
    return;
  }
  if (is(N, "return_statement")) {
    // What hangs off a parameter (the parameter itself, `model.module`,
    // `getattr(model, name)`) is the caller's: joining it over every caller
    // would hand each one what all the others passed. A parameter handed
    // back as it is is bound at each call instead (returnedArguments).
    if (TSNode V = ts_node_named_child(N, 0); !ts_node_is_null(V) && !fromParameter(T, V))
      store({returnKey(T.F.QualName)}, V);
    // `return model, optimizer`: each element for the caller that unpacks it.
    if (TSNode V = unparen(ts_node_named_child(N, 0)); is(V, "expression_list") || is(V, "tuple")) {
      auto Elements = namedChildren(V);
      for (size_t I = 0; I < Elements.size(); ++I) {
        if (is(Elements[I], "list_splat"))
          break; // `return a, *rest, b`: the positions after it are unknown
        if (!fromParameter(T, Elements[I]))
          store({returnElementKey(T.F.QualName, static_cast<unsigned>(I))}, Elements[I]);
      }
    }
    return;
  }
  if (is(N, "lambda")) { // T is the lambda's own analysis: what it returns
    if (TSNode V = field(N, "body"); !ts_node_is_null(V) && !fromParameter(T, V))
      store({returnKey(lambdaName(T.M.Module, S, N))}, V);
    return;
  }
  if (is(N, "yield")) {
    TSNode V = ts_node_named_child(N, 0);
    // `yield from g()` hands on another generator's values, not V itself.
    if (!ts_node_is_null(V) && S.text(N).substr(0, 10) != "yield from")
      store({yieldKey(T.F.QualName)}, V);
    return;
  }
  if (is(N, "call")) {
    // ls.append(f), d.update(k=f), d.setdefault(k, f): items kept for a
    // later call through the container.
    if (TSNode Fn = unparen(field(N, "function")); is(Fn, "attribute")) {
      TSNode Container = field(Fn, "object");
      std::string_view Method = S.text(field(Fn, "attribute"));
      CallArgs A = argsOf(S, N);
      auto keep = [&](const std::string &Key, TSNode Value) {
        if (auto Keys = itemStoreKeys(T, Container, Key); !Keys.empty())
          store(Keys, Value);
      };
      if ((Method == "append" || Method == "add") && A.Positional.size() == 1)
        keep("", A.Positional[0]);
      else if (Method == "insert" && A.Positional.size() == 2)
        keep("", A.Positional[1]);
      else if (Method == "setdefault" && A.Positional.size() == 2)
        keep(literalKey(S, A.Positional[0]), A.Positional[1]);
      else if (Method == "extend" && A.Positional.size() == 1) {
        if (auto Elements = sequenceElements(T, A.Positional[0]))
          for (const auto &El : *Elements)
            if (El.Scope == &T)
              keep("", El.Node);
      } else if (Method == "update") {
        for (const auto &[Name, Value] : A.Keywords)
          keep("'" + std::string(Name), Value);
        if (A.Positional.size() == 1)
          if (auto Entries = dictEntries(T, A.Positional[0]))
            for (const auto &[K, El] : *Entries)
              if (El.Scope == &T)
                keep(K, El.Node);
      }
    }
    // A library's object keeps what its constructor is handed by keyword as
    // the attribute of that name (`Pipeline.from_pretrained(path,
    // unet=unet)`, then `pipeline.unet(x)`): diffusers' and transformers'
    // pipelines, and Python's `self.x = x` habit generally.
    if (std::string Class = libraryConstructed(T, N); !Class.empty())
      for (const auto &[Name, Value] : argsOf(S, N).Keywords)
        store({attrKey(Class, std::string(Name))}, Value);
    Callees C = calleesOf(T, N);
    for (const auto &Key : C.Keys) {
      if (isStorageKey(Key)) {
        // Whatever function the storage holds gets these arguments.
        CallArgs A = argsOf(S, N);
        for (unsigned I = 0; I < A.Positional.size() && !is(A.Positional[I], "list_splat"); ++I)
          store({argumentKey(Key, I)}, A.Positional[I]);
        continue;
      }
      if (Key.rfind("py:", 0) != 0 || !T.P.isFunction(Key.substr(3)))
        continue;
      size_t First = Out.size();
      const auto Bound = boundArguments(T, Key.substr(3), N);
      for (const auto &[Index, Arg] : Bound)
        store({paramKey(Key.substr(3), Index)}, Arg);
      for (const auto &H : handedItems(T, Key.substr(3), N, Bound))
        keepItems({H.Key}, H.Elements, H.Linked);
      receiverStores(T, Key.substr(3), N, First, Out);
      for (const auto &W : forwardedArguments(T, Key.substr(3), N))
        store({paramKey(W.Callee, W.Index)}, W.Arg);
    }
    return;
  }
  if (!is(N, "assignment"))
    return;
  TSNode L = unparen(field(N, "left")), R = unparen(field(N, "right"));
  if (ts_node_is_null(R))
    return;
  std::vector<std::pair<TSNode, TSNode>> Pairs;
  if ((is(L, "pattern_list") || is(L, "tuple_pattern")) &&
      (is(R, "expression_list") || is(R, "tuple"))) {
    auto Ls = namedChildren(L), Rs = namedChildren(R);
    if (Ls.size() == Rs.size())
      for (size_t I = 0; I < Ls.size(); ++I)
        Pairs.push_back({Ls[I], Rs[I]});
  } else {
    Pairs.push_back({L, R});
  }
  for (const auto &[Target, Value] : Pairs) {
    if (is(Target, "subscript")) {
      if (auto Keys =
              itemStoreKeys(T, field(Target, "value"), literalKey(S, field(Target, "subscript")));
          !Keys.empty())
        store(Keys, Value);
      continue;
    }
    // `fs = list(fns)`: the items fns holds are fs's.
    if (is(Target, "identifier")) {
      if (auto Sources = itemSources(T, Value); !Sources.empty())
        keepItems(itemStoreKeys(T, Target, ""), {}, Sources);
      continue;
    }
    if (!is(Target, "attribute"))
      continue;
    auto Classes = receiverClasses(T, field(Target, "object"));
    if (Classes.empty())
      continue;
    // `self.hooks = [a, b]`, `self.fns = fns`: the items, for a loop over
    // the attribute in another method.
    auto Elements = sequenceElements(T, Value);
    if (auto Sources = itemSources(T, Value); (Elements && !Elements->empty()) || !Sources.empty())
      keepItems(itemStoreKeys(T, Target, ""), Elements ? *Elements : std::vector<Element>{},
                Sources);
    // `self.layers = nn.ModuleList([Block() for ...])`: the instances are
    // items of the attribute, for a loop over it in a base class's method.
    if (auto V = T.valueOf(Value); V.K == VK::Instance && V.Many) {
      V.Many = false;
      std::vector<std::string> Calls;
      addInstanceCall(T.P, V, Calls);
      for (const auto &Key : itemStoreKeys(T, Target, ""))
        for (const auto &Call : Calls)
          Out.push_back({Key, Call});
    }
    std::string Attr(S.text(field(Target, "attribute")));
    // Kept apart: under the store's own name when the function reads the
    // attribute before it, under the function's when another class's method
    // of its name may run instead of it.
    std::string Name;
    if (const auto *Stores = storesAfterRead(T, Attr)) {
      auto At = std::find(Stores->begin(), Stores->end(), endOf(N));
      Name = ownStoreName(T, At - Stores->begin());
    } else if (T.isSelf(field(Target, "object")) && overridesOrOverridden(T)) {
      Name = T.F.QualName;
    }
    bool Apart = !Name.empty();
    std::vector<std::string> Keys;
    for (const auto &Class : Classes)
      for (const auto &C : T.P.ancestors(Class)) {
        std::string Base = C == Class ? attrKey(C, Attr) : attrSubclassKey(C, Attr);
        if (!Apart) {
          Keys.push_back(std::move(Base));
          continue;
        }
        std::string Own = ownStoreKey(Base, Name);
        Out.push_back({Base, Own});
        Keys.push_back(std::move(Own));
      }
    store(Keys, Value);
  }
}

} // namespace graphsafe::lint::py
