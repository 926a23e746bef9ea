// The CUDA runtime subset that sample host code uses, for a .cu compiled by tgsim's front end
// (included by cuda_runtime.h). Device memory is tgsim's (registered, red-zoned; host code can
// read it directly, there is only one memory); a launch (`kernel<<<g, b, s>>>(args)`, rewritten
// by the front end into tgsim_cuda_launch(kernel, g, b, s)(args)) runs to completion before it
// returns, prints its findings on stderr, and sets the error cudaGetLastError returns.
// Simplified: streams and events are synchronous; there is one device, the H100 profile (or
// TGSIM_PROFILE); TGSIM_REPORT=FILE appends each launch's JSON report to FILE. A finding that
// repeated launches of a kernel make again is printed once, with its total at exit.
#ifndef TGSIM_KERNEL_CUDA_HOST_H
#define TGSIM_KERNEL_CUDA_HOST_H

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_host_api.h"
#include "cuda_host_overloads.h"
#include "cuda_graph.h"

namespace tgsim_cuda {
// kernel<<<grid, block, shared_bytes>>>(args...) becomes launcher(kernel, grid, block, shared)(args...).
template <class... P>
struct Launcher {
  void (*kernel)(P...);
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
  template <class... A>
  cudaError_t operator()(A&&... a) const {
    static_assert(sizeof...(A) == sizeof...(P), "kernel launched with the wrong number of arguments");
    std::tuple<std::decay_t<P>...> values(static_cast<std::decay_t<P>>(std::forward<A>(a))...);
    return go(values, std::index_sequence_for<P...>{});
  }
  template <class Tuple, size_t... I>
  cudaError_t go(Tuple& values, std::index_sequence<I...>) const {
    void* args[sizeof...(P) + 1] = {static_cast<void*>(&std::get<I>(values))...};
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    return tgsim_cuda_launch_kernel_on(reinterpret_cast<const void*>(kernel), g, b, shared, args, stream);
  }
};
template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = nullptr) {
  return Launcher<P...>{kernel, grid, block, shared, stream};
}
// kernel<<<grid, block, shared, stream>>>(args...) becomes
// (push_launch(grid, block, shared, stream), kernel(args...), pop_launch()): the call reaches the
// kernel's host entry (the pass), which launches it with the configuration pushed here.
inline void push_launch(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = nullptr) {
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  tgsim_cuda_push_launch(g, b, shared, stream);
}
inline void pop_launch() { tgsim_cuda_pop_launch(); }
}  // namespace tgsim_cuda

#endif
