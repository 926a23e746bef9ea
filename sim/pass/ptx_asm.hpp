// One inline-PTX instruction of an asm statement, parsed, with its operands bound to the call's
// values (ptx_asm.cpp), and the instructions computed from it (ptx_ops.cpp).
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

}  // namespace tgsim::pass
