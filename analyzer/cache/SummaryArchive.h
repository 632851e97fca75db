// How the summaries go into a binary cache entry (BinaryArchive.h): every
// member, in order. A member added to a struct in Summary.h or Finding.h
// must be added here, or the cache loses it (PythonCacheTest compares
// reports with and without the cache).
#pragma once

#include "Summary.h"

namespace graphsafe {

template <class A> void serialize(A &Ar, SourceLoc &L) { Ar(L.File, L.Line, L.Column); }
template <class A> void serialize(A &Ar, Note &N) { Ar(N.Message, N.Loc); }
template <class A> void serialize(A &Ar, FixIt &F) { Ar(F.Begin, F.End, F.Replacement); }
template <class A> void serialize(A &Ar, ToolError &E) { Ar(E.Where, E.Message); }

namespace lint {

template <class A> void serialize(A &Ar, ConstArg &C) {
  Ar(C.Index, C.Truthy, C.IsNone, C.From, C.Global, C.Attr, C.FromAttr, C.TruthKnown, C.NoneKnown,
     C.IfKwargsEmpty, C.TextKnown, C.Text);
}
template <class A> void serialize(A &Ar, ParamTest &T) { Ar(T.Index, T.K, T.Global, T.Attr, T.Text); }
template <class A> void serialize(A &Ar, Site &S) {
  Ar(S.RuleId, S.Message, S.Loc, S.Context, S.RegionBegin, S.FixIts, S.Notes, S.Fix, S.When,
     S.EnvGate);
}
template <class A> void serialize(A &Ar, CallEdge &E) {
  Ar(E.CalleeUsr, E.CalleeName, E.Loc, E.Context, E.RegionBegin, E.Exact, E.Dynamic, E.SelfMethod,
     E.Receiver, E.When, E.Constants, E.EnvGate, E.Positional, E.Mechanism, E.HandedOn, E.Binds,
     E.ReceiverParam, E.ParamMethod, E.ReceiverAttr, E.Opaque, E.PureVirtual, E.EffectSeen,
     E.Keywords, E.LeadingArgs, E.KeywordSplat);
}
template <class A> void serialize(A &Ar, ClassSummary &C) { Ar(C.Key, C.Bases, C.Methods); }
template <class A> void serialize(A &Ar, FunctionSummary &F) {
  Ar(F.Usr, F.Name, F.Loc, F.IsEntryPoint, F.OpensCapture, F.ClosesCapture, F.Overrides, F.MinArgs,
     F.MaxArgs, F.ParamNames, F.ParamDefaults, F.TakesKwargs, F.Sites, F.Calls, F.ReturnBranches);
}
template <class A> void serialize(A &Ar, TUSummary &S) {
  Ar(S.File, S.Functions, S.CallableStores, S.ThreadEntries, S.GlobalCapture, S.AnyCapture,
     S.Classes, S.ImportedFiles, S.BuiltClasses);
}

} // namespace lint
} // namespace graphsafe
