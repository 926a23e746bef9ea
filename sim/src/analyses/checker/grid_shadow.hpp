// GridShadow: the checker's launch-wide table of global words (merged into at each group's end,
// checker_grid.cpp; read once every group has run, checker_findings.cpp).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <tgsim/hash.hpp>

namespace tgsim::detail {

// Global words across the launch: per word the two lowest groups that stored and loaded.
class GridShadow {
 public:
  static constexpr std::uint64_t kEmpty = ~0ull;
  // A tuple packs (group << 32 | thread << 22 | site): ordered by group first.
  static std::uint64_t pack(std::uint64_t group, std::uint32_t thread, std::uint32_t site) {
    return (group << 32) | (std::uint64_t(thread & 0x3FF) << 22) | (site & 0x3FFFFF);
  }
  // w: plain stores, r: plain loads, a: atomics (two lowest groups each). `value`/`width`: the
  // bytes some group stored; `mixed`: stores of the launch wrote different bytes (a WAW between
  // groups that all store the same value is no hazard, as inside a group).
  struct Word {
    std::uint64_t w[2] = {kEmpty, kEmpty}, r[2] = {kEmpty, kEmpty}, a[2] = {kEmpty, kEmpty};
    std::uint64_t value = 0;
    std::uint8_t width = 0;  // 0: no store merged yet
    std::uint8_t bytes = 0;  // bytes of the word stored (plain or atomic) by any group
    // Per byte (bit i: byte i): plain stores and loads of the groups merged so far.
    std::uint8_t pstored = 0, loaded = 0;
    std::uint8_t explained = 0;  // bytes an atomic may explain (GWord::explained) in any group
    bool mixed = false;
    // Whether two groups' plain stores, or a load and another group's plain store, shared a
    // byte without an order between them.
    bool waw_bytes = false, rw_bytes = false;
  };
  // The groups that order a word's accesses, kept beside its page for the few words whose
  // groups released, acquired or used atomics there: the highest group with released stores
  // (+1; 0: none) and the lowest with acquired loads (~0u: none), so a released store and an
  // acquired load of different groups are ordered when the store's group is the lower; the
  // lowest group whose plain stores all follow its own atomic of the word (a last block
  // resetting its ticket counter: ordered after the atomics of lower groups) and the highest
  // group with an atomic (+1; 0: none).
  // Per word (release and acquire, checker_release.cpp): whether some group merged stores not
  // released, released stores, loads not acquired, acquired loads, and plain stores not all
  // after its own atomic of the word.
  struct Order {
    std::uint32_t rel_max = 0, acq_min = ~0u, after_min = ~0u, atomic_max = 0;
    bool any_su = false, any_sr = false, any_lu = false, any_la = false, other_store = false;
    bool waw_atomic = false;  // a plain store met another group's atomic unordered
  };
  static constexpr unsigned kPageBits = 10;  // 1024 words (4 KiB of addresses) per page
  struct Page {
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    Word words[1u << kPageBits];
    std::unordered_map<std::uint32_t, Order> orders;  // by word index in the page (under `lock`)
  };
  Page* page(std::uint64_t page_no);
  // The word's entry, or null; once every group has run (no lock taken).
  const Word* find(std::uint64_t word) const {
    const std::uint64_t no = word >> kPageBits;
    const Shard& s = shards_[(no * kGoldenGamma) >> 58];
    auto it = s.pages.find(no);
    return it == s.pages.end() ? nullptr : &it->second->words[word & ((1u << kPageBits) - 1)];
  }
  // The word's Order, or null (after every group has run).
  const Order* order(std::uint64_t word) const {
    const std::uint64_t no = word >> kPageBits;
    const Shard& s = shards_[(no * kGoldenGamma) >> 58];
    auto it = s.pages.find(no);
    if (it == s.pages.end()) return nullptr;
    auto o = it->second->orders.find(static_cast<std::uint32_t>(word & ((1u << kPageBits) - 1)));
    return o == it->second->orders.end() ? nullptr : &o->second;
  }
  // Calls f(word_address_in_words, const Word&) for every touched word.
  template <class F> void for_each(F&& f) const {
    for (const Shard& s : shards_)
      for (const auto& [no, p] : s.pages)
        for (std::uint32_t i = 0; i < (1u << kPageBits); ++i)
          if (p->words[i].w[0] != kEmpty || p->words[i].r[0] != kEmpty ||
              p->words[i].a[0] != kEmpty)
            f((no << kPageBits) | i, p->words[i]);
  }

 private:
  struct Shard {
    std::mutex mu;
    std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages;
  };
  Shard shards_[64];
};

}  // namespace tgsim::detail
