// The device allocation registry (device_memory.hpp): a sorted map of ranges under a
// reader-writer lock. Lookups happen when a warp instruction's address is placed, per group
// through a small cache (RangeCache), so the lock is taken about once per buffer and worker.
#include "memory/device_memory.hpp"

#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <shared_mutex>

namespace tgsim::detail {

std::atomic<std::uint64_t> device_generation{0};

namespace {

struct Registry {
  std::shared_mutex mu;
  std::map<std::uint64_t, DeviceRange> by_zone_begin;
  struct Mapping {
    void* base;
    std::size_t bytes;
  };
  std::map<std::uint64_t, Mapping> mappings;  // by the valid range's start
  std::deque<std::uint64_t> freed;             // freed allocations still mapped, oldest first
  std::set<std::uint64_t> device_begins;       // of the ranges in by_zone_begin
};
Registry& registry() {
  static Registry* r = new Registry;  // outlives every static Buffer
  return *r;
}

std::size_t page() {
  static const std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return p;
}

// A red zone of 4 GiB, or as long as the buffer up to 64 GiB: address space only, read as
// zeros until touched. Any 32-bit byte offset, an int index into floats up to 2^30, and an
// overrun by a whole row or a whole buffer stay in it, so the finding names the buffer and the
// index. Where the address space is limited (ulimit -v) the old, smaller zone is used: as long
// as the buffer, at least 64 KiB and at most 1 GiB.
std::size_t zone_bytes(std::size_t bytes, bool small) {
  constexpr std::size_t GiB = std::size_t(1) << 30;
  const std::size_t z = small ? std::clamp<std::size_t>(bytes, 64 * 1024, GiB)
                              : std::clamp<std::size_t>(bytes, 4 * GiB, 64 * GiB);
  return (z + page() - 1) / page() * page();
}

// The next simulated device address (device_memory.hpp): under the registry's lock.
std::uint64_t next_device_address = std::uint64_t(1) << 40;
std::uint64_t take_device_address(std::size_t bytes) {
  const std::uint64_t a = next_device_address;
  next_device_address += (static_cast<std::uint64_t>(bytes) + 2 * 4096 - 1) / 4096 * 4096;
  return a;
}

// Under the registry's lock.
void add_range(Registry& g, DeviceRange& r) {
  r.device_begin = take_device_address(r.end - r.begin);
  if (auto old = g.by_zone_begin.find(r.zone_begin); old != g.by_zone_begin.end())
    g.device_begins.erase(old->second.device_begin);  // registered again: replaced
  g.device_begins.insert(r.device_begin);
  g.by_zone_begin[r.zone_begin] = r;
}

void remove_range(Registry& g, std::uint64_t zone_begin) {
  auto it = g.by_zone_begin.find(zone_begin);
  if (it == g.by_zone_begin.end()) return;
  g.device_begins.erase(it->second.device_begin);
  g.by_zone_begin.erase(it);
}

void insert(DeviceRange r) {
  Registry& g = registry();
  std::unique_lock lock(g.mu);
  add_range(g, r);
}

}  // namespace

DeviceRange find_device_range(std::uint64_t addr) {
  Registry& g = registry();
  std::shared_lock lock(g.mu);
  auto it = g.by_zone_begin.upper_bound(addr);
  if (it == g.by_zone_begin.begin()) return {};
  --it;
  return it->second.in_zone(addr) ? it->second : DeviceRange{};
}

DeviceRange nearest_device_range(std::uint64_t addr) {
  Registry& g = registry();
  std::shared_lock lock(g.mu);
  DeviceRange best;
  std::uint64_t best_gap = ~std::uint64_t(0);
  auto consider = [&](const DeviceRange& r) {
    if (r.zone_begin == r.begin) return;  // registered, not allocated: a module's variable
    const std::uint64_t gap = addr < r.begin ? r.begin - addr : addr - r.end;
    if (gap < best_gap) best = r, best_gap = gap;
  };
  auto it = g.by_zone_begin.upper_bound(addr);
  for (auto up = it; up != g.by_zone_begin.end(); ++up)
    if (up->second.zone_begin != up->second.begin) {
      consider(up->second);
      break;
    }
  while (it != g.by_zone_begin.begin()) {
    --it;
    if (it->second.zone_begin != it->second.begin) {
      consider(it->second);
      break;
    }
  }
  return best;
}

DeviceSpan device_address_span() {
  Registry& g = registry();
  std::shared_lock lock(g.mu);
  if (g.device_begins.empty()) return {next_device_address, next_device_address};
  return {*g.device_begins.begin(), next_device_address};
}

void* device_alloc(std::size_t bytes, const BufferInfo* info) {
  if (bytes > (std::size_t(1) << 46))
    throw std::length_error("tgsim: a device allocation of " + std::to_string(bytes) +
                            " bytes is more than the 2^46 bytes the access log can address");
  const std::size_t body = (std::max<std::size_t>(bytes, 1) + page() - 1) / page() * page();
  std::size_t z = 0, total = 0;
  void* base = MAP_FAILED;
  for (bool small : {false, true}) {
    z = zone_bytes(bytes, small);
    total = z + body + z;
    base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base != MAP_FAILED) break;
  }
  if (base == MAP_FAILED) throw std::bad_alloc();
  auto b = reinterpret_cast<std::uint64_t>(base);
  DeviceRange r{b + z, b + z + bytes, b, b + total, info};
  {
    Registry& g = registry();
    std::unique_lock lock(g.mu);
    add_range(g, r);
    g.mappings[r.begin] = Registry::Mapping{base, total};
  }
  return reinterpret_cast<void*>(r.begin);
}

// A freed allocation keeps its address range (its pages are given back): an access through a
// stale pointer lands in it and is reported as use after free (the BufferInfo says freed), not
// a crash. The oldest freed ranges are unmapped when more than kKeptFreed are kept.
constexpr std::size_t kKeptFreed = 4096;

void device_free(void* p) noexcept {
  if (!p) return;
  Registry& g = registry();
  Registry::Mapping gone{};
  {
    std::unique_lock lock(g.mu);
    auto it = g.mappings.find(reinterpret_cast<std::uint64_t>(p));
    if (it == g.mappings.end()) return;
    ::madvise(it->second.base, it->second.bytes, MADV_DONTNEED);
    g.freed.push_back(it->first);
    if (g.freed.size() <= kKeptFreed) return;
    auto old = g.mappings.find(g.freed.front());
    g.freed.pop_front();
    gone = old->second;
    remove_range(g, reinterpret_cast<std::uint64_t>(gone.base));
    g.mappings.erase(old);
    device_generation.fetch_add(1, std::memory_order_release);
  }
  ::munmap(gone.base, gone.bytes);
}

void register_device_range(const void* p, std::size_t bytes, const BufferInfo* info, std::size_t red_zone) {
  auto b = reinterpret_cast<std::uint64_t>(p);
  insert(DeviceRange{b, b + bytes, b, b + bytes + red_zone, info});
}

void unregister_device_range(const void* p) {
  Registry& g = registry();
  std::unique_lock lock(g.mu);
  remove_range(g, reinterpret_cast<std::uint64_t>(p));
  device_generation.fetch_add(1, std::memory_order_release);
}

const DeviceRange* RangeCache::find(std::uint64_t addr) {
  const std::uint64_t gen = device_generation.load(std::memory_order_acquire);
  if (gen != generation_) {
    for (DeviceRange& r : ranges_) r = DeviceRange{};
    generation_ = gen;
  }
  for (const DeviceRange& r : ranges_)
    if (r.info && r.in_zone(addr)) return &r;
  DeviceRange r = find_device_range(addr);
  if (!r.info) return nullptr;
  std::rotate(ranges_, ranges_ + 3, ranges_ + 4);
  ranges_[0] = r;
  return &ranges_[0];
}

}  // namespace tgsim::detail
