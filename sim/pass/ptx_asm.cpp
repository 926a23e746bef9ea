// Inline PTX in device code (asm("mov.u32 %0, %%laneid;" : "=r"(x))): Clang compiles a .cu for
// the host CPU, whose assembler rejects PTX, so the pass replaces an asm statement of one PTX
// instruction by what it computes before code generation (and before instrumentation, so a PTX
// load or store is counted as the access it is):
//   mov.{u32,s32,u64,b32,b64} $0, %laneid | %warpid | %lanemask_{eq,lt,le,gt,ge} | %clock |
//     %clock64 | %globaltimer | %smid | %nsmid: the lane and warp of the thread's linear index in
//     its block, the masks from the lane, the clocks as clock64() (the thread's reads so far,
//     abi.h; %globaltimer that count in ns), SM 0 of 132;
//   the bit, byte, video, funnel-shift, approximate-math, load and store instructions of
//   ptx_ops.cpp.
//   a block of several instructions ("{ .reg .pred p; setp.ne.b32 p, %0, 0; @p ld... }"),
//   ptx_block.cpp.
// Any other PTX (a first word with a '.', as PTX opcodes have) becomes a run-time finding naming
// the instruction (in a block, the first one not modelled) at its source line
// (`not modelled by tgsim: PTX asm 'vmad.u32.u32.u32'`) and its outputs zero; asm("trap;") and
// asm("brkpt;") are faults.cpp's.
#include "internal.hpp"
#include "ptx_asm.hpp"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace tgsim::pass {

bool PtxInstr::has(const char* q) const {
  for (const std::string& s : op)
    if (s == q) return true;
  return false;
}

namespace {

// The asm text without blanks and the trailing ';' ("mov.u32$0,%laneid").
std::string compact(const InlineAsm& ia) {
  std::string s;
  for (char ch : ia.getAsmString())
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != ';') s += ch;
  return s;
}

}  // namespace

// LLVM's asm text as PTX wrote it: "$(" and "$)" are the braces, "$$" a '$'.
std::string ptx_unescape(const std::string& s) {
  std::string r;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && (s[i + 1] == '(' || s[i + 1] == ')' || s[i + 1] == '|' || s[i + 1] == '$')) {
      r += s[i + 1] == '(' ? '{' : s[i + 1] == ')' ? '}' : s[i + 1];
      ++i;
    } else {
      r += s[i];
    }
  }
  return r;
}

// One instruction "op.q1.q2 a, {b, c}, [d+8];" into `in`; false for anything else (several
// instructions, a predicate guard, a block).
bool ptx_parse(const std::string& text, PtxInstr& in) {
  std::string s = ptx_unescape(text);
  while (!s.empty() && (isspace(static_cast<unsigned char>(s.back())) || s.back() == ';')) s.pop_back();
  std::size_t start = s.find_first_not_of(" \t\n");
  if (start == std::string::npos || s.find(';') != std::string::npos || s[start] == '{' || s[start] == '@') return false;
  std::size_t end = s.find_first_of(" \t\n", start);
  const std::string opcode = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
  for (std::size_t p = 0, q; p <= opcode.size(); p = q + 1) {
    q = opcode.find('.', p);
    if (q == std::string::npos) q = opcode.size();
    in.op.push_back(opcode.substr(p, q - p));
  }
  std::string cur;
  int depth = 0;
  for (std::size_t i = end == std::string::npos ? s.size() : end; i < s.size(); ++i) {
    char ch = s[i];
    if (isspace(static_cast<unsigned char>(ch))) continue;
    if (ch == '{' || ch == '[') ++depth;
    if (ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 0) {
      in.args.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) in.args.push_back(cur);
  return depth == 0;
}

namespace {

// The thread's x-fastest index in its block (abi.h's TGSIM_OFF_LINEAR_TID).
Value* linear_tid(Context& c, IRBuilder<>& b) {
  Value* t = b.CreateCall(c.fn_thread, {});
  Value* p = b.CreateGEP(b.getInt8Ty(), t, b.getInt64(48));
  return b.CreateLoad(c.i32, b.CreatePointerCast(p, PointerType::getUnqual(c.i32)));
}

}  // namespace

Value* ptx_special(Context& c, IRBuilder<>& b, const Instruction& at, const std::string& reg) {
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

namespace {

// Replaces the asm call by what its instruction computes; false when it is not modelled (the
// builder's new instructions are then left unused and removed with the call's uses).
bool lower(Context& c, IRBuilder<>& b, CallInst& ci) {
  PtxInstr in;
  if (!ptx_parse(cast<InlineAsm>(ci.getCalledOperand())->getAsmString(), in)) return false;
  PtxOperands ops(ci, b);
  if (!ops.ok) return false;
  bool done = false;
  if (in.op[0] == "mov" && in.args.size() == 2 && in.args[1].size() > 1 && in.args[1][0] == '%') {
    Value* v = ptx_special(c, b, ci, in.args[1].substr(1));
    done = v && ops.set(in.args[0], v);
  } else {
    done = ptx_compute(c, in, ops);
  }
  if (!done) return false;
  if (Value* v = ops.result()) ci.replaceAllUsesWith(v);
  return true;
}

// The run-time finding for asm call `ci` whose instruction `what` is not modelled; its outputs zero.
void unmodelled(Context& c, FunctionCallee unsupported, CallInst& ci, const std::string& what) {
  IRBuilder<> b(&ci);
  CallInst* n = b.CreateCall(unsupported, {ConstantExpr::getPointerCast(c.site(ci), c.i8p),
                                           c.string("PTX asm '" + what + "'")});
  n->setDebugLoc(ci.getDebugLoc());
  if (!ci.getType()->isVoidTy()) ci.replaceAllUsesWith(Constant::getNullValue(ci.getType()));
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
      const std::string first = s.substr(0, s.find_first_of("$%,{["));
      if (ptx_is_block(ptx_unescape(cast<InlineAsm>(ci->getCalledOperand())->getAsmString()))) {
        std::string failed;
        if (!ptx_lower_block(c, *ci, failed)) unmodelled(c, unsupported, *ci, failed);
        ci->eraseFromParent();
        continue;
      }
      if (s.empty() || s == "trap" || s == "brkpt" || first.find('.') == std::string::npos) continue;
      IRBuilder<> b(ci);
      if (!lower(c, b, *ci)) unmodelled(c, unsupported, *ci, first);
      ci->eraseFromParent();
    }
  }
}

}  // namespace tgsim::pass
