//===-- hrace_stack_depot.h - Call stacks stored once ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Stacks that outlive the moment they were taken (where a lock was first
// seen, where a thread was created, the stack of every access in a thread's
// trace) are stored once each and named by a 32-bit StackId.
//
// The depot is a tree of frames: a stack's id names its innermost frame, and
// each frame names its caller's id. So a stack that grows by one call is one
// step (Extend) from the stack it grew from, which lets a thread keep the id
// of its current call stack up to date at a lookup per new frame instead of
// storing whole stacks (ShadowFrame). Lookups take no lock; new
// frames are added under one. Stored frames are never freed: distinct
// stacks are bounded by the program's call paths, not by how often they
// recur.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_STACK_DEPOT_H
#define HRACE_STACK_DEPOT_H

#include "hrace_defs.h"
#include "hrace_mutex.h"

namespace hrace {

// 0 is the empty stack; kLostStack a stack that could not be stored because
// the depot was full (reports say so, never print a wrong stack).
typedef u32 StackId;
constexpr StackId kLostStack = 1;

class StackDepot {
public:
  // Ids fit 24 bits: a trace event keeps one beside its position.
  static constexpr u32 kIdBits = 24;
  static constexpr u32 kMaxNodes = 1u << kIdBits;
  // The most frames Put stores and Get returns.
  static constexpr u32 kMaxFrames = 64;

  // The stack `parent` called from `pc` (pc is the new innermost frame).
  StackId Extend(StackId parent, uptr pc);
  // The id of the stack frames[0..n) (innermost first); n above kMaxFrames
  // keeps the innermost kMaxFrames. An empty stack is 0.
  StackId Put(const uptr *frames, u32 n);
  // Copies up to `max` frames of stack `id`, innermost first, and returns
  // how many. *lost (when given) says that frames beyond those returned were
  // not stored. Lock-free: a stored frame never changes.
  u32 Get(StackId id, uptr *frames, u32 max, bool *lost = nullptr) const;

private:
  struct Node {
    uptr pc;
    StackId parent;
    StackId next_in_bucket;
  };
  static constexpr u32 kBuckets = 1 << 20;
  StackId Find(StackId head, StackId parent, uptr pc) const;
  void InitLocked();

  SpinMutex mu_;
  bool initialized_ = false;
  // Reserved whole (MAP_NORESERVE) and backed as ids are handed out.
  Node *nodes_ = nullptr;
  StackId *buckets_ = nullptr;
  // The next id to hand out; 0 and kLostStack are never a node.
  StackId next_id_ = kLostStack + 1;
};

} // namespace hrace

#endif // HRACE_STACK_DEPOT_H
