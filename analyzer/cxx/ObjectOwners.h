// Whose object a store changes, and whose objects a call hands on. A field
// written through `this`, or anything written through a reference or pointer
// parameter, belongs to the caller: it outlives the capture only where the
// caller's object does. Helper objects made on a kernel's stack
// (`CudaAsyncBuffer<T> buf(this, n); buf.CopyToGpu()`) and sizes handed back
// through `size_t&` are the caller's locals, gone when the call returns; a
// replay dropping their update loses nothing (see Summary.h: OutlivesCall).
#pragma once

#include "Summary.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <vector>

namespace graphsafe::lint {

struct ObjectOwner {
  enum Kind {
    Unknown, // A global, a static, a heap object, or not worked out.
    Local,   // A local of Fn's own frame, a by-value parameter, a temporary.
    Param,   // What parameter Index (ObjectParam: `this`) refers to.
  } K = Unknown;
  unsigned Index = 0;
};

// The owner of the object an lvalue designates in Fn.
ObjectOwner ownerOfObject(const clang::Expr *E, const clang::FunctionDecl *Fn);

// The test a site storing into Target carries: the parameter whose object it
// changes must outlive the call. None when the store changes state of its own
// (a global, a static, a heap object) or Fn's locals.
std::optional<ParamTest> outlivesCallTest(const clang::Expr *Target, const clang::FunctionDecl *Fn);

// What a call tells the callee about the objects it hands on for the
// implicit object and for reference and pointer parameters to non-const:
// a local of the caller's frame, or what the caller was itself handed. In a
// capture region of the caller's own (beginning at RegionBegin), its locals
// made before the region are its state, not a frame's.
std::vector<ConstArg> objectArguments(const clang::CallExpr *C, const clang::FunctionDecl *Callee,
                                      const clang::FunctionDecl *Caller,
                                      const clang::SourceManager &SM,
                                      std::optional<unsigned> RegionBegin);

} // namespace graphsafe::lint
