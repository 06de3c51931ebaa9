//===-- hrace_deadlock.cpp - Lock-order edges from lock events ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_deadlock.h"

#include "hrace_report.h"
#include "hrace_rtl.h"

namespace hrace {

namespace {

// Edges of a cycle shown in a report; a longer cycle is shown in part.
constexpr u32 kMaxCycleShown = 32;

LockIdentity IdentityOf(const SyncObject *s) {
  LockIdentity id;
  if (s) {
    id.addr = s->addr;
    id.first_seen = s->first_seen;
    id.first_seen_thread = s->first_seen_thread;
  }
  return id;
}

} // namespace

void LockOrderBeforeAcquire(ThreadState *thr, uptr pc, SyncObject *s) {
  HeldAcquisitions *held = &thr->acquisitions;
  LockId to = s->lock_id;
  bool all_known = true;
  for (u32 i = 0; i < held->count(); i++) {
    LockId from = held->at(i)->id;
    // Taking a lock one holds again (recursion, a second read hold) adds no
    // order; relocking a non-recursive mutex is the misuse checker's.
    if (from == to)
      return;
    all_known &= held->KnowsEdge(from, to);
  }
  if (all_known)
    return;
  StackId to_stack = 0;
  LockOrderEdge cycle[kMaxCycleShown];
  LockIdentity locks[kMaxCycleShown];
  for (u32 i = 0; i < held->count(); i++) {
    HeldAcquisitions::Acquisition *from = held->at(i);
    if (held->KnowsEdge(from->id, to))
      continue;
    LockOrderGraph *graph = &ctx->lock_order;
    SyncObject *from_object = ctx->syncs.Get(from->addr);
    u32 length = 0;
    {
      SpinMutexLock l(graph->mutex());
      if (!graph->HasEdge(from->id, to)) {
        // Stacks are stored only for edges: most acquisitions make none.
        if (!from->stack)
          from->stack = ctx->stacks.Put(from->frames, from->frame_count);
        if (!to_stack)
          to_stack = CurrentStack(thr, pc);
        LockOrderEdge e;
        e.from = from->id;
        e.to = to;
        e.thread_id = thr->thread_id;
        e.from_stack = from->stack;
        e.to_stack = to_stack;
        if (from_object)
          from_object->in_lock_order_graph = true;
        s->in_lock_order_graph = true;
        length = graph->AddEdge(e, IdentityOf(from_object), IdentityOf(s),
                                cycle, kMaxCycleShown);
        for (u32 j = 0; j < length && j < kMaxCycleShown; j++)
          graph->Identity(cycle[j].from, &locks[j]);
      }
    }
    held->RememberEdge(from->id, to);
    if (length)
      ReportLockOrderInversion(
          cycle, locks, length < kMaxCycleShown ? length : kMaxCycleShown,
          length);
  }
}

void LockOrderAcquired(ThreadState *thr, uptr pc, SyncObject *s) {
  HeldAcquisitions::Acquisition *a =
      thr->acquisitions.Push(s->lock_id, s->addr);
  a->frame_count = CaptureStack(thr, pc, a->frames, HeldAcquisitions::kFrames);
}

void LockOrderForget(LockId id) {
  SpinMutexLock l(ctx->lock_order.mutex());
  ctx->lock_order.RemoveLock(id);
}

} // namespace hrace
