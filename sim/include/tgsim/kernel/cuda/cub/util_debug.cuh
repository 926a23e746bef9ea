// <cub/util_debug.cuh>: CubDebug and CubDebugExit, see util_type.cuh (written for tgsim).
#pragma once
#include "util_type.cuh"
