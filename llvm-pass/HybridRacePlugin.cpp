//===-- HybridRacePlugin.cpp - Pass plugin entry point --------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Makes the pass available as `opt -load-pass-plugin=HybridRacePass.so
// -passes=hrace` and adds it to clang's pipelines under
// `clang -fpass-plugin=HybridRacePass.so`.
//
//===----------------------------------------------------------------------===//

#include "HybridRaceCompat.h"
#include "HybridRacePass.h"

using namespace llvm;

static void registerHybridRace(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "hrace")
          return false;
        MPM.addPass(hrace::HybridRacePass());
        return true;
      });
  // Last, so only the accesses that survive optimisation pay for a runtime
  // call; the -O0 pipeline reaches this extension point as well.
  hrace::compat::registerOptimizerLastEPCallback(
      PB, [](ModulePassManager &MPM) { MPM.addPass(hrace::HybridRacePass()); });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "HybridRace", HRACE_VERSION,
          registerHybridRace};
}
