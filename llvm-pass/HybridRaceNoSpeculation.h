//===-- HybridRaceNoSpeculation.h - Keep the optimiser from adding races --===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Optimisations may turn `if (c) x = a[i];` into an unconditional load (and
// similar for stores) when that is safe for one thread. Instrumented after
// optimisation, such a load is an access the program never made, and a race
// report on it is false. LLVM's passes hold back exactly these
// transformations in functions marked sanitize_thread, so this pass marks
// every function that will be instrumented, at the start of the pipeline.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_NO_SPECULATION_H
#define HRACE_NO_SPECULATION_H

#include "llvm/IR/PassManager.h"

namespace hrace {

class NoSpeculationPass : public llvm::PassInfoMixin<NoSpeculationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace hrace

#endif // HRACE_NO_SPECULATION_H
