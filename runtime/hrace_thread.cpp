//===-- hrace_thread.cpp - Threads: per-thread state and the registry -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_thread.h"

#include "hrace_alloc.h"
#include "hrace_libc.h"

#include <new>
#include <pthread.h>

namespace hrace {

__thread ThreadState cur_thread_state
    __attribute__((tls_model("initial-exec")));

void ThreadRegistry::Init() {
  ends_ = static_cast<ThreadEnd *>(MmapNoReserveOrDie(
      kRememberedEnds * sizeof(ThreadEnd), "thread end table"));
}

// An entry's `ended` holds the id + 1 of the thread it describes, written
// last and read first and last, so a reader never mixes two threads' ends.
void ThreadRegistry::RecordEnd(u32 thread_id, u32 slot, Clock clock) {
  ThreadEnd &e = ends_[thread_id % kRememberedEnds];
  StoreRelaxed(&e.ended, 0u);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  StoreRelaxed(&e.slot, slot);
  StoreRelaxed(&e.clock, clock);
  StoreRelease(&e.ended, thread_id + 1);
  __atomic_fetch_add(&ended_count_, 1, __ATOMIC_RELEASE);
}

ThreadEnd ThreadRegistry::EndOf(u32 thread_id) const {
  const ThreadEnd &e = ends_[thread_id % kRememberedEnds];
  if (LoadAcquire(&e.ended) != thread_id + 1)
    return {0, 0, 0};
  ThreadEnd end = {LoadRelaxed(&e.clock), LoadRelaxed(&e.slot), 1};
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  if (LoadRelaxed(&e.ended) != thread_id + 1)
    return {0, 0, 0};
  return end;
}

ThreadContext *ThreadRegistry::Create(u32 parent_id) {
  SpinMutexLock l(&mu_);
  u32 slot;
  if (free_head_ != free_tail_) {
    slot = free_ring_[free_head_ % kMaxThreadSlots];
    free_head_++;
  } else {
    if (next_slot_ == kMaxThreadSlots) {
      if (!slots_exhausted_)
        Printf("HybridRace: more than %u threads alive at once; the new ones "
               "are not checked\n",
               kMaxThreadSlots);
      slots_exhausted_ = true;
      return nullptr;
    }
    slot = next_slot_;
    StoreRelease(&next_slot_, slot + 1);
  }
  ThreadContext *tc = slots_[slot];
  if (!tc) {
    tc = new (InternalCalloc(sizeof(ThreadContext))) ThreadContext();
    tc->slot = slot;
    tc->trace.Init();
    StoreRelease(&slots_[slot], tc);
  }
  tc->thread_id = next_thread_id_++;
  tc->parent_id = parent_id;
  tc->status = ThreadStatus::kCreated;
  tc->detached = false;
  tc->joined = false;
  tc->adopted = false;
  tc->pthread = 0;
  tc->os_tid = 0;
  tc->creation_stack = 0;
  tc->stack_beg = tc->stack_end = 0;
  tc->name[0] = 0;
  tc->state = nullptr;
  tc->sync_clock.Reset();
  return tc;
}

ThreadContext *ThreadRegistry::FindByPthread(uptr pthread) {
  for (u32 i = 0; i < next_slot_; i++) {
    ThreadContext *tc = slots_[i];
    if (tc && tc->status != ThreadStatus::kFree && !tc->joined &&
        tc->pthread == pthread)
      return tc;
  }
  return nullptr;
}

ThreadContext *ThreadRegistry::FindByThreadId(u32 thread_id) {
  for (u32 i = 0; i < next_slot_; i++) {
    ThreadContext *tc = slots_[i];
    if (tc && tc->thread_id == thread_id)
      return tc;
  }
  return nullptr;
}

void ThreadRegistry::Recycle(ThreadContext *tc) {
  tc->status = ThreadStatus::kFree;
  free_ring_[free_tail_ % kMaxThreadSlots] = tc->slot;
  free_tail_++;
}

void GetThreadStackBounds(uptr *beg, uptr *end) {
  *beg = *end = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr))
    return;
  void *addr;
  size_t size;
  if (!pthread_attr_getstack(&attr, &addr, &size)) {
    *beg = reinterpret_cast<uptr>(addr);
    *end = *beg + size;
  }
  pthread_attr_destroy(&attr);
}

} // namespace hrace
