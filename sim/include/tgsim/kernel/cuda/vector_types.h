// CUDA's <vector_types.h> for kernels compiled by tgsim's front end: everything is in tgsim/kernel/cuda_runtime.h.
#pragma once
#include "../cuda_runtime.h"
