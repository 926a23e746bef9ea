// The analyses a transform of one function builds for itself (vectorize.cpp, unroll.cpp): from
// the function as it is when the transform starts, kept up to date by the transform.
#pragma once
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Module.h>

namespace tgsim::pass {

struct FunctionAnalyses {
  explicit FunctionAnalyses(llvm::Function& f)
      : tlii(llvm::Triple(f.getParent()->getTargetTriple())), tli(tlii), ac(f), dt(f), li(dt), se(f, tli, ac, dt, li) {}
  llvm::TargetLibraryInfoImpl tlii;
  llvm::TargetLibraryInfo tli;
  llvm::AssumptionCache ac;
  llvm::DominatorTree dt;
  llvm::LoopInfo li;
  llvm::ScalarEvolution se;
};

}  // namespace tgsim::pass
