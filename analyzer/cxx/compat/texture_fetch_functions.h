// Clang 19's CUDA wrapper includes this header, which CUDA 12.8+ no longer ships.
// The texture fetch functions it declared are not needed for host-side analysis.
#pragma once
