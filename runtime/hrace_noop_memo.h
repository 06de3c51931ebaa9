//===-- hrace_noop_memo.h - What a thread's accesses do to cell values ----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The inline no-op test of a state machine (IsNoop) covers the exclusive
// states in the owner's segment. A location shared by several threads (a
// Shared-Read parameter block, a Shared-Modified field under a common lock,
// msm=hb's concurrent reads) goes through the full transition on every
// access, only to find that nothing changes.
//
// A transition depends on the cell's value and on the thread's
// synchronisation state alone: its segment, its vector clock and its lock
// set. So once the slow path has found that a read (or write) leaves a value
// V unchanged, every later read (write) of V by the same thread is a no-op
// too, until the thread's synchronisation state changes. This memo holds
// such values, per access kind, in a small direct-mapped table. Many cells
// share one value (every byte of a shared structure with the same history),
// so a few entries cover a whole structure. The same holds of a value that
// the access changes (FindChange): one thread's array, written in one
// segment and handed to another thread, is read or written there granule
// after granule from one value to one value.
//
// Entries hold the complement of the cell, so the zero-initialised table of
// a new thread matches no cell (the all-ones cell does not exist: state 15 is
// unused). Invalidation is lazy: a synchronisation event only sets a flag,
// and the table is cleared by the next insertion.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_NOOP_MEMO_H
#define HRACE_NOOP_MEMO_H

#include "hrace_defs.h"
#include "hrace_inline_test.h"
#include "hrace_libc.h"

namespace hrace {

class NoopMemo {
public:
  static constexpr u32 kEntries = 16;

  ALWAYS_INLINE bool Contains(u64 cell, bool write) const {
    return !stale_ && entries_[write][Index(cell)] == ~cell;
  }

  void Insert(u64 cell, bool write) {
    Refresh();
    entries_[write][Index(cell)] = ~cell;
  }

  // A change the thread's slow path made: `old` became `now`. The same
  // value stands for many granules (every element of an array that one
  // thread wrote in one segment and another now reads or writes; a buffer
  // read or written a byte at a time takes the same transition for each
  // byte of a granule), and the transition depends on the synchronisation
  // state that is the memo's lifetime. Only transitions that found no race
  // and read nothing of the address are kept (hand-off scopes look up the
  // heap block around it). A row that answered without that look-up, as
  // no hand-off edge or record was there to find (hybrid::HandedOver),
  // stays right for the memo's lifetime too: this thread's edges are added
  // at an unlock, which starts a segment, and another thread's record
  // counts only once this thread acquires that thread's clock.
  ALWAYS_INLINE bool FindChange(u64 old, bool write, u64 *now) const {
    const Change &c = changes_[write][Index(old) % kChanges];
    if (stale_ || c.not_old != ~old)
      return false;
    *now = c.now;
    return true;
  }

  void NoteChange(u64 old, u64 now, bool write) {
    Refresh();
    changes_[write][Index(old) % kChanges] = {~old, now};
  }

  // The thread's segment, clock or lock set changed. The memo is the
  // running thread's, and so are the inline tests made from it.
  ALWAYS_INLINE void Invalidate() {
    stale_ = true;
    DropInlineMemoTests();
  }

private:
  void Refresh() {
    if (!stale_)
      return;
    internal_memset(entries_, 0, sizeof(entries_));
    internal_memset(changes_, 0, sizeof(changes_));
    stale_ = false;
  }

  // Mixes state, segment and aux: cells of one structure differ in aux only
  // (candidate locks, thread set) or in segment only.
  static ALWAYS_INLINE u32 Index(u64 cell) {
    return static_cast<u32>((cell >> 4) ^ (cell >> 34)) % kEntries;
  }

  // The old value complemented, as the entries are: a zeroed change
  // matches no cell (New is 0).
  static constexpr u32 kChanges = 8;
  struct Change {
    u64 not_old, now;
  };
  bool stale_ = false;
  u64 entries_[2][kEntries] = {};
  Change changes_[2][kChanges] = {};
};

} // namespace hrace

#endif // HRACE_NOOP_MEMO_H
