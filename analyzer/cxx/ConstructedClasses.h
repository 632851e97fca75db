// What rapid type analysis of virtual calls needs from one translation unit:
// the polymorphic classes whose complete objects its code makes (a
// constructor call, `new`, std::make_shared / make_unique /
// c10::make_intrusive), and the polymorphic classes it defines with their
// bases and virtual methods. An override runs only on objects of its class
// or of a subclass that inherits it; if the program makes none, the call
// does not reach it.
#pragma once

#include "Summary.h"

#include "clang/AST/Decl.h"

#include <functional>
#include <string>
#include <vector>

namespace graphsafe::lint {

void collectClassFacts(const std::vector<const clang::FunctionDecl *> &Functions,
                       const std::vector<const clang::VarDecl *> &Globals,
                       const std::function<std::string(const clang::Decl *)> &UsrOf,
                       TUSummary &Out);

} // namespace graphsafe::lint
