// <cub/iterator/constant_input_iterator.cuh>: see iterators.cuh (written for tgsim).
#pragma once
#include "iterators.cuh"
