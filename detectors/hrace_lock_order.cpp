//===-- hrace_lock_order.cpp - The lock-order graph and its cycles --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_lock_order.h"

#include "../runtime/hrace_alloc.h"
#include "../runtime/hrace_libc.h"

namespace hrace {

namespace {
constexpr u64 kDeletedKey = ~0ull;

u64 PairKey(LockId from, LockId to) {
  return (static_cast<u64>(from) << 32) | to;
}

u32 HashKey(u64 key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return static_cast<u32>(key);
}

template <typename T> void GrowArray(T **items, u32 *capacity, u32 need) {
  if (need <= *capacity)
    return;
  u32 fresh = *capacity ? *capacity * 2 : 16;
  while (fresh < need)
    fresh *= 2;
  *items = static_cast<T *>(
      InternalRealloc(*items, *capacity * sizeof(T), fresh * sizeof(T)));
  *capacity = fresh;
}
} // namespace

// --- HeldAcquisitions ------------------------------------------------------

void HeldAcquisitions::Grow() { GrowArray(&held_, &capacity_, count_ + 1); }

void HeldAcquisitions::PopInside(LockId id) {
  for (u32 i = count_; i-- > 0;) {
    if (held_[i].id != id)
      continue;
    for (u32 j = i + 1; j < count_; j++)
      held_[j - 1] = held_[j];
    count_--;
    return;
  }
}

void HeldAcquisitions::Free() {
  if (held_)
    InternalFree(held_);
  held_ = nullptr;
  count_ = capacity_ = 0;
}

// --- IndexMap ---------------------------------------------------------------

u32 LockOrderGraph::IndexMap::SlotOf(u64 key) const {
  u32 mask = capacity_ - 1;
  for (u32 i = HashKey(key) & mask;; i = (i + 1) & mask)
    if (keys_[i] == key || keys_[i] == 0)
      return i;
}

bool LockOrderGraph::IndexMap::Find(u64 key, u32 *value) const {
  if (!capacity_)
    return false;
  u32 slot = SlotOf(key);
  if (keys_[slot] != key)
    return false;
  *value = values_[slot];
  return true;
}

void LockOrderGraph::IndexMap::Grow() {
  u64 *old_keys = keys_;
  u32 *old_values = values_;
  u32 old_capacity = capacity_;
  // Deleted keys are dropped, so a map that churns (locks created and
  // destroyed) rehashes at its live size.
  u32 live = 0;
  for (u32 i = 0; i < old_capacity; i++)
    live += old_keys[i] && old_keys[i] != kDeletedKey;
  // At most half full after a rehash: a doubling when full to three
  // quarters, with live keys alone (a rehash at a quarter kept a million
  // locks' two maps at 4 M slots each, 96 MB).
  capacity_ = 64;
  while (capacity_ < live * 2)
    capacity_ *= 2;
  keys_ = static_cast<u64 *>(InternalCalloc(capacity_ * sizeof(u64)));
  values_ = static_cast<u32 *>(InternalAlloc(capacity_ * sizeof(u32)));
  used_ = 0;
  for (u32 i = 0; i < old_capacity; i++) {
    if (!old_keys[i] || old_keys[i] == kDeletedKey)
      continue;
    u32 slot = SlotOf(old_keys[i]);
    keys_[slot] = old_keys[i];
    values_[slot] = old_values[i];
    used_++;
  }
  if (old_keys) {
    InternalFree(old_keys);
    InternalFree(old_values);
  }
}

void LockOrderGraph::IndexMap::Insert(u64 key, u32 value) {
  // At most three quarters full, counting deleted keys, so probes stay
  // short (the keys are mixed by HashKey).
  if ((u64(used_) + 1) * 4 > u64(capacity_) * 3)
    Grow();
  u32 slot = SlotOf(key);
  if (keys_[slot] != key) {
    keys_[slot] = key;
    used_++;
  }
  values_[slot] = value;
}

void LockOrderGraph::IndexMap::Erase(u64 key) {
  if (!capacity_)
    return;
  u32 slot = SlotOf(key);
  if (keys_[slot] == key)
    keys_[slot] = kDeletedKey;
}

// --- EdgeList ---------------------------------------------------------------

void LockOrderGraph::EdgeList::Push(u32 edge) {
  if (!capacity) {
    if (size < kInline) {
      inline_items[size++] = edge;
      return;
    }
    // The list leaves its place for the heap, with room to grow.
    u32 *grown = static_cast<u32 *>(InternalAlloc(4 * kInline * sizeof(u32)));
    internal_memcpy(grown, inline_items, size * sizeof(u32));
    heap = grown;
    capacity = 4 * kInline;
  } else {
    GrowArray(&heap, &capacity, size + 1);
  }
  heap[size++] = edge;
}

void LockOrderGraph::EdgeList::Erase(u32 edge) {
  u32 *items = capacity ? heap : inline_items;
  for (u32 i = 0; i < size; i++)
    if (items[i] == edge) {
      items[i] = items[--size];
      return;
    }
}

// --- The graph --------------------------------------------------------------

template <typename T> u32 LockOrderGraph::Pool<T>::New() {
  if (free_count_)
    return free_[--free_count_];
  GrowArray(&items_, &capacity_, used_ + 1);
  internal_memset(&items_[used_], 0, sizeof(T));
  return used_++;
}

template <typename T> void LockOrderGraph::Pool<T>::Free(u32 index) {
  GrowArray(&free_, &free_capacity_, free_count_ + 1);
  free_[free_count_++] = index;
}

u32 LockOrderGraph::NodeFor(LockId id, const LockIdentity &identity) {
  u32 index;
  if (node_of_lock_.Find(id, &index))
    return index;
  index = nodes_.New();
  Node *n = &nodes_[index];
  n->id = id;
  n->identity = identity;
  n->visited = 0;
  node_of_lock_.Insert(id, index);
  live_nodes_++;
  return index;
}

bool LockOrderGraph::HasEdge(LockId from, LockId to) const {
  u32 unused;
  return edge_of_pair_.Find(PairKey(from, to), &unused);
}

bool LockOrderGraph::Identity(LockId id, LockIdentity *out) const {
  u32 index;
  if (!node_of_lock_.Find(id, &index))
    return false;
  *out = nodes_[index].identity;
  return true;
}

u32 LockOrderGraph::FindPath(u32 from_node, u32 to_node, LockOrderEdge *path,
                             u32 max) {
  // A fresh mark per search: nodes need no clearing between searches.
  if (++search_ == 0) {
    for (u32 i = 0; i < nodes_.used(); i++)
      nodes_[i].visited = 0;
    search_ = 1;
  }
  GrowArray(&queue_, &queue_capacity_, live_nodes_);
  u32 head = 0, tail = 0;
  queue_[tail++] = from_node;
  nodes_[from_node].visited = search_;
  bool found = from_node == to_node;
  while (!found && head < tail) {
    Node *n = &nodes_[queue_[head++]];
    for (u32 i = 0; i < n->out.size && !found; i++) {
      u32 edge = n->out.at(i);
      u32 next;
      node_of_lock_.Find(edges_[edge].to, &next);
      if (nodes_[next].visited == search_)
        continue;
      nodes_[next].visited = search_;
      nodes_[next].reached_by = edge;
      queue_[tail++] = next;
      found = next == to_node;
    }
  }
  if (!found)
    return 0;
  // Walk back from the target; the path is stored in order.
  u32 length = 0;
  for (u32 n = to_node; n != from_node;) {
    u32 edge = nodes_[n].reached_by;
    length++;
    node_of_lock_.Find(edges_[edge].from, &n);
  }
  u32 pos = length;
  for (u32 n = to_node; n != from_node;) {
    u32 edge = nodes_[n].reached_by;
    pos--;
    if (pos < max)
      path[pos] = edges_[edge];
    node_of_lock_.Find(edges_[edge].from, &n);
  }
  return length;
}

u32 LockOrderGraph::AddEdge(const LockOrderEdge &e, const LockIdentity &from,
                            const LockIdentity &to, LockOrderEdge *cycle,
                            u32 max) {
  u32 from_node = NodeFor(e.from, from);
  u32 to_node = NodeFor(e.to, to);
  // A cycle through e is e followed by a path from e.to back to e.from.
  u32 length = 0;
  if (max)
    length = FindPath(to_node, from_node, cycle + 1, max - 1);
  if (length && max)
    cycle[0] = e;
  u32 edge = edges_.New();
  edges_[edge] = e;
  // Node indices may have moved: NodeFor can grow the node array.
  nodes_[from_node].out.Push(edge);
  nodes_[to_node].in.Push(edge);
  edge_of_pair_.Insert(PairKey(e.from, e.to), edge);
  live_edges_++;
  return length ? length + 1 : 0;
}

void LockOrderGraph::DropEdge(u32 edge) {
  LockOrderEdge &e = edges_[edge];
  edge_of_pair_.Erase(PairKey(e.from, e.to));
  u32 from_node, to_node;
  if (node_of_lock_.Find(e.from, &from_node))
    nodes_[from_node].out.Erase(edge);
  if (node_of_lock_.Find(e.to, &to_node))
    nodes_[to_node].in.Erase(edge);
  e = LockOrderEdge();
  edges_.Free(edge);
  live_edges_--;
}

void LockOrderGraph::RemoveLock(LockId id) {
  u32 index;
  if (!node_of_lock_.Find(id, &index))
    return;
  while (nodes_[index].out.size)
    DropEdge(nodes_[index].out.at(0));
  while (nodes_[index].in.size)
    DropEdge(nodes_[index].in.at(0));
  node_of_lock_.Erase(id);
  // The node keeps its edge lists' storage for its next lock.
  nodes_[index].id = 0;
  nodes_.Free(index);
  live_nodes_--;
}

} // namespace hrace
