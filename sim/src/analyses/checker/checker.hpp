// Checker: the observer behind LaunchConfig::check (one per worker, held by its checker sink).
// When a barrier interval ends (barrier release or group end), the checker sink reads the
// interval's accesses from the warps' logs (sink_checker.cpp) and hands them to access(), which
// puts each on a list per memory word: shared words through flat arrays indexed by arena word
// (valid by interval and group counters, never cleared), global words through GWord, a 56-byte
// summary per word the group touched, found by an open-addressing index that hashes runs of 16
// words together (a warp's row of words reads one or two lines of it). Left out, because they
// cannot take part in a hazard: constant loads; loads of initialised shared words no store of
// the interval touched ("quiet": the sink's scan over the logs tests them with a class byte per
// tag and one load of sh_quiet_ per access); every log of a warp whose instructions were all
// such loads in a "calm" interval (no shared store in it, every declared shared word
// initialised by the group: calm()), which the sink then does not read at all; and loads of
// buffers the launch cannot store to (BufferSpan::read_only; not taken when an argument may
// carry a pointer the checker cannot see, nor for a buffer with bytes nobody wrote yet, whose
// loads initcheck needs: sim/src/analyses/checker/initcheck.cpp). Then each
// word's accesses are paired with stores of other threads not separated by a
// __syncwarp of their warp (nor, for shared words, by a release then an acquire of libcu++
// shared atomics: ordered_shared, checker_release.cpp), in lockstep order (each thread's access count since the barrier):
// a load with the nearest store before it (RAW) and after it (WAR), a store with the nearest
// store before it (WAW), as a hardware shadow remembering the last access sees them. Labels,
// counts and examples therefore do not depend on the fiber schedule. Global words are also
// summarised per group into GridShadow, a launch-wide table keeping the two lowest groups per
// word and kind (merged at each group's end: the locks of the few pages a run of words touches
// are kept, grid words are prefetched); hazards between groups are decided from it after the
// launch, so the worker count cannot change them. What the groups do may still depend on the
// order of their atomics (a last-block reduction's ticket): with the checker on, global atomics
// between groups take effect in group order (AtomicOrder, launch_state.hpp). A shared word is uninitialised for a load if
// no store of its group came before it (earlier interval, own thread earlier, or a lane before a
// __syncwarp); a global load, when nobody wrote its bytes before (initcheck.cpp).
// Hazards are per byte, as racecheck's: accesses to one word pair only where their bytes
// overlap (two threads storing to different bytes of one word do not race), inside a group and
// between groups (GridShadow keeps per word which bytes groups stored and loaded). The shared
// initialisation marks are kept per 4-byte word.
// Cost, matmul_tiled16 N=128 on one worker (callgrind, `tgsim check --schedule in-order` against
// `tgsim run`, both with the cache model): about 260 M instructions against 156 M (1.67x). The
// loads of A and B are passed over by the sink's scan (read-only buffers: read_only_loads());
// what is left is about 400 instructions per shared store (its value and marks as it happens,
// about 67; the scan of its lane's log, the log record and the end of the interval).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analyses/checker/grid_shadow.hpp"
#include "engine/launch_state.hpp"
#include "stream/warp_instruction.hpp"  // is_write
#include <tgsim/hash.hpp>

namespace tgsim::detail {

struct SharedDecl;

// Hazards and uninitialised reads, grouped by (kind, scope, site pair) with one example.
struct HazardKey {
  FindingKind kind;
  bool grid;  // between two threadgroups
  std::uint32_t site1, site2;
  auto operator<=>(const HazardKey&) const = default;
};
struct HazardAgg {
  std::uint64_t count = 0;
  // The example is the smallest (group1, group2, thread1, thread2, word): any worker count
  // and any schedule give the same one.
  std::tuple<std::uint64_t, std::uint64_t, std::uint32_t, std::uint32_t, std::uint64_t> order;
  bool shared = true;
  std::string object;   // array or buffer name
  std::int64_t index = -1;
  std::string element;  // "tileA[0][1]", "C[17]"
  // The example's accesses have a Metal threadgroup_barrier between them whose flags lack
  // mem_device (it does not order device memory): the message says so.
  bool across_threadgroup_barrier = false;
};
using HazardMap = std::map<HazardKey, HazardAgg>;
// Write-after-write pairs the equal-value rule did not report, keyed and counted as hazards
// (kind kWaw) with their example: information (same_value_note), never a finding.
using SameValuePairs = HazardMap;
inline void merge_hazards(HazardMap& into, const HazardMap& from) {
  merge_examples(into, from, [](auto& a) -> auto& { return a.count; });
}
// Turns hazards into Findings (site ids resolved through `sites`) and adds them to `out`.
void hazard_findings(const HazardMap& h, const std::vector<SiteInfo>& sites,
                     const LaunchConfig& cfg, FindingMap& out);

// A global load of bytes that nobody wrote before it (initcheck; sim/src/analyses/checker/initcheck.cpp): not
// before the launch (host, earlier launches), not by its own group before it. Kept until the
// launch ends: another group storing those bytes in the launch makes it a hazard instead.
struct UninitLoad {
  std::uint64_t word, group;
  std::uint32_t thread, site;
};
// Turns the launch's uninitialised loads into findings, and marks the bytes its stores wrote
// in their buffers (BufferInfo::written) for the next launches.
void global_initcheck(const std::vector<UninitLoad>& loads, const GridShadow& g,
                      const std::vector<BufferSpan>& buffers, HazardMap& out);

// Names a global word for a hazard's example: its buffer and element, else its address
// (checker_findings.cpp).
void describe_global(HazardAgg& h, const std::vector<BufferSpan>& buffers, std::uint64_t word);

// Decides the hazards between groups once every group has run.
// `same_value_waw`: LaunchConfig::report_same_value_waw.
// The equal-value rule's unreported pairs as notes of the report, one per pair of source lines
// with its example (threads, element), leaving out pairs whose two stores both store constants
// of the program (SiteInfo::store_value): those are equal in every run. The rest are equal in
// this run only because the data they were computed from was (or, for a C++ kernel, whose
// values tgsim cannot tell apart from constants, may have been).
void same_value_note(const SameValuePairs& pairs, const std::vector<SiteInfo>& sites,
                     const LaunchConfig& cfg, std::vector<std::string>& notes);
// Between groups; the pairs the equal-value rule leaves out go to `same_value`.
void grid_hazards(const GridShadow& g, const std::vector<BufferSpan>& buffers, bool same_value_waw,
                  SameValuePairs& same_value, HazardMap& out);
// The bytes of the launch's buffers some group wrote by an atomic or stored after one
// (GridShadow::Word::explained), as ranges of byte offsets per buffer, sorted and merged.
std::vector<AtomicBytes> atomic_bytes(const GridShadow& g, const std::vector<BufferSpan>& buffers);

// A store's bytes as one 64-bit value (a 16-byte store: halves folded), for same-value WAW.
// Widths other than 4 and 8 out of line (fold_other_width), so that the common case needs no
// stack slot in its caller.
[[gnu::noinline]] std::uint64_t fold_other_width(const void* value, std::uint32_t width);
inline std::uint64_t fold_store_value(const void* value, std::uint32_t width) {
  if (!value) return 0;
  if (width == 4) {  // fixed-size copies: no call to memcpy
    std::uint32_t x;
    std::memcpy(&x, value, 4);
    return x;
  }
  if (width == 8) {
    std::uint64_t v;
    std::memcpy(&v, value, 8);
    return v;
  }
  return fold_other_width(value, width);
}

class Checker {
 public:
  // `valid_bytes`: the arena bytes the kernel declared (calm() looks at their words).
  Checker(LaunchState& st, std::size_t arena_bytes, std::size_t valid_bytes);
  void start_group(std::uint64_t group, const std::deque<SharedDecl>* decls);
  // A shared store inside the word at (4-byte aligned) arena offset `addr`; false (nothing
  // marked) when the word lies outside the tables.
  bool mark_shared_word(std::uint64_t addr) {
    const std::uint64_t w = addr >> 2;
    if (w >= sh_wtag_.size()) return false;
    ++sh_marks_;
    sh_restored_ |= sh_wtag_[w] == interval_;
    stored_word(w);
    return true;
  }
  // A shared store (or atomic) of this interval covers these words.
  // (Within one word: mark_shared_word, which notes a word stored twice. Across words: never
  // a lone store.)
  void mark_shared_store(std::uint64_t addr, std::uint32_t width) {
    if ((addr & 3) + width <= 4 && mark_shared_word(addr & ~std::uint64_t(3))) return;
    ++sh_marks_;
    sh_restored_ = true;
    const std::uint64_t last = (addr + width - 1) >> 2;
    for (std::uint64_t w = addr >> 2; w <= last && w < sh_wtag_.size(); ++w) stored_word(w);
  }
  // The test for a one-word shared load with nothing to check: no store to its word in this
  // interval and the word initialised by the group (so neither a hazard nor an uninitialised
  // read). One table load per test: sh_quiet_[w] is the interval from which the word is quiet
  // (kNone while a store of this interval touches it, older than the group's first interval
  // while the group has not stored it), so the word is quiet when that interval lies in
  // [first, now]. A copy of the table's state, taken when an interval's reading starts.
  struct Quiet {
    const std::uint32_t* from;
    std::uint64_t bytes;
    std::uint32_t first, span;  // the group's first interval, and now - first
    // `off`: the arena offset of a shared load of at most 4 bytes.
    bool operator()(std::uint64_t off) const {
      // (a load not 4-byte aligned: the full path)
      return (off & 3) == 0 && off < bytes && from[off >> 2] - first <= span;
    }
  };
  Quiet quiet() const {
    return Quiet{sh_quiet_.data(), sh_bytes_, group_interval_, interval_ - group_interval_};
  }
  bool quiet_shared_load(std::uint64_t addr) const { return quiet()(addr); }
  // Lone stores: every shared store of this interval so far was of one word, each word stored
  // once, and nothing has been handed to access() yet. If the interval's reading then finds no
  // access to check but such stores, no access has a partner (a word's only access is its one
  // store): lone_stores() applies what end_interval() does for a word with one store (it
  // becomes initialised, quiet from the next interval) without logging the accesses.
  bool lone_stores_possible() const { return !sh_restored_ && sh_touched_.empty() && log_.size() == 0; }
  std::uint64_t shared_bytes() const { return sh_bytes_; }
  void lone_stores(const std::vector<std::uint32_t>& words) {
    for (std::uint32_t w : words) {
      const bool was_init = sh_init_[w] == serial_;
      sh_init_[w] = serial_;
      initialised(w, was_init);
    }
  }
  // No shared store in this interval so far and every word of the declared bytes initialised
  // by the group: every shared load inside those bytes is quiet.
  bool calm() const { return sh_marks_ == 0 && init_valid_ == valid_words_; }
  // One access of `thread`: its `seq`-th since the barrier (lockstep time); `wsync`: the number
  // of the last __syncwarp of this interval its lane took part in (0: none); `stored`: a
  // store's folded bytes.
  void access(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync, std::uint32_t site,
              SiteKind kind, std::uint64_t addr, std::uint32_t width, std::uint64_t stored) {
    seq += seq_base_;  // (0 unless barriers that do not order device memory came before)
    // The common case inline: a plain shared load or store of one word (most accesses of tiled
    // kernels), written in one piece into the raw log.
    const bool load = kind == SiteKind::kSharedLoad;
    if ((load || kind == SiteKind::kSharedStore) && (addr & 3) + width <= 4 && addr < sh_bytes_)
        [[likely]] {
      const std::uint32_t w = static_cast<std::uint32_t>(addr >> 2);
      std::uint32_t head = sh_head_[w];
      if (sh_tag_[w] != interval_) [[unlikely]] {
        sh_tag_[w] = interval_;
        head = kNone;
        sh_touched_.push_back(w);
      }
      if (!load) sh_wtag_[w] = interval_;
      const std::uint32_t idx = log_.append();
      sh_head_[w] = idx;
      log_[idx] = Access{head, seq, site, wsync, static_cast<std::uint16_t>(thread), !load, false,
                         static_cast<std::uint16_t>(width),
                         static_cast<std::uint16_t>(((1u << width) - 1) << (addr & 3)),
                         load ? 0 : stored};
      return;
    }
    if ((kind == SiteKind::kGlobalLoad || kind == SiteKind::kGlobalStore) && (addr & 3) + width <= 4) {
      global_plain(thread, seq, wsync, site, kind == SiteKind::kGlobalStore, addr, width, stored);
      return;
    }
    access_general(thread, seq, wsync, site, kind, addr, width, stored);
  }
  // A global atomic of block scope (atomicAdd_block, atomic_ref<T, thread_scope_block>): an
  // atomic inside its group, but for other groups an unordered load and store of its bytes,
  // neither released nor acquired (checker_release.cpp).
  void block_scope_atomic(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync, std::uint32_t site,
                          std::uint64_t addr, std::uint32_t width);
  // A libcu++ atomic of shared memory (cuda::atomic_ref; `order`: TagInfo::kSharedOrder* bits):
  // an atomic (its loads and stores race no other atomic) and, by its memory order, an acquire
  // or a release inside the group (checker_release.cpp: synced_before).
  void ordered_shared(std::uint8_t order, std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                      std::uint32_t site, SiteKind kind, std::uint64_t addr, std::uint32_t width,
                      std::uint64_t stored);
  // The lanes that took part in each __syncwarp of `warp` in this interval (an access's wsync
  // is the number of the last one its lane took part in).
  void warp_syncs(std::uint32_t warp, const std::vector<std::uint32_t>& masks) {
    if (warp >= sync_masks_.size()) sync_masks_.resize(warp + 1);
    sync_masks_[warp] = masks;
  }
  // The interval's device-scope fences of `warp` (WarpLog::fences: lane << 32 | seq).
  void warp_fences(std::uint32_t warp, const std::vector<std::uint64_t>& fences) {
    for (std::uint64_t f : fences)
      fences_.push_back((std::uint64_t(warp) * 32 + (f >> 32)) << 32 | ((f + seq_base_) & 0xFFFFFFFFu));
  }
  // A barrier was released, or the group ends. device_ordered false: a barrier that orders
  // threadgroup memory only (Metal's threadgroup_barrier(mem_flags::mem_threadgroup)): the
  // global words' accesses stay on their lists, unordered with those of the next interval
  // (their lockstep times go on after `longest_lane`, the most accesses a lane made in it).
  void end_interval(bool device_ordered = true, std::uint32_t longest_lane = 0);
  // Whether a store of `thread` at lockstep time `seq` may carry, or depend on, the result of an
  // atomic: its thread made an atomic earlier in this interval, or some thread of its group
  // did in an earlier one (a value handed on through shared memory across the barrier, as a
  // block's base offset from one atomicAdd is). A thread-level over-approximation of data
  // flow from an atomic's return value, which the logs do not carry.
  bool after_atomic(std::uint32_t thread, std::uint32_t seq) const {
    if (group_atomic_) return true;
    if (!interval_atomic_ || thread >= atomic_at_.size()) return false;
    const std::uint64_t at = atomic_at_[thread];
    return (at >> 32) == interval_ && static_cast<std::uint32_t>(at) < seq;
  }
  // Whether a load of `thread` at lockstep time `seq` is acquired (checker_release.cpp): it
  // follows an atomic that acquires (its thread's earlier in this interval, or any of its group
  // in an earlier one), or a device-scope fence of its thread that follows a relaxed atomic.
  bool acquired(std::uint32_t thread, std::uint32_t seq) const {
    if (group_acquire_) return true;
    if (interval_acquire_ && thread < acquire_seq_.size()) {
      const std::uint64_t at = acquire_seq_[thread];
      if ((at >> 32) == interval_ && static_cast<std::uint32_t>(at) < seq) return true;
    }
    return relaxed_seen_ && !fences_.empty() && fence_acquired(thread, seq);
  }
  // The next atomic access told to the checker does not acquire (libcu++'s relaxed or release
  // order, or a store: TagInfo::no_acquire); false again after it.
  void no_acquire_next(bool on) { no_acquire_next_ = on; }
  void end_group();
  // The group was parked while other groups ran, and runs on: its loads acquire what any group
  // released (checker_release.cpp).
  void resumed() { acquire_at_ = kLateAcquire; }
  const HazardMap& hazards() const { return hazards_; }
  const SameValuePairs& same_value_pairs() const { return same_value_; }
  // [begin, begin + bytes) holds no byte of a buffer the launch may store to or whose bytes
  // may be uninitialised: a load of at most 16 bytes starting there is never logged.
  struct Span {
    std::uint64_t begin = 0, bytes = 0;
  };
  static constexpr std::size_t kReadOnlyScan = 4;  // at most this many (global_plain tests all)
  const std::vector<Span>& read_only_loads() const { return read_only_loads_; }
  const std::vector<UninitLoad>& uninit_loads() const { return uninit_; }

 private:
  static constexpr std::uint32_t kNone = ~0u;
  struct Access {
    std::uint32_t next;   // the word's previous access in this interval, or kNone
    std::uint32_t seq;    // the thread's accesses since the barrier: its lockstep time
    std::uint32_t site;
    std::uint32_t wsync;  // the last __syncwarp its lane took part in (warp_ordered)
    std::uint16_t thread;
    bool write;           // a store or an atomic
    bool atomic;          // (no char-sized fields: their stores would alias every pointer)
    std::uint16_t width;
    std::uint16_t bytes;  // the bytes of the word it touches (bit i: byte i): hazards are per byte
    std::uint64_t value;  // stored bytes (a 16-byte store: halves folded)
  };
  // The interval's accesses: a raw growable array (the append is a compare and an add).
  class AccessLog {
   public:
    ~AccessLog() { std::free(data_); }
    std::uint32_t append() {  // index of a new, uninitialised record
      if (n_ == cap_) [[unlikely]] grow();
      return n_++;
    }
    Access& operator[](std::uint32_t i) { return data_[i]; }
    const Access& operator[](std::uint32_t i) const { return data_[i]; }
    std::uint32_t size() const { return n_; }
    void clear() { n_ = 0; }

   private:
    [[gnu::noinline, gnu::cold]] void grow();
    Access* data_ = nullptr;
    std::uint32_t n_ = 0, cap_ = 0;
  };
  static constexpr std::uint16_t kNoThread = 0xFFFF;  // (threads of a group: below 1024)
  struct GWord {  // a global word this group touched (56 bytes: one is written per new word)
    std::uint64_t word = 0;     // address / 4
    std::uint64_t wvalue = 0;   // the bytes of its first plain store (width: wwidth)
    std::uint32_t tag = kNone;  // epoch (g_epoch_) whose list `head` starts
    std::uint32_t wtag = kNone; // last epoch with a store or an atomic here
    std::uint32_t head = kNone;
    std::uint32_t wsite = 0, rsite = 0, asite = 0;
    // The lowest thread that stored, loaded, used an atomic here (kNoThread: none).
    std::uint16_t wthread = kNoThread, rthread = kNoThread, athread = kNoThread;
    std::uint8_t wwidth = 0;
    bool wmixed = false;  // its plain stores wrote different bytes
    // Initcheck: bytes not written before the launch (0: nothing to check), bytes this group
    // stored so far, and as of the end of its previous interval (bit i: byte i of the word).
    std::uint8_t pre = 0, stored = 0, init_bytes = 0;
    std::uint8_t pstored = 0, loaded = 0;  // bytes of its plain stores and plain loads
    // Bytes whose value may depend on the order of atomics: written by an atomic, or stored
    // after an atomic (after_atomic). `tgsim check` lets a result that differs between
    // schedules only in such bytes pass as information (sim/cli/check_file.cpp).
    std::uint8_t explained = 0;
    // Release and acquire (checker_release.cpp): bytes of plain stores no fence-then-atomic of
    // the group has released yet, and bytes of plain loads made before any atomic of the group
    // (after_atomic: not acquired).
    std::uint8_t pend = 0, unacq = 0;
  };
  struct UninitSpan {  // a buffer of the launch with bytes not written before it
    std::uint64_t begin, end;
    const BufferInfo* info;
  };
  std::uint32_t unwritten_before_launch(std::uint64_t word) const;
  void global_init(GWord& g);
  bool in_read_only_buffer(std::uint64_t addr) const {
    for (const auto& r : read_only_)
      if (addr >= r.first && addr < r.second) return true;
    return false;
  }
  void access_general(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                      std::uint32_t site, SiteKind kind, std::uint64_t addr, std::uint32_t width,
                      std::uint64_t stored);
  // A plain global load or store inside one word.
  void global_plain(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync, std::uint32_t site,
                    bool write, std::uint64_t addr, std::uint32_t width, std::uint64_t stored);
  // A word's first slot in gindex_ (before masking): runs of 16 words are hashed together and
  // keep their order, so a warp's row of words reads one or two cache lines of the index.
  // Probes are linear (slot after slot): any free slot of the index is reached.
  static std::size_t home_slot(std::uint64_t word) {
    return (((word >> 4) * kGoldenGamma) >> 20 << 4) | (word & 15);
  }
  // The word's index in gwords_, added on its first access by the group.
  std::uint32_t global_word(std::uint64_t word) {
    const std::size_t m = gindex_.size() - 1;
    for (std::size_t h = home_slot(word);; ++h) {
      const std::uint32_t slot = gindex_[h & m];
      if (slot == 0) return new_global_word(word, h & m);
      if (gwords_[slot - 1].word == word) return slot - 1;
    }
  }
  std::uint32_t new_global_word(std::uint64_t word, std::size_t slot);
  // The group's entry of a global word, emptied at its first access in this interval.
  GWord& touch_global_word(std::uint64_t word) {
    const std::uint32_t i = global_word(word);
    GWord& g = gwords_[i];
    if (g.tag != g_epoch_) {
      g.tag = g_epoch_;
      g.head = kNone;
      g_touched_.push_back(i);
    }
    return g;
  }
  // The bytes of word `word` that [addr, addr + width) covers, one bit a byte.
  static std::uint32_t word_bytes(std::uint64_t addr, std::uint32_t width, std::uint64_t word) {
    const std::uint64_t lo = std::max(addr, word << 2) - (word << 2);
    const std::uint64_t hi = std::min(addr + width, (word << 2) + 4) - (word << 2);
    return ((1u << (hi - lo)) - 1) << lo;
  }
  void store_to_read_only(std::uint32_t thread, std::uint32_t seq, std::uint32_t site,
                          std::uint64_t word);
  void analyze(bool shared, std::uint64_t word, std::uint32_t head, std::uint32_t* init);
  // Two accesses of lanes of one warp are ordered when a __syncwarp both lanes took part in
  // lies between them.
  bool warp_ordered(const Access& a, const Access& b) const;
  void add(FindingKind kind, bool shared, std::uint64_t word, const Access& a, const Access* b) {
    add_to(hazards_, last_, kind, shared, word, a, b);
  }
  void add_to(HazardMap& map, HazardMap::iterator& last, FindingKind kind, bool shared, std::uint64_t word,
              const Access& a, const Access* b);
  void describe(HazardAgg& h, bool shared, std::uint64_t word);
  void merge_grid();
  // Shared word w stored in this interval: not quiet until the interval ends.
  void stored_word(std::uint64_t w) {
    sh_wtag_[w] = interval_;
    sh_quiet_[w] = kNone;
  }
  // Shared word w initialised by the group when this interval ends (was_init: already before):
  // quiet from the next interval.
  void initialised(std::uint32_t w, bool was_init) {
    sh_quiet_[w] = interval_ + 1;
    init_valid_ += !was_init && w < valid_words_;
  }
  struct HeldPages {  // grid pages whose lock merge_grid holds
    static constexpr std::size_t kMax = 4;
    GridShadow::Page* p[kMax] = {};
    std::size_t n = 0, next = 0;
  };
  static void lock_page(GridShadow::Page* p, HeldPages& h);

  LaunchState& st_;
  const std::deque<SharedDecl>* decls_ = nullptr;
  std::vector<std::vector<std::uint32_t>> sync_masks_;  // per warp, this interval
  std::vector<UninitSpan> uninit_spans_;
  std::vector<UninitLoad> uninit_;
  std::uint64_t group_ = 0;
  // Where the group's acquires fall in the order of the launch's atomics: its own number, or,
  // once it was parked and resumed after later groups ran (engine/coresident.cpp), after all.
  static constexpr std::uint32_t kLateAcquire = 0x7fffffffu;
  std::uint32_t acquire_at_ = 0;
  std::uint32_t serial_ = 0;    // groups run by this worker: shared words' init marks
  std::uint32_t interval_ = 0;  // barrier intervals run by this worker: list validity
  std::uint32_t group_interval_ = 0;  // the current group's first interval
  // The first interval whose global accesses are on the lists: interval_ unless barriers that
  // order threadgroup memory only came since (end_interval). GWord::tag and wtag name it.
  std::uint32_t g_epoch_ = 0;
  std::uint32_t seq_base_ = 0;  // lockstep time of the interval's start within the epoch
  std::uint32_t carried_ = 0;   // log_ records below this index are of earlier intervals
  std::vector<std::uint32_t> unordered_at_;  // the epoch's barriers, as lockstep times (seq_base_)
  // Whether such a barrier lies between two accesses of the epoch.
  bool across_unordered(const Access& a, const Access& b) const {
    const std::uint32_t lo = std::min(a.seq, b.seq), hi = std::max(a.seq, b.seq);
    for (std::uint32_t at : unordered_at_)
      if (lo < at && at <= hi) return true;
    return false;
  }
  AccessLog log_;
  // [begin, end) of the launch's buffers that it cannot store to (BufferSpan::read_only).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> read_only_;
  std::vector<Span> read_only_loads_;  // read_only_, each shortened by 15 bytes
  std::uint64_t sh_bytes_ = 0;  // shared memory the arena words cover
  std::vector<const Access*> word_acc_;    // scratch: one word's accesses
  std::vector<const Access*> word_store_;  // scratch: the stores among them
  // shared memory, per arena word
  std::vector<std::uint32_t> sh_head_, sh_tag_, sh_wtag_, sh_init_;  // sh_wtag_: last stored in
  std::vector<std::uint32_t> sh_quiet_;  // the interval from which the word is quiet (Quiet)
  std::uint32_t sh_marks_ = 0;      // shared stores marked in this interval
  bool sh_restored_ = false;        // one of them wider than a word, or a word stored twice
  std::uint32_t valid_words_ = 0;   // words holding the declared bytes
  std::uint32_t init_valid_ = 0;    // of them, initialised by the group so far
  std::vector<std::uint32_t> sh_touched_;
  // global memory: this group's words in first-touch order, and an open-addressing index
  std::vector<GWord> gwords_;
  std::vector<std::uint32_t> gindex_;  // dense index + 1; 0 = empty
  std::vector<std::uint32_t> g_touched_;  // dense indices touched in this interval
  // A direct-mapped cache of the launch's grid pages (the directory is behind a mutex; pages
  // live until the launch ends), kept across this worker's groups.
  static constexpr std::size_t kPageCache = 1024;
  std::vector<std::pair<std::uint64_t, GridShadow::Page*>> page_cache_;
  HazardMap hazards_;
  HazardMap::iterator last_ = hazards_.end();  // the key most recently hit
  // after_atomic: per thread, interval << 32 | seq of its first atomic in the interval.
  std::vector<std::uint64_t> atomic_at_;
  bool interval_atomic_ = false, group_atomic_ = false;
  // Release (checker_release.cpp): the interval's device-scope fences (thread << 32 | seq), and
  // the fences a global atomic of their thread followed (a release of the thread's stores).
  std::vector<std::uint64_t> fences_, releases_;
  // Acquire (checker_release.cpp): per thread, interval << 32 | seq of its first acquiring
  // atomic in the interval (acquire_seq_) and of its first relaxed one (relaxed_seq_); per
  // thread, the group (serial_) in an earlier interval of which it made a relaxed atomic (so a
  // fence of that thread acquires); whether the interval, or an earlier one of the group,
  // acquired; whether the group made a relaxed atomic (so a fence may acquire).
  std::vector<std::uint64_t> acquire_seq_, relaxed_seq_;
  std::vector<std::uint32_t> relaxed_group_;
  bool interval_acquire_ = false, group_acquire_ = false;
  bool relaxed_seen_ = false, no_acquire_next_ = false;
  bool fence_acquired(std::uint32_t thread, std::uint32_t seq) const;
  void note_atomic_acquire(std::uint32_t thread, std::uint32_t seq);
  void end_interval_acquire();
  // Release and acquire inside the group through libcu++ atomics of shared memory
  // (checker_release.cpp): ordered_shared's bits for access_general; per thread, interval << 32
  // | seq of its first acquire and of its last release in the interval; whether it made any.
  std::uint8_t order_next_ = 0;
  std::vector<std::uint64_t> sh_acquire_at_, sh_release_at_;
  bool sh_orders_ = false;
  void note_shared_order(std::uint32_t thread, std::uint32_t seq);
  bool synced_before(const Access& x, const Access& y) const;
  SameValuePairs same_value_;
  HazardMap::iterator same_last_ = same_value_.end();  // the key most recently hit
  void release_stores();
  void note_release(std::uint32_t thread, std::uint32_t seq);
  static bool same_bytes(const Access& a, const Access& b);
  static void merge_order(GridShadow::Page& p, std::uint32_t index, const GWord& g, std::uint32_t group,
                          std::uint32_t acquire);
};

}  // namespace tgsim::detail
