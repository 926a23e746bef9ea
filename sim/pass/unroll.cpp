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
// for an odd one, for bodies of up to 8 loads (16 stay one copy). That order is not modelled: it
// pairs the lanes' trips as source order does unless a warp holds remainders of 1 and of 2 or 3
// (10 and 9 trips: tests/nvcc_fidelity/*/known.txt). Kernel files are compiled without Clang's own
// runtime unrolling (-unroll-runtime=false), so that these loops are seen as written. Each copy is an instruction of its
// own: lanes of one warp with 9 and 8 trips meet iterations 1 and 0 in the first copy when the
// remainder runs first, where source order pairs iteration 0 with 0. With the remainder last,
// source order pairs the lanes' iterations as the copies do, so only loops whose remainder runs
// first are unrolled here. Each copy's instructions carry metadata kUnrollCopy, which makes
// their accesses sites of their own (Context::site), shown and summed under their one line. Not
// under --count source, nor for loops with a barrier, a warp collective, an atomic or tgsim's
// runtime calls in them. H100 recordings: tests/nvcc_fidelity/unroll/.
#include "function_analyses.hpp"
#include "internal.hpp"

#include <map>

#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/IntrinsicInst.h>
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
    if (!l->getLoopLatch() || !strict_exit(*l) || !remainder_first(*l) || !plain_body(*l)) return;
    // A trip count known to stay at 20 or under (a lane's index to a constant bound) is ptxas's
    // to unroll (the file's head).
    const unsigned max_trips = se_.getSmallConstantMaxTripCount(l);
    if (max_trips != 0 && max_trips < kMaxTripsLeftToPtxas) return;
    const unsigned size = body_size(*l);
    const unsigned count = size <= kUnroll4Size ? 4 : size <= kUnroll2Size ? 2 : 1;
    if (count == 1) return;
    formLCSSARecursively(*l, dt_, &li_, &se_);
    Loop* rest = nullptr;
    const UnrollLoopOptions options{count, false, true, true, false, true};
    if (UnrollLoop(l, options, &li_, &se_, &dt_, &ac_, &tti_, &ore_, true, &rest) == LoopUnrollResult::Unmodified)
      return;
    // The copies in program order: the n-th instruction at one location is copy n.
    std::map<const DILocation*, unsigned> seen;
    LoopBlocksRPO rpo(l);
    rpo.perform(&li_);
    for (BasicBlock* bb : rpo)
      for (Instruction& i : *bb) mark(i, ++seen[i.getDebugLoc().get()]);
    if (rest)
      for (BasicBlock* bb : rest->blocks())
        for (Instruction& i : *bb) mark(i, kRemainderCopy);
  }

  // The copy an instruction belongs to, as metadata (it moves and dies with the instruction).
  void mark(Instruction& i, unsigned copy) {
    i.setMetadata(kUnrollCopy, MDNode::get(c_.ctx, ConstantAsMetadata::get(ConstantInt::get(c_.i32, copy))));
  }

  static constexpr unsigned kRemainderCopy = 1000;

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
