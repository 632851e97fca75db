// What the checks see of one function: its body, the capture regions and
// guarded ranges found in it, and a way to report sites with their context.
#pragma once

#include "EnvGates.h"
#include "NotCapturedPaths.h"
#include "ParamGates.h"
#include "Summary.h"
#include "graphsafe/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace graphsafe::lint {

// A capture begin or end seen in a body, in source order.
struct CaptureEvent {
  enum Kind { Begin, End, Reset } K;
  unsigned Offset;
  const clang::Stmt *Call;             // The begin/end call, or the call of an opener/closer.
  std::string Key;                     // Graph object or stream the event applies to.
  const clang::Expr *Stream = nullptr; // Stream argument of stream-capture calls.
  bool ViaCallee = false;              // Comes from a function that opens/closes capture.
  bool Relaxed = false;                // Begun in relaxed mode.
  bool ThreadLocal = false;            // Begun in thread-local mode (neither: global).
  // A begin whose mode is this parameter of its function (`void
  // begin_capture(cudaStreamCaptureMode m)`): its callers choose the mode, and
  // their calls of it carry ModeChosen with the mode they pass.
  int ModeParam = -1;
  bool ModeChosen = false;
  // A begin in the opposite branch of an if or a `?:` from an earlier begin
  // (`if (relaxed) begin(s, Relaxed); else begin(s, ThreadLocal);`): at most
  // one of them runs, so it begins the same capture, not a nested one.
  bool Alternative = false;
};

struct Region {
  unsigned Begin = 0, End = 0; // File offsets, [Begin, End).
  SourceLoc BeginLoc;
  const CaptureEvent *BeginEvent = nullptr; // Null when begun in a caller.
  const CaptureEvent *EndEvent = nullptr;   // Null when ended in a caller.
  // Begun here and left open for the caller, or ended here after a caller
  // began it: the body of a begin/end wrapper, whose host bookkeeping and
  // logging run once per capture by design.
  bool Mechanism = false;
};

class FunctionContext {
public:
  FunctionContext(const clang::FunctionDecl *Fn, clang::ASTContext &Ctx,
                  const std::map<std::string, const Rule *> &CheckRules, FunctionSummary &Out)
      : Fn(Fn), Ctx(Ctx), CheckRules(CheckRules), Out(Out) {}

  const clang::FunctionDecl *function() const { return Fn; }
  const clang::Stmt *body() const { return Fn->getBody(); }
  clang::ASTContext &ast() const { return Ctx; }
  const clang::SourceManager &sm() const { return Ctx.getSourceManager(); }

  CaptureContext contextAt(clang::SourceLocation L, SourceLoc *RegionBegin = nullptr) const;
  const Region *regionAt(clang::SourceLocation L) const;
  // Inside the capture mechanism's own region (a begin or end wrapper's body).
  bool inMechanism(clang::SourceLocation L) const {
    const Region *In = regionAt(L);
    return In && In->Mechanism;
  }
  bool inCapture(clang::SourceLocation L) const {
    auto C = contextAt(L);
    return C == CaptureContext::InRegion || C == CaptureContext::Ambient;
  }

  // Reports a site for the rule with this id; Callee fills {callee} in the message.
  void report(const Rule &R, clang::SourceLocation L, const std::string &Callee,
              std::vector<FixIt> FixIts = {}, std::vector<Note> Notes = {},
              std::vector<ParamTest> Also = {});
  // Reports for the rule that enables the named family check, if one is loaded.
  // Also: further tests of the parameters the site runs only under (whose
  // object it changes, ObjectOwners.h).
  void reportCheck(const std::string &CheckName, clang::SourceLocation L, const std::string &Detail,
                   std::vector<Note> Notes = {}, std::vector<ParamTest> Also = {});
  bool checkEnabled(const std::string &CheckName) const { return CheckRules.count(CheckName); }
  // The environment variable code at L runs only when set, or "".
  std::string envGateAt(clang::SourceLocation L) const;
  // The tests of this function's parameters code at L runs under.
  std::vector<ParamTest> testsAt(clang::SourceLocation L) const;

  std::vector<Region> Regions;
  std::vector<CaptureEvent> Events;
  std::vector<std::pair<unsigned, unsigned>> Guarded;
  // Branches that exit or throw, and run-once set-up: code that does not run
  // in a capture that succeeds (NotCapturedPaths.h).
  std::vector<SpelledRange> NotCaptured;
  std::vector<EnvGatedRange> EnvGated;
  // The parameters only read here, and the ranges tests of them gate.
  std::set<const clang::ParmVarDecl *> FixedParams;
  std::vector<ParamGatedRange> ParamGated;
  bool IsEntryPoint = false;
  const CaptureSpec *Spec = nullptr;

private:
  const clang::FunctionDecl *Fn;
  clang::ASTContext &Ctx;
  const std::map<std::string, const Rule *> &CheckRules;
  FunctionSummary &Out;
};

// Visits S and everything below it in source order, but not the bodies of
// lambdas: those are functions of their own, reached through call edges.
void walkBody(const clang::Stmt *S, const std::function<void(const clang::Stmt *)> &Fn);

// The stretches of a body that run only when an `if` test went one way: its
// then-branch (Holds true), its else-branch (Holds false) and the rest of a
// block after `if (cond) return;` or another branch that leaves the function
// (Holds false). Visit returning true skips the later early returns of that
// block.
void forEachTestedRange(
    const clang::Stmt *Body,
    const std::function<bool(const clang::IfStmt *If, clang::SourceLocation Begin,
                             clang::SourceLocation End, bool Holds)> &Visit);

// Like walkBody, and also passes the file offset where the innermost enclosing
// block ends: the end of the scope of a declaration seen at S (RAII guards).
void walkBodyWithScopes(const clang::Stmt *S, const clang::SourceManager &SM,
                        const std::function<void(const clang::Stmt *, unsigned ScopeEnd)> &Fn);

} // namespace graphsafe::lint
