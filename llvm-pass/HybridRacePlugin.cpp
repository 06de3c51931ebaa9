//===-- HybridRacePlugin.cpp - Pass plugin entry point --------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Makes the passes available as `opt -load-pass-plugin=HybridRacePass.so
// -passes=hrace` (instrumentation, marking the wait loops first if that has
// not been done), `-passes=hrace-wait-loops` (the marks alone) and
// `-passes=hrace-no-speculation` (sanitize_thread on functions), and adds
// them to clang's pipelines under `clang -fpass-plugin=HybridRacePass.so`.
//
//===----------------------------------------------------------------------===//

#include "HybridRaceCompat.h"
#include "HybridRaceNoSpeculation.h"
#include "HybridRacePass.h"
#include "HybridRaceWaitLoops.h"

using namespace llvm;

static void registerHybridRace(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "hrace") {
          MPM.addPass(hrace::HybridRacePass());
          return true;
        }
        if (Name == "hrace-no-speculation") {
          MPM.addPass(hrace::NoSpeculationPass());
          return true;
        }
        if (Name == "hrace-wait-loops") {
          MPM.addPass(hrace::WaitLoopPass());
          return true;
        }
        return false;
      });
  // First, so the wait loops are marked as written: inlining then carries
  // the marks of a helper's loop into its callers, and loop rotation, which
  // moves the first test of the condition out of the loop, keeps the marks
  // on the path that skips the loop when the signal came first.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(hrace::IgnoreListPass());
        MPM.addPass(hrace::NoSpeculationPass());
        MPM.addPass(hrace::WaitLoopPass());
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
