// <cub/cub.cuh> for a .cu compiled by tgsim's front end: tgsim's own CUB subset (written for
// tgsim, not NVIDIA's code). Block and warp collectives are device code (shuffles, shared
// TempStorage, __syncthreads), simulated and counted like the program's own; the device-wide
// algorithms run on the host and are not counted (device/device_common.cuh).
#pragma once
// The standard headers CUDA's own cub.cuh brings in, which programs rely on without including.
#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>

#include "block/block_adjacent_difference.cuh"
#include "block/block_exchange.cuh"
#include "block/block_load.cuh"
#include "block/block_reduce.cuh"
#include "block/block_scan.cuh"
#include "block/block_store.cuh"
#include "device/device_radix_sort.cuh"
#include "device/device_reduce.cuh"
#include "device/device_run_length_encode.cuh"
#include "device/device_scan.cuh"
#include "device/device_select.cuh"
#include "iterator/iterators.cuh"
#include "thread/thread_operators.cuh"
#include "util_allocator.cuh"
#include "util_type.cuh"
#include "version.cuh"
#include "warp/warp_exchange.cuh"
#include "warp/warp_reduce.cuh"
#include "warp/warp_scan.cuh"
