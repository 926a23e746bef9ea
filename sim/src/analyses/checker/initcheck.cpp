// Initcheck for global memory: loads of bytes that nobody wrote, as compute-sanitizer's
// initcheck reports them. A byte is written once the host took a mutable view of its buffer
// (Buffer::data(), operator[]: tgsim cannot see which bytes, so all count), once a launch
// without the checker was given the buffer, or once a checked launch stored it (a bitmap per
// buffer, BufferInfo::written, updated after each checked launch). Inside a launch a load is
// uninitialised when its bytes were not written before the launch, its own group did not store
// them before it (an earlier barrier interval, its own thread earlier, a lane of its warp before
// a __syncwarp both took part in), and no other thread stored them in the launch (an unordered
// store of its group or a store of another group makes it a hazard, reported as such).
#include <algorithm>
#include <bit>

#include "analyses/checker/checker.hpp"

namespace tgsim::detail {

std::uint32_t Checker::unwritten_before_launch(std::uint64_t word) const {
  const std::uint64_t addr = word << 2;
  for (const UninitSpan& u : uninit_spans_) {
    if (addr + 4 <= u.begin || addr >= u.end) continue;
    std::uint32_t mask = 0;
    for (std::uint64_t b = std::max(addr, u.begin); b < std::min(addr + 4, u.end); ++b) {
      const std::uint64_t off = b - u.begin;
      const bool written = off / 64 < u.info->written.size() && (u.info->written[off / 64] >> (off % 64) & 1u);
      if (!written) mask |= 1u << (b - addr);
    }
    return mask;
  }
  return 0;
}

// The word's accesses of this interval: each load of bytes not written before it is kept.
void Checker::global_init(GWord& g) {
  const std::uint32_t open = g.pre & ~g.init_bytes;
  word_acc_.clear();
  word_store_.clear();
  for (std::uint32_t i = g.head; i != kNone; i = log_[i].next) {
    word_acc_.push_back(&log_[i]);
    if (log_[i].write) word_store_.push_back(&log_[i]);
  }
  for (const Access* rp : word_acc_) {
    const Access& r = *rp;
    if (r.write || !(r.bytes & open)) continue;
    std::uint32_t covered = 0;
    bool racing = false;
    for (const Access* wp : word_store_) {
      const Access& w = *wp;
      if (!(w.bytes & r.bytes)) continue;
      if (w.thread == r.thread) {
        if (w.seq < r.seq) covered |= w.bytes;
      } else if (w.thread / 32 == r.thread / 32 && warp_ordered(w, r)) {
        if (w.wsync < r.wsync) covered |= w.bytes;
      } else {
        racing = true;
      }
    }
    if (!racing && (r.bytes & open & ~covered))
      uninit_.push_back(UninitLoad{g.word, group_, r.thread, r.site});
  }
}

void global_initcheck(const std::vector<UninitLoad>& loads, const GridShadow& g,
                      const std::vector<BufferSpan>& buffers, HazardMap& out) {
  auto span_of = [&](std::uint64_t addr) -> const BufferSpan* {
    for (const BufferSpan& b : buffers)
      if (addr >= b.begin && addr < b.end) return &b;
    return nullptr;
  };
  for (const UninitLoad& u : loads) {
    const GridShadow::Word* w = g.find(u.word);
    bool other = false;  // another group stored the word: a hazard between groups instead
    if (w)
      for (std::uint64_t t : {w->w[0], w->w[1], w->a[0], w->a[1]})
        other |= t != GridShadow::kEmpty && (t >> 32) != u.group;
    if (other) continue;
    HazardKey key{FindingKind::kUninitialized, false, u.site, ~0u};
    auto [it, inserted] = out.try_emplace(key);
    HazardAgg& h = it->second;
    h.count += 1;
    auto order = std::make_tuple(u.group, u.group, u.thread, u.thread, u.word);
    if (inserted || order < h.order) {
      h.order = order;
      const BufferSpan* b = span_of(u.word << 2);
      h.shared = false;
      h.object = b ? b->info->name : "";
      h.index = b ? static_cast<std::int64_t>(((u.word << 2) - b->begin) / b->info->elem_size) : -1;
      h.element = h.object + "[" + std::to_string(h.index) + "]";
    }
  }
  // The launch's stores, into each buffer's bitmap of written bytes.
  g.for_each([&](std::uint64_t word, const GridShadow::Word& w) {
    if (!w.bytes) return;
    const BufferSpan* b = span_of(word << 2);
    if (!b || b->info->assume_init) return;
    std::vector<std::uint64_t>& bits = b->info->written;
    const std::uint64_t size = b->end - b->begin;
    if (bits.size() < (size + 63) / 64) bits.resize((size + 63) / 64, 0);
    for (std::uint32_t k = 0; k < 4; ++k) {
      const std::uint64_t addr = (word << 2) + k;
      if ((w.bytes >> k & 1u) && addr >= b->begin && addr < b->end)
        bits[(addr - b->begin) / 64] |= 1ull << ((addr - b->begin) % 64);
    }
  });
}

}  // namespace tgsim::detail
