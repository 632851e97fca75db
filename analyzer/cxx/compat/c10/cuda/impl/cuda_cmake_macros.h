// Stand-in for the header a CUDA build of PyTorch generates at configure time.
// Only used when the real one is absent (it is searched after every other
// include directory), so libtorch code parses with CPU-only distributions.
#pragma once
