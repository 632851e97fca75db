// What lists, tuples and dicts hold, for calls through their elements
// (`handlers[0](x)`, `table["relu"](x)`, `for f in hooks: f()`): the
// literal a name is bound to, indexed by a literal where one is written, and
// what the program puts into it later (`d[k] = f`, `ls.append(f)`,
// `d.update(...)`), kept under item storage keys that the call graph joins
// like any other storage.
#pragma once

#include "../PyTypes.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphsafe::lint::py {

// An expression and the analysis of the scope it is written in.
struct Element {
  const PyTypes *Scope = nullptr;
  TSNode Node{};
};

// The elements of a list or tuple E spells: a literal, a name bound to one
// (or to part of one, by a starred target), a literal index or slice of
// one. Nothing when they are not known.
std::optional<std::vector<Element>> sequenceElements(const PyTypes &T, TSNode E);

// The entries of a dict E spells (a literal, or a name bound to one), each
// with its literal key ("" where the key is no literal).
std::optional<std::vector<std::pair<std::string, Element>>> dictEntries(const PyTypes &T, TSNode E);

// The key a literal spells, as subscripts and dict entries compare it: a
// string's contents, an integer as written; "" for anything else.
std::string literalKey(const PySource &S, TSNode K);
// The same, also for a name bound to a literal (`key = 1`, or imported
// from a module that binds it so).
std::string constantKey(const PyTypes &T, TSNode K);

// Where the name Name used in T at Offset is bound: T itself, the function
// around it, or the module's top level (with the offset to look it up at).
// Null for parameters, imports, definitions and unknown names.
const PyTypes *bindingScope(const PyTypes &T, std::string_view Name, unsigned Offset, unsigned &At);

// Whether Container[Key] was written (`d[k] = f`, `d.update(k=f)`) after
// the literal Container is bound to and before Use, on every path there:
// the literal's entry for Key is no longer what Use reads.
bool overwrittenBefore(const PyTypes &T, TSNode Container, const std::string &Key, TSNode Use);

// The storage keys a store into Container[Key] goes to (Key "" when not a
// literal), and those a load of Container[Key] reads; none when Container
// is not a name of a known scope.
std::vector<std::string> itemStoreKeys(const PyTypes &T, TSNode Container, const std::string &Key);
std::vector<std::string> itemLoadKeys(const PyTypes &T, TSNode Container, const std::string &Key);
// The one key the items of the parameter (or `*args`) Param of Function are
// stored and read under: what its callers hand it has no literal keys.
std::string parameterItemKey(const std::string &Function, std::string_view Param);

} // namespace graphsafe::lint::py
