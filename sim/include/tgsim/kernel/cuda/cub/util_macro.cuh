// <cub/util_macro.cuh>: see util_type.cuh (written for tgsim).
#pragma once
#include "util_type.cuh"
