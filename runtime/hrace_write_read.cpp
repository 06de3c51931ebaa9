//===-- hrace_write_read.cpp - Write/read relations (precise=1) -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_write_read.h"

#include "hrace_rtl.h"

namespace hrace {

namespace {

u64 Later(u64 a, u64 b) { return a > b ? a : b; }

// Calls fn(clock) for each read at positions [from, end) of a location
// that a section of s wrote, when what its writers knew tells thr something
// new. s->mu must be held.
template <typename Fn>
void ForEachRelation(ThreadState *thr, SyncObject *s, u64 from, Fn fn) {
  if (!s->writes.size())
    return;
  const RegionAccesses &reads = thr->relations.reads;
  for (u64 pos = Later(from, reads.begin()); pos < reads.end(); pos++) {
    const RegionAccesses::Access &a = reads.Get(pos);
    s->writes.ForEachWriter(a.addr, a.size, [&](const ClockRef &clock, u32) {
      if (!clock.KnownBy(thr->vc))
        fn(clock);
    });
  }
}

// What thr knows now: its snapshot, renewed if it acquired since, and its
// own clock. Kept in the thread, not made per unlock: a reference made and
// dropped at each would be two locked instructions.
const ClockRef &CurrentClock(ThreadState *thr) {
  ThreadRelations &r = thr->relations;
  if (r.knowledge.empty() || r.knowledge_acquires != thr->acquires) {
    ClockSnapshot *snapshot = ClockSnapshot::Make(thr->vc);
    r.knowledge.Assign(snapshot, thr->slot, thr->clock);
    snapshot->Unref();
    r.knowledge_acquires = thr->acquires;
  } else {
    r.knowledge.AdvanceOwnClock(thr->slot, thr->clock);
  }
  return r.knowledge;
}

bool ReadInRegion(const RegionAccesses &reads, u64 from, uptr addr, uptr size) {
  for (u64 pos = Later(from, reads.begin()); pos < reads.end(); pos++) {
    const RegionAccesses::Access &a = reads.Get(pos);
    if (a.addr < addr + size && addr < a.addr + a.size)
      return true;
  }
  return false;
}

// The ordering a wait that found no relation falls back to.
void FinishPendingWait(ThreadState *thr, bool related) {
  ThreadRelations &r = thr->relations;
  uptr cv = r.pending_wait_cv;
  bool signalled = r.pending_wait_signalled;
  r.pending_wait_cv = 0;
  r.pending_wait_signalled = false;
  if (!related && signalled)
    AcquireAddr(thr, cv);
}

// The end of a critical section that read or wrote something, or completes
// a wait. Out of line, so that LockRegionEnding, which most unlocks leave
// early, does not pay for this function's frame.
NOINLINE void EndNonEmptyRegion(ThreadState *thr, SyncObject *s,
                                const OpenRegion &region, u64 first_read,
                                u64 first_write, bool completes_wait) {
  ThreadRelations &r = thr->relations;
  bool read = first_read < r.reads.end();
  bool wrote = first_write < r.writes.end();
  bool related = false;
  {
    SpinMutexLock l(&s->mu);
    // Only a completing wait or a marked loop needs the relations now; for
    // hand-offs the reads are candidates, looked up if a report comes near.
    if (completes_wait || r.loop_depth)
      ForEachRelation(thr, s, region.reads_begin, [&](const ClockRef &clock) {
        related = true;
        // A wait outside a marked loop completes here: what
        // its condition read orders the waiter (seeds/000,
        // figure 6).
        if (completes_wait) {
          AcquireClock(thr, clock);
          return;
        }
        clock.JoinInto(&r.loop_relations);
        r.loop_related = true;
      });
    // This section's number. A candidate accepts what the map held when
    // the section ended: a location it then changed itself holds its own
    // clock, joined with the one it read for a read-modify-write.
    u32 seq = 0;
    if (read && s->writes.size()) {
      seq = s->writes.EndSection();
      for (u64 pos = first_read; pos < r.reads.end(); pos++) {
        const RegionAccesses::Access &a = r.reads.Get(pos);
        if (MayBeHeap(a.addr) || MayBeHeap(a.value))
          r.handoffs.AddCandidate({s->addr, a.addr, a.value,
                                   static_cast<u32>(a.size), s->lock_id, seq});
      }
    }
    if (wrote && !seq)
      seq = s->writes.EndSection();
    // The ring dropped writes of this section: the map cannot say it holds
    // every write made under the lock.
    if (region.writes_begin < r.writes.begin())
      s->writes.MarkLost();
    if (wrote) {
      const ClockRef &now = CurrentClock(thr);
      for (u64 pos = first_write; pos < r.writes.end(); pos++) {
        const RegionAccesses::Access &w = r.writes.Get(pos);
        s->writes.Publish(
            w.addr, w.size, now,
            ReadInRegion(r.reads, region.reads_begin, w.addr, w.size), seq);
      }
    }
  }
  // Outside s->mu: the fallback takes the condition variable's.
  if (completes_wait)
    FinishPendingWait(thr, related);
}

} // namespace

void LockRegionEnding(ThreadState *thr, SyncObject *s, bool for_wait) {
  ThreadRelations &r = thr->relations;
  u32 i = r.open_count;
  while (i > 0 && r.open[i - 1].lock != s->addr)
    i--;
  if (!i)
    return;
  OpenRegion region = r.open[i - 1];
  for (; i < r.open_count; i++)
    r.open[i - 1] = r.open[i];
  r.open_count--;

  bool completes_wait = r.pending_wait_cv && !for_wait;
  u64 first_read = Later(region.reads_begin, r.reads.begin());
  u64 first_write = Later(region.writes_begin, r.writes.begin());
  bool read = first_read < r.reads.end();
  bool wrote = first_write < r.writes.end();
  // An empty critical section (the ones that merely order, in hb) neither
  // finds nor publishes anything.
  if (read || wrote || completes_wait)
    EndNonEmptyRegion(thr, s, region, first_read, first_write, completes_wait);
}

void WaitLoopEntered(ThreadState *thr) {
  ThreadRelations &r = thr->relations;
  r.loop_depth++;
  r.loop_reads_begin = r.reads.end();
  r.reads.StartRun();
  r.loop_relations.Reset();
  r.loop_related = false;
}

void WaitLoopExited(ThreadState *thr) {
  ThreadRelations &r = thr->relations;
  if (r.loop_depth)
    r.loop_depth--;
  if (!WriteReadRelationsEnabled())
    return;
  bool related = r.loop_related;
  if (related)
    AcquireClock(thr, r.loop_relations);
  r.loop_relations.Reset();
  r.loop_related = false;
  // The condition as read in the critical sections still open (the usual
  // wait loop exits holding the mutex).
  for (u32 i = 0; i < r.open_count; i++) {
    SyncObject *s = ctx->syncs.Get(r.open[i].lock);
    if (!s)
      continue;
    SpinMutexLock l(&s->mu);
    ForEachRelation(thr, s, Later(r.open[i].reads_begin, r.loop_reads_begin),
                    [&](const ClockRef &clock) {
                      AcquireClock(thr, clock);
                      related = true;
                    });
  }
  FinishPendingWait(thr, related);
}

void WaitReturned(ThreadState *thr, uptr cv, bool signalled) {
  if (!WriteReadRelationsEnabled()) {
    if (signalled)
      AcquireAddr(thr, cv);
    return;
  }
  ThreadRelations &r = thr->relations;
  r.pending_wait_cv = cv;
  r.pending_wait_signalled = signalled;
  // The condition is read again after the wait; what it read before the
  // wait (still false) says nothing about who made it true.
  r.loop_relations.Reset();
  r.loop_related = false;
}

void ThreadRelationsFinished(ThreadState *thr) {
  ThreadRelations &r = thr->relations;
  r.loop_relations.Free();
  r.handoffs.Free();
  r.knowledge.Reset();
}

} // namespace hrace
