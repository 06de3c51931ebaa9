//===-- runtime_lock_test.cpp - A fork sees every runtime lock holder -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fork waits while another thread holds a runtime lock. Threads in the
// lock-holder table count with plain stores that the fork publishes with
// membarrier; the others count in atomic stripes. Either way, the fork's
// check (AsymmetricFence, then OtherThreadsHoldRuntimeLocks) must
// see a lock that another thread holds, and nothing once it is released or
// its thread has left the table.
//
//===----------------------------------------------------------------------===//
#include "hrace_mutex.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace hrace {
namespace {

enum class Step { kStart, kHolding, kRelease, kReleased, kDone };

// Runs a thread that takes `mu` (registered in the table or not), holds it
// until told, then releases it and leaves the table.
class Holder {
public:
  Holder(SpinMutex *mu, bool registered)
      : thread_([this, mu, registered] {
          if (registered)
            RegisterLockHolder();
          registered_ = lock_holder_registered;
          mu->Lock();
          step_.store(Step::kHolding);
          while (step_.load() != Step::kRelease)
            std::this_thread::yield();
          mu->Unlock();
          UnregisterLockHolder();
          step_.store(Step::kReleased);
          while (step_.load() != Step::kDone)
            std::this_thread::yield();
        }) {
    WaitFor(Step::kHolding);
  }
  ~Holder() {
    step_.store(Step::kDone);
    thread_.join();
  }
  void Release() {
    step_.store(Step::kRelease);
    WaitFor(Step::kReleased);
  }
  bool registered() const { return registered_; }

private:
  void WaitFor(Step s) {
    while (step_.load() != s)
      std::this_thread::yield();
  }
  std::atomic<Step> step_{Step::kStart};
  bool registered_ = false;
  std::thread thread_;
};

bool ForkWouldWait() {
  AsymmetricFence();
  return OtherThreadsHoldRuntimeLocks();
}

TEST(RuntimeLockTest, ForkSeesAHolderCountingInTheStripes) {
  SpinMutex mu;
  Holder holder(&mu, /*registered=*/false);
  EXPECT_FALSE(holder.registered());
  EXPECT_TRUE(ForkWouldWait());
  holder.Release();
  EXPECT_FALSE(ForkWouldWait());
}

TEST(RuntimeLockTest, ForkSeesARegisteredHolder) {
  SpinMutex mu;
  Holder holder(&mu, /*registered=*/true);
  // Where membarrier is refused the thread counts in the stripes, and the
  // test checks that path again.
  EXPECT_TRUE(ForkWouldWait());
  holder.Release();
  EXPECT_FALSE(ForkWouldWait());
}

TEST(RuntimeLockTest, TheCallersOwnLockDoesNotCount) {
  SpinMutex mu;
  for (bool registered : {false, true}) {
    if (registered)
      RegisterLockHolder();
    mu.Lock();
    EXPECT_FALSE(ForkWouldWait());
    mu.Unlock();
    UnregisterLockHolder();
  }
}

TEST(RuntimeLockTest, ThreadsLeaveTheTableAndTheirEntriesAreReused) {
  SpinMutex mu;
  // More threads than ever run at once: each one's entry is freed when it
  // leaves, so the table does not grow and holds no stale count.
  for (int i = 0; i < 100; i++) {
    Holder holder(&mu, /*registered=*/true);
    EXPECT_TRUE(ForkWouldWait());
    holder.Release();
    EXPECT_FALSE(ForkWouldWait());
  }
}

TEST(RuntimeLockTest, NestedLocksCountOnceAndReleaseAtTheLast) {
  SpinMutex outer, inner;
  RegisterLockHolder();
  outer.Lock();
  inner.Lock();
  EXPECT_EQ(runtime_locks_held, 2u);
  inner.Unlock();
  EXPECT_EQ(runtime_locks_held, 1u);
  outer.Unlock();
  EXPECT_EQ(runtime_locks_held, 0u);
  UnregisterLockHolder();
  EXPECT_FALSE(lock_holder_registered);
}

} // namespace
} // namespace hrace
