//===-- HybridRaceNdr.cpp - Dependencies for the ndr checker --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HybridRaceNdr.h"

#include "llvm/ADT/APInt.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace hrace {

cl::opt<bool> InstrumentNdr(
    "hrace-ndr",
    cl::desc("also instrument for the non-deterministic read checker "
             "(HRACE_OPTIONS=ndr=1): loads, stores and the loads each store "
             "depends on"),
    cl::init(false));

namespace {

// Deep expression trees are cut: the correlations they would add are of
// variables far from the store.
constexpr unsigned MaxDepth = 8;
// Functions with more blocks are checked for data dependencies only.
constexpr unsigned MaxBlocksForControl = 2000;

using StoresOfValue = DenseMap<Value *, SmallVector<StoreInst *, 2>>;

// The checked loads and stores V is computed from: each load, and each
// store of a value met on the way.
void collectSources(Value *V, const SmallPtrSetImpl<Instruction *> &Checked,
                    const StoresOfValue &Stored, SmallPtrSetImpl<Value *> &Seen,
                    SmallVectorImpl<Instruction *> &Out, unsigned Depth) {
  if (Depth > MaxDepth || !Seen.insert(V).second)
    return;
  auto It = Stored.find(V);
  if (It != Stored.end())
    Out.append(It->second.begin(), It->second.end());
  if (auto *Load = dyn_cast<LoadInst>(V)) {
    if (Checked.count(Load))
      Out.push_back(Load);
    return;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || isa<PHINode>(I) || isa<CallBase>(I) || I->mayReadOrWriteMemory())
    return;
  for (Value *Op : I->operands())
    collectSources(Op, Checked, Stored, Seen, Out, Depth + 1);
}

Value *getCondition(Instruction *Terminator) {
  if (auto *Br = dyn_cast<BranchInst>(Terminator))
    return Br->isConditional() ? Br->getCondition() : nullptr;
  if (auto *Switch = dyn_cast<SwitchInst>(Terminator))
    return Switch->getCondition();
  return nullptr;
}

} // namespace

NdrDependencies
computeNdrDependencies(Function &F,
                       const SmallPtrSetImpl<Instruction *> &Checked) {
  NdrDependencies Result;
  SmallVector<StoreInst *, 16> Stores;
  StoresOfValue Stored;
  for (Instruction &I : instructions(F))
    if (auto *Store = dyn_cast<StoreInst>(&I))
      if (!Store->isAtomic() && Checked.count(Store)) {
        Stores.push_back(Store);
        if (!isa<Constant>(Store->getValueOperand()))
          Stored[Store->getValueOperand()].push_back(Store);
      }
  if (Stores.empty())
    return Result;
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  bool Control = F.size() <= MaxBlocksForControl;
  for (StoreInst *Store : Stores) {
    SmallVector<NdrDependency, 4> Deps;
    auto Add = [&](Value *Root, bool IsControl) {
      SmallPtrSet<Value *, 16> Seen;
      SmallVector<Instruction *, 4> Sources;
      collectSources(Root, Checked, Stored, Seen, Sources, 0);
      for (Instruction *Source : Sources) {
        if (Source == Store || !DT.dominates(Source, Store))
          continue;
        Value *Address = isa<LoadInst>(Source)
                             ? cast<LoadInst>(Source)->getPointerOperand()
                             : cast<StoreInst>(Source)->getPointerOperand();
        // A store of the value just loaded from the same place: no relation.
        if (Address != Store->getPointerOperand())
          Deps.push_back({Address, IsControl});
      }
    };
    Add(Store->getValueOperand(), false);
    BasicBlock *B = Store->getParent();
    for (BasicBlock &A : F) {
      if (!Control)
        break;
      Value *Condition = getCondition(A.getTerminator());
      if (!Condition || PDT.properlyDominates(B, &A))
        continue;
      for (BasicBlock *Succ : successors(&A))
        if (PDT.dominates(B, Succ)) {
          Add(Condition, true);
          break;
        }
    }
    if (!Deps.empty())
      Result[Store] = std::move(Deps);
  }
  return Result;
}

std::optional<uint64_t> getNdrFieldOffset(const StoreInst &Store) {
  // A struct-path tag: {base type, access type, offset}. A scalar access is
  // tagged with its own type as the base.
  const MDNode *Tag = Store.getMetadata(LLVMContext::MD_tbaa);
  if (!Tag || Tag->getNumOperands() < 3 ||
      Tag->getOperand(0) == Tag->getOperand(1))
    return std::nullopt;
  auto *Offset = mdconst::dyn_extract<ConstantInt>(Tag->getOperand(2));
  if (!Offset || !isa<MDNode>(Tag->getOperand(0)))
    return std::nullopt;
  return Offset->getZExtValue();
}

Value *getNdrParentObject(Value *Ptr, const DataLayout &DL) {
  Ptr = Ptr->stripPointerCasts();
  // A field of the object at the base itself (p->f, not p[i].f: the
  // elements of an array are not one object).
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
    auto *First = dyn_cast<ConstantInt>(GEP->idx_begin()->get());
    if (GEP->getSourceElementType()->isStructTy() && GEP->getNumIndices() >= 2)
      return First && First->isZero() ? GEP->getPointerOperand() : nullptr;
  }
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, true);
  if (auto *Global = dyn_cast<GlobalVariable>(Base))
    if (Global->getValueType()->isStructTy())
      return Global;
  if (auto *Alloca = dyn_cast<AllocaInst>(Base))
    if (Alloca->getAllocatedType()->isStructTy())
      return Alloca;
  return nullptr;
}

} // namespace hrace
