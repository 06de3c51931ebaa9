//===-- hrace_sync.h - Synchronisation objects ----------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the runtime knows about a mutex, condition variable, barrier,
// semaphore, once-control, atomic variable or annotated address: its release
// clock(s) and, for locks, its name and owner. Found through the meta table
// (MetaCell::sync of the object's 8-byte granule), never a hash map.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SYNC_H
#define HRACE_SYNC_H

#include "../shadow/hrace_shadow.h"
#include "hrace_defs.h"
#include "hrace_lock_writes.h"
#include "hrace_lockset.h"
#include "hrace_mutex.h"
#include "hrace_stack_depot.h"
#include "hrace_vector_clock.h"

namespace hrace {

typedef u32 SyncId;

// A barrier's rounds: the thread count given to pthread_barrier_init (0:
// unknown), the arrivals at the current round, its number, and what the
// arrivals of even and odd rounds published (BarrierArrive in hrace_rtl.cpp).
// Out of line: few sync objects are barriers.
struct BarrierState {
  u32 count;
  u32 arrived;
  u32 round;
  VectorClock round_clock[2];
};

// What the program made of an object through the pthreads API, for the
// misuse checks (hrace_misuse.h). Objects only the annotations or the
// ThreadSanitizer interface know are kUnknown and checked less.
enum class SyncKind : u8 {
  kUnknown,
  kMutex,
  kRwLock,
  kSpinLock,
  kCond,
  kBarrier,
  kSemaphore,
};

// What only some objects need, out of line: atomic variables, reader-writer
// locks, condition variables, semaphores and barriers. A program with a
// mutex per node of a tree (freqmine: a million) has none, and its objects
// are half the size they were with these inline.
struct SyncExtras {
  // What an acquire of the atomic variable's current value learns
  // (hrace_atomic.cpp). Apart from SyncObject::clock: a lock word is an
  // atomic variable and a lock at once, and its relaxed stores must not
  // empty what its unlocks published.
  VectorClock atomic_clock;
  // Atomics at two addresses of the object's granule have used the atomic
  // clock: it only ever joins (hrace_atomic.cpp, PublishAtomicClock).
  bool atomic_clock_shared;
  // What read-unlocks of a reader-writer lock published; only a write lock
  // acquires it (a reader need not wait for other readers).
  VectorClock read_clock;
  // Threads inside pthread_cond_wait or sem_wait on the object, and the
  // mutex the condition variable's waiters use.
  u32 waiters;
  // Of a condition variable's waiters, those a signal or broadcast has
  // already unblocked (they may destroy it before the waiters return).
  u32 woken;
  uptr cond_mutex;
  // Barriers only: made by the first pthread_barrier_init or arrival.
  BarrierState *barrier;
};

struct SyncObject {
  SpinMutex mu;
  // The name in reports (M<n>), unique for the life of the process; given
  // when the object is first locked (0 until then), so that M1 is the first
  // lock taken whichever thread created the object.
  LockId lock_id;
  uptr addr;
  // Bumped at every change of the atomic clock, for the fence memo of
  // relaxed readers; it keeps counting when the object's slot is reused.
  u32 atomic_clock_version;
  // What releases published: unlock, signal, post, barrier arrival, atomic
  // release, ANNOTATE_HAPPENS_BEFORE.
  VectorClock clock;
  // Write owner of a lock (thread id + 1, 0 when free) and its recursion:
  // changed without `mu` by the thread that holds the lock, read by any
  // with relaxed atomics (MutexLocked).
  u32 owner;
  u32 recursion;
  // Read holds of a reader-writer lock, counted atomically without `mu`.
  u32 readers;
  // For the misuse checks: where the object was first seen, the kind, and
  // whether a pthread_*_init made it (a barrier must be).
  StackId first_seen;
  u32 first_seen_thread;
  SyncKind kind;
  bool initialized;
  // The lock is a node of the lock-order graph (hrace_lock_order.h).
  bool in_lock_order_graph;
  // ANNOTATE_PURE_HAPPENS_BEFORE_MUTEX: this lock orders (unlock before the
  // next lock) in the hybrid machines too, as every lock does in msm=hb.
  bool pure_happens_before;
  // Locks: what their critical sections wrote, and what the writers knew
  // (DS of the write/read relations, hrace_write_read.h).
  LockWrites writes;

  // The interned set {lock_id} if it was interned in lock-set generation
  // `generation` (0 if not): most sections hold one lock, and its set then
  // costs no table lookup (HeldLocks). Racing threads store the same id.
  LockSetId SingleLockSet(u32 generation) const {
    u64 v = LoadRelaxed(&single_lock_set_);
    return static_cast<u32>(v >> 32) == generation ? static_cast<LockSetId>(v)
                                                   : kEmptyLockSet;
  }
  void SetSingleLockSet(LockSetId set, u32 generation) {
    StoreRelaxed(&single_lock_set_, static_cast<u64>(generation) << 32 | set);
  }

  // The out-of-line part if it was made.
  SyncExtras *extras() const { return LoadAcquire(&extras_); }
  // The out-of-line part, made now if need be (by any thread, with or
  // without `mu`: the first one published wins).
  SyncExtras &Extras();
  // The atomic clock and the read-unlock clock, empty if never made.
  const VectorClock &atomic_clock() const;
  const VectorClock &read_clock() const;
  // Freed with the object's slot (SyncTable::Release).
  void FreeExtras();

private:
  // The set's id and, in the high half, the generation that interned it
  // (lock-set ids are recycled with the shadow's generations).
  u64 single_lock_set_;
  SyncExtras *extras_;
};
// The table holds one per live mutex of the program (freqmine: a million).
static_assert(sizeof(SyncObject) <= 104, "SyncObject grew past 104 bytes");

class SyncTable {
public:
  static constexpr u32 kMaxObjects = 1 << 22;
  // Entries of the index of lock names (ForLock).
  static constexpr u32 kLockIndexSize = kMaxObjects;

  void Init();
  // The object at addr, created on first use; nullptr for non-app addresses.
  // Inline: a lock and its unlock each look their object up (callgrind: 43
  // instructions a call out of line, most of them the creation's frame).
  ALWAYS_INLINE SyncObject *GetOrCreate(uptr addr) {
    if (!IsAppMem(addr))
      return nullptr;
    MetaCell *meta = MemToMeta(addr);
    SyncId id = LoadAcquire(&meta->sync);
    if (LIKELY(id))
      return &objects_[id];
    return Create(addr, meta);
  }
  // The object at addr if there is one.
  SyncObject *Get(uptr addr);
  // The same, for a caller that writes the address's meta cell next (an
  // init): the cell is read by a locked read-modify-write, which on a meta
  // page never touched makes the kernel map a page of the process's own.
  // A plain load would map the zero page, and the write after it would copy
  // that page and flush the TLB of every core the process runs on
  // (freqmine: a node's lock in the page after its block's start, once per
  // 4 KiB of nodes).
  SyncObject *GetBeforeWrite(uptr addr);
  // Forgets the objects in [addr, addr+size), e.g. mutexes in freed memory.
  void ResetRange(uptr addr, uptr size);
  // Calls fn(SyncObject *) for each object in [addr, addr+size).
  template <typename Fn> void ForEachInRange(uptr addr, uptr size, Fn fn);
  // Called with each lock that is forgotten and is in the lock-order graph.
  void SetForgetLockHook(void (*hook)(LockId)) { forget_lock_ = hook; }
  // Names `s` (a lock, once): the next M<n>, which ForLock then finds it by.
  void NameLock(SyncObject *s);
  // The live object named `id`, or nullptr if it is gone (or its entry was
  // taken by a lock named kLockIndexSize later). The caller checks the name
  // again under the object's `mu`.
  SyncObject *ForLock(LockId id) const;

private:
  // GetOrCreate's first use of addr, whose meta cell is `meta`.
  NOINLINE SyncObject *Create(uptr addr, MetaCell *meta);
  SyncId Allocate();
  void Release(SyncId id);

  // Application memory is summarised in chunks of 2^kChunkShift bytes: a
  // chunk where no object was ever created needs no meta scan on reset. A
  // thread stack (8 MB of meta, reset at every thread start) usually has
  // none; scanning it would fault in, and keep, a zero page per 4 KB.
  static constexpr uptr kChunkShift = 20;
  void MarkChunk(uptr addr);
  bool ChunkMayHoldObjects(uptr chunk) const;

  // The meta cells of [addr, addr+size) that may hold an object, in order.
  template <typename Fn> void ForEachMetaCell(uptr addr, uptr size, Fn fn);

  SpinMutex mu_;
  void (*forget_lock_)(LockId) = nullptr;
  u8 *chunk_marks_ = nullptr;
  SyncObject *objects_ = nullptr;
  SyncId *free_ids_ = nullptr;
  u32 free_count_ = 0;
  SyncId next_id_ = 1;
  LockId last_lock_id_ = 0;
  // The object of each name, direct-mapped by the name's low bits: a lock
  // set holds names, and a would-be report reads the maps of its locks
  // (detectors/hrace_hybrid.h, ReadAfterLockedWrites).
  SyncId *lock_index_ = nullptr;
};

template <typename Fn>
void SyncTable::ForEachMetaCell(uptr addr, uptr size, Fn fn) {
  uptr beg = addr & ~(kMetaGranule - 1);
  uptr end = addr + size;
  for (uptr a = beg; a < end; a += kMetaGranule) {
    // Chunks never compress across a gap between application regions, so
    // the next chunk of a is a + chunk size in both address spaces.
    uptr chunk = CompressAppAddr(a) >> kChunkShift;
    if (!ChunkMayHoldObjects(chunk)) {
      uptr next = (a | ((uptr(1) << kChunkShift) - 1)) + 1;
      a = (next < end ? next : end) - kMetaGranule;
      continue;
    }
    MetaCell *meta = MemToMeta(a);
    // Most granules hold no object: a plain load is much cheaper than an
    // atomic operation on every 8 bytes of a large freed block.
    if (LoadRelaxed(&meta->sync))
      fn(meta);
  }
}

template <typename Fn>
void SyncTable::ForEachInRange(uptr addr, uptr size, Fn fn) {
  ForEachMetaCell(addr, size, [&](MetaCell *meta) {
    if (SyncId id = LoadAcquire(&meta->sync))
      fn(&objects_[id]);
  });
}

} // namespace hrace

#endif // HRACE_SYNC_H
