#pragma once
#include "lint_prelude.h"
at::Tensor model_step(const at::Tensor &x);
void report_progress(const at::Tensor &loss);
