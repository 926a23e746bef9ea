// nvcc inlines a __device__ function at every call unless it is __noinline__; Clang keeps a large
// helper called from several places out of line. Two things differ when it does:
//  - counts: inlined, each call site's access is an instruction of its own (lanes of one warp
//    that call the helper from two sites issue two), which tgsim's sites follow through the
//    inlined copy's call sites (lines.cpp); out of line, one site serves every call (issue 36
//    cause 4; tests/nvcc_fidelity/call_sites);
//  - speed: a helper's local arrays stay in the caller's registers instead of memory the pass
//    instruments (issue 39 item 4).
// So at the start of the pipeline every defined __device__ function (annotate "tgsim_device")
// that is not __noinline__ is marked always_inline, up to a size beyond which inlining it at
// every call would cost more compile time than it could change (a recursive function stays a
// call: the inliner does not inline a function into itself).
#include "internal.hpp"
#include "pass.hpp"

using namespace llvm;

namespace tgsim::pass {

namespace {
// Instructions of a helper before optimisation; past this it stays as Clang chooses.
constexpr unsigned kMaxInlinedInstructions = 4000;
}  // namespace

PreservedAnalyses InlineDeviceFunctions::run(Module& m, ModuleAnalysisManager&) {
  bool changed = false;
  for (auto [gv, a] : annotations(m)) {
    auto* f = dyn_cast<Function>(gv);
    if (!f || a != "tgsim_device" || f->isDeclaration() || f->hasFnAttribute(Attribute::NoInline) ||
        f->hasFnAttribute(Attribute::OptimizeNone) || f->hasFnAttribute(Attribute::AlwaysInline) ||
        f->getInstructionCount() > kMaxInlinedInstructions)
      continue;
    f->addFnAttr(Attribute::AlwaysInline);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace tgsim::pass
