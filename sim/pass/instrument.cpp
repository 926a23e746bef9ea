// The per-access instrumentation: before each load (after each store) of device code, the
// inline append of record.hpp written in IR, with the lane's cursor and the site's tag held in
// registers for the whole call (fast_path.cpp):
//   if (cur != end) *cur++ = tag + address;
//   else { lane.cur = cur; __tgsim_access(thread, site, kind, address, width);  (the slow path)
//          cur = lane.cur; end = lane.end; }
// and for a store with the checker on, __tgsim_note_store(thread, address, width) after it.
// Consecutive loads of a block with no call between them (a run) check once that the log has
// room for all their records and write them before the first load (see emit_run).
// The record is tag + address, which is tag | address (record.hpp) as every address that an
// access survives is a user-space one, below 2^47 (any other faults and ends the process,
// guard.hpp): an add lets x86 fold the record into one lea with the address computation, one
// instruction fewer per record than the or (matmul_tiled16's k loop: 16 -> 15 instructions for
// its two loads; the bench's engine row 3% faster, ABAB).
// A constant load always takes __tgsim_access (the library places it).
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
  return a.merged_from ? c.site(*a.merged_from, a.at) : c.site(*a.at);
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


// One record for `bytes` (1, 2, 4, 8 or 16) at `addr` (i64), placed before `at`.
void emit_record(Context& c, Entry& e, Instruction* at, Constant* site, unsigned kind,
                 Value* addr, std::uint64_t bytes, bool note_store) {
  IRBuilder<> b(at);
  b.SetCurrentDebugLocation(at->getDebugLoc());
  auto slow_call = [&](IRBuilder<>& s) {
    call_synced(c, e, s.CreateCall(c.fn_access, {e.thread, ConstantExpr::getPointerCast(site, c.i8p),
                                                 ConstantInt::get(c.i32, kind), addr,
                                                 ConstantInt::get(c.i32, bytes)}));
  };
  if (kind == TGSIM_KIND_CONSTANT_LOAD) {
    slow_call(b);
    return;
  }
  const Entry::Slot& sl = slot_of(c, e, site, record_bits(kind, bytes));
  Type* i64p = c.i64->getPointerTo();
  Value* cur = b.CreateAlignedLoad(i64p, e.cur, Align(8), "tgsim.cur");
  Value* end = b.CreateAlignedLoad(i64p, e.end, Align(8), "tgsim.end");
  Instruction *fast = nullptr, *slow = nullptr;
  MDNode* likely = MDBuilder(c.ctx).createBranchWeights(2000, 1);
  SplitBlockAndInsertIfThenElse(b.CreateICmpNE(cur, end), at, &fast, &slow, likely);
  IRBuilder<> f(fast);
  f.SetCurrentDebugLocation(at->getDebugLoc());
  Value* tag = f.CreateAlignedLoad(c.i64, sl.tag, Align(8), "tgsim.tag");
  f.CreateAlignedStore(f.CreateAdd(tag, addr), cur, Align(8));  // tag + address: see the top
  f.CreateAlignedStore(f.CreateConstInBoundsGEP1_64(c.i64, cur, 1), e.cur, Align(8));
  if (note_store) {
    Instruction* note = SplitBlockAndInsertIfThen(e.checking, fast, false, MDBuilder(c.ctx).createBranchWeights(1, 2000));
    IRBuilder<> n(note);
    n.SetCurrentDebugLocation(at->getDebugLoc());
    n.CreateCall(c.fn_note_store, {e.thread, addr, ConstantInt::get(c.i32, bytes)});
  }
  IRBuilder<> s(slow);
  s.SetCurrentDebugLocation(at->getDebugLoc());
  slow_call(s);
}

// The access's naturally aligned pieces, each recorded; stores after the store itself (the
// checker reads the stored bytes from memory then).
void instrument_access(Context& c, const Access& a) {
  Function& fn = *a.at->getFunction();
  Entry& e = c.entry(fn);
  Constant* site = site_of(c, a);
  const bool constant = !a.store && is_constant_memory(c, a.ptr);
  const unsigned kind = constant ? TGSIM_KIND_CONSTANT_LOAD : a.store ? TGSIM_KIND_STORE : TGSIM_KIND_LOAD;
  Instruction* where = a.store ? a.at->getNextNode() : a.at;
  IRBuilder<> b(a.at);
  Value* base = b.CreatePtrToInt(a.ptr, c.i64);
  std::uint64_t align = a.align ? (a.align & (~a.align + 1)) : 1;  // lowest set bit
  for (std::uint64_t off = 0; off < a.bytes;) {
    std::uint64_t piece = 16;
    while (piece > 1 && (piece > a.bytes - off || piece > align || (off % piece) != 0)) piece /= 2;
    // Each record splits the block at `where`: the next piece's address goes right before it.
    Value* addr = off ? IRBuilder<>(where).CreateAdd(base, ConstantInt::get(c.i64, off)) : base;
    emit_record(c, e, where, site, kind, addr, piece, a.store && !constant);
    off += piece;
  }
}

// Runs of loads: consecutive loads of kernel memory in one block, each one record (one naturally
// aligned piece), with no call between them, share one capacity check: their records are all
// written before the first load, in program order (the log holds the same records in the same
// order; a load's record carries no value, so writing it a few instructions early changes
// nothing the library counts or checks; a slow path that lets other threads run does so before
// the run's loads rather than between two of them, an order the GPU may take as well). A load
// whose address is computed after the first load joins the run when that computation is free
// of memory and side effects: it moves up before the first.
bool one_record_load(const Context& c, const Access& a) {
  const std::uint64_t align = a.align ? (a.align & (~a.align + 1)) : 1;
  return isa<LoadInst>(a.at) && !is_constant_memory(c, a.ptr) && a.bytes <= 16 &&
         (a.bytes & (a.bytes - 1)) == 0 && align >= a.bytes;
}

// The instructions of `v`'s computation that lie in `at`'s block after `at`, operands first,
// when all of them can move before `at`; false when one cannot.
bool movable_chain(Value* v, Instruction* at, std::vector<Instruction*>& out) {
  auto* i = dyn_cast<Instruction>(v);
  if (!i || i->getParent() != at->getParent() || i->comesBefore(at) ||
      std::find(out.begin(), out.end(), i) != out.end())
    return true;
  if (i == at || isa<PHINode>(i) || i->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(i)) return false;
  for (Value* op : i->operands())
    if (!movable_chain(op, at, out)) return false;
  out.push_back(i);
  return true;
}

bool call_between(Instruction* from, Instruction* to) {
  for (Instruction* i = from->getNextNode(); i && i != to; i = i->getNextNode())
    if (isa<CallBase>(i) && !isa<DbgInfoIntrinsic>(i)) return true;
  return false;
}

// One past the last access of the run that starts at acc[i] (i + 1: no run). Moves the address
// computations of the run's later loads before its first.
std::size_t run_end(const Context& c, const std::vector<Access>& acc, std::size_t i) {
  if (!one_record_load(c, acc[i])) return i + 1;
  std::size_t k = i + 1;
  for (; k < acc.size(); ++k) {
    const Access& a = acc[k];
    std::vector<Instruction*> chain;
    if (!one_record_load(c, a) || a.at->getParent() != acc[i].at->getParent() ||
        call_between(acc[k - 1].at, a.at) || !movable_chain(a.ptr, acc[i].at, chain))
      break;
    for (Instruction* m : chain) m->moveBefore(acc[i].at);
  }
  return k;
}

// The records of loads acc[i, j) written before the first: one check that the log has room for
// all of them, else one record at a time (each with its own check and slow path).
void emit_run(Context& c, Entry& e, const std::vector<Access>& acc, std::size_t i, std::size_t j) {
  Instruction* at = acc[i].at;
  IRBuilder<> b(at);
  b.SetCurrentDebugLocation(at->getDebugLoc());
  std::vector<Value*> addr;
  for (std::size_t k = i; k < j; ++k) addr.push_back(b.CreatePtrToInt(acc[k].ptr, c.i64));
  Type* i64p = c.i64->getPointerTo();
  Value* cur = b.CreateAlignedLoad(i64p, e.cur, Align(8), "tgsim.cur");
  Value* end = b.CreateAlignedLoad(i64p, e.end, Align(8), "tgsim.end");
  const std::uint64_t m = j - i;
  Value* room = b.CreateICmpULE(b.CreateGEP(c.i64, cur, ConstantInt::get(c.i64, m)), end);
  Instruction *fast = nullptr, *slow = nullptr;
  SplitBlockAndInsertIfThenElse(room, at, &fast, &slow, MDBuilder(c.ctx).createBranchWeights(2000, 1));
  IRBuilder<> f(fast);
  f.SetCurrentDebugLocation(at->getDebugLoc());
  for (std::size_t k = i; k < j; ++k) {
    const Entry::Slot& sl = slot_of(c, e, site_of(c, acc[k]), record_bits(TGSIM_KIND_LOAD, acc[k].bytes));
    Value* tag = f.CreateAlignedLoad(c.i64, sl.tag, Align(8), "tgsim.tag");
    f.CreateAlignedStore(f.CreateAdd(tag, addr[k - i]), f.CreateConstInBoundsGEP1_64(c.i64, cur, k - i), Align(8));
  }
  f.CreateAlignedStore(f.CreateConstInBoundsGEP1_64(c.i64, cur, m), e.cur, Align(8));
  for (std::size_t k = i; k < j; ++k) {
    slow->setDebugLoc(acc[k].at->getDebugLoc());
    emit_record(c, e, slow, site_of(c, acc[k]), TGSIM_KIND_LOAD, addr[k - i], acc[k].bytes, false);
  }
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

void instrument_function(Context& c, Function& f) {
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
  std::vector<std::size_t> runs;  // where each run (or single access) ends
  for (std::size_t i = 0; i < accesses.size(); i = runs.back()) runs.push_back(run_end(c, accesses, i));
  for (std::size_t i = 0, r = 0; i < accesses.size(); i = runs[r++]) {
    if (runs[r] - i >= 2) emit_run(c, e, accesses, i, runs[r]);
    else instrument_access(c, accesses[i]);
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
