// nvcc's warp aggregation of global atomics (docs/hardware-model.md §1.4): where nvcc can prove
// that every lane of a warp names the same address, an integer add, sub, min, max, and, or or
// xor whose result is unused (REDG), or an integer add or sub whose result is used (ATOMG),
// becomes one atomic of one elected lane with the warp's combined operand: one lane, one sector
// on the H100 (tests/hardware/atomic_probe/). The same operation at an address that is uniform
// only at run time, a float add, an exchange, a compare-and-swap, an inc or dec is never combined.
// Here: a conservative proof of uniformity over the IR (constants, a kernel's parameters,
// blockIdx/blockDim/gridDim and the Metal grid's fields, and what is computed from them alone),
// and the call's operation marked TGSIM_ATOMIC_WARP_AGGREGATED for the library.
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>

#include <tgsim/kernel/abi.h>

#include "internal.hpp"

using namespace llvm;

namespace tgsim::pass {

namespace {

// The thread's fields that every thread of a group shares (abi.h offsets): blockIdx, blockDim,
// gridDim [12, 48), the Metal grid's origin and size [104, 128).
bool uniform_thread_field(std::int64_t off) { return (off >= 12 && off < 48) || (off >= 104 && off < 128); }

bool is_thread_call(const Value* v) {
  const auto* cb = dyn_cast<CallBase>(v);
  const Function* f = cb ? cb->getCalledFunction() : nullptr;
  return f && f->getName() == "__tgsim_thread";
}

bool uniform(const Context& c, const Value* v, unsigned depth) {
  if (depth > 24) return false;
  if (isa<Constant>(v)) return true;
  if (const auto* a = dyn_cast<Argument>(v))  // a kernel's parameters are the same for every thread
    return std::find(c.kernels.begin(), c.kernels.end(), a->getParent()) != c.kernels.end() &&
           !a->hasByValAttr();
  if (const auto* ld = dyn_cast<LoadInst>(v)) {
    if (ld->isVolatile()) return false;
    std::int64_t off = 0;
    const Value* base = GetPointerBaseWithConstantOffset(ld->getPointerOperand(), off, c.dl);
    return is_thread_call(base) && uniform_thread_field(off);
  }
  if (isa<BinaryOperator>(v) || isa<CastInst>(v) || isa<GetElementPtrInst>(v) || isa<CmpInst>(v) ||
      isa<SelectInst>(v) || isa<ExtractValueInst>(v) || isa<FreezeInst>(v)) {
    for (const Value* op : cast<User>(v)->operands())
      if (!uniform(c, op, depth + 1)) return false;
    return true;
  }
  return false;  // phis (a divergent branch may pick), other loads, calls: not proven
}

}  // namespace

void mark_warp_aggregated_atomic(const Context& c, CallBase& call) {
  // __tgsim_atomic(site, op, type, addr, operand, compare)
  auto* op = dyn_cast<ConstantInt>(call.getArgOperand(1));
  auto* type = dyn_cast<ConstantInt>(call.getArgOperand(2));
  if (!op || !type || call.arg_size() < 4) return;
  const std::uint64_t o = op->getZExtValue(), t = type->getZExtValue();
  if (t != TGSIM_I32 && t != TGSIM_U32 && t != TGSIM_I64 && t != TGSIM_U64) return;
  const bool add = o == TGSIM_ATOMIC_ADD || o == TGSIM_ATOMIC_SUB;
  const bool reduction = add || o == TGSIM_ATOMIC_MIN || o == TGSIM_ATOMIC_MAX || o == TGSIM_ATOMIC_AND ||
                         o == TGSIM_ATOMIC_OR || o == TGSIM_ATOMIC_XOR;
  if (!(call.use_empty() ? reduction : add)) return;
  if (!uniform(c, call.getArgOperand(3), 0)) return;
  call.setArgOperand(1, ConstantInt::get(op->getType(), o | TGSIM_ATOMIC_WARP_AGGREGATED));
}

}  // namespace tgsim::pass
