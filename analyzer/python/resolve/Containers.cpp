#include "Containers.h"

#include "ArgumentForwarding.h"

namespace graphsafe::lint::py {

namespace {

constexpr int MaxDepth = 6;

bool isSequenceLiteral(TSNode E) {
  return is(E, "expression_list") || is(E, "tuple") || is(E, "list");
}

std::optional<long> literalIndex(const PySource &S, TSNode K) {
  K = unparen(K);
  bool Negative = false;
  if (is(K, "unary_operator") && S.text(K).substr(0, 1) == "-") {
    Negative = true;
    K = unparen(field(K, "argument"));
  }
  if (!is(K, "integer"))
    return std::nullopt;
  std::string Text(S.text(K));
  if (Text.find_first_not_of("0123456789") != std::string::npos || Text.size() > 9)
    return std::nullopt;
  long V = std::stol(Text);
  return Negative ? -V : V;
}

// `ls[a:b]` with literal (or absent) bounds and no step: [From, To) of Size.
bool sliceBounds(const PySource &S, TSNode Slice, size_t Size, size_t &From, size_t &To) {
  // tree-sitter gives the written bounds only; find which side each is on
  // by the colons around it.
  std::optional<long> Lo, Hi;
  int Colons = 0;
  uint32_t Count = ts_node_child_count(Slice);
  for (uint32_t I = 0; I < Count; ++I) {
    TSNode C = ts_node_child(Slice, I);
    if (!ts_node_is_named(C)) {
      if (S.text(C) == ":")
        ++Colons;
      continue;
    }
    auto V = literalIndex(S, C);
    if (!V || Colons > 1)
      return false;
    (Colons == 0 ? Lo : Hi) = V;
  }
  auto clamp = [&](long V) {
    if (V < 0)
      V += static_cast<long>(Size);
    return static_cast<size_t>(std::clamp<long>(V, 0, static_cast<long>(Size)));
  };
  From = Lo ? clamp(*Lo) : 0;
  To = Hi ? clamp(*Hi) : Size;
  return From <= To;
}

std::optional<std::vector<Element>> elementsAt(const PyTypes &T, TSNode E, int Depth);

// What E's name or expression is bound to, seen from T: the expression and
// its scope, with the part of its elements a starred target took.
std::optional<std::vector<Element>> boundElements(const PyTypes &T, TSNode Name, int Depth) {
  std::string_view Text = T.M.Src->text(Name);
  unsigned At = 0;
  const PyTypes *Scope = bindingScope(T, Text, beginOf(Name), At);
  if (!Scope)
    return std::nullopt;
  TSNode Bound = Scope->boundExpr(Text, At);
  if (ts_node_is_null(Bound))
    return std::nullopt;
  auto All = elementsAt(*Scope, Bound, Depth + 1);
  auto [From, To] = Scope->boundSlice(Text, At);
  if (All && To >= 0) {
    if (static_cast<size_t>(To) > All->size() || From > To)
      return std::nullopt;
    All = std::vector<Element>(All->begin() + From, All->begin() + To);
  }
  return All;
}

std::optional<std::vector<Element>> elementsAt(const PyTypes &T, TSNode E, int Depth) {
  E = unparen(E);
  if (ts_node_is_null(E) || Depth > MaxDepth)
    return std::nullopt;
  const PySource &S = *T.M.Src;
  if (isSequenceLiteral(E)) {
    std::vector<Element> Out;
    for (TSNode C : namedChildren(E)) {
      if (is(C, "list_splat")) {
        auto Inner = elementsAt(T, ts_node_named_child(C, 0), Depth + 1);
        if (!Inner)
          return std::nullopt;
        Out.insert(Out.end(), Inner->begin(), Inner->end());
        continue;
      }
      Out.push_back({&T, C});
    }
    return Out;
  }
  if (is(E, "identifier"))
    return boundElements(T, E, Depth);
  if (is(E, "subscript")) {
    TSNode Index = field(E, "subscript");
    auto Of = elementsAt(T, field(E, "value"), Depth + 1);
    if (!Of)
      return std::nullopt;
    if (is(Index, "slice")) {
      size_t From = 0, To = 0;
      if (!sliceBounds(S, Index, Of->size(), From, To))
        return std::nullopt;
      return std::vector<Element>(Of->begin() + From, Of->begin() + To);
    }
    auto I = literalIndex(S, Index);
    if (!I)
      return std::nullopt;
    long At = *I < 0 ? *I + static_cast<long>(Of->size()) : *I;
    if (At < 0 || At >= static_cast<long>(Of->size()))
      return std::nullopt;
    const Element &El = (*Of)[At];
    return elementsAt(*El.Scope, El.Node, Depth + 1);
  }
  return std::nullopt;
}

std::string itemKey(const std::string &Scope, std::string_view Name, const std::string &Key) {
  return "py:item:" + Scope + ":" + std::string(Name) + "[" + Key + "]";
}

// The scope and name of a container named directly; OfParameter tells a
// parameter's, which holds what its callers hand it under one key.
const PyTypes *containerScope(const PyTypes &T, TSNode Container, std::string &Name,
                              bool &OfParameter) {
  OfParameter = false;
  Container = unparen(Container);
  if (!is(Container, "identifier"))
    return nullptr;
  Name = std::string(T.M.Src->text(Container));
  unsigned At = 0;
  if (const PyTypes *Scope = bindingScope(T, Name, beginOf(Container), At)) {
    // `*args` as the call bound it, not rebound since.
    OfParameter = !Scope->F.IsModuleBody && !Scope->F.IsLambda &&
                  ts_node_is_null(Scope->boundExpr(Name, At)) &&
                  splatNames(*Scope->M.Src, Scope->F).Varargs == Name;
    return Scope;
  }
  // A parameter holds what each call hands it (ContainerArguments.h), kept
  // under the function that takes it, whatever closure reads it.
  OfParameter = true;
  if (T.parameterAt(Name, beginOf(Container)) >= 0)
    return &T;
  if (const PyTypes *Outer = T.closureScope(Name); Outer && Outer->parameterAt(Name, ~0u) >= 0)
    return Outer;
  OfParameter = false;
  return nullptr;
}

// The key every store goes to, and the one stores with no literal key go to.
const std::string AnyKey = "*", UnknownKey = "?";

} // namespace

bool overwrittenBefore(const PyTypes &T, TSNode Container, const std::string &Key, TSNode Use) {
  Container = unparen(Container);
  if (Key.empty() || !is(Container, "identifier"))
    return false;
  const PySource &S = *T.M.Src;
  std::string_view Name = S.text(Container);
  unsigned At = 0;
  if (bindingScope(T, Name, beginOf(Use), At) != &T)
    return false;
  // The binding of the literal itself ends where its statement does.
  TSNode Bound = T.boundExpr(Name, beginOf(Use));
  unsigned From = ts_node_is_null(Bound) ? 0 : endOf(Bound);
  auto encloses = [&](TSNode Block) {
    return beginOf(Block) <= beginOf(Use) && endOf(Use) <= endOf(Block);
  };
  bool Found = false;
  walk(T.F.body(), [&](TSNode N) {
    if (Found || beginOf(N) >= beginOf(Use))
      return false;
    if (endOf(N) <= From && !encloses(N))
      return false;
    bool Writes = false;
    if (is(N, "assignment")) {
      TSNode L = unparen(field(N, "left"));
      Writes = is(L, "subscript") && S.text(unparen(field(L, "value"))) == Name &&
               constantKey(T, field(L, "subscript")) == Key;
    } else if (is(N, "call")) {
      TSNode Fn = unparen(field(N, "function"));
      if (is(Fn, "attribute") && S.text(field(Fn, "attribute")) == "update" &&
          S.text(unparen(field(Fn, "object"))) == Name) {
        CallArgs A = argsOf(S, N);
        for (const auto &[K, V] : A.Keywords)
          Writes |= "'" + std::string(K) == Key;
        if (A.Positional.size() == 1)
          if (auto Entries = dictEntries(T, A.Positional[0]))
            for (const auto &[K, El] : *Entries)
              Writes |= K == Key;
      }
    }
    if (!Writes)
      return true;
    // Straight-line code before the use: the statement sits directly in a
    // block that holds the use, so it ran before it on every path.
    TSNode Stmt = N;
    while (!ts_node_is_null(parentOf(Stmt)) && !is(parentOf(Stmt), "block") &&
           !is(parentOf(Stmt), "module"))
      Stmt = parentOf(Stmt);
    TSNode Block = parentOf(Stmt);
    Found = !ts_node_is_null(Block) && encloses(Block) && beginOf(Stmt) >= From;
    return false;
  });
  return Found;
}

std::string constantKey(const PyTypes &T, TSNode K) {
  K = unparen(K);
  if (std::string Key = literalKey(*T.M.Src, K); !Key.empty() || !is(K, "identifier"))
    return Key;
  // A name bound once to a literal, here or in the module it is imported from.
  std::string_view Name = T.M.Src->text(K);
  unsigned At = 0;
  if (const PyTypes *Scope = bindingScope(T, Name, beginOf(K), At))
    return literalKey(*Scope->M.Src, Scope->boundExpr(Name, At));
  if (auto Global = T.importedGlobal(Name))
    return literalKey(*Global->first->M.Src, Global->first->boundExpr(Global->second, ~0u));
  return "";
}

std::string literalKey(const PySource &S, TSNode K) {
  K = unparen(K);
  if (ts_node_is_null(K))
    return "";
  if (auto I = literalIndex(S, K))
    return std::to_string(*I);
  if (!is(K, "string"))
    return "";
  for (TSNode C : namedChildren(K))
    if (is(C, "interpolation"))
      return "";
  std::string_view Text = S.text(K);
  size_t Q = Text.find_first_of("'\"");
  if (Q == std::string_view::npos)
    return "";
  std::string_view Prefix = Text.substr(0, Q);
  if (Prefix.find_first_of("bBfF") != std::string_view::npos)
    return "";
  Text.remove_prefix(Q);
  size_t Quote =
      Text.size() >= 6 && (Text.substr(0, 3) == "'''" || Text.substr(0, 3) == "\"\"\"") ? 3 : 1;
  if (Text.size() < 2 * Quote)
    return "";
  // An empty string stands apart from "no literal".
  std::string Inner(Text.substr(Quote, Text.size() - 2 * Quote));
  return "'" + Inner;
}

std::optional<std::vector<Element>> sequenceElements(const PyTypes &T, TSNode E) {
  return elementsAt(T, E, 0);
}

std::optional<std::vector<std::pair<std::string, Element>>> dictEntries(const PyTypes &T,
                                                                        TSNode E) {
  E = unparen(E);
  const PyTypes *Scope = &T;
  if (is(E, "identifier")) {
    std::string_view Text = T.M.Src->text(E);
    unsigned At = 0;
    Scope = bindingScope(T, Text, beginOf(E), At);
    if (!Scope)
      return std::nullopt;
    E = unparen(Scope->boundExpr(Text, At));
  }
  if (!is(E, "dictionary"))
    return std::nullopt;
  std::vector<std::pair<std::string, Element>> Out;
  for (TSNode Pair : namedChildren(E))
    if (is(Pair, "pair"))
      Out.push_back({literalKey(*Scope->M.Src, field(Pair, "key")), {Scope, field(Pair, "value")}});
  return Out;
}

const PyTypes *bindingScope(const PyTypes &T, std::string_view Name, unsigned Offset,
                            unsigned &At) {
  if (T.parameterAt(Name, Offset) >= 0)
    return nullptr;
  if (T.bindsHere(Name)) {
    At = Offset;
    return &T;
  }
  At = ~0u;
  if (const PyTypes *Outer = T.closureScope(Name))
    return Outer->parameterAt(Name, At) >= 0 ? nullptr : Outer;
  std::string Key(Name);
  if (T.M.Imports.count(Key) || T.M.Defs.count(Key))
    return nullptr;
  const PyTypes *Module = T.moduleScope();
  return Module && Module->bindsHere(Name) ? Module : nullptr;
}

namespace {

// The storage scopes of a container: a name's binding scope, or for
// `self.parts` (an attribute of an instance of a project class) the
// classes whose instances hold it. A store goes under the storing class,
// and under each of its bases as a subclass's store; a load looks under the
// class and its ancestors and at its subclasses' stores, as attribute
// stores do (a base's forward looping over the layers a subclass's
// `_init_layers` appends), never at a sibling's.
std::vector<std::string> containerScopes(const PyTypes &T, TSNode Container, bool Load,
                                         std::string &Name, bool &OfParameter) {
  Container = unparen(Container);
  OfParameter = false;
  if (is(Container, "attribute")) {
    TSNode Obj = unparen(field(Container, "object"));
    std::vector<std::string> Classes;
    if (T.isSelf(Obj)) {
      Classes = {T.selfClass()};
    } else if (Value V = T.valueOf(Obj); V.K == VK::Instance && !V.Many) {
      for (auto &C : V.classes())
        if (T.P.classNamed(C))
          Classes.push_back(std::move(C));
    }
    Name = std::string(T.M.Src->text(field(Container, "attribute")));
    std::vector<std::string> Out;
    for (const auto &C : Classes) {
      for (const auto &A : T.P.ancestors(C))
        if (Load || A == C)
          Out.push_back("attr:" + A);
        else
          Out.push_back("attr-sub:" + A);
      if (Load)
        Out.push_back("attr-sub:" + C);
    }
    return Out;
  }
  if (const PyTypes *Scope = containerScope(T, Container, Name, OfParameter))
    return {Scope->F.QualName};
  return {};
}

} // namespace

std::vector<std::string> itemStoreKeys(const PyTypes &T, TSNode Container, const std::string &Key) {
  std::string Name;
  bool OfParameter = false;
  std::vector<std::string> Out;
  for (const auto &Q : containerScopes(T, Container, false, Name, OfParameter)) {
    Out.push_back(itemKey(Q, Name, Key.empty() ? UnknownKey : Key));
    Out.push_back(itemKey(Q, Name, AnyKey));
  }
  return Out;
}

std::string parameterItemKey(const std::string &Function, std::string_view Param) {
  return itemKey(Function, Param, AnyKey);
}

std::vector<std::string> itemLoadKeys(const PyTypes &T, TSNode Container, const std::string &Key) {
  std::string Name;
  bool OfParameter = false;
  std::vector<std::string> Out;
  for (const auto &Q : containerScopes(T, Container, true, Name, OfParameter)) {
    if (Key.empty() || OfParameter) {
      Out.push_back(itemKey(Q, Name, AnyKey));
    } else {
      Out.push_back(itemKey(Q, Name, Key));
      Out.push_back(itemKey(Q, Name, UnknownKey));
    }
  }
  return Out;
}

} // namespace graphsafe::lint::py
