// TagTable: the tags of one worker's access records. A record names its (call site, kind,
// width) by a dense 16-bit tag (record.hpp: tag << 48 | address); the table gives each new
// triple the next tag, with its TagInfo (the launch's site id from the shared SiteTable, the
// placement of front-end accesses). The inline append finds tags in a small cache (ThreadCtx::
// tags_ points at it); a miss takes this worker's map, else makes the tag.
#pragma once
#include <cstdint>
#include <source_location>
#include <unordered_map>
#include <vector>

#include <tgsim/record.hpp>
#include <tgsim/report.hpp>

#include "engine/launch_state.hpp"

namespace tgsim::detail {

// What a record's tag stands for (per worker; tags are dense, at most 2^16).
struct TagInfo {
  std::uint32_t site;
  SiteKind kind;
  std::uint32_t width;
  bool shared_word_load;  // a shared load of at most 4 bytes (the checker's quick test)
  // kLoad/kStore (front-end code): the source location and, once an address placed it, the
  // site id as a global (0) and as a shared (1) access.
  std::source_location loc;
  std::uint32_t placed[2] = {~0u, ~0u};
  bool warp_aggregated = false;  // marked in the launch's SiteTable (mark_warp_aggregated)
  bool is_volatile = false;      // a front-end volatile access (TGSIM_SITE_VOLATILE)
  bool block_scope = false;      // a global atomic of block scope (TGSIM_ATOMIC_BLOCK_SCOPE)
  bool no_acquire = false;       // a libcu++ atomic that does not acquire (TGSIM_ATOMIC_NO_ACQUIRE)
  // A libcu++ atomic of shared memory (cuda::atomic_ref): kSharedOrder* bits, the orders inside
  // the group that the checker keeps (Checker::ordered_shared). 0: none (any other access).
  static constexpr std::uint8_t kSharedOrderAtomic = 1, kSharedOrderAcquire = 2, kSharedOrderRelease = 4;
  std::uint8_t shared_order = 0;
  // A read a spin-wait repeats (spin.cpp): a volatile or atomic load, or an atomic that left
  // memory as it was (atomicAdd(&flag, 0)); rmw_effect: the site also changed memory once.
  bool spin_read = false;
  bool rmw_effect = false;
  std::uint8_t store_value = 0;  // SiteInfo::store_value bits told to the SiteTable
  // A 16-byte load of three 4-byte elements (TGSIM_SITE_GAP_MASK): 1 + the element not read.
  std::uint8_t gap = 0;
};

class TagTable {
 public:
  explicit TagTable(SiteTable& sites) : sites_(sites) {}
  TagTable(const TagTable&) = delete;
  TagTable& operator=(const TagTable&) = delete;

  // The tag of (call site, kind, width), pre-shifted (tag << kTagShift): the cache, else the
  // map, else a new tag. A source_location is one pointer to static data unique per call site
  // (libstdc++), so the pointer identifies the site.
  std::uint64_t tag(const std::source_location& loc, SiteKind kind, std::uint32_t width) {
    const std::uint64_t key = tag_key(loc, static_cast<AccessKind>(kind), width);
    const TagSlot& e = cache_[tag_slot(key)];
    if (e.key == key) [[likely]]
      return e.tag;
    return miss(key, loc, kind, width);
  }
  // The launch's site id of a barrier or warp collective (no access width): the same cache.
  std::uint32_t site_id(const std::source_location& loc, SiteKind kind) {
    return info_[tag(loc, kind, 0) >> kTagShift].site;
  }
  TagInfo& operator[](std::uint64_t tag) { return info_[tag]; }  // tag: not shifted
  const TagInfo& operator[](std::uint64_t tag) const { return info_[tag]; }
  std::size_t size() const { return info_.size(); }
  std::vector<TagInfo>& infos() { return info_; }
  const TagSlot* cache() const { return cache_; }

 private:
  [[gnu::noinline]] std::uint64_t miss(std::uint64_t key, const std::source_location& loc, SiteKind kind,
                                       std::uint32_t width);
  TagSlot cache_[kTagSlots];
  std::unordered_map<std::uint64_t, std::uint32_t> by_key_;
  std::vector<TagInfo> info_;
  SiteTable& sites_;
};

}  // namespace tgsim::detail
