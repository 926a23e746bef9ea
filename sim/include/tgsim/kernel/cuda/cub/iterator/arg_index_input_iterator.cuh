// <cub/iterator/arg_index_input_iterator.cuh>: see iterators.cuh (written for tgsim).
#pragma once
#include "iterators.cuh"
