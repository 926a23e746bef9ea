// NVTX's <nvToolsExt.h> (CUDA 11's path) for tgsim: nvtx3/nvToolsExt.h.
#pragma once
#include "nvtx3/nvToolsExt.h"
