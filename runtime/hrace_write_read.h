//===-- hrace_write_read.h - Write/read relations (precise=1) -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Correct ordering through condition variables without annotations
// (seeds/000, section 5 and figure 6). Inside a lock region a thread records
// what it reads (R) and writes (W). A signal maps every location in W to the
// signaller's clock (DS). A completed wait, either a real return from the
// wait or an exit from a compiler-marked wait loop when the signal came first
// and the wait was never called, orders the waiter after the signallers
// whose writes its condition read. Only a real return with no such relation
// falls back to the clock the condition variable accumulated from every
// signaller.
//
// DS lives with the sync object of the location's 8-byte granule, one entry
// per byte mask, so adjacent flags of different signal/wait pairs stay apart.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_WRITE_READ_H
#define HRACE_WRITE_READ_H

#include "hrace_defs.h"

namespace hrace {

struct ThreadState;

// The recent reads or writes of one lock region, newest last.
class RegionAccesses {
public:
  static constexpr u32 kMax = 64;

  void Add(uptr addr, uptr size);
  void Clear() { count_ = 0; }
  u32 count() const { return count_ < kMax ? count_ : kMax; }
  // The i-th most recent access.
  void Get(u32 i, uptr *addr, uptr *size) const;

private:
  uptr addr_[kMax] = {};
  u32 size_[kMax] = {};
  u32 count_ = 0;
};

// Whether accesses are being recorded: precise mode of a hybrid machine and
// at least one lock held.
bool WriteReadRelationsEnabled();
void UpdateRecording(ThreadState *thr);

// A lock was taken: a new region starts with nothing read or written.
void LockRegionStarted(ThreadState *thr);
// The waiter's condition starts here (a marked loop's entry): what it reads
// from now on is the condition.
void WaitConditionStarts(ThreadState *thr);
void RecordRegionAccess(ThreadState *thr, uptr addr, uptr size, bool write);

// Before signal/broadcast on cv: DS(d) = signaller's clock for d in W.
void SignalMapsWrites(ThreadState *thr);

// The wait function returned (`signalled`: not a time-out or an error). In
// precise mode the ordering is decided once the condition has been read
// again: at the marked loop's exit, or at the next unlock.
void WaitReturned(ThreadState *thr, uptr cv, bool signalled);
// A marked wait loop exited: the wait has logically completed.
void WaitLoopExited(ThreadState *thr);
// Before a real unlock: a wait that returned outside a marked loop completes
// here.
void ResolvePendingWait(ThreadState *thr);

} // namespace hrace

#endif // HRACE_WRITE_READ_H
