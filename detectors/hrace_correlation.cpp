//===-- hrace_correlation.cpp - Variable correlations of one thread -------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_correlation.h"

namespace hrace {

namespace {

bool IsSymmetric(CorrelationKind k) {
  return k == CorrelationKind::kParental || k == CorrelationKind::kHorizontal;
}

} // namespace

bool CorrelationTracker::DependsOn(uptr addr) const {
  for (u32 p = 0; p < pending_count_; p++)
    if (!pending_[p].control && pending_[p].from == addr)
      return true;
  return false;
}

// The live correlations are unordered: the last takes a removed one's
// place.
void CorrelationTracker::Remove(u32 i) {
  Unindex(i);
  live_count_--;
  if (i == live_count_)
    return;
  Unindex(live_count_);
  live_[i] = live_[live_count_];
  ends_[i] = ends_[live_count_];
  Index(i);
}

void CorrelationTracker::Set(u32 slot, const Correlation &c) {
  live_[slot] = {c.kind, 0, c.pc, c.from_name, c.to_name};
  ends_[slot] = {c.from, c.to};
}

Correlation CorrelationTracker::At(u32 slot) const {
  const Live &l = live_[slot];
  return {l.kind, ends_[slot].from, ends_[slot].to,
          l.pc,   l.from_name,      l.to_name};
}

bool CorrelationTracker::Renew(u32 i, CorrelationKind kind, End from, End to,
                               uptr pc) {
  const Ends &e = ends_[i];
  bool same = ((e.from == from.addr && e.to == to.addr) ||
               (IsSymmetric(kind) && e.from == to.addr && e.to == from.addr)) &&
              live_[i].kind == kind;
  if (same)
    Set(i, {kind, from.addr, to.addr, pc, from.name, to.name});
  return same;
}

void CorrelationTracker::Add(CorrelationKind kind, End from, End to, uptr pc) {
  if (from.addr == to.addr)
    return;
  // The store ended every vertical and control correlation of `to`, so
  // only one it made itself can repeat one of those; a symmetric one may
  // be older (a live duplicate names both ends).
  if (IsSymmetric(kind)) {
    for (u32 m = SlotsNaming(from.addr) & SlotsNaming(to.addr); m; m &= m - 1)
      if (Renew(__builtin_ctz(m), kind, from, to, pc))
        return;
  } else {
    for (u32 m = 0; m < made_count_; m++)
      if (Renew(made_[m], kind, from, to, pc))
        return;
  }
  u32 slot = live_count_;
  if (live_count_ == kMaxLive) {
    // Full: round robin over the slots, which is roughly oldest first.
    slot = next_evicted_++ % kMaxLive;
    Unindex(slot);
  } else {
    live_count_++;
  }
  Set(slot, {kind, from.addr, to.addr, pc, from.name, to.name});
  Index(slot);
  if (made_count_ < kMaxLive)
    made_[made_count_++] = slot;
}

void CorrelationTracker::Store(uptr to_addr, uptr parent, uptr pc,
                               const char *name) {
  End to = {to_addr, name};
  // From the highest slot down: a removal moves the last slot, one already
  // seen, into the removed one's place.
  for (u32 m = SlotsNaming(to_addr); m;) {
    u32 i = 31 - __builtin_clz(m);
    m &= ~(1u << i);
    if (!ends_[i].Names(to_addr))
      continue;
    Live &l = live_[i];
    if (IsSymmetric(l.kind)) {
      l.rewritten |= ends_[i].from == to_addr ? 1 : 2;
      if (l.rewritten != 3)
        continue;
    }
    Remove(i);
  }
  // What the live correlations say before this store's own are added.
  u32 before = live_count_;
  made_count_ = 0;
  for (u32 p = 0; p < pending_count_; p++) {
    End from = {pending_[p].from, pending_[p].name};
    if (pending_[p].control) {
      Add(CorrelationKind::kControl, from, to, pc);
      continue;
    }
    // The slots that named it before this store's own were added (an
    // eviction may refill one since: it is checked again).
    u32 named =
        SlotsNaming(from.addr) & (before == 32 ? ~0u : (1u << before) - 1);
    Add(CorrelationKind::kVertical, from, to, pc);
    for (; named; named &= named - 1) {
      u32 i = __builtin_ctz(named);
      if (i >= live_count_ || !ends_[i].Names(from.addr))
        continue;
      Correlation c = At(i);
      if (c.kind != CorrelationKind::kVertical)
        continue;
      if (c.to == from.addr)
        Add(CorrelationKind::kVertical, {c.from, c.from_name}, to, pc);
      else if (c.from == from.addr && c.to != to_addr && !DependsOn(c.to))
        Add(CorrelationKind::kHorizontal, {c.to, c.to_name}, to, pc);
    }
  }
  pending_count_ = 0;
  if (parent && parent == last_parent_ && last_store_.addr != to_addr)
    Add(CorrelationKind::kParental, last_store_, to, pc);
  last_store_ = to;
  last_parent_ = parent;
}

u32 CorrelationTracker::Involving(uptr addr, uptr size, Correlation *out,
                                  u32 max) const {
  if (!live_count_)
    return 0;
  // The addresses of one 4-byte block share a bucket: a read of several
  // loads (the pass's runs) visits the buckets of its blocks.
  u32 candidates = 0;
  for (uptr block = addr & ~uptr(3); block < addr + size; block += 4)
    candidates |= SlotsNaming(block);
  u32 n = 0;
  for (u32 m = candidates; m && n < max; m &= m - 1) {
    u32 i = __builtin_ctz(m);
    if (ends_[i].NamesIn(addr, addr + size))
      out[n++] = At(i);
  }
  return n;
}

} // namespace hrace
