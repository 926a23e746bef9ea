// The plugin's entry point and the pieces every part of the pass uses: sites, strings and the
// per-function entry values (internal.hpp).
#include "internal.hpp"
#include "pass.hpp"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/GlobalsModRef.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include <tgsim/kernel/abi.h>

using namespace llvm;

namespace tgsim::pass {

// ------------------------------------------------------------------ KeepAggregatesWhole

PreservedAnalyses KeepAggregatesWhole::run(Module& m, ModuleAnalysisManager&) {
  bool changed = false;
  for (Function& f : m) {
    std::vector<MemTransferInst*> copies;
    for (Instruction& i : instructions(f))
      if (auto* mt = dyn_cast<MemTransferInst>(&i))
        if (auto* len = dyn_cast<ConstantInt>(mt->getLength()))
          if (len->getZExtValue() == 2 || len->getZExtValue() == 4 || len->getZExtValue() == 8 ||
              len->getZExtValue() == 16)
            copies.push_back(mt);
    for (MemTransferInst* mt : copies) {
      const unsigned bits = static_cast<unsigned>(cast<ConstantInt>(mt->getLength())->getZExtValue() * 8);
      IRBuilder<> b(mt);
      Type* ty = b.getIntNTy(bits);
      Value* src = b.CreateBitCast(mt->getRawSource(), ty->getPointerTo(mt->getSourceAddressSpace()));
      Value* dst = b.CreateBitCast(mt->getRawDest(), ty->getPointerTo(mt->getDestAddressSpace()));
      LoadInst* ld = b.CreateAlignedLoad(ty, src, mt->getSourceAlign().valueOrOne(), mt->isVolatile());
      // SROA pre-splits a load whose value is only stored into an alloca it splits (`float4 v =
      // p[i]` then v.x, v.y ...): the load from p would become one load per field. A stored
      // value that is no load is not pre-split, and freeze is one: the copy from p stays whole
      // (freeze costs nothing in code; a copy of undefined bytes stays some bytes).
      Value* whole = mt->isVolatile() ? static_cast<Value*>(ld) : b.CreateFreeze(ld);
      b.CreateAlignedStore(whole, dst, mt->getDestAlign().valueOrOne(), mt->isVolatile());
      mt->eraseFromParent();
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

// ------------------------------------------------------------------ Context

Context::Context(Module& mod)
    : m(mod), ctx(mod.getContext()), dl(mod.getDataLayout()), i8(Type::getInt8Ty(ctx)),
      i32(Type::getInt32Ty(ctx)), i64(Type::getInt64Ty(ctx)), i8p(Type::getInt8PtrTy(ctx)) {
  site_type = StructType::create(ctx, {i8p, i8p, i32, i32, i32}, "tgsim.site");
  AttributeList ro = AttributeList().addFnAttribute(ctx, Attribute::ReadNone)
                         .addFnAttribute(ctx, Attribute::NoUnwind)
                         .addFnAttribute(ctx, Attribute::WillReturn);
  fn_thread = m.getOrInsertFunction("__tgsim_thread", ro, i8p);
  fn_access = m.getOrInsertFunction("__tgsim_access", Type::getVoidTy(ctx), i8p, i8p, i32, i64, i32);
  fn_note_store = m.getOrInsertFunction("__tgsim_note_store", Type::getVoidTy(ctx), i8p, i64, i32);
  fn_reserve = m.getOrInsertFunction("__tgsim_reserve", Type::getVoidTy(ctx), i8p, i32);
  fn_resolve_tags = m.getOrInsertFunction("__tgsim_resolve_tags", Type::getVoidTy(ctx), i8p, i64->getPointerTo(), i32);
  fn_load_tags = m.getOrInsertFunction("__tgsim_load_tags", Type::getVoidTy(ctx), i8p, i64->getPointerTo(),
                                       i64->getPointerTo(), i32);
}

Constant* Context::string(const std::string& s) {
  auto it = strings.find(s);
  if (it != strings.end()) return it->second;
  Constant* init = ConstantDataArray::getString(ctx, s);
  auto* gv = new GlobalVariable(m, init->getType(), true, GlobalValue::PrivateLinkage, init, "tgsim.str");
  gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Constant* p = ConstantExpr::getPointerCast(gv, i8p);
  strings.emplace(s, p);
  return p;
}

// The site's column field: the column, and a merged access's second line above it (abi.h).
static unsigned site_column(const SourcePos& p) {
  const unsigned also = p.also <= TGSIM_SITE_LINE_MAX ? p.also : 0;
  return std::min(p.column, unsigned(TGSIM_SITE_COLUMN_MASK)) | also << TGSIM_SITE_ALSO_SHIFT;
}

Constant* Context::site(const Instruction& at, const Instruction* stores, unsigned gap) {
  SourcePos p = source_pos(at);
  const auto* ld = dyn_cast<LoadInst>(&at);
  const auto* st = dyn_cast<StoreInst>(&at);
  const unsigned flags = ((ld && ld->isVolatile()) || (st && st->isVolatile()) ? TGSIM_SITE_VOLATILE : 0u) |
                         (gap << TGSIM_SITE_GAP_SHIFT);
  unsigned copy = 0;
  if (const MDNode* md = at.getMetadata(kUnrollCopy))
    copy = unsigned(mdconst::extract<ConstantInt>(md->getOperand(0))->getZExtValue());
  auto key = std::make_tuple(p.file, p.line, p.column, p.also, p.function, flags, p.calls, copy);
  auto it = sites.find(key);
  GlobalVariable* gv = it == sites.end() ? nullptr : it->second;
  if (!gv) {
    Constant* init = ConstantStruct::get(site_type, {string(p.file), string(p.function),
                                                     ConstantInt::get(i32, p.line),
                                                     ConstantInt::get(i32, site_column(p)),
                                                     ConstantInt::get(i32, flags)});
    gv = new GlobalVariable(m, site_type, true, GlobalValue::PrivateLinkage, init, "tgsim.site");
    gv->setAlignment(Align(16));  // the access kind goes in the low 4 bits of the tag key
    sites.emplace(key, gv);
  }
  // TGSIM_SITE_CONSTANT_VALUE while every store of the site stores a value the compiler knows
  // (flag = 1: the same bytes in every run; the checker's equal-value rule needs no note for
  // it). Not part of the key: the arms of `x = c ? v : 0` stay one site, as one warp instruction.
  if (const auto* vs = dyn_cast<StoreInst>(stores ? stores : &at)) {
    auto& [constant, data] = site_values[gv];
    (isa<Constant>(vs->getValueOperand()) ? constant : data) = true;
    const unsigned now = flags | (constant && !data ? TGSIM_SITE_CONSTANT_VALUE : 0u);
    auto* old = cast<ConstantStruct>(gv->getInitializer());
    if (cast<ConstantInt>(old->getOperand(4))->getZExtValue() != now)
      gv->setInitializer(ConstantStruct::get(site_type, {old->getOperand(0), old->getOperand(1), old->getOperand(2),
                                                         old->getOperand(3), ConstantInt::get(i32, now)}));
  }
  return gv;
}

Entry& Context::entry(Function& f) {
  Entry& e = entries[&f];
  if (e.thread) return e;
  IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
  e.thread = b.CreateCall(fn_thread, {}, "tgsim.thread");
  auto field = [&](unsigned off, Type* ty, const char* name) -> Value* {
    Value* p = b.CreateConstInBoundsGEP1_64(i8, e.thread, off);
    return b.CreateAlignedLoad(ty, b.CreateBitCast(p, ty->getPointerTo()), Align(8), name);
  };
  Type* i64p = i64->getPointerTo();
  e.log = field(TGSIM_OFF_LOG, i64p->getPointerTo(), "tgsim.log");
  e.tags = field(TGSIM_OFF_TAGS, i64p, "tgsim.tags");
  e.checking = b.CreateICmpNE(field(TGSIM_OFF_CHECKING, i8, "tgsim.checking"), ConstantInt::get(i8, 0));
  e.shared = field(TGSIM_OFF_SHARED, i8p, "tgsim.shared");
  e.last = cast<Instruction>(e.shared);
  return e;
}

// The extern __shared__ arrays lie after the launched kernel's own static layout, which differs
// between the kernels that reach a device function: read from the thread, not a constant.
Value* Context::dynamic_base(Entry& e) {
  if (e.dynamic) return e.dynamic;
  IRBuilder<> b(cast<Instruction>(e.shared)->getNextNode());
  Value* p = b.CreateConstInBoundsGEP1_64(i8, e.thread, TGSIM_OFF_DYNAMIC_SHARED);
  e.dynamic = b.CreateAlignedLoad(i8p, b.CreateBitCast(p, i8p->getPointerTo()), Align(8), "tgsim.dynamic");
  return e.dynamic;
}

// ------------------------------------------------------------------ CursorCleanup

PreservedAnalyses CursorCleanup::run(Function& f, FunctionAnalysisManager& am) {
  if (f.size() <= kGvnBlocks) return GVNPass().run(f, am);
  return PreservedAnalyses::all();
}

// ------------------------------------------------------------------ Instrument

PreservedAnalyses Instrument::run(Module& m, ModuleAnalysisManager& mam) {
  Context c(m);
  find_device_code(c);
  if (c.kernels.empty()) {
    forget_lines(m);
    return PreservedAnalyses::all();
  }
  c.count_source = m.getNamedGlobal("__tgsim_count_source") != nullptr;
  lower_shared(c);
  find_global_vars(c);
  forget_memory_attributes(c);
  lower_ptx_asm(c);
  std::vector<Function*> fs(c.device.begin(), c.device.end());
  auto& fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
  for (Function* f : fs)
    if (!f->isDeclaration() && !c.count_source) merge_arm_stores(*f);
  for (Function* f : fs)  // before the loop budget's phis
    if (!f->isDeclaration()) unroll_like_nvcc(c, *f, fam.getResult<TargetIRAnalysis>(*f));
  guard_faults(c);
  guard_local_bounds(c);
  for (Function* f : fs) {
    // The module's earlier steps changed f: its cached analyses (the alias analysis's dominator
    // tree) are computed again for store_notes.cpp.
    fam.invalidate(*f, PreservedAnalyses::none());
    instrument_function(c, *f, fam.getResult<AAManager>(*f));
  }
  emit_module_descriptor(c);
  forget_lines(m);
  if (verifyModule(m, &errs()))
    report_fatal_error("tgsim: the instrumented module does not verify");
  return PreservedAnalyses::none();
}

}  // namespace tgsim::pass

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "tgsim", "1", [](PassBuilder& pb) {
            pb.registerPipelineStartEPCallback([](ModulePassManager& mpm, OptimizationLevel) {
              mpm.addPass(tgsim::pass::SelectKernels());
              mpm.addPass(tgsim::pass::NoExternSharedHooks());
              mpm.addPass(tgsim::pass::InlineDeviceFunctions());
              mpm.addPass(tgsim::pass::KeepAggregatesWhole());
              mpm.addPass(tgsim::pass::CheckDimensions());
              mpm.addPass(tgsim::pass::RememberLines());
            });
            // Null stores: once SROA has shown the pointer (GlobalOpt deletes them next), and
            // after each InstCombine (those inlining reveals).
            pb.registerPipelineEarlySimplificationEPCallback([](ModulePassManager& mpm, OptimizationLevel) {
              mpm.addPass(createModuleToFunctionPassAdaptor(tgsim::pass::WarnNullStores()));
            });
            pb.registerPeepholeEPCallback([](FunctionPassManager& fpm, OptimizationLevel) {
              fpm.addPass(tgsim::pass::WarnNullStores());
            });
            pb.registerOptimizerLastEPCallback([](ModulePassManager& mpm, OptimizationLevel level) {
              mpm.addPass(tgsim::pass::Instrument());
              // The cursor's and the tags' stack slots into registers (fast_path.cpp), then the
              // redundant loads of the lane's cursor after adjacent calls.
              if (level != OptimizationLevel::O0) {
                // GlobalsAA cached before the pass still says a device function only reads
                // memory; GVN would keep a caller's cursor across a call that grows the log.
                mpm.addPass(InvalidateAnalysisPass<GlobalsAA>());
                mpm.addPass(createModuleToFunctionPassAdaptor(SROAPass()));
                mpm.addPass(createModuleToFunctionPassAdaptor(tgsim::pass::CursorCleanup()));
              }
            });
          }};
}
