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

}  // namespace tgsim
