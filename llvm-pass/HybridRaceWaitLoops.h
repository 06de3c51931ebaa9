//===-- HybridRaceWaitLoops.h - Mark wait loops -----------------*- C++ -*-===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread that waits for a condition with `while (!flag) wait(cv, m);` never
// calls wait() when the signal came first, so a detector that only sees the
// wait misses the ordering the flag provides (Helgrind+'s "lost signal").
// These passes find every loop that contains a condition wait, directly or
// through a function of the module that waits, and tell the runtime where the
// loop is entered and where the wait has logically completed: on every exit
// edge, whether or not the wait was called. Polling loops, which take a lock,
// sleep or yield until a condition read in the loop holds, wait just as
// invisibly and are marked the same way.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LLVM_PASS_HYBRIDRACEWAITLOOPS_H
#define HRACE_LLVM_PASS_HYBRIDRACEWAITLOOPS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace hrace {

/// Whether \p F is __hrace_wait_loop_enter or __hrace_wait_loop_exit.
bool isWaitLoopMark(const llvm::Function &F);

/// Whether the wait loops of \p M have been marked already.
bool areWaitLoopsMarked(const llvm::Module &M);

/// Marks the wait loops of \p M (see the file comment) and records that in
/// the module, so it happens once. Returns whether any function changed.
bool markWaitLoops(llvm::Module &M, llvm::FunctionAnalysisManager &FAM);

/// Runs markWaitLoops. The plugin adds it at the start of every pipeline, so
/// the marks are placed in the loops as written and the optimisations that
/// follow (inlining, loop rotation, which moves the first test of the
/// condition out of the loop) keep them on every path.
class WaitLoopPass : public llvm::PassInfoMixin<WaitLoopPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  /// Also run on optnone functions, like the instrumentation.
  static bool isRequired() { return true; }
};

} // namespace hrace

#endif // HRACE_LLVM_PASS_HYBRIDRACEWAITLOOPS_H
