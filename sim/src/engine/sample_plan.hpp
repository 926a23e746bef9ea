// The design of a sampled launch (sample.cpp's header has the method): its strata by position
// and by the paths groups take, the groups each replicate runs, and `--sample auto`'s share.
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <tuple>
#include <vector>

#include <tgsim/report.hpp>

namespace tgsim::detail {

// A stratum: positions [j0, j1) in the linear order of the grid block lo + [0, extent).
struct Stratum {
  Dim3 lo, extent;
  std::uint64_t j0 = 0, j1 = 0;
  std::uint64_t size() const { return j1 - j0; }
  std::uint64_t group(std::uint64_t j, const Dim3& grid) const {  // j in [0, size())
    const Dim3 i = unlinearise(j0 + j, extent);
    return linearise(Dim3(lo.x + i.x, lo.y + i.y, lo.z + i.z), grid);
  }
};

// In each dimension the first index, the inner ones and the last, crossed (up to 27 strata).
std::vector<Stratum> position_strata(const Dim3& grid);

// The sites a group ran (file, line, column, kind of every site with a non-zero count): which
// branches it took, as far as memory accesses, barriers and warp operations tell.
using PathSignature = std::set<std::tuple<std::string, std::uint32_t, std::uint32_t, int>>;
PathSignature path_of(const Report& one_group);

constexpr std::uint64_t kPilotMinGroups = 64;  // strata this large get a pilot
constexpr std::uint64_t kBisectLimit = 256;    // at most this many bisection runs per launch
// A pilot's groups in a stratum of n groups for share p: a quarter of the sample's p n, at
// least 4, at most 64 (a path taken by a run of n / (m - 1) groups or more is always seen).
std::uint64_t pilot_size(std::uint64_t n, double p);

// Splits each stratum of kPilotMinGroups or more where the path changes: pilot_size evenly
// spaced groups (its first and last included) run one at a time (`path(group)`), and between two
// neighbours whose paths differ, bisection finds a group where the path changes, which starts a
// new stratum. Returns the strata and adds the distinct groups run to `piloted`.
std::vector<Stratum> split_by_path(const std::vector<Stratum>& strata, const Dim3& grid, double p,
                                   const std::function<PathSignature(std::uint64_t)>& path,
                                   std::set<std::uint64_t>& piloted, std::uint32_t& splits);

// The sample of a share p: the strata run whole, and per replicate the groups of the others.
struct Plan {
  std::uint32_t replicates = 0;
  std::vector<std::uint64_t> whole_ids;                  // ascending
  std::vector<std::pair<Stratum, std::uint64_t>> sampled;  // stratum, k_h (groups per replicate)
  std::vector<std::vector<std::vector<std::uint64_t>>> ids;  // [replicate][sampled stratum], ascending
  std::uint64_t runs() const;  // group runs: whole ones and every replicate's
};
constexpr std::uint32_t kMaxReplicates = 10;
// R = ceil(p x the largest stratum's size) from 2 to kMaxReplicates; k_h = ceil(p N_h / R);
// a stratum with R k_h >= N_h runs whole. Replicate r's start in stratum h is uniform from
// `seed`: the same sample for the same seed.
Plan draw_plan(const std::vector<Stratum>& strata, const Dim3& grid, double p, std::uint64_t seed);

// `--sample auto`: the largest share whose plan runs at most `target_groups` groups (at least
// the smallest sample the strata allow: R = 2, one group per replicate and stratum).
double auto_share(const std::vector<Stratum>& strata, double target_groups);

// The work of a report's groups in thread events: thread accesses, barriers and warp operations.
double thread_events(const Counters& c);

}  // namespace tgsim::detail
