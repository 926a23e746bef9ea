// The source line of an access whose debug location the optimiser merged or dropped.
// Clang's passes give an instruction made of two (a store sunk from both arms of an if, a load
// hoisted above them) the merged location, line 0 when the lines differ, and a load LICM hoists
// out of a loop no location at all. A site must name a real line, so:
//  - RememberLines (pipeline start, before any merge) notes the location of every access of
//    memory that is not the stack, per subprogram;
//  - an access at line 0, or one that picks one of two (a load of a select of two addresses,
//    a store of a select of two values: MergedLoadStoreMotion keeps one arm's location), also
//    names the remembered accesses of its kind inside its scope, in the same inlined copy, that
//    no access of the function still carries: the lines it was made of;
//  - failing that, the lines of what it is made from (a store's value, else its address) or,
//    for a load, of what uses it (a load hoisted out of a loop: the loop's line; a store of it:
//    that store's lines), through phis and selects to their arms; else the nearest line in its
//    block, else the function's own line.
// The lowest line names the site; a second line is its `also` (both shown by the report).
#include "internal.hpp"
#include "pass.hpp"

#include <algorithm>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

struct Remembered {
  const DILocation* loc;
  bool store;
};
// Per module (one Clang run compiles one), per subprogram: its source accesses.
std::map<const Module*, std::map<const DISubprogram*, std::vector<Remembered>>> remembered;

bool in_tgsim_header(const DILocation* l) {
  StringRef f = l->getFilename();
  return f.contains("/tgsim/kernel/") || f.startswith("tgsim/kernel/");
}

// A memory access and whether it writes; false for other instructions.
bool access_of(const Instruction& i, bool& store, const Value*& ptr) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) return store = false, ptr = ld->getPointerOperand(), true;
  if (auto* st = dyn_cast<StoreInst>(&i)) return store = true, ptr = st->getPointerOperand(), true;
  if (auto* mi = dyn_cast<MemIntrinsic>(&i)) return store = true, ptr = mi->getRawDest(), true;
  return false;
}

// The location outside tgsim's headers (a header's inline function names its caller's line).
const DILocation* user_loc(const DILocation* l) {
  while (l && in_tgsim_header(l) && l->getInlinedAt()) l = l->getInlinedAt();
  return l;
}

bool nested_in(const DIScope* s, const DIScope* outer) {
  for (; s; s = isa<DISubprogram>(s) ? nullptr : s->getScope())
    if (s == outer) return true;
  return false;
}

struct Line {
  const DILocation* loc;
  bool operator<(const Line& o) const {
    return std::make_pair(loc->getLine(), loc->getColumn()) < std::make_pair(o.loc->getLine(), o.loc->getColumn());
  }
};

void add(std::vector<Line>& out, const DILocation* l) {
  l = user_loc(l);
  if (l && l->getLine() != 0) out.push_back({l});
}

// The (line, column, scope) of the function's accesses of one kind in one inlined copy (made
// once per function: the records the pass adds carry the locations of accesses already there).
using Carried = std::set<std::tuple<unsigned, unsigned, const DIScope*>>;
std::map<std::tuple<const Function*, bool, const DILocation*>, Carried> carried_cache;

const Carried& carried(const Function& f, bool store, const DILocation* inlined_at) {
  auto [it, made] = carried_cache.try_emplace({&f, store, inlined_at});
  if (!made) return it->second;
  for (const Instruction& i : instructions(f)) {
    bool s = false;
    const Value* p = nullptr;
    const DILocation* l = i.getDebugLoc().get();
    if (l && access_of(i, s, p) && s == store && l->getInlinedAt() == inlined_at)
      it->second.emplace(l->getLine(), l->getColumn(), l->getScope());
  }
  return it->second;
}

// The remembered accesses that the merged location `m` of `at` stands for: of at's kind, in m's
// scope, and carried by no access of the function in m's inlined copy.
std::vector<Line> merged_lines(const Instruction& at, const DILocation* m) {
  bool store = false;
  const Value* ptr = nullptr;
  std::vector<Line> out;
  const DISubprogram* sp = m->getScope()->getSubprogram();
  auto mod = remembered.find(at.getModule());
  if (!sp || !access_of(at, store, ptr) || mod == remembered.end()) return out;
  auto it = mod->second.find(sp);
  if (it == mod->second.end()) return out;
  const Carried& there = carried(*at.getFunction(), store, m->getInlinedAt());
  for (const Remembered& r : it->second)
    if (r.store == store && nested_in(r.loc->getScope(), m->getScope()) &&
        !there.count({r.loc->getLine(), r.loc->getColumn(), r.loc->getScope()}))
      out.push_back({r.loc});
  return out;
}

// A phi or select only passes one of two values on: its own line (a select's is its
// condition's) says less than those of its arms.
bool passes_on(const Instruction& i) { return isa<PHINode>(i) || isa<SelectInst>(i); }

bool has_line(const DILocation* l) { return l && l->getLine() != 0; }

// The lines of the instructions `v` is computed from, through those without a line.
void operand_lines(const Value* v, std::vector<Line>& out, int depth) {
  auto* i = dyn_cast_or_null<Instruction>(v);
  if (!i || depth > 4) return;
  if (const DILocation* l = user_loc(i->getDebugLoc().get()); has_line(l) && !passes_on(*i)) {
    out.push_back({l});
    return;
  }
  for (const Value* op : i->operands()) operand_lines(op, out, depth + 1);
}

std::vector<Line> merged_or_related(const Instruction& at, int depth);

// The lines of the instructions that use `v`, through those without a line (a store of it
// without a line: the lines that store stands for).
void user_lines(const Value* v, std::vector<Line>& out, int depth) {
  for (const User* u : v->users()) {
    auto* i = dyn_cast<Instruction>(u);
    if (!i || isa<DbgInfoIntrinsic>(i) || depth > 4) continue;
    const DILocation* l = user_loc(i->getDebugLoc().get());
    if (has_line(l) && !passes_on(*i)) out.push_back({l});
    else if (isa<StoreInst>(i)) {
      std::vector<Line> more = merged_or_related(*i, depth + 1);
      out.insert(out.end(), more.begin(), more.end());
    } else user_lines(i, out, depth + 1);
  }
}

// The lines of what `at` is made from (a store's value, else its address) or, for a load, of
// what uses it (a load hoisted out of a loop: the loop's line), else of its address.
std::vector<Line> related_lines(const Instruction& at, int depth) {
  std::vector<Line> out;
  if (auto* st = dyn_cast<StoreInst>(&at)) {
    operand_lines(st->getValueOperand(), out, depth);
    if (out.empty()) operand_lines(st->getPointerOperand(), out, depth);
  } else {
    user_lines(&at, out, depth);
    if (out.empty())
      if (const Value* p = getLoadStorePointerOperand(&at)) operand_lines(p, out, depth);
  }
  return out;
}

// Whether `at` chooses between two things: a load of a select or phi of two addresses (`c ? a[i]
// : b[i]`), a store of a select or phi of two values (`if (c) a[i] = x; else a[i] = y;` sunk).
bool picks_one_of_two(const Instruction& at) {
  const Value* v = nullptr;
  if (auto* ld = dyn_cast<LoadInst>(&at)) v = getUnderlyingObject(ld->getPointerOperand(), 0);
  if (auto* st = dyn_cast<StoreInst>(&at)) v = st->getValueOperand();
  if (auto* phi = dyn_cast_or_null<PHINode>(v)) return phi->getNumIncomingValues() == 2;  // not LCSSA's
  return v && isa<SelectInst>(v);
}

// The lines `at` stands for: its own, and those of the accesses merged into it; for one the
// optimiser left without a line, those of what it is made from or what uses it.
std::vector<Line> merged_or_related(const Instruction& at, int depth) {
  const DILocation* l = user_loc(at.getDebugLoc().get());
  if (has_line(l) && !picks_one_of_two(at)) return {{l}};
  std::vector<Line> lines;
  if (l) lines = merged_lines(at, l);
  if (has_line(l)) lines.push_back({l});  // a sunk store keeps one arm's location: name the other too
  if (lines.empty()) lines = related_lines(at, depth);
  return lines;
}

// The nearest line before `at` in its block, else after it.
std::vector<Line> nearest_line(const Instruction& at) {
  std::vector<Line> out;
  for (const Instruction* i = at.getPrevNode(); i && out.empty(); i = i->getPrevNode()) add(out, i->getDebugLoc().get());
  for (const Instruction* i = at.getNextNode(); i && out.empty(); i = i->getNextNode()) add(out, i->getDebugLoc().get());
  return out;
}

void fill(SourcePos& p, const DILocation* l) {
  StringRef file = l->getFilename(), dir = l->getDirectory();
  p.file = (file.startswith("/") || dir.empty()) ? file.str() : (dir + "/" + file).str();
  p.line = l->getLine();
  p.column = l->getColumn();
  if (const DISubprogram* sp = l->getScope()->getSubprogram()) p.function = sp->getName().str();
}

}  // namespace

PreservedAnalyses RememberLines::run(Module& m, ModuleAnalysisManager&) {
  auto& mine = remembered[&m];
  for (Function& f : m)
    for (Instruction& i : instructions(f)) {
      bool store = false;
      const Value* ptr = nullptr;
      const DILocation* l = i.getDebugLoc().get();
      if (!l || l->getLine() == 0 || in_tgsim_header(l) || !access_of(i, store, ptr)) continue;
      if (isa<AllocaInst>(getUnderlyingObject(ptr, 0))) continue;  // the thread's stack
      if (const DISubprogram* sp = l->getScope()->getSubprogram()) mine[sp].push_back({l, store});
    }
  return PreservedAnalyses::all();
}

void forget_lines(const Module& m) {
  remembered.erase(&m);
  carried_cache.clear();
}

namespace {

// The call sites outside tgsim's headers that the copy of `l`'s code was inlined at.
std::string call_chain(const DILocation* l) {
  std::string out;
  l = user_loc(l);
  for (const DILocation* c = l ? l->getInlinedAt() : nullptr; c; c = c->getInlinedAt())
    if (!in_tgsim_header(c)) out += std::to_string(c->getLine()) + ":" + std::to_string(c->getColumn()) + ";";
  return out;
}

}  // namespace

SourcePos source_pos(const Instruction& at) {
  SourcePos p;
  p.calls = call_chain(at.getDebugLoc().get());
  std::vector<Line> lines = merged_or_related(at, 0);
  if (lines.empty()) lines = nearest_line(at);
  if (lines.empty()) {
    const DISubprogram* sp = at.getFunction()->getSubprogram();
    if (!sp) {
      p.file = "<no debug info>";
      p.function = at.getFunction()->getName().str();
      return p;
    }
    StringRef file = sp->getFilename(), dir = sp->getDirectory();
    p.file = (file.startswith("/") || dir.empty()) ? file.str() : (dir + "/" + file).str();
    p.function = sp->getName().str();
    p.line = sp->getLine();
    return p;
  }
  std::sort(lines.begin(), lines.end());
  fill(p, lines.front().loc);
  for (const Line& o : lines)
    if (o.loc->getLine() != p.line && o.loc->getFilename() == lines.front().loc->getFilename()) {
      p.also = o.loc->getLine();
      break;
    }
  return p;
}

}  // namespace tgsim::pass
