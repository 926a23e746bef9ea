// A user's kernel, counted by an installed tgsim: a coalesced copy through shared memory.
#include <tgsim/cuda.hpp>
#include <tgsim/tgsim.hpp>

#include <iostream>

TG_KERNEL void copy_through_shared(TG_GLOBAL(const float) in, TG_GLOBAL(float) out) {
  TG_SHARED(float, s, [128]);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x];
}

int main() {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1024, "in"), out = dev.alloc<float>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = float(i);
  tgsim::LaunchConfig cfg;
  cfg.grid = dim3(8);
  cfg.block = dim3(128);
  tgsim::Report r = dev.launch(cfg, copy_through_shared, in, out);
  bool ok = r.counters.global_load.sectors == 128 && r.counters.shared_store.bank_conflicts() == 0 &&
            out[1023] == 1023.0f && r.findings.empty();
  std::cout << "global load sectors " << r.counters.global_load.sectors << ", "
            << (ok ? "OK" : "WRONG") << "\n";
  return ok ? 0 : 1;
}
