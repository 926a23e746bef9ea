#include "analyses/cache/cache.hpp"

#include <algorithm>
#include <bit>
#include <tgsim/hash.hpp>

namespace tgsim::detail {

std::uint32_t instruction_sectors(const model::WarpAccess& a, std::uint32_t sector_bytes,
                                  std::uint64_t* out) {
  // Neighbouring lanes mostly share a sector: skip repeats of the last one before sorting.
  // Sector sizes are powers of two: shifts, not divisions (this runs per lane).
  std::uint32_t n = 0;
  std::uint64_t window, bits;
  if (model::sector_window(a, sector_bytes, &window, &bits)) {  // the common shape: a bitmap
    for (; bits; bits &= bits - 1) out[n++] = window + static_cast<std::uint64_t>(std::countr_zero(bits));
    return n;
  }
  if ((n = model::ascending_sectors(a, sector_bytes, out))) return n;  // rows of lanes
  const std::uint32_t w = std::max<std::uint32_t>(a.width, 1);
  const int shift = std::countr_zero(sector_bytes);
  for (std::uint32_t m = a.active; m; m &= m - 1) {
    const std::uint32_t l = static_cast<std::uint32_t>(std::countr_zero(m));
    const std::uint64_t first = a.addr[l] >> shift;
    const std::uint64_t last = (a.addr[l] + w - 1) >> shift;
    if (n && out[n - 1] == first && first == last) continue;
    for (std::uint64_t s = first; s <= last && n < 64; ++s)
      if (n == 0 || out[n - 1] != s) out[n++] = s;
  }
  if (n <= 1) return n;
  bool sorted = true;
  for (std::uint32_t i = 1; i < n && sorted; ++i) sorted = out[i - 1] < out[i];
  if (!sorted) {
    std::sort(out, out + n);
    n = static_cast<std::uint32_t>(std::unique(out, out + n) - out);
  }
  return n;
}

L1Cache::L1Cache(std::size_t bytes, std::uint32_t line_bytes, std::uint32_t sector_bytes,
                 std::uint32_t ways)
    : ways_(std::max<std::uint32_t>(ways, 1)),
      sectors_per_line_(std::max<std::uint32_t>(line_bytes / sector_bytes, 1)) {
  const std::size_t lines = std::max<std::size_t>(bytes / line_bytes, 1);
  sets_ = static_cast<std::uint32_t>(std::max<std::size_t>(lines / ways_, 1));
  set_magic_ = fastmod_magic(sets_);
  spl_shift_ = std::has_single_bit(sectors_per_line_) ? std::countr_zero(sectors_per_line_) : -1;
  way_.resize(std::size_t(sets_) * ways_);
}

std::uint32_t L1Cache::load_line(std::uint64_t line, std::uint32_t bits) {
  ++clock_;
  // Hashed set index (real L1s hash addresses so strided rows do not share one set):
  // (h >> 40) % sets_, the 24-bit hash taken modulo by multiplication (fastmod).
  const auto h = static_cast<std::uint32_t>((line * kGoldenGamma) >> 40);
  Way* set = &way_[std::size_t(fastmod_u32(h, set_magic_, sets_)) * ways_];
  Way* victim = set;
  Way* found = nullptr;
  for (std::uint32_t w = 0; w < ways_; ++w) {
    if (set[w].line == line) {
      found = &set[w];
      break;
    }
    if (set[w].stamp < victim->stamp) victim = &set[w];
  }
  if (!found) {
    found = victim;
    found->line = line;
    found->valid = 0;
  }
  found->stamp = clock_;
  const std::uint32_t hit = found->valid & bits;
  found->valid |= bits;
  return hit;
}

bool IdSet::insert(std::uint64_t id) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::uint64_t key = id + 1;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = (key * kGoldenGamma) >> 20 & mask;; i = (i + 1) & mask) {
    if (slots_[i] == key) return false;
    if (slots_[i] == 0) {
      slots_[i] = key;
      ++size_;
      return true;
    }
  }
}

void IdSet::grow() {
  std::vector<std::uint64_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
  size_ = 0;
  for (std::uint64_t k : old)
    if (k) insert(k - 1);
}

IdBitmap::IdBitmap(std::uint64_t first, std::uint64_t count) : first_(first), count_(count) {
  while ((count_ >> page_shift_) >= (std::uint64_t(1) << 16)) ++page_shift_;
  page_mask_ = (std::uint64_t(1) << page_shift_) - 1;
  npages_ = static_cast<std::size_t>((count_ + page_mask_) >> page_shift_);
  pages_ = std::make_unique<std::atomic<std::atomic<std::uint64_t>*>[]>(npages_);  // null pages
}

IdBitmap::~IdBitmap() {
  for (std::size_t i = 0; i < npages_; ++i) delete[] pages_[i].load(std::memory_order_relaxed);
}

std::atomic<std::uint64_t>* IdBitmap::new_page(std::uint64_t index) {
  auto* page = new std::atomic<std::uint64_t>[std::size_t(1) << (page_shift_ - 6)]();
  std::atomic<std::uint64_t>* expected = nullptr;
  if (pages_[index].compare_exchange_strong(expected, page, std::memory_order_acq_rel,
                                            std::memory_order_acquire))
    return page;
  delete[] page;  // another worker's page came first
  return expected;
}

void IdBitmap::insert_outside(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(outside_mu_);
  outside_.insert(id);
}

std::uint64_t IdBitmap::size() const {
  std::uint64_t n = outside_.size();
  const std::size_t words = std::size_t(1) << (page_shift_ - 6);
  for (std::size_t i = 0; i < npages_; ++i)
    if (const std::atomic<std::uint64_t>* page = pages_[i].load(std::memory_order_acquire))
      for (std::size_t w = 0; w < words; ++w)
        n += static_cast<std::uint64_t>(std::popcount(page[w].load(std::memory_order_relaxed)));
  return n;
}

std::size_t IdBitmap::bytes() const {
  std::size_t b = npages_ * sizeof(pages_[0]) + outside_.bytes();
  for (std::size_t i = 0; i < npages_; ++i)
    if (pages_[i].load(std::memory_order_acquire)) b += (std::size_t(1) << page_shift_) / 8;
  return b;
}

namespace {

// The ids of the bytes [begin, end) with `shift` (id = byte address >> shift).
IdBitmap ids_of(std::uint64_t begin, std::uint64_t end, int shift) {
  if (end <= begin) return IdBitmap(0, 0);
  return IdBitmap(begin >> shift, ((end - 1) >> shift) - (begin >> shift) + 1);
}

int sector_shift(const DeviceProfile& p) { return std::countr_zero(p.sector_bytes); }
int chunk_shift(const DeviceProfile& p) {  // as CacheSim makes chunk ids from sector ids
  return std::countr_zero(std::max<std::uint32_t>(p.dram_chunk_bytes / p.sector_bytes, 1));
}

}  // namespace

LaunchFootprint::LaunchFootprint(const DeviceProfile& p, std::uint64_t begin, std::uint64_t end)
    : read_chunks(ids_of(begin, end, sector_shift(p) + chunk_shift(p))),
      written_sectors(ids_of(begin, end, sector_shift(p))) {}

CacheSim::CacheSim(const DeviceProfile& p, LaunchFootprint& f)
    : p_(p), footprint_(f), chunk_shift_(static_cast<std::uint32_t>(chunk_shift(p))) {}

// The sectors of one line (neighbours in `s`, which is ascending) are looked up together: the
// same hits and the same order of stamps as one by one, one set search per line.
std::uint32_t CacheSim::load(L1Cache& l1, const std::uint64_t* s, std::uint32_t n) {
  std::uint32_t hits = 0;
  const std::uint32_t spl = l1.sectors_per_line();
  for (std::uint32_t i = 0; i < n;) {
    const std::uint64_t line = l1.line_of(s[i]), first = line * spl;
    std::uint32_t bits = 0;
    for (; i < n && s[i] - first < spl; ++i) bits |= 1u << (s[i] - first);
    const std::uint32_t hit = l1.load_line(line, bits);
    hits += static_cast<std::uint32_t>(std::popcount(hit));
    for (std::uint32_t m = bits & ~hit; m; m &= m - 1) {  // each miss: an L2 read, a chunk
      ++l2_read_sectors;
      footprint_.read_chunks.insert((first + static_cast<std::uint64_t>(std::countr_zero(m))) >> chunk_shift_);
    }
  }
  return hits;
}

std::uint32_t CacheSim::store(const model::WarpAccess& a) {
  std::uint64_t s[64];
  const std::uint32_t n = sectors(a, s);
  l2_write_sectors += n;
  for (std::uint32_t i = 0; i < n; ++i) footprint_.written_sectors.insert(s[i]);
  return n;
}

}  // namespace tgsim::detail
