// The host stack that made a CUDA call, for findings that blame a line:
// Python frames (file:line function) when the process embeds Python, native
// frames otherwise. Native frames are written as
// "native:MODULE+0xOFFSET SYMBOL" and `graphcheck` symbolizes them to
// file:line after the run, so nothing slow happens inside the program.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <dlfcn.h>

namespace graphsafe::inject {

// Python frames outside torch, innermost first; empty without Python. Takes
// the GIL, so only for rare events (calls made while capturing).
nlohmann::json pythonStack();

// The same, but only when this thread already holds the GIL (else empty):
// for callers that must never wait for it, such as PyTorch's allocator
// callbacks, which run under the allocator's lock.
nlohmann::json pythonStackIfHeld();
// "held", "released" (this thread runs Python but let the GIL go) or "none".
const char *gilState();

// This thread's Python frames when it let the GIL go on the way here, as
// PyTorch does before it frees a tensor's storage; empty otherwise, or when
// they could not be read within Wait. Safe under the allocator's lock: the
// GIL is taken by a helper thread, never by this one, and this one waits for
// it a bounded time (its GIL holder may itself be waiting for that lock).
nlohmann::json pythonStackOfReleasedThread(std::chrono::milliseconds Wait);

// Whether the process runs Python (the interpreter is initialized).
bool pythonRunning();

// A CPython entry point of this process, or null without Python (graphcheck
// does not link libpython: it reads whichever interpreter the program runs).
template <typename Fn> Fn pythonSymbol(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, Name));
}

// Python frames from Frame outward (Frame a new reference when FrameOwned),
// outside torch and graphcheck's shim, innermost first. The GIL must be held.
nlohmann::json pythonFramesFrom(void *Frame, bool FrameOwned);

// Native frames outside the CUDA libraries and graphcheck, innermost first.
nlohmann::json nativeStack();

// The Python stack when there is one, else the native stack.
nlohmann::json callerStack();

// For frequent events: the native stack in a process without Python, else
// nothing (the Python shim reports those sites itself, without taking the GIL
// from inside a CUDA call).
nlohmann::json nativeStackUnlessPython();

} // namespace graphsafe::inject
