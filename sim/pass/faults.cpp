// Faults a GPU survives or reports, made defined on the CPU (the library reports them:
// sim/src/frontend/faults.cpp). Runs on the device functions before they are instrumented, so the calls
// it adds are synced with the lane's cursor like any other call into the library.
//  - Integer division and remainder by a divisor not known to be safe: PTX gives an unspecified
//    value for x / 0 and INT_MIN / -1 and goes on, where x86's idiv raises SIGFPE. A compare and
//    branch before the division sends the divisors 0 (and -1, signed) to a cold path that gives
//    the value without dividing (x / 0 = all ones, x % 0 = x, INT_MIN / -1 = INT_MIN,
//    INT_MIN % -1 = 0) and reports a fault at the division's line.
//  - assert() (glibc's __assert_fail), abort(), asm("trap;"), asm("brkpt;"), __builtin_trap()
//    and __builtin_debugtrap() become calls into the library, which reports them and ends the
//    thread (the headers' __trap() and __brkpt() call it directly).
//  - memset and memcpy of a length known only at run time become a call into the library, which
//    checks the ranges (a null pointer is a finding at the call's line, not a fault in libc),
//    moves the bytes and records the accesses.
//  - An `unreachable` the optimiser left where it proved undefined behaviour (a store through a
//    null pointer, an access past a local array, a path that falls off a non-void function)
//    becomes a call into the library that reports it at the line of the deleted code and ends
//    the thread: on the CPU the code would run into whatever follows the function; NVPTX lowers
//    `unreachable` to a trap, so the GPU ends the launch (cudaErrorLaunchFailure).
//  - Every loop counts its iterations down in a register (one decrement and one branch per
//    iteration); a loop that runs kLoopBudget iterations without being left calls the library,
//    which reports a watchdog finding and ends the thread's group. The access watchdog
//    (LaunchConfig::watchdog_accesses, 2^26) sees loops that touch memory first; this one
//    catches a loop on registers only (`for (k = 0; k < n; k += step) x = f(x);` with step 0),
//    which no access reveals.
#include "internal.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

constexpr std::uint64_t kLoopBudget = std::uint64_t(1) << 30;

// The library's entry points (abi.h).
struct Runtime {
  FunctionCallee int_fault, assert_fail, trap, loop_budget, constant_store, heap_alloc, heap_free, memop;
};

Runtime runtime(Context& c) {
  Type* v = Type::getVoidTy(c.ctx);
  AttributeList noreturn = AttributeList().addFnAttribute(c.ctx, Attribute::NoReturn);
  Runtime r;
  r.int_fault = c.m.getOrInsertFunction("__tgsim_int_fault", v, c.i8p, c.i32);
  r.assert_fail = c.m.getOrInsertFunction("__tgsim_assert_fail", noreturn, v, c.i8p, c.i8p, c.i8p, c.i32, c.i8p);
  r.trap = c.m.getOrInsertFunction("__tgsim_trap", noreturn, v, c.i8p, c.i32);
  r.loop_budget = c.m.getOrInsertFunction("__tgsim_loop_budget", noreturn, v, c.i8p, c.i64);
  r.constant_store = c.m.getOrInsertFunction("__tgsim_constant_store", noreturn, v, c.i8p, c.i8p);
  r.heap_alloc = c.m.getOrInsertFunction("__tgsim_device_malloc", c.i8p, c.i8p, c.i64);
  r.heap_free = c.m.getOrInsertFunction("__tgsim_device_free", v, c.i8p, c.i8p);
  r.memop = c.m.getOrInsertFunction("__tgsim_memop", v, c.i8p, c.i8p, c.i8p, c.i32, c.i64);
  return r;
}

Constant* site_arg(Context& c, const Instruction& at) {
  return ConstantExpr::getPointerCast(c.site(at), c.i8p);
}

// A cold branch: the weights say the fault is (almost) never taken.
MDNode* cold(Context& c) { return MDBuilder(c.ctx).createBranchWeights(1, 1u << 20); }

// One i1 from a vector of them (any lane).
Value* any_lane(IRBuilder<>& b, Value* v) {
  auto* vt = dyn_cast<FixedVectorType>(v->getType());
  if (!vt) return v;
  return b.CreateICmpNE(b.CreateBitCast(v, b.getIntNTy(vt->getNumElements())),
                        Constant::getNullValue(b.getIntNTy(vt->getNumElements())));
}

// Whether `v` may be INT_MIN, from its known bits.
bool may_be_min(const KnownBits& k) {
  const unsigned bits = k.getBitWidth();
  return !k.Zero[bits - 1] && (k.One & ~APInt::getSignMask(bits)).isZero();
}

// A vector division (rare: no vectoriser runs): the divisor 1 in the lanes that fault, the
// GPU's value there, and a branch to the report when any lane faults.
void guard_vector_division(Context& c, const Runtime& rt, BinaryOperator* op, bool is_div, bool may_overflow) {
  Type* ty = op->getType();
  Value *n = op->getOperand(0), *d = op->getOperand(1);
  IRBuilder<> b(op);
  Value* is_zero = b.CreateICmpEQ(d, Constant::getNullValue(ty), "tgsim.div0");
  Value* bad = is_zero;
  if (may_overflow) {
    const unsigned bits = ty->getScalarSizeInBits();
    Value* over = b.CreateAnd(b.CreateICmpEQ(d, Constant::getAllOnesValue(ty)),
                              b.CreateICmpEQ(n, ConstantInt::get(ty, APInt::getSignedMinValue(bits))));
    bad = b.CreateOr(is_zero, over, "tgsim.divbad");
  }
  Instruction* then = SplitBlockAndInsertIfThen(any_lane(b, bad), op, false, cold(c));
  IRBuilder<> t(then);
  Value* what = t.CreateSelect(any_lane(t, is_zero), t.getInt32(0), t.getInt32(1));  // 0: by zero
  CallInst* call = t.CreateCall(rt.int_fault, {site_arg(c, *op), what});
  call->setDebugLoc(op->getDebugLoc());
  // op heads the block after the branch: the divisor 1 where it faults, then the fault's value.
  IRBuilder<> a(op);
  op->setOperand(1, a.CreateSelect(bad, ConstantInt::get(ty, 1), d));
  IRBuilder<> r(op->getNextNode());
  Value* on_zero = is_div ? Constant::getAllOnesValue(ty) : n;
  auto* res = cast<Instruction>(r.CreateSelect(is_zero, on_zero, op, "tgsim.divres"));
  op->replaceUsesWithIf(res, [&](Use& u) { return u.getUser() != res; });
}

// A scalar division: one compare and branch on the hot path (d == 0; signed: d + 1 <= 1
// unsigned, d in {0, -1}). The cold side gives the GPU's value without dividing (x / -1 is
// 0 - x, wrapping for INT_MIN; x % -1 is 0) and reports a real fault (d == 0, INT_MIN / -1).
void guard_scalar_division(Context& c, const Runtime& rt, BinaryOperator* op, bool is_signed, bool is_div,
                           bool may_zero, bool may_overflow) {
  Type* ty = op->getType();
  Value *n = op->getOperand(0), *d = op->getOperand(1);
  Constant *zero = Constant::getNullValue(ty), *ones = Constant::getAllOnesValue(ty),
           *one = ConstantInt::get(ty, 1);
  IRBuilder<> b(op);
  Value* odd = !may_overflow ? b.CreateICmpEQ(d, zero)
               : !may_zero   ? b.CreateICmpEQ(d, ones)
                             : b.CreateICmpULE(b.CreateAdd(d, one), one);
  Instruction *cold_term = nullptr, *hot_term = nullptr;
  SplitBlockAndInsertIfThenElse(odd, op, &cold_term, &hot_term, cold(c));
  BasicBlock* tail = op->getParent();
  op->moveBefore(hot_term);
  IRBuilder<> t(cold_term);
  Value* is_zero = t.CreateICmpEQ(d, zero, "tgsim.div0");
  Value* value = is_div ? (is_signed ? t.CreateSelect(is_zero, ones, t.CreateSub(zero, n)) : ones)
                        : (is_signed ? t.CreateSelect(is_zero, n, zero) : n);
  Value* bad = is_zero;
  if (may_overflow)
    bad = t.CreateOr(is_zero, t.CreateICmpEQ(n, ConstantInt::get(ty, APInt::getSignedMinValue(ty->getScalarSizeInBits()))));
  Instruction* report = SplitBlockAndInsertIfThen(bad, cold_term, false);
  IRBuilder<> r(report);
  CallInst* call = r.CreateCall(rt.int_fault, {site_arg(c, *op), r.CreateSelect(is_zero, r.getInt32(0), r.getInt32(1))});
  call->setDebugLoc(op->getDebugLoc());
  PHINode* phi = PHINode::Create(ty, 2, "tgsim.divres", &tail->front());
  op->replaceAllUsesWith(phi);
  phi->addIncoming(op, hot_term->getParent());
  phi->addIncoming(value, cold_term->getParent());
}

void guard_division(Context& c, const Runtime& rt, BinaryOperator* op) {
  const auto code = op->getOpcode();
  const bool is_signed = code == Instruction::SDiv || code == Instruction::SRem;
  const bool is_div = code == Instruction::SDiv || code == Instruction::UDiv;
  Value *n = op->getOperand(0), *d = op->getOperand(1);
  const bool may_zero = !isKnownNonZero(d, c.dl);
  bool may_overflow = false;
  if (is_signed) {
    const KnownBits kd = computeKnownBits(d, c.dl);
    may_overflow = kd.Zero.isZero() && may_be_min(computeKnownBits(n, c.dl));  // d may be -1
  }
  if (!may_zero && !may_overflow) return;
  if (op->getType()->isVectorTy())
    guard_vector_division(c, rt, op, is_div, may_overflow);
  else
    guard_scalar_division(c, rt, op, is_signed, is_div, may_zero, may_overflow);
}

// The text of an inline asm call, without blanks and a trailing ';' ("trap", "brkpt").
std::string asm_text(const CallBase& cb) {
  const auto* ia = dyn_cast<InlineAsm>(cb.getCalledOperand());
  if (!ia) return "";
  std::string s;
  for (char ch : ia->getAsmString())
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != ';') s += ch;
  return s;
}

// assert, abort, trap and brkpt in device code: calls into the library at the same line.
void replace_fault_calls(Context& c, const Runtime& rt, Function& f) {
  std::vector<CallInst*> calls;
  std::vector<StoreInst*> constant_stores;
  for (Instruction& i : instructions(f)) {
    if (auto* ci = dyn_cast<CallInst>(&i)) calls.push_back(ci);
    if (auto* st = dyn_cast<StoreInst>(&i); st && is_constant_memory(c, st->getPointerOperand()))
      constant_stores.push_back(st);
  }
  // A store to __constant__ memory: nvcc warns and emits a trap in its place (the H100 ends the
  // launch, memcheck: "Trace/breakpoint trap"; tests/hardware/checker_probe/). The store goes,
  // a call that reports it and ends the thread takes its place.
  for (StoreInst* st : constant_stores) {
    IRBuilder<> b(st);
    const Value* gv = getUnderlyingObject(st->getPointerOperand(), 0);
    Constant* name = b.CreateGlobalStringPtr(llvm::demangle(gv->getName().str()), "tgsim.constant.name");
    CallInst* n = b.CreateCall(rt.constant_store, {site_arg(c, *st), name});
    n->setDebugLoc(st->getDebugLoc());
    st->eraseFromParent();
  }
  for (CallInst* ci : calls) {
    const Function* g = ci->getCalledFunction();
    const StringRef name = g ? g->getName() : "";
    const std::string text = ci->isInlineAsm() ? asm_text(*ci) : "";
    IRBuilder<> b(ci);
    CallInst* n = nullptr;
    if (name == "__assert_fail" && ci->arg_size() == 4) {
      n = b.CreateCall(rt.assert_fail, {site_arg(c, *ci), ci->getArgOperand(0), ci->getArgOperand(1),
                                        b.CreateIntCast(ci->getArgOperand(2), c.i32, false),
                                        ci->getArgOperand(3)});
    } else if (name == "abort" && ci->arg_size() == 0) {
      n = b.CreateCall(rt.trap, {site_arg(c, *ci), b.getInt32(3)});
    } else if (text == "trap" || text == "brkpt") {
      n = b.CreateCall(rt.trap, {site_arg(c, *ci), b.getInt32(text == "trap" ? 1 : 2)});
    } else if (name == "llvm.trap" || name == "llvm.debugtrap") {  // __builtin_trap(): ud2, SIGILL
      n = b.CreateCall(rt.trap, {site_arg(c, *ci), b.getInt32(name == "llvm.trap" ? 4 : 5)});
    } else if ((name == "malloc" || name == "_Znwm" || name == "_Znam" || name == "_ZnwmRKSt9nothrow_t" ||
                name == "_ZnamRKSt9nothrow_t") && ci->arg_size() >= 1) {
      // The device heap (device_heap.cpp): malloc and new in kernel code, as CUDA's.
      n = b.CreateCall(rt.heap_alloc, {site_arg(c, *ci), b.CreateZExtOrTrunc(ci->getArgOperand(0), c.i64)});
    } else if ((name == "free" || name == "_ZdlPv" || name == "_ZdaPv" || name == "_ZdlPvm" || name == "_ZdaPvm") &&
               ci->arg_size() >= 1) {
      n = b.CreateCall(rt.heap_free, {site_arg(c, *ci), b.CreatePointerCast(ci->getArgOperand(0), c.i8p)});
    }
    if (!n) continue;
    n->setDebugLoc(ci->getDebugLoc());
    if (!ci->getType()->isVoidTy())
      ci->replaceAllUsesWith(n->getType() == ci->getType() ? static_cast<Value*>(n)
                                                            : UndefValue::get(ci->getType()));
    ci->eraseFromParent();
  }
}

// An instruction of the loop with a source line (the loop's site), else its header's first.
const Instruction& loop_site(const Loop& l) {
  for (const BasicBlock* bb : l.blocks())
    for (const Instruction& i : *bb)
      if (const DILocation* dl = i.getDebugLoc().get(); dl && dl->getLine() != 0) return i;
  return *l.getHeader()->getFirstNonPHI();
}

// Each loop counts down from kLoopBudget in a register: a phi in its header (the budget from
// outside the loop, the decremented count from its latches), a decrement and a cold branch.
// The phis are made for every loop before any block is split, so each names the real edges
// (splitting a block later moves its outgoing edges and the phis follow).
void guard_loops(Context& c, const Runtime& rt, Function& f) {
  DominatorTree dt(f);
  LoopInfo li(dt);
  if (li.empty()) return;
  struct Guard {
    Instruction* check;
    Constant* site;
    DebugLoc loc;
  };
  std::vector<Guard> guards;
  Constant* budget = ConstantInt::get(c.i64, kLoopBudget);
  for (Loop* l : li.getLoopsInPreorder()) {
    BasicBlock* h = l->getHeader();
    const Instruction& at = loop_site(*l);
    PHINode* left = PHINode::Create(c.i64, 2, "tgsim.loop.left", &h->front());
    IRBuilder<> b(&*h->getFirstInsertionPt());
    Value* dec = b.CreateSub(left, ConstantInt::get(c.i64, 1), "tgsim.loop.dec");
    for (BasicBlock* p : predecessors(h)) left->addIncoming(l->contains(p) ? dec : budget, p);
    auto* out = cast<Instruction>(b.CreateICmpEQ(dec, ConstantInt::get(c.i64, 0)));
    guards.push_back({out, site_arg(c, at), at.getDebugLoc()});
  }
  for (const Guard& g : guards) {
    Instruction* then = SplitBlockAndInsertIfThen(g.check, g.check->getNextNode(), true, cold(c));
    IRBuilder<> t(then);
    CallInst* call = t.CreateCall(rt.loop_budget, {g.site, budget});
    call->setDebugLoc(g.loc);
  }
}

// memset and memcpy of a length not known at compile time (instrument.cpp records those of a
// known length as their pieces): a call into the library, which checks both ranges (a null
// destination is a finding at this line, not a fault inside libc), moves the bytes and
// records the accesses.
void guard_memops(Context& c, const Runtime& rt, Function& f) {
  std::vector<MemIntrinsic*> found;
  for (Instruction& i : instructions(f))
    if (auto* mi = dyn_cast<MemIntrinsic>(&i); mi && !isa<ConstantInt>(mi->getLength()) &&
                                              mi->getDestAddressSpace() == 0)
      if (!isa<MemTransferInst>(mi) || cast<MemTransferInst>(mi)->getSourceAddressSpace() == 0)
        found.push_back(mi);
  for (MemIntrinsic* mi : found) {
    IRBuilder<> b(mi);
    Value* dst = b.CreatePointerCast(mi->getRawDest(), c.i8p);
    Value* src = Constant::getNullValue(c.i8p);
    Value* value = b.getInt32(0);
    if (auto* mt = dyn_cast<MemTransferInst>(mi)) src = b.CreatePointerCast(mt->getRawSource(), c.i8p);
    else value = b.CreateZExt(cast<MemSetInst>(mi)->getValue(), c.i32);
    CallInst* call = b.CreateCall(rt.memop, {site_arg(c, *mi), dst, src, value, b.CreateZExtOrTrunc(mi->getLength(), c.i64)});
    call->setDebugLoc(mi->getDebugLoc());
    mi->eraseFromParent();
  }
}

// `unreachable` not after a call that does not return (the library's own, exit ...): code the
// optimiser deleted as undefined behaviour. A trap (what 6) at its line takes its place.
void guard_unreachable(Context& c, const Runtime& rt, Function& f) {
  std::vector<UnreachableInst*> found;
  for (BasicBlock& bb : f)
    if (auto* u = dyn_cast<UnreachableInst>(bb.getTerminator())) {
      const auto* call = dyn_cast_or_null<CallBase>(u->getPrevNode());
      if (!call || !call->doesNotReturn()) found.push_back(u);
    }
  for (UnreachableInst* u : found) {
    IRBuilder<> b(u);
    CallInst* call = b.CreateCall(rt.trap, {site_arg(c, *u), b.getInt32(6)});
    call->setDoesNotReturn();
    call->setDebugLoc(u->getDebugLoc());
  }
}

}  // namespace

void guard_faults(Context& c) {
  const Runtime rt = runtime(c);
  for (Function* f : c.device) {
    if (f->isDeclaration()) continue;
    replace_fault_calls(c, rt, *f);
    guard_unreachable(c, rt, *f);
    guard_memops(c, rt, *f);
    std::vector<BinaryOperator*> divs;
    for (Instruction& i : instructions(*f))
      if (auto* bo = dyn_cast<BinaryOperator>(&i))
        if (bo->getOpcode() == Instruction::SDiv || bo->getOpcode() == Instruction::UDiv ||
            bo->getOpcode() == Instruction::SRem || bo->getOpcode() == Instruction::URem)
          divs.push_back(bo);
    for (BinaryOperator* bo : divs) guard_division(c, rt, bo);
    guard_loops(c, rt, *f);
  }
}

}  // namespace tgsim::pass
