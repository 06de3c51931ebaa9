//===-- HybridRaceNdr.h - Dependencies for the ndr checker ------*- C++ -*-===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With -hrace-ndr (the driver's -fsanitize-hybrid-race-ndr) every checked
// plain load and store also calls the non-deterministic read checker
// (runtime/hrace_ndr.h), and a store first names the loads it depends on, so
// the runtime can bind the correlations of seeds/002 (section IV-B) to
// addresses:
//   data     the loads the stored value is computed from, through any chain
//            of non-memory instructions (not through phis or calls);
//   control  the loads of the conditions of the branches the store is
//            control dependent on (post-dominance: the store's block
//            post-dominates one successor of the branch's block but not the
//            block itself);
// keeping only loads that dominate the store, whose addresses are then
// available there. The pass runs after optimisation, which forwards a
// stored value to later loads of the same variable (Euro = A; Yen = Euro *
// 107 reads A, not Euro): a value in the tree that a dominating checked
// store wrote counts as a load of that store's variable.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LLVM_PASS_HYBRIDRACENDR_H
#define HRACE_LLVM_PASS_HYBRIDRACENDR_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"

#include <optional>

namespace hrace {

extern llvm::cl::opt<bool> InstrumentNdr;

/// The address of a variable a store depends on (available at the store);
/// Control: through a branch condition. Tracked: instrumenting an atomic
/// load replaces it, and the address may be what one loaded.
struct NdrDependency {
  llvm::WeakTrackingVH Address;
  /// The bytes the load read (for the variable's name).
  uint64_t Size;
  bool Control;
};

using NdrDependencies =
    llvm::DenseMap<llvm::StoreInst *, llvm::SmallVector<NdrDependency, 4>>;

/// The dependencies of every store of F on the variables of the loads and
/// stores in Checked (the accesses the runtime sees).
NdrDependencies computeNdrDependencies(
    llvm::Function &F,
    const llvm::SmallPtrSetImpl<llvm::Instruction *> &Checked);

/// The offset of the field a store writes inside its struct, from its
/// type-based alias analysis tag (clang gives one at -O1 and above); none
/// when the tag is a scalar's own. Newer LLVMs write a field's address as a
/// byte offset from the object, which only the tag still names.
std::optional<uint64_t> getNdrFieldOffset(const llvm::StoreInst &Store);

/// The object whose field Ptr points to (a struct GEP's base, or a struct
/// global or alloca reached at a constant offset), or null.
llvm::Value *getNdrParentObject(llvm::Value *Ptr, const llvm::DataLayout &DL);

/// Source names of the variables the ndr checker's reports name in
/// correlations, from debug info: a global or local by its name, a field by
/// its path from one (`acct.balance`, `Grid[2].x`), and an object reached
/// through a pointer variable or a pointer global by it (`a->balance`,
/// `*p`, `Bank->accounts[1]`). Only addresses at a constant offset from
/// such a variable get a name; the runtime describes the others by address.
class NdrVariableNames {
public:
  /// Collects the debug variables of F (dbg.declare of its allocas,
  /// dbg.value of its pointers).
  NdrVariableNames(llvm::Function &F, const llvm::DataLayout &DL);

  /// The name of the AccessSize bytes at Ptr, or "" if debug info does not
  /// give one.
  std::string name(llvm::Value *Ptr, uint64_t AccessSize) const;

private:
  /// A named object at some address: the variable, its type, and whether
  /// the address was a pointer's value (fields are then `->f`).
  struct Object {
    std::string Name;
    const llvm::DIType *Type;
    bool ThroughPointer;
  };
  bool object(llvm::Value *Base, Object &Out, unsigned Depth) const;
  /// The type of the AccessSize bytes at Ptr and their name, as name() but
  /// keeping the type for a pointer loaded from there.
  bool describe(llvm::Value *Ptr, uint64_t AccessSize, std::string &Name,
                const llvm::DIType *&Type, unsigned Depth) const;

  const llvm::DataLayout &DL;
  /// Allocas by their dbg.declare; pointer values by a plain dbg.value.
  llvm::DenseMap<const llvm::Value *, const llvm::DILocalVariable *> Declared,
      Valued;
};

} // namespace hrace

#endif // HRACE_LLVM_PASS_HYBRIDRACENDR_H
