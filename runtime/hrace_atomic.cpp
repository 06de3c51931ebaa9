//===-- hrace_atomic.cpp - Atomic operations ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass keeps each atomic instruction and calls these around it. An atomic
// variable is a sync object: a release stores the thread's clock into it
// before the instruction, an acquire joins it after, so a load that reads a
// released value always finds that release in the clock. Atomic accesses
// never race with each other, so they leave the shadow cells alone.
// Fences are not modelled: a relaxed access paired with a fence creates no
// edge (as in ThreadSanitizer; docs/design.md).
//
//===----------------------------------------------------------------------===//
#include "hrace_interface.h"
#include "hrace_rtl.h"

using namespace hrace;

namespace {

enum MemoryOrder {
  kRelaxed = 0,
  kConsume = 1,
  kAcquire = 2,
  kRelease = 3,
  kAcqRel = 4,
  kSeqCst = 5
};

bool HasAcquire(int order) {
  return order == kConsume || order == kAcquire || order == kAcqRel ||
         order == kSeqCst;
}

bool HasRelease(int order) {
  return order == kRelease || order == kAcqRel || order == kSeqCst;
}

// Only a thread the runtime knows, outside the runtime, takes part. Ignoring
// reads or writes (annotations) stops checking, not synchronisation.
ThreadState *ActiveThread() {
  ThreadState *thr = cur_thread();
  if (UNLIKELY(thr->in_rtl || !thr->context))
    return nullptr;
  return thr;
}

void AtomicAcquire(void *addr, int order) {
  if (!HasAcquire(order))
    return;
  if (ThreadState *thr = ActiveThread()) {
    ScopedInRuntime in_rtl;
    AcquireAddr(thr, reinterpret_cast<uptr>(addr));
  }
}

void AtomicRelease(void *addr, int order) {
  if (!HasRelease(order))
    return;
  if (ThreadState *thr = ActiveThread()) {
    ScopedInRuntime in_rtl;
    ReleaseAddr(thr, reinterpret_cast<uptr>(addr));
  }
}

} // namespace

extern "C" void __hrace_atomic_load(void *addr, uintptr_t, int order) {
  AtomicAcquire(addr, order);
}

extern "C" void __hrace_atomic_store(void *addr, uintptr_t, int order) {
  AtomicRelease(addr, order);
}

extern "C" void __hrace_atomic_rmw_begin(void *addr, uintptr_t, int order) {
  AtomicRelease(addr, order);
}

extern "C" void __hrace_atomic_rmw_end(void *addr, uintptr_t, int order) {
  AtomicAcquire(addr, order);
}

extern "C" void __hrace_atomic_fence(int) {}
