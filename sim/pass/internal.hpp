// Shared state of the Instrument pass over one module (pass.hpp): the device functions, the
// shared-memory layout, the site globals and the thread values each function loads at entry.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace tgsim::pass {

struct SharedVar {
  llvm::GlobalVariable* gv;
  std::uint64_t offset = 0;  // in the group's arena
  std::uint64_t bytes = 0;
  bool dynamic = false;      // extern __shared__ T s[]: starts at the dynamic offset
};

// Values a device function reads once at its entry (the running thread does not change while
// a function runs: a fiber stays on its worker and `current` is restored on every resume).
struct Entry {
  llvm::Value* thread = nullptr;  // i8*: __tgsim_thread()
  llvm::Value* log = nullptr;     // i64**: the lane's log cursor {cur, end}
  llvm::Value* tags = nullptr;    // i64*: the worker's tag cache (key, tag pairs)
  llvm::Value* checking = nullptr;  // i1
  llvm::Value* shared = nullptr;  // i8*: the group's shared arena
  llvm::Instruction* last = nullptr;  // values computed at entry go after this one
  // Per (site, kind | width code): the tag-cache key and the slot's key and tag cells, computed
  // once at entry (constants of the loaded module: the slot is a hash of the site's address).
  struct Slot {
    llvm::Value *key, *key_cell, *tag_cell;
  };
  std::map<std::pair<llvm::Constant*, std::uint64_t>, Slot> slots;
};

struct Context {
  explicit Context(llvm::Module& m);
  llvm::Module& m;
  llvm::LLVMContext& ctx;
  const llvm::DataLayout& dl;
  llvm::Type* i8;
  llvm::Type* i32;
  llvm::Type* i64;
  llvm::PointerType* i8p;

  std::vector<llvm::Function*> kernels;
  std::set<llvm::Function*> device;  // kernels and every function they reach (clones included)
  std::set<const llvm::GlobalValue*> annotated_device, annotated_constant;
  std::vector<SharedVar> shared;
  std::uint64_t static_shared = 0, dynamic_offset = 0;
  std::map<llvm::Function*, std::uint64_t> kernel_shared;  // static bytes each kernel reaches
  std::map<llvm::Function*, std::vector<llvm::GlobalVariable*>> kernel_vars;  // shared ones it reaches
  std::vector<llvm::GlobalVariable*> device_vars, constant_vars;

  // Per device function, its entry values (made on first use).
  std::map<llvm::Function*, Entry> entries;
  Entry& entry(llvm::Function& f);

  // One site global per (file, line, column, function): layout of tgsim_site (abi.h).
  llvm::Constant* site(const llvm::Instruction& at);
  std::map<std::tuple<std::string, unsigned, unsigned, std::string>, llvm::GlobalVariable*> sites;
  llvm::StructType* site_type = nullptr;
  llvm::Constant* string(const std::string& s);
  std::map<std::string, llvm::Constant*> strings;

  llvm::FunctionCallee fn_thread, fn_access, fn_note_store;

  // Alias scopes of the inline append (instrument.cpp): the log's records, the lane's cursor
  // {cur, end} and the tag cache are disjoint memory, so that the optimisation run after the
  // pass keeps the cursor in a register from one access to the next. [i]: the list naming
  // scope i (!alias.scope), and the list naming the other two (!noalias). Made on first use.
  llvm::MDNode* scope_of[3] = {nullptr, nullptr, nullptr};
  llvm::MDNode* noalias_of[3] = {nullptr, nullptr, nullptr};
};

// device_code.cpp
void find_device_code(Context& c);
// shared.cpp
void lower_shared(Context& c);
void find_global_vars(Context& c);
// instrument.cpp
void instrument_function(Context& c, llvm::Function& f);
// module_desc.cpp
void emit_module_descriptor(Context& c);

// The file, line and column a source site names: the innermost location outside tgsim's
// own headers (so a load inlined from a user helper keeps the helper's line, and a runtime
// call made by a header's inline function gets the user's line that called it).
struct SourcePos {
  std::string file, function;
  unsigned line = 0, column = 0;
};
SourcePos source_pos(const llvm::Instruction& at);

}  // namespace tgsim::pass
