// TagTable's miss path (tag_table.hpp): this worker's map, else a new tag with its TagInfo and
// the launch's site id from the shared SiteTable.
#include "engine/tag_table.hpp"

#include <stdexcept>

namespace tgsim::detail {

std::uint64_t TagTable::miss(std::uint64_t key, const std::source_location& loc, SiteKind kind,
                             std::uint32_t width) {
  TagSlot& e = cache_[tag_slot(key)];
  auto [it, fresh] = by_key_.try_emplace(key, static_cast<std::uint32_t>(info_.size()));
  if (fresh) {
    if (info_.size() > 0xFFFF) {
      by_key_.erase(it);
      throw std::length_error("tgsim: more than 65,536 distinct (access site, kind, width) in one "
                              "launch: the access log's 16-bit tags cannot name them");
    }
    info_.push_back(TagInfo{sites_.id(loc, kind), kind, width, kind == SiteKind::kSharedLoad && width <= 4, loc});
  }
  e.key = key;
  e.tag = std::uint64_t(it->second) << kTagShift;
  return e.tag;
}

}  // namespace tgsim::detail
