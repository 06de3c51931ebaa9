//===-- hrace_stack_depot.cpp - Call stacks stored once -------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_stack_depot.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

namespace hrace {

namespace {
constexpr uptr kArenaChunk = 1 << 20;

u32 HashFrames(const uptr *frames, u32 n) {
  u64 h = 0xcbf29ce484222325ull ^ n;
  for (u32 i = 0; i < n; i++) {
    h ^= frames[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return static_cast<u32>(h ^ (h >> 32));
}
} // namespace

void StackDepot::InitLocked() {
  // The id table is reserved whole and backed as ids are handed out, so Get
  // needs no lock.
  stacks_ = static_cast<Stack **>(
      MmapNoReserveOrDie(kMaxStacks * sizeof(Stack *), "stack depot"));
  buckets_ = static_cast<StackId *>(
      MmapNoReserveOrDie(kBuckets * sizeof(StackId), "stack depot buckets"));
  initialized_ = true;
}

StackDepot::Stack *StackDepot::NewStack(u32 n) {
  uptr bytes = (sizeof(Stack) + (n - 1) * sizeof(uptr) + 7) & ~uptr(7);
  if (bytes > arena_left_) {
    arena_ = static_cast<u8 *>(MmapOrDie(kArenaChunk, "stack depot"));
    arena_left_ = kArenaChunk;
  }
  Stack *s = reinterpret_cast<Stack *>(arena_);
  arena_ += bytes;
  arena_left_ -= bytes;
  return s;
}

StackId StackDepot::Put(const uptr *frames, u32 n) {
  if (!n)
    return 0;
  if (n > kMaxFrames)
    n = kMaxFrames;
  u32 hash = HashFrames(frames, n);
  SpinMutexLock l(&mu_);
  if (!initialized_)
    InitLocked();
  StackId *bucket = &buckets_[hash % kBuckets];
  for (StackId id = *bucket; id; id = stacks_[id]->next_in_bucket) {
    const Stack *s = stacks_[id];
    if (s->hash == hash && s->size == n &&
        !internal_memcmp(s->frames, frames, n * sizeof(uptr)))
      return id;
  }
  // Past the last id every new stack is "no stack": reports then print less,
  // never a wrong stack.
  if (count_ + 1 >= kMaxStacks)
    return 0;
  Stack *s = NewStack(n);
  s->hash = hash;
  s->size = n;
  s->next_in_bucket = *bucket;
  internal_memcpy(s->frames, frames, n * sizeof(uptr));
  StackId id = ++count_;
  // Published after its frames: Get reads the pointer with acquire.
  StoreRelease(&stacks_[id], s);
  *bucket = id;
  return id;
}

const uptr *StackDepot::Get(StackId id, u32 *n) const {
  const Stack *s = id && stacks_ ? LoadAcquire(&stacks_[id]) : nullptr;
  if (!s) {
    *n = 0;
    return nullptr;
  }
  *n = s->size;
  return s->frames;
}

} // namespace hrace
