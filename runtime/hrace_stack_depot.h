//===-- hrace_stack_depot.h - Call stacks stored once ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stacks that outlive the moment they were taken (where a lock was first
// seen, where a lock-order edge was made) are stored once each and named by
// a 32-bit StackId. Stored stacks are never freed: distinct stacks are
// bounded by the program's call paths, not by how often they recur.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_STACK_DEPOT_H
#define HRACE_STACK_DEPOT_H

#include "hrace_defs.h"
#include "hrace_mutex.h"

namespace hrace {

// 0 is "no stack".
typedef u32 StackId;

class StackDepot {
public:
  static constexpr u32 kMaxStacks = 1 << 22;
  static constexpr u32 kMaxFrames = 64;

  // The id of the stack frames[0..n) (innermost first), stored on first use.
  // n above kMaxFrames keeps the innermost kMaxFrames. An empty stack is 0.
  StackId Put(const uptr *frames, u32 n);
  // The frames of a stored stack; *n is 0 for id 0. Lock-free: a stored
  // stack never changes.
  const uptr *Get(StackId id, u32 *n) const;

private:
  struct Stack {
    u32 hash;
    u32 size;
    StackId next_in_bucket;
    uptr frames[1];
  };
  static constexpr u32 kBuckets = 1 << 16;
  void InitLocked();
  Stack *NewStack(u32 n);

  SpinMutex mu_;
  bool initialized_ = false;
  Stack **stacks_ = nullptr;
  StackId *buckets_ = nullptr;
  StackId count_ = 0;
  u8 *arena_ = nullptr;
  uptr arena_left_ = 0;
};

} // namespace hrace

#endif // HRACE_STACK_DEPOT_H
