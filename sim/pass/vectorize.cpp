// What ptxas merges: adjacent accesses of one thread become one wider instruction (LDS.64/128,
// STS.64/128, LDG.E.64/128, STG.E.64/128) where the compiler can prove the alignment, and the
// hardware counts that one instruction (its bank phases, its sectors). Measured on the H100 with
// our own kernels (tests/nvcc_fidelity/widening: SASS and Nsight Compute):
//   - elements of 2, 4 or 8 bytes, two or four of them, 8 or 16 bytes in all (eight halves are
//     two LDS.64; four bytes stay four LDS.U8);
//   - every element of the window accessed (elements 0 and 2 of four stay two LDS), but for
//     shared loads of 4-byte elements: any three of an aligned four are one LDS.128 (each of the
//     four choices, and 1-3 with the next window's 0, recorded); the element not read is the
//     site's gap (TGSIM_SITE_GAP_MASK), which the checker leaves out (it may be unwritten);
//   - the window's first byte provably aligned to its width: shared variables lie at their type's
//     alignment in declaration order from a 1 KiB-aligned window (a float after a float is at 4
//     mod 8: two __shared__ scalars are one LDS.64 only when the first is 8-aligned), extern ones
//     at 16; global memory only where the compiler knows it (__builtin_assume_aligned, a vector
//     type): a kernel parameter's float* is 4-aligned, so in[4*t+i] stays four LDG;
//   - in any order, but not across a store to the same space (loads) or a load from it (stores),
//     a call (a barrier) or a fence: ptxas keeps those in order.
// The merged access is one record of the window's width at its first byte, at the first access's
// line (a load's record before the first load, a store's after the last store).
#include "function_analyses.hpp"
#include "internal.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

enum class Space { kShared, kGlobal };

// One access as a candidate: its base pointer and byte offset from it (a SCEV), its space.
struct Candidate {
  std::size_t index;        // in the function's access list
  const SCEV* base = nullptr;
  const SCEV* offset = nullptr;
  Space space = Space::kGlobal;
  const SCEV* within = nullptr;  // the offset in its variable (bytes)
  std::uint64_t base_align = 1;  // the GPU's alignment of that variable
  std::uint64_t calls = 0;       // calls, fences and atomics before it in its block
  std::uint64_t epoch = 0;       // a load: the same space's stores before it; a store: its loads
  std::int64_t distance = 0;     // from the group's first member (bytes)
};

// An instruction that ends every group: a call that may touch memory or synchronise (barriers,
// tgsim's runtime), a fence, an atomic, a volatile access.
bool breaks_all(const Instruction& i) {
  if (isa<DbgInfoIntrinsic>(i)) return false;
  if (auto* ii = dyn_cast<IntrinsicInst>(&i)) {
    switch (ii->getIntrinsicID()) {
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::assume:
        return false;
      default:
        break;
    }
  }
  if (auto* cb = dyn_cast<CallBase>(&i)) return cb->mayReadOrWriteMemory() || cb->mayHaveSideEffects();
  if (isa<FenceInst>(i) || isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i)) return true;
  if (auto* ld = dyn_cast<LoadInst>(&i)) return !ld->isSimple();
  if (auto* st = dyn_cast<StoreInst>(&i)) return !st->isSimple();
  return false;
}

// Elements of `size` bytes: the widths they merge into, widest first (at most four elements).
std::vector<std::uint64_t> widths_for(std::uint64_t size) {
  if (size == 2) return {8};
  if (size == 4) return {16, 8};
  if (size == 8) return {16};
  return {};
}

class Merger {
 public:
  Merger(Context& c, Function& f, std::vector<Access>& acc)
      : c_(c), f_(f), acc_(acc), a_(f), dt_(a_.dt), se_(a_.se) {}

  void run() {
    auto it = c_.entries.find(&f_);
    if (it != c_.entries.end()) {
      shared_ = it->second.shared;
      dynamic_ = it->second.dynamic;
    }
    std::map<const Instruction*, std::size_t> index;
    for (std::size_t i = 0; i < acc_.size(); ++i) index[acc_[i].at] = i;
    std::vector<bool> gone(acc_.size(), false);
    std::set<const BasicBlock*> continued;  // blocks that continue another past a bounds check
    for (BasicBlock& bb : f_)
      if (BasicBlock* s = past_check(bb)) continued.insert(s);
    for (BasicBlock& head : f_) {
      if (continued.count(&head)) continue;
      std::vector<Candidate> cands;
      // Per space: stores and loads seen so far; a load's epoch counts the same space's stores
      // and the calls before it, a store's the loads and calls.
      std::uint64_t calls = 0, stores[2] = {0, 0}, loads[2] = {0, 0};
      std::set<const BasicBlock*> chain;
      for (BasicBlock* bb = &head; bb && chain.insert(bb).second; bb = past_check(*bb))
      for (Instruction& i : *bb) {
        auto found = index.find(&i);
        const bool member = found != index.end() && mergeable(acc_[found->second]);
        if (!member) {
          if (breaks_all(i)) ++calls;
          if (found != index.end()) {  // an access not merged still orders its space
            const Space s = space_of(acc_[found->second].ptr);
            (acc_[found->second].store ? stores : loads)[int(s)]++;
          }
          continue;
        }
        Candidate cd = describe(found->second);
        const int s = int(cd.space);
        cd.calls = calls;
        cd.epoch = acc_[cd.index].store ? loads[s] : stores[s];
        (acc_[cd.index].store ? stores : loads)[s]++;
        cands.push_back(cd);
      }
      merge_block(cands, gone);
    }
    std::vector<Access> kept;
    for (std::size_t i = 0; i < acc_.size(); ++i)
      if (!gone[i]) kept.push_back(acc_[i]);
    acc_.swap(kept);
  }

 private:
  // The block that continues `bb` past a bounds check of dims.cpp (an index of an inner
  // dimension compared, and a cold block that reports it out of range): its other successor,
  // when every other path into it comes from a reported index (the optimiser may copy the code
  // after a check into the cold path and join it later). ptxas sees one straight stretch there
  // (nvcc checks nothing), so the accesses on both sides of the check merge as one block's; a
  // run that reported an index may miss a merged access's record on its way back.
  BasicBlock* past_check(BasicBlock& bb) {
    auto* br = dyn_cast<BranchInst>(bb.getTerminator());
    if (!br) return nullptr;
    if (!br->isConditional()) {  // the join of a check's two paths
      BasicBlock* next = br->getSuccessor(0);
      if (next == &bb || next->getSinglePredecessor() == &bb) return nullptr;
      for (BasicBlock* p : predecessors(next))
        if (p != &bb && !after_report(p)) return nullptr;
      return next;
    }
    for (unsigned k = 0; k < 2; ++k) {
      BasicBlock* cold = br->getSuccessor(k);
      BasicBlock* next = br->getSuccessor(1 - k);
      if (cold == next || next == &bb || cold->getSinglePredecessor() != &bb || !reports_index(*cold)) continue;
      bool only_through = true;
      for (BasicBlock* p : predecessors(next)) only_through = only_through && (p == &bb || after_report(p));
      if (only_through) return next;
    }
    return nullptr;
  }

  // Whether every path to `b` passes a block that reports an index out of range.
  bool after_report(BasicBlock* b) {
    int steps = 0;
    for (DomTreeNode* n = dt_.getNode(b); n && steps < 64; n = n->getIDom(), ++steps)
      if (reports_index(*n->getBlock())) return true;
    return false;
  }

  static bool reports_index(const BasicBlock& bb) {
    for (const Instruction& i : bb)
      if (auto* cb = dyn_cast<CallBase>(&i))
        if (Function* g = cb->getCalledFunction(); g && g->getName() == "__tgsim_index_out_of_range") return true;
    return false;
  }

  bool mergeable(const Access& a) const {
    auto* ld = dyn_cast<LoadInst>(a.at);
    auto* st = dyn_cast<StoreInst>(a.at);
    if (!(ld && ld->isSimple()) && !(st && st->isSimple())) return false;
    if (is_constant_memory(c_, a.ptr)) return false;
    return !widths_for(a.bytes).empty() && a.merged_from == nullptr;
  }

  // Where a base pointer lies in shared memory: the arena (or the extern arrays' start) plus a
  // constant, through casts, constant GEPs and phis or selects whose inputs all agree (a
  // variable's address materialised in each predecessor of a loop); -1 when not shared.
  std::int64_t shared_offset(Value* v, bool& dynamic, int depth = 0) {
    if (!v || depth > 8) return -1;
    APInt k(64, 0);
    v = v->stripAndAccumulateConstantOffsets(c_.dl, k, true);
    const std::int64_t here = k.getSExtValue();
    if (v == shared_ || (dynamic_ && v == dynamic_)) {
      dynamic = v == dynamic_;
      return here;
    }
    std::vector<Value*> ins;
    if (auto* phi = dyn_cast<PHINode>(v))
      for (Value* in : phi->incoming_values()) {
        if (in != phi) ins.push_back(in);
      }
    else if (auto* sel = dyn_cast<SelectInst>(v))
      ins = {sel->getTrueValue(), sel->getFalseValue()};
    if (ins.empty()) return -1;
    std::int64_t common = -1;
    bool dyn = false;
    for (Value* in : ins) {
      bool d = false;
      const std::int64_t o = shared_offset(in, d, depth + 1);
      if (o < 0 || (common >= 0 && (o != common || d != dyn))) return -1;
      common = o;
      dyn = d;
    }
    dynamic = dyn;
    return common + here;
  }

  // The arena offset of the shared variable `ptr` points into: the materialised start of the
  // variable (the arena plus a constant, shared.cpp) that its address computation starts from.
  std::int64_t variable_start(Value* ptr, bool& dynamic) {
    Value* v = ptr;
    for (int step = 0; step < 32; ++step) {
      v = v->stripPointerCasts();
      if (v == shared_ || (dynamic_ && v == dynamic_)) {
        dynamic = v == dynamic_;
        return 0;
      }
      if (auto* gep = dyn_cast<GEPOperator>(v)) {
        Value* base = gep->getPointerOperand()->stripPointerCasts();
        if (base == shared_ || (dynamic_ && base == dynamic_)) {
          // `arena + K` (a variable's start) or an index into the variable at offset 0.
          dynamic = base == dynamic_;
          APInt k(64, 0);
          if (gep->getSourceElementType()->isIntegerTy(8) && gep->accumulateConstantOffset(c_.dl, k))
            return k.getSExtValue();
          return 0;
        }
        v = gep->getPointerOperand();
        continue;
      }
      return shared_offset(v, dynamic);
    }
    return -1;
  }

  // The space of a candidate, the GPU's alignment of the variable it lies in and its offset in
  // that variable. ptxas proves a window aligned from the variable's address, as a power of two,
  // and the offset in it: an array at 0x404 (after a float) has none of its pairs 8-aligned.
  void classify(Value* ptr, const SCEV* offset, const SCEV* base, Candidate& cd) {
    auto* u = dyn_cast<SCEVUnknown>(base);
    if (!u) return;
    Value* b = u->getValue();
    bool dynamic = false, var_dynamic = false;
    const std::int64_t k = shared_offset(b, dynamic);
    const std::int64_t start = k >= 0 ? variable_start(ptr, var_dynamic) : -1;
    if (k >= 0 && start >= 0 && dynamic == var_dynamic) {
      cd.space = Space::kShared;
      // The GPU's shared window (tgsim's arena) starts 1 KiB-aligned, extern arrays 16-aligned.
      const std::uint64_t window = dynamic ? 16 : 1024;
      cd.base_align = start == 0 ? window : std::min<std::uint64_t>(window, std::uint64_t(start) & (~std::uint64_t(start) + 1));
      cd.within = se_.getAddExpr(offset, se_.getConstant(offset->getType(), k - start, true));
    } else if (k >= 0) {
      cd.space = Space::kShared;  // shared, in a variable not found: no alignment proven
    } else if (auto* gv = dyn_cast<GlobalVariable>(b->stripPointerCasts())) {
      cd.base_align = gpu_alignment(c_.dl, *gv);
    }
  }

  Space space_of(Value* ptr) {
    bool dynamic = false;
    if (auto* u = dyn_cast<SCEVUnknown>(se_.getPointerBase(se_.getSCEV(ptr))))
      if (shared_offset(u->getValue(), dynamic) >= 0) return Space::kShared;
    return Space::kGlobal;
  }

  Candidate describe(std::size_t i) {
    Candidate cd;
    cd.index = i;
    const SCEV* s = se_.getSCEV(acc_[i].ptr);
    cd.base = se_.getPointerBase(s);
    cd.offset = se_.getMinusSCEV(s, cd.base);
    cd.within = cd.offset;
    classify(acc_[i].ptr, cd.offset, cd.base, cd);
    return cd;
  }

  // Whether candidate m's address is provably aligned to `w` on the GPU.
  // m's address + `shift` bytes aligned to w.
  bool aligned(const Candidate& m, std::uint64_t w, std::int64_t shift = 0) {
    if (isa<SCEVCouldNotCompute>(m.within)) return false;
    const SCEV* within = shift ? se_.getAddExpr(m.within, se_.getConstant(m.within->getType(), shift, true)) : m.within;
    const std::uint32_t tz = se_.GetMinTrailingZeros(within);
    const std::uint64_t from_offset = tz >= 63 ? std::uint64_t(1) << 62 : std::uint64_t(1) << tz;
    if (std::min(m.base_align, from_offset) >= w) return true;
    // Global memory through a pointer: what the optimiser knows of the address itself (an
    // alignment assumption, a vector type); shared addresses are tgsim's model's alone.
    return m.space == Space::kGlobal && acc_[m.index].align >= w;
  }

  // The byte distance from b to a when it is a constant. Shared addresses are 32 bits on the GPU
  // (NVVM computes them in 32-bit registers), so there the distance is taken modulo 2^32:
  // `As[base + i]` with an `unsigned` base is adjacent to `As[base + i + 1]` whatever base is,
  // where the host's 64-bit zext(base + i + 1) may not be zext(base + i) + 1 (SGEMM_CUDA's
  // warptiling kernel: `As[dotIdx * BM + warpRow * WM + threadRowInWarp * TM + i]`).
  const SCEVConstant* distance(const Candidate& a, const Candidate& b) {
    const SCEV* d = se_.getMinusSCEV(a.offset, b.offset);
    if (isa<SCEVConstant>(d) || a.space != Space::kShared) return dyn_cast<SCEVConstant>(d);
    Type* i32 = Type::getInt32Ty(f_.getContext());
    if (a.offset->getType()->getScalarSizeInBits() <= 32) return nullptr;
    return dyn_cast<SCEVConstant>(
        se_.getMinusSCEV(se_.getTruncateExpr(a.offset, i32), se_.getTruncateExpr(b.offset, i32)));
  }

  // Groups of one block's candidates: same kind, space, base, element size and epoch, at constant
  // distances from the group's first member. A candidate is compared with the first member of
  // at most 8 groups of its key, so a long block costs linear time.
  void merge_block(std::vector<Candidate>& cands, std::vector<bool>& gone) {
    using Key = std::tuple<bool, std::uint64_t, int, const SCEV*, std::uint64_t, std::uint64_t>;
    std::map<Key, std::vector<std::vector<std::size_t>>> groups;
    for (std::size_t j = 0; j < cands.size(); ++j) {
      const Access& a = acc_[cands[j].index];
      auto& mine = groups[Key{a.store, a.bytes, int(cands[j].space), cands[j].base, cands[j].calls, cands[j].epoch}];
      bool placed = false;
      for (auto& g : mine) {
        const SCEVConstant* d = distance(cands[j], cands[g[0]]);
        if (!d || d->getAPInt().getMinSignedBits() > 48) continue;
        cands[j].distance = d->getAPInt().getSExtValue();
        g.push_back(j);
        placed = true;
        break;
      }
      if (!placed && mine.size() < 8) mine.push_back({j});
    }
    std::vector<bool> used(cands.size(), false);
    for (auto& [key, list] : groups)
      for (auto& g : list) {
        if (g.size() < 2) continue;
        std::stable_sort(g.begin(), g.end(),
                         [&](std::size_t x, std::size_t y) { return cands[x].distance < cands[y].distance; });
        form_windows(cands, g, used, gone);
      }
  }

  // Windows in one group (sorted by distance): from the lowest unused member, the widest window
  // whose every element is a member, aligned to its width.
  void form_windows(std::vector<Candidate>& cands, const std::vector<std::size_t>& group,
                    std::vector<bool>& used, std::vector<bool>& gone) {
    const std::uint64_t size = acc_[cands[group[0]].index].bytes;
    for (std::size_t g = 0; g < group.size(); ++g) {
      const std::size_t m = group[g];
      if (used[m]) continue;
      for (std::uint64_t w : widths_for(size)) {
        std::vector<std::size_t> members = {m};
        for (std::uint64_t k = 1; k < w / size; ++k) {
          const std::int64_t want = cands[m].distance + std::int64_t(k * size);
          std::size_t found = SIZE_MAX;
          for (std::size_t h = g + 1; h < group.size() && found == SIZE_MAX; ++h)
            if (!used[group[h]] && cands[group[h]].distance == want) found = group[h];
          if (found == SIZE_MAX) break;
          members.push_back(found);
        }
        if (members.size() != w / size || !aligned(cands[m], w)) {
          if (w == 16 && three_of_four(cands, group, g, used, gone)) break;  // before a pair
          continue;
        }
        merge(cands, members, w, gone);
        for (std::size_t x : members) used[x] = true;
        break;
      }
    }
  }

  // Shared loads of 4-byte elements: m and two more of the aligned 16-byte window that holds m
  // as its element 0 or 1 (a gap before m is element 0), the missing one the gap.
  bool three_of_four(std::vector<Candidate>& cands, const std::vector<std::size_t>& group, std::size_t g,
                     std::vector<bool>& used, std::vector<bool>& gone) {
    const std::size_t m = group[g];
    if (acc_[cands[m].index].bytes != 4 || acc_[cands[m].index].store || cands[m].space != Space::kShared)
      return false;
    for (std::int64_t p = 0; p < 2; ++p) {
      const std::int64_t start = cands[m].distance - 4 * p;
      std::size_t at[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
      at[p] = m;
      for (std::size_t h = g + 1; h < group.size(); ++h) {
        const std::int64_t k = (cands[group[h]].distance - start) / 4;
        if (!used[group[h]] && k > p && k < 4 && cands[group[h]].distance == start + 4 * k && at[k] == SIZE_MAX)
          at[k] = group[h];
      }
      std::vector<std::size_t> members;
      unsigned gap = 0;
      for (unsigned k = 0; k < 4; ++k) {
        if (at[k] != SIZE_MAX) members.push_back(at[k]);
        else gap = k + 1;
      }
      if (members.size() != 3 || !aligned(cands[m], 16, -4 * p)) continue;
      merge(cands, members, 16, gone, start, gap);
      for (std::size_t x : members) used[x] = true;
      return true;
    }
    return false;
  }

  // One access of `w` bytes for the members (members[0] the lowest address), from the window's
  // start (distance `start`; by default members[0]'s), with Access::gap `gap`.
  void merge(const std::vector<Candidate>& cands, const std::vector<std::size_t>& members, std::uint64_t w,
             std::vector<bool>& gone, std::int64_t start = INT64_MIN, unsigned gap = 0) {
    if (start == INT64_MIN) start = cands[members[0]].distance;
    const bool store = acc_[cands[members[0]].index].store;
    // Candidates are in program order (one block, or blocks continued past bounds checks).
    const std::size_t first = cands[*std::min_element(members.begin(), members.end())].index;
    const std::size_t last = cands[*std::max_element(members.begin(), members.end())].index;
    // The record goes before the first load or after the last store; its address is computed
    // there from that access's own pointer.
    const std::size_t anchor = store ? last : first;
    std::int64_t anchor_distance = 0;
    for (std::size_t x : members)
      if (cands[x].index == anchor) anchor_distance = cands[x].distance;
    Access& a = acc_[anchor];
    IRBuilder<> b(a.at);
    Value* p = b.CreateBitCast(a.ptr, c_.i8p);
    const std::int64_t back = anchor_distance - start;
    if (back != 0) p = b.CreateGEP(c_.i8, p, ConstantInt::get(c_.i64, -back), "tgsim.window");
    a.merged_from = acc_[first].at;
    a.ptr = p;
    a.bytes = w;
    a.align = w;
    a.gap = gap;
    for (std::size_t x : members)
      if (cands[x].index != anchor) gone[cands[x].index] = true;
  }

  Context& c_;
  Function& f_;
  std::vector<Access>& acc_;
  FunctionAnalyses a_;
  DominatorTree& dt_;
  ScalarEvolution& se_;
  Value* shared_ = nullptr;
  Value* dynamic_ = nullptr;
};

}  // namespace

// The natural alignment of a type as nvcc lays it out: arrays of scalars at their element's.
std::uint64_t gpu_alignment(const DataLayout& dl, const GlobalVariable& gv) {
  Type* t = gv.getValueType();
  while (auto* a = dyn_cast<ArrayType>(t)) t = a->getElementType();
  const std::uint64_t ir = gv.getAlign() ? gv.getAlign()->value() : dl.getABITypeAlign(t).value();
  if (t->isStructTy()) return std::max<std::uint64_t>(ir, 1);  // a struct's __align__ is only in Clang's figure
  const std::uint64_t natural = dl.getABITypeAlign(t).value();
  // Clang's x86-64 rule that arrays of 16 bytes or more are 16-aligned is the host's, not nvcc's.
  const bool large_array = gv.getValueType()->isArrayTy() && dl.getTypeAllocSize(gv.getValueType()) >= 16;
  if (large_array && ir == 16) return natural;
  return std::max(ir, natural);
}

// `x | C` where x has no bit of C set is `x + C`, and the address arithmetic ptxas sees. LLVM 14's
// scalar evolution takes such an `or` as a sum only when C fits under x's known trailing zeros,
// so `Bs[base | 16]` (InstCombine's form of `Bs[base + 16]` where base's bits 4-5 are known
// clear, SGEMM_CUDA's warptiling kernel) was an unknown value and not adjacent to
// `Bs[base | 17]`. Such `or`s that make an index become `add nuw nsw` (the same value).
void disjoint_ors_to_adds(Function& f) {
  const DataLayout& dl = f.getParent()->getDataLayout();
  std::vector<BinaryOperator*> ors;
  for (BasicBlock& bb : f)
    for (Instruction& i : bb)
      if (auto* bo = dyn_cast<BinaryOperator>(&i); bo && bo->getOpcode() == Instruction::Or &&
                                                   isa<ConstantInt>(bo->getOperand(1)))
        ors.push_back(bo);
  for (BinaryOperator* bo : ors) {
    bool index = false;  // used by an address, directly or through an extension
    for (User* u : bo->users()) {
      if (auto* cast = dyn_cast<CastInst>(u); cast && (isa<ZExtInst>(cast) || isa<SExtInst>(cast)))
        for (User* v : cast->users()) index = index || isa<GetElementPtrInst>(v);
      index = index || isa<GetElementPtrInst>(u);
    }
    if (!index || !haveNoCommonBitsSet(bo->getOperand(0), bo->getOperand(1), dl)) continue;
    auto* add = BinaryOperator::Create(Instruction::Add, bo->getOperand(0), bo->getOperand(1), bo->getName(), bo);
    add->setHasNoUnsignedWrap(true);
    add->setHasNoSignedWrap(true);
    add->setDebugLoc(bo->getDebugLoc());
    bo->replaceAllUsesWith(add);
    bo->eraseFromParent();
  }
}

void merge_adjacent(Context& c, Function& f, std::vector<Access>& acc) {
  if (acc.size() < 2 || c.count_source) return;
  disjoint_ors_to_adds(f);
  Merger(c, f, acc).run();
}

}  // namespace tgsim::pass
