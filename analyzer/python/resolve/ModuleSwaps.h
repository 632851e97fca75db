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

// The caller-side index of the parameter whose submodule Call replaces by a
// computed name: `setattr(cur, key, m)` or `cur.add_module(key, m)` with
// `cur` the parameter or walked down from it by getattr and items, `key`
// no string or name of one, and `m` handed in or built there (no tensor,
// nn.Parameter, function, or the same object moved); else -1.
int swappedParameter(const PyTypes &T, TSNode Call);

// After learning: the classes of the objects the swappers
// (PyLearned::Swaps) are handed, as the learning rounds followed them through
// the functions that hand them on, and the classes of those objects'
// attributes, their attributes', and so on. Sets P.Learned.SwappedClasses.
void learnSwappedClasses(PyProgram &P);

// For a call in a method of a class whose submodules are swapped, through
// one of self's attributes (`self.mlp(x)`, `self.layers[i].attn(x)`, a
// local taken from them): the clause a finding reached through it carries
// (GateClause first); else "".
std::string swapGate(const PyTypes &T, TSNode Call);

} // namespace graphsafe::lint::py
