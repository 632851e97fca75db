// Code that cannot run in a process that captures CUDA graphs, on a CUDA
// build of torch or a ROCm one: a branch
// taken only where another accelerator is the device (`if
// torch.npu.is_available():`, a module flag set from such a test, a project
// helper returning one) or only where CUDA is missing (the else of `if
// torch.cuda.is_available():`). What it stores and calls is no part of the
// program any capture runs in.
#pragma once

#include "PyTypes.h"

namespace graphsafe::lint::py {

// Whether N, in T's function, sits in such a branch.
bool offPlatform(const PyTypes &T, TSNode N);

} // namespace graphsafe::lint::py
