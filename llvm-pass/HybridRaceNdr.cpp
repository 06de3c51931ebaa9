//===-- HybridRaceNdr.cpp - Dependencies for the ndr checker --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HybridRaceNdr.h"
#include "HybridRaceCompat.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
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
  const DataLayout &DL = F.getParent()->getDataLayout();
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
        auto *Load = dyn_cast<LoadInst>(Source);
        Value *Address = Load ? Load->getPointerOperand()
                              : cast<StoreInst>(Source)->getPointerOperand();
        Type *Ty = Load ? Load->getType()
                        : cast<StoreInst>(Source)->getValueOperand()->getType();
        // A store of the value just loaded from the same place: no relation.
        // A variable that two conditions (or values) of the store read is
        // one dependency: the runtime would only make its correlation again
        // (blackscholes' stores: four calls a store, two of them repeats).
        bool Known = Address == Store->getPointerOperand() ||
                     any_of(Deps, [&](const NdrDependency &D) {
                       return D.Address == Address && D.Control == IsControl;
                     });
        if (!Known)
          Deps.push_back(
              {Address, DL.getTypeStoreSize(Ty).getKnownMinValue(), IsControl});
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

namespace {

// Pointers loaded from pointers are followed this far for a name
// (`Bank->head->next`).
constexpr unsigned MaxNameDepth = 3;
// Members and elements descended into at most.
constexpr unsigned MaxPathSteps = 16;

/// T without typedefs and qualifiers.
const DIType *stripTypedefs(const DIType *T) {
  while (auto *D = dyn_cast_or_null<DIDerivedType>(T)) {
    switch (D->getTag()) {
    case dwarf::DW_TAG_typedef:
    case dwarf::DW_TAG_const_type:
    case dwarf::DW_TAG_volatile_type:
    case dwarf::DW_TAG_restrict_type:
    case dwarf::DW_TAG_atomic_type:
      T = D->getBaseType();
      continue;
    default:
      return T;
    }
  }
  return T;
}

/// What a pointer of type T points to; null if T is no pointer (or void *).
const DIType *getPointee(const DIType *T) {
  auto *D = dyn_cast_or_null<DIDerivedType>(stripTypedefs(T));
  if (!D || D->getTag() != dwarf::DW_TAG_pointer_type)
    return nullptr;
  return D->getBaseType();
}

uint64_t getSizeInBytes(const DIType *T) {
  T = stripTypedefs(T);
  return T ? T->getSizeInBits() / 8 : 0;
}

/// The member (or base class) of C that holds byte Offset.
const DIDerivedType *findMember(const DICompositeType *C, uint64_t Offset) {
  for (const DINode *Element : C->getElements()) {
    auto *M = dyn_cast_or_null<DIDerivedType>(Element);
    if (!M || M->isStaticMember() ||
        (M->getTag() != dwarf::DW_TAG_member &&
         M->getTag() != dwarf::DW_TAG_inheritance))
      continue;
    uint64_t Begin = M->getOffsetInBits() / 8;
    uint64_t Size = M->getSizeInBits() ? M->getSizeInBits() / 8
                                       : getSizeInBytes(M->getBaseType());
    if (Offset >= Begin && Offset < Begin + (Size ? Size : 1))
      return M;
  }
  return nullptr;
}

/// Appends to Name the path from an object of type T to the Size bytes at
/// Offset in it (`.f`, `[2]`; `->f`, `[2]` or a leading `*` for an object
/// reached through a pointer); T becomes their type. Bytes that are no
/// member's keep their offset (`+4`).
void appendPath(std::string &Name, const DIType *&T, uint64_t Offset,
                uint64_t Size, bool ThroughPointer) {
  bool Deref = ThroughPointer;
  // p[1].x: an element after the one the pointer points to.
  uint64_t ObjectSize = getSizeInBytes(T);
  if (Deref && ObjectSize && Offset >= ObjectSize) {
    Name += "[" + std::to_string(Offset / ObjectSize) + "]";
    Offset %= ObjectSize;
    Deref = false;
  }
  for (unsigned Step = 0; Step < MaxPathSteps; ++Step) {
    auto *C = dyn_cast_or_null<DICompositeType>(stripTypedefs(T));
    if (!C || (Offset == 0 && C->getSizeInBits() == Size * 8))
      break;
    if (C->getTag() == dwarf::DW_TAG_array_type) {
      uint64_t ElementSize = getSizeInBytes(C->getBaseType());
      if (!ElementSize)
        break;
      Name += "[" + std::to_string(Offset / ElementSize) + "]";
      Offset %= ElementSize;
      Deref = false;
      T = C->getBaseType();
      continue;
    }
    const DIDerivedType *Member = findMember(C, Offset);
    if (!Member)
      break;
    // A base class's members are the object's own: no name for the step.
    if (Member->getTag() == dwarf::DW_TAG_member) {
      Name += (Deref ? "->" : ".") + Member->getName().str();
      Deref = false;
    }
    Offset -= Member->getOffsetInBits() / 8;
    T = Member->getBaseType();
  }
  if (Deref)
    Name = "*" + Name;
  if (Offset)
    Name += "+" + std::to_string(Offset);
}

} // namespace

NdrVariableNames::NdrVariableNames(Function &F, const DataLayout &DL) : DL(DL) {
  compat::forEachDebugVariable(F, [&](Value *Location,
                                      const DILocalVariable *Variable,
                                      bool Plain, bool IsDeclare) {
    if (!Location || !Plain || Variable->getName().empty())
      return;
    if (IsDeclare)
      Declared.try_emplace(Location, Variable);
    else if (Location->getType()->isPointerTy() &&
             getPointee(Variable->getType()))
      Valued.try_emplace(Location, Variable);
  });
}

bool NdrVariableNames::object(Value *Base, Object &Out, unsigned Depth) const {
  if (auto *Global = dyn_cast<GlobalVariable>(Base)) {
    SmallVector<DIGlobalVariableExpression *, 1> Expressions;
    Global->getDebugInfo(Expressions);
    for (DIGlobalVariableExpression *E : Expressions)
      if (E->getExpression()->getNumElements() == 0) {
        Out = {E->getVariable()->getName().str(), E->getVariable()->getType(),
               false};
        return true;
      }
    return false;
  }
  if (const DILocalVariable *Variable = Declared.lookup(Base)) {
    Out = {Variable->getName().str(), Variable->getType(), false};
    return true;
  }
  if (const DILocalVariable *Variable = Valued.lookup(Base)) {
    Out = {Variable->getName().str(), getPointee(Variable->getType()), true};
    return true;
  }
  // A pointer loaded from a named place: the object it points to.
  auto *Load = dyn_cast<LoadInst>(Base);
  if (!Load || Depth >= MaxNameDepth)
    return false;
  std::string Name;
  const DIType *Type = nullptr;
  if (!describe(Load->getPointerOperand(),
                DL.getTypeStoreSize(Load->getType()).getKnownMinValue(), Name,
                Type, Depth + 1) ||
      !getPointee(Type))
    return false;
  Out = {Name, getPointee(Type), true};
  return true;
}

bool NdrVariableNames::describe(Value *Ptr, uint64_t AccessSize,
                                std::string &Name, const DIType *&Type,
                                unsigned Depth) const {
  APInt Offset(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, true);
  Object O;
  if (Offset.isNegative() || !object(Base, O, Depth))
    return false;
  Name = O.Name;
  Type = O.Type;
  appendPath(Name, Type, Offset.getZExtValue(), AccessSize, O.ThroughPointer);
  return true;
}

std::string NdrVariableNames::name(Value *Ptr, uint64_t AccessSize) const {
  std::string Name;
  const DIType *Type = nullptr;
  if (!describe(Ptr, AccessSize, Name, Type, 0))
    return "";
  return Name;
}

} // namespace hrace
