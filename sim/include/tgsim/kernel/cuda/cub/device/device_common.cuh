// The device-wide algorithms (cub::Device*), written for tgsim: they run on the host over the
// simulated device memory (device pointers are host addresses in tgsim), in input order, so
// their results are right but they are NOT simulated or counted as kernels. CUB's two-phase
// protocol works: a first call with d_temp_storage == nullptr sets temp_storage_bytes and does
// nothing else; the second call needs at least that many bytes. Outputs count as written
// device memory for initcheck, as a kernel's stores would.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <type_traits>

#include "../iterator/iterators.cuh"
#include "../thread/thread_operators.cuh"

namespace tgsim_cub {
constexpr size_t kTempBytes = 256;
// True when the call only asks for its temporary storage size.
inline bool size_query(void* d_temp_storage, size_t& temp_storage_bytes) {
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = kTempBytes;
    return true;
  }
  if (temp_storage_bytes < kTempBytes) {
    std::fprintf(stderr, "tgsim: cub device algorithm given %zu bytes of temporary storage, needs %zu\n",
                 temp_storage_bytes, kTempBytes);
    std::exit(2);
  }
  return false;
}
// The host wrote n items at out: device memory written as cudaMemcpy writes it, so a later
// kernel's initcheck sees them initialised (a cudaMemcpy of the range onto itself).
template <class It> inline void wrote(It out, long n) {
  if constexpr (std::is_pointer_v<It>)
    if (n > 0) cudaMemcpy(out, out, static_cast<size_t>(n) * sizeof(*out), cudaMemcpyDeviceToDevice);
}
template <class It> using value_of = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<It>())>>;
}  // namespace tgsim_cub
