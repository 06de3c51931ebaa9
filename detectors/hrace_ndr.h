//===-- hrace_ndr.h - Non-deterministic reads: write dependencies ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The criterion of seeds/002 (section IV-A), on epoch variables. An epoch is
// a thread's maximal stretch without a synchronisation event; it has one
// synchronisation state: the thread's vector clock and its lock vector (the
// locks it holds, each with the number of its holding, so that "continuously
// secured" is decidable). A variable is an aligned run of kNdrVariableBytes
// bytes; an epoch variable is what one epoch did to one: bytes read before
// the epoch wrote them, bytes written, and bytes read after the epoch's own
// write. Every criterion works on bytes, so two program variables in one
// are checked apart.
//
// A write W is a write dependency of a read R when, among the writes of the
// bytes R read (locks: exclusive holds),
//   relevance: R does not happen before W;
//   freedom:   no lock l continuously secures R and an own earlier write W'
//              (R's thread wrote under the same holding of l) while l
//              secures W; W' itself stays;
//   updates:   (beyond the paper) when R is the read of a read-modify-write
//              inside one holding of l, writes that are themselves such
//              updates under l are not; and an update D under a later
//              holding of l than W's carries W's value on, as if W happened
//              before D. Serialised updates (lock; x++; unlock in
//              every thread) are then deterministic, as table II expects;
//              the price is that non-commuting updates under one lock
//              (x *= 2 against x += 1) are not reported;
//   directness: no other dependency D covering W's bytes has W before it.
// R is non-deterministic when a dependency is parallel to it (neither
// happens before the other), or two dependencies not ordered between them
// give one of its bytes (the paper's "more than one write dependency", for
// a variable of bytes: writes that each give other bytes leave no choice).
//
// Everything here is a pure function of the epochs and epoch variables, so
// the unit tests drive it without threads; runtime/hrace_ndr.cpp keeps them.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_NDR_H
#define HRACE_NDR_H

#include "../runtime/hrace_defs.h"
#include "../runtime/hrace_stack_depot.h"

namespace hrace {

typedef u32 LockId;

constexpr u32 kNdrMaxLocks = 8;

// The bytes one epoch variable covers: a cache line. An epoch that touches a
// run of memory (a loop over an array, a struct's fields) makes one epoch
// variable per line, where one per 8-byte granule made eight (ndr=1's
// memory and most of its time went to making them and walking their
// histories).
constexpr uptr kNdrVariableBytes = 64;
// A set of bytes of one variable: bit i is byte i.
typedef u64 NdrBytes;
static_assert(sizeof(NdrBytes) * 8 == kNdrVariableBytes,
              "a byte mask has a bit per byte of a variable");

// The bytes [offset, offset + size) of a variable.
inline NdrBytes NdrBytesOf(uptr offset, uptr size) {
  NdrBytes run =
      size >= kNdrVariableBytes ? ~NdrBytes(0) : (NdrBytes(1) << size) - 1;
  return run << offset;
}

// One holding of a lock: `acquisition` numbers the lock's acquisitions by
// all threads, so two epochs of a thread with the same pair lie in one
// critical section, and of two exclusive holdings the larger number came
// later. Only exclusive holds secure anything (freedom, updates); read holds
// are shown in reports.
struct NdrLockHold {
  LockId lock;
  bool exclusive;
  u64 acquisition;
};

// The synchronisation state of one epoch of one thread. Shared by the
// epoch's variables (refs); vc has vc_size entries, and the lock vector
// (lock_count holds) follows them in the epoch's block (NdrEpochBytes): an
// epoch is kept as long as one of its epoch variables, and most hold no
// lock (canneal keeps 66,000, 80 bytes each where room for kNdrMaxLocks
// holds made them 208).
struct NdrEpoch {
  u32 refs;
  u32 thread_id;
  u32 slot;
  u32 lock_count;
  // Numbers the thread's epochs: program order within a thread.
  u64 seq;
  // The thread's own clock: its entry in the vector clock of everything it
  // released from this epoch on.
  Clock clock;
  // What the thread's creator knew of the slot's previous owner: the
  // epoch's vc entry for its own slot says nothing about that thread.
  Clock previous_owner_clock;
  bool ended;
  u32 vc_size;
  NdrLockHold *locks;
  Clock vc[1];
};

// The bytes of an epoch with vc_size clock entries and lock_count holds.
inline uptr NdrEpochBytes(u32 vc_size, u32 lock_count) {
  return sizeof(NdrEpoch) + (vc_size ? vc_size - 1 : 0) * sizeof(Clock) +
         lock_count * sizeof(NdrLockHold);
}
// Points e->locks past its vc_size clock entries, in the same block.
inline void NdrPlaceLocks(NdrEpoch *e) {
  e->locks = reinterpret_cast<NdrLockHold *>(e->vc + (e->vc_size ? e->vc_size : 1));
}

// Epoch a happens before epoch b (a != b).
bool NdrHappensBefore(const NdrEpoch *a, const NdrEpoch *b);
// The lock held exclusively in both epochs under one holding (a continuous
// critical section), or 0.
LockId NdrCommonHolding(const NdrEpoch *a, const NdrEpoch *b);
// Epoch e holds lock l exclusively (in any holding).
bool NdrHolds(const NdrEpoch *e, LockId l);

enum class CorrelationKind : u8 { kVertical, kControl, kParental, kHorizontal };

// What every epoch that a live thread will still run knows, slot by slot
// (runtime/hrace_ndr_floor.cpp gathers it from the threads' clocks). An
// epoch ordered before all of them has reads that no write to come can be
// parallel to or a dependency of (relevance): once checked, they are done.
struct NdrFloor {
  static constexpr u32 kNoThread = ~0u;
  u32 slot_count;
  // The least clock of the slot that every live thread but the slot's own
  // knows (~0: there is no other).
  Clock *known;
  // The slot's live thread (kNoThread: none), and what it knows of the
  // slot's previous owners (NdrHappensBefore's test within one slot).
  u32 *owner;
  Clock *owner_previous;
};

// Epoch e happens before every epoch that a thread of `floor` will still
// run: its own thread's come after it in program order, every other's
// knows its clock.
bool NdrBeforeEveryFutureEpoch(const NdrEpoch *e, const NdrFloor &floor);

// A relation between two variables that one thread made (hrace_correlation.h).
struct Correlation {
  CorrelationKind kind;
  uptr from;
  uptr to;
  // The store that made it.
  uptr pc;
  // The variables' source names, from the pass (a string in the program),
  // or null: reports then describe the address.
  const char *from_name;
  const char *to_name;
};

// The accesses of one kind that brought new bytes to an epoch variable, for
// reports: a variable often holds several program variables (a struct's
// fields, neighbouring globals), and each is checked and reported on its
// own. A record claims the bytes [begin, end) that no earlier record of its
// kind claims.
struct NdrAccessRecord {
  // The access's return address into the program on top of its callers'
  // stack, one stack depot id; 0: no access.
  StackId stack;
  u8 begin;
  u8 end;
  // The first access's bytes, for reports.
  u8 offset;
  u8 size;
};

// What few epoch variables need, out of line: the bytes of its reads that
// were reported (each byte of a read is reported once, first read and read
// after the epoch's own write apart), and the correlations the reading
// thread had with the variable at its read.
struct NdrReadExtras {
  // [0]: first reads; [1]: reads after the epoch's own write.
  NdrBytes reported[2];
  u32 correlation_count;
  Correlation correlations[1];
};

// The bytes of NdrReadExtras holding `count` correlations.
inline uptr NdrReadExtrasBytes(u32 count) {
  return sizeof(NdrReadExtras) + (count ? count - 1 : 0) * sizeof(Correlation);
}

// What one epoch did to one variable. Linked into its variable's history,
// newest first. Its first cache line holds all that the walks of a history
// read: one line per epoch variable walked (at 136 bytes, unaligned, the
// fields a walk reads straddled two lines in half of them).
struct alignas(64) EpochVariable {
  static constexpr u32 kRecords = 3;
  EpochVariable *next;
  // The same thread's next older epoch variable in the history.
  EpochVariable *older_own;
  NdrEpoch *epoch;
  // The variable's first byte.
  uptr base;
  // epoch->thread_id, kept here for the walks of a history.
  u32 thread_id;
  // How many epoch variables of its thread its history held when it was
  // made, itself included.
  u8 own_count;
  // Its epoch ended and its thread ran its checks: the thread no longer
  // names it (runtime/hrace_ndr.cpp may then free it from any thread).
  u8 checked;
  // While it is its history's head: how many epoch variables the history
  // holds (runtime/hrace_ndr.cpp bounds it).
  u8 history_length;
  NdrBytes read_first;
  NdrBytes written;
  NdrBytes read_after_write;
  // Its reported bytes and its reading thread's correlations, or null:
  // written by its thread while the epoch runs, by the checks (under the
  // variable's lock) once it ended.
  NdrReadExtras *extras;
  NdrAccessRecord writes[kRecords];
  NdrAccessRecord reads_first[kRecords];
  // Reading bytes after writing them in one epoch is rarer: one record.
  NdrAccessRecord reads_after_write[1];
};
// Every variable an epoch touches has one: its size is ndr=1's memory.
static_assert(sizeof(EpochVariable) == 128, "an epoch variable is 128 bytes");
static_assert(__builtin_offsetof(EpochVariable, extras) == 64,
              "the fields a walk reads fill the first cache line");

// Records an access of bytes [offset, offset + size) with stack `stack` that
// brought new bytes to the records' kind: a record of the same stack that it
// touches grows into it (a loop over an array), if that claims no other
// record's bytes; else it takes a free record; else the last one widens.
void NdrRecordAccess(NdrAccessRecord *records, u32 count, u8 offset, u8 size,
                     StackId stack);
// The bytes record i claims.
NdrBytes NdrRecordBytes(const NdrAccessRecord *records, u32 i);
// The record of a write that wrote some of `mask`'s bytes (one that wrote
// most of them).
const NdrAccessRecord &NdrWriteFor(const EpochVariable &v, NdrBytes mask);

// Some of `mask`'s bytes were read first, then written, all under an
// exclusive lock (the epoch's locks are those of the whole epoch): an
// update.
bool NdrIsLockedUpdate(const EpochVariable &v, NdrBytes mask);

// The bytes of `mask` that the writes `writes` and the locked updates
// (`read`'s, the writes') all treat as they treat mask's lowest byte: written
// by the same writes and updated in the same epochs. Every criterion below
// gives such bytes one answer, each byte's own, where it could give a mask
// that mixes them another: a read of several program variables (a loop's
// elements, the pass's runs of loads) that updates one of them under a
// lock would count as an update of all, and a serialised update of that
// one would shut out another thread's write of the others.
NdrBytes NdrUniformBytes(const EpochVariable &read, NdrBytes mask,
                         const EpochVariable *const *writes, u32 write_count);

// The write dependencies of the read of bytes `mask` by `read`
// (after_own_write: a read of bytes the epoch had written; else a first
// read) among `writes` (every epoch variable of the variable that wrote;
// `read` itself among them if it wrote). Fills deps (at most max_deps) and
// returns how many there are.
u32 NdrWriteDependencies(const EpochVariable &read, bool after_own_write,
                         NdrBytes mask, const EpochVariable *const *writes,
                         u32 write_count, const EpochVariable **deps,
                         u32 max_deps);

// The dependency is parallel to the read.
bool NdrIsParallel(const EpochVariable &read, const EpochVariable &dep);

// The read of bytes `mask` with these dependencies is non-deterministic:
// one is parallel to it, or two unordered ones wrote one of its bytes
// (dependencies that each give other bytes leave no choice).
bool NdrIsNonDeterministic(const EpochVariable &read, NdrBytes mask,
                           const EpochVariable *const *deps, u32 count);

} // namespace hrace

#endif // HRACE_NDR_H
