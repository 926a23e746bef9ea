// nvcc's unrolling of a loop whose trip count is known only at run time (issue 36, cause 2).
// NVVM unrolls such an innermost loop 4 times, 2 times when its body is larger and not at all
// when larger still (read in the PTX of CUDA 13 for bodies of 1 to 48 loads: up to 8 loads x4,
// 16 x2, 24 and more x1), and, as LLVM decides, runs the remainder iterations first, in a loop
// of their own, when no phi of the loop's header starts at an integer constant (`for (j =
// threadIdx.x; j < n; j += 256)`), else last. It does not unroll a loop whose trip count needs a
// division by a run-time value (a stride of blockDim.x), one that ends on `<=`, nor one known to
// run at most 20 trips (measured in PTX of CUDA 13 for bodies of 1 to 8 loads: 20 trips stay one
// copy, 21 are unrolled). ptxas unrolls those (the SASS of tests/nvcc_fidelity/short_loops/): 4
// copies while 4 trips remain, then 2 copies for a remainder of 2 or 3, then one predicated copy
// for an odd one, for bodies of up to 8 loads (16 stay one copy), whatever the counter starts at.
// That shape is built here with LLVM's runtime unrolling, remainder last, twice: the loop by 2
// (its remainder is the odd copy), then the loop of pairs by 2 (its remainder is the 2-block);
// lanes with 10 and 9 trips (remainders 2 and 1) then meet their ninth trip in two instructions
// (tests/nvcc_fidelity/short_loops/). Kernel files are compiled without Clang's own runtime
// unrolling (-unroll-runtime=false), so that these loops are seen as written. Each copy is an
// instruction of its own: lanes of one warp with 9 and 8 trips meet iterations 1 and 0 in NVVM's
// first copy when the remainder runs first, where source order pairs iteration 0 with 0. With
// the remainder last, source order pairs the lanes' iterations as NVVM's copies do, so only its
// loops whose remainder runs first are unrolled here. Each copy's instructions carry metadata
// kUnrollCopy, which makes their accesses sites of their own (Context::site), shown and summed
// under their one line. Not under --count source, nor for loops with a barrier, a warp
// collective, an atomic or tgsim's runtime calls in them. H100 recordings:
// tests/nvcc_fidelity/unroll/ and short_loops/.
#include "function_analyses.hpp"
#include "internal.hpp"

#include <map>

#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

// Instructions of the loop's body (no phis, no debug intrinsics): NVVM's measure of its size,
// in Clang's x86 IR. The limits are where the measured kernels' loops fall (unroll.cpp's head).
constexpr unsigned kUnroll4Size = 32, kUnroll2Size = 64;
// NVVM leaves a loop whose trip count is known to stay under this to ptxas (measured in PTX of
// CUDA 13: `j = lane; j < B; j += 32` with at most 20 trips stays one copy, 21 is unrolled).
constexpr unsigned kMaxTripsLeftToPtxas = 21;
// ptxas unrolls a body of 8 loads with a multiply each and keeps one of 16 (short_loops' SASS):
// in Clang's IR (body_size) 8 such loads are 34 instructions, 16 are 67.
constexpr unsigned kPtxasUnrollSize = 48;

unsigned body_size(const Loop& l) {
  unsigned n = 0;
  for (const BasicBlock* bb : l.blocks())
    for (const Instruction& i : *bb)
      if (!isa<PHINode>(i) && !isa<DbgInfoIntrinsic>(i)) ++n;
  return n;
}

// Whether the loop may be unrolled as nvcc would: loads or stores, no call but to pure math,
// intrinsics that are no barrier, and tgsim's report of an index out of range.
bool plain_body(const Loop& l) {
  bool memory = false;
  for (const BasicBlock* bb : l.blocks())
    for (const Instruction& i : *bb) {
      memory = memory || isa<LoadInst>(i) || isa<StoreInst>(i);
      if (isa<FenceInst>(i) || isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i)) return false;
      if (auto* ld = dyn_cast<LoadInst>(&i); ld && !ld->isSimple()) return false;
      if (auto* st = dyn_cast<StoreInst>(&i); st && !st->isSimple()) return false;
      auto* cb = dyn_cast<CallBase>(&i);
      if (!cb || isa<DbgInfoIntrinsic>(i)) continue;
      if (cb->isInlineAsm() || cb->isConvergent()) return false;
      const Function* g = cb->getCalledFunction();
      if (!g) return false;
      if (g->getName() == "__tgsim_index_out_of_range") continue;
      if (g->getName().startswith("__tgsim") || g->getName().startswith("tgsim")) return false;
      if (!g->isIntrinsic() && !cb->onlyReadsMemory()) return false;
    }
  return memory;
}

// LLVM's choice of where the remainder runs (isEpilogProfitable): last when a phi of the header
// starts at an integer constant.
bool remainder_first(const Loop& l) {
  const BasicBlock* pre = l.getLoopPreheader();
  for (const PHINode& phi : l.getHeader()->phis())
    if (isa<ConstantInt>(phi.getIncomingValueForBlock(pre))) return false;
  return true;
}

// Whether the trip count is cheap to compute as NVVM judges it: no division by a value known only
// at run time (a grid-stride loop over blockDim.x * gridDim.x is not unrolled; one over 256 is).
bool cheap_trip_count(const SCEV* s) {
  return !SCEVExprContains(s, [](const SCEV* e) {
    auto* d = dyn_cast<SCEVUDivExpr>(e);
    return d && !isa<SCEVConstant>(d->getRHS());
  });
}

// Whether the latch stays in the loop on a strict comparison (<, >, !=): NVVM does not unroll
// `j <= n` with a stride of more than one, whose trip count may overflow.
bool strict_exit(const Loop& l) {
  auto* br = dyn_cast<BranchInst>(l.getLoopLatch()->getTerminator());
  auto* cmp = br && br->isConditional() ? dyn_cast<ICmpInst>(br->getCondition()) : nullptr;
  if (!cmp) return false;
  const CmpInst::Predicate stay = br->getSuccessor(0) == l.getHeader() ? cmp->getPredicate() : cmp->getInversePredicate();
  return ICmpInst::isEquality(stay) || ICmpInst::isStrictPredicate(stay);
}

class Unroller {
 public:
  Unroller(Context& c, Function& f, const TargetTransformInfo& tti)
      : c_(c), a_(f), ac_(a_.ac), dt_(a_.dt), li_(a_.li), se_(a_.se), tti_(tti), ore_(&f) {}

  void run() {
    std::vector<Loop*> inner;
    for (Loop* top : li_)
      for (Loop* l : depth_first(top))
        if (l->isInnermost()) inner.push_back(l);
    for (Loop* l : inner) unroll(l);
  }

 private:
  void unroll(Loop* l) {
    simplifyLoop(l, &dt_, &li_, &se_, &ac_, nullptr, false);
    if (!l->isLoopSimplifyForm() || !l->getExitingBlock() || !l->isSafeToClone()) return;
    if (hasUnrollTransformation(l) != TM_Unspecified) return;  // #pragma unroll N, or 1
    const SCEV* taken = se_.getBackedgeTakenCount(l);
    if (se_.getSmallConstantTripCount(l) != 0 || isa<SCEVCouldNotCompute>(taken) || !cheap_trip_count(taken)) return;
    if (!l->getLoopLatch() || !strict_exit(*l) || !plain_body(*l)) return;
    // A trip count known to stay at 20 or under (a lane's index to a constant bound) is ptxas's
    // to unroll (the file's head).
    const unsigned max_trips = se_.getSmallConstantMaxTripCount(l);
    if (max_trips != 0 && max_trips < kMaxTripsLeftToPtxas) return unroll_like_ptxas(l);
    if (!remainder_first(*l)) return;
    const unsigned size = body_size(*l);
    const unsigned count = size <= kUnroll4Size ? 4 : size <= kUnroll2Size ? 2 : 1;
    if (count == 1) return;
    formLCSSARecursively(*l, dt_, &li_, &se_);
    Loop* rest = nullptr;
    if (unroll_runtime(l, count, false, &rest) != LoopUnrollResult::PartiallyUnrolled) return;
    mark_copies(l, 0);
    if (rest)
      for (BasicBlock* bb : rest->blocks())
        for (Instruction& i : *bb) mark(i, kRemainderCopy);
  }

  // ptxas's shape (the file's head): the loop unrolled by 2, remainder last (the odd copy), then
  // the loop of pairs unrolled by 2, remainder last (the 2-block of copies kPairCopy + 1 and 2).
  // A loop LLVM unrolls completely (at most 2 trips to the count of 2) is left in source order.
  void unroll_like_ptxas(Loop* l) {
    if (body_size(*l) > kPtxasUnrollSize || se_.getSmallConstantMaxTripCount(l) < 3) return;
    formLCSSARecursively(*l, dt_, &li_, &se_);
    Function& f = *l->getHeader()->getParent();
    mark_loop(*l, kOddCopy);  // the clones keep it: the remainder of the first unrolling
    const LoopUnrollResult halves = unroll_runtime(l, 2, true, nullptr);
    if (halves == LoopUnrollResult::Unmodified) return mark_loop(*l, 0);
    if (halves == LoopUnrollResult::FullyUnrolled) return;  // not at 3 trips or more
    simplifyLoop(l, &dt_, &li_, &se_, &ac_, nullptr, true);
    mark_loop(*l, kPairCopy);  // the clones left outside the loop are the 2-block
    if (!l->isLoopSimplifyForm()) return mark_copies(l, 0);
    const LoopUnrollResult pairs = unroll_runtime(l, 2, true, nullptr);
    if (pairs == LoopUnrollResult::Unmodified) return mark_copies(l, 0);
    if (pairs == LoopUnrollResult::PartiallyUnrolled) mark_copies(l, 0);  // else the loop is gone
    // The 2-block: the instructions still marked kPairCopy, numbered in program order.
    std::map<const DILocation*, unsigned> seen;
    for (BasicBlock* bb : ReversePostOrderTraversal<Function*>(&f))
      for (Instruction& i : *bb)
        if (copy_of(i) == kPairCopy) mark(i, kPairCopy + ++seen[i.getDebugLoc().get()]);
  }

  // LLVM's runtime unrolling by `count`, its remainder last when `epilog` (else first, as LLVM
  // chooses for the loops given here). LLVM 14 takes the side from its option
  // -unroll-runtime-epilog only: it is set for the call and reset after it.
  LoopUnrollResult unroll_runtime(Loop* l, unsigned count, bool epilog, Loop** rest) {
    auto& options = cl::getRegisteredOptions();
    const auto it = options.find("unroll-runtime-epilog");
    if (epilog && it == options.end()) return LoopUnrollResult::Unmodified;
    if (epilog) it->second->addOccurrence(0, "unroll-runtime-epilog", "true");
    const UnrollLoopOptions o{count, false, true, true, false, true};
    const LoopUnrollResult done = UnrollLoop(l, o, &li_, &se_, &dt_, &ac_, &tti_, &ore_, true, rest);
    if (epilog) it->second->reset();
    return done;
  }

  // The copies in program order: the n-th instruction at one location is copy n.
  void mark_copies(Loop* l, unsigned base) {
    std::map<const DILocation*, unsigned> seen;
    LoopBlocksRPO rpo(l);
    rpo.perform(&li_);
    for (BasicBlock* bb : rpo)
      for (Instruction& i : *bb) mark(i, base + ++seen[i.getDebugLoc().get()]);
  }

  void mark_loop(Loop& l, unsigned copy) {
    for (BasicBlock* bb : l.blocks())
      for (Instruction& i : *bb) mark(i, copy);
  }

  static unsigned copy_of(const Instruction& i) {
    const MDNode* md = i.getMetadata(kUnrollCopy);
    return md ? unsigned(mdconst::extract<ConstantInt>(md->getOperand(0))->getZExtValue()) : 0;
  }

  // The copy an instruction belongs to, as metadata (it moves and dies with the instruction).
  void mark(Instruction& i, unsigned copy) {
    if (copy == 0) return i.setMetadata(kUnrollCopy, nullptr);
    i.setMetadata(kUnrollCopy, MDNode::get(c_.ctx, ConstantAsMetadata::get(ConstantInt::get(c_.i32, copy))));
  }

  static constexpr unsigned kRemainderCopy = 1000, kPairCopy = 1100, kOddCopy = 2000;

  Context& c_;
  FunctionAnalyses a_;
  AssumptionCache& ac_;
  DominatorTree& dt_;
  LoopInfo& li_;
  ScalarEvolution& se_;
  const TargetTransformInfo& tti_;  // the host's: what a trip count costs to compute
  OptimizationRemarkEmitter ore_;
};

}  // namespace

void unroll_like_nvcc(Context& c, Function& f, const TargetTransformInfo& tti) {
  if (c.count_source || f.isDeclaration()) return;
  Unroller(c, f, tti).run();
}

}  // namespace tgsim::pass
