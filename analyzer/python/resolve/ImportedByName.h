// Classes a program imports by name at run time, the way model registries
// load them: `getattr(importlib.import_module(f"serve.models.{module}"),
// cls_name)` with both names taken from a table of string pairs. The index
// keeps such a lookup as a spelling (PyModule.h, ImportedClasses); the
// classes it may give are read off the program when a caller asks.
#pragma once

#include "../PyParser.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace graphsafe::lint::py {

class PyProgram;
struct PyTypeCache;
struct PyModuleInfo;

// `getattr(Module, Name)` where Module is `importlib.import_module(...)` of
// a literal module name, or of an f-string or `+` whose literal part ends
// with a dot (a package's modules): the ImportedClasses spelling of the
// lookup, with the names the class may have (Name's literal, else every
// name-like string literal of S's module, the registry's table among
// them). Nothing for any other lookup.
std::optional<std::string> importedClassSpelling(const PySource &S, TSNode Module, TSNode Name);

// The project classes an ImportedClasses spelling (its prefix taken off)
// may give: those it names that a module directly in its package (or its
// one module) defines. RootPrefix is that of the module spelling it: a
// copy of a package analysed beside another of the same name imports its
// own modules (PyModuleInfo::RootPrefix). Kept in Cache per spelling.
const std::vector<std::string> &importedClasses(const PyProgram &P, PyTypeCache &Cache,
                                                std::string_view Spec,
                                                const std::string &RootPrefix);

// `globals()[name]`, `globals().get(name)`: the module's own namespace looked
// up by a name known at run time (a training script's
// `globals()[args.model]`, a runner's `globals().get(spec.class_name)`):
// the project classes M binds at top level, defined or imported. When string
// literals of M or of project modules it imports (a registry's table,
// argparse's choices) name some of them, those alone. Kept in Cache per module.
const std::vector<std::string> &namespaceClasses(const PyProgram &P, PyTypeCache &Cache,
                                                 const PyModuleInfo &M);

} // namespace graphsafe::lint::py
