//===-- hrace_write_read.cpp - Write/read relations (precise=1) -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_write_read.h"

#include "../shadow/hrace_shadow_mapping.h"
#include "hrace_alloc.h"
#include "hrace_rtl.h"

#include <new>

namespace hrace {

namespace {

// Byte masks of the granules covered by [addr, addr+size), one call each.
template <typename Fn> void ForEachGranule(uptr addr, uptr size, Fn fn) {
  uptr end = addr + size;
  for (uptr g = addr & ~(kMetaGranule - 1); g < end; g += kMetaGranule) {
    uptr beg = addr > g ? addr - g : 0;
    uptr last = end - g < kMetaGranule ? end - g : kMetaGranule;
    u8 mask = static_cast<u8>(((1u << last) - 1) & ~((1u << beg) - 1));
    fn(g, mask);
  }
}

} // namespace

void RegionAccesses::Add(uptr addr, uptr size) {
  u32 last = (count_ + kMax - 1) % kMax;
  // A loop re-reading its flag adds nothing new.
  if (count_ && addr_[last] == addr && size_[last] == size)
    return;
  addr_[count_ % kMax] = addr;
  size_[count_ % kMax] = static_cast<u32>(size);
  count_++;
}

void RegionAccesses::Get(u32 i, uptr *addr, uptr *size) const {
  u32 slot = (count_ - 1 - i) % kMax;
  *addr = addr_[slot];
  *size = size_[slot];
}

bool WriteReadRelationsEnabled() {
  return ctx->flags.precise && ctx->flags.msm != Msm::kHb;
}

void UpdateRecording(ThreadState *thr) {
  thr->record_accesses =
      WriteReadRelationsEnabled() && thr->locks.count() > 0 ? 1 : 0;
}

void LockRegionStarted(ThreadState *thr) {
  thr->region_reads.Clear();
  thr->region_writes.Clear();
}

void WaitConditionStarts(ThreadState *thr) { thr->region_reads.Clear(); }

void RecordRegionAccess(ThreadState *thr, uptr addr, uptr size, bool write) {
  (write ? thr->region_writes : thr->region_reads).Add(addr, size);
}

void SignalMapsWrites(ThreadState *thr) {
  if (!WriteReadRelationsEnabled())
    return;
  for (u32 i = 0; i < thr->region_writes.count(); i++) {
    uptr addr, size;
    thr->region_writes.Get(i, &addr, &size);
    ForEachGranule(addr, size, [thr](uptr granule, u8 mask) {
      SyncObject *s = ctx->syncs.GetOrCreate(granule);
      if (!s)
        return;
      SpinMutexLock l(&s->mu);
      SignalWrite *w = s->signal_writes;
      while (w && w->mask != mask)
        w = w->next;
      if (!w) {
        w = new (InternalCalloc(sizeof(SignalWrite))) SignalWrite();
        w->mask = mask;
        w->next = s->signal_writes;
        s->signal_writes = w;
      }
      w->clock.CopyFrom(thr->vc);
    });
  }
}

namespace {

// Orders thr after the signallers whose writes it read in this region; with
// none, after every signaller of the condition variable whose wait returned
// signalled. A loop that exits without a signaller's write creates no edge.
void CompleteWait(ThreadState *thr) {
  bool related = false;
  for (u32 i = 0; i < thr->region_reads.count(); i++) {
    uptr addr, size;
    thr->region_reads.Get(i, &addr, &size);
    ForEachGranule(addr, size, [thr, &related](uptr granule, u8 mask) {
      SyncObject *s = ctx->syncs.Get(granule);
      if (!s)
        return;
      SpinMutexLock l(&s->mu);
      for (SignalWrite *w = s->signal_writes; w; w = w->next) {
        if (!(w->mask & mask))
          continue;
        AcquireClock(thr, w->clock);
        related = true;
      }
    });
  }
  if (!related && thr->pending_wait_signalled)
    AcquireAddr(thr, thr->pending_wait_cv);
  thr->pending_wait_cv = 0;
  thr->pending_wait_signalled = false;
}

} // namespace

void WaitReturned(ThreadState *thr, uptr cv, bool signalled) {
  if (!WriteReadRelationsEnabled()) {
    if (signalled)
      AcquireAddr(thr, cv);
    return;
  }
  thr->pending_wait_cv = cv;
  thr->pending_wait_signalled = signalled;
}

void WaitLoopExited(ThreadState *thr) {
  if (WriteReadRelationsEnabled())
    CompleteWait(thr);
}

void ResolvePendingWait(ThreadState *thr) {
  if (thr->pending_wait_cv)
    CompleteWait(thr);
}

} // namespace hrace
