//===-- hrace_lockset.cpp - The locks a thread holds -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_lockset.h"

namespace hrace {

void HeldLocks::RemoveInside(LockId id) {
  // The latest hold of the lock goes, as in Remove: search from the end.
  for (u32 i = count_; i-- > 0;) {
    if (ids_[i] != id)
      continue;
    for (u32 j = i + 1; j < count_; j++) {
      ids_[j - 1] = ids_[j];
      write_held_[j - 1] = write_held_[j];
      singles_[j - 1] = singles_[j];
    }
    count_--;
    dirty_ = true;
    return;
  }
}

void HeldLocks::ForgetSets() {
  for (u32 i = 0; i < count_; i++)
    singles_[i] = kEmptyLockSet;
  dirty_ = true;
}

bool HeldLocks::Holds(LockId id) const {
  for (u32 i = 0; i < count_; i++)
    if (ids_[i] == id)
      return true;
  return false;
}

void HeldLocks::Refresh(IdSetTable *table) {
  if (count_ == 1 && singles_[0] != kEmptyLockSet) {
    all_ = singles_[0];
    write_ = write_held_[0] ? singles_[0] : kEmptyLockSet;
    dirty_ = false;
    return;
  }
  LockId all[kMax], write[kMax];
  u32 n_all = 0, n_write = 0;
  for (u32 i = 0; i < count_; i++) {
    all[n_all++] = ids_[i];
    if (write_held_[i])
      write[n_write++] = ids_[i];
  }
  // Insertion sort: sets are small and intern needs them sorted.
  auto sort = [](LockId *a, u32 n) {
    for (u32 i = 1; i < n; i++)
      for (u32 j = i; j > 0 && a[j - 1] > a[j]; j--) {
        LockId t = a[j];
        a[j] = a[j - 1];
        a[j - 1] = t;
      }
  };
  // A read lock taken twice is held twice; a set holds it once.
  auto sort_unique = [&sort](LockId *a, u32 *n) {
    sort(a, *n);
    u32 out = 0;
    for (u32 i = 0; i < *n; i++)
      if (!out || a[out - 1] != a[i])
        a[out++] = a[i];
    *n = out;
  };
  sort_unique(all, &n_all);
  sort_unique(write, &n_write);
  all_ = table->Intern(all, n_all);
  // Every lock held for writing (the commonest case): the same set, without
  // a second lookup.
  write_ = n_write == n_all ? all_ : table->Intern(write, n_write);
  dirty_ = false;
}

} // namespace hrace
