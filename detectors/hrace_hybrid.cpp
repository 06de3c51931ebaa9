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
