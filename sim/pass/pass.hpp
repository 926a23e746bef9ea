// tgsim's LLVM pass plugin (Clang 14, -fpass-plugin): turns a kernel translation unit compiled
// as plain C++ into code that reports every memory access to tgsim (sim/include/tgsim/kernel/abi.h).
//
// Six passes (and SelectKernels, select_kernels.cpp, first when a command names one kernel):
//  - KeepAggregatesWhole (pipeline start): a constant-size memcpy of 2, 4, 8 or 16 bytes (a
//    struct or float4 copy) becomes one integer load and store, so the copy from global memory
//    stays one access of its full width (LDG.128 on the GPU) instead of one per field.
//  - NoExternSharedHooks (pipeline start): extern __shared__ arrays without C++'s
//    thread_local initialisation hooks (shared.cpp).
//  - InlineDeviceFunctions (pipeline start): __device__ functions always inlined, as nvcc does
//    (inline_device.cpp).
//  - CheckDimensions (pipeline start): an index outside one dimension of a shared array that
//    stays inside the array (`s[0][40]` of `s[32][33]`) calls the library (dims.cpp).
//  - RememberLines (pipeline start): the source line of every access, for the accesses the
//    optimiser merges or hoists and leaves at line 0 (lines.cpp).
//  - Instrument (optimizer last, on the optimised code): finds the device code (kernels and
//    what they call), moves its `thread_local` variables (CUDA __shared__, Metal threadgroup)
//    into the group's shared arena, appends one 8-byte record per load and store inline,
//    gives the runtime calls their source sites, and registers the module (kernels, device and
//    constant variables, shared layout) with a constructor.
// Accesses to the thread's own stack (allocas, byval arguments), to read-only constants and
// to tgsim's thread state are not memory accesses of the kernel and are left alone.
#pragma once

#include <cstddef>

#include <llvm/IR/PassManager.h>

namespace tgsim::pass {

// Pipeline start, before every other: the kernels a command named, the others and what only
// they reach removed; or every kernel's signature without its body (a listing). Chosen by the
// compile driver through TGSIM_SELECT_KERNELS (select_kernels.cpp).
struct SelectKernels : llvm::PassInfoMixin<SelectKernels> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

struct KeepAggregatesWhole : llvm::PassInfoMixin<KeepAggregatesWhole> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

// Pipeline start: an `extern __shared__ T s[]` (an extern thread_local array) has no
// initialisation hook to call: each use's check of the hook, a branch the optimiser cannot
// fold, splits blocks and keeps a value read from s from being reused as nvcc reuses it
// (issue 36 cause 3; shared.cpp).
struct NoExternSharedHooks : llvm::PassInfoMixin<NoExternSharedHooks> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

// Pipeline start: __device__ functions inlined at every call, as nvcc inlines them
// (inline_device.cpp).
struct InlineDeviceFunctions : llvm::PassInfoMixin<InlineDeviceFunctions> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

// Once SROA has shown the pointer, and after each InstCombine: a warning naming file:line for a
// store through a proven null pointer, before the optimiser deletes it as undefined behaviour
// (null_store.cpp).
struct WarnNullStores : llvm::PassInfoMixin<WarnNullStores> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&);
};

// Pipeline start: the subscripts of inner dimensions of shared arrays, checked against their
// dimension (dims.cpp).
struct CheckDimensions : llvm::PassInfoMixin<CheckDimensions> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

struct RememberLines : llvm::PassInfoMixin<RememberLines> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

struct Instrument : llvm::PassInfoMixin<Instrument> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);
};

// After Instrument and SROA: GVN removes the redundant loads of the lane's cursor after adjacent
// calls, in functions of up to kGvnBlocks blocks. A longer function goes without (a few loads
// more around its calls): GVN's memory dependence queries walk back over every record's block
// (1.6 s of 8.5 s at 1,200 statements, issue 40), and EarlyCSE, tried instead, took 7.9 s of
// 25 s at 2,400 statements.
struct CursorCleanup : llvm::PassInfoMixin<CursorCleanup> {
  static constexpr std::size_t kGvnBlocks = 1000;
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& am);
};

}  // namespace tgsim::pass
