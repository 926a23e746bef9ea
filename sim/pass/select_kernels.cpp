// Which kernels a compile keeps (pass.hpp, SelectKernels): the first pass of the pipeline, so
// that a command that names one kernel of a file that instantiates thousands (MLX's
// binary.metal: 4,000 host names) optimises and instruments that one alone.
//
// The front end's compile driver says which through the environment of the compiler it runs
// (compile.cpp), TGSIM_SELECT_KERNELS:
//  - unset or empty: every kernel (a whole program built by tgsim-nvcc, tgsim_add_cuda_library);
//  - "listing": every kernel keeps its signature (parameters, their names from the debug info,
//    host names) and loses its body; the rest of the file's code goes with the bodies. What
//    `--kernel` without a name and the error listing show, for the cost of the front end;
//  - "symbol:NAME": the kernel whose symbol is NAME (the listing's `mangled`) and what it
//    reaches. Every other kernel, with the host-name globals and annotations that keep it
//    alive, becomes internal and GlobalDCE removes it and every template instance only it used.
#include "internal.hpp"
#include "pass.hpp"

#include <cstdlib>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

// The kernels (annotate "tgsim_kernel") defined in the module.
std::set<Function*> defined_kernels(Module& m) {
  std::set<Function*> out;
  for (auto [gv, a] : annotations(m))
    if (auto* f = dyn_cast<Function>(gv); f && a == "tgsim_kernel" && !f->isDeclaration()) out.insert(f);
  return out;
}

// A global whose initializer points at one of `gone` (a Metal host name): goes with it.
bool points_into(const GlobalValue* gv, const std::set<GlobalValue*>& gone) {
  const auto* v = dyn_cast<GlobalVariable>(gv);
  if (!v || !v->hasInitializer()) return false;
  const auto* target = dyn_cast<GlobalValue>(v->getInitializer()->stripPointerCasts());
  return target && gone.count(const_cast<GlobalValue*>(target));
}

// The array global `name` (llvm.used, llvm.global.annotations ...) without the elements whose
// first global (the element, or its struct's first field) is in `gone`.
void drop_elements(Module& m, StringRef name, const std::set<GlobalValue*>& gone) {
  GlobalVariable* ga = m.getGlobalVariable(name);
  if (!ga || !ga->hasInitializer()) return;
  auto* arr = dyn_cast<ConstantArray>(ga->getInitializer());
  if (!arr) return;
  std::vector<Constant*> kept;
  for (Value* op : arr->operands()) {
    Value* first = op;
    if (auto* cs = dyn_cast<ConstantStruct>(op); cs && cs->getNumOperands() > 0) first = cs->getOperand(0);
    auto* gv = dyn_cast<GlobalValue>(first->stripPointerCasts());
    if (!gv || !gone.count(gv)) kept.push_back(cast<Constant>(op));
  }
  if (kept.size() == arr->getNumOperands()) return;
  ArrayType* at = ArrayType::get(arr->getType()->getElementType(), kept.size());
  auto* repl = new GlobalVariable(m, at, ga->isConstant(), ga->getLinkage(), ConstantArray::get(at, kept), "",
                                  ga, ga->getThreadLocalMode());
  repl->setSection(ga->getSection());
  repl->takeName(ga);
  ga->replaceAllUsesWith(ConstantExpr::getPointerCast(repl, ga->getType()));
  ga->eraseFromParent();
  if (kept.empty()) repl->eraseFromParent();
}

// `gone` and the globals that point at them (host names), out of the annotations and the used
// lists, internal: GlobalDCE removes what nothing else uses.
void let_go(Module& m, std::set<GlobalValue*> gone) {
  for (GlobalVariable& v : m.globals())
    if (points_into(&v, gone)) gone.insert(&v);
  for (const char* list : {"llvm.global.annotations", "llvm.used", "llvm.compiler.used"}) drop_elements(m, list, gone);
  for (GlobalValue* gv : gone) {
    if (gv->isDeclaration()) continue;
    gv->setLinkage(GlobalValue::InternalLinkage);
    gv->setVisibility(GlobalValue::DefaultVisibility);
    if (auto* go = dyn_cast<GlobalObject>(gv)) go->setComdat(nullptr);
  }
}

// The instructions of the kernel's entry that keep its signature readable: its parameters'
// stack slots, their debug variables (the parameter names), and the parameters' stores into
// them (a struct's coerced pieces stored through casts go: the names stay with the slot).
bool keeps_signature(const Instruction& i) {
  if (isa<AllocaInst>(i) || isa<DbgInfoIntrinsic>(i)) return true;
  if (const auto* st = dyn_cast<StoreInst>(&i))
    return isa<Argument>(st->getValueOperand()) && isa<AllocaInst>(st->getPointerOperand());
  return false;
}

// The kernel's body replaced by a return: a listing's kernel, never run.
void keep_signature_only(Function& f) {
  std::vector<Instruction*> kept;
  for (Instruction& i : f.getEntryBlock())
    if (keeps_signature(i)) kept.push_back(&i);
  BasicBlock* old_entry = &f.getEntryBlock();
  BasicBlock* entry = BasicBlock::Create(f.getContext(), "tgsim.listing", &f, old_entry);
  Instruction* ret = f.getReturnType()->isVoidTy() ? ReturnInst::Create(f.getContext(), entry)
                                                   : ReturnInst::Create(f.getContext(), UndefValue::get(f.getReturnType()), entry);
  for (Instruction* i : kept) i->moveBefore(ret);
  std::vector<BasicBlock*> rest;
  for (BasicBlock& bb : f)
    if (&bb != entry) rest.push_back(&bb);
  for (BasicBlock* bb : rest) bb->dropAllReferences();
  for (BasicBlock* bb : rest) bb->eraseFromParent();
  // Not optimised: its parameters, unused, would lose the debug variables that name them.
  f.removeFnAttr(Attribute::AlwaysInline);
  f.addFnAttr(Attribute::NoInline);
  f.addFnAttr(Attribute::OptimizeNone);
}

}  // namespace

PreservedAnalyses SelectKernels::run(Module& m, ModuleAnalysisManager& am) {
  const char* env = std::getenv("TGSIM_SELECT_KERNELS");
  const StringRef select = env ? env : "";
  if (select.empty()) return PreservedAnalyses::all();
  const std::set<Function*> kernels = defined_kernels(m);
  std::set<GlobalValue*> gone;
  if (select == "listing") {
    for (Function* k : kernels) keep_signature_only(*k);
    // What only the bodies used goes with them; the rest of the file (host code) too.
    for (Function& f : m)
      if (!f.isDeclaration() && !kernels.count(&f) && !f.getName().startswith("llvm.")) gone.insert(&f);
  } else if (select.startswith("symbol:")) {
    const StringRef symbol = select.drop_front(7);
    for (Function* k : kernels)
      if (k->getName() != symbol) gone.insert(k);
  } else {
    report_fatal_error("tgsim: TGSIM_SELECT_KERNELS is '" + select + "' (listing, or symbol:NAME)");
  }
  let_go(m, gone);
  GlobalDCEPass().run(m, am);
  return PreservedAnalyses::none();
}

}  // namespace tgsim::pass
