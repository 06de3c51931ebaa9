//===-- hrace_ndr.cpp - Non-deterministic reads: epochs and history -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_ndr.h"

#include "../detectors/hrace_correlation.h"
#include "../shadow/hrace_shadow_mapping.h"
#include "hrace_alloc.h"
#include "hrace_interface.h"
#include "hrace_libc.h"
#include "hrace_mutex.h"
#include "hrace_ndr_floor.h"
#include "hrace_rtl.h"

#include <new>

namespace hrace {

bool ndr_enabled;

// A thread's cache of its epoch's epoch variables, by line. An epoch often
// touches more lines than 64, which thrashed a cache that size: two thirds
// of bodytrack's accesses that the cache did not answer were to an epoch
// variable of the epoch (1024 entries: 40 KiB a thread; bodytrack under
// ndr=1 0.64 of the time, paired).
constexpr u32 kNdrCacheSize = 1024;
constexpr u32 kNdrStackMemoSize = 16;

// What one thread keeps for the checker (ThreadState::ndr).
struct NdrThread {
  NdrEpoch *epoch;
  // The epoch variables made for `epoch`: each holds a reference to it,
  // added to its count when it ends (ReleaseEpoch).
  u32 epoch_references;
  u64 next_seq;
  // Numbers the holdings of locks beyond kCountedLocks.
  u64 acquisitions;
  u32 lock_count;
  NdrLockHold locks[kNdrMaxLocks];
  // The current epoch's epoch variables; an ended epoch's wait in
  // `pending` for their checks, which run where the thread holds no lock
  // of the runtime (RunPendingChecks).
  EpochVariable **touched;
  u32 touched_count;
  u32 touched_capacity;
  EpochVariable **pending;
  u32 pending_count;
  u32 pending_capacity;
  EpochVariable *slab;
  u32 slab_left;
  // Free epoch variables: a batch being filled by recycling, which becomes
  // free_list (if empty) or goes to the pool when full; allocations take
  // from it first, then from free_list.
  EpochVariable *free_list;
  u32 free_count;
  EpochVariable *spare;
  EpochVariable *spare_tail;
  u32 spare_count;
  // The epoch variables of the current epoch by variable, with their masks:
  // an access that adds nothing to them takes no lock, nor does a read that
  // adds bytes (AccessVariable).
  struct CacheEntry {
    uptr base;
    EpochVariable *ev;
    NdrBytes read_first;
    NdrBytes written;
    NdrBytes read_after_write;
  } cache[kNdrCacheSize];
  // The stacks of the accesses the thread recorded last (a record's stack,
  // its pc on top of its callers'): a loop's records come from a few
  // accesses, and the depot's lookup misses the cache (blackscholes: a
  // tenth of its time).
  struct StackMemo {
    uptr pc;
    StackId callers;
    StackId stack;
  } stacks[kNdrStackMemoSize];
  CorrelationTracker correlations;
  // What the thread's epochs to come know at least (hrace_ndr_floor.h).
  NdrFloorThread floor;
};

namespace {

// The history of one variable (kNdrVariableBytes of the program).
struct NdrVariable {
  SpinMutex mu;
  // The thread whose epoch variables are all the history has held since it
  // was last empty, or kManyThreads.
  u32 sole_thread;
  EpochVariable *head;
  // The history's writes: null if it holds none; the epoch of the newest if
  // every other one happens before it (one chain of happens-before);
  // kUnorderedWrites if two are not ordered; kUnknownWrites until a walk
  // finds out (OrderedWrites).
  const NdrEpoch *last_write;
};
static_assert(sizeof(NdrVariable) == 24, "a variable is three words");

constexpr u32 kManyThreads = ~0u;
const NdrEpoch *const kUnorderedWrites = reinterpret_cast<const NdrEpoch *>(1);
const NdrEpoch *const kUnknownWrites = reinterpret_cast<const NdrEpoch *>(2);

// last_write names an epoch.
bool IsEpoch(const NdrEpoch *last_write) {
  return last_write != kUnorderedWrites && last_write != kUnknownWrites &&
         last_write;
}

// A leaf of the variable table covers 2^12 variables (256 KiB of the
// program).
constexpr uptr kLeafShift = 12;
constexpr uptr kLeafSize = uptr(1) << kLeafShift;
// Locks whose acquisitions are counted, for the order of updates under a
// lock: the lock ids below it (the first 64 M locks a process names). A
// later lock's holdings are numbered per thread: they still tell one
// holding from another, but not which came first, so updates under it
// are not carried on (a report more, never one less).
constexpr u32 kCountedLocks = 1u << 26;
// Reads and writes one epoch variable sees; a variable with more epoch
// variables is checked against its newest ones.
constexpr u32 kMaxHistory = 256;

struct NdrGlobal {
  NdrVariable **leaves;
  uptr leaf_count;
  // Free epoch variables in batches, linked through their first one's
  // older_own, which keeps the batch's length in `base` (a free epoch
  // variable's fields are free): a thread recycles other threads' (Purge), and
  // without it they would pile up on its list while the others map slabs
  // (bodytrack, ndr=1: 1.5 GB of slabs, most of it on the main thread's
  // free list).
  SpinMutex pool_mu;
  EpochVariable *pool;
  // The acquisitions of each lock (by LockId) so far, for lock vectors.
  u64 *lock_acquisitions;
  // Some module was built with -fsanitize-hybrid-race-ndr.
  bool instrumented;
  // The indices + 1 of the leaves made so far, for a sweep (Sweep): the
  // table itself is mostly unmapped.
  u32 *made_leaves;
  u32 made_leaf_count;
  // The bytes of slabs mapped, and the count at which the next sweep comes
  // (0: never).
  uptr slab_bytes;
  uptr next_sweep;
  bool sweep_wanted;
};

NdrGlobal ndr;

// The thread's first use of its ndr state (an access, a store, a
// dependency, a lock change, a range reset) makes it: out of line, off the
// entry points' paths.
NOINLINE NdrThread *NewNdrThread(ThreadState *thr) {
  thr->ndr = new (InternalCalloc(sizeof(NdrThread))) NdrThread();
  // A thread takes part in the floor once it started (NdrThreadStart): one
  // the runtime never tracks would hold it at zero for ever.
  if (thr->context && !thr->ndr_finished)
    NdrFloorRegister(&thr->ndr->floor, thr);
  return thr->ndr;
}

ALWAYS_INLINE NdrThread *ThreadOf(ThreadState *thr) {
  if (UNLIKELY(!thr->ndr))
    return NewNdrThread(thr);
  return thr->ndr;
}

// __hrace_ndr_dep for a thread without its ndr state yet.
NOINLINE void FirstDependency(ThreadState *thr, uptr addr, bool control,
                              const char *name) {
  ScopedInRuntime in_rtl;
  ThreadOf(thr)->correlations.AddDependency(addr, control, name);
}

NdrVariable *VariableOf(uptr base) {
  uptr index = CompressAppAddr(base) / kNdrVariableBytes;
  uptr leaf = index >> kLeafShift;
  NdrVariable *l = __atomic_load_n(&ndr.leaves[leaf], __ATOMIC_ACQUIRE);
  if (UNLIKELY(!l)) {
    auto *fresh = static_cast<NdrVariable *>(
        MmapOrDie(kLeafSize * sizeof(NdrVariable), "ndr variable table"));
    NdrVariable *expected = nullptr;
    if (__atomic_compare_exchange_n(&ndr.leaves[leaf], &expected, fresh, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      l = fresh;
      u32 made = __atomic_fetch_add(&ndr.made_leaf_count, 1u, __ATOMIC_RELAXED);
      StoreRelease(&ndr.made_leaves[made], static_cast<u32>(leaf + 1));
    } else {
      UnmapOrDie(fresh, kLeafSize * sizeof(NdrVariable));
      l = expected;
    }
  }
  return &l[index & (kLeafSize - 1)];
}

void Unref(NdrEpoch *e) {
  if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) == 0)
    InternalFree(e);
}

NdrEpoch *StartEpoch(ThreadState *thr, NdrThread *nt) {
  u32 size = thr->vc.size();
  auto *e = static_cast<NdrEpoch *>(
      InternalAlloc(NdrEpochBytes(size, nt->lock_count)));
  e->refs = 1;
  e->thread_id = thr->thread_id;
  e->slot = thr->slot;
  e->seq = ++nt->next_seq;
  e->clock = thr->clock;
  e->previous_owner_clock = thr->previous_owner_clock;
  e->ended = false;
  // An ended epoch waiting for its checks knows less than this one: the
  // floor stays at the older clock until they ran.
  if (!nt->pending_count)
    NdrFloorPublish(&nt->floor, thr, thr->clock, thr->acquires);
  e->lock_count = nt->lock_count;
  e->vc_size = size;
  NdrPlaceLocks(e);
  internal_memcpy(e->locks, nt->locks, nt->lock_count * sizeof(NdrLockHold));
  for (u32 i = 0; i < size; i++)
    e->vc[i] = thr->vc.Get(i);
  nt->epoch = e;
  return e;
}

// Epoch variables come from per-thread slabs and are never unmapped: those
// a thread unlinks from a history are recycled, the others stay with their
// histories. A thread recycles into a batch (`spare`) and allocates from it
// first; a full batch becomes its free list if that is empty, else goes to
// the shared pool, where a thread out of both takes one before it maps a
// slab. No batch is walked: the spare's tail is kept. A finishing thread
// gives both to the pool. A slab is mapped straight from the kernel: the
// internal allocator's power-of-two classes would give each 256 bytes.
constexpr u32 kTransferBatch = 1024;

void GiveToPool(EpochVariable *first, EpochVariable *last, u32 count) {
  last->next = nullptr;
  first->base = count;
  SpinMutexLock l(&ndr.pool_mu);
  first->older_own = ndr.pool;
  ndr.pool = first;
}

// A batch from the pool on nt's empty free list; false if there is none.
bool TakeFromPool(NdrThread *nt) {
  SpinMutexLock l(&ndr.pool_mu);
  EpochVariable *batch = ndr.pool;
  if (!batch)
    return false;
  ndr.pool = batch->older_own;
  nt->free_list = batch;
  nt->free_count = static_cast<u32>(batch->base);
  return true;
}

EpochVariable *AllocEpochVariable(NdrThread *nt) {
  constexpr uptr kSlabBytes = 1 << 20;
  // The one recycled last first: it is likely still in the cache (a
  // thread's own eviction makes room for its next epoch variable).
  if (nt->spare) {
    EpochVariable *ev = nt->spare;
    nt->spare = ev->next;
    nt->spare_count--;
    return ev;
  }
  if (nt->free_list || TakeFromPool(nt)) {
    EpochVariable *ev = nt->free_list;
    nt->free_list = ev->next;
    nt->free_count--;
    return ev;
  }
  if (!nt->slab_left) {
    nt->slab = static_cast<EpochVariable *>(
        MmapOrDie(kSlabBytes, "ndr epoch variables"));
    nt->slab_left = kSlabBytes / sizeof(EpochVariable);
    uptr mapped =
        __atomic_add_fetch(&ndr.slab_bytes, kSlabBytes, __ATOMIC_RELAXED);
    uptr next = LoadRelaxed(&ndr.next_sweep);
    if (next && mapped >= next)
      StoreRelaxed(&ndr.sweep_wanted, true);
  }
  nt->slab_left--;
  return nt->slab++;
}

// An epoch variable unlinked from its history goes to nt's spare batch.
void Recycle(NdrThread *nt, EpochVariable *ev) {
  // Cleared before the epoch may be freed: a lock-free look at a stale head
  // (AccessVariable) must never see a freed epoch's address, which the
  // looking thread's own epoch may have taken.
  NdrEpoch *old = ev->epoch;
  __atomic_store_n(&ev->epoch, nullptr, __ATOMIC_RELAXED);
  Unref(old);
  if (ev->extras)
    InternalFree(ev->extras);
  if (!nt->spare)
    nt->spare_tail = ev;
  ev->next = nt->spare;
  nt->spare = ev;
  if (++nt->spare_count < kTransferBatch)
    return;
  if (nt->free_list) {
    GiveToPool(nt->spare, nt->spare_tail, kTransferBatch);
  } else {
    nt->free_list = nt->spare;
    nt->free_count = kTransferBatch;
  }
  nt->spare = nullptr;
  nt->spare_count = 0;
}

// `gone` leaves v's history. If it was the newest write, which one is the
// newest now is not known; if it wrote and two writes were not ordered,
// they may have been it and another.
void ForgetWrite(NdrVariable *v, const EpochVariable *gone) {
  if (v->last_write == gone->epoch ||
      (v->last_write == kUnorderedWrites && gone->written))
    v->last_write = kUnknownWrites;
}

// ev, already in v's history, writes bytes it did not write before: it is
// the newest write, and the writes stay one chain if the newest before it
// happens before it.
void NoteWrite(NdrVariable *v, const EpochVariable *ev) {
  const NdrEpoch *last = v->last_write;
  if (last == ev->epoch || last == kUnorderedWrites || last == kUnknownWrites)
    return;
  v->last_write =
      !last || NdrHappensBefore(last, ev->epoch) ? ev->epoch : kUnorderedWrites;
}

// v->last_write for the writing epoch variables `writes`, newest first (all
// the history holds, or `complete` is false). A chain of happens-before
// runs newest first in a history: an epoch variable is made while its
// epoch runs, and an epoch that happens before another ended before it
// began.
const NdrEpoch *OrderedWrites(EpochVariable *const *writes, u32 count,
                              bool complete) {
  if (!complete)
    return kUnknownWrites;
  for (u32 i = 1; i < count; i++)
    if (!NdrHappensBefore(writes[i]->epoch, writes[i - 1]->epoch))
      return kUnorderedWrites;
  return count ? writes[0]->epoch : nullptr;
}

// Unlinks the thread's epoch variable `victim` from v's history; `newer` is
// the next newer own one (null: none), and only other threads' lie between
// them. Recycles it into nt's spare batch. v->mu is held.
void Evict(NdrThread *nt, NdrVariable *v, EpochVariable *newer,
           EpochVariable *victim) {
  EpochVariable **p = newer ? &newer->next : &v->head;
  while (*p != victim)
    p = &(*p)->next;
  __atomic_store_n(p, victim->next, __ATOMIC_RELEASE);
  if (newer)
    newer->older_own = victim->older_own;
  ForgetWrite(v, victim);
  Recycle(nt, victim);
}

// Unlinks the epoch variable at *link, whatever its thread, and recycles it
// into nt's spare batch: its thread's newer ones in the history count one
// fewer of their own, and the next newer one's chain skips it. v->mu is
// held.
void Unlink(NdrThread *nt, NdrVariable *v, EpochVariable **link) {
  EpochVariable *victim = *link;
  for (EpochVariable *p = v->head; p != victim; p = p->next) {
    if (p->thread_id != victim->thread_id)
      continue;
    p->own_count--;
    if (p->older_own == victim)
      p->older_own = victim->older_own;
  }
  __atomic_store_n(link, victim->next, __ATOMIC_RELEASE);
  ForgetWrite(v, victim);
  Recycle(nt, victim);
}

// The most epoch variables a history holds, whatever its threads: each
// thread keeps ndr_history and its newest write, and threads that finished
// keep theirs until they are pushed out, so without a bound a variable that
// thread after thread touches would grow with the threads (and so would the
// walks of its history).
u32 HistoryBound() {
  u32 bound = 8 * (static_cast<u32>(ctx->flags.ndr_history) + 1);
  return bound < 255 ? bound : 255;
}

// A history's length as its head keeps it. Only a history that holds no
// checked epoch variable outgrows its bound (more threads inside an epoch
// that touched it than the bound); its count then stays at 255, which
// keeps it at the bound once they end.
u8 StoredLength(u32 length) {
  return static_cast<u8>(length < 255 ? length : 255);
}

// Unlinks the oldest epoch variable of v's history whose thread is done
// with it (checked), if there is one, and returns its thread (else
// NdrFloor::kNoThread). `newest_own` is the calling thread's newest one,
// which moves to the next older one if it goes. v->mu is held.
u32 EvictOldestChecked(NdrThread *nt, NdrVariable *v,
                       EpochVariable **newest_own) {
  EpochVariable **victim_link = nullptr;
  for (EpochVariable **p = &v->head; *p; p = &(*p)->next)
    if ((*p)->checked)
      victim_link = p;
  if (!victim_link)
    return NdrFloor::kNoThread;
  u32 thread_id = (*victim_link)->thread_id;
  if (*victim_link == *newest_own)
    *newest_own = (*newest_own)->older_own;
  Unlink(nt, v, victim_link);
  return thread_id;
}

// The bytes an epoch variable read, first or after its own write.
NdrBytes BytesRead(const EpochVariable *ev) {
  return LoadRelaxed(&ev->read_first) | LoadRelaxed(&ev->read_after_write);
}

// The bytes an epoch variable touched.
NdrBytes BytesOf(const EpochVariable *ev) {
  return LoadRelaxed(&ev->read_first) | LoadRelaxed(&ev->written) |
         LoadRelaxed(&ev->read_after_write);
}

// The thread's epoch variable in v's history that goes to make room for a
// new one that touches `mask` (writes it if `write`), or null; *newer is set
// to the next newer own one. A thread keeps its newest write of each byte
// however many epochs only read it after: it stays a dependency, and
// freedom needs it (without it another thread's write under the same lock
// would make a read look non-deterministic). Of the others the oldest goes
// that has no bytes left (handed out anew), else the oldest that wrote
// nothing, else the oldest. Reads are not kept byte by byte: a thread that
// reads field after field of a line in epoch after epoch (canneal) would
// keep one for each, and every walk of the history would grow with them.
// One whose checks have not run yet (RunPendingChecks waits while the
// thread runs a signal handler) stays unless `unchecked_too`: its read
// would go unchecked.
EpochVariable *OwnVictim(EpochVariable *newest_own, NdrBytes mask, bool write,
                         bool unchecked_too, EpochVariable **newer) {
  NdrBytes written_later = write ? mask : 0;
  EpochVariable *victim = nullptr;
  int victim_rank = 0;
  for (EpochVariable *p_newer = nullptr, *p = newest_own; p;
       p_newer = p, p = p->older_own) {
    bool newest_write = p->written & ~written_later;
    int rank = !BytesOf(p) ? 3 : newest_write ? 0 : !p->written ? 2 : 1;
    if (rank && rank >= victim_rank && (p->checked || unchecked_too)) {
      victim = p;
      *newer = p_newer;
      victim_rank = rank;
    }
    written_later |= p->written;
  }
  return victim;
}

// Own epoch variables waiting for their checks that a thread keeps in one
// history beyond ndr_history.
constexpr u32 kUncheckedKept = 8;

// The unchecked epoch variable ev leaves nt's pending list unchecked, before
// it is recycled (checked in its new use, it would be marked checked while
// its epoch runs, and another thread could free it).
void ForgetPending(NdrThread *nt, EpochVariable *ev) {
  for (u32 i = 0; i < nt->pending_count; i++)
    if (nt->pending[i] == ev) {
      nt->pending[i] = nt->pending[--nt->pending_count];
      return;
    }
}

// A new epoch variable at the head of v's history for an access of `mask`;
// `newest_own` is the thread's newest one there (or null). One of the
// thread's own that it need not keep goes (OwnVictim), and at HistoryBound
// the history's oldest checked one goes too. v->mu is held.
EpochVariable *NewEpochVariable(NdrThread *nt, NdrVariable *v, NdrEpoch *e,
                                uptr base, EpochVariable *newest_own,
                                NdrBytes mask, bool write) {
  u32 keep = static_cast<u32>(ctx->flags.ndr_history);
  u32 own = newest_own ? newest_own->own_count + 1 : 1;
  u32 length = v->head ? v->head->history_length : 0;
  // Its reads that happen before every epoch still to run go first: no
  // write to come can meet them (a program that orders its phases keeps
  // one epoch variable per variable it reads, not ndr_history).
  Clock floor = NdrFloorKnownOf(e->slot);
  for (EpochVariable *newer = nullptr, *p = newest_own; p;) {
    EpochVariable *older = p->older_own;
    if (p->checked && !p->written && p->epoch->clock <= floor) {
      if (p == newest_own)
        newest_own = older;
      Evict(nt, v, newer, p);
      own--;
      length--;
    } else {
      newer = p;
    }
    p = older;
  }
  // With no more than ndr_history of its own, the thread keeps them all.
  if (own > keep) {
    EpochVariable *victim_newer = nullptr;
    // Epoch variables that wait for their checks are kept, but only so
    // many: a thread that never returns from a handler (it jumps out of
    // it) never runs them, and its histories would grow without bound.
    bool unchecked_too = own > keep + kUncheckedKept;
    if (EpochVariable *victim =
            OwnVictim(newest_own, mask, write, unchecked_too, &victim_newer)) {
      if (!victim->checked)
        ForgetPending(nt, victim);
      if (victim == newest_own)
        newest_own = newest_own->older_own;
      Evict(nt, v, victim_newer, victim);
      own--;
      length--;
    }
  }
  if (length >= HistoryBound()) {
    u32 gone = EvictOldestChecked(nt, v, &newest_own);
    if (gone != NdrFloor::kNoThread)
      length--;
    // Counted, not read from newest_own: an eviction above left its count
    // one too high for each of its older own ones that went.
    if (gone == e->thread_id)
      own--;
  }
  if (!v->head)
    v->sole_thread = e->thread_id;
  else if (v->sole_thread != e->thread_id)
    v->sole_thread = kManyThreads;
  EpochVariable *ev = AllocEpochVariable(nt);
  internal_memset(ev, 0, sizeof(*ev));
  ev->epoch = e;
  nt->epoch_references++;
  ev->base = base;
  ev->thread_id = e->thread_id;
  ev->older_own = newest_own;
  ev->own_count = static_cast<u8>(own);
  ev->history_length = StoredLength(length + 1);
  ev->next = v->head;
  __atomic_store_n(&v->head, ev, __ATOMIC_RELEASE);
  return ev;
}

void Append(EpochVariable ***list, u32 *count, u32 *capacity,
            EpochVariable *ev) {
  if (*count == *capacity) {
    u32 grown_capacity = *capacity ? *capacity * 2 : 64;
    auto *grown = static_cast<EpochVariable **>(
        InternalAlloc(grown_capacity * sizeof(EpochVariable *)));
    if (*count)
      internal_memcpy(grown, *list, *count * sizeof(EpochVariable *));
    if (*list)
      InternalFree(*list);
    *list = grown;
    *capacity = grown_capacity;
  }
  (*list)[(*count)++] = ev;
}

// The cache entry of ev, with the masks it has now.
ALWAYS_INLINE NdrThread::CacheEntry CacheEntryOf(uptr base, EpochVariable *ev) {
  return {base, ev, LoadRelaxed(&ev->read_first), LoadRelaxed(&ev->written),
          LoadRelaxed(&ev->read_after_write)};
}

// The access changes nothing the epoch variable in the cache entry says.
ALWAYS_INLINE bool AddsNothing(const NdrThread::CacheEntry &c, NdrBytes mask,
                               bool write) {
  if (write)
    return (c.written & mask) == mask;
  return ((mask & ~c.written) & ~c.read_first) == 0 &&
         ((mask & c.written) & ~c.read_after_write) == 0;
}

// The stack of an access at pc with these callers, one depot id.
StackId StackOf(NdrThread *nt, uptr pc, StackId callers) {
  NdrThread::StackMemo &m =
      nt->stacks[(pc ^ (callers * 0x9e3779b1u)) % kNdrStackMemoSize];
  if (m.pc != pc || m.callers != callers || !m.stack)
    m = {pc, callers, ctx->stacks.Extend(callers, pc)};
  return m.stack;
}

// The cache entry for the variable at `base`.
ALWAYS_INLINE NdrThread::CacheEntry &CacheSlot(NdrThread *nt, uptr base) {
  return nt->cache[(base / kNdrVariableBytes) % kNdrCacheSize];
}

// The epoch's epoch variable in v's history, made if there is none (the
// cache slot was taken by another variable since it was made). v->mu is
// held.
EpochVariable *OwnOrNewEpochVariable(NdrThread *nt, NdrVariable *v, NdrEpoch *e,
                                     uptr base, NdrBytes mask, bool write) {
  // The thread's newest epoch variable here is this epoch's, if there is
  // one.
  EpochVariable *own = v->head;
  while (own && own->thread_id != e->thread_id)
    own = own->next;
  if (own && own->epoch == e)
    return own;
  EpochVariable *ev = NewEpochVariable(nt, v, e, base, own, mask, write);
  Append(&nt->touched, &nt->touched_count, &nt->touched_capacity, ev);
  return ev;
}

// An access of `size` bytes at `addr`, all in the variable at `base`.
void AccessVariable(ThreadState *thr, NdrThread *nt, uptr base, uptr addr,
                    uptr size, bool write, uptr pc) {
  u8 offset = static_cast<u8>(addr - base);
  NdrBytes mask = NdrBytesOf(offset, size);
  NdrThread::CacheEntry &c = CacheSlot(nt, base);
  bool cached = c.ev && c.base == base;
  if (cached && AddsNothing(c, mask, write))
    return;
  NdrEpoch *e = nt->epoch ? nt->epoch : StartEpoch(thr, nt);
  NdrVariable *v = VariableOf(base);
  // The newest epoch variable is often this epoch's, which only this thread
  // changes (and epoch variables are never unmapped): a repeat of the
  // epoch's access takes no lock. Another thread may be linking a new head
  // in meanwhile; then the lock decides.
  if (!cached) {
    EpochVariable *head = __atomic_load_n(&v->head, __ATOMIC_ACQUIRE);
    if (head && __atomic_load_n(&head->epoch, __ATOMIC_RELAXED) == e) {
      c = CacheEntryOf(base, head);
      cached = true;
      if (AddsNothing(c, mask, write))
        return;
    } else if (head && LoadRelaxed(&head->thread_id) == e->thread_id) {
      // A new epoch variable goes here, and the search for the thread's
      // one to drop walks on from the head to its older own ones: the next
      // one's line comes in while the stack and the lock are taken (it may
      // be recycled meanwhile; a prefetch never faults).
      __builtin_prefetch(LoadRelaxed(&head->older_own));
    }
  }
  StackId callers = CallerStack(thr);
  Correlation found[NdrReport::kMaxCorrelations];
  u32 found_count = 0;
  if (!write)
    found_count = nt->correlations.Involving(addr, size, found,
                                             NdrReport::kMaxCorrelations);
  u8 record_size = static_cast<u8>(size);
  // A record's stack is made only for an access that brings new bytes.
  auto record = [&](NdrAccessRecord *records, u32 count) {
    NdrRecordAccess(records, count, offset, record_size,
                    StackOf(nt, pc, callers));
  };
  EpochVariable *ev = cached ? c.ev : nullptr;
  // The read's new bytes and their records into ev. Its bytes grow by an
  // atomic or: a range reset (Purge) may clear some at the same time, and a
  // load then a store would lose its clearing or the read's bytes.
  auto add_read = [&] {
    NdrBytes written = LoadRelaxed(&ev->written);
    NdrBytes first = mask & ~written & ~LoadRelaxed(&ev->read_first);
    NdrBytes after = mask & written & ~LoadRelaxed(&ev->read_after_write);
    if (first) {
      record(ev->reads_first, EpochVariable::kRecords);
      __atomic_fetch_or(&ev->read_first, first, __ATOMIC_RELAXED);
    }
    if (after) {
      record(ev->reads_after_write, 1);
      __atomic_fetch_or(&ev->read_after_write, after, __ATOMIC_RELAXED);
    }
    if (found_count && !ev->extras) {
      auto *extras = static_cast<NdrReadExtras *>(
          InternalCalloc(NdrReadExtrasBytes(found_count)));
      extras->correlation_count = found_count;
      internal_memcpy(extras->correlations, found,
                      found_count * sizeof(Correlation));
      ev->extras = extras;
    }
  };
  // The lock is for finding or making the epoch variable, and for writes
  // (the history's newest write, and other threads' checks collect writes
  // under it). A read that adds bytes to the epoch's own epoch variable
  // takes none (fluidanimate reads field after field of a line: three in
  // five of its accesses that the cache did not answer; 0.975 of the time,
  // paired). Other threads read its records and correlations only once the
  // epoch ended (its release of `ended` publishes them); they clear its
  // bytes handed out anew (Purge), and the checks read its first reads
  // among a history's writes (NdrIsLockedUpdate), which stay consistent
  // since a byte is read first only while unwritten and writes are added
  // under the lock. So its masks are read and written atomically.
  if (ev && !write) {
    add_read();
    c = CacheEntryOf(base, ev);
    return;
  }
  SpinMutexLock l(&v->mu);
  if (!ev)
    ev = OwnOrNewEpochVariable(nt, v, e, base, mask, write);
  if (!write) {
    add_read();
  } else {
    if (mask & ~ev->written) {
      record(ev->writes, EpochVariable::kRecords);
      NoteWrite(v, ev);
    }
    StoreRelaxed(&ev->written, ev->written | mask);
  }
  c = CacheEntryOf(base, ev);
}

void RunPendingChecks(ThreadState *thr, NdrThread *nt);
void SweepIfDue(ThreadState *thr, NdrThread *nt);

void AccessSlow(ThreadState *thr, uptr addr, uptr size, bool write, uptr pc) {
  ScopedInRuntime in_rtl;
  NdrThread *nt = ThreadOf(thr);
  RunPendingChecks(thr, nt);
  if (UNLIKELY(LoadRelaxed(&ndr.sweep_wanted)))
    SweepIfDue(thr, nt);
  uptr end = addr + size;
  if (!size || !IsAppRange(addr, end))
    return;
  for (uptr a = addr; a < end;) {
    uptr base = a & ~(kNdrVariableBytes - 1);
    uptr piece_end =
        base + kNdrVariableBytes < end ? base + kNdrVariableBytes : end;
    AccessVariable(thr, nt, base, a, piece_end - a, write, pc);
    a = piece_end;
  }
}

// One variable and nothing new: the common case of a loop, answered from
// the thread's own cache alone (nt: the thread's, or null before its first
// epoch).
ALWAYS_INLINE bool CacheAnswers(NdrThread *nt, uptr addr, uptr size,
                                bool write) {
  uptr offset = addr & (kNdrVariableBytes - 1);
  if (UNLIKELY(!nt) || UNLIKELY(offset + size > kNdrVariableBytes))
    return false;
  uptr base = addr - offset;
  const NdrThread::CacheEntry &c = CacheSlot(nt, base);
  return c.ev && c.base == base &&
         AddsNothing(c, NdrBytesOf(offset, size), write);
}

// A store of `size` bytes at `addr`: the correlations it ends and makes,
// then its epoch variable. `parent`: the object whose field it is, 0 if
// none; `name`: the pass's name of the stored variable, or null.
ALWAYS_INLINE void WriteOf(uptr addr, uptr size, uptr parent, const char *name,
                           uptr pc) {
  if (!ndr_enabled)
    return;
  ThreadState *thr = cur_thread();
  if (thr->in_rtl)
    return;
  NdrThread *nt = thr->ndr;
  if (thr->ignore_writes) {
    // The store's dependencies must not pass to the next one.
    if (nt)
      nt->correlations.DropDependencies();
    return;
  }
  // Runtime code: a signal arriving in it waits (the handler's own stores
  // would change the same tracker).
  thr->in_rtl++;
  ThreadOf(thr)->correlations.Store(addr, parent, pc, name);
  LeaveRuntime(thr);
  if (CacheAnswers(nt, addr, size, true))
    return;
  AccessSlow(thr, addr, size, true, pc);
}

// A read that the thread's cache did not answer (ReadOf); it ends here if
// the thread ignores reads. Out of line, so that the entry point's test of
// the cache saves no register but the frame pointer (its five pushes and
// pops were a fifth of __hrace_ndr_read's samples in blackscholes).
NOINLINE void ReadSlow(ThreadState *thr, uptr addr, uptr size, uptr pc) {
  if (thr->ignore_reads)
    return;
  AccessSlow(thr, addr, size, false, pc);
}

// A load of `size` bytes at `addr`: the thread's cache answers the common
// case of a loop inline; the rest is a tail call.
ALWAYS_INLINE void ReadOf(uptr addr, uptr size, uptr pc) {
  if (!ndr_enabled)
    return;
  ThreadState *thr = cur_thread();
  if (thr->in_rtl)
    return;
  // A read the cache answers changes nothing, ignored or not.
  if (CacheAnswers(thr->ndr, addr, size, false))
    return;
  ReadSlow(thr, addr, size, pc);
}

void Describe(NdrAccessDesc *d, const EpochVariable &ev,
              const NdrAccessRecord &r) {
  d->thread_id = ev.epoch->thread_id;
  d->addr = ev.base + r.offset;
  d->size = r.size;
  d->stack = r.stack;
  d->pc = 0;
  ctx->stacks.Get(r.stack, &d->pc, 1);
  d->lock_count = ev.epoch->lock_count;
  for (u32 i = 0; i < d->lock_count; i++)
    d->locks[i] = ev.epoch->locks[i].lock;
  d->parallel = false;
}

// Fills *report for the read of bytes `mask` of record r of `ev`, whose
// write dependencies are deps (n of them).
void DescribeRead(const EpochVariable *ev, const NdrAccessRecord &r,
                  NdrBytes mask, const EpochVariable **deps, u32 n,
                  NdrReport *report) {
  Describe(&report->read, *ev, r);
  // The read as far as these bytes go: from the first of them, no longer
  // than the access that brought the record's first bytes or their run (a
  // run of loads read as one reports the field that was not deterministic).
  u32 first = static_cast<u32>(__builtin_ctzll(mask));
  NdrBytes from_first = mask >> first;
  u32 run = ~from_first ? static_cast<u32>(__builtin_ctzll(~from_first))
                        : static_cast<u32>(kNdrVariableBytes - first);
  report->read.addr = ev->base + first;
  report->read.size = run < r.size ? run : r.size;
  // Parallel dependencies first, then by thread.
  for (u32 i = 1; i < n; i++)
    for (u32 j = i; j > 0; j--) {
      const EpochVariable *a = deps[j - 1], *b = deps[j];
      bool pa = NdrIsParallel(*ev, *a), pb = NdrIsParallel(*ev, *b);
      bool swap = pa != pb ? pb : a->epoch->thread_id > b->epoch->thread_id;
      if (!swap)
        break;
      deps[j - 1] = b;
      deps[j] = a;
    }
  report->dep_count = n;
  for (u32 i = 0; i < n && i < NdrReport::kMaxDeps; i++) {
    Describe(&report->deps[i], *deps[i], NdrWriteFor(*deps[i], mask));
    report->deps[i].parallel = NdrIsParallel(*ev, *deps[i]);
  }
  report->correlation_count = ev->extras ? ev->extras->correlation_count : 0;
  for (u32 i = 0; i < report->correlation_count; i++)
    report->correlations[i] = ev->extras->correlations[i];
}

// The bytes of ev's first reads (else its reads after its own write) that
// were reported.
NdrBytes ReportedBytes(const EpochVariable *ev, bool after_own_write) {
  return ev->extras ? ev->extras->reported[after_own_write] : 0;
}

// The bytes `reported` of ev's first reads (else its reads after its own
// write) were reported. v->mu is held, and ev's epoch ended: its thread
// no longer touches its extras.
void MarkReported(EpochVariable *ev, bool after_own_write, NdrBytes reported) {
  if (!ev->extras)
    ev->extras =
        static_cast<NdrReadExtras *>(InternalCalloc(NdrReadExtrasBytes(0)));
  ev->extras->reported[after_own_write] |= reported;
}

// Checks one recorded read of `ev` against the writes, in the sets of its
// bytes the criteria treat alike (NdrUniformBytes), leaving out bytes
// already reported; fills a report for each non-deterministic set, at most
// max, marks its bytes reported, and returns how many. A byte, not a
// record, is reported once: a record may hold several program variables
// (a loop's elements, a run of loads), and a later parallel write of one
// not reported yet is a report of its own.
u32 CheckRead(EpochVariable *ev, bool after_own_write, u32 index,
              const EpochVariable *const *writes, u32 write_count,
              NdrReport *reports, u32 max) {
  const NdrAccessRecord &r =
      after_own_write ? ev->reads_after_write[index] : ev->reads_first[index];
  if (!r.stack)
    return 0;
  NdrBytes record_bytes =
      (after_own_write
           ? ev->read_after_write
           : NdrRecordBytes(ev->reads_first, index) & ev->read_first) &
      ~ReportedBytes(ev, after_own_write);
  NdrBytes reported = 0;
  u32 filled = 0;
  for (NdrBytes rest = record_bytes, mask; rest && filled < max;
       rest &= ~mask) {
    mask = NdrUniformBytes(*ev, rest, writes, write_count);
    const EpochVariable *deps[kMaxHistory];
    u32 n = NdrWriteDependencies(*ev, after_own_write, mask, writes,
                                 write_count, deps, kMaxHistory);
    if (NdrIsNonDeterministic(*ev, mask, deps, n)) {
      DescribeRead(ev, r, mask, deps, n, &reports[filled++]);
      reported |= mask;
    }
  }
  if (reported)
    MarkReported(ev, after_own_write, reported);
  return filled;
}

// Every recorded read of ev; returns how many reports it filled (at most
// max).
u32 CheckReads(EpochVariable *ev, const EpochVariable *const *writes,
               u32 write_count, NdrReport *reports, u32 max) {
  u32 n = 0;
  for (int after = 0; after < 2; after++)
    for (u32 i = 0; i < (after ? 1 : EpochVariable::kRecords) && n < max; i++)
      n += CheckRead(ev, after, i, writes, write_count, reports + n, max - n);
  return n;
}

// CheckEnded with v->mu held.
u32 CheckEndedLocked(NdrVariable *v, EpochVariable *ev, NdrReport *reports,
                     u32 max) {
  EpochVariable *writes[kMaxHistory];
  u32 write_count = 0;
  EpochVariable *w = v->head;
  for (; w && write_count < kMaxHistory; w = w->next)
    if (w->written)
      writes[write_count++] = w;
  if (v->last_write == kUnknownWrites)
    v->last_write = OrderedWrites(writes, write_count, !w);
  u32 n = CheckReads(ev, writes, write_count, reports, max);
  if (!ev->written)
    return n;
  // The new write is a dependency only of reads of bytes it wrote that do
  // not happen before it; any other read's dependencies are those it was
  // checked against when they came. A running epoch's reads are not
  // re-checked (its own check comes when it ends); its thread adds them
  // without the lock, so they are read atomically, before `ended` (the
  // walk stays on the epoch variables' first lines). A read this misses is
  // one whose check takes the lock after this one and sees this write.
  for (EpochVariable *r = v->head; r && n < max; r = r->next)
    if (r != ev && (ev->written & BytesRead(r)) &&
        LoadAcquire(&r->epoch->ended) && !NdrHappensBefore(r->epoch, ev->epoch))
      n += CheckReads(r, writes, write_count, reports + n, max - n);
  return n;
}

// ev only read, after every write of the history (one chain of
// happens-before, its newest before ev's epoch): each byte it read has one
// write dependency, ordered before it, so it is deterministic, and it has
// no write that could reach other reads (canneal: nearly every check,
// freqmine: a third).
bool ReadAfterOrderedWrites(const NdrVariable *v, const EpochVariable *ev) {
  const NdrEpoch *last = v->last_write;
  return !ev->written &&
         (!last || (IsEpoch(last) && NdrHappensBefore(last, ev->epoch)));
}

// The checks an ended epoch variable makes; returns how many reports it
// filled (at most max). Called again while it fills all max.
u32 CheckEnded(EpochVariable *ev, NdrReport *reports, u32 max) {
  NdrVariable *v = VariableOf(ev->base);
  SpinMutexLock l(&v->mu);
  // Its thread's epochs alone: all ordered, so every read has one write
  // dependency at most, never a parallel one (fluidanimate: 39% of the
  // checks, each a walk of the history).
  u32 n = v->sole_thread == ev->thread_id || ReadAfterOrderedWrites(v, ev)
              ? 0
              : CheckEndedLocked(v, ev, reports, max);
  // The last call for it: its thread is done with it.
  if (n < max)
    ev->checked = true;
  return n;
}

// The thread's cache forgets the epoch's epoch variables: the slots of the
// touched ones alone when they are fewer than its entries (fluidanimate's
// critical sections touch five lines, and the whole cache is 40 KiB).
void ClearCache(NdrThread *nt) {
  if (nt->touched_count >= kNdrCacheSize) {
    internal_memset(nt->cache, 0, sizeof(nt->cache));
    return;
  }
  for (u32 i = 0; i < nt->touched_count; i++)
    CacheSlot(nt, nt->touched[i]->base) = {};
}

// The ended epoch gets its epoch variables' references and loses the
// thread's. Counted by the thread while the epoch ran, since nothing else
// changes them then: an epoch variable is unlinked (Recycle) only once it
// is checked, or by its own thread as an older epoch's, so the count falls
// only after this (an atomic add per epoch variable was 7% of the samples
// of fluidanimate's slow path).
void ReleaseEpoch(NdrThread *nt, NdrEpoch *e) {
  static_assert(sizeof(e->refs) == sizeof(u32),
                "an epoch with no epoch variable adds references - 1 = ~0u");
  u32 references = nt->epoch_references;
  nt->epoch_references = 0;
  if (__atomic_add_fetch(&e->refs, references - 1, __ATOMIC_ACQ_REL) == 0)
    InternalFree(e);
}

// The epoch ends: its epoch variables wait for their checks. Cheap, and
// takes no lock: synchronisation events end epochs while holding their
// sync object's lock.
void EndEpoch(NdrThread *nt) {
  NdrEpoch *e = nt->epoch;
  if (!e)
    return;
  StoreRelease(&e->ended, true);
  ClearCache(nt);
  if (!nt->pending_count) {
    // The usual case: the pending list was checked; the lists swap.
    EpochVariable **list = nt->pending;
    u32 capacity = nt->pending_capacity;
    nt->pending = nt->touched;
    nt->pending_capacity = nt->touched_capacity;
    nt->pending_count = nt->touched_count;
    nt->touched = list;
    nt->touched_capacity = capacity;
  } else {
    for (u32 i = 0; i < nt->touched_count; i++)
      Append(&nt->pending, &nt->pending_count, &nt->pending_capacity,
             nt->touched[i]);
  }
  nt->touched_count = 0;
  nt->epoch = nullptr;
  ReleaseEpoch(nt, e);
}

// The checks of ended epochs, where the thread holds no runtime lock and
// runs no signal handler (the checks lock variables and may report).
void RunPendingChecks(ThreadState *thr, NdrThread *nt) {
  if (!nt->pending_count || runtime_locks_held || thr->in_signal_handler)
    return;
  for (u32 i = 0; i < nt->pending_count; i++) {
    constexpr u32 kBatch = 4;
    NdrReport reports[kBatch];
    // Bytes reported are marked; another call finds the next ones.
    for (u32 n = kBatch; n == kBatch;) {
      n = CheckEnded(nt->pending[i], reports, kBatch);
      for (u32 j = 0; j < n; j++)
        ReportNonDeterministicRead(thr, reports[j]);
    }
  }
  nt->pending_count = 0;
}

// Sets the length that v's head keeps to what the history holds.
void RecountLength(NdrVariable *v) {
  u32 length = 0;
  for (EpochVariable *ev = v->head; ev; ev = ev->next)
    length++;
  if (v->head)
    v->head->history_length = StoredLength(length);
}

// After the bytes `reset` of v were handed out anew: no epoch variable keeps
// them (a freed object's writes are no dependency of the next owner's
// reads), and those left with no bytes that no thread names any more
// (checked) are recycled by nt; the others stay until their threads
// replace them. v->mu is held.
void Purge(NdrThread *nt, NdrVariable *v, NdrBytes reset) {
  for (EpochVariable **p = &v->head; *p;) {
    EpochVariable *ev = *p;
    // Fewer writes stay one chain, and the newest is still after them all;
    // two that were not ordered may be gone.
    if ((ev->written & reset) && v->last_write == kUnorderedWrites)
      v->last_write = kUnknownWrites;
    // Atomic: the epoch variable's thread adds reads without the lock.
    __atomic_fetch_and(&ev->read_first, ~reset, __ATOMIC_RELAXED);
    __atomic_fetch_and(&ev->read_after_write, ~reset, __ATOMIC_RELAXED);
    StoreRelaxed(&ev->written, ev->written & ~reset);
    if (!ev->checked || BytesOf(ev)) {
      p = &ev->next;
      continue;
    }
    Unlink(nt, v, p);
  }
  RecountLength(v);
}

// Unlinks from v's history, recycling them into nt's spare batch, the
// epoch variables that only read, whose checks ran, and whose epoch happens
// before every epoch still to run: no write to come is a dependency of
// their reads (relevance), so no check needs them. Returns how many went.
// v->mu is held.
u32 SweepVariable(NdrThread *nt, NdrVariable *v, const NdrFloor &floor) {
  u32 swept = 0;
  for (EpochVariable **p = &v->head; *p;) {
    EpochVariable *ev = *p;
    if (!ev->checked || ev->written ||
        !NdrBeforeEveryFutureEpoch(ev->epoch, floor)) {
      p = &ev->next;
      continue;
    }
    Unlink(nt, v, p);
    swept++;
  }
  if (swept)
    RecountLength(v);
  return swept;
}

// Every history, swept (SweepVariable) by the calling thread; returns how
// many epoch variables were kept.
uptr Sweep(NdrThread *nt, const NdrFloor &floor) {
  uptr swept = 0, kept = 0;
  u32 made = __atomic_load_n(&ndr.made_leaf_count, __ATOMIC_ACQUIRE);
  for (u32 i = 0; i < made; i++) {
    // A leaf's index is stored just after its count was taken.
    u32 leaf = LoadAcquire(&ndr.made_leaves[i]);
    if (!leaf)
      continue;
    NdrVariable *vars = LoadAcquire(&ndr.leaves[leaf - 1]);
    for (uptr j = 0; j < kLeafSize; j++) {
      NdrVariable *v = &vars[j];
      if (!LoadAcquire(&v->head))
        continue;
      SpinMutexLock l(&v->mu);
      swept += SweepVariable(nt, v, floor);
      for (EpochVariable *ev = v->head; ev; ev = ev->next)
        kept++;
    }
  }
  if (ctx->flags.verbosity >= 2)
    Printf("HybridRace: ndr: a sweep freed %zu epoch variables and kept %zu "
           "(%zu MiB of slabs)\n",
           static_cast<size_t>(swept), static_cast<size_t>(kept),
           static_cast<size_t>(LoadRelaxed(&ndr.slab_bytes) >> 20));
  return kept;
}

// The sweep that the slabs' growth asked for, run by the first thread that
// can: one that holds no runtime lock, runs no signal handler and has no
// check waiting (its ended epochs know less than its part of the floor).
// While a thread is being created, or a gather runs, it waits for the
// thread's next access. The next sweep comes when the slabs outgrow both
// what they hold now and twice what the sweep kept: a sweep that kept
// most of them is not repeated until they doubled.
void SweepIfDue(ThreadState *thr, NdrThread *nt) {
  NdrFloor floor;
  if (runtime_locks_held || thr->in_signal_handler || nt->pending_count ||
      !NdrFloorGather(&floor))
    return;
  // Another thread's slab may have asked again while a sweep ran, before
  // that sweep set the next bound.
  if (LoadRelaxed(&ndr.sweep_wanted) &&
      LoadRelaxed(&ndr.slab_bytes) < LoadRelaxed(&ndr.next_sweep))
    StoreRelaxed(&ndr.sweep_wanted, false);
  if (LoadRelaxed(&ndr.sweep_wanted)) {
    StoreRelaxed(&ndr.sweep_wanted, false);
    uptr kept_bytes = Sweep(nt, floor) * sizeof(EpochVariable);
    uptr slabs = LoadRelaxed(&ndr.slab_bytes);
    StoreRelaxed(&ndr.next_sweep,
                 slabs + 1 > 2 * kept_bytes ? slabs + 1 : 2 * kept_bytes);
  }
  NdrFloorDone();
}

} // namespace

void NdrInit() {
  ndr_enabled = ctx->flags.ndr;
  if (!ndr_enabled)
    return;
  ndr.leaf_count = (kCompressedSize / 8 >> kLeafShift) + 1;
  ndr.leaves = static_cast<NdrVariable **>(MmapNoReserveOrDie(
      ndr.leaf_count * sizeof(NdrVariable *), "ndr variable table"));
  ndr.lock_acquisitions = static_cast<u64 *>(
      MmapNoReserveOrDie(kCountedLocks * sizeof(u64), "ndr lock acquisitions"));
  ndr.made_leaves = static_cast<u32 *>(MmapNoReserveOrDie(
      ndr.leaf_count * sizeof(u32), "ndr variable table leaves"));
  ndr.next_sweep = static_cast<uptr>(ctx->flags.ndr_sweep_mb) << 20;
  NdrFloorInit();
}

void NdrThreadStart(ThreadState *thr) {
  if (!ndr_enabled)
    return;
  // Its state may have come first, made by an ndr entry point before the
  // runtime adopted the thread.
  NdrThread *nt = ThreadOf(thr);
  if (!nt->floor.registered)
    NdrFloorRegister(&nt->floor, thr);
}

void NdrThreadCreating() {
  if (ndr_enabled)
    NdrFloorThreadCreating();
}

void NdrThreadCreated() {
  if (ndr_enabled)
    NdrFloorThreadCreated();
}

void NdrJoinBegin(ThreadState *thr, u32 thread_id) {
  if (!ndr_enabled)
    return;
  ScopedInRuntime in_rtl;
  NdrThread *nt = ThreadOf(thr);
  // The epoch ends at the call, not at the return: the floor leaves the
  // joiner out, so it may run no epoch and have no check waiting that
  // knows less than the thread it joins will.
  EndEpoch(nt);
  RunPendingChecks(thr, nt);
  if (!nt->pending_count)
    NdrFloorJoinBegin(&nt->floor, thread_id);
}

void NdrJoinEnd(ThreadState *thr) {
  if (ndr_enabled && thr->ndr)
    NdrFloorJoinEnd(&thr->ndr->floor);
}

void NdrForkChild(ThreadState *thr) {
  if (ndr_enabled)
    NdrFloorForkChild(thr->ndr ? &thr->ndr->floor : nullptr);
}

void NdrResetRange(ThreadState *thr, uptr addr, uptr size) {
  if (!ndr_enabled || !size)
    return;
  ScopedInRuntime in_rtl;
  NdrThread *nt = ThreadOf(thr);
  uptr end = addr + size;
  for (uptr a = addr; a < end;) {
    uptr base = a & ~(kNdrVariableBytes - 1);
    uptr index = CompressAppAddr(base) / kNdrVariableBytes;
    NdrVariable *leaf =
        __atomic_load_n(&ndr.leaves[index >> kLeafShift], __ATOMIC_ACQUIRE);
    if (!leaf) {
      // To the next leaf's first variable.
      constexpr uptr kLeafBytes = kLeafSize * kNdrVariableBytes;
      a = base + (kLeafBytes - CompressAppAddr(base) % kLeafBytes);
      continue;
    }
    uptr piece_end =
        base + kNdrVariableBytes < end ? base + kNdrVariableBytes : end;
    NdrVariable *v = &leaf[index & (kLeafSize - 1)];
    NdrBytes reset = NdrBytesOf(a - base, piece_end - a);
    a = piece_end;
    if (!__atomic_load_n(&v->head, __ATOMIC_ACQUIRE))
      continue;
    SpinMutexLock l(&v->mu);
    Purge(nt, v, reset);
  }
  // The thread's own cache forgets them (malloc and free in one epoch):
  // line by line, unless the range has more lines than the cache entries.
  uptr first_line = addr & ~(kNdrVariableBytes - 1);
  if ((end - first_line) / kNdrVariableBytes >= kNdrCacheSize) {
    for (NdrThread::CacheEntry &c : nt->cache)
      if (c.base + kNdrVariableBytes > addr && c.base < end)
        c = {};
    return;
  }
  for (uptr base = first_line; base < end; base += kNdrVariableBytes) {
    NdrThread::CacheEntry &c = CacheSlot(nt, base);
    if (c.base == base)
      c = {};
  }
}

void NdrSyncEvent(ThreadState *thr) {
  if (!ndr_enabled || !thr->ndr || !thr->ndr->epoch)
    return;
  EndEpoch(thr->ndr);
}

namespace {

// The number of this holding of `lock`; holdings of one lock come in order
// (the lock is held, so the counter's line is this thread's already).
u64 NextAcquisition(NdrThread *nt, LockId lock) {
  if (lock < kCountedLocks)
    return __atomic_add_fetch(&ndr.lock_acquisitions[lock], 1,
                              __ATOMIC_RELAXED);
  return ++nt->acquisitions;
}

// A lock or unlock: the epoch ends before the lock vector changes, and its
// checks run (the interceptors call this holding no runtime lock).
NdrThread *EndEpochAtLockChange(ThreadState *thr) {
  NdrThread *nt = ThreadOf(thr);
  EndEpoch(nt);
  RunPendingChecks(thr, nt);
  return nt;
}

} // namespace

void NdrLockAcquired(ThreadState *thr, LockId lock, bool exclusive) {
  if (!ndr_enabled)
    return;
  ScopedInRuntime in_rtl;
  NdrThread *nt = EndEpochAtLockChange(thr);
  // A thread holding more locks than a lock vector keeps has the newest
  // ones unrecorded: fewer writes shut out by freedom or updates, never
  // more.
  if (nt->lock_count < kNdrMaxLocks)
    nt->locks[nt->lock_count++] = {lock, exclusive, NextAcquisition(nt, lock)};
}

void NdrLockReleased(ThreadState *thr, LockId lock) {
  if (!ndr_enabled)
    return;
  ScopedInRuntime in_rtl;
  NdrThread *nt = EndEpochAtLockChange(thr);
  for (u32 i = nt->lock_count; i-- > 0;)
    if (nt->locks[i].lock == lock) {
      for (u32 j = i + 1; j < nt->lock_count; j++)
        nt->locks[j - 1] = nt->locks[j];
      nt->lock_count--;
      break;
    }
}

void NdrThreadFinish(ThreadState *thr) {
  if (!ndr_enabled || !thr->ndr)
    return;
  ScopedInRuntime in_rtl;
  NdrThread *nt = thr->ndr;
  EndEpoch(nt);
  RunPendingChecks(thr, nt);
  if (nt->floor.registered)
    NdrFloorUnregister(&nt->floor);
  if (nt->spare)
    GiveToPool(nt->spare, nt->spare_tail, nt->spare_count);
  if (nt->free_list) {
    EpochVariable *last = nt->free_list;
    while (last->next)
      last = last->next;
    GiveToPool(nt->free_list, last, nt->free_count);
  }
  if (nt->touched)
    InternalFree(nt->touched);
  if (nt->pending)
    InternalFree(nt->pending);
  InternalFree(nt);
  thr->ndr = nullptr;
  thr->ndr_finished = true;
}

void NdrAtExit(ThreadState *thr) {
  if (!ndr_enabled)
    return;
  if (thr->ndr) {
    EndEpoch(thr->ndr);
    RunPendingChecks(thr, thr->ndr);
  }
  if (!LoadRelaxed(&ndr.instrumented))
    Printf("HybridRace: ndr=1, but no code was built with "
           "-fsanitize-hybrid-race-ndr: no read is checked for "
           "non-determinism\n");
}

} // namespace hrace

using namespace hrace;

extern "C" {

void __hrace_ndr_module_init() { StoreRelaxed(&ndr.instrumented, true); }

void __hrace_ndr_read(void *addr, uptr size) {
  ReadOf(reinterpret_cast<uptr>(addr), size,
         reinterpret_cast<uptr>(__builtin_return_address(0)));
}

void __hrace_ndr_write(void *addr, uptr size, void *parent, const char *name) {
  WriteOf(reinterpret_cast<uptr>(addr), size, reinterpret_cast<uptr>(parent),
          name, reinterpret_cast<uptr>(__builtin_return_address(0)));
}

void __hrace_ndr_dep(void *addr, u32 control, const char *name) {
  ThreadState *thr = cur_thread();
  if (!ndr_enabled || thr->in_rtl)
    return;
  NdrThread *nt = thr->ndr;
  // The thread's first dependency makes its state, out of line: the pass
  // calls this for every load a store depends on, and a call on its path
  // made it save five registers (7.9% of blackscholes' samples under
  // ndr=1, the tracker's append another 4.3% as a call).
  if (UNLIKELY(!nt))
    return FirstDependency(thr, reinterpret_cast<uptr>(addr), control != 0,
                           name);
  // Runtime code: a signal arriving in it waits (the handler's own stores
  // would change the same tracker). The append is inline, and the fences
  // keep the compiler from moving its stores out of the runtime's mark.
  thr->in_rtl++;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  nt->correlations.AddDependency(reinterpret_cast<uptr>(addr), control != 0,
                                 name);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  LeaveRuntime(thr);
}

} // extern "C"
