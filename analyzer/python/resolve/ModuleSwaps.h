// Submodules swapped by computed names. Kernel-injection frameworks and
// quantizers build a model and then replace parts of it by name
// (`setattr(parent, key, new_module)` over a dotted key read from a rule
// file), with classes that no assignment in the code names. What the model's
// classes call through their submodule attributes is then true only of the
// model as its constructors built it: the walk says so as a note (a gate on
// the call, as for code the environment turns on), unless something reaches
// the same code otherwise.
#pragma once

#include "../PyTypes.h"

#include <string>

namespace graphsafe::lint::py {

// The caller-side index of the parameter whose object Call replaces an
// attribute of by a computed name (`setattr(cur, key, m)` with `cur` walked
// from the parameter by getattr, `parent.add_module(name, m)`), when the
// value set is no tensor, literal or None; else -1.
int swappedParameter(const PyTypes &T, TSNode Call);

// After learning: the functions that swap attributes of a parameter,
// directly (PyLearned::Swaps) or by handing it to one that does; the
// classes of the objects handed to them from elsewhere; and the classes of
// those objects' attributes, their attributes', and so on. Sets
// P.Learned.SwappedClasses.
void learnSwappedClasses(PyProgram &P);

// For a call in a method of a class whose submodules are swapped, through
// one of self's attributes (`self.mlp(x)`, `self.layers[i].attn(x)`, a
// local taken from them): the clause a finding reached through it carries
// (GateClause first); else "".
std::string swapGate(const PyTypes &T, TSNode Call);

} // namespace graphsafe::lint::py
