// Loads graphcheck's allocator tracker into the program once PyTorch's CUDA
// allocator exists, without any change to the program: Python scripts and
// libtorch binaries alike.
#pragma once

namespace graphsafe::inject {

// Called at each capture begin (the earliest point where graphs matter and
// libc10_cuda.so is loaded with its allocator initialised); acts once. In a
// process without libtorch, with a build that has no tracker, or with a
// libtorch the tracker was not built for, it says so once and graphcheck
// tracks whole cudaMalloc segments only.
void attachAllocatorTrackerOnce();

} // namespace graphsafe::inject
