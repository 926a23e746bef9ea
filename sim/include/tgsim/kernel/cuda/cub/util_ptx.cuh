// <cub/util_ptx.cuh>: LaneId and WarpId, see util_type.cuh (written for tgsim).
#pragma once
#include "util_type.cuh"
