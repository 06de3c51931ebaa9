//===-- HybridRaceWaitLoops.cpp - Mark condition-variable wait loops ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Three steps:
//  1. The wait functions are recognised by name: the pthread waits, and the
//     wait members of std::condition_variable, std::condition_variable_any
//     and libstdc++'s std::__condvar (demangled, inline namespaces ignored).
//  2. A summary over the module's call graph says which functions of the
//     module wait themselves: those that call a wait, or another function
//     that waits, outside any loop of their own. A function whose waits all
//     sit in loops (cv.wait(lock, pred) and the like) marks those loops and
//     is not a wait for its callers: the loop that orders the threads is the
//     one inside. Which parameters are the condition variable and the mutex
//     travels with the summary, so a helper such as
//     `wait_on(q) { pthread_cond_wait(&q->cv, &q->mu); }` still gives its
//     callers &q->cv and &q->mu.
//  3. The innermost loop around each wait gets __hrace_wait_loop_enter in its
//     preheader and __hrace_wait_loop_exit on each exit edge, with the
//     condition variable and mutex where they are available there, null
//     otherwise. Exits by exception are not marked: the wait did not
//     complete.
//  4. Polling loops get the same marks (with null pointers): a loop that
//     takes a lock, sleeps or yields (directly or through functions of the
//     module that do) and leaves on a condition computed in the loop from
//     shared memory or from a call (a predicate through a function pointer
//     or a virtual call). `for (;;) { lock; f = flag; unlock; if (f) break;
//     usleep(); }` waits for `flag` as surely as a condition wait does, and
//     is as invisible to a detector that only sees the locks. A loop whose
//     exit depends only on locals (a counter) is not polling.
//
// Pointers are described as a root value plus byte offsets, with at most one
// load in between (the mutex of a std::unique_lock is the pointer stored at
// its start). Roots are constants, arguments and instructions; the stack
// slots clang gives each parameter and local at -O0 are looked through when
// they are stored exactly once.
//
//===----------------------------------------------------------------------===//

#include "HybridRaceWaitLoops.h"
#include "HybridRaceCompat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

using namespace llvm;

namespace {

constexpr char MarkedModuleMD[] = "hrace.wait_loops";
constexpr char EnterName[] = "__hrace_wait_loop_enter";
constexpr char ExitName[] = "__hrace_wait_loop_exit";
constexpr char RuntimePrefix[] = "__hrace";

//===----------------------------------------------------------------------===//
// Wait functions known by name
//===----------------------------------------------------------------------===//

/// Which arguments of a known wait are the condition variable and the mutex.
/// The mutex is either the argument itself or, for a std::unique_lock, the
/// pointer stored at the start of the lock object.
struct KnownWait {
  int CvArg = -1;
  int MutexArg = -1;
  bool MutexInLock = false;
};

/// Removes blanks and the inline namespaces of libstdc++ (_V2) and libc++
/// (__1, __ndk1), so names compare the same for every standard library.
std::string normalizeCxxName(StringRef Name) {
  std::string Out;
  for (char C : Name)
    if (C != ' ')
      Out += C;
  for (const char *Inline : {"::_V2::", "::__1::", "::__ndk1::"}) {
    size_t Pos;
    while ((Pos = Out.find(Inline)) != std::string::npos)
      Out.replace(Pos, std::strlen(Inline), "::");
  }
  return Out;
}

/// The first parameter type of a demangled "(T1, T2, ...)" list.
std::string firstParameter(const std::string &Params) {
  if (Params.size() < 2 || Params.front() != '(')
    return "";
  int Depth = 0;
  for (size_t I = 1; I < Params.size(); ++I) {
    char C = Params[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if ((C == '>' || C == ']' || C == ')') && Depth > 0)
      --Depth;
    else if ((C == ',' || C == ')') && Depth == 0)
      return Params.substr(1, I - 1);
  }
  return "";
}

/// The parts of a mangled C++ function name the classification needs,
/// normalised: "std::condition_variable", "wait", "std::unique_lock<...>&".
struct CxxFunctionName {
  std::string Context, Base, FirstParam;
};

std::optional<CxxFunctionName> demangleFunction(StringRef Mangled) {
  ItaniumPartialDemangler Demangler;
  std::string Name = Mangled.str();
  // partialDemangle returns true on failure.
  if (Demangler.partialDemangle(Name.c_str()) || !Demangler.isFunction())
    return std::nullopt;
  auto Take = [](char *Buf) {
    std::string S = Buf ? normalizeCxxName(Buf) : std::string();
    std::free(Buf);
    return S;
  };
  size_t Size = 0;
  CxxFunctionName Result;
  Result.Context = Take(Demangler.getFunctionDeclContextName(nullptr, &Size));
  Result.Base = Take(Demangler.getFunctionBaseName(nullptr, &Size));
  Result.FirstParam =
      firstParameter(Take(Demangler.getFunctionParameters(nullptr, &Size)));
  return Result;
}

bool isWaitMemberName(StringRef Base) {
  return Base == "wait" || hrace::compat::startsWith(Base, "wait_") ||
         hrace::compat::startsWith(Base, "__wait") ||
         hrace::compat::startsWith(Base, "_M_wait") ||
         Base == "__do_timed_wait";
}

std::optional<KnownWait> classifyByName(const Function &F) {
  StringRef Name = F.getName();
  // pthread_cond_wait(cond, mutex), pthread_cond_timedwait(cond, mutex, t),
  // pthread_cond_clockwait(cond, mutex, clock, t); glibc renames the timed
  // ones where time_t is 64 bits on a 32-bit target.
  if (Name == "pthread_cond_wait" || Name == "pthread_cond_timedwait" ||
      Name == "pthread_cond_clockwait" ||
      Name == "__pthread_cond_timedwait64" ||
      Name == "__pthread_cond_clockwait64")
    return KnownWait{0, 1, false};

  // Only a mangled name that mentions a condition variable is worth
  // demangling.
  if (!hrace::compat::startsWith(Name, "_Z") ||
      (!Name.contains("condition_variable") && !Name.contains("__condvar")))
    return std::nullopt;
  std::optional<CxxFunctionName> Cxx = demangleFunction(Name);
  if (!Cxx)
    return std::nullopt;
  // Members take `this` first, after the result slot if there is one.
  int This =
      F.arg_size() > 0 && F.hasParamAttribute(0, Attribute::StructRet) ? 1 : 0;
  const std::string UniqueLock = "std::unique_lock<std::mutex>&";
  const std::string Mutex = "std::mutex&";
  if (Cxx->Context == "std::condition_variable" &&
      isWaitMemberName(Cxx->Base)) {
    // The object starts with its pthread_cond_t; the lock is always a
    // std::unique_lock<std::mutex>, whose first field points to the mutex.
    if (Cxx->FirstParam == UniqueLock)
      return KnownWait{This, This + 1, true};
    return KnownWait{This, -1, false};
  }
  if (Cxx->Context == "std::condition_variable_any" &&
      isWaitMemberName(Cxx->Base)) {
    // Waits on the condition_variable it starts with, under a mutex of its
    // own; the mutex the caller holds after the wait is the one of its lock,
    // whatever the lock type: known for the two common ones only.
    if (Cxx->FirstParam == UniqueLock)
      return KnownWait{This, This + 1, true};
    if (Cxx->FirstParam == Mutex)
      return KnownWait{This, This + 1, false};
    return KnownWait{This, -1, false};
  }
  // libstdc++'s wrapper of pthread_cond_t under std::condition_variable.
  if (Cxx->Context == "std::__condvar" &&
      (Cxx->Base == "wait" || Cxx->Base == "wait_until")) {
    if (Cxx->FirstParam == Mutex)
      return KnownWait{This, This + 1, false};
    return KnownWait{This, -1, false};
  }
  return std::nullopt;
}

/// Whether \p F takes a lock or gives up the processor for a while: a loop
/// that calls one until a condition holds is polling for the condition.
bool isLockOrPause(const Function &F) {
  static const StringRef Names[] = {"pthread_mutex_lock",
                                    "pthread_mutex_trylock",
                                    "pthread_mutex_timedlock",
                                    "pthread_mutex_clocklock",
                                    "pthread_rwlock_rdlock",
                                    "pthread_rwlock_tryrdlock",
                                    "pthread_rwlock_timedrdlock",
                                    "pthread_rwlock_clockrdlock",
                                    "pthread_rwlock_wrlock",
                                    "pthread_rwlock_trywrlock",
                                    "pthread_rwlock_timedwrlock",
                                    "pthread_rwlock_clockwrlock",
                                    "pthread_spin_lock",
                                    "pthread_spin_trylock",
                                    "mtx_lock",
                                    "mtx_trylock",
                                    "mtx_timedlock",
                                    "sched_yield",
                                    "pthread_yield",
                                    "thrd_yield",
                                    "usleep",
                                    "sleep",
                                    "nanosleep",
                                    "clock_nanosleep",
                                    "thrd_sleep"};
  StringRef Name = F.getName();
  if (is_contained(Names, Name))
    return true;
  // std::this_thread::sleep_for and sleep_until are templates that end in
  // libstdc++'s std::this_thread::__sleep_for; yield is inline.
  if (!hrace::compat::startsWith(Name, "_Z") || !Name.contains("this_thread"))
    return false;
  std::optional<CxxFunctionName> Cxx = demangleFunction(Name);
  return Cxx && Cxx->Context == "std::this_thread" &&
         (Cxx->Base == "__sleep_for" || Cxx->Base == "sleep_for" ||
          Cxx->Base == "sleep_until" || Cxx->Base == "yield");
}

//===----------------------------------------------------------------------===//
// Pointer descriptions
//===----------------------------------------------------------------------===//

/// A pointer computed from Root: Root + Offset, and if Load, the pointer
/// stored there, + OffsetAfterLoad. Loaded is the program's own load of that
/// pointer, when the path was traced through one in the function at hand: it
/// can stand in for the load where it is available.
struct PtrPath {
  Value *Root = nullptr;
  int64_t Offset = 0;
  bool Load = false;
  int64_t OffsetAfterLoad = 0;
  LoadInst *Loaded = nullptr;

  bool operator==(const PtrPath &Other) const {
    return Root == Other.Root && Offset == Other.Offset && Load == Other.Load &&
           OffsetAfterLoad == Other.OffsetAfterLoad;
  }
  bool operator!=(const PtrPath &Other) const { return !(*this == Other); }
};

/// What is known of the condition variable (or the mutex) of some waits:
/// nothing yet, the same pointer for all of them, or not one pointer.
struct PtrInfo {
  enum StateKind : uint8_t { None, Known, Unknown };
  StateKind State = None;
  PtrPath Path;

  static PtrInfo known(const PtrPath &Path) { return {Known, Path}; }
  static PtrInfo unknown() { return {Unknown, {}}; }

  void merge(const PtrInfo &Other) {
    if (Other.State == None || State == Unknown)
      return;
    if (State == None)
      *this = Other;
    else if (Other.State == Unknown || Other.Path != Path)
      *this = unknown();
  }
  bool operator==(const PtrInfo &Other) const {
    return State == Other.State && (State != Known || Path == Other.Path);
  }
  bool operator!=(const PtrInfo &Other) const { return !(*this == Other); }
};

/// Whether a function may block in a condition wait that no loop of its own
/// encloses, and if so, where the wait's pointers come from (rooted at the
/// function's arguments or at constants).
struct WaitSummary {
  bool Waits = false;
  PtrInfo Cv, Mutex;

  bool operator==(const WaitSummary &Other) const {
    return Waits == Other.Waits && Cv == Other.Cv && Mutex == Other.Mutex;
  }
  bool operator!=(const WaitSummary &Other) const { return !(*this == Other); }
};

/// The summary of \p F, a wait known by name; \p Known names pointer
/// arguments of \p F only.
WaitSummary summarizeKnownWait(Function &F, const KnownWait &Known) {
  WaitSummary Summary;
  Summary.Waits = true;
  Summary.Cv = Known.CvArg >= 0
                   ? PtrInfo::known({F.getArg(Known.CvArg), 0, false, 0})
                   : PtrInfo::unknown();
  Summary.Mutex =
      Known.MutexArg >= 0
          ? PtrInfo::known({F.getArg(Known.MutexArg), 0, Known.MutexInLock, 0})
          : PtrInfo::unknown();
  return Summary;
}

bool isRootOf(const Value *Root, const Function &F) {
  if (isa<Constant>(Root))
    return true;
  if (auto *Arg = dyn_cast<Argument>(Root))
    return Arg->getParent() == &F;
  return false;
}

//===----------------------------------------------------------------------===//
// The marker
//===----------------------------------------------------------------------===//

/// What the exit condition of a loop depends on.
struct ConditionSources {
  /// A load of memory other threads can reach, or a call's result.
  bool Shared = false;
  /// A local the loop updates from its own previous value: a counter.
  bool Counter = false;
};

class WaitLoopMarker {
public:
  WaitLoopMarker(Module &M, FunctionAnalysisManager &FAM)
      : M(M), FAM(FAM), DL(M.getDataLayout()), Ctx(M.getContext()),
        VoidPtrTy(hrace::compat::getVoidPtrTy(Ctx)) {}

  void summarize();
  bool markFunction(Function &F);

private:
  void summarizePolling();
  bool polls(const Function &Callee) const;
  void traceCondition(Value *V, const Loop &L, ConditionSources &Sources,
                      SmallPtrSetImpl<Value *> &Seen,
                      SmallPtrSetImpl<AllocaInst *> &Expanding);
  void traceBranchOf(BasicBlock *BB, const Loop &L, ConditionSources &Sources,
                     SmallPtrSetImpl<Value *> &Seen,
                     SmallPtrSetImpl<AllocaInst *> &Expanding);
  bool leavesOnSharedValue(const Loop &L);
  WaitSummary summarize(Function &F, bool TrustNames);
  std::optional<WaitSummary> getWaitSummary(const Function &Callee) const;
  Function *getCallee(const CallBase &Call) const;
  bool isInLoop(const CallBase &Call);

  StoreInst *getOnlyStore(AllocaInst &Slot);
  Value *getSlotValue(LoadInst &Load);
  PtrPath trace(Value *V);
  std::optional<PtrPath> composeAtCall(CallBase &Call, const PtrInfo &Info,
                                       const Function &Callee);
  PtrInfo describeAtCall(CallBase &Call, const PtrInfo &Info,
                         const Function &Callee, bool InCallerTerms);

  bool isInitializedBefore(AllocaInst &Slot, Instruction &Point, const Loop &L,
                           DominatorTree &DT);
  bool isSafeToLoad(Value *Root, int64_t Offset, Instruction &Point,
                    const Loop &L, DominatorTree &DT);
  Value *emitPointer(const PtrInfo &Info, Instruction &Point, const Loop &L,
                     DominatorTree &DT);
  void emitMark(FunctionCallee Callee, const PtrInfo &Cv, const PtrInfo &Mutex,
                Instruction &Point, const Loop &L, DominatorTree &DT);
  FunctionCallee getMarkFunction(const char *Name);

  Module &M;
  FunctionAnalysisManager &FAM;
  const DataLayout &DL;
  LLVMContext &Ctx;
  PointerType *VoidPtrTy;

  DenseMap<const Function *, WaitSummary> Summaries;
  /// The direct calls of each defined function to other functions of the
  /// module and to known waits, and who calls each function.
  DenseMap<const Function *, SmallVector<CallBase *, 4>> Calls;
  DenseMap<const Function *, SmallSetVector<Function *, 4>> Callers;
  DenseMap<const Function *, KnownWait> KnownWaits;
  DenseMap<AllocaInst *, StoreInst *> OnlyStores;
  /// Functions of the module that take a lock or pause, themselves or
  /// through their callees.
  SmallPtrSet<const Function *, 16> Pollers;
  DenseMap<const AllocaInst *, bool> CapturedSlots;
};

Function *WaitLoopMarker::getCallee(const CallBase &Call) const {
  auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
  if (!Callee || Callee->isIntrinsic() ||
      hrace::compat::startsWith(Callee->getName(), RuntimePrefix))
    return nullptr;
  return Callee;
}

std::optional<WaitSummary>
WaitLoopMarker::getWaitSummary(const Function &Callee) const {
  auto It = Summaries.find(&Callee);
  if (It == Summaries.end() || !It->second.Waits)
    return std::nullopt;
  return It->second;
}

bool WaitLoopMarker::isInLoop(const CallBase &Call) {
  Function &F = *const_cast<Function *>(Call.getFunction());
  return FAM.getResult<LoopAnalysis>(F).getLoopFor(Call.getParent());
}

/// The single store into a stack slot that is otherwise only loaded from:
/// what clang makes of each parameter and local at -O0.
StoreInst *WaitLoopMarker::getOnlyStore(AllocaInst &Slot) {
  auto [It, IsNew] = OnlyStores.try_emplace(&Slot, nullptr);
  if (!IsNew)
    return It->second;
  auto IsMarker = [](const User *U) {
    if (isa<DbgInfoIntrinsic>(U))
      return true;
    auto *II = dyn_cast<IntrinsicInst>(U);
    return II && (II->getIntrinsicID() == Intrinsic::lifetime_start ||
                  II->getIntrinsicID() == Intrinsic::lifetime_end);
  };
  StoreInst *Only = nullptr;
  for (const Use &U : Slot.uses()) {
    User *Usr = U.getUser();
    if (auto *Store = dyn_cast<StoreInst>(Usr)) {
      if (U.getOperandNo() != Store->getPointerOperandIndex() ||
          !Store->isSimple() || Only)
        return nullptr;
      Only = Store;
    } else if (auto *Load = dyn_cast<LoadInst>(Usr)) {
      if (!Load->isSimple())
        return nullptr;
    } else if (isa<BitCastInst>(Usr)) {
      // Typed pointers: lifetime markers take an i8*.
      if (!all_of(Usr->users(), IsMarker))
        return nullptr;
    } else if (!IsMarker(Usr)) {
      return nullptr;
    }
  }
  It->second = Only;
  return Only;
}

/// What \p Load reads when it reads a stack slot stored once, before it.
Value *WaitLoopMarker::getSlotValue(LoadInst &Load) {
  auto *Slot = dyn_cast<AllocaInst>(Load.getPointerOperand());
  if (!Slot || !Load.isSimple())
    return nullptr;
  StoreInst *Store = getOnlyStore(*Slot);
  if (!Store || Store->getValueOperand()->getType() != Load.getType())
    return nullptr;
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(*Load.getFunction());
  // The one store reaches every load it dominates: nothing else writes the
  // slot, and its value operand is redefined only on paths through it.
  return DT.dominates(Store, &Load) ? Store->getValueOperand() : nullptr;
}

/// Describes the pointer \p V as a root plus offsets and at most one load.
PtrPath WaitLoopMarker::trace(Value *V) {
  PtrPath Path;
  int64_t Offset = 0;
  for (unsigned Steps = 0; Steps < 64; ++Steps) {
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      if (!GEP->getType()->isPointerTy())
        break;
      APInt GEPOffset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, GEPOffset) ||
          !GEPOffset.isSignedIntN(64))
        break;
      Offset += GEPOffset.getSExtValue();
      V = GEP->getPointerOperand();
      continue;
    }
    if (auto *Cast = dyn_cast<BitCastOperator>(V)) {
      if (!Cast->getOperand(0)->getType()->isPointerTy())
        break;
      V = Cast->getOperand(0);
      continue;
    }
    if (auto *Load = dyn_cast<LoadInst>(V)) {
      if (Value *Stored = getSlotValue(*Load)) {
        V = Stored;
        continue;
      }
      if (!Path.Load && Load->isSimple() && Load->getType()->isPointerTy()) {
        Path.Load = true;
        Path.Loaded = Load;
        Path.OffsetAfterLoad = Offset;
        Offset = 0;
        V = Load->getPointerOperand();
        continue;
      }
    }
    break;
  }
  Path.Root = V;
  Path.Offset = Offset;
  return Path;
}

/// The pointer \p Info describes for \p Callee, in terms of the values of
/// the function that makes \p Call.
std::optional<PtrPath> WaitLoopMarker::composeAtCall(CallBase &Call,
                                                     const PtrInfo &Info,
                                                     const Function &Callee) {
  if (Info.State != PtrInfo::Known)
    return std::nullopt;
  PtrPath Inner = Info.Path;
  // Any load of the program's the path mentions is the callee's.
  Inner.Loaded = nullptr;
  if (isa<Constant>(Inner.Root))
    return Inner;
  auto *Param = dyn_cast<Argument>(Inner.Root);
  // A call through a mismatched type may not pass what the callee expects.
  if (!Param || Param->getParent() != &Callee ||
      Call.getFunctionType() != Callee.getFunctionType() ||
      Param->getArgNo() >= Call.arg_size())
    return std::nullopt;
  Value *Arg = Call.getArgOperand(Param->getArgNo());
  if (!Arg->getType()->isPointerTy() ||
      Arg->getType()->getPointerAddressSpace() != 0)
    return std::nullopt;
  PtrPath Outer = trace(Arg);
  if (!Inner.Load) {
    (Outer.Load ? Outer.OffsetAfterLoad : Outer.Offset) += Inner.Offset;
    return Outer;
  }
  if (Outer.Load)
    return std::nullopt;
  Outer.Offset += Inner.Offset;
  Outer.Load = true;
  Outer.OffsetAfterLoad = Inner.OffsetAfterLoad;
  return Outer;
}

/// \p Info of \p Callee at \p Call; in terms of the caller's arguments and
/// constants only if \p InCallerTerms, as a summary needs.
PtrInfo WaitLoopMarker::describeAtCall(CallBase &Call, const PtrInfo &Info,
                                       const Function &Callee,
                                       bool InCallerTerms) {
  std::optional<PtrPath> Path = composeAtCall(Call, Info, Callee);
  if (!Path || (InCallerTerms && !isRootOf(Path->Root, *Call.getFunction())))
    return PtrInfo::unknown();
  if (InCallerTerms)
    Path->Loaded = nullptr;
  return PtrInfo::known(*Path);
}

WaitSummary WaitLoopMarker::summarize(Function &F, bool TrustNames) {
  WaitSummary Summary;
  bool HasWait = false;
  for (CallBase *Call : Calls.lookup(&F)) {
    Function *Callee = getCallee(*Call);
    std::optional<WaitSummary> CalleeSummary =
        Callee ? getWaitSummary(*Callee) : std::nullopt;
    if (!CalleeSummary)
      continue;
    HasWait = true;
    // A wait inside a loop of F is that loop's business.
    if (isInLoop(*Call))
      continue;
    Summary.Waits = true;
    Summary.Cv.merge(describeAtCall(*Call, CalleeSummary->Cv, *Callee,
                                    /*InCallerTerms=*/true));
    Summary.Mutex.merge(describeAtCall(*Call, CalleeSummary->Mutex, *Callee,
                                       /*InCallerTerms=*/true));
  }
  // A known wait defined in the module (a template of the standard library)
  // is described by its name, which says where its pointers are better than
  // its body does (that goes through accessors such as unique_lock::mutex()).
  // Its body still decides whether it waits outside a loop: the forms with a
  // predicate loop themselves. A body where no wait is found at all (an
  // implementation the summary cannot see through) is trusted to wait, once
  // everything else is known.
  auto Known = KnownWaits.find(&F);
  if (Known != KnownWaits.end() && (Summary.Waits || (TrustNames && !HasWait)))
    return summarizeKnownWait(F, Known->second);
  return Summary;
}

void WaitLoopMarker::summarize() {
  for (Function &F : M) {
    std::optional<KnownWait> Known = classifyByName(F);
    if (!Known)
      continue;
    // Arguments that are not pointers cannot be the wait's objects.
    auto IsPointerArg = [&F](int Arg) {
      return Arg >= 0 && unsigned(Arg) < F.arg_size() &&
             F.getArg(Arg)->getType()->isPointerTy();
    };
    if (!IsPointerArg(Known->CvArg))
      Known->CvArg = -1;
    if (!IsPointerArg(Known->MutexArg))
      Known->MutexArg = -1;
    KnownWaits[&F] = *Known;
    if (F.isDeclaration())
      Summaries[&F] = summarizeKnownWait(F, *Known);
  }

  SetVector<Function *> Worklist;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Callee = Call ? getCallee(*Call) : nullptr;
      if (Callee && isLockOrPause(*Callee))
        Pollers.insert(&F);
      if (!Callee || (Callee->isDeclaration() && !Summaries.count(Callee)))
        continue;
      Calls[&F].push_back(Call);
      Callers[Callee].insert(&F);
    }
    if (Calls.count(&F))
      Worklist.insert(&F);
  }

  // Whether a function waits only ever goes from no to yes, and each pointer
  // from unset to known to unknown, so this ends.
  auto Propagate = [&](bool TrustNames) {
    while (!Worklist.empty()) {
      Function *F = Worklist.pop_back_val();
      WaitSummary New = summarize(*F, TrustNames);
      WaitSummary &Old = Summaries[F];
      if (New == Old)
        continue;
      Old = New;
      for (Function *Caller : Callers.lookup(F))
        Worklist.insert(Caller);
    }
  };
  Propagate(/*TrustNames=*/false);
  for (auto &[F, Known] : KnownWaits)
    if (!F->isDeclaration() && !Summaries.lookup(F).Waits)
      Worklist.insert(const_cast<Function *>(F));
  Propagate(/*TrustNames=*/true);
  summarizePolling();
}

/// Pollers holds the functions that call a lock or pause themselves; their
/// callers poll too.
void WaitLoopMarker::summarizePolling() {
  SmallVector<const Function *, 16> Worklist(Pollers.begin(), Pollers.end());
  while (!Worklist.empty()) {
    const Function *F = Worklist.pop_back_val();
    for (Function *Caller : Callers.lookup(F))
      if (Pollers.insert(Caller).second)
        Worklist.push_back(Caller);
  }
}

bool WaitLoopMarker::polls(const Function &Callee) const {
  return isLockOrPause(Callee) || Pollers.count(&Callee);
}

/// Traces \p V, computed in \p L, back to what it depends on. A local
/// whose address does not escape stands for what the loop stored into it,
/// and for the branches that chose which store ran: clang leaves a `break`
/// out of a scope with locals as a constant stored into a cleanup slot, and
/// a switch on it. A local whose stored value depends on itself is a
/// counter. \p Expanding holds the locals being traced through.
void WaitLoopMarker::traceCondition(Value *V, const Loop &L,
                                    ConditionSources &Sources,
                                    SmallPtrSetImpl<Value *> &Seen,
                                    SmallPtrSetImpl<AllocaInst *> &Expanding) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || Seen.size() >= 256)
    return;
  if (auto *Load = dyn_cast<LoadInst>(I)) {
    auto *Slot =
        dyn_cast<AllocaInst>(getUnderlyingObject(Load->getPointerOperand()));
    if (Slot && Expanding.count(Slot)) {
      Sources.Counter = true;
      return;
    }
    if (!Seen.insert(I).second)
      return;
    bool Local = false;
    if (Slot) {
      auto [It, IsNew] = CapturedSlots.try_emplace(Slot, false);
      if (IsNew)
        It->second = hrace::compat::mayBeCaptured(Slot);
      Local = !It->second;
    }
    if (!Local) {
      Sources.Shared = true;
      return;
    }
    Expanding.insert(Slot);
    for (User *U : Slot->users()) {
      auto *Store = dyn_cast<StoreInst>(U);
      if (!Store || Store->getPointerOperand() != Slot || !L.contains(Store))
        continue;
      traceCondition(Store->getValueOperand(), L, Sources, Seen, Expanding);
      for (BasicBlock *Pred : predecessors(Store->getParent()))
        traceBranchOf(Pred, L, Sources, Seen, Expanding);
    }
    Expanding.erase(Slot);
    return;
  }
  if (!Seen.insert(I).second)
    return;
  // llvm.expect and the like pass their operand through.
  if (isa<CallBase>(I) && !isa<IntrinsicInst>(I)) {
    Sources.Shared = true;
    return;
  }
  if (auto *Phi = dyn_cast<PHINode>(I))
    for (BasicBlock *In : Phi->blocks())
      traceBranchOf(In, L, Sources, Seen, Expanding);
  for (Value *Op : I->operands())
    traceCondition(Op, L, Sources, Seen, Expanding);
}

/// Traces the condition on which \p BB, in \p L, chooses where to go.
void WaitLoopMarker::traceBranchOf(BasicBlock *BB, const Loop &L,
                                   ConditionSources &Sources,
                                   SmallPtrSetImpl<Value *> &Seen,
                                   SmallPtrSetImpl<AllocaInst *> &Expanding) {
  if (!L.contains(BB))
    return;
  if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()))
    if (Br->isConditional())
      traceCondition(Br->getCondition(), L, Sources, Seen, Expanding);
  if (auto *Switch = dyn_cast<SwitchInst>(BB->getTerminator()))
    traceCondition(Switch->getCondition(), L, Sources, Seen, Expanding);
}

bool WaitLoopMarker::leavesOnSharedValue(const Loop &L) {
  // Whether V (on which an exit branches) comes from shared state and not
  // from a counter. `t < n && !flag` branches once on a phi of the two
  // halves; each incoming value, with the branch that chose it, counts.
  auto Polls = [&](Value *V) {
    auto Sources = [&](Value *From, BasicBlock *ChosenBy) {
      ConditionSources Found;
      SmallPtrSet<Value *, 32> Seen;
      SmallPtrSet<AllocaInst *, 4> Expanding;
      traceCondition(From, L, Found, Seen, Expanding);
      if (ChosenBy)
        traceBranchOf(ChosenBy, L, Found, Seen, Expanding);
      return Found.Shared && !Found.Counter;
    };
    auto *Phi = dyn_cast<PHINode>(V);
    if (!Phi || !L.contains(Phi))
      return Sources(V, nullptr);
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I)
      if (Sources(Phi->getIncomingValue(I), Phi->getIncomingBlock(I)))
        return true;
    return false;
  };
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  // One exit taken when shared state says so, and not when a counter runs
  // out: `while (!flag)`, or the flag half of `t < n && !flag`; not
  // `for (i = 0; i < shared->count; ++i)`.
  for (BasicBlock *BB : Exiting) {
    Instruction *Term = BB->getTerminator();
    Value *Cond = nullptr;
    if (auto *Br = dyn_cast<BranchInst>(Term))
      Cond = Br->isConditional() ? Br->getCondition() : nullptr;
    else if (auto *Switch = dyn_cast<SwitchInst>(Term))
      Cond = Switch->getCondition();
    if (Cond && Polls(Cond))
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Emitting the marks
//===----------------------------------------------------------------------===//

/// Whether the stack object \p Slot has been set up when \p Point runs: a
/// store into it or a call given it (a constructor, memcpy) runs before the
/// loop and before \p Point. An object constructed inside the loop holds
/// garbage at the loop's entry.
bool WaitLoopMarker::isInitializedBefore(AllocaInst &Slot, Instruction &Point,
                                         const Loop &L, DominatorTree &DT) {
  SmallVector<Value *, 8> Worklist{&Slot};
  SmallPtrSet<Value *, 8> Seen{&Slot};
  while (!Worklist.empty()) {
    Value *Ptr = Worklist.pop_back_val();
    for (Use &U : Ptr->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        continue;
      if (isa<GetElementPtrInst>(I) || isa<BitCastInst>(I)) {
        if (Seen.insert(I).second && Seen.size() < 64)
          Worklist.push_back(I);
        continue;
      }
      bool Initializes = false;
      if (auto *Store = dyn_cast<StoreInst>(I))
        Initializes = U.getOperandNo() == Store->getPointerOperandIndex();
      else if (auto *Call = dyn_cast<CallBase>(I))
        Initializes = Call->isArgOperand(&U) && !Call->isLifetimeStartOrEnd() &&
                      !isa<DbgInfoIntrinsic>(Call) &&
                      !(Call->getCalledFunction() &&
                        hrace::isWaitLoopMark(*Call->getCalledFunction()));
      if (Initializes && !L.contains(I) && I != &Point &&
          DT.dominates(I, &Point))
        return true;
    }
  }
  return false;
}

/// Whether a pointer can be loaded from \p Root + \p Offset at \p Point
/// without the program having done it: the object is a global, a live stack
/// object, or an argument that is dereferenceable that far.
bool WaitLoopMarker::isSafeToLoad(Value *Root, int64_t Offset,
                                  Instruction &Point, const Loop &L,
                                  DominatorTree &DT) {
  if (Offset < 0)
    return false;
  uint64_t Needed = uint64_t(Offset) + DL.getPointerSize();
  auto SizeOf = [this](Type *Ty) -> uint64_t {
    if (!Ty->isSized())
      return 0;
    TypeSize Size = DL.getTypeAllocSize(Ty);
    return Size.isScalable() ? 0 : Size.getFixedValue();
  };
  if (auto *GV = dyn_cast<GlobalVariable>(Root))
    return !GV->hasExternalWeakLinkage() &&
           SizeOf(GV->getValueType()) >= Needed;
  if (auto *Arg = dyn_cast<Argument>(Root))
    return Arg->getDereferenceableBytes() >= Needed;
  if (auto *Slot = dyn_cast<AllocaInst>(Root))
    return !Slot->isArrayAllocation() &&
           SizeOf(Slot->getAllocatedType()) >= Needed &&
           isInitializedBefore(*Slot, Point, L, DT);
  return false;
}

/// The alignment the objects isSafeToLoad accepts are known to have.
Align getKnownAlign(const Value *Root) {
  MaybeAlign Known;
  if (auto *GV = dyn_cast<GlobalVariable>(Root))
    Known = GV->getAlign();
  else if (auto *Arg = dyn_cast<Argument>(Root))
    Known = Arg->getParamAlign();
  else if (auto *Slot = dyn_cast<AllocaInst>(Root))
    Known = Slot->getAlign();
  return Known.valueOrOne();
}

/// Computes the pointer \p Info describes right before \p Point, or returns
/// null when its root is not available there or it cannot be loaded safely.
Value *WaitLoopMarker::emitPointer(const PtrInfo &Info, Instruction &Point,
                                   const Loop &L, DominatorTree &DT) {
  if (Info.State != PtrInfo::Known)
    return nullptr;
  const PtrPath &Path = Info.Path;
  Value *Root = Path.Root;
  if (!Root->getType()->isPointerTy() ||
      Root->getType()->getPointerAddressSpace() != 0)
    return nullptr;
  if (auto *Def = dyn_cast<Instruction>(Root)) {
    if (Def == &Point || !DT.dominates(Def, &Point))
      return nullptr;
  } else if (!isRootOf(Root, *Point.getFunction())) {
    return nullptr;
  }
  IRBuilder<> IRB(&Point);
  Type *Int8Ty = IRB.getInt8Ty();
  // The program's own load of the pointer, if it has run by then.
  if (Path.Load && Path.Loaded && Path.Loaded != &Point &&
      DT.dominates(Path.Loaded, &Point)) {
    Value *Ptr = IRB.CreatePointerCast(Path.Loaded, VoidPtrTy);
    if (Path.OffsetAfterLoad)
      Ptr = IRB.CreateGEP(Int8Ty, Ptr, IRB.getInt64(Path.OffsetAfterLoad));
    return Ptr;
  }
  if (Path.Load && !isSafeToLoad(Root, Path.Offset, Point, L, DT))
    return nullptr;
  Value *Ptr = Root;
  if (Path.Offset || !Path.Load)
    Ptr = IRB.CreatePointerCast(Ptr, VoidPtrTy);
  if (Path.Offset)
    Ptr = IRB.CreateGEP(Int8Ty, Ptr, IRB.getInt64(Path.Offset));
  if (!Path.Load)
    return Ptr;
  Ptr = IRB.CreatePointerCast(Ptr, hrace::compat::getVoidPtrPtrTy(Ctx));
  // Only ever passed to the runtime, which keeps the instrumentation off it.
  Ptr = IRB.CreateAlignedLoad(VoidPtrTy, Ptr,
                              commonAlignment(getKnownAlign(Root), Path.Offset),
                              "hrace.wait_mutex");
  if (Path.OffsetAfterLoad)
    Ptr = IRB.CreateGEP(Int8Ty, Ptr, IRB.getInt64(Path.OffsetAfterLoad));
  return Ptr;
}

FunctionCallee WaitLoopMarker::getMarkFunction(const char *Name) {
  Type *VoidTy = Type::getVoidTy(Ctx);
  // Like every runtime entry point: never throws.
  AttributeList NoUnwind =
      AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
  return M.getOrInsertFunction(
      Name, FunctionType::get(VoidTy, {VoidPtrTy, VoidPtrTy}, false), NoUnwind);
}

/// Where the marks of \p L point: the loop's start, if it lies in \p F.
DebugLoc getMarkLocation(const Loop &L, const Function &F) {
  DISubprogram *Subprogram = F.getSubprogram();
  if (!Subprogram)
    return DebugLoc();
  if (DebugLoc Start = L.getStartLoc()) {
    const DILocation *Outermost = Start.get();
    while (const DILocation *InlinedAt = Outermost->getInlinedAt())
      Outermost = InlinedAt;
    if (Outermost->getScope()->getSubprogram() == Subprogram)
      return Start;
  }
  return DILocation::get(F.getContext(), 0, 0, Subprogram);
}

void WaitLoopMarker::emitMark(FunctionCallee Callee, const PtrInfo &Cv,
                              const PtrInfo &Mutex, Instruction &Point,
                              const Loop &L, DominatorTree &DT) {
  Value *CvPtr = emitPointer(Cv, Point, L, DT);
  Value *MutexPtr = emitPointer(Mutex, Point, L, DT);
  Constant *Null = ConstantPointerNull::get(VoidPtrTy);
  IRBuilder<> IRB(&Point);
  IRB.SetCurrentDebugLocation(getMarkLocation(L, *Point.getFunction()));
  IRB.CreateCall(Callee, {CvPtr ? CvPtr : Null, MutexPtr ? MutexPtr : Null});
}

bool shouldMark(const Function &F) {
  return !F.isDeclaration() && !F.hasFnAttribute(Attribute::Naked) &&
         !F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) &&
         !hrace::compat::startsWith(F.getName(), RuntimePrefix);
}

struct WaitLoop {
  Loop *L;
  PtrInfo Cv, Mutex;
};

bool WaitLoopMarker::markFunction(Function &F) {
  if (!shouldMark(F))
    return false;
  // The innermost loop around each wait, in program order.
  SmallVector<std::pair<CallBase *, Function *>, 4> Waits;
  for (CallBase *Call : Calls.lookup(&F))
    if (Function *Callee = getCallee(*Call))
      if (getWaitSummary(*Callee))
        Waits.push_back({Call, Callee});
  SmallVector<CallBase *, 4> PollCalls;
  if (Pollers.count(&F))
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = getCallee(*Call))
          if (polls(*Callee))
            PollCalls.push_back(Call);
  if (Waits.empty() && PollCalls.empty())
    return false;
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  MapVector<Loop *, WaitLoop> Loops;
  for (auto [Call, Callee] : Waits) {
    Loop *L = LI.getLoopFor(Call->getParent());
    if (!L)
      continue;
    WaitLoop &Info = Loops.insert({L, WaitLoop{L, {}, {}}}).first->second;
    WaitSummary Summary = *getWaitSummary(*Callee);
    Info.Cv.merge(describeAtCall(*Call, Summary.Cv, *Callee,
                                 /*InCallerTerms=*/false));
    Info.Mutex.merge(describeAtCall(*Call, Summary.Mutex, *Callee,
                                    /*InCallerTerms=*/false));
  }
  // The innermost loop around each lock or pause that leaves on shared
  // state: it polls, and no pointer of a wait goes with it.
  for (CallBase *Call : PollCalls)
    for (Loop *L = LI.getLoopFor(Call->getParent()); L;
         L = L->getParentLoop()) {
      if (Loops.count(L))
        break;
      if (leavesOnSharedValue(*L)) {
        Loops.insert({L, WaitLoop{L, PtrInfo::unknown(), PtrInfo::unknown()}});
        break;
      }
    }
  if (Loops.empty())
    return false;

  FunctionCallee Enter = getMarkFunction(EnterName);
  FunctionCallee Exit = getMarkFunction(ExitName);

  // Entries first: a new preheader changes the edges into the loop, which
  // may be another loop's exits.
  for (auto &[L, Info] : Loops) {
    BasicBlock *Preheader = L->getLoopPreheader();
    // None can be made when the loop is entered by an indirectbr, or begins
    // with an exception handler.
    if (!Preheader && !L->getHeader()->isEHPad())
      Preheader = InsertPreheaderForLoop(L, &DT, &LI, /*MSSAU=*/nullptr,
                                         /*PreserveLCSSA=*/false);
    if (Preheader)
      emitMark(Enter, Info.Cv, Info.Mutex, *Preheader->getTerminator(), *L, DT);
  }

  // Every exit edge, once even when two marked loops share it (innermost
  // first). Exits by exception are left out. (A block that returns cannot
  // reach the loop's header again, so it is never inside the loop: a return
  // from the loop is an exit edge too.)
  MapVector<std::pair<BasicBlock *, BasicBlock *>, SmallVector<WaitLoop *, 1>>
      ExitEdges;
  SmallVector<WaitLoop *, 4> ByDepth;
  for (auto &Entry : Loops)
    ByDepth.push_back(&Entry.second);
  // Deepest first, in program order among equals (Loops keeps that order).
  for (size_t I = 1; I < ByDepth.size(); ++I)
    for (size_t J = I; J > 0 && ByDepth[J - 1]->L->getLoopDepth() <
                                    ByDepth[J]->L->getLoopDepth();
         --J)
      std::swap(ByDepth[J - 1], ByDepth[J]);
  for (WaitLoop *Info : ByDepth) {
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> Edges;
    Info->L->getExitEdges(Edges);
    for (auto &Edge : Edges) {
      auto &LoopsOnEdge = ExitEdges[Edge];
      if (!is_contained(LoopsOnEdge, Info))
        LoopsOnEdge.push_back(Info);
    }
  }

  for (auto &[Edge, LoopsOnEdge] : ExitEdges) {
    auto [From, To] = Edge;
    if (To->isEHPad())
      continue;
    Instruction *Point;
    if (To->getUniquePredecessor() == From) {
      Point = &*To->getFirstInsertionPt();
    } else if (From->getTerminator()->getNumSuccessors() == 1) {
      Point = From->getTerminator();
    } else {
      BasicBlock *Split = SplitCriticalEdge(
          From->getTerminator(), GetSuccessorNumber(From, To),
          CriticalEdgeSplittingOptions(&DT).setMergeIdenticalEdges(),
          "hrace.wait_loop_exit");
      // An edge out of an indirectbr or callbr cannot be split.
      if (!Split)
        continue;
      Point = Split->getTerminator();
    }
    for (WaitLoop *Info : LoopsOnEdge)
      emitMark(Exit, Info->Cv, Info->Mutex, *Point, *Info->L, DT);
  }
  return true;
}

} // namespace

bool hrace::isWaitLoopMark(const Function &F) {
  return F.getName() == EnterName || F.getName() == ExitName;
}

bool hrace::areWaitLoopsMarked(const Module &M) {
  return M.getNamedMetadata(MarkedModuleMD) != nullptr;
}

bool hrace::markWaitLoops(Module &M, FunctionAnalysisManager &FAM) {
  if (areWaitLoopsMarked(M))
    return false;
  M.getOrInsertNamedMetadata(MarkedModuleMD);
  WaitLoopMarker Marker(M, FAM);
  Marker.summarize();
  bool Changed = false;
  for (Function &F : M) {
    if (!Marker.markFunction(F))
      continue;
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  return Changed;
}

PreservedAnalyses hrace::WaitLoopPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  return markWaitLoops(M, FAM) ? PreservedAnalyses::none()
                               : PreservedAnalyses::all();
}
