// Which functions are device code: the kernels (annotate("tgsim_kernel"), what __global__ and
// Metal's `kernel` expand to) and every function they reach through direct calls, except
// tgsim's own runtime. A reached function that host code also calls is cloned, so the host
// keeps an uninstrumented copy and kernels call the instrumented one.
#include "internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

bool is_runtime(const Function& f) {
  StringRef n = f.getName();
  return n.startswith("__tgsim_") || n.startswith("_ZN5tgsim") || n.startswith("llvm.");
}

// The kernels, __device__ and __constant__ variables and Metal host names the front end annotated.
void read_annotations(Context& c, std::vector<Function*>& kernels) {
  for (auto [gv, a] : annotations(c.m)) {
    if (a == "tgsim_kernel") {
      if (auto* f = dyn_cast<Function>(gv); f && !f->isDeclaration()) kernels.push_back(f);
    } else if (a == "tgsim_device") {
      c.annotated_device.insert(gv);
    } else if (a == "tgsim_constant") {
      c.annotated_constant.insert(gv);
    } else if (a == "tgsim_managed") {
      c.annotated_managed.insert(gv);
    } else if (a.startswith("tgsim_host_name:")) {  // a Metal [[host_name]]: the global points at the kernel
      auto* v = dyn_cast<GlobalVariable>(gv);
      if (v && v->hasInitializer())
        if (auto* f = dyn_cast<Function>(v->getInitializer()->stripPointerCasts()))
          c.host_names[f].push_back(a.drop_front(16).str());
    }
  }
}

// A use that only llvm.global.annotations makes (the annotate attribute of __device__ keeps a
// function alive after it was inlined everywhere): not a use by host code.
bool annotation_only(Value* u) {
  if (auto* gv = dyn_cast<GlobalVariable>(u)) return gv->getName() == "llvm.global.annotations";
  if (!isa<Constant>(u) || isa<GlobalValue>(u) || u->use_empty()) return false;
  for (User* v : u->users())
    if (!annotation_only(v)) return false;
  return true;
}

std::vector<Function*> callees(Function& f) {
  std::vector<Function*> out;
  for (Instruction& i : instructions(f))
    if (auto* cb = dyn_cast<CallBase>(&i))
      if (Function* g = cb->getCalledFunction())
        if (!g->isDeclaration() && !is_runtime(*g)) out.push_back(g);
  return out;
}

}  // namespace

// llvm.global.annotations: {i8* value, i8* annotation, i8* file, i32 line, i8* args}.
std::vector<std::pair<GlobalValue*, StringRef>> annotations(const Module& m) {
  std::vector<std::pair<GlobalValue*, StringRef>> out;
  const GlobalVariable* ga = m.getGlobalVariable("llvm.global.annotations");
  if (!ga || !ga->hasInitializer()) return out;
  auto* arr = dyn_cast<ConstantArray>(ga->getInitializer());
  if (!arr) return out;
  for (Value* op : arr->operands()) {
    auto* cs = dyn_cast<ConstantStruct>(op);
    if (!cs || cs->getNumOperands() < 2) continue;
    auto* gv = dyn_cast<GlobalValue>(cs->getOperand(0)->stripPointerCasts());
    auto* str = dyn_cast<GlobalVariable>(cs->getOperand(1)->stripPointerCasts());
    if (!gv || !str || !str->hasInitializer()) continue;
    auto* data = dyn_cast<ConstantDataArray>(str->getInitializer());
    if (data && data->isCString()) out.emplace_back(gv, data->getAsCString());
  }
  return out;
}

void find_device_code(Context& c) {
  read_annotations(c, c.kernels);
  std::sort(c.kernels.begin(), c.kernels.end(),
            [](Function* a, Function* b) { return a->getName() < b->getName(); });
  c.kernels.erase(std::unique(c.kernels.begin(), c.kernels.end()), c.kernels.end());
  // Reachable functions, in a stable order.
  std::vector<Function*> order(c.kernels.begin(), c.kernels.end());
  std::set<Function*> seen(order.begin(), order.end());
  // __device__ functions that survive only through their annotation (inlined into every caller,
  // e.g. cuda-samples' SharedMemory<double>::operator double*()) are device code too: their
  // __shared__ uses must be lowered, or the object names an undefined thread_local.
  for (const GlobalValue* gv : c.annotated_device)
    if (auto* f = dyn_cast<Function>(const_cast<GlobalValue*>(gv)); f && !f->isDeclaration() && !is_runtime(*f)) {
      bool annotated_only = true;
      for (User* u : f->users()) annotated_only = annotated_only && annotation_only(u);
      if (annotated_only && seen.insert(f).second) order.push_back(f);
    }
  for (std::size_t i = 0; i < order.size(); ++i)
    for (Function* g : callees(*order[i]))
      if (seen.insert(g).second) order.push_back(g);
  std::set<Function*> kernels(c.kernels.begin(), c.kernels.end());
  // Clone the reached functions that something other than device code uses.
  // A function is host-used when something outside device code uses it, or a host-used
  // function calls it (its host copy must call host copies).
  std::set<Function*> host_used;
  for (bool grew = true; grew;) {
    grew = false;
    for (Function* f : order) {
      if (kernels.count(f) || host_used.count(f)) continue;
      for (User* u : f->users()) {
        if (annotation_only(u)) continue;
        auto* cb = dyn_cast<CallBase>(u);
        if (!cb || cb->getCalledFunction() != f || !seen.count(cb->getFunction()) ||
            host_used.count(cb->getFunction())) {
          host_used.insert(f);
          grew = true;
          break;
        }
      }
    }
  }
  std::map<Function*, Function*> clone_of;
  for (Function* f : order) {
    if (!host_used.count(f)) continue;
    ValueToValueMapTy vmap;
    Function* g = CloneFunction(f, vmap);
    g->setName(f->getName() + ".tgsim");
    g->setLinkage(GlobalValue::InternalLinkage);
    g->setComdat(nullptr);
    clone_of[f] = g;
  }
  for (Function* f : order) {
    Function* dev = clone_of.count(f) ? clone_of[f] : f;
    c.device.insert(dev);
  }
  // Device code calls the clones.
  for (Function* f : c.device)
    for (Instruction& i : instructions(*f))
      if (auto* cb = dyn_cast<CallBase>(&i))
        if (Function* g = cb->getCalledFunction(); g && clone_of.count(g))
          cb->setCalledFunction(clone_of[g]);
}

}  // namespace tgsim::pass
