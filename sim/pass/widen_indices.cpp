// Index arithmetic in 64 bits before the records split a function into blocks:
// sext(X +nsw C) becomes sext(X) +nsw C (zext(X +nuw C) and subtraction the same), with one
// extension of X right after X is defined.
//
// Why: each record's branch puts the accesses after it in a new block, so an `int i` that
// every statement indexes with (`a[i + k]`) is live across all of them. LLVM 14's
// CodeGenPrepare then rewrites i's uses in each block as a truncation of its extension and
// promotes the extensions again, block after block, each round restarting over the function:
// a 600-statement kernel spent 12.7 of 16 s there (issue 40, tests/bench/pass_scaling.sh).
// The values are the same (the flags make an overflow poison either way), and it is the
// address arithmetic the backend makes of such indices in one block.
#include "internal.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/InstIterator.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

// Where the extension of x goes: right after its definition (the entry for an argument).
Instruction* after_definition(Function& f, Value* x) {
  if (isa<Argument>(x)) return &*f.getEntryBlock().getFirstInsertionPt();
  auto* i = dyn_cast<Instruction>(x);
  if (!i || i->isTerminator() || i->getParent()->isEHPad()) return nullptr;
  if (isa<PHINode>(i)) return &*i->getParent()->getFirstInsertionPt();
  return i->getNextNode();
}

}  // namespace

void widen_indices(Function& f) {
  std::vector<CastInst*> work;
  for (Instruction& i : instructions(f))
    if (isa<SExtInst>(i) || isa<ZExtInst>(i)) work.push_back(cast<CastInst>(&i));
  // (x, opcode, wide type) -> the one extension of x
  DenseMap<std::pair<Value*, std::pair<unsigned, Type*>>, Value*> wide_of;
  while (!work.empty()) {
    CastInst* ext = work.back();
    work.pop_back();
    auto* op = dyn_cast<BinaryOperator>(ext->getOperand(0));
    if (!op || (op->getOpcode() != Instruction::Add && op->getOpcode() != Instruction::Sub)) continue;
    const bool sign = isa<SExtInst>(ext);
    if (sign ? !op->hasNoSignedWrap() : !op->hasNoUnsignedWrap()) continue;
    auto* k = dyn_cast<ConstantInt>(op->getOperand(1));
    if (!k) continue;
    Value* x = op->getOperand(0);
    Type* ty = ext->getType();
    Value*& wide = wide_of[{x, {ext->getOpcode(), ty}}];
    if (!wide) {
      Instruction* at = after_definition(f, x);
      if (!at) continue;
      auto* w = CastInst::Create(static_cast<Instruction::CastOps>(ext->getOpcode()), x, ty, "tgsim.wide", at);
      work.push_back(w);  // x may itself be an index sum
      wide = w;
    }
    IRBuilder<> b(ext);
    Constant* k64 = sign ? ConstantExpr::getSExt(k, ty) : ConstantExpr::getZExt(k, ty);
    Value* r = op->getOpcode() == Instruction::Add ? b.CreateAdd(wide, k64, "", !sign, sign)
                                                   : b.CreateSub(wide, k64, "", !sign, sign);
    ext->replaceAllUsesWith(r);
    ext->eraseFromParent();
    if (op->use_empty()) op->eraseFromParent();
  }
}

}  // namespace tgsim::pass
