// What the files of the CUDA runtime subset share (sim/src/cuda_runtime/cuda_host*.cpp): the error state,
// the simulated device's profile, and initcheck's record of bytes the host API wrote.
#pragma once
#include <cstddef>
#include <string>

#include <tgsim/profile.hpp>

#include <tgsim/kernel/cuda_host_api.h>

namespace tgsim::detail::cuda {

// Sets the error cudaGetLastError returns, prints "tgsim: MESSAGE" on stderr, returns e.
cudaError_t fail(cudaError_t e, std::string message);
// A launch that failed (a failed assert, a trap) leaves the context unusable, as on the GPU:
// later calls that synchronise or copy return it until cudaDeviceReset.
cudaError_t sticky_error();
// The simulated device: TGSIM_PROFILE, else the H100.
tgsim::DeviceProfile profile();
// Bytes of device memory the host API wrote (cudaMemcpy, cudaMemset): initcheck counts them as
// written (BufferInfo::written), as compute-sanitizer's initcheck does.
void host_wrote(void* dst, std::size_t bytes);
// The device memory cudaMalloc and its kin hold now (cudaMemGetInfo).
std::size_t allocated_bytes();
// Global memory cudaMemGetInfo and cudaDeviceProp::totalGlobalMem report (the H100's 80 GiB).
constexpr std::size_t kGlobalBytes = std::size_t(80) << 30;

}  // namespace tgsim::detail::cuda
