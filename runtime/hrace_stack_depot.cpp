//===-- hrace_stack_depot.cpp - Call stacks stored once -------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_stack_depot.h"

#include "hrace_alloc.h"

namespace hrace {

namespace {
u32 HashFrame(StackId parent, uptr pc) {
  u64 h = (static_cast<u64>(pc) ^ (static_cast<u64>(parent) << 40)) *
          0x9e3779b97f4a7c15ull;
  return static_cast<u32>(h >> 32);
}
} // namespace

void StackDepot::InitLocked() {
  nodes_ = static_cast<Node *>(
      MmapNoReserveOrDie(kMaxNodes * sizeof(Node), "stack depot"));
  buckets_ = static_cast<StackId *>(
      MmapNoReserveOrDie(kBuckets * sizeof(StackId), "stack depot buckets"));
  // Lookups read the tables without the lock once this is seen.
  StoreRelease(&initialized_, true);
}

StackId StackDepot::Find(StackId head, StackId parent, uptr pc) const {
  for (StackId id = head; id; id = nodes_[id].next_in_bucket)
    if (nodes_[id].pc == pc && nodes_[id].parent == parent)
      return id;
  return 0;
}

StackId StackDepot::Extend(StackId parent, uptr pc) {
  if (parent == kLostStack)
    return kLostStack;
  u32 bucket = HashFrame(parent, pc) % kBuckets;
  if (LoadAcquire(&initialized_))
    if (StackId id = Find(LoadAcquire(&buckets_[bucket]), parent, pc))
      return id;
  SpinMutexLock l(&mu_);
  if (!initialized_)
    InitLocked();
  StackId head = buckets_[bucket];
  if (StackId id = Find(head, parent, pc))
    return id;
  // Past the last id a stack that needs a new frame is "lost" whole (its
  // report says so); stacks already stored keep their ids.
  if (next_id_ >= kMaxNodes)
    return kLostStack;
  StackId id = next_id_++;
  nodes_[id] = {pc, parent, head};
  // Published after the node: lookups read the bucket with acquire.
  StoreRelease(&buckets_[bucket], id);
  return id;
}

StackId StackDepot::Put(const uptr *frames, u32 n) {
  if (n > kMaxFrames)
    n = kMaxFrames;
  StackId id = 0;
  for (u32 i = n; i-- > 0;)
    id = Extend(id, frames[i]);
  return id;
}

u32 StackDepot::Get(StackId id, uptr *frames, u32 max, bool *lost) const {
  u32 n = 0;
  for (; id > kLostStack && n < max; id = nodes_[id].parent)
    frames[n++] = nodes_[id].pc;
  if (lost)
    *lost = id == kLostStack;
  return n;
}

} // namespace hrace
