// A braced block of PTX in one asm statement, as CUTLASS-style code writes it:
//   asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; @p cp.async.cg.shared.global [%1], [%2], 16; }" ...)
// lowered as its instructions in order: `.reg .T name[, name...]` (T pred, b/u/s 8-64, f32, f64;
// `name<N>` declares name0..name(N-1)) declares registers of the block, zero until written;
// `@p` / `@!p` guards an instruction, which then runs only for the threads whose p holds (a
// guarded-off load, store or cp.async makes no access, those lanes inactive for it, as on the
// GPU); the registers and outputs it writes keep their old value for the others. Every
// instruction is one of ptx_asm.cpp's, ptx_ops.cpp's or ptx_scalar.cpp's, its accesses counted
// as when written alone. Several instructions without braces are a block too.
// The block is built in a region of its own between the asm call's block and the rest; when an
// instruction is not modelled the region is dropped whole, and ptx_asm.cpp reports it.
#include "internal.hpp"
#include "ptx_asm.hpp"

#include <set>

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

struct Statement {
  std::string guard;  // the predicate register of "@p" or "@!p", else empty
  bool negate = false;
  std::string text;   // the instruction or declaration without its ';'
};

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// The statements of a block: split at ';', scope braces (a '{' or '}' where a statement
// starts) and "//" comments dropped, guards taken off.
std::vector<Statement> statements(const std::string& text) {
  std::vector<Statement> r;
  std::string cur;
  auto push = [&] {
    Statement st;
    st.text = trim(cur);
    cur.clear();
    if (st.text.empty()) return;
    if (st.text[0] == '@') {
      const std::size_t at = st.text[1] == '!' ? 2 : 1, end = st.text.find_first_of(" \t\r\n", at);
      st.negate = at == 2;
      st.guard = st.text.substr(at, end == std::string::npos ? std::string::npos : end - at);
      st.text = end == std::string::npos ? "" : trim(st.text.substr(end));
    }
    r.push_back(st);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (ch == ';') {
      push();
    } else if ((ch == '{' || ch == '}') && trim(cur).empty()) {
      push();
    } else {
      cur += ch;
    }
  }
  push();
  return r;
}

// The opcode of a statement (its first word), for the finding.
std::string opcode(const Statement& st) {
  return st.text.substr(0, st.text.find_first_of(" \t\r\n"));
}

// `.reg .T a, b<2>` into ops.locals; false for another declaration or type.
bool declare(IRBuilder<>& b, PtxOperands& ops, const std::string& text) {
  std::string rest = trim(text.substr(4));
  const std::size_t sp = rest.find_first_of(" \t\r\n");
  if (rest.empty() || rest[0] != '.' || sp == std::string::npos) return false;
  const std::string type = rest.substr(1, sp - 1);
  Type* t = nullptr;
  if (type == "pred") t = b.getInt1Ty();
  else if (type == "f32") t = b.getFloatTy();
  else if (type == "f64") t = b.getDoubleTy();
  else if ((type[0] == 'b' || type[0] == 'u' || type[0] == 's') &&
           (type.substr(1) == "8" || type.substr(1) == "16" || type.substr(1) == "32" || type.substr(1) == "64"))
    t = b.getIntNTy(static_cast<unsigned>(std::stoi(type.substr(1))));
  if (!t) return false;
  for (const std::string& part : ptx_registers(trim(rest.substr(sp)))) {
    const std::string name = trim(part);
    const std::size_t lt = name.find('<');
    if (name.empty()) return false;
    if (lt == std::string::npos) {
      ops.locals[name] = Constant::getNullValue(t);
      continue;
    }
    const int n = std::atoi(name.c_str() + lt + 1);
    if (n <= 0 || n > 1024 || name.back() != '>') return false;
    for (int k = 0; k < n; ++k) ops.locals[name.substr(0, lt) + std::to_string(k)] = Constant::getNullValue(t);
  }
  return true;
}

// One instruction, unguarded, at the builder.
bool compute(Context& c, CallInst& ci, const std::string& text, PtxOperands& ops) {
  PtxInstr in;
  if (!ptx_parse(text, in) || in.op.empty()) return false;
  if (in.op[0] == "mov" && in.args.size() == 2 && in.args[1].size() > 1 && in.args[1][0] == '%' &&
      !ops.locals.count(in.args[1])) {
    Value* v = ptx_special(c, ops.b, ci, in.args[1].substr(1));
    return v && ops.writable(in.args[0]) && ops.set(in.args[0], v);
  }
  return ptx_compute(c, in, ops);
}

// A guarded instruction: run in a block of its own entered when the predicate holds; each
// output and register it wrote is merged with its old value after it.
bool guarded(Context& c, CallInst& ci, const Statement& st, PtxOperands& ops) {
  IRBuilder<>& b = ops.b;
  Value* p = ops.get(st.guard, b.getInt1Ty());
  if (!p || !ops.locals.count(st.guard) || !ops.locals.at(st.guard)->getType()->isIntegerTy(1)) return false;
  if (st.negate) p = b.CreateNot(p);
  Instruction* at = &*b.GetInsertPoint();
  BasicBlock* skip_from = at->getParent();
  const std::vector<Value*> results = ops.results;
  const std::map<std::string, Value*> locals = ops.locals;
  Instruction* then_end = SplitBlockAndInsertIfThen(p, at, false);
  b.SetInsertPoint(then_end);
  b.SetCurrentDebugLocation(ci.getDebugLoc());
  if (!compute(c, ci, st.text, ops)) return false;
  BasicBlock* ran_from = b.GetInsertBlock();
  IRBuilder<> merge(at->getParent(), at->getParent()->begin());
  auto join = [&](Value* old, Value*& now) {
    if (old == now) return;
    PHINode* phi = merge.CreatePHI(old->getType(), 2);
    phi->addIncoming(old, skip_from);
    phi->addIncoming(now, ran_from);
    now = phi;
  };
  for (std::size_t k = 0; k < results.size(); ++k) join(results[k], ops.results[k]);
  for (auto& [name, value] : ops.locals) join(locals.at(name), value);
  b.SetInsertPoint(at);
  b.SetCurrentDebugLocation(ci.getDebugLoc());
  return true;
}

bool statement(Context& c, CallInst& ci, const Statement& st, PtxOperands& ops) {
  if (st.text.rfind(".reg", 0) == 0) return st.guard.empty() && declare(ops.b, ops, st.text);
  if (st.text.empty() || st.text[0] == '.') return false;
  return st.guard.empty() ? compute(c, ci, st.text, ops) : guarded(c, ci, st, ops);
}

// The blocks of the region from `region` up to (without) `tail`.
std::vector<BasicBlock*> region_blocks(BasicBlock* region, BasicBlock* tail) {
  std::vector<BasicBlock*> r = {region};
  std::set<BasicBlock*> seen = {region, tail};
  for (std::size_t i = 0; i < r.size(); ++i)
    for (BasicBlock* next : successors(r[i]))
      if (seen.insert(next).second) r.push_back(next);
  return r;
}

}  // namespace

bool ptx_is_block(const std::string& text) {
  const std::string t = trim(text);
  if (t.empty()) return false;
  if (t[0] == '{' || t[0] == '@') return true;
  return statements(t).size() > 1;
}

bool ptx_lower_block(Context& c, CallInst& ci, std::string& failed) {
  const std::vector<Statement> sts = statements(ptx_unescape(cast<InlineAsm>(ci.getCalledOperand())->getAsmString()));
  Function& f = *ci.getFunction();
  BasicBlock* head = ci.getParent();
  BasicBlock* tail = head->splitBasicBlock(&ci, "ptx.after");
  BasicBlock* region = BasicBlock::Create(c.ctx, "ptx.block", &f, tail);
  auto* enter = cast<BranchInst>(head->getTerminator());
  enter->setSuccessor(0, region);
  BranchInst* leave = BranchInst::Create(tail, region);
  leave->setDebugLoc(ci.getDebugLoc());
  IRBuilder<> b(leave);
  PtxOperands ops(ci, b);
  bool ok = ops.ok;
  if (ok) ops.start_block();
  for (const Statement& st : sts) {
    if (!ok) break;
    if (!statement(c, ci, st, ops)) {
      failed = st.text.rfind(".reg", 0) == 0 ? trim(st.text) : opcode(st);
      ok = false;
    }
  }
  if (!ok) {
    if (failed.empty()) failed = sts.empty() ? "{}" : opcode(sts[0]);
    enter->setSuccessor(0, tail);
    DeleteDeadBlocks(region_blocks(region, tail));
    return false;
  }
  if (Value* v = ops.result()) ci.replaceAllUsesWith(v);
  return true;
}

}  // namespace tgsim::pass
