// Kernel modules compiled by tgsim's front end (tgsim/kernel/abi.h): each registers itself when
// it is loaded (a constructor the pass adds) and leaves when it is unloaded. The registry
// finds a kernel by its function pointer (tgsim::launch, <<<...>>>) or by name (tgsim run), and
// registers the module's __device__ and __constant__ variables as device memory.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tgsim/internal/launch.hpp>  // KernelRef, all_kernels
#include <tgsim/kernel/abi.h>

namespace tgsim::detail {


KernelRef find_kernel(const void* fn);  // kernel null: not a front-end kernel
// Kernels whose name is `name`, either whole ("matmul_tiled<16>") or without template arguments.
std::vector<KernelRef> kernels_named(const std::string& name);

// The shared memory a launch of `k` with `dynamic` bytes of extern __shared__ uses.
std::size_t kernel_shared_bytes(const KernelRef& k, std::size_t dynamic);

// The __device__ variable of no bytes (a zero-size array) at or below `addr`, at most `reach`
// bytes below it: its name and address; empty when there is none. For the finding of an access
// through it, which touches no registered range.
std::pair<std::string, std::uint64_t> zero_size_variable_near(std::uint64_t addr, std::uint64_t reach);

}  // namespace tgsim::detail
