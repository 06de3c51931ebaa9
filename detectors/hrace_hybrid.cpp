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

namespace {
constexpr u32 kThreadTag = 1u << 31;
} // namespace

SetId PairWithOwner(ThreadState *thr, SegmentId seg) {
  u32 owner = ctx->segments.Get(seg).thread_id | kThreadTag;
  u32 me = thr->thread_id | kThreadTag;
  u32 ids[2] = {owner < me ? owner : me, owner < me ? me : owner};
  return ctx->threadsets.Intern(ids, owner == me ? 1 : 2);
}

SetId WithOwners(ThreadState *thr, SegmentId a, SegmentId b) {
  u32 ids[3] = {thr->thread_id | kThreadTag,
                ctx->segments.Get(a).thread_id | kThreadTag,
                b ? ctx->segments.Get(b).thread_id | kThreadTag
                  : thr->thread_id | kThreadTag};
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

bool OrderedByHandoff(ThreadState *thr, uptr addr, SegmentId seg) {
  if (!seg)
    return false;
  SegmentInfo s = ctx->segments.Get(seg);
  // Clock values of a slot only grow, across its owners too: an edge that
  // knows this far into the slot knows the access.
  if (!thr->relations.handoffs.MayOrder(s.slot, s.clock))
    return false;
  uptr beg, size;
  if (!FindHeapBlock(addr, &beg, &size))
    return false;
  return thr->relations.handoffs.Orders(s.slot, s.clock, beg, beg + size);
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
  bool others = false;
  bool alone = true;
  for (u32 i = 0; i < n && alone; i++) {
    u32 id = ids[i] & ~kThreadTag;
    if (id == thr->thread_id)
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
