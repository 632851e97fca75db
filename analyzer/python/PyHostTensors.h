// Tensors made on the host. Reading one on the host (`.item()`, `.tolist()`,
// `.nonzero()`) needs no GPU: `torch.tensor(shape).prod().item()` under
// capture is no sync. Only what the text shows is counted: a factory with no
// device and host data, and what tensor code makes of such tensors alone.
#pragma once

#include "PyTypes.h"

namespace graphsafe::lint::py {

// Whether E's value is a tensor made on the host: a torch factory called
// without a device (`torch.tensor([...])`, `torch.arange(n)`, on data that
// is no tensor of unknown place), `torch.from_numpy`, a legacy CPU type
// (`torch.LongTensor(...)`), `.cpu()` and `.numpy()` results, and torch
// functions, methods and operators whose tensors are all such, through the
// locals that hold them. Never in a module that changes the default device
// or that such a module imports.
bool madeOnHost(const PyTypes &T, TSNode E);

} // namespace graphsafe::lint::py
