// Shared memory and the module's global variables as device code sees them.
// Every `thread_local` variable device code uses is shared memory: CUDA's __shared__ and
// Metal's threadgroup expand to thread_local (CUDA has no thread-local storage of its own, and a
// thread_local is never promoted to a register across the barrier's call). Each gets an offset
// in the group's arena, in module order; `extern` ones (extern __shared__ T s[], declarations)
// start at the dynamic offset after the static ones, sized at launch. Uses in device code become
// `arena + offset`. Each kernel's variables are packed from offset 0 in declaration order, each at
// the alignment nvcc gives it (gpu_alignment: a float array after a float lies at 4, as ptxas puts
// it, not at x86's 16 for arrays; tests/nvcc_fidelity/widening, scalar_then_array); the
// extern arrays start after the launched kernel's own (its dynamic offset, aligned to 16), read
// from the thread at run time since a device function may be reached by kernels of different layouts.
#include "internal.hpp"
#include "pass.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

bool uses_global(Value* v, GlobalVariable* gv) {
  if (v == gv) return true;
  if (auto* ce = dyn_cast<ConstantExpr>(v))
    for (Value* op : ce->operands())
      if (uses_global(op, gv)) return true;
  return false;
}

// Globals a function's instructions name, directly or inside constant expressions.
void globals_in(Value* v, std::set<GlobalVariable*>& out) {
  if (auto* gv = dyn_cast<GlobalVariable>(v)) {
    out.insert(gv);
  } else if (auto* ce = dyn_cast<ConstantExpr>(v)) {
    for (Value* op : ce->operands()) globals_in(op, out);
  }
}
std::set<GlobalVariable*> globals_of(Function& f) {
  std::set<GlobalVariable*> out;
  for (Instruction& i : instructions(f))
    for (Value* op : i.operands()) globals_in(op, out);
  return out;
}

// `c` with the shared variables replaced by their arena addresses, as instructions before `at`.
Value* materialise(Context& c, Constant* k, Instruction* at, Entry& e,
                   const std::map<GlobalVariable*, const SharedVar*>& vars) {
  if (auto* gv = dyn_cast<GlobalVariable>(k)) {
    auto it = vars.find(gv);
    if (it == vars.end()) return k;
    IRBuilder<> b(at);
    Value* base = it->second->dynamic ? c.dynamic_base(e) : e.shared;
    Value* p = b.CreateConstInBoundsGEP1_64(c.i8, base, it->second->offset, gv->getName());
    return b.CreateBitCast(p, gv->getType());
  }
  auto* ce = dyn_cast<ConstantExpr>(k);
  if (!ce) return k;
  bool any = false;
  for (auto& [gv, sv] : vars) any = any || uses_global(ce, gv);
  if (!any) return k;
  Instruction* ni = ce->getAsInstruction();
  ni->insertBefore(at);
  for (unsigned i = 0; i < ni->getNumOperands(); ++i)
    if (auto* op = dyn_cast<Constant>(ni->getOperand(i)))
      ni->setOperand(i, materialise(c, op, ni, e, vars));
  return ni;
}

// The functions device code reaches from kernel `k` (itself included).
std::set<Function*> reach_of(Context& c, Function* k) {
  std::set<Function*> reach{k};
  std::vector<Function*> todo{k};
  while (!todo.empty()) {
    Function* f = todo.back();
    todo.pop_back();
    for (Instruction& i : instructions(*f))
      if (auto* cb = dyn_cast<CallBase>(&i))
        if (Function* g = cb->getCalledFunction(); g && c.device.count(g) && reach.insert(g).second)
          todo.push_back(g);
  }
  return reach;
}

}  // namespace

// Three steps that share the maps they build (the variables each device function uses, each
// kernel's layout, the rewrite of their uses), kept together so the layout is computed once.
void lower_shared(Context& c) {
  std::set<GlobalVariable*> used;
  std::map<Function*, std::set<GlobalVariable*>> by_function;
  for (Function* f : c.device) {
    by_function[f] = globals_of(*f);
    for (GlobalVariable* gv : by_function[f])
      if (gv->isThreadLocal()) used.insert(gv);
  }
  // Per kernel, its static variables in module order: each kernel's layout starts at 0 (one
  // kernel runs per launch); a variable two kernels reach keeps the offset the first gave it.
  std::map<GlobalVariable*, SharedVar> placed;
  std::uint64_t most = 0;
  for (Function* k : c.kernels) {
    std::set<GlobalVariable*> mine, reached;
    for (Function* f : reach_of(c, k))
      for (GlobalVariable* gv : by_function[f])
        if (used.count(gv)) (gv->isDeclaration() ? reached : mine).insert(gv);
    reached.insert(mine.begin(), mine.end());
    for (GlobalVariable& gv : c.m.globals())
      if (reached.count(&gv)) c.kernel_vars[k].push_back(&gv);
    std::uint64_t end = 0;
    for (GlobalVariable* gv : mine)
      if (placed.count(gv)) end = std::max(end, placed[gv].offset + placed[gv].bytes);
    for (GlobalVariable& gv : c.m.globals()) {
      if (!mine.count(&gv) || placed.count(&gv)) continue;
      SharedVar v{&gv};
      v.bytes = c.dl.getTypeAllocSize(gv.getValueType());
      std::uint64_t align = std::max<std::uint64_t>(gpu_alignment(c.dl, gv), 4);  // as ptxas places them
      v.offset = (end + align - 1) / align * align;
      end = v.offset + v.bytes;
      placed[&gv] = v;
    }
    c.kernel_shared[k] = end;
    c.kernel_dynamic[k] = (end + 15) / 16 * 16;
    most = std::max(most, end);
  }
  for (GlobalVariable& gv : c.m.globals())
    if (placed.count(&gv)) c.shared.push_back(placed[&gv]);
  c.static_shared = most;
  c.dynamic_offset = (most + 15) / 16 * 16;  // the largest kernel's (the module descriptor's)
  for (GlobalVariable& gv : c.m.globals())
    if (used.count(&gv) && gv.isDeclaration()) {
      SharedVar v{&gv};
      v.offset = 0;  // from the launched kernel's dynamic offset
      v.dynamic = true;
      c.shared.push_back(v);
    }
  std::map<GlobalVariable*, const SharedVar*> vars;
  for (const SharedVar& v : c.shared) vars[v.gv] = &v;
  for (Function* f : c.device) {
    std::vector<std::pair<Instruction*, unsigned>> uses;
    bool any = false;
    for (GlobalVariable* gv : by_function[f]) any = any || vars.count(gv);
    if (!any) continue;
    for (Instruction& i : instructions(*f)) {
      // TLS initialisation hooks of extern thread_locals (_ZTH...): nothing to initialise.
      if (auto* cb = dyn_cast<CallBase>(&i))
        if (Function* g = cb->getCalledFunction(); g && g->getName().startswith("_ZTH")) continue;
      for (unsigned k = 0; k < i.getNumOperands(); ++k)
        if (auto* op = dyn_cast<Constant>(i.getOperand(k)))
          for (auto& [gv, sv] : vars)
            if (uses_global(op, gv)) {
              uses.emplace_back(&i, k);
              break;
            }
    }
    Entry& e = c.entry(*f);
    for (auto [i, k] : uses) {
      Instruction* at = i;
      if (auto* phi = dyn_cast<PHINode>(i)) at = phi->getIncomingBlock(k)->getTerminator();
      i->setOperand(k, materialise(c, cast<Constant>(i->getOperand(k)), at, e, vars));
    }
  }
  // Drop the TLS initialisation calls in device code.
  for (Function* f : c.device) {
    std::vector<Instruction*> dead;
    for (Instruction& i : instructions(*f))
      if (auto* cb = dyn_cast<CallBase>(&i))
        if (Function* g = cb->getCalledFunction(); g && g->getName().startswith("_ZTH") && cb->use_empty())
          dead.push_back(&i);
    for (Instruction* i : dead) i->eraseFromParent();
  }
}

// `extern __shared__ T s[]` is an extern thread_local array: C++ lets another translation unit
// initialise it dynamically, so Clang checks a weak hook (_ZTH<name>) at every use. A shared
// array has no initialiser in CUDA or Metal: the hook is null, which folds the checks away.
PreservedAnalyses NoExternSharedHooks::run(Module& m, ModuleAnalysisManager&) {
  bool changed = false;
  for (GlobalVariable& gv : m.globals()) {
    if (!gv.isThreadLocal() || !gv.isDeclaration() || !gv.getValueType()->isArrayTy()) continue;
    const std::string name = gv.getName().str();
    const std::string hook = name.rfind("_Z", 0) == 0 ? "_ZTH" + name.substr(2)
                                                      : "_ZTH" + std::to_string(name.size()) + name;
    Function* f = m.getFunction(hook);
    if (!f || !f->isDeclaration()) continue;
    f->replaceAllUsesWith(ConstantPointerNull::get(f->getType()));
    f->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

// __device__ variables (global memory) and __constant__ ones that device code names, and every
// __managed__ variable (host code may hand a kernel its address: `k<<<...>>>(&flag)`).
void find_global_vars(Context& c) {
  std::set<GlobalVariable*> used;
  for (Function* f : c.device)
    for (GlobalVariable* gv : globals_of(*f)) used.insert(gv);
  for (const GlobalValue* gv : c.annotated_managed)
    if (auto* v = dyn_cast<GlobalVariable>(const_cast<GlobalValue*>(gv))) used.insert(v);
  for (GlobalVariable& gv : c.m.globals()) {
    if (!used.count(&gv) || gv.isThreadLocal() || gv.isDeclaration()) continue;
    if (gv.getName().startswith("llvm.") || gv.getName().startswith("tgsim.") ||
        gv.getName().startswith("_ZN5tgsim") || gv.getName().startswith("__tgsim"))
      continue;
    if (c.annotated_constant.count(&gv))
      c.constant_vars.push_back(&gv);
    else if (!gv.isConstant())
      c.device_vars.push_back(&gv);
  }
}

}  // namespace tgsim::pass
