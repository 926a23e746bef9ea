// A thread's local arrays (allocas the optimiser kept because an index into them is not a
// constant: `int a[4]; a[threadIdx.x] = n;`) checked at each access whose offset is not known to
// lie inside them. On the GPU such an access reads or writes other local memory of the thread and
// goes on (memcheck sees nothing while it stays inside the thread's local window); on the CPU the
// array is on the fiber's stack, so the access would overwrite tgsim's own frames. A compare and
// a cold branch before the access: past the array, a call into the library reports an
// out-of-bounds finding naming the array, the offset and the line, and ends the thread
// (sim/src/frontend/faults.cpp, __tgsim_local_out_of_bounds). Accesses at constant offsets the
// compiler folds before this pass (`a[5]` of `int a[4]`) are Clang's -Warray-bounds warning and
// the `unreachable` it leaves (faults.cpp).
#include "internal.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

struct LocalAccess {
  Instruction* at;
  Value* ptr;
  AllocaInst* array;
  std::uint64_t bytes;   // the access's width
  std::uint64_t extent;  // the array's bytes
};

// The local array `ptr` points into and its size, when it is one of the kernel's own (tgsim's
// allocas are named tgsim.*) with a size known at compile time.
AllocaInst* local_array(const DataLayout& dl, Value* ptr, std::uint64_t& extent) {
  auto* a = dyn_cast<AllocaInst>(getUnderlyingObject(ptr, 0));
  if (!a || !a->isStaticAlloca() || a->getName().startswith("tgsim.")) return nullptr;
  const Optional<TypeSize> size = a->getAllocationSizeInBits(dl);
  if (!size || size->isScalable()) return nullptr;
  extent = size->getFixedSize() / 8;
  return a;
}

// Whether the access lies inside the array at an offset the compiler knows.
bool known_inside(const DataLayout& dl, const LocalAccess& la) {
  APInt offset(dl.getIndexTypeSizeInBits(la.ptr->getType()), 0);
  if (la.ptr->stripAndAccumulateConstantOffsets(dl, offset, true) != la.array) return false;
  return !offset.isNegative() && offset.getZExtValue() + la.bytes <= la.extent;
}

// The array's name in the source (its debug declaration), else "a local array".
std::string array_name(AllocaInst* a) {
  for (DbgDeclareInst* d : FindDbgDeclareUses(a))
    if (DILocalVariable* v = d->getVariable(); v && !v->getName().empty()) return v->getName().str();
  return "";
}

void guard_access(Context& c, FunctionCallee report, const LocalAccess& la) {
  IRBuilder<> b(la.at);
  Value* offset = b.CreateSub(b.CreatePtrToInt(la.ptr, c.i64), b.CreatePtrToInt(la.array, c.i64), "tgsim.local.off");
  Value* bad = la.bytes > la.extent ? static_cast<Value*>(b.getTrue())
                                    : b.CreateICmpUGT(offset, b.getInt64(la.extent - la.bytes), "tgsim.local.bad");
  Instruction* then = SplitBlockAndInsertIfThen(bad, la.at, true, MDBuilder(c.ctx).createBranchWeights(1, 1u << 20));
  IRBuilder<> t(then);
  Constant* name = t.CreateGlobalStringPtr(array_name(la.array), "tgsim.local.name");
  Constant* site = ConstantExpr::getPointerCast(c.site(*la.at), c.i8p);
  CallInst* call = t.CreateCall(report, {site, name, offset, t.getInt64(la.bytes), t.getInt64(la.extent)});
  call->setDoesNotReturn();
  call->setDebugLoc(la.at->getDebugLoc());
}

}  // namespace

void guard_local_bounds(Context& c) {
  const DataLayout& dl = c.m.getDataLayout();
  AttributeList noreturn = AttributeList().addFnAttribute(c.ctx, Attribute::NoReturn);
  FunctionCallee report = c.m.getOrInsertFunction("__tgsim_local_out_of_bounds", noreturn,
                                                  Type::getVoidTy(c.ctx), c.i8p, c.i8p, c.i64, c.i64, c.i64);
  for (Function* f : c.device) {
    if (f->isDeclaration()) continue;
    std::vector<LocalAccess> found;
    for (Instruction& i : instructions(*f)) {
      Value* ptr = nullptr;
      Type* ty = nullptr;
      if (auto* ld = dyn_cast<LoadInst>(&i)) ptr = ld->getPointerOperand(), ty = ld->getType();
      else if (auto* st = dyn_cast<StoreInst>(&i)) ptr = st->getPointerOperand(), ty = st->getValueOperand()->getType();
      if (!ptr || !ty->isSized()) continue;
      LocalAccess la{&i, ptr, nullptr, dl.getTypeStoreSize(ty).getFixedSize(), 0};
      la.array = local_array(dl, ptr, la.extent);
      if (la.array && !known_inside(dl, la)) found.push_back(la);
    }
    for (const LocalAccess& la : found) guard_access(c, report, la);
  }
}

}  // namespace tgsim::pass
