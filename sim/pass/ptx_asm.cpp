// Inline PTX in device code (asm("mov.u32 %0, %%laneid;" : "=r"(x))): Clang compiles a .cu for
// the host CPU, whose assembler rejects PTX, so the pass replaces the common forms by what they
// compute before code generation:
//   mov.{u32,s32,u64,b32,b64} $0, %laneid | %warpid | %lanemask_{eq,lt,le,gt,ge} | %clock |
//     %clock64 | %globaltimer | %smid | %nsmid: the lane and warp of the thread's linear index in
//     its block, the masks from the lane, the clocks as clock64() (the thread's reads so far,
//     abi.h; %globaltimer that count in ns), SM 0 of 132;
//   bfind.{u32,s32} (the most significant set bit, 0xffffffff for none), brev.b32, popc.b32,
//   clz.b32 ($0, $1).
// Any other PTX (a first word with a '.', as PTX opcodes have) becomes a run-time finding naming
// the instruction at its source line (`not modelled by tgsim: PTX asm 'vabsdiff4.u32.u32.u32.add'`)
// and its outputs zero; asm("trap;") and asm("brkpt;") are faults.cpp's.
#include "internal.hpp"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

// The asm text without blanks and the trailing ';' ("mov.u32$0,%laneid").
std::string compact(const InlineAsm& ia) {
  std::string s;
  for (char ch : ia.getAsmString())
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != ';') s += ch;
  return s;
}

// The thread's x-fastest index in its block (abi.h's TGSIM_OFF_LINEAR_TID).
Value* linear_tid(Context& c, IRBuilder<>& b) {
  Value* t = b.CreateCall(c.fn_thread, {});
  Value* p = b.CreateGEP(b.getInt8Ty(), t, b.getInt64(48));
  return b.CreateLoad(c.i32, b.CreatePointerCast(p, PointerType::getUnqual(c.i32)));
}

// The value of special register `reg` (without '%'), or nullptr when it is not modelled.
Value* special(Context& c, IRBuilder<>& b, const Instruction& at, const std::string& reg) {
  if (reg == "clock" || reg == "clock64" || reg == "globaltimer") {
    FunctionCallee clock = c.m.getOrInsertFunction("__tgsim_clock", c.i64, c.i8p);
    Value* n = b.CreateCall(clock, {ConstantExpr::getPointerCast(c.site(at), c.i8p)});
    return reg == "globaltimer" ? b.CreateMul(n, b.getInt64(1000)) : n;
  }
  if (reg == "smid") return b.getInt32(0);
  if (reg == "nsmid") return b.getInt32(132);
  if (reg != "laneid" && reg != "warpid" && reg.rfind("lanemask_", 0) != 0) return nullptr;
  Value* tid = linear_tid(c, b);
  if (reg == "warpid") return b.CreateLShr(tid, 5);
  Value* lane = b.CreateAnd(tid, 31);
  if (reg == "laneid") return lane;
  Value* bit = b.CreateShl(b.getInt32(1), lane);
  Value* below = b.CreateSub(bit, b.getInt32(1));
  if (reg == "lanemask_eq") return bit;
  if (reg == "lanemask_lt") return below;
  if (reg == "lanemask_le") return b.CreateOr(below, bit);
  if (reg == "lanemask_gt") return b.CreateNot(b.CreateOr(below, bit));
  if (reg == "lanemask_ge") return b.CreateNot(below);
  return nullptr;
}

// The value asm text `s` computes for the call's inputs, or nullptr when not modelled.
Value* lower(Context& c, IRBuilder<>& b, CallInst& ci, const std::string& s) {
  for (const char* mov : {"mov.u32$0,%", "mov.s32$0,%", "mov.b32$0,%", "mov.u64$0,%", "mov.b64$0,%"})
    if (s.rfind(mov, 0) == 0) return special(c, b, ci, s.substr(std::string(mov).size()));
  if (ci.arg_size() != 1 || !ci.getArgOperand(0)->getType()->isIntegerTy(32) || s.size() < 10 || s.substr(s.size() - 5) != "$0,$1")
    return nullptr;
  Value* x = ci.getArgOperand(0);
  const std::string op = s.substr(0, s.size() - 5);
  Module* m = &c.m;
  if (op == "bfind.u32" || op == "bfind.s32") {
    // s32: the highest bit that differs from the sign bit.
    Value* v = op == "bfind.s32" ? b.CreateXor(x, b.CreateAShr(x, 31)) : x;
    Value* clz = b.CreateCall(Intrinsic::getDeclaration(m, Intrinsic::ctlz, {c.i32}), {v, b.getTrue()});
    return b.CreateSelect(b.CreateICmpEQ(v, b.getInt32(0)), b.getInt32(-1), b.CreateSub(b.getInt32(31), clz));
  }
  if (op == "brev.b32") return b.CreateCall(Intrinsic::getDeclaration(m, Intrinsic::bitreverse, {c.i32}), {x});
  if (op == "popc.b32") return b.CreateCall(Intrinsic::getDeclaration(m, Intrinsic::ctpop, {c.i32}), {x});
  if (op == "clz.b32") return b.CreateCall(Intrinsic::getDeclaration(m, Intrinsic::ctlz, {c.i32}), {x, b.getFalse()});
  return nullptr;
}

}  // namespace

void lower_ptx_asm(Context& c) {
  FunctionCallee unsupported =
      c.m.getOrInsertFunction("__tgsim_unsupported", Type::getVoidTy(c.ctx), c.i8p, c.i8p);
  for (Function* f : c.device) {
    if (f->isDeclaration()) continue;
    std::vector<CallInst*> calls;
    for (Instruction& i : instructions(*f))
      if (auto* ci = dyn_cast<CallInst>(&i); ci && ci->isInlineAsm()) calls.push_back(ci);
    for (CallInst* ci : calls) {
      const std::string s = compact(*cast<InlineAsm>(ci->getCalledOperand()));
      const std::string first = s.substr(0, s.find_first_of("$%,{"));
      if (s.empty() || s == "trap" || s == "brkpt" || first.find('.') == std::string::npos) continue;
      IRBuilder<> b(ci);
      Value* v = lower(c, b, *ci, s);
      if (v && !ci->getType()->isIntegerTy()) v = nullptr;
      if (v) {
        v = b.CreateZExtOrTrunc(v, ci->getType());
      } else {
        CallInst* n = b.CreateCall(unsupported, {ConstantExpr::getPointerCast(c.site(*ci), c.i8p),
                                                 c.string("PTX asm '" + first + "'")});
        n->setDebugLoc(ci->getDebugLoc());
        v = ci->getType()->isVoidTy() ? nullptr : Constant::getNullValue(ci->getType());
      }
      if (v) ci->replaceAllUsesWith(v);
      ci->eraseFromParent();
    }
  }
}

}  // namespace tgsim::pass
