// Stores of the two arms of an `if` as nvcc emits them (issue 36, cause 4; recorded on the H100
// in tests/nvcc_fidelity/call_sites): arms that store to one address give one STG after the
// `if` with the value selected (same_address_arms, same_address_builtins,
// same_address_after_loop: 16 store instructions for 16 warps), arms that store to different
// addresses keep one STG each (different_address_arms, and a helper inlined at two call sites,
// sites_in_branches: 32).
//
// Clang's SimplifyCFG sinks both kinds into one store (of a phi or select of the addresses),
// so kernel files are compiled without its sinking (`-sink-common-insts=false`,
// frontend/compile.cpp), and this step merges the first kind itself: where a block's two
// predecessors each end with a store (nothing that touches memory after it) to addresses that
// are the same expression, the two stores become one at the start of the block, of a phi of
// the two values, with the two locations merged (lines.cpp then names both lines). An address
// is the same expression when the two are one value, or instructions of one kind on the same
// operands, where reads of the built-in variables (tgsim's thread state, which no kernel
// writes) count as the same value: each arm reads `threadIdx.x` again, a special register nvcc
// reads once.
#include "internal.hpp"

#include <functional>
#include <map>

#include <llvm/IR/CFG.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

bool is_thread_state(const Value* v) {
  v = v->stripPointerCasts();
  while (auto* gep = dyn_cast<GetElementPtrInst>(v)) v = gep->getPointerOperand()->stripPointerCasts();
  auto* call = dyn_cast<CallInst>(v);
  const Function* f = call ? call->getCalledFunction() : nullptr;
  return f && f->getName() == "__tgsim_thread";
}

// Whether a and b compute the same value (see the top), looking `depth` instructions deep.
bool same_expression(const Value* a, const Value* b, int depth) {
  if (a == b) return true;
  auto* ia = dyn_cast<Instruction>(a);
  auto* ib = dyn_cast<Instruction>(b);
  if (!ia || !ib || depth == 0 || !ia->isSameOperationAs(ib)) return false;
  if (auto* la = dyn_cast<LoadInst>(ia)) {
    if (la->isVolatile() || !is_thread_state(la->getPointerOperand())) return false;
  } else if (auto* ca = dyn_cast<CallInst>(ia)) {
    const Function* f = ca->getCalledFunction();
    if (!f || f->getName() != "__tgsim_thread") return false;
  } else if (ia->mayReadOrWriteMemory() || isa<PHINode>(ia)) {
    return false;
  }
  for (unsigned i = 0; i < ia->getNumOperands(); ++i)
    if (!same_expression(ia->getOperand(i), ib->getOperand(i), depth - 1)) return false;
  return true;
}

// The store that ends `bb` (only instructions that touch no memory after it), if bb's only
// successor is `join`.
StoreInst* last_store(BasicBlock* bb, BasicBlock* join) {
  auto* br = dyn_cast<BranchInst>(bb->getTerminator());
  if (!br || br->isConditional() || br->getSuccessor(0) != join) return nullptr;
  for (Instruction* i = br->getPrevNode(); i; i = i->getPrevNode()) {
    if (auto* st = dyn_cast<StoreInst>(i)) return st->isSimple() ? st : nullptr;
    if (i->mayReadOrWriteMemory() || i->mayHaveSideEffects()) return nullptr;
  }
  return nullptr;
}

bool merge_into(BasicBlock* join) {
  if (join->hasNPredecessors(2) == false) return false;
  auto it = pred_begin(join);
  BasicBlock* p1 = *it++;
  BasicBlock* p2 = *it;
  if (p1 == p2 || p1 == join || p2 == join) return false;
  StoreInst* s1 = last_store(p1, join);
  StoreInst* s2 = last_store(p2, join);
  if (!s1 || !s2 || s1->getValueOperand()->getType() != s2->getValueOperand()->getType() ||
      s1->getAlign() != s2->getAlign() || !same_expression(s1->getPointerOperand(), s2->getPointerOperand(), 8))
    return false;
  PHINode* value = PHINode::Create(s1->getValueOperand()->getType(), 2, "tgsim.arm.value", &join->front());
  value->addIncoming(s1->getValueOperand(), p1);
  value->addIncoming(s2->getValueOperand(), p2);
  IRBuilder<> b(&*join->getFirstInsertionPt());
  // The address computed again at the join where the two arms compute it each: the parts both
  // share are one value, defined before the arms (so at the join too), the rest is cloned.
  std::map<std::pair<Value*, Value*>, Value*> copies;
  std::function<Value*(Value*, Value*)> at_join = [&](Value* x, Value* y) -> Value* {
    if (x == y) return x;
    if (auto found = copies.find({x, y}); found != copies.end()) return found->second;
    auto* xi = cast<Instruction>(x);
    auto* yi = cast<Instruction>(y);
    Instruction* c = xi->clone();
    for (unsigned k = 0; k < c->getNumOperands(); ++k) c->setOperand(k, at_join(xi->getOperand(k), yi->getOperand(k)));
    b.Insert(c);
    return copies[{x, y}] = c;
  };
  Value* ptr = at_join(s1->getPointerOperand(), s2->getPointerOperand());
  StoreInst* merged = b.CreateAlignedStore(value, ptr, s1->getAlign());
  merged->copyMetadata(*s1);
  merged->setDebugLoc(DILocation::getMergedLocation(s1->getDebugLoc().get(), s2->getDebugLoc().get()));
  s1->eraseFromParent();
  s2->eraseFromParent();
  return true;
}

}  // namespace

void merge_arm_stores(Function& f) {
  std::vector<BasicBlock*> blocks;
  for (BasicBlock& bb : f) blocks.push_back(&bb);
  for (BasicBlock* bb : blocks) merge_into(bb);
}

}  // namespace tgsim::pass
