// A cooperative launch's groups, which may meet at grid.sync() (cooperative.cpp).
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "engine/launch_state.hpp"

namespace tgsim::detail {

class GroupRun;

// LaunchError unless the grid fits on the device at once (and the launch runs no checker).
void check_cooperative(const LaunchState& st);
// Runs every group of the grid in phases between grid syncs; group_done after each group ends.
std::vector<std::unique_ptr<GroupRun>> run_cooperative(LaunchState& st, const std::function<void()>& group_done);

}  // namespace tgsim::detail
