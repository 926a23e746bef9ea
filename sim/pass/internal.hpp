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

namespace llvm {
class AAResults;
class TargetTransformInfo;
class DIType;
}

namespace tgsim::pass {

struct SharedVar {
  llvm::GlobalVariable* gv;
  std::uint64_t offset = 0;  // in the group's arena
  std::uint64_t bytes = 0;
  bool dynamic = false;      // extern __shared__ T s[]: at the launched kernel's dynamic offset
};

// Values a device function reads once at its entry (the running thread does not change while
// a function runs: a fiber stays on its worker and `current` is restored on every resume).
struct Entry {
  llvm::Value* thread = nullptr;  // i8*: __tgsim_thread()
  llvm::Value* log = nullptr;     // i64**: the lane's log cursor {cur, end}
  llvm::Value* tags = nullptr;    // i64*: the worker's tag cache (key, tag pairs)
  llvm::Value* checking = nullptr;  // i1
  llvm::Value* shared = nullptr;  // i8*: the group's shared arena
  llvm::Value* dynamic = nullptr;  // i8*: the arena + the launched kernel's dynamic offset (lazily)
  llvm::Instruction* last = nullptr;  // values computed at entry go after this one
  // The lane's cursor held in the function (fast_path.cpp): stack slots that SROA turns into
  // registers after the pass; null in a function that records nothing.
  llvm::AllocaInst *cur = nullptr, *end = nullptr;
  // Per (site, kind | width code): the tag-cache key, the slot's key and tag cells, and the
  // stack slot holding the site's tag for the whole call (resolved at entry, fast_path.cpp).
  struct Slot {
    llvm::Value *key, *key_cell, *tag_cell;
    llvm::AllocaInst* tag;
    llvm::Constant* key_constant;  // key, as a constant (the table of a function with many sites)
  };
  std::map<std::pair<llvm::Constant*, std::uint64_t>, Slot> slots;
  std::vector<const Slot*> slot_order;  // in creation order (the resolve call's key order)
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
  std::map<llvm::Function*, std::vector<std::string>> host_names;  // Metal [[host_name]]s of a kernel
  std::set<llvm::Function*> device;  // kernels and every function they reach (clones included)
  std::set<const llvm::GlobalValue*> annotated_device, annotated_constant;
  std::set<const llvm::GlobalValue*> annotated_managed;  // __managed__ variables: device memory for host code too
  std::vector<SharedVar> shared;
  std::uint64_t static_shared = 0, dynamic_offset = 0;
  std::map<llvm::Function*, std::uint64_t> kernel_shared;  // static bytes each kernel reaches
  std::map<llvm::Function*, std::uint64_t> kernel_dynamic;  // where its extern __shared__ starts
  std::map<llvm::Function*, std::vector<llvm::GlobalVariable*>> kernel_vars;  // shared ones it reaches
  std::vector<llvm::GlobalVariable*> device_vars, constant_vars;
  // The module defines __tgsim_count_source (tgsim run --count source): one record per source
  // access, none of ptxas's merging (vectorize.cpp).
  bool count_source = false;

  // Per device function, its entry values (made on first use).
  std::map<llvm::Function*, Entry> entries;
  Entry& entry(llvm::Function& f);
  llvm::Value* dynamic_base(Entry& e);  // e.dynamic, loaded at entry on first use

  // One site global per (file, line, column, function, inlined copy's call sites): layout of
  // tgsim_site (abi.h). `stores`: the store whose value operand decides
  // TGSIM_SITE_CONSTANT_VALUE (default: `at` itself; a merged access: the merged store).
  // An unrolled copy of a loop's body (unroll.cpp, metadata kUnrollCopy) is a site of its own.
  // `gap`: Access::gap of a merged load (a site of its own, TGSIM_SITE_GAP_MASK).
  llvm::Constant* site(const llvm::Instruction& at, const llvm::Instruction* stores = nullptr, unsigned gap = 0);
  std::map<std::tuple<std::string, unsigned, unsigned, unsigned, std::string, unsigned, std::string, unsigned>,
           llvm::GlobalVariable*> sites;
  // Per site global: whether a store recorded there stores a constant, and whether one stores
  // anything else (TGSIM_SITE_CONSTANT_VALUE only for the first without the second).
  std::map<llvm::GlobalVariable*, std::pair<bool, bool>> site_values;
  llvm::StructType* site_type = nullptr;
  llvm::Constant* string(const std::string& s);
  std::map<std::string, llvm::Constant*> strings;

  llvm::FunctionCallee fn_thread, fn_access, fn_note_store, fn_reserve, fn_resolve_tags, fn_load_tags;
};

// One load, store or intrinsic of kernel memory that instrument.cpp records.
struct Access {
  llvm::Instruction* at;      // the load, store or intrinsic
  llvm::Value* ptr;
  std::uint64_t bytes;
  std::uint64_t align;
  bool store;
  // An access ptxas merges of several (vectorize.cpp): the first of them in program order,
  // whose line the record names; null for one access.
  llvm::Instruction* merged_from = nullptr;
  // A merged load of three of four 4-byte elements: 1 + the element not read (0: none).
  unsigned gap = 0;
};

// device_code.cpp
void find_device_code(Context& c);
// The (value, string) pairs of the module's annotate attributes (tgsim_kernel, tgsim_device ...).
std::vector<std::pair<llvm::GlobalValue*, llvm::StringRef>> annotations(const llvm::Module& m);
// shared.cpp
void lower_shared(Context& c);
void find_global_vars(Context& c);
// instrument.cpp
void instrument_function(Context& c, llvm::Function& f, llvm::AAResults& aa);
// store_notes.cpp: the checker's __tgsim_note_store calls of a region's stores, grouped.
struct NoteFlush {
  llvm::Instruction* before;  // the group's calls go right before this instruction
  std::size_t upto;           // for the stores of acc[previous group's upto, upto)
};
struct StoreNote {
  std::size_t access;  // its index in acc
  llvm::Value* addr;   // i64
  std::uint64_t bytes;
};
std::vector<NoteFlush> plan_store_notes(llvm::AAResults& aa, const std::vector<Access>& acc, std::size_t i,
                                        std::size_t j);
void emit_store_notes(Context& c, Entry& e, const std::vector<NoteFlush>& flushes, const std::vector<StoreNote>& notes);
// unroll.cpp: loops nvcc unrolls with their remainder first, each copy's instructions marked.
void unroll_like_nvcc(Context& c, llvm::Function& f, const llvm::TargetTransformInfo& tti);
inline constexpr const char* kUnrollCopy = "tgsim.unroll.copy";
// vectorize.cpp: adjacent accesses of one thread that ptxas merges into one wider instruction.
void merge_adjacent(Context& c, llvm::Function& f, std::vector<Access>& acc);
// The alignment nvcc gives a variable: its type's, or the one the program asked for.
std::uint64_t gpu_alignment(const llvm::DataLayout& dl, const llvm::GlobalVariable& gv);
// merge_arm_stores.cpp: the two arms' stores to one address as one store after them, as nvcc.
void merge_arm_stores(llvm::Function& f);
// widen_indices.cpp: sext(X +nsw C) as sext(X) +nsw C before the records split the blocks.
void widen_indices(llvm::Function& f);
// fast_path.cpp: the lane's cursor and the sites' tags held in registers during a call.
void forget_memory_attributes(Context& c);
void make_cursor(Context& c, Entry& e);
const Entry::Slot& slot_of(Context& c, Entry& e, llvm::Constant* site, std::uint64_t bits);
void call_synced(Context& c, Entry& e, llvm::CallBase* call);
// Whether a call can reach the library (and so read or move the lane's log).
bool may_reach_library(const llvm::CallBase& cb);
void finish_fast_path(Context& c, llvm::Function& f, Entry& e, const std::vector<llvm::CallBase*>& calls);
// module_desc.cpp
void emit_module_descriptor(Context& c);
// A struct's fields as tgsim_param_desc::fields words them (struct_fields.cpp); "" for a type
// that is no struct or class.
std::string struct_fields(const llvm::DIType* t);
// atomic_aggregation.cpp: a __tgsim_atomic call nvcc would turn into one lane's atomic.
void mark_warp_aggregated_atomic(const Context& c, llvm::CallBase& call);
// ptx_asm.cpp: inline PTX of device code as what it computes, else a run-time finding.
void lower_ptx_asm(Context& c);
// faults.cpp: integer division guards, assert/abort/trap calls, the loop budget.
void guard_faults(Context& c);
bool is_constant_memory(const Context& c, llvm::Value* ptr);
// local_bounds.cpp: accesses of a thread's local arrays at offsets not known to lie inside them.
void guard_local_bounds(Context& c);

// The file, line and column a source site names: the innermost location outside tgsim's
// own headers (so a load inlined from a user helper keeps the helper's line, and a runtime
// call made by a header's inline function gets the user's line that called it).
// An access the optimiser made of two source accesses (lines.cpp) names both: `also` is the
// second line (0 when none).
struct SourcePos {
  std::string file, function;
  unsigned line = 0, column = 0, also = 0;
  // The call sites (line:column, innermost first) of the inlined copy the access is in: nvcc
  // inlines a helper at each call, so each copy's access is an instruction of its own (issue 36
  // cause 4); the site's position stays the helper's line.
  std::string calls;
};
// lines.cpp
SourcePos source_pos(const llvm::Instruction& at);
void forget_lines(const llvm::Module& m);

}  // namespace tgsim::pass
