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

}  // namespace tgsim
