// Compiled with the project's compiler (g++), not clang: tgsim's headers use std::source_location,
// which clang 14 cannot compile against libstdc++ 12. The fuzz target (clang, libFuzzer) calls
// detail::validate_launch through this C function.
#include <cstring>

#include <tgsim/launch.hpp>

extern "C" int tgsim_fuzz_validate(const unsigned* grid, const unsigned* block, unsigned long stack_bytes,
                                   char* msg, unsigned long cap) {
  tgsim::LaunchConfig c;
  c.grid = tgsim::Dim3(grid[0], grid[1], grid[2]);
  c.block = tgsim::Dim3(block[0], block[1], block[2]);
  c.stack_bytes = stack_bytes;
  try {
    tgsim::detail::validate_launch(tgsim::profiles::nvidia_h100(), c);
    return 1;
  } catch (const tgsim::LaunchError& e) {
    std::strncpy(msg, e.what(), cap - 1);
    msg[cap - 1] = 0;
    return 0;
  }
}
