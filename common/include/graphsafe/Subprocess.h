// Runs helper programs (addr2line, graphviz's dot) with an argument vector,
// never through a shell: module paths, offsets and graph names come from a
// trace file, and nothing in a trace may run a command.
#pragma once

#include <string>
#include <vector>

namespace graphsafe {

// Runs Argv[0] (searched on PATH) with Argv; returns its exit status, or -1
// when it could not be started or was killed. Its stdout is kept in Stdout
// when given; stderr is discarded.
int runProgram(const std::vector<std::string> &Argv, std::string *Stdout = nullptr);

// Whether Program is an executable file on PATH.
bool onPath(const std::string &Program);

} // namespace graphsafe
