// Kernel parameter sizes read from a loaded cubin (the ELF CUPTI hands over
// when a module loads): each kernel's `.nv.info.<name>` section lists its
// parameters (EIATTR_KPARAM_INFO). This is how launches are scanned when no
// CUfunction can be had for them: kernels of libraries that carry a private,
// unexported CUDA runtime (cuBLAS), named only by CUPTI's symbol name.
// Plain C++: no CUDA needed, so it is tested on any machine.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace graphsafe::inject {

// Kernel name -> parameter sizes in ordinal order. Empty for data that is not
// a well-formed 64-bit ELF; sections that do not parse are skipped.
std::map<std::string, std::vector<size_t>> readCubinParamSizes(const char *Data, size_t Size);

} // namespace graphsafe::inject
