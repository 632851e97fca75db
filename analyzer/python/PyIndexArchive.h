// A module's index (what it defines and imports, no syntax tree) and its
// share of the learned parameter tables, as the Python result cache keeps
// them (cache/BinaryArchive.h): an unchanged module is linked into the
// program without being parsed.
#pragma once

#include "PyModule.h"

#include <llvm/ADT/StringRef.h>

#include <string>

namespace graphsafe::lint::py {

template <class A> void serialize(A &Ar, PyFunctionDef &F) {
  Ar(F.QualName, F.Name, F.ClassQName, F.IsModuleBody, F.IsLambda, F.ReturnsBuilt, F.ReturnsParams,
     F.Returns, F.ReturnsElementsBuilt, F.ReturnsKeptParams, F.ReturnsElementsParams,
     F.ReturnsRebuiltParams, F.ItemParams, F.KeptBy, F.ReturnsCalls, F.ReturnsClassObjects,
     F.ReturnsElementClassObjects, F.Decorators, F.PlainDecorator, F.MentionsCapture,
     F.MentionsDevice, F.MayGetGlobal, F.NoSelf);
}
template <class A> void serialize(A &Ar, PyClassDef &C) {
  Ar(C.QualName, C.Bases, C.Methods, C.AssignedAttrs, C.StoresBy, C.SelfCallsBy, C.ClassLevelNames);
}
template <class A> void serialize(A &Ar, PyLearned &L) {
  Ar(L.Graphed, L.GraphedParams, L.TensorParams, L.Classes, L.SuperClasses, L.ClassObjects,
     L.ElementClasses, L.InexactElementClasses, L.InexactClasses, L.HandsOn, L.Built,
     L.TensorLearningRates, L.BuiltIn, L.Swaps, L.SwappedClasses);
}

// The index as indexModule left it, before PyProgram::link qualified it.
std::string packIndex(const PyModuleInfo &M);
// Fills M's index from Bytes (M's names and paths are already set); false
// when they are not an index this build packed.
bool unpackIndex(llvm::StringRef Bytes, PyModuleInfo &M);
// A digest of what other modules can see of M without its tree: every name
// it defines, imports and derives from, before linking. Lambdas are left
// out: they are named by where they start, which any edit above them moves,
// and only a read of M's own code can reach one.
std::string interfaceHash(const PyModuleInfo &M);
// A digest of the program's learned tables, as merged.
std::string learnedHash(const PyProgram &P);

} // namespace graphsafe::lint::py
