//===-- hrace_hybrid.cpp - What the hybrid machines share -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_hybrid.h"

namespace hrace {
namespace hybrid {

// From the thread's memo of set operations: the same few pairs come again
// and again (two readers of what a third wrote, after every barrier), and
// interning looked each up in the table (facesim: 2.8% of its time).
SetId PairWithOwner(ThreadState *thr, const AccessContext &ac, SegmentId seg) {
  u32 owner = Member(ctx->segments.Get(seg).thread_id, false);
  return thr->set_ops.Pair(&ctx->threadsets, owner, SelfMember(thr, ac));
}

SetId WithOwners(ThreadState *thr, const AccessContext &ac, SegmentId a,
                 SegmentId b) {
  u32 ids[3] = {
      SelfMember(thr, ac), Member(ctx->segments.Get(a).thread_id, false),
      b ? Member(ctx->segments.Get(b).thread_id, false) : SelfMember(thr, ac)};
  // Sorted, duplicates dropped, as the table wants them.
  for (u32 i = 1; i < 3; i++)
    for (u32 j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
      u32 t = ids[j];
      ids[j] = ids[j - 1];
      ids[j - 1] = t;
    }
  u32 n = 1;
  for (u32 i = 1; i < 3; i++)
    if (ids[i] != ids[n - 1])
      ids[n++] = ids[i];
  return ctx->threadsets.Intern(ids, n);
}

bool OtherPlainMember(ThreadState *thr, SetId threads, u32 *thread) {
  if (threads == kThreadSetOverflow) {
    *thread = kAnyOtherThread;
    return true;
  }
  u32 n;
  const u32 *ids = ctx->threadsets.Members(threads, &n);
  u32 me = thr->thread_id & kMemberThreadMask;
  for (u32 i = 0; i < n; i++) {
    if ((ids[i] & kAtomicMember) || MemberThread(ids[i]) == me)
      continue;
    *thread = MemberThread(ids[i]);
    return true;
  }
  return false;
}

namespace {

// How far into prev's slot a hand-off of thr orders for the block
// [beg, end): an edge, or a candidate in scope whose lock's map still holds
// what it read (or what the value's plain writer knew, where later sections
// only joined into it), written by a thread that had made the previous
// access, which then becomes an edge. 0 when none orders prev.
Clock HandoffReach(ThreadState *thr, SegmentInfo prev, uptr beg, uptr end) {
  HandoffEdges &edges = thr->relations.handoffs;
  // Clock values of a slot only grow, across its owners too: an edge that
  // knows this far into the slot knows the access.
  if (edges.MayOrder(prev.slot, prev.clock))
    if (Clock reach = edges.Reach(prev.slot, prev.clock, beg, end))
      return reach;
  Clock reach = 0;
  edges.FindCandidate(beg, end, [&](const HandoffEdges::Candidate &c) {
    SyncObject *s = ctx->syncs.Get(c.lock);
    if (!s)
      return false;
    SpinMutexLock l(&s->mu);
    if (s->lock_id != c.lock_id)
      return false;
    s->writes.ForEachWriterAsOf(
        c.location, c.size, c.seq, [&](const ClockRef &clock) {
          if (reach || clock.Get(prev.slot) < prev.clock)
            return;
          edges.Add(clock, c.location, c.value);
          reach = clock.Get(prev.slot);
        });
    return reach != 0;
  });
  return reach;
}

// Some thread's access that a hand-off ordered after prev, for memory at
// addr, happens before thr: thr is ordered after prev through it. *block is
// set to the record's block.
bool OrderedThroughRecords(ThreadState *thr, SegmentInfo prev, uptr addr,
                           HeapRange *block) {
  u32 slots = ctx->threads.PublishedSlots();
  for (u32 slot = 0; slot < slots; slot++) {
    const ThreadContext *tc = ctx->threads.PublishedContext(slot);
    if (tc && tc->handoff_records.Orders(
                  prev.slot, prev.clock, addr,
                  [&](Clock c, u32 thread) {
                    return KnowsPoint(thr, {slot, c, thread});
                  },
                  block))
      return true;
  }
  return false;
}

} // namespace

bool OrderedByHandoff(ThreadState *thr, uptr addr, SegmentId seg,
                      SegmentId earlier) {
  if (!seg)
    return false;
  SegmentInfo prev = ctx->segments.Get(seg);
  thr->scope_lookups++;
  HeapRange block = {0, 0};
  Clock reach = 0;
  if (!thr->relations.handoffs.empty()) {
    uptr beg, size;
    // Hand-offs scope heap blocks only.
    if (!FindHeapBlock(addr, &beg, &size))
      return false;
    block = {beg, beg + size};
    reach = HandoffReach(thr, prev, block.beg, block.end);
  }
  // A record holds its block: no lookup of the heap unless one orders.
  if (!reach && HandoffRecords::AnyAdded() &&
      OrderedThroughRecords(thr, prev, addr, &block))
    reach = prev.clock;
  if (!reach)
    return false;
  // The cell may go on naming prev and not this access (a later ordered
  // reader replaces it, or a concurrent plain store loses it): whoever is
  // ordered after this access learns from the record that prev is ordered
  // before it, for this block.
  if (!thr->context)
    return true;
  HandoffRecords &records = thr->context->handoff_records;
  records.Add(thr->clock, thr->thread_id, prev.slot, reach, block.beg,
              block.end);
  if (earlier) {
    SegmentInfo e = ctx->segments.Get(earlier);
    records.Add(thr->clock, thr->thread_id, e.slot, e.clock, block.beg,
                block.end);
  }
  return true;
}

bool ReadAfterLockedWrites(ThreadState *thr, uptr addr, LockSetId candidates,
                           SetId threads) {
  if (!WriteReadRelationsEnabled() || candidates == kEmptyLockSet ||
      candidates == kUnknownLockSet || threads == kThreadSetOverflow)
    return false;
  u32 n;
  const u32 *members = ctx->threadsets.Members(threads, &n);
  for (u32 i = 0; i < n; i++)
    if (members[i] & kAtomicMember)
      return false;
  // The answer depends on the address: not memoised by value.
  thr->scope_lookups++;
  const u32 *locks = ctx->locksets.Members(candidates, &n);
  uptr granule = addr & ~static_cast<uptr>(kRelationGranule - 1);
  // Every lock of C must show it: C is the reader's lock set where an
  // Exclusive-Read-after-Write row knew only that the write held some lock,
  // and a lock the write did not hold has only older writes in its map.
  for (u32 i = 0; i < n; i++) {
    SyncObject *s = ctx->syncs.ForLock(locks[i]);
    if (!s)
      return false;
    SpinMutexLock l(&s->mu);
    u32 owner = LoadRelaxed(&s->owner);
    if (s->lock_id != locks[i] || (owner && owner != thr->thread_id + 1) ||
        !s->writes.WritesOfGranuleKnownBy(granule, thr->vc))
      return false;
  }
  return n > 0;
}

bool OthersReadUnordered(ThreadState *thr, const AccessContext &ac,
                         SegmentId seg, SetId threads, u32 *reader) {
  if (!seg || threads == kThreadSetOverflow ||
      !NothingAcquiredSince(thr, seg))
    return false;
  u32 n;
  const u32 *ids = ctx->threadsets.Members(threads, &n);
  u32 me = thr->thread_id & kMemberThreadMask;
  *reader = me;
  for (u32 i = 0; i < n && *reader == me; i++)
    *reader = MemberThread(ids[i]);
  if (*reader == me)
    return false;
  const HandoffEdges &edges = thr->relations.handoffs;
  uptr beg, size;
  thr->scope_lookups++;
  return edges.empty() || !FindHeapBlock(ac.addr, &beg, &size) ||
         !edges.AnyInScope(beg, beg + size);
}

bool AloneAfterJoins(ThreadState *thr, SetId threads) {
  if (threads == kThreadSetOverflow)
    return false;
  u32 ended = ctx->threads.ended_count();
  ThreadState::JoinRuleEntry &e =
      thr->join_rule_cache[threads % (sizeof(thr->join_rule_cache) /
                                      sizeof(thr->join_rule_cache[0]))];
  if (e.thread_set == threads && e.ended == ended &&
      e.acquires == thr->acquires)
    return e.alone;
  u32 n;
  const u32 *ids = ctx->threadsets.Members(threads, &n);
  // The rule is about threads leaving the set: a set that never had another
  // thread in it (msm=long's ERW read by its owner) is left alone.
  u32 me = thr->thread_id & kMemberThreadMask;
  bool others = false;
  bool alone = true;
  for (u32 i = 0; i < n && alone; i++) {
    u32 id = MemberThread(ids[i]);
    if (id == me)
      continue;
    others = true;
    alone = EndedBefore(thr, id);
  }
  alone = alone && others;
  e = {threads, ended, thr->acquires, alone};
  return alone;
}

} // namespace hybrid
} // namespace hrace
