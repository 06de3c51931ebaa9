//===-- hrace_sync.cpp - Synchronisation objects --------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_sync.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

#include <new>

namespace hrace {

void SyncTable::Init() {
  objects_ = static_cast<SyncObject *>(MmapNoReserveOrDie(
      kMaxObjects * sizeof(SyncObject), "sync object table"));
  free_ids_ = static_cast<SyncId *>(
      MmapNoReserveOrDie(kMaxObjects * sizeof(SyncId), "sync free list"));
}

namespace {
void FreeSignalWrites(SyncObject *s) {
  SignalWrite *w = s->signal_writes;
  s->signal_writes = nullptr;
  while (w) {
    SignalWrite *next = w->next;
    w->clock.Free();
    InternalFree(w);
    w = next;
  }
}
} // namespace

SyncId SyncTable::Allocate() {
  SpinMutexLock l(&mu_);
  SyncId id = free_count_ ? free_ids_[--free_count_] : next_id_++;
  if (id >= kMaxObjects)
    Die("HybridRace: more than %u live synchronisation objects\n",
        kMaxObjects);
  SyncObject *s = new (&objects_[id]) SyncObject();
  s->lock_id = next_lock_id_++;
  return id;
}

void SyncTable::Release(SyncId id) {
  SyncObject *s = &objects_[id];
  s->clock.Free();
  s->read_clock.Free();
  FreeSignalWrites(s);
  SpinMutexLock l(&mu_);
  free_ids_[free_count_++] = id;
}

SyncObject *SyncTable::GetOrCreate(uptr addr) {
  if (!IsAppMem(addr))
    return nullptr;
  MetaCell *meta = MemToMeta(addr);
  SyncId id = LoadAcquire(&meta->sync);
  if (LIKELY(id))
    return &objects_[id];
  SyncId fresh = Allocate();
  objects_[fresh].addr = addr;
  SyncId expected = 0;
  // Two threads may create the object at once; the first one published wins.
  if (__atomic_compare_exchange_n(&meta->sync, &expected, fresh, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return &objects_[fresh];
  Release(fresh);
  return &objects_[expected];
}

SyncObject *SyncTable::Get(uptr addr) {
  if (!IsAppMem(addr))
    return nullptr;
  SyncId id = LoadAcquire(&MemToMeta(addr)->sync);
  return id ? &objects_[id] : nullptr;
}

void SyncTable::ResetRange(uptr addr, uptr size) {
  uptr beg = addr & ~(kMetaGranule - 1);
  for (uptr a = beg; a < addr + size; a += kMetaGranule) {
    MetaCell *meta = MemToMeta(a);
    // Most granules hold no object: a plain load is much cheaper than an
    // exchange on every 8 bytes of a large freed block.
    if (!LoadRelaxed(&meta->sync))
      continue;
    SyncId id = __atomic_exchange_n(&meta->sync, 0, __ATOMIC_ACQ_REL);
    if (id)
      Release(id);
  }
}

} // namespace hrace
