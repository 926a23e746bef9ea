// With the checker on, each store's bytes go to the library after the store:
// __tgsim_note_store(thread, address, width) reads them from memory (abi.h). The calls of a
// region's stores (instrument.cpp) are grouped: one `if (checking)` block holds the calls of
// several stores, placed where the group ends, instead of one block per store (issue 40: 8,000
// stores made 8,000 blocks, and LLVM's Machine CSE, CodeGenPrepare and register allocator grew
// faster than linearly with them).
//
// A call reads the stored bytes when it runs, so a group must end before anything may write
// them again: before a later store of the region that may alias one of the group's (LLVM's
// alias analysis decides; `a[i+1]` and `a[i+2]` do not alias), and before any other
// instruction that may write one of them. Between a store and its call nothing else runs: a
// region has no call that may reach the library, so no other thread of the group runs, and
// each call reads exactly the bytes its store wrote. The calls keep the stores' order, which
// is the order of their records in the log.
#include "internal.hpp"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

MemoryLocation location_of(const Access& a) { return MemoryLocation(a.ptr, LocationSize::precise(a.bytes)); }

// Whether `i` may write a location of `pending` (indices into acc).
bool writes_any(AAResults& aa, Instruction& i, const std::vector<Access>& acc, const std::vector<std::size_t>& pending) {
  for (std::size_t k : pending)
    if (isModSet(aa.getModRefInfo(&i, location_of(acc[k])))) return true;
  return false;
}

}  // namespace

std::vector<NoteFlush> plan_store_notes(AAResults& aa, const std::vector<Access>& acc, std::size_t i, std::size_t j) {
  std::vector<NoteFlush> out;
  std::vector<std::size_t> pending;  // the stores of the open group
  auto flush = [&](Instruction* before, std::size_t upto) {
    if (!pending.empty()) out.push_back({before, upto});
    pending.clear();
  };
  for (std::size_t k = i; k < j; ++k) {
    const Access& a = acc[k];
    if (k > i && !pending.empty())  // other writers between the previous access and this one
      for (Instruction* x = acc[k - 1].at->getNextNode(); x && x != a.at; x = x->getNextNode())
        if (x->mayWriteToMemory() && writes_any(aa, *x, acc, pending)) {
          flush(x, k);
          break;
        }
    if (a.store && !pending.empty()) {
      bool alias = false;
      for (std::size_t p : pending) alias = alias || !aa.isNoAlias(location_of(acc[p]), location_of(a));
      if (alias) flush(a.at, k);
    }
    if (a.store) pending.push_back(k);
  }
  const Access& last = acc[j - 1];
  flush(last.store ? last.at->getNextNode() : last.at, j);
  return out;
}

void emit_store_notes(Context& c, Entry& e, const std::vector<NoteFlush>& flushes, const std::vector<StoreNote>& notes) {
  // From the last group to the first: each split then moves only the instructions up to the
  // next group's block.
  std::size_t n = notes.size();
  for (std::size_t f = flushes.size(); f-- > 0;) {
    std::size_t first = n;
    const std::size_t from = f ? flushes[f - 1].upto : 0;
    while (first > 0 && notes[first - 1].access >= from) --first;
    if (first < n) {
      Instruction* before = flushes[f].before;
      Instruction* then = SplitBlockAndInsertIfThen(e.checking, before, false,
                                                    MDBuilder(c.ctx).createBranchWeights(1, 2000));
      IRBuilder<> b(then);
      b.SetCurrentDebugLocation(before->getDebugLoc());
      for (std::size_t k = first; k < n; ++k)
        b.CreateCall(c.fn_note_store, {e.thread, notes[k].addr, ConstantInt::get(c.i32, notes[k].bytes)});
    }
    n = first;
  }
}

}  // namespace tgsim::pass
