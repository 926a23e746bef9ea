// The per-call state of the inline append (instrument.cpp), held in registers while a device
// function runs:
//  - The lane's cursor {cur, end}: loaded from the lane's LaneBuf at entry into two stack
//    slots that SROA (run after the pass, plugin.cpp) turns into registers. Around every call
//    that may reach the library (device functions, every __tgsim_* runtime call including the
//    slow path __tgsim_access, printf; all calls but intrinsics, inline asm, memory-free
//    functions and __tgsim_note_store, which only keeps the stored bytes) `cur` is written back
//    before and cur and end are reloaded after: a barrier lets the library empty the log, the
//    slow path grows (moves) it. Each return and resume writes `cur` back (the caller
//    reloads), each landing pad reloads (every invoke wrote back before it).
//  - The tag of each (site, kind, width) the function records: every key is checked against
//    its slot of the worker's tag cache once at entry; if any slot holds another key,
//    __tgsim_resolve_tags finds all of them (and fills the cache). A tag stays valid for the
//    whole call: the worker's tags of a launch are only ever added (never reassigned, the map
//    never cleared while the launch runs), and a fiber runs on its group's worker from start to
//    end, so a tag read at entry still names its key after a barrier even when another key has
//    taken its cache slot meanwhile.
// The per-access fast path is then: cur != end, store tag + address (equal to tag | address:
// instrument.cpp), cur += 8.
#include "internal.hpp"

#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include <tgsim/hash.hpp>

using namespace llvm;

namespace tgsim::pass {

namespace {

AllocaInst* entry_alloca(Function& f, Type* ty, const char* name) {
  BasicBlock& entry = f.getEntryBlock();
  IRBuilder<> a(&entry, entry.begin());
  return a.CreateAlloca(ty, nullptr, name);
}

Function& function_of(const Entry& e) { return *cast<Instruction>(e.thread)->getFunction(); }

// cur and end from the lane's LaneBuf into the function's slots; returns the last instruction.
Instruction* reload(Context& c, Entry& e, IRBuilder<>& b) {
  Type* i64p = c.i64->getPointerTo();
  Value* cur = b.CreateAlignedLoad(i64p, e.log, Align(8), "tgsim.cur");
  Value* end = b.CreateAlignedLoad(i64p, b.CreateConstInBoundsGEP1_64(i64p, e.log, 1), Align(8), "tgsim.end");
  b.CreateAlignedStore(cur, e.cur, Align(8));
  return b.CreateAlignedStore(end, e.end, Align(8));
}

void write_back(Context& c, Entry& e, IRBuilder<>& b) {
  b.CreateAlignedStore(b.CreateAlignedLoad(c.i64->getPointerTo(), e.cur, Align(8)), e.log, Align(8));
}

}  // namespace

bool may_reach_library(const CallBase& cb) {
  if (isa<InvokeInst>(cb)) return true;  // its landing pad reloads: every invoke writes back
  if (isa<IntrinsicInst>(cb) || cb.isInlineAsm() || cb.doesNotAccessMemory()) return false;
  const Function* g = cb.getCalledFunction();
  return !(g && g->getName() == "__tgsim_note_store");
}

namespace {

// A function with more records' tags than this reads each tag from a stack array where its
// record is written (load_tags_by_call), instead of holding it in a register from entry on:
// n tags live from entry to their last use make the live ranges, and SROA's and the register
// allocator's work on them, grow as n times the function's length, quadratic in kernel length
// (issue 40: a 1,000-statement kernel). Up to 64 tags stay in registers (or their spill
// slots): a hot loop's few keep their registers.
constexpr std::size_t kTagsInRegisters = 64;

// A function with more tags than kTagsInRegisters: its keys in a constant table, its tags in one
// stack array that __tgsim_load_tags fills at entry, each record reading its tag from there
// (a volatile load, so that nothing after the pass keeps n tags live in registers). The code
// at entry stays the same size however many sites the function has: inline checks of n keys
// made one block of 4n loads and stores, and the backend's scheduler is quadratic in a
// block's memory operations (issue 40).
void load_tags_by_call(Context& c, Function& f, Entry& e) {
  const unsigned n = static_cast<unsigned>(e.slot_order.size());
  ArrayType* aty = ArrayType::get(c.i64, n);
  std::vector<Constant*> keys;
  for (const Entry::Slot* s : e.slot_order) keys.push_back(s->key_constant);
  auto* table = new GlobalVariable(c.m, aty, true, GlobalValue::PrivateLinkage, ConstantArray::get(aty, keys),
                                   "tgsim.keys");
  AllocaInst* tags = entry_alloca(f, aty, "tgsim.tags.array");
  IRBuilder<> b(e.last->getNextNode());
  e.last = b.CreateCall(c.fn_load_tags, {e.thread, b.CreateConstInBoundsGEP2_64(aty, table, 0, 0),
                                         b.CreateConstInBoundsGEP2_64(aty, tags, 0, 0), ConstantInt::get(c.i32, n)});
  for (unsigned i = 0; i < n; ++i) {
    AllocaInst* slot = e.slot_order[i]->tag;
    for (User* u : make_early_inc_range(slot->users())) {
      auto* ld = cast<LoadInst>(u);  // records only read their slot
      IRBuilder<> at(ld);
      ld->setOperand(0, at.CreateConstInBoundsGEP2_64(aty, tags, 0, i));
      ld->setVolatile(true);
    }
    slot->eraseFromParent();
  }
  // The per-slot key and cell arithmetic after the entry values, now unused.
  SmallVector<WeakTrackingVH, 64> dead;
  for (const Entry::Slot* s : e.slot_order)
    for (Value* v : {s->tag_cell, s->key_cell, s->key}) dead.push_back(v);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
}

}  // namespace

void make_cursor(Context& c, Entry& e) {
  if (e.cur) return;
  Type* i64p = c.i64->getPointerTo();
  e.cur = entry_alloca(function_of(e), i64p, "tgsim.cur.slot");
  e.end = entry_alloca(function_of(e), i64p, "tgsim.end.slot");
  IRBuilder<> b(e.last->getNextNode());
  e.last = reload(c, e, b);
}

// The key and cache cells of (site, bits) in this function, computed once after its entry
// values, and the stack slot holding its tag (read once at entry, finish_fast_path).
const Entry::Slot& slot_of(Context& c, Entry& e, Constant* site, std::uint64_t bits) {
  auto [it, fresh] = e.slots.try_emplace({site, bits});
  if (!fresh) return it->second;
  Instruction* p2i = CastInst::Create(Instruction::PtrToInt, site, c.i64, "tgsim.site");
  p2i->insertAfter(e.last);
  IRBuilder<> b(p2i->getNextNode());
  Value* key = b.CreateOr(p2i, ConstantInt::get(c.i64, bits), "tgsim.key");
  Value* idx = b.CreateShl(b.CreateLShr(b.CreateMul(key, ConstantInt::get(c.i64, tgsim::detail::kGoldenGamma)), 56), 1);
  Value* kc = b.CreateInBoundsGEP(c.i64, e.tags, idx, "tgsim.keycell");
  Value* tc = b.CreateInBoundsGEP(c.i64, e.tags, b.CreateOr(idx, 1), "tgsim.tagcell");
  e.last = cast<Instruction>(tc);
  // site | bits as site + bits (the site is 16-byte aligned, the bits lie outside its address):
  // a relocatable constant for the table of a function with many sites.
  Constant* kconst = ConstantExpr::getAdd(ConstantExpr::getPtrToInt(site, c.i64), ConstantInt::get(c.i64, bits));
  it->second = Entry::Slot{key, kc, tc, entry_alloca(function_of(e), c.i64, "tgsim.tag.slot"), kconst};
  e.slot_order.push_back(&it->second);
  return it->second;
}

// `call` with the cursor written back before it and reloaded after it (on both edges of an
// invoke; the normal edge is split when its block has other predecessors).
void call_synced(Context& c, Entry& e, CallBase* call) {
  IRBuilder<> b(call);
  write_back(c, e, b);
  if (auto* ii = dyn_cast<InvokeInst>(call)) {
    BasicBlock* normal = ii->getNormalDest();
    if (!normal->getSinglePredecessor()) normal = SplitEdge(ii->getParent(), normal);
    IRBuilder<> n(&*normal->getFirstInsertionPt());
    reload(c, e, n);
    IRBuilder<> u(&*ii->getUnwindDest()->getFirstInsertionPt());
    reload(c, e, u);
    return;
  }
  IRBuilder<> n(call->getNextNode());
  reload(c, e, n);
}

// Device functions append to the log and may call the library (which moves and frees it),
// whatever the optimiser inferred about them before the pass: the attributes saying otherwise
// go, from the functions and from the calls to them, so that nothing after the pass moves a
// load of the lane's cursor across such a call.
void forget_memory_attributes(Context& c) {
  const Attribute::AttrKind kinds[] = {Attribute::ReadNone, Attribute::ReadOnly, Attribute::WriteOnly,
                                       Attribute::ArgMemOnly, Attribute::InaccessibleMemOnly,
                                       Attribute::InaccessibleMemOrArgMemOnly, Attribute::Speculatable,
                                       Attribute::NoFree, Attribute::NoSync};
  for (Function* f : c.device) {
    for (Attribute::AttrKind k : kinds) f->removeFnAttr(k);
    for (User* u : f->users())
      if (auto* cb = dyn_cast<CallBase>(u); cb && cb->getCalledFunction() == f)
        for (Attribute::AttrKind k : kinds) cb->removeFnAttr(k);
  }
}

// After the function's records are emitted: its calls synced, its returns writing back, and the
// tags checked at entry (resolved by the library on a miss).
void finish_fast_path(Context& c, Function& f, Entry& e, const std::vector<CallBase*>& calls) {
  if (!e.cur) return;
  for (CallBase* cb : calls)
    if (may_reach_library(*cb)) call_synced(c, e, cb);
  for (BasicBlock& bb : f)
    if (Instruction* t = bb.getTerminator(); isa<ReturnInst>(t) || isa<ResumeInst>(t)) {
      IRBuilder<> b(t);
      write_back(c, e, b);
    }
  if (e.slot_order.empty()) return;
  if (e.slot_order.size() > kTagsInRegisters) {
    load_tags_by_call(c, f, e);
    return;
  }
  Instruction* at = e.last->getNextNode();
  IRBuilder<> b(at);
  Value* all = nullptr;
  for (const Entry::Slot* s : e.slot_order) {
    Value* hit = b.CreateICmpEQ(b.CreateAlignedLoad(c.i64, s->key_cell, Align(8)), s->key);
    b.CreateAlignedStore(b.CreateAlignedLoad(c.i64, s->tag_cell, Align(8)), s->tag, Align(8));
    all = all ? b.CreateAnd(all, hit) : hit;
  }
  Instruction* miss = SplitBlockAndInsertIfThen(b.CreateNot(all), at, false,
                                                MDBuilder(c.ctx).createBranchWeights(1, 2000));
  const unsigned n = static_cast<unsigned>(e.slot_order.size());
  AllocaInst* keys = entry_alloca(f, ArrayType::get(c.i64, n), "tgsim.keys");
  IRBuilder<> m(miss);
  auto cell = [&](unsigned i) { return m.CreateConstInBoundsGEP2_64(keys->getAllocatedType(), keys, 0, i); };
  for (unsigned i = 0; i < n; ++i) m.CreateAlignedStore(e.slot_order[i]->key, cell(i), Align(8));
  m.CreateCall(c.fn_resolve_tags, {e.thread, cell(0), ConstantInt::get(c.i32, n)});
  for (unsigned i = 0; i < n; ++i)
    m.CreateAlignedStore(m.CreateAlignedLoad(c.i64, cell(i), Align(8)), e.slot_order[i]->tag, Align(8));
}

}  // namespace tgsim::pass
