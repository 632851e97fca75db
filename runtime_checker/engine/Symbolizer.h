// Turns the native frames the injection library records
// ("native:MODULE+0xOFFSET SYMBOL") into "file:line function" after the run,
// with one addr2line per module, so the program never waits on symbolization.
// Frames it cannot resolve (no debug info, no addr2line) keep module+offset
// and the symbol name.
#pragma once

#include "Events.h"

#include <vector>

namespace graphsafe::rt {

void symbolizeNativeFrames(std::vector<Event> &Events);

} // namespace graphsafe::rt
