// A unit test of a user's CUDA kernel (copy.cu), counted by an installed tgsim: a coalesced copy
// through shared memory.
#include <tgsim/tgsim.hpp>

#include <iostream>

void copy_through_shared(const float* in, float* out);

int main() {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1024, "in"), out = dev.alloc<float>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = float(i);
  tgsim::Report r = tgsim::launch(copy_through_shared, tgsim::Dim3(8), tgsim::Dim3(128), 0, in.data(), out.data());
  bool ok = r.counters.global_load.sectors == 128 && r.counters.shared_store.bank_conflicts() == 0 &&
            out[1023] == 1023.0f && r.findings.empty();
  std::cout << "global load sectors " << r.counters.global_load.sectors << ", "
            << (ok ? "OK" : "WRONG") << "\n";
  return ok ? 0 : 1;
}
