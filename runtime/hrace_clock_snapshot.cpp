//===-- hrace_clock_snapshot.cpp - Shared, immutable vector clocks --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_clock_snapshot.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

namespace hrace {

ClockSnapshot *ClockSnapshot::Make(const VectorClock &clock) {
  u32 n = clock.size();
  auto *s = static_cast<ClockSnapshot *>(
      InternalAlloc(sizeof(ClockSnapshot) + n * sizeof(Clock)));
  s->refs_ = 1;
  s->size_ = n;
  for (u32 i = 0; i < n; i++)
    s->clocks_[i] = clock.Get(i);
  return s;
}

ClockSnapshot *ClockSnapshot::MakeJoin(const ClockRef &a, const ClockRef &b) {
  u32 n = a.size() > b.size() ? a.size() : b.size();
  auto *s = static_cast<ClockSnapshot *>(
      InternalAlloc(sizeof(ClockSnapshot) + n * sizeof(Clock)));
  s->refs_ = 1;
  s->size_ = n;
  for (u32 i = 0; i < n; i++)
    s->clocks_[i] = a.Get(i) > b.Get(i) ? a.Get(i) : b.Get(i);
  return s;
}

bool ClockSnapshot::JoinInPlace(const ClockRef &a, const ClockRef &b) {
  if (LoadAcquire(&refs_) != 1 || a.size() > size_ || b.size() > size_)
    return false;
  for (u32 i = 0; i < size_; i++) {
    Clock known = a.Get(i) > b.Get(i) ? a.Get(i) : b.Get(i);
    clocks_[i] = known;
  }
  return true;
}

void ClockSnapshot::Unref() {
  if (__atomic_sub_fetch(&refs_, 1, __ATOMIC_ACQ_REL) == 0)
    InternalFree(this);
}

bool ClockRef::KnownBy(const ClockRef &other) const {
  for (u32 i = 0; i < size(); i++)
    if (Get(i) > other.Get(i))
      return false;
  return true;
}

bool ClockRef::KnownBy(const VectorClock &clock) const {
  if (clock.Get(slot()) < clock_)
    return false;
  if (!base())
    return true;
  for (u32 i = 0; i < base()->size(); i++)
    if (base()->Get(i) > clock.Get(i))
      return false;
  return true;
}

void ClockRef::Assign(ClockSnapshot *base, u32 slot, Clock clock) {
  // The same snapshot keeps its reference: a thread that publishes its clock
  // again at every unlock (a counter it bumps) makes no locked instruction
  // for it, where the pair was two of a lock/unlock's five.
  if (base != this->base()) {
    if (base)
      base->Ref();
    if (this->base())
      this->base()->Unref();
  }
  SetBaseAndSlot(base, slot);
  clock_ = clock;
}

void ClockRef::Assign(const ClockRef &other) {
  Assign(other.base(), other.slot(), other.clock_);
}

bool ClockRef::JoinInto(VectorClock *clock) const {
  bool grew = base() && clock->Join(base()->clocks(), base()->size());
  if (clock->Get(slot()) >= clock_)
    return grew;
  clock->Set(slot(), clock_);
  return true;
}

void ClockRef::Join(const ClockRef &other) {
  // One snapshot at two points of its owner (a counter a thread bumps in
  // section after section): the later point knows the other.
  if (base_and_slot_ == other.base_and_slot_) {
    if (other.clock_ > clock_)
      clock_ = other.clock_;
    return;
  }
  // One pass tells whether one side already knows the other: often one is
  // the other's past (a thread that changes a counter again), and the newer
  // one alone says everything.
  bool other_known = true, this_known = true;
  u32 n = size() > other.size() ? size() : other.size();
  for (u32 i = 0; i < n && (other_known || this_known); i++) {
    Clock mine = Get(i), theirs = other.Get(i);
    other_known &= theirs <= mine;
    this_known &= mine <= theirs;
  }
  if (other_known)
    return;
  if (this_known) {
    Assign(other);
    return;
  }
  if (base()->JoinInPlace(*this, other)) {
    SetBaseAndSlot(base(), other.slot());
    clock_ = other.clock_;
    return;
  }
  ClockSnapshot *joined = ClockSnapshot::MakeJoin(*this, other);
  Assign(joined, other.slot(), other.clock_);
  joined->Unref();
}

void ClockRef::Reset() { Assign(nullptr, 0, 0); }

} // namespace hrace
