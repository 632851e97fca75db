// Preambles are built where they cost the user nothing: after the report is
// written, by a detached graphlint process of low priority. The run that
// found a file's preamble missing parses the file whole, as a run without a
// cache would; the next run finds the preamble built.
#pragma once

#include "Driver.h"

#include <string>
#include <vector>

namespace graphsafe::lint {

// Starts `graphlint <the same options> --build-preambles-for FILE...` in its
// own session, its output discarded, and returns at once. Nothing when Files
// is empty or the environment says it is a CI job (CI set, as GitHub
// Actions, GitLab CI and most others set it).
// It starts in StartDir, where the run began, so the options' relative paths
// mean what they meant (the analysis moves the working directory).
void startPreambleBuilder(const Options &Opts, const std::string &StartDir,
                          const std::vector<std::string> &Files);

} // namespace graphsafe::lint
