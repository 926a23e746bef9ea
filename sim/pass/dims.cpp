// Bounds per dimension of shared arrays (CheckDimensions, pipeline start): `s[0][tid + 8]` of
// `__shared__ float s[32][33]` stays inside the array's allocation, so the runtime's check of
// the whole extent cannot see it, but its inner index is outside [0, 33). Before the optimiser
// runs, clang's IR still has one GEP per subscript: `gep [33 x float], p, 0, i` where p is an
// element of an array of arrays is the subscript i of an inner dimension. Each such index that
// is not a constant inside its dimension gets a compare (unsigned: a negative index is out too)
// and a cold call of __tgsim_index_out_of_range with the array's name, shape and the index of
// every dimension; the Instrument pass gives the call its site (file:line). Pointer arithmetic
// (`&s[0][0] + i`, `(&s[0])[k]`) is no subscript of an inner dimension and is not checked; the
// outermost dimension is the allocation's, which the runtime checks. Once the optimiser has run,
// GEPs are merged (`gep s, 0, 0, i` for `&s[0][0] + i`), which is why the check is made here.
#include "pass.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <string>
#include <vector>

using namespace llvm;

namespace tgsim::pass {

namespace {

// One subscript: its index value and the extent of the dimension it selects in.
struct Subscript {
  Value* index;
  std::uint64_t extent;
};

// The subscripts of `ptr` into arrays, outermost first, back to the shared variable (a
// thread_local global: CUDA __shared__, Metal threadgroup) it was taken from; null when the
// chain holds anything but GEPs that subscript arrays (a cast, a struct field, pointer
// arithmetic past the first element).
GlobalVariable* subscripts(Value* ptr, std::vector<Subscript>& out) {
  auto* gep = dyn_cast<GEPOperator>(ptr);
  if (!gep) {
    // An extern __shared__ array is reached through its TLS wrapper (_ZTW...), which returns it.
    if (auto* cb = dyn_cast<CallInst>(ptr))
      if (const Function* w = cb->getCalledFunction(); w && w->getName().startswith("_ZTW") && !w->isDeclaration())
        for (const BasicBlock& bb : *w)
          if (const auto* r = dyn_cast<ReturnInst>(bb.getTerminator()); r && r->getReturnValue())
            ptr = r->getReturnValue()->stripPointerCasts();
    auto* gv = dyn_cast<GlobalVariable>(ptr);
    return gv && gv->isThreadLocal() ? gv : nullptr;
  }
  auto* first = dyn_cast<ConstantInt>(gep->getOperand(1));
  if (!first || !first->isZero() || gep->getNumIndices() < 2) return nullptr;
  GlobalVariable* gv = subscripts(gep->getPointerOperand(), out);
  if (!gv) return nullptr;
  Type* t = gep->getSourceElementType();
  for (unsigned j = 2; j <= gep->getNumIndices(); ++j) {
    auto* at = dyn_cast<ArrayType>(t);
    if (!at || !gep->getOperand(j)->getType()->isIntegerTy()) return nullptr;  // a vector GEP: none
    out.push_back({gep->getOperand(j), at->getNumElements()});
    t = at->getElementType();
  }
  return gv;
}

// "s" and "[32][33]": the name from the debug info, else the demangled symbol's last part.
std::pair<std::string, std::string> name_and_shape(const GlobalVariable& gv) {
  std::string name = llvm::demangle(gv.getName().str());
  SmallVector<DIGlobalVariableExpression*, 1> dis;
  gv.getDebugInfo(dis);
  if (!dis.empty()) name = dis[0]->getVariable()->getName().str();
  else if (name.rfind("::") != std::string::npos) name = name.substr(name.rfind("::") + 2);
  std::string shape;
  for (Type* t = gv.getValueType(); auto* at = dyn_cast<ArrayType>(t); t = at->getElementType())
    shape += "[" + std::to_string(at->getNumElements()) + "]";
  return {name, shape};
}

void check(GetElementPtrInst& gep, FunctionCallee report) {
  std::vector<Subscript> subs;
  GlobalVariable* gv = subscripts(&gep, subs);
  // The subscripts this GEP makes into an inner dimension (the outermost is the allocation's).
  const unsigned mine = gep.getNumIndices() - 1;
  if (!gv || subs.size() < 2) return;
  Module& m = *gep.getModule();
  LLVMContext& ctx = m.getContext();
  Type* i64 = Type::getInt64Ty(ctx);
  const auto [name, shape] = name_and_shape(*gv);
  for (std::size_t d = std::max<std::size_t>(1, subs.size() - mine); d < subs.size(); ++d) {
    auto* k = dyn_cast<ConstantInt>(subs[d].index);
    if (k && k->getValue().ult(subs[d].extent)) continue;
    IRBuilder<> b(&gep);
    Value* out = k ? static_cast<Value*>(b.getTrue())
                   : b.CreateICmpUGE(subs[d].index, ConstantInt::get(subs[d].index->getType(), subs[d].extent));
    Instruction* then = SplitBlockAndInsertIfThen(out, &gep, false, MDBuilder(ctx).createBranchWeights(1, 1u << 20));
    IRBuilder<> t(then);
    std::vector<Value*> args = {ConstantPointerNull::get(Type::getInt8PtrTy(ctx)),
                                t.CreateGlobalStringPtr(name, "tgsim.dim.name"),
                                t.CreateGlobalStringPtr(shape, "tgsim.dim.shape"), t.getInt32(unsigned(d)),
                                t.getInt32(unsigned(subs.size()))};
    for (const Subscript& s : subs) args.push_back(t.CreateSExtOrTrunc(s.index, i64));
    CallInst* call = t.CreateCall(report, args);
    call->setDebugLoc(gep.getDebugLoc());
  }
}

}  // namespace

PreservedAnalyses CheckDimensions::run(Module& m, ModuleAnalysisManager&) {
  LLVMContext& ctx = m.getContext();
  AttributeList attrs = AttributeList()
                            .addFnAttribute(ctx, Attribute::InaccessibleMemOnly)
                            .addFnAttribute(ctx, Attribute::NoUnwind)
                            .addFnAttribute(ctx, Attribute::WillReturn);
  FunctionType* ty = FunctionType::get(Type::getVoidTy(ctx),
                                       {Type::getInt8PtrTy(ctx), Type::getInt8PtrTy(ctx), Type::getInt8PtrTy(ctx),
                                        Type::getInt32Ty(ctx), Type::getInt32Ty(ctx)},
                                       true);
  std::vector<GetElementPtrInst*> geps;
  for (Function& f : m)
    for (Instruction& i : instructions(f))
      if (auto* g = dyn_cast<GetElementPtrInst>(&i)) geps.push_back(g);
  if (geps.empty()) return PreservedAnalyses::all();
  FunctionCallee report;
  for (GetElementPtrInst* g : geps) {
    std::vector<Subscript> subs;
    if (!subscripts(g, subs) || subs.size() < 2) continue;
    if (!report) report = m.getOrInsertFunction("__tgsim_index_out_of_range", ty, attrs);
    check(*g, report);
  }
  return report ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace tgsim::pass
