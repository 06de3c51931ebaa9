//===-- hrace_ndr_floor.cpp - What every epoch still to run knows ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_ndr_floor.h"

#include "hrace_alloc.h"
#include "hrace_thread.h"

namespace hrace {

namespace {

struct FloorRegistry {
  SpinMutex mu;
  NdrFloorThread *threads;
  // Threads created and not yet registered.
  u32 creating;
  // Held from a gather to NdrFloorDone: one floor at a time.
  SpinMutex gather_mu;
  u64 last_gather;
  // The floor being gathered and used, by slot; `published` is what
  // NdrFloorKnownOf says, stored once a gather is complete.
  Clock *known;
  u32 *owner;
  Clock *owner_previous;
  Clock *published;
};

FloorRegistry registry;

// A gather for the threads' own slots comes no more often than this many
// ticks of the cycle counter apart (about a millisecond or less): a
// program that orders its phases with barriers learns at each of them, and
// one whose threads learn at every atomic swap (canneal) would spend its
// time gathering.
constexpr u64 kGatherTicks = 1 << 20;

ALWAYS_INLINE u64 CycleCount() {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  u64 ticks;
  asm volatile("mrs %0, cntvct_el0" : "=r"(ticks));
  return ticks;
#endif
}

bool IsRegistered(u32 thread_id) {
  for (NdrFloorThread *t = registry.threads; t; t = t->next)
    if (t->thread_id == thread_id)
      return true;
  return false;
}

template <typename T> T *MapSlots(const char *what) {
  return static_cast<T *>(
      MmapNoReserveOrDie(kMaxThreadSlots * sizeof(T), what));
}

} // namespace

void NdrFloorInit() {
  registry.known = MapSlots<Clock>("ndr floor");
  registry.owner = MapSlots<u32>("ndr floor owners");
  registry.owner_previous = MapSlots<Clock>("ndr floor previous owners");
  registry.published = MapSlots<Clock>("ndr floor published");
}

void NdrFloorRegister(NdrFloorThread *t, ThreadState *thr) {
  t->thread_id = thr->thread_id;
  t->slot = thr->slot;
  t->previous_owner_clock = thr->previous_owner_clock;
  t->joining = NdrFloor::kNoThread;
  t->registered = true;
  t->own_clock = thr->clock;
  // Linked before its clock is copied: a gather in between sees an empty
  // clock (a lower floor), never a floor without the thread.
  {
    SpinMutexLock l(&registry.mu);
    t->prev = nullptr;
    t->next = registry.threads;
    if (registry.threads)
      registry.threads->prev = t;
    registry.threads = t;
  }
  NdrFloorCopy(t, thr, thr->acquires);
}

void NdrFloorUnregister(NdrFloorThread *t) {
  {
    SpinMutexLock l(&registry.mu);
    if (t->prev)
      t->prev->next = t->next;
    else
      registry.threads = t->next;
    if (t->next)
      t->next->prev = t->prev;
  }
  t->registered = false;
  t->clock.Free();
}

void NdrFloorCopy(NdrFloorThread *t, ThreadState *thr, u32 acquires) {
  {
    SpinMutexLock l(&t->mu);
    t->clock.CopyFrom(thr->vc);
    t->published_acquires = acquires;
  }
  if (CycleCount() - LoadRelaxed(&registry.last_gather) < kGatherTicks)
    return;
  NdrFloor floor;
  if (NdrFloorGather(&floor))
    NdrFloorDone();
}

void NdrFloorThreadCreating() {
  SpinMutexLock l(&registry.mu);
  registry.creating++;
}

void NdrFloorThreadCreated() {
  SpinMutexLock l(&registry.mu);
  registry.creating--;
}

void NdrFloorJoinBegin(NdrFloorThread *t, u32 thread_id) {
  StoreRelease(&t->joining, thread_id);
}

void NdrFloorJoinEnd(NdrFloorThread *t) {
  StoreRelease(&t->joining, NdrFloor::kNoThread);
}

bool NdrFloorGather(NdrFloor *floor) {
  if (!registry.gather_mu.TryLock())
    return false;
  {
    SpinMutexLock l(&registry.mu);
    if (registry.creating) {
      registry.gather_mu.Unlock();
      return false;
    }
    u32 slot_count = 0;
    for (NdrFloorThread *t = registry.threads; t; t = t->next)
      if (t->slot >= slot_count)
        slot_count = t->slot + 1;
    *floor = {slot_count, registry.known, registry.owner,
              registry.owner_previous};
    for (u32 s = 0; s < slot_count; s++) {
      floor->known[s] = ~Clock(0);
      floor->owner[s] = NdrFloor::kNoThread;
      floor->owner_previous[s] = 0;
    }
    for (NdrFloorThread *t = registry.threads; t; t = t->next) {
      floor->owner[t->slot] = t->thread_id;
      floor->owner_previous[t->slot] = t->previous_owner_clock;
      SpinMutexLock tl(&t->mu);
      // Never above the slot's own clock: a thread it creates later knows
      // no more of it, nor does the slot's next owner of the epochs
      // before, and with no other thread the least of what the others know
      // would say "all" for ever.
      Clock own = LoadRelaxed(&t->own_clock);
      if (own < floor->known[t->slot])
        floor->known[t->slot] = own;
      // A joiner's next epoch knows all that the thread it joins will have
      // known, which that thread's part bounds already. If that thread has
      // ended, the joiner may be on its way back: its own part counts.
      u32 joining = LoadAcquire(&t->joining);
      if (joining != NdrFloor::kNoThread && IsRegistered(joining))
        continue;
      for (u32 s = 0; s < slot_count; s++) {
        Clock known = t->clock.Get(s);
        if (s != t->slot && known < floor->known[s])
          floor->known[s] = known;
      }
    }
  }
  StoreRelaxed(&registry.last_gather, CycleCount());
  // A slot past slot_count keeps what an older gather said: still true,
  // and a new owner's clocks start above it.
  for (u32 s = 0; s < floor->slot_count; s++)
    StoreRelaxed(&registry.published[s], floor->known[s]);
  return true;
}

void NdrFloorDone() { registry.gather_mu.Unlock(); }

Clock NdrFloorKnownOf(u32 slot) {
  return slot < kMaxThreadSlots ? LoadRelaxed(&registry.published[slot]) : 0;
}

void NdrFloorForkChild(NdrFloorThread *self) {
  registry.creating = 0;
  registry.threads = self;
  if (self) {
    self->prev = self->next = nullptr;
    self->joining = NdrFloor::kNoThread;
  }
}

} // namespace hrace
