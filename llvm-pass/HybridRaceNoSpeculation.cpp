//===-- HybridRaceNoSpeculation.cpp - Keep the optimiser from adding races ===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "HybridRaceNoSpeculation.h"
#include "HybridRacePass.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace hrace {

PreservedAnalyses NoSpeculationPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    // Functions the pass leaves alone keep their code as the user asked.
    // Ignored ones too: their plain accesses are not checked, and without
    // the attribute the inliner (which wants it equal on both sides) keeps
    // checked functions out of them, as for ThreadSanitizer.
    if (F.isDeclaration() ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
        F.hasFnAttribute(Attribute::SanitizeThread) ||
        F.hasFnAttribute(IgnoredAttr))
      continue;
    F.addFnAttr(Attribute::SanitizeThread);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace hrace
