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

namespace graphsafe::lint::py {

// Where T's function first assigns an attribute named Attr, when it reads
// one before that and no loop of the function holds an assignment of it.
std::optional<unsigned> storeAfterRead(const PyTypes &T, std::string_view Attr);

} // namespace graphsafe::lint::py
