//===-- hrace_deadlock.h - Lock-order edges from lock events --------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// detect_deadlocks: the runtime's side of the lock-order graph
// (detectors/hrace_lock_order.h). Before a blocking acquisition the thread
// adds an edge from each lock it holds; an acquisition whose edges this
// thread has seen before costs a look at its memo and no graph lock.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_DEADLOCK_H
#define HRACE_DEADLOCK_H

#include "hrace_defs.h"
#include "hrace_sync.h"
#include "hrace_thread.h"

namespace hrace {

// thr may block acquiring s (named) at pc.
void LockOrderBeforeAcquire(ThreadState *thr, uptr pc, SyncObject *s);
// thr now holds s at pc (a lock or a successful trylock).
void LockOrderAcquired(ThreadState *thr, uptr pc, SyncObject *s);
// thr released the lock.
ALWAYS_INLINE void LockOrderReleased(ThreadState *thr, LockId id) {
  thr->acquisitions.Pop(id);
}
// The lock is gone: it leaves the graph (SyncTable's forget hook).
void LockOrderForget(LockId id);

} // namespace hrace

#endif // HRACE_DEADLOCK_H
