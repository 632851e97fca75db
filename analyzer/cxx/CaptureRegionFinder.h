// Finds where capture happens in each function: begin/end pairs on the same
// graph or stream, RAII capture scopes, and calls of functions that leave a
// capture open (or close one their caller opened), within a translation unit.
#pragma once

#include "CallMatcher.h"
#include "FunctionContext.h"
#include "graphsafe/Rule.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <vector>

namespace graphsafe::lint {

class CaptureRegionFinder {
public:
  CaptureRegionFinder(const CaptureSpec &Spec, clang::ASTContext &Ctx);

  // Records begin/end events of every function, then propagates the effect of
  // functions that open or close a capture to their callers.
  void analyze(const std::vector<const clang::FunctionDecl *> &Functions);

  // Fills the context's events, regions, guarded ranges and entry-point flag.
  void populate(FunctionContext &Ctx) const;

  // Whether F returns with a capture open, and whether it ends one its caller
  // began (directly or through callees in this TU).
  std::pair<bool, bool> opensCloses(const clang::FunctionDecl *F) const;

  // For calls of capture helpers: the index of the argument run under capture.
  std::optional<unsigned> helperArg(const clang::CallExpr *C) const;

private:
  struct Effect {
    std::vector<std::string> Opens, Closes;
    bool operator==(const Effect &O) const { return Opens == O.Opens && Closes == O.Closes; }
  };
  struct ScopedRange {
    unsigned Begin, End;
    const clang::Stmt *Decl;
  };

  void collect(const clang::FunctionDecl *F);
  std::vector<CaptureEvent> eventsWithCallees(const clang::FunctionDecl *F) const;
  Effect effectOf(const clang::Stmt *Body, const std::vector<CaptureEvent> &Events) const;
  // Where the branch holding End begins, when End and Other sit in opposite
  // branches of one if or conditional (`if (ok) end(s); else
  // endOnError(s);`): at most one of them runs.
  std::optional<unsigned> otherBranchStart(const clang::Stmt *Body, const clang::Stmt *End,
                                           const clang::Stmt *Other) const;
  // For an end that finds no begin open, the begin an earlier end in an
  // opposite branch closed, and where this end's branch begins.
  struct AlternativeEnd {
    const CaptureEvent *Begin;
    unsigned BranchStart;
  };
  std::optional<AlternativeEnd> alternativeEnd(
      const clang::Stmt *Body, const CaptureEvent &End,
      const std::vector<std::pair<const CaptureEvent *, const CaptureEvent *>> &Closed) const;
  // One end and the begin it closes (null: begun in a caller), with where
  // its branch starts when it is the alternative end of a begin another
  // branch ended; or a begin left open (End null).
  struct Pairing {
    const CaptureEvent *Begin;
    const CaptureEvent *End;
    std::optional<unsigned> From;
  };
  // Ends paired in order with the innermost open begin of their key, else the
  // innermost open one; then the begins left open. The one reading of a
  // function's events that its summary (effectOf) and its regions share.
  std::vector<Pairing> pairEvents(const clang::Stmt *Body,
                                  const std::vector<CaptureEvent> &Events) const;
  std::string keyOf(const clang::Expr *E) const;

  const CaptureSpec &Spec;
  clang::ASTContext &Ctx;
  std::vector<CallMatcher> BeginMatchers, EndMatchers;
  // A class whose constructor begins a capture and whose destructor ends it:
  // an RAII capture guard, whose scope is the region (cached per class).
  bool isCaptureGuard(const clang::CXXRecordDecl *R);
  std::map<const clang::CXXRecordDecl *, bool> GuardClasses;
  std::map<const clang::FunctionDecl *, std::vector<CaptureEvent>> Own;
  std::map<const clang::FunctionDecl *, std::vector<std::pair<unsigned, const clang::Stmt *>>>
      CallsOf;
  std::map<const clang::FunctionDecl *, std::vector<ScopedRange>> Scoped;
  std::map<const clang::FunctionDecl *, Effect> Effects;
};

// Ranges of a body that run only when the current stream is not capturing,
// judged from tests of the capture-status queries named in the spec.
std::vector<std::pair<unsigned, unsigned>>
findGuardedRanges(const clang::FunctionDecl *F, const CaptureSpec &Spec, clang::ASTContext &Ctx);

} // namespace graphsafe::lint
