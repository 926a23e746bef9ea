// The barrier's divergence (Barrier, barrier.hpp): live threads of a group wait at different
// call sites. GroupRun reports it and goes on or ends the group (group.cpp, schedule()).
#include "engine/barrier.hpp"

#include <algorithm>

#include "engine/group_internal.hpp"

namespace tgsim::detail {

bool Barrier::warp_split_across_sites(const std::vector<const std::source_location*>& at) const {
  for (std::uint32_t w = 0; w < waiting_.size(); ++w) {
    std::uint32_t m = waiting_[w];
    if (!m) continue;
    const std::source_location& first = *at[w * 32 + static_cast<std::uint32_t>(std::countr_zero(m))];
    for (m &= m - 1; m; m &= m - 1)
      if (!same_site(*at[w * 32 + static_cast<std::uint32_t>(std::countr_zero(m))], first)) return true;
  }
  return false;
}

Barrier::Divergence Barrier::describe_divergence(const std::vector<const std::source_location*>& at) const {
  // The barrier most threads wait at is "the" barrier; the others diverged from it.
  struct Site { std::uint32_t first, n; };
  std::vector<Site> sites;
  auto same = [](const std::source_location& a, const std::source_location& b) {
    return a.line() == b.line() && a.column() == b.column() &&
           std::strcmp(a.file_name(), b.file_name()) == 0;
  };
  std::uint32_t exited = 0, first_exited = 0;
  for (std::uint32_t i = 0; i < at.size(); ++i) {
    if (!at[i]) {
      if (!exited++) first_exited = i;
      continue;
    }
    auto it = std::find_if(sites.begin(), sites.end(), [&](const Site& s) { return same(*at[s.first], *at[i]); });
    if (it == sites.end())
      sites.push_back({i, 1});
    else
      ++it->n;
  }
  const Site* main = &sites[0];
  for (const Site& s : sites)
    if (s.n > main->n) main = &s;
  Divergence d;
  d.main = at[main->first];
  d.message = std::to_string(main->n) + " of " + std::to_string(at.size()) +
              " threads reached the barrier at " + where(*d.main) + "; the others";
  bool other = false;
  std::vector<std::string> parts;
  for (const Site& s : sites) {
    if (&s == main) continue;
    parts.push_back(std::to_string(s.n) + " wait at " + where(*at[s.first]));
    if (!other || s.first < d.other) d.other = s.first, other = true;
  }
  if (exited) {
    parts.push_back(std::to_string(exited) + " exited");
    if (!other || first_exited < d.other) d.other = first_exited;
  }
  if (parts.size() == 1) {  // "the others (240) exited"
    std::size_t sp = parts[0].find(' ');
    d.message += " (" + parts[0].substr(0, sp) + ")" + parts[0].substr(sp);
  } else {
    for (std::size_t i = 0; i < parts.size(); ++i) d.message += (i ? ", " : ": ") + parts[i];
  }
  return d;
}

}  // namespace tgsim::detail
