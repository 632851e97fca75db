// What PyTorch's own declarations say its functions and Tensor methods
// return, from data/torch-returns.tsv (scripts/gen-torch-returns.py reads it
// off an installed PyTorch's type stubs and annotations).
#pragma once

#include <optional>
#include <string_view>

namespace graphsafe::lint::py {

enum class TorchKind { Tensor, Host, Stream, Event, Generator, Other };

// The kind `torch.x.y(...)` returns, or nothing when PyTorch does not declare it.
std::optional<TorchKind> torchReturnKind(std::string_view QualName);
// The kind `tensor.method(...)` returns, or nothing when undeclared.
std::optional<TorchKind> tensorMethodKind(std::string_view Method);
// nn.Module's chainable set-up methods (`.to(device)`, `.eval()`), which
// return the module itself.
bool moduleReturnsItself(std::string_view Method);

} // namespace graphsafe::lint::py
