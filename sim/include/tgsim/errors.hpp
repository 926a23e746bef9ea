// Errors of the host's launch (bad dimensions, limits of the device profile). They are thrown
// before any simulated thread runs. Errors of the simulated kernel are Findings (report.hpp).
#pragma once
#include <stdexcept>
#include <string>

namespace tgsim {

class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A simulated thread overflowed its fiber stack (LaunchConfig::stack_bytes): it hit the
// PROT_NONE guard below the stack. tgsim prints which thread of which block, then ends the
// process with this status (the worker's stack state cannot be recovered safely).
inline constexpr int kStackOverflowExitStatus = 3;

// A simulated thread loaded or stored at an address tgsim could not stand memory in for: the
// null page, a non-canonical pointer, a read-only or inaccessible host mapping. tgsim prints the
// thread, its block and the address, then ends the process with this status. (An address in
// unmapped memory, such as an index far past a buffer's red zone, is an out-of-bounds finding
// instead: tgsim maps a page there and goes on.)
inline constexpr int kWildAccessExitStatus = 4;

}  // namespace tgsim
