//===-- HybridRaceCompat.h - LLVM API differences ---------------*- C++ -*-===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass builds against LLVM 14 through 22. Every API that changed in that
// range is wrapped here, so this is the only file that tests
// LLVM_VERSION_MAJOR.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LLVM_PASS_HYBRIDRACECOMPAT_H
#define HRACE_LLVM_PASS_HYBRIDRACECOMPAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SpecialCaseList.h"

#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

namespace hrace::compat {

/// The type of `void *` in the runtime ABI: i8* while pointers were typed,
/// the opaque `ptr` since.
inline llvm::PointerType *getVoidPtrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::getUnqual(Ctx);
#else
  return llvm::Type::getInt8PtrTy(Ctx);
#endif
}

/// The type of `void **`, to load a `void *` through.
inline llvm::PointerType *getVoidPtrPtrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::getUnqual(Ctx);
#else
  return llvm::PointerType::getUnqual(llvm::Type::getInt8PtrTy(Ctx));
#endif
}

/// Declares the non-overloaded intrinsic \p ID in \p M.
inline llvm::Function *getIntrinsic(llvm::Module &M, llvm::Intrinsic::ID ID) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(&M, ID);
#else
  return llvm::Intrinsic::getDeclaration(&M, ID);
#endif
}

/// Whether the address of the stack object \p Alloca may outlive or leave its
/// function: returned, stored anywhere, or passed to a call that may keep it.
inline bool mayBeCaptured(const llvm::Value *Alloca) {
#if LLVM_VERSION_MAJOR >= 21
  return llvm::PointerMayBeCaptured(Alloca, /*ReturnCaptures=*/true);
#else
  return llvm::PointerMayBeCaptured(Alloca, /*ReturnCaptures=*/true,
                                    /*StoreCaptures=*/true);
#endif
}

/// \p Size in bytes as an \p IntTy value; scalable sizes become a multiple of
/// vscale computed at run time.
inline llvm::Value *createByteCount(llvm::IRBuilder<> &IRB, llvm::Type *IntTy,
                                    llvm::TypeSize Size) {
#if LLVM_VERSION_MAJOR >= 19
  return IRB.CreateTypeSize(IntTy, Size);
#else
  auto *MinBytes = llvm::ConstantInt::get(IntTy, Size.getKnownMinValue());
  return Size.isScalable() ? IRB.CreateVScale(MinBytes) : MinBytes;
#endif
}

/// The architecture \p M is compiled for.
inline llvm::Triple::ArchType getTargetArch(const llvm::Module &M) {
#if LLVM_VERSION_MAJOR >= 21
  return M.getTargetTriple().getArch();
#else
  return llvm::Triple(M.getTargetTriple()).getArch();
#endif
}

inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 17
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

/// Runs \p AddPasses at the end of every default pipeline, -O0 included.
template <typename AddPassesFn>
void registerOptimizerLastEPCallback(llvm::PassBuilder &PB,
                                     AddPassesFn AddPasses) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [AddPasses](llvm::ModulePassManager &MPM, llvm::OptimizationLevel,
                  llvm::ThinOrFullLTOPhase) { AddPasses(MPM); });
#else
  PB.registerOptimizerLastEPCallback(
      [AddPasses](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
        AddPasses(MPM);
      });
#endif
}

/// Where in the special case lists the last entry `Prefix:<glob>=Category`
/// matching \p Query is, as (file, line), comparable: later is greater; (0, 0)
/// when none matches. Before LLVM 20 only the line is known.
inline std::pair<unsigned, unsigned>
blameSpecialCase(const llvm::SpecialCaseList &List, llvm::StringRef Section,
                 llvm::StringRef Prefix, llvm::StringRef Query,
                 llvm::StringRef Category) {
#if LLVM_VERSION_MAJOR >= 20
  return List.inSectionBlame(Section, Prefix, Query, Category);
#else
  return {0, List.inSectionBlame(Section, Prefix, Query, Category)};
#endif
}

/// Calls \p Fn(Location, Variable, Plain, IsDeclare) for each debug variable
/// record of \p F with a single location (Plain: its expression is empty,
/// the location is the variable itself): the intrinsics llvm.dbg.declare and
/// llvm.dbg.value until LLVM 19, and the records attached to instructions
/// that replaced them since (a module may still hold either there).
template <typename FnT> void forEachDebugVariable(llvm::Function &F, FnT Fn) {
  for (llvm::Instruction &I : llvm::instructions(F)) {
#if LLVM_VERSION_MAJOR >= 19
    for (llvm::DbgVariableRecord &R :
         llvm::filterDbgVars(I.getDbgRecordRange())) {
      bool Whole = R.getExpression()->getNumElements() == 0;
      // Assignment tracking (the default at -O1 and above) gives a
      // variable in memory its address in the records of its assignments.
      if (R.isDbgAssign())
        Fn(R.getAddress(), R.getVariable(),
           Whole && R.getAddressExpression()->getNumElements() == 0, true);
      else if (!R.hasArgList())
        Fn(R.getVariableLocationOp(0), R.getVariable(), Whole,
           R.isDbgDeclare());
    }
#endif
    if (auto *D = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&I))
      if (!D->hasArgList())
        Fn(D->getVariableLocationOp(0), D->getVariable(),
           D->getExpression()->getNumElements() == 0,
           llvm::isa<llvm::DbgDeclareInst>(D));
  }
}

/// The number of low bits of S that are zero whatever its operands
/// (LLVM 14 spells the method with a capital G).
inline uint32_t getMinTrailingZeros(llvm::ScalarEvolution &SE,
                                    const llvm::SCEV *S) {
#if LLVM_VERSION_MAJOR >= 17
  return SE.getMinTrailingZeros(S);
#else
  return SE.GetMinTrailingZeros(S);
#endif
}

} // namespace hrace::compat

#endif // HRACE_LLVM_PASS_HYBRIDRACECOMPAT_H
