//===-- hrace_correlation.h - Variable correlations of one thread ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The four correlation patterns of seeds/002 (section IV-B), from the data
// and control dependencies the pass finds statically and binds to addresses
// at run time (__hrace_ndr_dep before a store, __hrace_ndr_write for it):
//   vertical    a store's value depends on a load: from -> to. Followed
//               transitively (the paper's figure 14 misses Euro -> Dollar):
//               a live w -> u and a store u -> v make w -> v too.
//   control     a store is control-dependent on a branch whose condition
//               depends on a load: from -> to.
//   parental    two fields of one object written one right after the other
//               (no other store between): from <-> to.
//   horizontal  two variables stored from a common third with neither
//               rewritten between: from <-> to.
// A correlation lives in the thread that made it: its data or control
// dependency is that thread's computation, and another thread's write of
// one of its variables is exactly the race that violates it (figure 11). So
// only the thread's own stores end them: vertical and control when either
// variable is stored again (a store that re-creates the dependency makes it
// anew), parental and horizontal once both have been stored again.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_CORRELATION_H
#define HRACE_CORRELATION_H

#include "hrace_ndr.h"

namespace hrace {

class CorrelationTracker {
public:
  // Live correlations kept per thread; the oldest goes when more are made.
  static constexpr u32 kMaxLive = 32;
  static constexpr u32 kMaxPending = 16;

  // The next store's value (control: its execution) depends on the load of
  // the variable at `from`, named `name` (or null). Inline: the pass calls
  // it for every load a store depends on.
  void AddDependency(uptr from, bool control, const char *name = nullptr) {
    if (pending_count_ < kMaxPending)
      pending_[pending_count_++] = {from, name, control};
  }
  // The thread stored to `to`, named `name` (or null), at pc; `parent`: the
  // object whose field `to` is, 0 if none. Ends what the store ends, then
  // makes what it makes.
  void Store(uptr to, uptr parent, uptr pc, const char *name = nullptr);
  // The next store is not seen: its dependencies go.
  void DropDependencies() { pending_count_ = 0; }
  // The live correlations that name an address of [addr, addr + size), at
  // most max of them.
  u32 Involving(uptr addr, uptr size, Correlation *out, u32 max) const;
  u32 live_count() const { return live_count_; }

private:
  // A live correlation less its two addresses, which ends_ holds.
  struct Live {
    CorrelationKind kind;
    // Parental and horizontal: bit 0, `from` stored again; bit 1, `to`.
    u8 rewritten;
    uptr pc;
    const char *from_name;
    const char *to_name;
  };
  struct Pending {
    uptr from;
    const char *name;
    bool control;
  };
  // One end of a correlation being made.
  struct End {
    uptr addr;
    const char *name;
  };
  void Add(CorrelationKind kind, End from, End to, uptr pc);
  // live_[i] is this correlation: it gets the new pc and names, and lives
  // on.
  bool Renew(u32 i, CorrelationKind kind, End from, End to, uptr pc);
  void Remove(u32 i);
  // The live slots that name an address of each bucket, one bit a slot:
  // most stores and reads name none, and the others visit only the slots
  // their bucket names (a counting filter let blackscholes' stores scan
  // all 32 slots, a third of its time under ndr=1).
  static constexpr u32 kBuckets = 1024;
  static_assert(kMaxLive <= 32, "a bucket's slots fit in 32 bits");
  static u32 Bucket(uptr addr) {
    return static_cast<u32>((addr >> 2) ^ (addr >> 12)) % kBuckets;
  }
  u32 SlotsNaming(uptr addr) const { return slots_[Bucket(addr)]; }
  // Slot i names its two addresses, or no longer does.
  void Index(u32 i) {
    slots_[Bucket(ends_[i].from)] |= 1u << i;
    slots_[Bucket(ends_[i].to)] |= 1u << i;
  }
  void Unindex(u32 i) {
    slots_[Bucket(ends_[i].from)] &= ~(1u << i);
    slots_[Bucket(ends_[i].to)] &= ~(1u << i);
  }
  // The store being made depends on the data of addr: addr and it are
  // vertically related, not only horizontally.
  bool DependsOn(uptr addr) const;

  // Slot i's two addresses, apart from the rest of it (live_[i]): the
  // scans of every store and read compare only these (32 × 16 bytes, not
  // 32 × 48; the scans were half of the tracker's time on fluidanimate).
  struct Ends {
    uptr from, to;
    bool Names(uptr addr) const { return from == addr || to == addr; }
    bool NamesIn(uptr begin, uptr end) const {
      return (from >= begin && from < end) || (to >= begin && to < end);
    }
  };
  void Set(u32 slot, const Correlation &c);
  Correlation At(u32 slot) const;

  Live live_[kMaxLive];
  Ends ends_[kMaxLive];
  u32 live_count_ = 0;
  u32 next_evicted_ = 0;
  // The slots of the correlations the current store made.
  u32 made_[kMaxLive];
  u32 made_count_ = 0;
  Pending pending_[kMaxPending];
  u32 pending_count_ = 0;
  End last_store_ = {0, nullptr};
  uptr last_parent_ = 0;
  u32 slots_[kBuckets] = {};
};

} // namespace hrace

#endif // HRACE_CORRELATION_H
