// The per-access instrumentation: before each load (after each store) of device code, the
// inline append of record.hpp written in IR, with the lane's cursor and the site's tag held in
// registers for the whole call (fast_path.cpp). Consecutive accesses of a block with no call
// that may reach the library between them (a region) share one capacity check:
//   if (cur + m > end) { lane.cur = cur; __tgsim_reserve(thread, m);  (the slow path)
//                        cur = lane.cur; end = lane.end; }
// and then each of the region's m records is written at its access, unchecked: *cur++ = tag +
// address. A region holds at most kRegionRecords records (more make blocks whose records
// LLVM's backend handles in more than linear time). With the checker on, the region's stores
// call __tgsim_note_store(thread, address, width) in groups after them (store_notes.cpp).
// The record is tag + address, which is tag | address (record.hpp) as every address that an
// access survives is a user-space one, below 2^47 (any other faults and ends the process,
// guard.hpp): an add lets x86 fold the record into one lea with the address computation, one
// instruction fewer per record than the or (matmul_tiled16's k loop: 16 -> 15 instructions for
// its two loads; the bench's engine row 3% faster, ABAB).
// A constant load always takes the slow path __tgsim_access (the library places it).
// An access wider than its alignment or than 16 bytes is split into naturally aligned pieces
// of at most 16 bytes, as the GPU splits it; a constant-size memcpy or memset is its pieces.
// Runtime calls that take a site first (`__tgsim_barrier(0)`) get the call's site.
#include "internal.hpp"

#include <algorithm>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <tgsim/kernel/abi.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

std::uint64_t width_code(std::uint64_t w) {
  return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : w == 8 ? 3 : 4;
}

// The kind and width bits of a record's tag-cache key (abi.h, __tgsim_resolve_tags).
std::uint64_t record_bits(unsigned kind, std::uint64_t bytes) {
  return kind | (width_code(bytes) << TGSIM_KEY_WIDTH_SHIFT);
}

// The site an access's record names: a merged access's first source access.
Constant* site_of(Context& c, const Access& a) {
  return a.merged_from ? c.site(*a.merged_from, a.at, a.gap) : c.site(*a.at);
}

// Whether `ptr` can be memory the kernel shares: not the thread's own stack, not a read-only
// constant, not tgsim's thread state.
bool is_kernel_memory(const Context& c, Value* ptr) {
  const Value* u = getUnderlyingObject(ptr, 0);
  if (isa<AllocaInst>(u)) return false;
  if (auto* a = dyn_cast<Argument>(u); a && (a->hasByValAttr() || a->hasStructRetAttr())) return false;
  if (auto* gv = dyn_cast<GlobalVariable>(u); gv && gv->isConstant() && !c.annotated_constant.count(gv))
    return false;
  if (auto* cb = dyn_cast<CallBase>(u))
    if (Function* f = cb->getCalledFunction();
        f && f->getName().startswith("__tgsim_") && f->getName() != "__tgsim_device_malloc")
      return false;  // tgsim's own state; a device heap block is the kernel's memory
  return true;
}


// The naturally aligned pieces (offset, bytes) of an access, as the GPU splits it: at most 16
// bytes, no wider than the access's alignment.
std::vector<std::pair<std::uint64_t, std::uint64_t>> pieces_of(const Access& a) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  const std::uint64_t align = a.align ? (a.align & (~a.align + 1)) : 1;  // lowest set bit
  for (std::uint64_t off = 0; off < a.bytes;) {
    std::uint64_t piece = 16;
    while (piece > 1 && (piece > a.bytes - off || piece > align || (off % piece) != 0)) piece /= 2;
    out.emplace_back(off, piece);
    off += piece;
  }
  return out;
}

// A constant load's pieces, each through the slow path __tgsim_access (the library places
// constant memory).
void instrument_constant_load(Context& c, const Access& a) {
  Entry& e = c.entry(*a.at->getFunction());
  Constant* site = site_of(c, a);
  IRBuilder<> b(a.at);
  b.SetCurrentDebugLocation(a.at->getDebugLoc());
  Value* base = b.CreatePtrToInt(a.ptr, c.i64);
  for (auto [off, piece] : pieces_of(a)) {
    Value* addr = off ? b.CreateAdd(base, ConstantInt::get(c.i64, off)) : base;
    call_synced(c, e, b.CreateCall(c.fn_access, {e.thread, ConstantExpr::getPointerCast(site, c.i8p),
                                                 ConstantInt::get(c.i32, TGSIM_KIND_CONSTANT_LOAD), addr,
                                                 ConstantInt::get(c.i32, piece)}));
  }
}

// Regions: consecutive accesses of one block with no call that may reach the library between
// them (and no constant load, which always takes the slow path) share one capacity check at the
// region's start: "room for all the region's records, else __tgsim_reserve makes it", then each
// record is written where its access is, unchecked. A block of n statements is then one block
// with one cold call, not n blocks each with its own slow-path call: the backend's register
// allocator and scheduler grew faster than linearly with those (issue 40: compile time of long
// kernels). The log receives the same records in the same order.
bool library_call_between(Instruction* from, Instruction* to) {
  for (Instruction* i = from->getNextNode(); i && i != to; i = i->getNextNode())
    if (auto* cb = dyn_cast<CallBase>(i); cb && may_reach_library(*cb)) return true;
  return false;
}

// The most records of one region (one capacity check). A block of 8,000 statements made into
// one region of 16,000 records compiled for over 13 minutes (the backend's work on one block's
// memory operations grows faster than linearly); 64 keeps the check's cost per record small
// (one compare and branch per 64 records) and the blocks short.
constexpr std::size_t kRegionRecords = 64;

// One past the last access of the region that starts at acc[i].
std::size_t region_end(const Context& c, const std::vector<Access>& acc, std::size_t i) {
  auto constant = [&](const Access& a) { return !a.store && is_constant_memory(c, a.ptr); };
  if (constant(acc[i])) return i + 1;
  std::size_t k = i + 1, records = pieces_of(acc[i]).size();
  while (k < acc.size() && !constant(acc[k]) && acc[k].at->getParent() == acc[i].at->getParent() &&
         acc[k - 1].at != acc[k].at && !library_call_between(acc[k - 1].at, acc[k].at) &&
         records + pieces_of(acc[k]).size() <= kRegionRecords)
    records += pieces_of(acc[k++]).size();
  return k;
}

// One record written at `at` without a capacity check (its region made room).
void emit_unchecked(Context& c, Entry& e, Instruction* at, Constant* site, unsigned kind, Value* addr,
                    std::uint64_t bytes) {
  IRBuilder<> b(at);
  b.SetCurrentDebugLocation(at->getDebugLoc());
  const Entry::Slot& sl = slot_of(c, e, site, record_bits(kind, bytes));
  Type* i64p = c.i64->getPointerTo();
  Value* cur = b.CreateAlignedLoad(i64p, e.cur, Align(8), "tgsim.cur");
  Value* tag = b.CreateAlignedLoad(c.i64, sl.tag, Align(8), "tgsim.tag");
  b.CreateAlignedStore(b.CreateAdd(tag, addr), cur, Align(8));  // tag + address: see the top
  b.CreateAlignedStore(b.CreateConstInBoundsGEP1_64(c.i64, cur, 1), e.cur, Align(8));
}

// The records of acc[i, j): one check for all of them before the first access, then each
// record at its access (a store's after it), then the checker's calls for its stores in the
// groups `flushes` plans (store_notes.cpp).
void emit_region(Context& c, Entry& e, const std::vector<Access>& acc, std::size_t i, std::size_t j,
                 const std::vector<NoteFlush>& flushes) {
  std::uint64_t m = 0;
  for (std::size_t k = i; k < j; ++k) m += pieces_of(acc[k]).size();
  Instruction* first = acc[i].at;
  IRBuilder<> b(first);
  b.SetCurrentDebugLocation(first->getDebugLoc());
  Type* i64p = c.i64->getPointerTo();
  Value* cur = b.CreateAlignedLoad(i64p, e.cur, Align(8), "tgsim.cur");
  Value* end = b.CreateAlignedLoad(i64p, e.end, Align(8), "tgsim.end");
  Value* room = b.CreateICmpULE(b.CreateGEP(c.i64, cur, ConstantInt::get(c.i64, m)), end);
  Instruction* grow = SplitBlockAndInsertIfThen(b.CreateNot(room), first, false,
                                                MDBuilder(c.ctx).createBranchWeights(1, 2000));
  IRBuilder<> g(grow);
  g.SetCurrentDebugLocation(first->getDebugLoc());
  call_synced(c, e, g.CreateCall(c.fn_reserve, {e.thread, ConstantInt::get(c.i32, m)}));
  std::vector<StoreNote> notes;
  for (std::size_t k = i; k < j; ++k) {
    const Access& a = acc[k];
    Instruction* where = a.store ? a.at->getNextNode() : a.at;
    Value* base = IRBuilder<>(a.at).CreatePtrToInt(a.ptr, c.i64);
    const unsigned kind = a.store ? TGSIM_KIND_STORE : TGSIM_KIND_LOAD;
    for (auto [off, piece] : pieces_of(a)) {
      Value* addr = off ? IRBuilder<>(where).CreateAdd(base, ConstantInt::get(c.i64, off)) : base;
      emit_unchecked(c, e, where, site_of(c, a), kind, addr, piece);
      if (a.store) notes.push_back({k, addr, piece});
    }
  }
  emit_store_notes(c, e, flushes, notes);
}

// A pointer as base + variable index (scaled by `elem`) + constant byte offset, looking through
// one GEP whose indices after the first are constants (`&a[i].y`: base a, index i, offset 4).
struct PointerParts {
  Value* base = nullptr;
  Value* index = nullptr;
  Type* elem = nullptr;
  std::int64_t offset = 0;
};
PointerParts pointer_parts(const DataLayout& dl, Value* ptr) {
  PointerParts p;
  p.base = ptr->stripPointerCasts();
  auto* gep = dyn_cast<GEPOperator>(p.base);
  if (!gep || gep->getNumIndices() < 1) return p;
  std::vector<Value*> rest = {ConstantInt::get(Type::getInt64Ty(ptr->getContext()), 0)};
  for (auto it = gep->idx_begin() + 1; it != gep->idx_end(); ++it) {
    if (!isa<ConstantInt>(*it)) return p;
    rest.push_back(*it);
  }
  p.base = gep->getPointerOperand()->stripPointerCasts();
  p.index = *gep->idx_begin();
  p.elem = gep->getSourceElementType();
  p.offset = dl.getIndexedOffsetInType(p.elem, rest);
  return p;
}

// `float4 v = a[i]` reaching only v's fields: SROA splits the aggregate copy (KeepAggregatesWhole's
// i128 load, or the memcpy) into one load per field, all with the copy's source location and no
// scalar !tbaa (none, or the copy's !tbaa.struct), where nvcc keeps one LDG.128. Such loads of one
// block that together cover a naturally aligned 8 or 16 bytes (the lowest one aligned to the
// whole) are one access. Loads the source names (and unrolled copies of them) carry !tbaa and
// stay separate.
void merge_aggregate_loads(const Context& c, std::vector<Access>& acc) {
  std::vector<bool> gone(acc.size(), false);
  std::vector<PointerParts> parts(acc.size());
  std::vector<bool> split(acc.size(), false);
  for (std::size_t i = 0; i < acc.size(); ++i) {
    auto* li = dyn_cast<LoadInst>(acc[i].at);
    split[i] = li && !li->isVolatile() && !li->getMetadata(LLVMContext::MD_tbaa) && li->getDebugLoc() &&
               acc[i].bytes < 16;
    if (split[i]) parts[i] = pointer_parts(c.dl, acc[i].ptr);
  }
  for (std::size_t i = 0; i < acc.size(); ++i) {
    if (!split[i] || gone[i]) continue;
    for (std::uint64_t w : {16u, 8u}) {
      if (acc[i].align < w || acc[i].bytes >= w) continue;
      std::uint64_t covered = 0;  // bit b: byte offset b of the block
      std::vector<std::size_t> members;
      for (std::size_t j = 0; j < acc.size(); ++j) {
        if (!split[j] || gone[j] || acc[j].at->getParent() != acc[i].at->getParent() ||
            acc[j].at->getDebugLoc().get() != acc[i].at->getDebugLoc().get() || parts[j].base != parts[i].base ||
            parts[j].index != parts[i].index || parts[j].elem != parts[i].elem)
          continue;
        const std::int64_t off = parts[j].offset - parts[i].offset;
        if (off < 0 || off + std::int64_t(acc[j].bytes) > std::int64_t(w)) continue;
        covered |= ((std::uint64_t(1) << acc[j].bytes) - 1) << off;
        members.push_back(j);
      }
      if (covered != (std::uint64_t(1) << w) - 1) continue;
      for (std::size_t j : members) gone[j] = j != i;
      acc[i].bytes = w;
      break;
    }
  }
  std::vector<Access> kept;
  for (std::size_t i = 0; i < acc.size(); ++i)
    if (!gone[i]) kept.push_back(acc[i]);
  acc.swap(kept);
}

}  // namespace

void instrument_function(Context& c, Function& f, AAResults& aa) {
  std::vector<Access> accesses;
  std::vector<CallBase*> site_calls;
  std::vector<CallInst*> printf_calls;
  std::vector<CallBase*> calls;  // made before the records (the slow-path calls sync themselves)
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
      calls.push_back(cb);
      Function* g = cb->getCalledFunction();
      if (g && g->getName().startswith("__tgsim_") && cb->arg_size() > 0 &&
          isa<ConstantPointerNull>(cb->getArgOperand(0)))
        site_calls.push_back(cb);
      else if (g && g->getName() == "printf" && isa<CallInst>(cb))
        printf_calls.push_back(cast<CallInst>(cb));
    }
  }
  for (CallBase* cb : site_calls) {
    cb->setArgOperand(0, ConstantExpr::getPointerCast(c.site(*cb), cb->getArgOperand(0)->getType()));
    if (cb->getCalledFunction()->getName() == "__tgsim_atomic") mark_warp_aggregated_atomic(c, *cb);
  }
  // A kernel's printf goes to the launch, which prints it in (group, thread) order.
  for (CallInst* call : printf_calls) {
    FunctionCallee p = c.m.getOrInsertFunction("__tgsim_printf", FunctionType::get(c.i32, {c.i8p, c.i8p}, true));
    std::vector<Value*> args = {ConstantExpr::getPointerCast(c.site(*call), c.i8p)};
    for (Value* a : call->args()) args.push_back(a);
    IRBuilder<> b(call);
    CallInst* n = b.CreateCall(p, args);
    n->setDebugLoc(call->getDebugLoc());
    call->replaceAllUsesWith(n);
    std::replace(calls.begin(), calls.end(), static_cast<CallBase*>(call), static_cast<CallBase*>(n));
    call->eraseFromParent();
  }
  merge_aggregate_loads(c, accesses);
  merge_adjacent(c, f, accesses);
  if (accesses.empty()) return;
  widen_indices(f);
  Entry& e = c.entry(f);
  make_cursor(c, e);
  std::vector<std::size_t> starts = {0};  // where each region (or single access) starts; then the end
  while (starts.back() < accesses.size()) starts.push_back(region_end(c, accesses, starts.back()));
  // The checker's groups are planned before any block is split (the alias analysis's dominator
  // tree is of the function as it was).
  std::vector<std::vector<NoteFlush>> flushes(starts.size() - 1);
  for (std::size_t r = 0; r + 1 < starts.size(); ++r)
    flushes[r] = plan_store_notes(aa, accesses, starts[r], starts[r + 1]);
  // In order: a region's last calls go right before the next region's first access, and the
  // next region's check must come after them (it is inserted there later).
  for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
    const Access& a = accesses[starts[r]];
    if (!a.store && is_constant_memory(c, a.ptr)) instrument_constant_load(c, a);
    else emit_region(c, e, accesses, starts[r], starts[r + 1], flushes[r]);
  }
  finish_fast_path(c, f, e, calls);
}

// Whether `ptr` points into a __constant__ variable (its underlying object).
bool is_constant_memory(const Context& c, Value* ptr) {
  const Value* u = getUnderlyingObject(ptr, 0);
  auto* gv = dyn_cast<GlobalVariable>(u);
  return gv && c.annotated_constant.count(gv);
}

}  // namespace tgsim::pass
