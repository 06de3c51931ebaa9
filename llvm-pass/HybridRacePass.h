//===-- HybridRacePass.h - HybridRace instrumentation pass ------*- C++ -*-===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LLVM_PASS_HYBRIDRACEPASS_H
#define HRACE_LLVM_PASS_HYBRIDRACEPASS_H

#include "llvm/IR/PassManager.h"

namespace hrace {

/// What IgnoreListPass leaves on the functions it marks.
inline constexpr const char *IgnoredAttr = "hrace-ignored";

/// Inserts the calls of runtime/hrace_interface.h around every memory access,
/// atomic operation and memory intrinsic that another thread could race with,
/// keeps the runtime's shadow call stack with function entry/exit calls, and
/// adds a module constructor that initialises the runtime. Marks the
/// condition-variable wait loops first (HybridRaceWaitLoops.h) unless that
/// has been done earlier in the pipeline.
class HybridRacePass : public llvm::PassInfoMixin<HybridRacePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Also run on optnone functions: otherwise -O0 code would go unchecked.
  static bool isRequired() { return true; }
};

/// Marks the functions the ignore lists (-hrace-ignorelist) name, at the
/// start of the pipeline: they are kept out of line (as ThreadSanitizer's
/// differing attributes keep them), so that their accesses stay unchecked
/// wherever they are called from, and they do not get `sanitize_thread`
/// (NoSpeculationPass), so that a checked function is not inlined into them.
class IgnoreListPass : public llvm::PassInfoMixin<IgnoreListPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace hrace

#endif // HRACE_LLVM_PASS_HYBRIDRACEPASS_H
