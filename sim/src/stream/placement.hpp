// Placement: where an address of front-end-compiled code (a kLoad/kStore record, an atomic's or
// a memset's target) lies, which its address alone says: the group's shared arena -> shared
// memory (at its offset; past the bytes the kernel declared and the launch gave: invalid); a
// registered device allocation -> global memory (a red-zone hit or a freed buffer: invalid,
// naming the buffer); the worker's fiber stacks -> local memory; anything else -> invalid. An
// invalid access's finding text is made here too (misplaced); the counting of placed accesses
// is the stream's (placement.cpp, GroupRun::count_placed).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <tgsim/memory.hpp>
#include <tgsim/report.hpp>

#include "memory/device_memory.hpp"

namespace tgsim::detail {

class Placement {
 public:
  enum class Space : std::uint8_t { kGlobal, kShared, kLocal, kInvalid };
  // The group's shared arena of `bytes`, of which the first `valid` are the kernel's.
  void set_shared(const std::byte* arena, std::size_t bytes, std::size_t valid) {
    base_ = reinterpret_cast<std::uint64_t>(arena);
    bytes_ = bytes;
    valid_ = valid;
  }
  std::uint64_t shared_base() const { return base_; }
  std::size_t shared_valid() const { return valid_; }
  // The space of [addr, addr + width): for kShared its offset in the arena; for an invalid
  // access in or beside a device buffer, that buffer.
  Space place(std::uint64_t addr, std::uint32_t width, std::uint64_t* shared_offset, const BufferInfo** bad_buffer);
  // The device allocation whose zone holds addr (null: none), from a small cache.
  const DeviceRange* global_range(std::uint64_t addr) { return ranges_.find(addr); }
  // The finding of an invalid access of `width` bytes at addr (`buffer`: place()'s).
  struct Misplaced {
    FindingKind kind;
    std::string message;
  };
  Misplaced misplaced(std::uint32_t width, std::uint64_t addr, const BufferInfo* buffer) const;

 private:
  std::uint64_t base_ = 0;
  std::size_t bytes_ = 0, valid_ = 0;
  RangeCache ranges_;  // device allocations of front-end accesses
};

}  // namespace tgsim::detail
