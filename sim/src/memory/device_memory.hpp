// Global memory as raw pointers see it: every device allocation (Buffer, cudaMalloc, a module's
// __device__ and __constant__ variables) is registered here, so the address of an access made
// through any pointer tells its buffer. Each allocation is its own anonymous mapping with red
// zones of 4 GiB before and after it (address space only until touched): an index past the
// end by up to 4 GiB, a whole buffer's length included, lands in its own red zone, never in a
// neighbouring buffer, and is reported as out of bounds of the buffer it overran. Further out,
// it may reach a neighbour's zone (then named instead) or unmapped memory (guard.hpp).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include <tgsim/memory.hpp>

namespace tgsim::detail {

struct DeviceRange {
  std::uint64_t begin = 0, end = 0;            // the valid bytes
  std::uint64_t zone_begin = 0, zone_end = 0;  // with the red zones (an empty range: no zone)
  const BufferInfo* info = nullptr;
  // Where the cache model sees it: simulated device addresses, handed out in allocation order
  // (4 KiB aligned, like the host mapping), so cache sets and hits do not depend on where the
  // host's address-space layout put the buffer.
  std::uint64_t device_begin = 0;
  bool contains(std::uint64_t a) const { return a - begin < end - begin; }
  bool in_zone(std::uint64_t a) const { return a - zone_begin < zone_end - zone_begin; }
};

// The range whose zone holds `addr`; info is null when none does.
DeviceRange find_device_range(std::uint64_t addr);
// The range of a library allocation (one with a red zone) nearest to `addr`, below or above;
// info is null when there is none. For findings about wild accesses (guard.hpp).
DeviceRange nearest_device_range(std::uint64_t addr);

// The simulated device addresses [begin, end) of every registered range (freed ones still
// kept included): the cache model's launch-wide bitmaps cover them. A range registered later
// lies at or above `end`.
struct DeviceSpan {
  std::uint64_t begin = 0, end = 0;
};
DeviceSpan device_address_span();

// Bumped whenever a range is removed: caches of ranges compare it before trusting an entry.
extern std::atomic<std::uint64_t> device_generation;

// Registers memory the library did not allocate (a module's variables): no red zone.
// red_zone: bytes after the range that belong to it (an access there is out of its bounds).
void register_device_range(const void* p, std::size_t bytes, const BufferInfo* info, std::size_t red_zone = 0);
void unregister_device_range(const void* p);
// The device heap's limit (cudaLimitMallocHeapSize; device_heap.cpp).
std::size_t device_heap_limit();
void set_device_heap_limit(std::size_t bytes);
// Held by a launch while it runs: the device heap's freed blocks are unmapped when none runs.
struct DeviceHeapLaunch {
  DeviceHeapLaunch();
  ~DeviceHeapLaunch();
  DeviceHeapLaunch(const DeviceHeapLaunch&) = delete;
  DeviceHeapLaunch& operator=(const DeviceHeapLaunch&) = delete;
};

// One worker's cache of the last ranges it found (find_device_range takes a lock): emptied
// when device_generation changes.
class RangeCache {
 public:
  const DeviceRange* find(std::uint64_t addr);  // null when no range's zone holds addr

 private:
  DeviceRange ranges_[4];
  std::uint64_t generation_ = ~std::uint64_t(0);
};

}  // namespace tgsim::detail
