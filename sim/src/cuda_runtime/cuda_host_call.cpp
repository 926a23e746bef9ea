// The host call of a kernel after a `<<<...>>>` configuration (cuda_host.h's push_launch): the
// configuration waits in the host thread's slot until the call reaches the kernel's host entry
// (the pass, module_desc.cpp), which takes it and launches the kernel with the call's arguments.
// A thread of a launch never sees a configuration: the slot is emptied before the launch starts,
// so a kernel's body runs on fibers, even on the host thread's own worker.
#include <cstddef>

#include <tgsim/kernel/cuda_host_api.h>

namespace {

struct Pending {
  bool set = false;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  size_t shared = 0;
  cudaStream_t stream = nullptr;
};
thread_local Pending pending;

}  // namespace

extern "C" {

void tgsim_cuda_push_launch(const unsigned* grid, const unsigned* block, size_t shared_bytes, cudaStream_t stream) {
  pending.set = true;
  for (int i = 0; i < 3; ++i) {
    pending.grid[i] = grid[i];
    pending.block[i] = block[i];
  }
  pending.shared = shared_bytes;
  pending.stream = stream;
}

void tgsim_cuda_pop_launch(void) { pending.set = false; }

int __tgsim_host_call_pending(void) { return pending.set ? 1 : 0; }

void __tgsim_host_call_launch(const void* kernel, void** args) {
  const Pending p = pending;
  pending.set = false;
  tgsim_cuda_launch_kernel_on(kernel, p.grid, p.block, p.shared, args, p.stream);
}

}  // extern "C"
