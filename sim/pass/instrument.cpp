// The per-access instrumentation: before each load (after each store) of device code, the
// inline append of record.hpp written in IR:
//   key = site | kind | width code << 56;  slot = tags[(key * golden) >> 56]
//   if (slot.key == key && log.cur != log.end) *log.cur++ = slot.tag | address;
//   else __tgsim_access(thread, site, kind, address, width);          (the library's slow path)
// and for a store with the checker on, __tgsim_note_store(thread, address, width) after it.
// An access wider than its alignment or than 16 bytes is split into naturally aligned pieces
// of at most 16 bytes, as the GPU splits it; a constant-size memcpy or memset is its pieces.
// Runtime calls that take a site first (`__tgsim_barrier(0)`) get the call's site.
#include "internal.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <tgsim/kernel/abi.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

std::uint64_t width_code(std::uint64_t w) {
  return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : w == 8 ? 3 : 4;
}

struct Access {
  Instruction* at;      // the load, store or intrinsic
  Value* ptr;
  std::uint64_t bytes;
  std::uint64_t align;
  bool store;
};

// Whether `ptr` can be memory the kernel shares: not the thread's own stack, not a read-only
// constant, not tgsim's thread state.
bool is_kernel_memory(const Context& c, Value* ptr) {
  const Value* u = getUnderlyingObject(ptr, 0);
  if (isa<AllocaInst>(u)) return false;
  if (auto* a = dyn_cast<Argument>(u); a && (a->hasByValAttr() || a->hasStructRetAttr())) return false;
  if (auto* gv = dyn_cast<GlobalVariable>(u); gv && gv->isConstant() && !c.annotated_constant.count(gv))
    return false;
  if (auto* cb = dyn_cast<CallBase>(u))
    if (Function* f = cb->getCalledFunction(); f && f->getName().startswith("__tgsim_")) return false;
  return true;
}

bool is_constant_memory(const Context& c, Value* ptr) {
  const Value* u = getUnderlyingObject(ptr, 0);
  auto* gv = dyn_cast<GlobalVariable>(u);
  return gv && c.annotated_constant.count(gv);
}

// One record for `bytes` (1, 2, 4, 8 or 16) at `addr` (i64), placed before `at`.
void emit_record(Context& c, Entry& e, Instruction* at, Constant* site, unsigned kind,
                 Value* addr, std::uint64_t bytes, bool note_store) {
  IRBuilder<> b(at);
  b.SetCurrentDebugLocation(at->getDebugLoc());
  if (kind == TGSIM_KIND_CONSTANT_LOAD) {
    b.CreateCall(c.fn_access, {e.thread, ConstantExpr::getPointerCast(site, c.i8p),
                               ConstantInt::get(c.i32, kind), addr, ConstantInt::get(c.i32, bytes)});
    return;
  }
  const std::uint64_t bits = kind | (width_code(bytes) << 56);
  Value* key = b.CreateOr(b.CreatePtrToInt(site, c.i64), ConstantInt::get(c.i64, bits), "tgsim.key");
  Value* slot = b.CreateLShr(b.CreateMul(key, ConstantInt::get(c.i64, kGolden)), 56);
  Value* idx = b.CreateShl(slot, 1);
  Value* kp = b.CreateInBoundsGEP(c.i64, e.tags, idx);
  Value* tp = b.CreateInBoundsGEP(c.i64, e.tags, b.CreateOr(idx, 1));
  Value* ek = b.CreateAlignedLoad(c.i64, kp, Align(8));
  Value* et = b.CreateAlignedLoad(c.i64, tp, Align(8));
  Type* i64p = c.i64->getPointerTo();
  Value* endp = b.CreateInBoundsGEP(i64p, e.log, ConstantInt::get(c.i64, 1));
  Value* cur = b.CreateAlignedLoad(i64p, e.log, Align(8), "tgsim.cur");
  Value* end = b.CreateAlignedLoad(i64p, endp, Align(8));
  Value* ok = b.CreateAnd(b.CreateICmpEQ(ek, key), b.CreateICmpNE(cur, end));
  Instruction *fast = nullptr, *slow = nullptr;
  MDNode* likely = MDBuilder(c.ctx).createBranchWeights(2000, 1);
  SplitBlockAndInsertIfThenElse(ok, at, &fast, &slow, likely);
  IRBuilder<> f(fast);
  f.SetCurrentDebugLocation(at->getDebugLoc());
  f.CreateAlignedStore(f.CreateOr(et, addr), cur, Align(8));
  f.CreateAlignedStore(f.CreateConstInBoundsGEP1_64(c.i64, cur, 1), e.log, Align(8));
  if (note_store) {
    Instruction* note = SplitBlockAndInsertIfThen(e.checking, fast, false, MDBuilder(c.ctx).createBranchWeights(1, 2000));
    IRBuilder<> n(note);
    n.SetCurrentDebugLocation(at->getDebugLoc());
    n.CreateCall(c.fn_note_store, {e.thread, addr, ConstantInt::get(c.i32, bytes)});
  }
  IRBuilder<> s(slow);
  s.SetCurrentDebugLocation(at->getDebugLoc());
  s.CreateCall(c.fn_access, {e.thread, ConstantExpr::getPointerCast(site, c.i8p),
                             ConstantInt::get(c.i32, kind), addr, ConstantInt::get(c.i32, bytes)});
}

// The access's naturally aligned pieces, each recorded; stores after the store itself (the
// checker reads the stored bytes from memory then).
void instrument_access(Context& c, const Access& a) {
  Function& fn = *a.at->getFunction();
  Entry& e = c.entry(fn);
  Constant* site = c.site(*a.at);
  const bool constant = !a.store && is_constant_memory(c, a.ptr);
  const unsigned kind = constant ? TGSIM_KIND_CONSTANT_LOAD : a.store ? TGSIM_KIND_STORE : TGSIM_KIND_LOAD;
  Instruction* where = a.store ? a.at->getNextNode() : a.at;
  IRBuilder<> b(a.at);
  Value* base = b.CreatePtrToInt(a.ptr, c.i64);
  std::uint64_t align = a.align ? (a.align & (~a.align + 1)) : 1;  // lowest set bit
  for (std::uint64_t off = 0; off < a.bytes;) {
    std::uint64_t piece = 16;
    while (piece > 1 && (piece > a.bytes - off || piece > align || (off % piece) != 0)) piece /= 2;
    Value* addr = off ? b.CreateAdd(base, ConstantInt::get(c.i64, off)) : base;
    emit_record(c, e, where, site, kind, addr, piece, a.store && !constant);
    off += piece;
  }
}

}  // namespace

void instrument_function(Context& c, Function& f) {
  std::vector<Access> accesses;
  std::vector<CallBase*> site_calls;
  std::vector<CallInst*> printf_calls;
  for (Instruction& i : instructions(f)) {
    if (auto* ld = dyn_cast<LoadInst>(&i)) {
      if (is_kernel_memory(c, ld->getPointerOperand()))
        accesses.push_back({ld, ld->getPointerOperand(), c.dl.getTypeStoreSize(ld->getType()),
                            ld->getAlign().value(), false});
    } else if (auto* st = dyn_cast<StoreInst>(&i)) {
      if (is_kernel_memory(c, st->getPointerOperand()))
        accesses.push_back({st, st->getPointerOperand(),
                            c.dl.getTypeStoreSize(st->getValueOperand()->getType()),
                            st->getAlign().value(), true});
    } else if (auto* mt = dyn_cast<MemTransferInst>(&i)) {
      auto* len = dyn_cast<ConstantInt>(mt->getLength());
      std::uint64_t n = len ? len->getZExtValue() : 0;
      if (n && is_kernel_memory(c, mt->getRawSource()))
        accesses.push_back({mt, mt->getRawSource(), n, mt->getSourceAlign().valueOrOne().value(), false});
      if (n && is_kernel_memory(c, mt->getRawDest()))
        accesses.push_back({mt, mt->getRawDest(), n, mt->getDestAlign().valueOrOne().value(), true});
    } else if (auto* ms = dyn_cast<MemSetInst>(&i)) {
      auto* len = dyn_cast<ConstantInt>(ms->getLength());
      if (len && is_kernel_memory(c, ms->getRawDest()))
        accesses.push_back({ms, ms->getRawDest(), len->getZExtValue(),
                            ms->getDestAlign().valueOrOne().value(), true});
    } else if (auto* cb = dyn_cast<CallBase>(&i)) {
      Function* g = cb->getCalledFunction();
      if (g && g->getName().startswith("__tgsim_") && cb->arg_size() > 0 &&
          isa<ConstantPointerNull>(cb->getArgOperand(0)))
        site_calls.push_back(cb);
      else if (g && g->getName() == "printf" && isa<CallInst>(cb))
        printf_calls.push_back(cast<CallInst>(cb));
    }
  }
  for (CallBase* cb : site_calls)
    cb->setArgOperand(0, ConstantExpr::getPointerCast(c.site(*cb), cb->getArgOperand(0)->getType()));
  // A kernel's printf goes to the launch, which prints it in (group, thread) order.
  for (CallInst* call : printf_calls) {
    FunctionCallee p = c.m.getOrInsertFunction("__tgsim_printf", FunctionType::get(c.i32, {c.i8p, c.i8p}, true));
    std::vector<Value*> args = {ConstantExpr::getPointerCast(c.site(*call), c.i8p)};
    for (Value* a : call->args()) args.push_back(a);
    IRBuilder<> b(call);
    CallInst* n = b.CreateCall(p, args);
    n->setDebugLoc(call->getDebugLoc());
    call->replaceAllUsesWith(n);
    call->eraseFromParent();
  }
  for (const Access& a : accesses) instrument_access(c, a);
}

}  // namespace tgsim::pass
