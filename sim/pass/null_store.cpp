// WarnNullStores (pass.hpp): a store through a pointer the optimiser has proven null is undefined
// behaviour; the next SimplifyCFG turns it into `unreachable` and deletes the branch that led to
// it, so the kernel runs as if the store were not there and tgsim could report nothing (where an
// `unreachable` stays, faults.cpp makes it a trap finding). nvcc
// warns; so does this pass, run once SROA has shown the pointer and after each InstCombine,
// while the store still carries its source line. One warning per line, on the compiler's stderr, which
// `tgsim run FILE` shows.
#include "pass.hpp"

#include <set>
#include <tuple>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>

#include "internal.hpp"

using namespace llvm;

namespace tgsim::pass {

PreservedAnalyses WarnNullStores::run(Function& f, FunctionAnalysisManager&) {
  static std::set<std::tuple<std::string, unsigned, unsigned>> warned;  // one compiler process, one file
  for (Instruction& i : instructions(f)) {
    auto* st = dyn_cast<StoreInst>(&i);
    if (!st || !st->getDebugLoc()) continue;  // InstCombine's own markers carry no line
    const unsigned as = st->getPointerAddressSpace();
    if (!isa<ConstantPointerNull>(getUnderlyingObject(st->getPointerOperand())) || NullPointerIsDefined(&f, as))
      continue;
    const SourcePos p = source_pos(*st);
    if (!warned.emplace(p.file, p.line, p.column).second) continue;
    errs() << p.file << ":" << p.line << ":" << p.column
           << ": warning: store through a null pointer: undefined behaviour, which the compiler deletes "
              "(on a GPU, an illegal address); where it leaves an `unreachable`, tgsim reports a trap there when "
              "the kernel runs, else it cannot report it\n";
  }
  return PreservedAnalyses::all();
}

}  // namespace tgsim::pass
