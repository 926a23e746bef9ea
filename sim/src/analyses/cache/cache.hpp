// The memory-hierarchy model (docs/hardware-model.md 7.1-7.4): a per-SM L1 that caches global
// loads at sector granularity in 128-byte lines, an L2 that holds every byte of the launch,
// and DRAM fetched in 64-byte chunks. Caches are cold at each launch, as Nsight Compute
// measures (--cache-control all).
// Simplifications: threadgroups are placed round-robin on the SMs (group g on SM g % sm_count)
// and the groups of one SM run one after another (no overlap in time; the workers run any
// group, and sm_replay.hpp feeds each SM's L1 its groups' loads in group order); within a
// group the warps' instructions reach L1 in the order their logs are flushed (fixed for a
// given fiber schedule). L1 is set-associative (hashed sets, LRU, ways from the profile: an
// assumption); stores write through to L2 and do not allocate in L1; atomics are not
// modelled. L2 misses
// are first touches: with a 50 MB L2 nothing is evicted within these launches, so the count
// is the number of unique chunks, independent of order. Requests of several SMs for one
// sector in flight at the same time are not merged: the H100's L2 Request Coalescer merges
// those of SMs in one GPC, depending on timing (measured by tests/hardware/l2_probe.sh; see
// tests/hardware/README.md, "L2 probe"), so l2_read_sectors is the unmerged upper bound.
// The unique chunks and sectors are one launch-wide bitmap each over the simulated device
// addresses (LaunchFootprint), set by every worker: memory grows with the footprint, not with
// workers x footprint.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <tgsim/models.hpp>
#include <tgsim/profile.hpp>

namespace tgsim::detail {

// Distinct sector ids (byte address / sector_bytes) of one warp instruction, ascending.
std::uint32_t instruction_sectors(const model::WarpAccess& a, std::uint32_t sector_bytes,
                                  std::uint64_t* out /* >= 64 entries */);

// a % d without a division, exact for every 32-bit a and d >= 1 (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019): magic = fastmod_magic(d).
inline std::uint64_t fastmod_magic(std::uint32_t d) { return ~std::uint64_t(0) / d + 1; }
inline std::uint32_t fastmod_u32(std::uint32_t a, std::uint64_t magic, std::uint32_t d) {
  return static_cast<std::uint32_t>((static_cast<unsigned __int128>(magic * a) * d) >> 64);
}

class L1Cache {
 public:
  L1Cache(std::size_t bytes, std::uint32_t line_bytes, std::uint32_t sector_bytes,
          std::uint32_t ways);
  // The sectors `bits` (bit i: sector i of the line) of one line: a sector hits iff it is
  // valid; the missing ones are filled (sector-wise; the line allocated on a miss of the whole
  // line, LRU victim; the line's stamp is the clock's next tick). Returns the bits that hit.
  // Looking up a line's sectors together gives the same hits and the same order of stamps as
  // looking them up one by one (cache_test).
  std::uint32_t load_line(std::uint64_t line, std::uint32_t bits);
  std::uint64_t line_of(std::uint64_t sector) const {
    return spl_shift_ >= 0 ? sector >> spl_shift_ : sector / sectors_per_line_;
  }
  std::uint32_t sectors_per_line() const { return sectors_per_line_; }

 private:
  struct Way {
    std::uint64_t line = ~0ull;
    std::uint32_t valid = 0;  // sector bits
    std::uint32_t stamp = 0;
  };
  std::uint32_t sets_, ways_, sectors_per_line_;
  // No division per sector: the set is (hash % sets_) by Lemire's fastmod (exact for 32-bit
  // hashes), the line a shift when sectors_per_line_ is a power of two (spl_shift_ >= 0).
  std::uint64_t set_magic_;
  int spl_shift_;
  std::uint32_t clock_ = 0;
  std::vector<Way> way_;
};

// A set of 64-bit ids with open addressing (linear probing), without node allocation: holds
// the ids an IdBitmap's range does not cover.
class IdSet {
 public:
  bool insert(std::uint64_t id);  // true if new
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.size() * sizeof(std::uint64_t); }

 private:
  void grow();
  std::vector<std::uint64_t> slots_;  // id + 1; 0 = empty
  std::size_t size_ = 0;
};

// A set of ids shared by the workers of one launch: the ids of [first, first + count) are bits
// in pages of 2^page_shift ids, each allocated on its first insert and set with a relaxed
// atomic OR (a plain load first: repeated ids stay read-only). Ids outside the range (memory
// registered after the launch began) go to an IdSet under a mutex, so none is lost.
class IdBitmap {
 public:
  IdBitmap(std::uint64_t first, std::uint64_t count);
  ~IdBitmap();
  IdBitmap(const IdBitmap&) = delete;
  IdBitmap& operator=(const IdBitmap&) = delete;
  void insert(std::uint64_t id) {
    const std::uint64_t i = id - first_;
    if (i >= count_) [[unlikely]] return insert_outside(id);
    std::atomic<std::uint64_t>* page = pages_[i >> page_shift_].load(std::memory_order_acquire);
    if (!page) [[unlikely]] page = new_page(i >> page_shift_);
    std::atomic<std::uint64_t>& word = page[(i & page_mask_) >> 6];
    const std::uint64_t bit = std::uint64_t(1) << (i & 63);
    if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
  }
  // Distinct ids inserted; call after the inserting workers have joined.
  std::uint64_t size() const;
  std::size_t bytes() const;  // memory held by the pages and the outside set

 private:
  void insert_outside(std::uint64_t id);
  std::atomic<std::uint64_t>* new_page(std::uint64_t index);
  std::uint64_t first_, count_;
  unsigned page_shift_ = 15;  // 4 KiB of bits per page, raised to keep <= 2^16 pages
  std::uint64_t page_mask_;
  std::size_t npages_;
  std::unique_ptr<std::atomic<std::atomic<std::uint64_t>*>[]> pages_;
  std::mutex outside_mu_;
  IdSet outside_;
};

// The launch's unique DRAM chunks read and sectors written, over the simulated device
// addresses [begin, end) (device_address_span at launch start).
struct LaunchFootprint {
  LaunchFootprint(const DeviceProfile& p, std::uint64_t begin, std::uint64_t end);
  IdBitmap read_chunks;      // DRAM-chunk ids of L1 read misses
  IdBitmap written_sectors;  // sector ids of stores
};

// One worker's share of the hierarchy: its instructions' sectors, its lookups in the L1 of
// the SM it replays for (SmReplay, sm_replay.hpp), misses and stores added to the launch's
// footprint.
class CacheSim {
 public:
  CacheSim(const DeviceProfile& p, LaunchFootprint& f);
  // The instruction's distinct sectors (docs/hardware-model.md 1.2, the same count as
  // model::global_sectors) into out (>= 64 entries), ascending.
  std::uint32_t sectors(const model::WarpAccess& a, std::uint64_t* out) const {
    return instruction_sectors(a, p_.sector_bytes, out);
  }
  // A load's sectors looked up one by one in `l1`; returns the hits. Each miss is an L2 read
  // sector, and its DRAM chunk joins the footprint.
  std::uint32_t load(L1Cache& l1, const std::uint64_t* s, std::uint32_t n);
  // A store's sectors (write-through, no L1 allocation), which join the footprint.
  std::uint32_t store(const model::WarpAccess& a);

  std::uint64_t l2_read_sectors = 0;   // L1 load misses
  std::uint64_t l2_write_sectors = 0;  // store sectors (write-through)

 private:
  const DeviceProfile& p_;
  LaunchFootprint& footprint_;
  std::uint32_t chunk_shift_;  // sector id -> chunk id
};

}  // namespace tgsim::detail
