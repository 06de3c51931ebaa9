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
  chunk_marks_ = static_cast<u8 *>(MmapNoReserveOrDie(
      (kCompressedSize >> kChunkShift) + 1, "sync chunk marks"));
  lock_index_ = static_cast<SyncId *>(
      MmapNoReserveOrDie(kLockIndexSize * sizeof(SyncId), "lock name index"));
}

void SyncTable::MarkChunk(uptr addr) {
  u8 *mark = &chunk_marks_[CompressAppAddr(addr) >> kChunkShift];
  // Most creations hit a marked chunk: a load keeps the line shared.
  if (!LoadRelaxed(mark))
    StoreRelease(mark, static_cast<u8>(1));
}

bool SyncTable::ChunkMayHoldObjects(uptr chunk) const {
  return LoadAcquire(&chunk_marks_[chunk]) != 0;
}

namespace {
// What an object without extras has published through them: nothing.
const VectorClock kEmptyClock;
} // namespace

SyncExtras &SyncObject::Extras() {
  if (SyncExtras *x = extras())
    return *x;
  SyncExtras *fresh = new (InternalCalloc(sizeof(SyncExtras))) SyncExtras();
  SyncExtras *expected = nullptr;
  if (__atomic_compare_exchange_n(&extras_, &expected, fresh, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return *fresh;
  InternalFree(fresh);
  return *expected;
}

const VectorClock &SyncObject::atomic_clock() const {
  SyncExtras *x = extras();
  return x ? x->atomic_clock : kEmptyClock;
}

const VectorClock &SyncObject::read_clock() const {
  SyncExtras *x = extras();
  return x ? x->read_clock : kEmptyClock;
}

void SyncObject::FreeExtras() {
  // Taken out first: a late user (a waiter returning from a destroyed
  // condition variable, under mu as this is) finds none rather than the
  // freed block.
  SyncExtras *x = __atomic_exchange_n(
      &extras_, static_cast<SyncExtras *>(nullptr), __ATOMIC_ACQ_REL);
  if (!x)
    return;
  x->atomic_clock.Free();
  x->read_clock.Free();
  if (x->barrier) {
    x->barrier->round_clock[0].Free();
    x->barrier->round_clock[1].Free();
    InternalFree(x->barrier);
  }
  InternalFree(x);
}

SyncId SyncTable::Allocate() {
  SpinMutexLock l(&mu_);
  bool reused = free_count_ != 0;
  SyncId id = reused ? free_ids_[--free_count_] : next_id_++;
  if (id >= kMaxObjects)
    Die("HybridRace: more than %u live synchronisation objects\n",
        kMaxObjects);
  // The clock version keeps counting across reuse: a thread's memo of an
  // earlier object in this slot must not match the new one.
  u32 version = 0;
  // A slot never used is zero and is not read: on a page never touched the
  // read would map the zero page, which the constructor's store then
  // copies, flushing the TLB of every core the process runs on (freqmine
  // makes a mutex per tree node).
  if (reused) {
    version = objects_[id].atomic_clock_version;
    // Extras a late user made after the slot was released go with it.
    objects_[id].FreeExtras();
  }
  new (&objects_[id]) SyncObject();
  objects_[id].atomic_clock_version = version + 1;
  return id;
}

void SyncTable::Release(SyncId id) {
  SyncObject *s = &objects_[id];
  if (s->in_lock_order_graph && forget_lock_)
    forget_lock_(s->lock_id);
  s->clock.Free();
  {
    // A reader of the map that found the object by name
    // (ReadAfterLockedWrites) holds `mu`, and sees the name gone.
    SpinMutexLock l(&s->mu);
    s->FreeExtras();
    s->writes.Free();
    StoreRelaxed(&s->lock_id, 0u);
  }
  SpinMutexLock l(&mu_);
  free_ids_[free_count_++] = id;
}

SyncObject *SyncTable::Create(uptr addr, MetaCell *meta) {
  SyncId fresh = Allocate();
  objects_[fresh].addr = addr;
  // Marked before the id is published, so a reset that finds the chunk
  // unmarked knows there is nothing to forget in it.
  MarkChunk(addr);
  SyncId expected = 0;
  // Two threads may create the object at once; the first one published wins.
  if (__atomic_compare_exchange_n(&meta->sync, &expected, fresh, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return &objects_[fresh];
  Release(fresh);
  return &objects_[expected];
}

void SyncTable::NameLock(SyncObject *s) {
  LockId id = __atomic_add_fetch(&last_lock_id_, 1, __ATOMIC_RELAXED);
  StoreRelaxed(&lock_index_[id % kLockIndexSize],
               static_cast<SyncId>(s - objects_));
  StoreRelaxed(&s->lock_id, id);
}

SyncObject *SyncTable::ForLock(LockId id) const {
  if (!lock_index_ || !id)
    return nullptr;
  SyncId sid = LoadRelaxed(&lock_index_[id % kLockIndexSize]);
  if (!sid)
    return nullptr;
  SyncObject *s = &objects_[sid];
  return LoadRelaxed(&s->lock_id) == id ? s : nullptr;
}

SyncObject *SyncTable::Get(uptr addr) {
  if (!IsAppMem(addr))
    return nullptr;
  SyncId id = LoadAcquire(&MemToMeta(addr)->sync);
  return id ? &objects_[id] : nullptr;
}

SyncObject *SyncTable::GetBeforeWrite(uptr addr) {
  if (!IsAppMem(addr))
    return nullptr;
  // A compare-and-swap of 0 for 0: the compiler turns an idempotent
  // read-modify-write (an or of 0) into a fenced load. A cell that holds an
  // id is not changed; x86-64 writes its value back all the same.
  SyncId id = 0;
  __atomic_compare_exchange_n(&MemToMeta(addr)->sync, &id, 0u, false,
                              __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
  return id ? &objects_[id] : nullptr;
}

void SyncTable::ResetRange(uptr addr, uptr size) {
  ForEachMetaCell(addr, size, [this](MetaCell *meta) {
    if (SyncId id = __atomic_exchange_n(&meta->sync, 0, __ATOMIC_ACQ_REL))
      Release(id);
  });
}

} // namespace hrace
