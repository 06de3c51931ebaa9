//===-- hrace_lock_order.h - The lock-order graph and its cycles ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// detect_deadlocks: an edge A -> B says some thread acquired B (or blocked
// trying to) while it held A. A cycle is a potential deadlock: each of its
// threads may hold its edge's first lock while it waits for the next. Nodes
// are lock names (M<n>, never reused, so a lock destroyed and created again
// at the same address is a new node); a node leaves the graph with its
// lock. The graph is searched only when an edge is new, so each cycle is
// found once, by the edge that closes it, and a program that repeats its
// lock orders pays one search per distinct pair. The search is breadth first
// and iterative: the cycle found is the shortest through the new edge, and
// no nesting depth or lock count can overflow a stack.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LOCK_ORDER_H
#define HRACE_LOCK_ORDER_H

#include "../runtime/hrace_defs.h"
#include "../runtime/hrace_lockset.h"
#include "../runtime/hrace_mutex.h"
#include "../runtime/hrace_stack_depot.h"

namespace hrace {

// Who a lock is in reports: its address and where it was first seen.
struct LockIdentity {
  uptr addr = 0;
  StackId first_seen = 0;
  u32 first_seen_thread = 0;
};

// The evidence for one edge, as first established.
struct LockOrderEdge {
  LockId from = 0;
  LockId to = 0;
  u32 thread_id = 0;
  // Where the thread acquired `from`, and where it acquired `to` after it.
  StackId from_stack = 0;
  StackId to_stack = 0;
};

// The locks a thread holds in the order it took them, each with where it was
// taken (the innermost frames, kept inline and stored in the depot only
// when an edge needs them), and the edges out of them this thread already
// knows the graph has. Unlike HeldLocks (the lock set, at most 64 locks) it
// grows: a thread may hold hundreds of locks.
class HeldAcquisitions {
public:
  static constexpr u32 kFrames = 16;
  struct Acquisition {
    LockId id;
    u32 frame_count;
    uptr addr;
    StackId stack;
    uptr frames[kFrames];
  };

  // A new hold of the lock; its frames are for the caller to fill.
  ALWAYS_INLINE Acquisition *Push(LockId id, uptr addr) {
    if (UNLIKELY(count_ == capacity_))
      Grow();
    Acquisition *a = &held_[count_++];
    a->id = id;
    a->addr = addr;
    a->stack = 0;
    a->frame_count = 0;
    return a;
  }
  // Drops the latest hold of the lock, if any.
  ALWAYS_INLINE void Pop(LockId id) {
    // Locks are usually released in reverse order.
    if (LIKELY(count_ && held_[count_ - 1].id == id))
      count_--;
    else
      PopInside(id);
  }
  u32 count() const { return count_; }
  Acquisition *at(u32 i) { return &held_[i]; }
  void Free();

  // A memo of edges known to be in the graph, so that repeating a lock
  // order takes no graph lock. An entry outlives the edge only when one of
  // its locks is gone, and lock names are never reused, so a stale entry
  // is never asked about again.
  bool KnowsEdge(LockId from, LockId to) const {
    return known_[Slot(from, to)] == Key(from, to);
  }
  void RememberEdge(LockId from, LockId to) {
    known_[Slot(from, to)] = Key(from, to);
  }

private:
  void Grow();
  void PopInside(LockId id);
  static constexpr u32 kKnownEdges = 256;
  static u64 Key(LockId from, LockId to) {
    return (static_cast<u64>(from) << 32) | to;
  }
  static u32 Slot(LockId from, LockId to) {
    return (from * 0x9e3779b1u ^ to * 0x85ebca6bu) >> 24;
  }
  Acquisition *held_ = nullptr;
  u32 count_ = 0;
  u32 capacity_ = 0;
  u64 known_[kKnownEdges] = {};
};

class LockOrderGraph {
public:
  // Guards every call below; the runtime takes it only off the fast path
  // (an acquisition whose edges this thread has not seen before).
  SpinMutex *mutex() { return &mu_; }

  bool HasEdge(LockId from, LockId to) const;
  // Adds e (which must be new) and its locks. If e closes a cycle, returns
  // the number of edges in the shortest one and stores the first max of
  // them in cycle: cycle[0] is e, each next edge starts where the previous
  // ended, the last ends at e.from. Returns 0 otherwise.
  u32 AddEdge(const LockOrderEdge &e, const LockIdentity &from,
              const LockIdentity &to, LockOrderEdge *cycle, u32 max);
  // The lock is gone (destroyed, or its memory freed or unmapped): it and
  // every edge into or out of it leave the graph.
  void RemoveLock(LockId id);
  bool Identity(LockId id, LockIdentity *out) const;
  u32 lock_count() const { return live_nodes_; }
  u32 edge_count() const { return live_edges_; }

private:
  // Open addressing from a 64-bit key to a 32-bit index; 0 is no key (lock
  // ids start at 1), ~0 a deleted one.
  class IndexMap {
  public:
    bool Find(u64 key, u32 *value) const;
    void Insert(u64 key, u32 value);
    void Erase(u64 key);

  private:
    u32 SlotOf(u64 key) const;
    void Grow();
    u64 *keys_ = nullptr;
    u32 *values_ = nullptr;
    u32 capacity_ = 0;
    u32 used_ = 0; // live and deleted keys
  };
  // A growable list of edge indices, its first kInline in place: most
  // locks have one or two edges on a side (freqmine: a million node locks,
  // each with one edge out), and a heap list of the smallest size per lock
  // had cost a million allocations and 64 MB.
  struct EdgeList {
    static constexpr u32 kInline = 2;
    union {
      u32 inline_items[kInline];
      u32 *heap;
    };
    u32 size;
    // 0 while the edges are in place; a reused node keeps its heap list.
    u32 capacity;
    u32 at(u32 i) const { return capacity ? heap[i] : inline_items[i]; }
    void Push(u32 edge);
    void Erase(u32 edge);
  };
  static_assert(sizeof(EdgeList) == 16, "a node's two lists stay 32 bytes");
  // Slots named by index (indices stay valid when the storage grows), a
  // freed slot reused first. A fresh slot is zero-filled; a reused one keeps
  // what it held (a node's edge lists keep their storage).
  template <typename T> class Pool {
  public:
    u32 New();
    void Free(u32 index);
    T &operator[](u32 index) { return items_[index]; }
    const T &operator[](u32 index) const { return items_[index]; }
    u32 used() const { return used_; }

  private:
    T *items_ = nullptr;
    u32 capacity_ = 0;
    u32 used_ = 0;
    u32 *free_ = nullptr;
    u32 free_count_ = 0;
    u32 free_capacity_ = 0;
  };
  struct Node {
    LockId id;
    LockIdentity identity;
    EdgeList out;
    EdgeList in;
    // The search that last reached the node, and the edge it came by.
    u32 visited;
    u32 reached_by;
  };

  u32 NodeFor(LockId id, const LockIdentity &identity);
  void DropEdge(u32 edge);
  u32 FindPath(u32 from_node, u32 to_node, LockOrderEdge *path, u32 max);

  SpinMutex mu_;
  IndexMap node_of_lock_;
  IndexMap edge_of_pair_;
  Pool<Node> nodes_;
  Pool<LockOrderEdge> edges_;
  u32 *queue_ = nullptr;
  u32 queue_capacity_ = 0;
  u32 search_ = 0;
  u32 live_nodes_ = 0;
  u32 live_edges_ = 0;
};

} // namespace hrace

#endif // HRACE_LOCK_ORDER_H
