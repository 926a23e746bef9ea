// One inline-PTX instruction of an asm statement, parsed, with its operands bound to the call's
// values (ptx_asm.cpp), the instructions computed from it (ptx_ops.cpp, ptx_scalar.cpp), and a
// braced block of several instructions with its own registers and guards (ptx_block.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>

namespace tgsim::pass {

struct Context;

struct PtxInstr {
  std::vector<std::string> op;    // the opcode split at '.': "lop3.b32" -> {"lop3", "b32"}
  std::vector<std::string> args;  // the operands without blanks; "{$0,$1}" and "[$2+8]" are one each
  bool has(const char* q) const;  // op holds the qualifier q
};

// The asm call's operands as PTX names them: $0..$(outputs-1) the results, then the inputs; an
// output read ("+r") is its tied input. The instruction sets the results (set()).
struct PtxOperands {
  PtxOperands(llvm::CallInst& ci, llvm::IRBuilder<>& b);
  bool ok = true;  // false for indirect ("=m") outputs: not modelled
  unsigned outputs = 0;
  // A block's `.reg` registers by name, each holding its latest value (zero when declared).
  std::map<std::string, llvm::Value*> locals;
  bool writable(const std::string& tok) const;  // an output $N or a local register
  void start_block();                            // every output starts as its tied input or zero
  llvm::Value* get(const std::string& tok, llvm::Type* want, bool is_signed = false);  // $N or an immediate
  bool set(const std::string& tok, llvm::Value* v, bool is_signed = false);           // $N < outputs
  llvm::Value* result();  // the call's replacement (nullptr for a call without results)
  llvm::CallInst& ci;
  llvm::IRBuilder<>& b;
  std::vector<llvm::Value*> results;
  std::map<unsigned, llvm::Value*> tied;
};

// v converted to type t: integers widened (zero or sign) or narrowed, same-size types bitcast,
// pointers to and from integers.
llvm::Value* ptx_fit(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* t, bool is_signed);

// Computes instruction `in` into `ops`; false when it is not modelled (ptx_ops.cpp).
bool ptx_compute(Context& c, const PtxInstr& in, PtxOperands& ops);

// "{$0,$1}" or "$0" -> the operand names (ptx_ops.cpp).
std::vector<std::string> ptx_registers(const std::string& tok);

// mov, setp, selp, integer and float arithmetic, logic, shifts, cvt and cvta (ptx_scalar.cpp):
// `known` is false for an opcode that is none of them.
bool ptx_scalar(llvm::IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops, bool& known);

// One instruction "op.q1.q2 a, {b, c}, [d+8]" without guard into `in` (ptx_asm.cpp).
bool ptx_parse(const std::string& text, PtxInstr& in);

// The value of special register `reg` (without '%'), or nullptr when it is not modelled.
llvm::Value* ptx_special(Context& c, llvm::IRBuilder<>& b, const llvm::Instruction& at, const std::string& reg);

// The PTX text of an asm statement as written: LLVM's "$(" "$)" "$|" "$$" back to "{" "}" "|" "$".
std::string ptx_unescape(const std::string& s);

// Whether the asm text is a block: braces, a guard, or several instructions (ptx_block.cpp).
bool ptx_is_block(const std::string& text);

// Replaces asm call `ci`, a block, by what its instructions compute in order; false, with
// `failed` naming the first instruction not modelled, when one is not (nothing is then left of
// the attempt).
bool ptx_lower_block(Context& c, llvm::CallInst& ci, std::string& failed);

}  // namespace tgsim::pass
