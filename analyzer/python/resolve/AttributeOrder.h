// Attribute stores in program order inside one function. Attribute storage
// is otherwise joined over the whole program, which turns the common
// `x.f = wrap(x.f)` into a wrapper that calls itself: the read hands `wrap`
// the value the same statement stores. A function that reads an attribute
// and only later (outside any loop) assigns it keeps its own stores apart,
// and its earlier reads see every store but those.
#pragma once

#include "../PyTypes.h"
#include "Summary.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace graphsafe::lint::py {

// Where each of T's function's assignments of an attribute named Attr takes
// effect, in order, when it reads one before some of them and no loop of the
// function holds an assignment of it; else null. A read sees the function's
// own stores that take effect before it, and every other function's.
const std::vector<unsigned> *storesAfterRead(const PyTypes &T, std::string_view Attr);
// The name the Index-th of those stores is kept under (ownStoreKey).
std::string ownStoreName(const PyTypes &T, unsigned Index);

} // namespace graphsafe::lint::py
