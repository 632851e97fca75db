// Host stack frames as the trace carries them: "path:line function".
#pragma once

#include "graphsafe/Finding.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace graphsafe::rt {

// The source location of the innermost frame.
inline SourceLoc frameLoc(const std::vector<std::string> &Stack) {
  SourceLoc L;
  if (Stack.empty())
    return L;
  const std::string &F = Stack.front();
  size_t Colon = F.rfind(':', F.find(' '));
  if (Colon != std::string::npos) {
    L.File = F.substr(0, Colon);
    L.Line = static_cast<unsigned>(std::atoi(F.c_str() + Colon + 1));
  }
  return L;
}

// Headers of the libraries a program calls into, inlined into its own
// frames: a line there says nothing about the program's mistake.
inline bool isLibraryHeader(const std::string &File) {
  for (const char *Dir : {"/site-packages/torch/", "/include/c10/", "/include/ATen/",
                          "/include/torch/", "/usr/include/", "/include/c++/"})
    if (File.find(Dir) != std::string::npos)
      return true;
  return false;
}

// The innermost frame with a line in the program's own code.
inline SourceLoc firstLocated(const std::vector<std::string> &Stack) {
  for (const auto &Frame : Stack)
    if (SourceLoc L = frameLoc({Frame}); L.valid() && !isLibraryHeader(L.File))
      return L;
  return {};
}

} // namespace graphsafe::rt
