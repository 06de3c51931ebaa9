//===-- HybridRacePass.cpp - Instrument memory accesses for HybridRace ----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each function is scanned first and rewritten afterwards, so no instruction
// the pass inserts is ever instrumented itself. The names and signatures of
// the runtime calls are those of runtime/hrace_interface.h.
//
//===----------------------------------------------------------------------===//

#include "HybridRacePass.h"
#include "HybridRaceCompat.h"
#include "HybridRaceNdr.h"
#include "HybridRaceWaitLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopAccessAnalysis.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SpecialCaseList.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/EscapeEnumerator.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <array>
#include <optional>
#include <string>

using namespace llvm;
using namespace hrace;

namespace {

constexpr char ModuleCtorName[] = "hrace.module_ctor";
constexpr char RuntimePrefix[] = "__hrace";

/// Accesses of 1, 2, 4, 8 and 16 bytes have their own entry points, indexed
/// by log2 of the size.
constexpr unsigned NumSizeClasses = 5;

std::optional<unsigned> getSizeClass(TypeSize Size) {
  if (Size.isScalable())
    return std::nullopt;
  uint64_t Bytes = Size.getFixedValue();
  if (!isPowerOf2_64(Bytes) || Log2_64(Bytes) >= NumSizeClasses)
    return std::nullopt;
  return Log2_64(Bytes);
}

/// Atomics of 1, 2, 4 and 8 bytes are performed by the runtime, indexed by
/// log2 of the size.
constexpr unsigned NumAtomicSizeClasses = 4;

/// The operations of the runtime's read-modify-write (HraceAtomicOp).
std::optional<unsigned> getRuntimeRMWOp(AtomicRMWInst::BinOp Op) {
  switch (Op) {
  case AtomicRMWInst::Xchg:
    return 0;
  case AtomicRMWInst::Add:
    return 1;
  case AtomicRMWInst::Sub:
    return 2;
  case AtomicRMWInst::And:
    return 3;
  case AtomicRMWInst::Nand:
    return 4;
  case AtomicRMWInst::Or:
    return 5;
  case AtomicRMWInst::Xor:
    return 6;
  case AtomicRMWInst::Max:
    return 7;
  case AtomicRMWInst::Min:
    return 8;
  case AtomicRMWInst::UMax:
    return 9;
  case AtomicRMWInst::UMin:
    return 10;
  case AtomicRMWInst::FAdd:
    return 11;
  case AtomicRMWInst::FSub:
    return 12;
  default:
    return std::nullopt;
  }
}

/// The C11 memory_order numbering of the runtime ABI.
enum C11Order { Relaxed = 0, Acquire = 2, Release = 3, AcqRel = 4, SeqCst = 5 };

C11Order toC11Order(AtomicOrdering Ordering) {
  switch (Ordering) {
  case AtomicOrdering::Acquire:
    return Acquire;
  case AtomicOrdering::Release:
    return Release;
  case AtomicOrdering::AcquireRelease:
    return AcqRel;
  case AtomicOrdering::SequentiallyConsistent:
    return SeqCst;
  default:
    // Unordered and monotonic promise atomicity only, like relaxed.
    return Relaxed;
  }
}

/// Globals that belong to the runtime, the compiler or coverage/profile
/// counters: their accesses are not the program's and are not reported.
bool isToolGlobal(const GlobalVariable &GV) {
  for (StringRef Prefix :
       {RuntimePrefix, "llvm.", "__llvm_gcov", "__profc_", "__profd_"})
    if (hrace::compat::startsWith(GV.getName(), Prefix))
      return true;
  return false;
}

// -fsanitize-ignorelist files, which the driver hands over with
// -mllvm -hrace-ignorelist=FILE (it loads the plugin early so that the option
// exists). Entries of the [thread] section, or of no section, count:
// ThreadSanitizer's ignore lists work unchanged.
cl::list<std::string> IgnoreListFiles(
    "hrace-ignorelist",
    cl::desc("sanitizer ignore list: memory accesses of matching functions "
             "(fun:) and files (src:) are not checked"));

constexpr const char *IgnoreListSection = "thread";

// Set by the driver, which compiles with ThreadSanitizer's front-end flag on
// so that clang marks every function sanitize_thread except those declared
// no_sanitize("thread") (tools/hrace-driver.cpp says why). Without it (the
// plugin loaded by hand) no function carries the mark and all are checked.
cl::opt<bool> HonourNoSanitizeThread(
    "hrace-honour-no-sanitize-thread",
    cl::desc("functions without the sanitize_thread attribute "
             "(no_sanitize(\"thread\")) keep their synchronisation and frame "
             "but their memory accesses are not checked"),
    cl::init(false));

// Two adjacent plain accesses checked once, inline as one access and then
// half by half (docs/design.md, step 2): a granule whose two halves are
// re-stamped together changes its cell once. Needs the inline test.
cl::opt<bool> CoalesceAdjacent(
    "hrace-coalesce-adjacent",
    cl::desc("check two adjacent plain accesses of up to 4 bytes each, of one "
             "basic block and line, with nothing between them that could "
             "synchronise, once: as one access of twice the size where one "
             "shadow cell holds both (x86-64)"),
    cl::init(true));

// The runtime's no-op test of an aligned access of up to 8 bytes, made
// inline before its call (runtime/hrace_interface.h, __hrace_inline_test):
// an access that changes nothing, most of them, costs a load of its shadow
// cell and a compare instead of a call. x86-64 only: AArch64 picks its
// shadow layout at start-up.
cl::opt<bool> InlineNoopTest(
    "hrace-inline-checks",
    cl::desc("test inline whether an access changes its shadow cell, and "
             "call the runtime only if it may (x86-64)"),
    cl::init(true));

/// The x86-64 granule mapping of runtime/hrace_interface.h.
constexpr uint64_t GranuleBase = 0x580000000000ull;
constexpr uint64_t GranuleIndexMask = 0x1ffffffffff0ull;

std::unique_ptr<SpecialCaseList> loadIgnoreLists() {
  if (IgnoreListFiles.empty())
    return nullptr;
  return SpecialCaseList::createOrDie(
      std::vector<std::string>(IgnoreListFiles.begin(), IgnoreListFiles.end()),
      *vfs::getRealFileSystem());
}

/// Whether a `Prefix:` entry of the lists excludes \p Query. As clang reads
/// them for ThreadSanitizer: an entry with no category excludes, unless a
/// later `=sanitize` entry matches too (`fun:*` then `fun:Hot=sanitize`);
/// entries of other categories (`=init`, ASan's) are for other sanitizers.
bool isIgnoredBy(const SpecialCaseList &Ignore, StringRef Prefix,
                 StringRef Query) {
  auto Excluded = hrace::compat::blameSpecialCase(Ignore, IgnoreListSection,
                                                  Prefix, Query, "");
  auto Included = hrace::compat::blameSpecialCase(Ignore, IgnoreListSection,
                                                  Prefix, Query, "sanitize");
  return Excluded != std::make_pair(0u, 0u) && Excluded > Included;
}

/// Whether the ignore lists exclude F's accesses (its synchronisation and
/// its frame stay, as ThreadSanitizer keeps them).
bool isIgnored(const SpecialCaseList *Ignore, const Function &F) {
  if (F.hasFnAttribute(hrace::IgnoredAttr))
    return true;
  if (HonourNoSanitizeThread && !F.hasFnAttribute(Attribute::SanitizeThread))
    return true;
  if (!Ignore)
    return false;
  return isIgnoredBy(*Ignore, "fun", F.getName()) ||
         isIgnoredBy(*Ignore, "src", F.getParent()->getSourceFileName());
}

bool shouldInstrument(const Function &F) {
  if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
      F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return false;
  // The runtime's own helpers must not report their bookkeeping.
  return !hrace::compat::startsWith(F.getName(), RuntimePrefix);
}

bool isInDefaultAddressSpace(const Value *Ptr) {
  return Ptr->getType()->getPointerAddressSpace() == 0;
}

/// The type a plain load reads or a plain store writes.
Type *getPlainAccessType(Instruction &I) {
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getValueOperand()->getType();
  return cast<LoadInst>(I).getType();
}

/// The pointer a load, store, atomic or masked vector access goes through.
Value *getAccessedPointer(Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getPointerOperand();
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getPointerOperand();
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I))
    return CmpXchg->getPointerOperand();
  if (auto *Call = dyn_cast<IntrinsicInst>(&I)) {
    if (Call->getIntrinsicID() == Intrinsic::masked_load)
      return Call->getArgOperand(0);
    if (Call->getIntrinsicID() == Intrinsic::masked_store)
      return Call->getArgOperand(1);
  }
  return nullptr;
}

/// Whether every use of \p I, through phis, selects, casts and address
/// arithmetic, is an argument of a wait-loop mark. (Not of any runtime call:
/// a pointer the program loads and hands to an annotation is the program's.)
bool feedsOnlyWaitLoopMarks(const Instruction &I) {
  SmallVector<const Value *, 8> Worklist{&I};
  SmallPtrSet<const Value *, 8> Seen{&I};
  bool HasUse = false;
  while (!Worklist.empty()) {
    const Value *V = Worklist.pop_back_val();
    for (const User *U : V->users()) {
      HasUse = true;
      if (isa<PHINode>(U) || isa<SelectInst>(U) || isa<CastInst>(U) ||
          isa<GetElementPtrInst>(U)) {
        if (Seen.insert(U).second) {
          if (Seen.size() > 32)
            return false;
          Worklist.push_back(U);
        }
        continue;
      }
      const auto *Call = dyn_cast<CallBase>(U);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      // Only as an argument: a call through the value has no called function.
      if (!Callee || !hrace::isWaitLoopMark(*Callee))
        return false;
    }
  }
  return HasUse;
}

/// Instruments the functions of one module. Holds the runtime declarations
/// and the capture results, which stay valid for the whole module.
class Instrumenter {
public:
  /// FAM: where the pairing of adjacent accesses gets scalar evolution.
  Instrumenter(Module &M, FunctionAnalysisManager &FAM);

  void instrumentFunction(Function &F, bool IgnoreAccesses = false);
  void addModuleCtor();

private:
  FunctionCallee declare(const std::string &Name, Type *Result,
                         ArrayRef<Type *> Params);
  bool mayRace(const Value *Ptr);
  bool isCaptured(const AllocaInst *Alloca);
  bool shouldReplace(const MemIntrinsic &MemOp);

  DebugLoc getLocation(const Instruction &I) const;
  void setInsertPointBefore(Instruction &I);
  void setInsertPointAfter(Instruction &I);
  Value *createAddress(Value *Ptr);
  Value *createByteCount(Type *AccessTy);
  Constant *createOrder(AtomicOrdering Ordering);

  void instrumentAccess(Instruction &I);
  void instrumentPlainAccess(Instruction &I, Value *Ptr, Type *AccessTy,
                             Align Alignment, bool IsWrite);
  void pairAdjacentAccesses(Function &F, ArrayRef<Instruction *> Accesses,
                            ScalarEvolution &SE);
  /// SecondLower: the access paired with First has the lower address.
  void instrumentPlainPair(Instruction &First, bool SecondLower);
  void createCheckedAccessCall(Instruction &I, Value *Addr, unsigned SizeClass,
                               bool IsWrite, FunctionCallee Callee);
  /// __hrace_inline_test's two tests (mask, value) for reads or writes.
  using InlineTestValues = std::array<std::array<Value *, 2>, 2>;
  InlineTestValues loadInlineTests(bool IsWrite);
  /// The bits of the shadow cells of the access at A of SizeClass that fail
  /// the inline test: zero when the access changes nothing. Tests are
  /// loaded here the first time, after the access's spread mask.
  Value *createWrongBits(Value *A, unsigned SizeClass, bool IsWrite,
                         std::optional<InlineTestValues> &Tests);
  /// Before `Before`: a call of Callee(Addr) for the access I when
  /// WrongBits is not zero.
  void createCallIfWrong(Instruction &Before, Instruction &I, Value *WrongBits,
                         FunctionCallee Callee, Value *Addr);
  Value *createSpreadMask(Value *A, unsigned SizeClass);
  void instrumentMaskedAccess(IntrinsicInst &I);
  std::optional<unsigned> getAtomicSizeClass(Type *ValueTy, Align Alignment);
  Value *createAtomicValue(Value *V);
  Value *createFromAtomicValue(Value *V, Type *Ty);
  void instrumentAtomicLoad(LoadInst &Load);
  void instrumentAtomicStore(StoreInst &Store);
  bool isVtablePointerStore(StoreInst &Store);
  void instrumentVptrUpdate(StoreInst &Store);
  static bool usesPthreadResult(const CallBase &Call);
  void markResultChecked(CallBase &Call);
  void instrumentAtomicRMW(AtomicRMWInst &RMW);
  void instrumentCmpXchg(AtomicCmpXchgInst &CmpXchg);
  void instrumentFence(FenceInst &Fence);
  void replaceMemIntrinsic(MemIntrinsic &MemOp);
  void instrumentEntryAndExits(Function &F);
  /// -hrace-ndr: the loads of each block that read one run of bytes
  /// between the same writes, on one line, read as one (NdrRunFirst).
  void coalesceNdrReads(Function &F,
                        const SmallPtrSetImpl<Instruction *> &Checked);
  void instrumentNdrAccess(Instruction &I, Value *Ptr, Value *Size,
                           bool IsWrite);
  /// The checker of non-deterministic reads' call for an access of a pair,
  /// whose check of races instrumentPlainPair made.
  void instrumentNdrOfPaired(Instruction &I);
  Constant *createNdrName(Value *Ptr, uint64_t AccessSize);

  Module &M;
  const DataLayout &DL;
  LLVMContext &Ctx;
  PointerType *VoidPtrTy;
  IntegerType *IntptrTy;
  IntegerType *IntTy;
  IRBuilder<> IRB;
  /// Where inserted calls of the current function point when the instruction
  /// they belong to has no location: line 0 of its subprogram, if it has one.
  DebugLoc FunctionLoc;
  DenseMap<const AllocaInst *, bool> CapturedAllocas;
  /// Plain accesses of the current function checked as one with the access
  /// they are paired with (pairAdjacentAccesses): the first of each pair,
  /// checked for both (with whether the second has the lower address), and
  /// the second, whose own check is left out.
  DenseMap<Instruction *, bool> PairedFirst;
  SmallPtrSet<Instruction *, 16> CheckedWithPair;
  /// -hrace-ndr: the loads each store of the current function depends on,
  /// the names of its variables, and the module's name strings.
  NdrDependencies NdrDeps;
  /// The bytes a run of coalesceNdrReads reads.
  struct NdrReadRun {
    /// The load whose pointer the run's bytes are counted from (its
    /// operand, not the pointer itself: instrumenting an atomic load that
    /// computed the pointer replaces it).
    LoadInst *Anchor;
    int64_t Offset;
    uint64_t Size;
  };
  /// The first load of each run, with the run's bytes, and the run's other
  /// loads, which make no call.
  DenseMap<Instruction *, NdrReadRun> NdrRunFirst;
  SmallPtrSet<Instruction *, 16> NdrInRun;
  std::optional<NdrVariableNames> NdrNames;
  StringMap<Constant *> NdrNameStrings;

  FunctionCallee Init;
  FunctionCallee Read[NumSizeClasses], Write[NumSizeClasses];
  FunctionCallee UnalignedRead[NumSizeClasses], UnalignedWrite[NumSizeClasses];
  /// __hrace_read4_pair and so on: two adjacent accesses of the size class
  /// (up to 4 bytes) whose check failed inline (instrumentPlainPair).
  FunctionCallee ReadPair[3], WritePair[3];
  FunctionCallee ReadRange, WriteRange;
  FunctionCallee VptrUpdate;
  FunctionCallee ResultChecked;
  FunctionCallee FuncEntry, FuncExit;
  FunctionCallee AtomicLoadN[NumAtomicSizeClasses];
  FunctionCallee AtomicStoreN[NumAtomicSizeClasses];
  FunctionCallee AtomicRMWN[NumAtomicSizeClasses];
  FunctionCallee AtomicCASN[NumAtomicSizeClasses];
  FunctionCallee AtomicLoad, AtomicStore, AtomicRMWBegin, AtomicRMWEnd;
  FunctionCallee AtomicFence;
  FunctionCallee Memcpy, Memmove, Memset;
  FunctionCallee NdrModuleInit, NdrRead, NdrWrite, NdrDep;
  Function *ReturnAddress;
  /// __hrace_inline_test, when the inline test is made (x86-64).
  GlobalVariable *InlineTest = nullptr;
  IntegerType *Int64Ty;
  FunctionAnalysisManager &FAM;
};

Instrumenter::Instrumenter(Module &M, FunctionAnalysisManager &FAM)
    : M(M), DL(M.getDataLayout()), Ctx(M.getContext()),
      VoidPtrTy(hrace::compat::getVoidPtrTy(Ctx)),
      IntptrTy(DL.getIntPtrType(Ctx)), IntTy(Type::getInt32Ty(Ctx)), IRB(Ctx),
      Int64Ty(Type::getInt64Ty(Ctx)), FAM(FAM) {
  Type *VoidTy = Type::getVoidTy(Ctx);
  Init = declare("__hrace_init", VoidTy, {});
  for (unsigned SizeClass = 0; SizeClass < NumSizeClasses; ++SizeClass) {
    std::string Bytes = std::to_string(1u << SizeClass);
    Read[SizeClass] = declare("__hrace_read" + Bytes, VoidTy, {VoidPtrTy});
    Write[SizeClass] = declare("__hrace_write" + Bytes, VoidTy, {VoidPtrTy});
    if (SizeClass < 3) {
      ReadPair[SizeClass] =
          declare("__hrace_read" + Bytes + "_pair", VoidTy, {VoidPtrTy});
      WritePair[SizeClass] =
          declare("__hrace_write" + Bytes + "_pair", VoidTy, {VoidPtrTy});
    }
    // A single byte is always aligned: there is no unaligned 1-byte call.
    if (SizeClass == 0)
      continue;
    UnalignedRead[SizeClass] =
        declare("__hrace_unaligned_read" + Bytes, VoidTy, {VoidPtrTy});
    UnalignedWrite[SizeClass] =
        declare("__hrace_unaligned_write" + Bytes, VoidTy, {VoidPtrTy});
  }
  ReadRange = declare("__hrace_read_range", VoidTy, {VoidPtrTy, IntptrTy});
  WriteRange = declare("__hrace_write_range", VoidTy, {VoidPtrTy, IntptrTy});
  VptrUpdate = declare("__hrace_vptr_update", VoidTy, {VoidPtrTy, VoidPtrTy});
  FuncEntry = declare("__hrace_func_entry", VoidTy, {VoidPtrTy});
  FuncExit = declare("__hrace_func_exit", VoidTy, {});
  Type *Int64Ty = Type::getInt64Ty(Ctx);
  for (unsigned SizeClass = 0; SizeClass < NumAtomicSizeClasses; ++SizeClass) {
    std::string Bytes = std::to_string(1u << SizeClass);
    AtomicLoadN[SizeClass] =
        declare("__hrace_atomic_load" + Bytes, Int64Ty, {VoidPtrTy, IntTy});
    AtomicStoreN[SizeClass] = declare("__hrace_atomic_store" + Bytes, VoidTy,
                                      {VoidPtrTy, Int64Ty, IntTy});
    AtomicRMWN[SizeClass] = declare("__hrace_atomic_rmw" + Bytes, Int64Ty,
                                    {VoidPtrTy, Int64Ty, IntTy, IntTy});
    AtomicCASN[SizeClass] =
        declare("__hrace_atomic_cas" + Bytes, Int64Ty,
                {VoidPtrTy, Int64Ty, Int64Ty, IntTy, IntTy});
  }
  AtomicLoad =
      declare("__hrace_atomic_load", VoidTy, {VoidPtrTy, IntptrTy, IntTy});
  AtomicStore =
      declare("__hrace_atomic_store", VoidTy, {VoidPtrTy, IntptrTy, IntTy});
  AtomicRMWBegin =
      declare("__hrace_atomic_rmw_begin", VoidTy, {VoidPtrTy, IntptrTy, IntTy});
  AtomicRMWEnd =
      declare("__hrace_atomic_rmw_end", VoidTy, {VoidPtrTy, IntptrTy, IntTy});
  AtomicFence = declare("__hrace_atomic_fence", VoidTy, {IntTy});
  ResultChecked = declare("__hrace_result_checked", VoidTy, {VoidPtrTy});
  Memcpy =
      declare("__hrace_memcpy", VoidPtrTy, {VoidPtrTy, VoidPtrTy, IntptrTy});
  Memmove =
      declare("__hrace_memmove", VoidPtrTy, {VoidPtrTy, VoidPtrTy, IntptrTy});
  Memset = declare("__hrace_memset", VoidPtrTy, {VoidPtrTy, IntTy, IntptrTy});
  if (InstrumentNdr) {
    NdrModuleInit = declare("__hrace_ndr_module_init", VoidTy, {});
    NdrRead = declare("__hrace_ndr_read", VoidTy, {VoidPtrTy, IntptrTy});
    NdrWrite = declare("__hrace_ndr_write", VoidTy,
                       {VoidPtrTy, IntptrTy, VoidPtrTy, VoidPtrTy});
    NdrDep = declare("__hrace_ndr_dep", VoidTy, {VoidPtrTy, IntTy, VoidPtrTy});
  }
  ReturnAddress = hrace::compat::getIntrinsic(M, Intrinsic::returnaddress);
  if (InlineNoopTest &&
      hrace::compat::getTargetArch(M) == Triple::ArchType::x86_64) {
    auto *TestTy = ArrayType::get(Int64Ty, 8);
    InlineTest = dyn_cast<GlobalVariable>(
        M.getOrInsertGlobal("__hrace_inline_test", TestTy));
    if (InlineTest) {
      InlineTest->setThreadLocalMode(GlobalVariable::InitialExecTLSModel);
      InlineTest->setAlignment(Align(8));
    }
  }
}

FunctionCallee Instrumenter::declare(const std::string &Name, Type *Result,
                                     ArrayRef<Type *> Params) {
  // The runtime never throws. Saying so keeps EscapeEnumerator from wrapping
  // these calls in invokes with cleanup pads.
  AttributeList NoUnwind =
      AttributeList().addFnAttribute(Ctx, Attribute::NoUnwind);
  return M.getOrInsertFunction(
      Name, FunctionType::get(Result, Params, /*isVarArg=*/false), NoUnwind);
}

bool Instrumenter::mayRace(const Value *Ptr) {
  // The runtime takes generic `void *`; other address spaces are not memory
  // it tracks.
  if (!isInDefaultAddressSpace(Ptr))
    return false;
  // A swifterror slot is a register in disguise: it may only be loaded,
  // stored or passed as a swifterror argument, never to the runtime.
  if (Ptr->isSwiftError())
    return false;
  const Value *Object = getUnderlyingObject(Ptr);
  // Read-only data is never written, so reading it cannot race.
  if (auto *Global = dyn_cast<GlobalVariable>(Object))
    return !Global->isConstant() && !isToolGlobal(*Global);
  if (auto *Alloca = dyn_cast<AllocaInst>(Object))
    return isCaptured(Alloca);
  return true;
}

bool Instrumenter::isCaptured(const AllocaInst *Alloca) {
  // Asked of the whole object, not of the accessed field: the address of one
  // field escaping lets another thread reach all of them.
  auto [Entry, IsNew] = CapturedAllocas.try_emplace(Alloca, false);
  if (IsNew)
    Entry->second = hrace::compat::mayBeCaptured(Alloca);
  return Entry->second;
}

bool Instrumenter::shouldReplace(const MemIntrinsic &MemOp) {
  const Value *Dest = MemOp.getRawDest();
  const auto *Transfer = dyn_cast<MemTransferInst>(&MemOp);
  const Value *Source = Transfer ? Transfer->getRawSource() : nullptr;
  // The runtime's replacement takes generic pointers only.
  if (!isInDefaultAddressSpace(Dest) ||
      (Source && !isInDefaultAddressSpace(Source)))
    return false;
  return mayRace(Dest) || (Source && mayRace(Source));
}

DebugLoc Instrumenter::getLocation(const Instruction &I) const {
  return I.getDebugLoc() ? I.getDebugLoc() : FunctionLoc;
}

void Instrumenter::setInsertPointBefore(Instruction &I) {
  IRB.SetInsertPoint(&I);
  IRB.SetCurrentDebugLocation(getLocation(I));
}

void Instrumenter::setInsertPointAfter(Instruction &I) {
  IRB.SetInsertPoint(I.getNextNode());
  IRB.SetCurrentDebugLocation(getLocation(I));
}

Value *Instrumenter::createAddress(Value *Ptr) {
  return IRB.CreatePointerCast(Ptr, VoidPtrTy);
}

Value *Instrumenter::createByteCount(Type *AccessTy) {
  return hrace::compat::createByteCount(IRB, IntptrTy,
                                        DL.getTypeStoreSize(AccessTy));
}

Constant *Instrumenter::createOrder(AtomicOrdering Ordering) {
  return ConstantInt::get(IntTy, toC11Order(Ordering));
}

void Instrumenter::instrumentFunction(Function &F, bool IgnoreAccesses) {
  if (!shouldInstrument(F))
    return;

  SmallVector<Instruction *, 16> Accesses;
  SmallVector<MemIntrinsic *, 4> MemOps;
  SmallVector<CallBase *, 4> CheckedCalls;
  bool HasCalls = false;
  for (Instruction &I : instructions(F)) {
    // A plain load whose value only reaches the wait-loop marks is theirs
    // (the mutex of a std::unique_lock).
    if (auto *Load = dyn_cast<LoadInst>(&I))
      if (Load->isSimple() && feedsOnlyWaitLoopMarks(*Load))
        continue;
    if (Value *Ptr = getAccessedPointer(I)) {
      bool Plain = (isa<LoadInst>(I) && !cast<LoadInst>(I).isAtomic()) ||
                   (isa<StoreInst>(I) && !cast<StoreInst>(I).isAtomic()) ||
                   isa<IntrinsicInst>(I);
      if (mayRace(Ptr) && !(IgnoreAccesses && Plain))
        Accesses.push_back(&I);
    } else if (auto *Fence = dyn_cast<FenceInst>(&I)) {
      // A single-thread fence orders against signal handlers only.
      if (Fence->getSyncScopeID() != SyncScope::SingleThread)
        Accesses.push_back(&I);
    } else if (isa<MemSetInst>(I) || isa<MemTransferInst>(I)) {
      if (!IgnoreAccesses && shouldReplace(cast<MemIntrinsic>(I)))
        MemOps.push_back(cast<MemIntrinsic>(&I));
    } else if (isa<CallBase>(I) && !isa<IntrinsicInst>(I)) {
      HasCalls = true;
      if (usesPthreadResult(cast<CallBase>(I)))
        CheckedCalls.push_back(&cast<CallBase>(I));
    }
  }

  FunctionLoc = DebugLoc();
  if (DISubprogram *Subprogram = F.getSubprogram())
    FunctionLoc = DILocation::get(Ctx, 0, 0, Subprogram);
  NdrDeps.clear();
  NdrNames.reset();
  NdrRunFirst.clear();
  NdrInRun.clear();
  if (InstrumentNdr) {
    SmallPtrSet<Instruction *, 16> Checked(Accesses.begin(), Accesses.end());
    NdrDeps = computeNdrDependencies(F, Checked);
    NdrNames.emplace(F, DL);
    coalesceNdrReads(F, Checked);
  }

  PairedFirst.clear();
  CheckedWithPair.clear();
  if (CoalesceAdjacent && InlineTest)
    pairAdjacentAccesses(F, Accesses,
                         FAM.getResult<ScalarEvolutionAnalysis>(F));
  for (Instruction *I : Accesses) {
    // A pair is checked for races once, but each of its accesses is its
    // own read or write to the checker of non-deterministic reads. Its call
    // may lie between the pair's check and the second access: it neither
    // synchronises nor changes the lock set, so the pair stays in one
    // segment.
    if (CheckedWithPair.count(I)) {
      if (InstrumentNdr)
        instrumentNdrOfPaired(*I);
      continue;
    }
    auto Pair = PairedFirst.find(I);
    if (Pair == PairedFirst.end()) {
      instrumentAccess(*I);
      continue;
    }
    instrumentPlainPair(*I, Pair->second);
    if (InstrumentNdr)
      instrumentNdrOfPaired(*I);
  }
  for (MemIntrinsic *MemOp : MemOps)
    replaceMemIntrinsic(*MemOp);
  for (CallBase *Call : CheckedCalls)
    markResultChecked(*Call);
  // A function that neither reaches the runtime nor calls anything never
  // appears in a report's stack, so it needs no shadow frame.
  if (!Accesses.empty() || !MemOps.empty() || HasCalls)
    instrumentEntryAndExits(F);
}

void Instrumenter::instrumentAccess(Instruction &I) {
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    if (Load->isAtomic())
      instrumentAtomicLoad(*Load);
    else
      instrumentPlainAccess(I, Load->getPointerOperand(), Load->getType(),
                            Load->getAlign(), /*IsWrite=*/false);
  } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
    if (Store->isAtomic())
      instrumentAtomicStore(*Store);
    else if (isVtablePointerStore(*Store))
      instrumentVptrUpdate(*Store);
    else
      instrumentPlainAccess(I, Store->getPointerOperand(),
                            Store->getValueOperand()->getType(),
                            Store->getAlign(), /*IsWrite=*/true);
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    instrumentAtomicRMW(*RMW);
  } else if (auto *CmpXchg = dyn_cast<AtomicCmpXchgInst>(&I)) {
    instrumentCmpXchg(*CmpXchg);
  } else if (auto *Fence = dyn_cast<FenceInst>(&I)) {
    instrumentFence(*Fence);
  } else {
    instrumentMaskedAccess(cast<IntrinsicInst>(I));
  }
}

void Instrumenter::instrumentPlainAccess(Instruction &I, Value *Ptr,
                                         Type *AccessTy, Align Alignment,
                                         bool IsWrite) {
  setInsertPointBefore(I);
  Value *Addr = createAddress(Ptr);
  TypeSize Size = DL.getTypeStoreSize(AccessTy);
  if (std::optional<unsigned> SizeClass = getSizeClass(Size)) {
    bool IsAligned = Alignment.value() >= Size.getFixedValue();
    FunctionCallee *Callees = IsAligned
                                  ? (IsWrite ? Write : Read)
                                  : (IsWrite ? UnalignedWrite : UnalignedRead);
    // Up to 8 aligned bytes lie in one granule; 16 bytes aligned to 8 (a
    // vector of two doubles) cover two whole ones.
    bool InGranules = *SizeClass <= 3 ? IsAligned : Alignment.value() >= 8;
    if (InGranules && InlineTest)
      createCheckedAccessCall(I, Addr, *SizeClass, IsWrite,
                              Callees[*SizeClass]);
    else
      IRB.CreateCall(Callees[*SizeClass], Addr);
  } else {
    IRB.CreateCall(IsWrite ? WriteRange : ReadRange,
                   {Addr, createByteCount(AccessTy)});
  }
  if (InstrumentNdr)
    instrumentNdrAccess(I, Addr, createByteCount(AccessTy), IsWrite);
}

namespace {
/// A plain load or store the pass may pair with its neighbour.
struct PairCandidate {
  Instruction *I;
  Value *Ptr;
  Type *Ty;
  bool IsWrite;
  unsigned Index;
};

/// Candidates looked back at from an access: a bound on the pointer
/// comparisons a long block costs.
constexpr unsigned MaxOpenCandidates = 16;

/// Whether I ends every pairing across it: a call may synchronise (or be the
/// runtime's), an atomic operation or fence orders, and either would put
/// the second access of a pair in another segment than its check. An
/// intrinsic that touches no memory (fmuladd between a loop's loads) or
/// only marks it does neither.
bool endsPairing(const Instruction &I) {
  if (auto *Intrinsic = dyn_cast<IntrinsicInst>(&I)) {
    switch (Intrinsic->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::assume:
      return false;
    default:
      return !isa<DbgInfoIntrinsic>(I) && I.mayReadOrWriteMemory();
    }
  }
  return isa<CallBase>(I) || I.isAtomic() || isa<FenceInst>(I);
}

/// Whether two instructions have the same line, or neither has one: a
/// report names a pair by its first access's.
bool onSameLine(const Instruction &A, const Instruction &B) {
  const DebugLoc &L = A.getDebugLoc(), &M = B.getDebugLoc();
  if (!L || !M)
    return !L && !M;
  return L.getLine() == M.getLine() && L->getScope() == M->getScope() &&
         L.getInlinedAt() == M.getInlinedAt();
}

/// Whether Ptr's offset from the pointer it is based on (scalar evolution's
/// pointer base: an argument, a global, an allocation) is a multiple of
/// Alignment bytes.
bool isAlignedInObject(Value *Ptr, uint64_t Alignment, ScalarEvolution &SE) {
  const SCEV *Offset = SE.removePointerBase(SE.getSCEV(Ptr));
  return hrace::compat::getMinTrailingZeros(SE, Offset) >= Log2_64(Alignment);
}
} // namespace

void Instrumenter::pairAdjacentAccesses(Function &F,
                                        ArrayRef<Instruction *> Accesses,
                                        ScalarEvolution &SE) {
  SmallPtrSet<Instruction *, 16> Checked(Accesses.begin(), Accesses.end());
  for (BasicBlock &BB : F) {
    SmallVector<PairCandidate, MaxOpenCandidates> Open;
    // The last instruction that may write memory, and the last that may
    // read or write it, by position in the block.
    unsigned Index = 0, LastWrite = 0, LastAccess = 0;
    for (Instruction &I : BB) {
      ++Index;
      if (endsPairing(I)) {
        Open.clear();
        LastWrite = LastAccess = Index;
        continue;
      }
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      bool Candidate =
          Checked.count(&I) &&
          ((Load && Load->isSimple()) ||
           (Store && Store->isSimple() && !isVtablePointerStore(*Store)));
      if (Candidate) {
        Type *Ty = Load ? Load->getType() : Store->getValueOperand()->getType();
        TypeSize Size = DL.getTypeStoreSize(Ty);
        std::optional<unsigned> SizeClass = getSizeClass(Size);
        Align Alignment = Load ? Load->getAlign() : Store->getAlign();
        // Pairs of aligned accesses of up to 4 bytes, which may share a
        // granule's cell. (Two 8-byte halves never do: checked as a pair,
        // they are still two granules, and swaptions' pairs of doubles
        // took 4% more time for one branch less.)
        if (SizeClass && *SizeClass <= 2 &&
            Alignment.value() >= Size.getFixedValue() &&
            DL.getTypeSizeInBits(Ty) == Size.getFixedValue() * 8) {
          PairCandidate Here{&I, getAccessedPointer(I), Ty, Store != nullptr,
                             Index};
          // The neighbour: same kind and type, the bytes next to these, the
          // same line, and nothing between them that could change what the
          // later one finds: for reads, no write; for writes, no access.
          // And a pair in one granule wherever its object lies in one (a
          // pair that may straddle two would pay the whole test for
          // nothing, and its branch is unpredictable where the index is
          // data: bodytrack's bilinear samples).
          bool Lower = false;
          auto Neighbour = llvm::find_if(Open, [&](const PairCandidate &C) {
            if (C.IsWrite != Here.IsWrite || C.Ty != Ty ||
                !onSameLine(*C.I, I) ||
                !(Here.IsWrite ? LastAccess == C.Index : LastWrite < C.Index))
              return false;
            auto Distance = getPointersDiff(Ty, C.Ptr, Ty, Here.Ptr, DL, SE,
                                            /*StrictCheck=*/true);
            if (!Distance || (*Distance != 1 && *Distance != -1))
              return false;
            Lower = *Distance == -1;
            return isAlignedInObject(Lower ? Here.Ptr : C.Ptr,
                                     2 * Size.getFixedValue(), SE);
          });
          if (Neighbour != Open.end()) {
            PairedFirst[Neighbour->I] = Lower;
            CheckedWithPair.insert(&I);
            Open.erase(Neighbour);
          } else {
            if (Open.size() == MaxOpenCandidates)
              Open.erase(Open.begin());
            Open.push_back(Here);
          }
        }
      }
      if (I.mayWriteToMemory())
        LastWrite = Index;
      if (I.mayReadOrWriteMemory())
        LastAccess = Index;
    }
  }
}

namespace {
/// A load coalesceNdrReads may read with others: its bytes from its run's
/// anchor.
struct NdrRunLoad {
  Instruction *I;
  unsigned Index;
  int64_t Offset;
  uint64_t Size;
};

/// Loads open for a run: each at a constant distance from the pointer of
/// the first (the anchor), on its line, with no write since it.
struct OpenNdrRun {
  LoadInst *Anchor;
  SmallVector<NdrRunLoad, 8> Loads;
};

/// Runs open at once in a block: a bound on the distances computed.
constexpr unsigned MaxOpenNdrRuns = 8;
} // namespace

/// The checker of non-deterministic reads enters the runtime for each read
/// that brings an epoch new bytes of a variable, and a loop over an array
/// unrolled (streamcluster's distances: 32 floats a point) or an
/// expression over a struct's fields brought them a few bytes at a time.
/// Loads of one block at constant distances from one another (by scalar
/// evolution: an unrolled loop's elements too) whose bytes join into one
/// run, on one line, with no write and no call between them, are one read
/// of the run by the first of them: each load is still read in the same
/// epoch, before the same writes, and the run's bytes are exactly theirs.
/// A report names the run's line and the bytes that were not
/// deterministic.
void Instrumenter::coalesceNdrReads(
    Function &F, const SmallPtrSetImpl<Instruction *> &Checked) {
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  // The bytes from pointer From to pointer To, if scalar evolution knows
  // them for a constant (both based on one pointer).
  auto Distance = [&](Value *From, Value *To) -> std::optional<int64_t> {
    const SCEV *A = SE.getSCEV(From), *B = SE.getSCEV(To);
    if (SE.getPointerBase(A) != SE.getPointerBase(B))
      return std::nullopt;
    const auto *D = dyn_cast<SCEVConstant>(
        SE.getMinusSCEV(SE.removePointerBase(B), SE.removePointerBase(A)));
    if (!D)
      return std::nullopt;
    return D->getAPInt().getSExtValue();
  };
  // Each set of a run's loads whose bytes join without a gap, if there are
  // two or more, is read by its first.
  auto Close = [&](OpenNdrRun &Run) {
    SmallVector<NdrRunLoad, 8> &Loads = Run.Loads;
    llvm::sort(Loads, [](const NdrRunLoad &A, const NdrRunLoad &B) {
      return A.Offset < B.Offset;
    });
    for (size_t Begin = 0, End; Begin < Loads.size(); Begin = End) {
      int64_t RunEnd = Loads[Begin].Offset + int64_t(Loads[Begin].Size);
      NdrRunLoad *First = &Loads[Begin];
      for (End = Begin + 1; End < Loads.size() && Loads[End].Offset <= RunEnd;
           ++End) {
        RunEnd = std::max(RunEnd, Loads[End].Offset + int64_t(Loads[End].Size));
        if (Loads[End].Index < First->Index)
          First = &Loads[End];
      }
      if (End - Begin < 2)
        continue;
      // The anchor is computed before the first of the loads, and so
      // before each of them.
      NdrRunFirst[First->I] = {Run.Anchor, Loads[Begin].Offset,
                               uint64_t(RunEnd - Loads[Begin].Offset)};
      for (size_t L = Begin; L < End; ++L)
        if (&Loads[L] != First)
          NdrInRun.insert(Loads[L].I);
    }
  };
  for (BasicBlock &BB : F) {
    SmallVector<OpenNdrRun, MaxOpenNdrRuns> Open;
    auto CloseAll = [&] {
      for (OpenNdrRun &Run : Open)
        Close(Run);
      Open.clear();
    };
    unsigned Index = 0;
    for (Instruction &I : BB) {
      ++Index;
      // A write may give a later load's bytes (read after the epoch's own
      // write), and a call may end the epoch; an intrinsic that only marks
      // memory (a lifetime, an assumption) does neither.
      if (endsPairing(I) || (!isa<IntrinsicInst>(I) && I.mayWriteToMemory())) {
        CloseAll();
        continue;
      }
      auto *Load = dyn_cast<LoadInst>(&I);
      if (!Load || !Load->isSimple() || !Checked.count(Load))
        continue;
      TypeSize Size = DL.getTypeStoreSize(Load->getType());
      Value *Ptr = Load->getPointerOperand();
      if (Size.isScalable() || Ptr->getType()->getPointerAddressSpace() != 0)
        continue;
      NdrRunLoad Here{&I, Index, 0, Size.getFixedValue()};
      auto Run = llvm::find_if(Open, [&](const OpenNdrRun &R) {
        if (!onSameLine(*R.Loads.front().I, I))
          return false;
        std::optional<int64_t> Offset =
            Distance(R.Anchor->getPointerOperand(), Ptr);
        if (!Offset)
          return false;
        Here.Offset = *Offset;
        return true;
      });
      if (Run != Open.end()) {
        Run->Loads.push_back(Here);
        continue;
      }
      if (Open.size() == MaxOpenNdrRuns) {
        Close(Open.front());
        Open.erase(Open.begin());
      }
      Open.push_back({Load, {Here}});
    }
    CloseAll();
  }
}

void Instrumenter::instrumentPlainPair(Instruction &First, bool SecondLower) {
  bool IsWrite = isa<StoreInst>(First);
  Type *Ty = getPlainAccessType(First);
  int64_t Size = static_cast<int64_t>(DL.getTypeStoreSize(Ty).getFixedValue());
  unsigned SizeClass = Log2_64(Size);
  setInsertPointBefore(First);
  // The pair's lower address, from the first access's pointer: the
  // second's may be computed only after the first.
  Value *Low = createAddress(getAccessedPointer(First));
  if (SecondLower)
    Low = IRB.CreateGEP(IRB.getInt8Ty(), Low, ConstantInt::get(Int64Ty, -Size));
  Value *High =
      IRB.CreateGEP(IRB.getInt8Ty(), Low, ConstantInt::get(Int64Ty, Size));
  std::optional<InlineTestValues> Tests;
  Value *LowA = IRB.CreatePtrToInt(Low, Int64Ty);
  Value *HighA = IRB.CreatePtrToInt(High, Int64Ty);
  // The pair is tested as one access of twice the size first: one cell,
  // one test. A pair out of line at run time (its object less aligned than
  // the pairing assumed) fails that test by its low address bits, and so
  // does one whose halves lie in two cells.
  Value *Misaligned =
      IRB.CreateAnd(LowA, ConstantInt::get(Int64Ty, 2 * Size - 1));
  Value *WholeWrong = IRB.CreateOr(
      createWrongBits(LowA, SizeClass + 1, IsWrite, Tests), Misaligned);
  Instruction *Halves = SplitBlockAndInsertIfThen(
      IRB.CreateICmpNE(WholeWrong, ConstantInt::get(Int64Ty, 0)), &First,
      /*Unreachable=*/false, MDBuilder(Ctx).createBranchWeights(1, 1000));
  IRB.SetInsertPoint(Halves);
  IRB.SetCurrentDebugLocation(getLocation(First));
  // Then each half in its own granule, as its own check would be, so that
  // a pair whose halves are two variables in different states passes as
  // the two checks did. One call decides when either half fails: the
  // runtime checks the pair as one access where it can, so that two floats
  // of a granule re-stamped in a new segment change its cell once (a plain
  // store by its owner) instead of splitting it and joining it again with
  // two compare-and-swaps (streamcluster's points, read a float at a time
  // after every barrier).
  Instruction *Before = &*IRB.GetInsertPoint();
  Value *WrongBits =
      IRB.CreateOr(createWrongBits(LowA, SizeClass, IsWrite, Tests),
                   createWrongBits(HighA, SizeClass, IsWrite, Tests));
  createCallIfWrong(*Before, First, WrongBits,
                    (IsWrite ? WritePair : ReadPair)[SizeClass], Low);
  setInsertPointBefore(First);
}

Instrumenter::InlineTestValues Instrumenter::loadInlineTests(bool IsWrite) {
  auto *TestTy = cast<ArrayType>(InlineTest->getValueType());
  InlineTestValues Tests;
  for (unsigned Test = 0; Test < 2; ++Test)
    for (unsigned Field = 0; Field < 2; ++Field)
      Tests[Test][Field] = IRB.CreateAlignedLoad(
          Int64Ty,
          IRB.CreateConstInBoundsGEP2_64(TestTy, InlineTest, 0,
                                         (IsWrite ? 4 : 0) + 2 * Test + Field),
          Align(8));
  return Tests;
}

Value *Instrumenter::createWrongBits(Value *A, unsigned SizeClass, bool IsWrite,
                                     std::optional<InlineTestValues> &Tests) {
  Value *CellAddr =
      IRB.CreateAdd(IRB.CreateAnd(IRB.CreateShl(A, 1),
                                  ConstantInt::get(Int64Ty, GranuleIndexMask)),
                    ConstantInt::get(Int64Ty, GranuleBase));
  // A 16-byte access covers two whole granules, whose cells are
  // consecutive (an access lies in one application region).
  unsigned Granules = SizeClass == 4 ? 2 : 1;
  Value *Spread = createSpreadMask(A, SizeClass == 4 ? 3 : SizeClass);
  if (!Tests)
    Tests = loadInlineTests(IsWrite);
  Value *WrongBits = nullptr;
  for (unsigned Granule = 0; Granule < Granules; ++Granule) {
    // Relaxed loads: another thread may be writing the cells, and they
    // must stay where they are (the call below may change them).
    Value *Cells[2];
    for (unsigned Which = 0; Which < 2; ++Which) {
      Value *Offset = ConstantInt::get(Int64Ty, 16 * Granule + 8 * Which);
      Value *Ptr = IRB.CreateIntToPtr(
          Granule || Which ? IRB.CreateAdd(CellAddr, Offset) : CellAddr,
          hrace::compat::getVoidPtrTy(Ctx));
      LoadInst *Cell = IRB.CreateAlignedLoad(Int64Ty, Ptr, Align(8));
      Cell->setAtomic(AtomicOrdering::Monotonic);
      Cells[Which] = Cell;
    }
    // The cell that holds the bytes (their masks never share one); if
    // neither holds them all, nothing passes.
    Value *Cell = IRB.CreateSelect(
        IRB.CreateICmpEQ(IRB.CreateAnd(Cells[0], Spread), Spread), Cells[0],
        Cells[1]);
    // Each condition as the bits that are wrong (zero when it holds), so
    // that one compare with zero decides: the bytes the cell lacks, and the
    // fewer wrong bits of the two tests (an unsigned minimum is zero when
    // either is). A test's value has no bit outside its mask, and no mask
    // bit of a granule cell's byte mask: the spread's bits are the holding
    // test's. (Three compares and their combination took two more
    // instructions an access, and 4% of blackscholes' and swaptions' time.)
    Value *Lacks = IRB.CreateXor(IRB.CreateAnd(Cell, Spread), Spread);
    Value *Wrong[2];
    for (unsigned Test = 0; Test < 2; ++Test)
      Wrong[Test] = IRB.CreateXor(IRB.CreateAnd(Cell, (*Tests)[Test][0]),
                                  (*Tests)[Test][1]);
    Value *GranuleWrong = IRB.CreateOr(
        Lacks, IRB.CreateBinaryIntrinsic(Intrinsic::umin, Wrong[0], Wrong[1]));
    WrongBits = WrongBits ? IRB.CreateOr(WrongBits, GranuleWrong) : GranuleWrong;
  }
  return WrongBits;
}

void Instrumenter::createCallIfWrong(Instruction &Before, Instruction &I,
                                     Value *WrongBits, FunctionCallee Callee,
                                     Value *Addr) {
  Instruction *Call = SplitBlockAndInsertIfThen(
      IRB.CreateICmpNE(WrongBits, ConstantInt::get(Int64Ty, 0)), &Before,
      /*Unreachable=*/false, MDBuilder(Ctx).createBranchWeights(1, 1000));
  // The call symbolizes to the access's line, as it would unguarded.
  IRB.SetInsertPoint(Call);
  IRB.SetCurrentDebugLocation(getLocation(I));
  IRB.CreateCall(Callee, Addr);
  setInsertPointBefore(I);
}

void Instrumenter::createCheckedAccessCall(Instruction &I, Value *Addr,
                                           unsigned SizeClass, bool IsWrite,
                                           FunctionCallee Callee) {
  std::optional<InlineTestValues> Tests;
  createCallIfWrong(I, I,
                    createWrongBits(IRB.CreatePtrToInt(Addr, Int64Ty),
                                    SizeClass, IsWrite, Tests),
                    Callee, Addr);
}

Value *Instrumenter::createSpreadMask(Value *A, unsigned SizeClass) {
  // Byte o of a granule is mask bit o + 30 for o < 4, o + 56 otherwise.
  auto BitsOf = [](uint64_t Bytes) {
    return ((Bytes & 0xf) << 30) | ((Bytes >> 4) << 60);
  };
  unsigned Size = 1u << SizeClass;
  uint64_t Bytes = (1ull << Size) - 1;
  if (Size == 8)
    return ConstantInt::get(Int64Ty, BitsOf(Bytes));
  if (Size == 4)
    return IRB.CreateSelect(
        IRB.CreateICmpEQ(IRB.CreateAnd(A, 4), ConstantInt::get(Int64Ty, 0)),
        ConstantInt::get(Int64Ty, BitsOf(Bytes)),
        ConstantInt::get(Int64Ty, BitsOf(Bytes << 4)));
  // 1 and 2 bytes: a table of the eight offsets, one per module.
  std::string Name = "__hrace_spread_masks" + std::to_string(Size);
  auto *TableTy = ArrayType::get(Int64Ty, 8);
  GlobalVariable *Table = M.getGlobalVariable(Name, /*AllowInternal=*/true);
  if (!Table) {
    SmallVector<Constant *, 8> Masks;
    for (unsigned Offset = 0; Offset < 8; ++Offset)
      Masks.push_back(ConstantInt::get(Int64Ty, BitsOf((Bytes << Offset) & 0xff)));
    Table = new GlobalVariable(M, TableTy, /*isConstant=*/true,
                               GlobalValue::PrivateLinkage,
                               ConstantArray::get(TableTy, Masks), Name);
    Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  }
  Value *Offset = IRB.CreateAnd(A, 7);
  return IRB.CreateAlignedLoad(
      Int64Ty, IRB.CreateInBoundsGEP(TableTy, Table, {IRB.getInt64(0), Offset}),
      Align(8));
}

void Instrumenter::instrumentNdrAccess(Instruction &I, Value *Addr, Value *Size,
                                       bool IsWrite) {
  if (!IsWrite) {
    if (NdrInRun.count(&I))
      return;
    auto Run = NdrRunFirst.find(&I);
    if (Run != NdrRunFirst.end()) {
      Addr = createAddress(Run->second.Anchor->getPointerOperand());
      if (Run->second.Offset)
        Addr = IRB.CreateGEP(IRB.getInt8Ty(), Addr,
                             ConstantInt::get(Int64Ty, Run->second.Offset));
      Size = ConstantInt::get(IntptrTy, Run->second.Size);
    }
    IRB.CreateCall(NdrRead, {Addr, Size});
    return;
  }
  auto &Store = cast<StoreInst>(I);
  auto Deps = NdrDeps.find(&Store);
  if (Deps != NdrDeps.end())
    for (const NdrDependency &Dep : Deps->second)
      if (Value *Address = Dep.Address)
        IRB.CreateCall(NdrDep, {createAddress(Address),
                                ConstantInt::get(IntTy, Dep.Control),
                                createNdrName(Address, Dep.Size)});
  Value *Parent = nullptr;
  if (std::optional<uint64_t> Offset = getNdrFieldOffset(Store))
    Parent = *Offset
                 ? IRB.CreateGEP(IRB.getInt8Ty(), Addr,
                                 ConstantInt::get(IntptrTy, -int64_t(*Offset)))
                 : Addr;
  else
    Parent = getNdrParentObject(Store.getPointerOperand(), DL);
  IRB.CreateCall(
      NdrWrite,
      {Addr, Size,
       Parent ? createAddress(Parent) : ConstantPointerNull::get(VoidPtrTy),
       createNdrName(Store.getPointerOperand(),
                     DL.getTypeStoreSize(Store.getValueOperand()->getType())
                         .getKnownMinValue())});
}

void Instrumenter::instrumentNdrOfPaired(Instruction &I) {
  setInsertPointBefore(I);
  instrumentNdrAccess(I, createAddress(getAccessedPointer(I)),
                      createByteCount(getPlainAccessType(I)),
                      isa<StoreInst>(I));
}

/// The variable at Ptr's source name for the runtime's reports, as a
/// string in the module (one per name), or null when debug info gives none.
Constant *Instrumenter::createNdrName(Value *Ptr, uint64_t AccessSize) {
  std::string Name = NdrNames->name(Ptr, AccessSize);
  if (Name.empty())
    return ConstantPointerNull::get(VoidPtrTy);
  Constant *&String = NdrNameStrings[Name];
  if (!String) {
    Constant *Text = ConstantDataArray::getString(Ctx, Name);
    auto *Global =
        new GlobalVariable(M, Text->getType(), /*isConstant=*/true,
                           GlobalValue::PrivateLinkage, Text, "hrace.ndr.name");
    Global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Global->setAlignment(Align(1));
    String = ConstantExpr::getPointerCast(Global, VoidPtrTy);
  }
  return String;
}

/// A direct call to a pthreads or semaphore function whose result the
/// program uses.
bool Instrumenter::usesPthreadResult(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || Call.use_empty())
    return false;
  StringRef Name = Callee->getName();
  return hrace::compat::startsWith(Name, "pthread_") ||
         hrace::compat::startsWith(Name, "sem_");
}

/// The runtime reports the errors pthreads calls return only where the
/// program ignores them (report_misuse): a call whose result is used is
/// marked just before it, by the function it calls.
void Instrumenter::markResultChecked(CallBase &Call) {
  setInsertPointBefore(Call);
  IRB.CreateCall(ResultChecked,
                 IRB.CreatePointerCast(Call.getCalledOperand(), VoidPtrTy));
}

/// A constructor or destructor setting an object's vtable pointer (clang's
/// TBAA tag says so).
bool Instrumenter::isVtablePointerStore(StoreInst &Store) {
  MDNode *Tag = Store.getMetadata(LLVMContext::MD_tbaa);
  return Tag && Tag->isTBAAVtableAccess() &&
         DL.getTypeStoreSize(Store.getValueOperand()->getType()) ==
             DL.getPointerSize();
}

/// The runtime decides: a destructor storing the vtable pointer the object
/// already has (each base's destructor does) only reads it, so it does not
/// race with a virtual call made in another thread before the delete.
void Instrumenter::instrumentVptrUpdate(StoreInst &Store) {
  setInsertPointBefore(Store);
  Value *NewVptr = IRB.CreatePointerCast(Store.getValueOperand(), VoidPtrTy);
  IRB.CreateCall(VptrUpdate,
                 {createAddress(Store.getPointerOperand()), NewVptr});
}

void Instrumenter::instrumentMaskedAccess(IntrinsicInst &I) {
  bool IsWrite = I.getIntrinsicID() == Intrinsic::masked_store;
  Type *VectorTy = IsWrite ? I.getArgOperand(0)->getType() : I.getType();
  setInsertPointBefore(I);
  // Reported as touching every lane: the mask is only known at run time.
  IRB.CreateCall(
      IsWrite ? WriteRange : ReadRange,
      {createAddress(getAccessedPointer(I)), createByteCount(VectorTy)});
}

/// The size class of an atomic of \p ValueTy the runtime can perform: an
/// integer, pointer, float or double of 1, 2, 4 or 8 bytes, naturally
/// aligned (a misaligned atomic is a library call, not an instruction the
/// runtime can redo).
std::optional<unsigned> Instrumenter::getAtomicSizeClass(Type *ValueTy,
                                                         Align Alignment) {
  if (!ValueTy->isIntegerTy() && !ValueTy->isPointerTy() &&
      !ValueTy->isFloatTy() && !ValueTy->isDoubleTy())
    return std::nullopt;
  TypeSize Size = DL.getTypeStoreSize(ValueTy);
  std::optional<unsigned> SizeClass = getSizeClass(Size);
  if (!SizeClass || *SizeClass >= NumAtomicSizeClasses ||
      DL.getTypeSizeInBits(ValueTy) != Size.getFixedValue() * 8 ||
      Alignment.value() < Size.getFixedValue())
    return std::nullopt;
  return SizeClass;
}

/// \p V as the runtime takes values: its bits, zero-extended to 64.
Value *Instrumenter::createAtomicValue(Value *V) {
  Type *Ty = V->getType();
  Type *Int64Ty = IRB.getInt64Ty();
  if (Ty->isPointerTy())
    return IRB.CreatePtrToInt(V, Int64Ty);
  if (!Ty->isIntegerTy())
    V = IRB.CreateBitCast(
        V, IRB.getIntNTy(DL.getTypeSizeInBits(Ty).getFixedValue()));
  return IRB.CreateZExtOrTrunc(V, Int64Ty);
}

/// The runtime's 64-bit result \p V as a value of \p Ty.
Value *Instrumenter::createFromAtomicValue(Value *V, Type *Ty) {
  if (Ty->isPointerTy())
    return IRB.CreateIntToPtr(V, Ty);
  Value *Bits = IRB.CreateTrunc(
      V, IRB.getIntNTy(DL.getTypeSizeInBits(Ty).getFixedValue()));
  return Ty->isIntegerTy() ? Bits : IRB.CreateBitCast(Bits, Ty);
}

void Instrumenter::instrumentAtomicLoad(LoadInst &Load) {
  setInsertPointBefore(Load);
  Value *Addr = createAddress(Load.getPointerOperand());
  if (auto SizeClass = getAtomicSizeClass(Load.getType(), Load.getAlign())) {
    Value *Result = IRB.CreateCall(AtomicLoadN[*SizeClass],
                                   {Addr, createOrder(Load.getOrdering())});
    Load.replaceAllUsesWith(createFromAtomicValue(Result, Load.getType()));
    Load.eraseFromParent();
    return;
  }
  // After the load, so an acquire sees the release of the store it read.
  setInsertPointAfter(Load);
  IRB.CreateCall(AtomicLoad, {Addr, createByteCount(Load.getType()),
                              createOrder(Load.getOrdering())});
}

void Instrumenter::instrumentAtomicStore(StoreInst &Store) {
  setInsertPointBefore(Store);
  Value *Addr = createAddress(Store.getPointerOperand());
  Value *Val = Store.getValueOperand();
  if (auto SizeClass = getAtomicSizeClass(Val->getType(), Store.getAlign())) {
    IRB.CreateCall(
        AtomicStoreN[*SizeClass],
        {Addr, createAtomicValue(Val), createOrder(Store.getOrdering())});
    Store.eraseFromParent();
    return;
  }
  // Before the store, so the release is published before any thread can
  // read the value.
  IRB.CreateCall(AtomicStore, {Addr, createByteCount(Val->getType()),
                               createOrder(Store.getOrdering())});
}

void Instrumenter::instrumentAtomicRMW(AtomicRMWInst &RMW) {
  setInsertPointBefore(RMW);
  Value *Addr = createAddress(RMW.getPointerOperand());
  Value *Val = RMW.getValOperand();
  Constant *Order = createOrder(RMW.getOrdering());
  auto SizeClass = getAtomicSizeClass(Val->getType(), RMW.getAlign());
  auto Op = getRuntimeRMWOp(RMW.getOperation());
  // An exchange moves bits of any type; the other operations are
  // arithmetic of the value's own kind.
  bool KindMatches =
      RMW.getOperation() == AtomicRMWInst::Xchg ||
      RMW.isFloatingPointOperation() == Val->getType()->isFloatingPointTy();
  if (SizeClass && Op && KindMatches) {
    Value *Old = IRB.CreateCall(
        AtomicRMWN[*SizeClass],
        {Addr, createAtomicValue(Val), ConstantInt::get(IntTy, *Op), Order});
    RMW.replaceAllUsesWith(createFromAtomicValue(Old, Val->getType()));
    RMW.eraseFromParent();
    return;
  }
  Value *Size = createByteCount(Val->getType());
  IRB.CreateCall(AtomicRMWBegin, {Addr, Size, Order});
  setInsertPointAfter(RMW);
  IRB.CreateCall(AtomicRMWEnd, {Addr, Size, Order});
}

void Instrumenter::instrumentCmpXchg(AtomicCmpXchgInst &CmpXchg) {
  setInsertPointBefore(CmpXchg);
  Value *Addr = createAddress(CmpXchg.getPointerOperand());
  Value *Cmp = CmpXchg.getCompareOperand();
  Constant *Success = createOrder(CmpXchg.getSuccessOrdering());
  Constant *Failure = createOrder(CmpXchg.getFailureOrdering());
  if (auto SizeClass = getAtomicSizeClass(Cmp->getType(), CmpXchg.getAlign())) {
    Value *CmpBits = createAtomicValue(Cmp);
    Value *Old = IRB.CreateCall(AtomicCASN[*SizeClass],
                                {Addr, CmpBits,
                                 createAtomicValue(CmpXchg.getNewValOperand()),
                                 Success, Failure});
    // The runtime's exchange is strong: it failed only if the old value
    // differs (a weak one may also fail spuriously, never has to).
    Value *Exchanged = IRB.CreateICmpEQ(Old, CmpBits);
    Value *Pair = UndefValue::get(CmpXchg.getType());
    Pair = IRB.CreateInsertValue(Pair,
                                 createFromAtomicValue(Old, Cmp->getType()), 0);
    Pair = IRB.CreateInsertValue(Pair, Exchanged, 1);
    CmpXchg.replaceAllUsesWith(Pair);
    CmpXchg.eraseFromParent();
    return;
  }
  Value *Size = createByteCount(Cmp->getType());
  IRB.CreateCall(AtomicRMWBegin, {Addr, Size, Success});
  setInsertPointAfter(CmpXchg);
  // A failed exchange only loaded, with the failure ordering.
  Value *Exchanged = IRB.CreateExtractValue(&CmpXchg, 1);
  Value *Order = IRB.CreateSelect(Exchanged, Success, Failure);
  IRB.CreateCall(AtomicRMWEnd, {Addr, Size, Order});
}

void Instrumenter::instrumentFence(FenceInst &Fence) {
  setInsertPointBefore(Fence);
  IRB.CreateCall(AtomicFence, createOrder(Fence.getOrdering()));
}

void Instrumenter::replaceMemIntrinsic(MemIntrinsic &MemOp) {
  setInsertPointBefore(MemOp);
  Value *Dest = createAddress(MemOp.getRawDest());
  Value *Length =
      IRB.CreateIntCast(MemOp.getLength(), IntptrTy, /*isSigned=*/false);
  if (auto *Set = dyn_cast<MemSetInst>(&MemOp)) {
    Value *Byte = IRB.CreateZExt(Set->getValue(), IntTy);
    IRB.CreateCall(Memset, {Dest, Byte, Length});
  } else {
    Value *Source = createAddress(cast<MemTransferInst>(MemOp).getRawSource());
    IRB.CreateCall(isa<MemMoveInst>(MemOp) ? Memmove : Memcpy,
                   {Dest, Source, Length});
  }
  MemOp.eraseFromParent();
}

void Instrumenter::instrumentEntryAndExits(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  IRB.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
  IRB.SetCurrentDebugLocation(FunctionLoc);
  Value *CallerPC = IRB.CreateCall(ReturnAddress, IRB.getInt32(0));
  IRB.CreateCall(FuncEntry, CallerPC);
  // Every way out pops the frame: each return and resume, and exceptions
  // unwinding through F, for which the enumerator turns calls that may throw
  // into invokes with a cleanup pad that ends in a resume.
  EscapeEnumerator Exits(F, "hrace_cleanup");
  while (IRBuilder<> *AtExit = Exits.Next()) {
    if (!AtExit->getCurrentDebugLocation())
      AtExit->SetCurrentDebugLocation(FunctionLoc);
    AtExit->CreateCall(FuncExit, {});
  }
}

void Instrumenter::addModuleCtor() {
  Function *Ctor = createSanitizerCtor(M, ModuleCtorName);
  IRB.SetInsertPoint(Ctor->getEntryBlock().getTerminator());
  IRB.CreateCall(Init, {});
  if (InstrumentNdr)
    IRB.CreateCall(NdrModuleInit, {});
  // Priority 0 runs before the program's constructors, which may already
  // start threads.
  appendToGlobalCtors(M, Ctor, 0);
}

} // namespace

PreservedAnalyses hrace::HybridRacePass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  // The constructor marks an instrumented module; a second run would report
  // every access twice.
  if (M.getFunction(ModuleCtorName))
    return PreservedAnalyses::all();
  // Under clang the wait loops were marked at the start of the pipeline; run
  // alone (opt -passes=hrace), this pass marks them before instrumenting.
  if (!areWaitLoopsMarked(M))
    markWaitLoops(
        M, MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager());
  std::unique_ptr<SpecialCaseList> Ignore = loadIgnoreLists();
  Instrumenter HRace(
      M, MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager());
  for (Function &F : M)
    HRace.instrumentFunction(F, isIgnored(Ignore.get(), F));
  HRace.addModuleCtor();
  return PreservedAnalyses::none();
}

PreservedAnalyses hrace::IgnoreListPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  std::unique_ptr<SpecialCaseList> Ignore = loadIgnoreLists();
  if (!Ignore && !HonourNoSanitizeThread)
    return PreservedAnalyses::all();
  for (Function &F : M) {
    if (F.isDeclaration() || !isIgnored(Ignore.get(), F))
      continue;
    F.addFnAttr(hrace::IgnoredAttr);
    // Under the driver clang marks every function sanitize_thread, listed
    // ones too; without the mark the inliner keeps checked functions out of
    // this one (NoSpeculationPass says why).
    F.removeFnAttr(Attribute::SanitizeThread);
    if (!F.hasFnAttribute(Attribute::AlwaysInline))
      F.addFnAttr(Attribute::NoInline);
  }
  return PreservedAnalyses::none();
}
