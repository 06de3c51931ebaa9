//===-- thread_registry_test.cpp - Thread slots and their reuse -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Vector clocks are indexed by thread slot, so slots must be reused: a
// program that starts threads forever keeps its clocks as wide as the most
// threads alive at once. A slot is reused oldest-freed first, the new thread
// gets a name (T<n>) never used before, and the slot's highest clock stays,
// so the new owner's segments never look older than the previous owner's.
//
//===----------------------------------------------------------------------===//
#include "hrace_thread.h"

#include "gtest/gtest.h"

#include <memory>

namespace hrace {
namespace {

class ThreadRegistryTest : public ::testing::Test {
protected:
  void SetUp() override {
    registry = std::make_unique<ThreadRegistry>();
    registry->Init();
  }
  ThreadContext *Create() { return registry->Create(/*parent_id=*/0); }
  std::unique_ptr<ThreadRegistry> registry;
};

TEST_F(ThreadRegistryTest, NewThreadsTakeNewSlotsWhileNoneIsFree) {
  ThreadContext *a = Create(), *b = Create(), *c = Create();
  EXPECT_EQ(0u, a->slot);
  EXPECT_EQ(1u, b->slot);
  EXPECT_EQ(2u, c->slot);
  EXPECT_EQ(3u, registry->slots_in_use());
}

TEST_F(ThreadRegistryTest, TheSlotFreedLongestAgoIsReusedFirst) {
  ThreadContext *a = Create(), *b = Create();
  Create();
  registry->Recycle(b);
  registry->Recycle(a);
  EXPECT_EQ(1u, Create()->slot);
  EXPECT_EQ(0u, Create()->slot);
  // No slot free: a new one.
  EXPECT_EQ(3u, Create()->slot);
  EXPECT_EQ(4u, registry->slots_in_use());
}

TEST_F(ThreadRegistryTest, AReusedSlotGetsANewNameAndKeepsItsHighestClock) {
  ThreadContext *first = Create();
  u32 first_id = first->thread_id;
  first->last_clock = 100;
  registry->RecordEnd(first_id, first->slot, 100);
  registry->Recycle(first);
  ThreadContext *second = Create();
  EXPECT_EQ(first->slot, second->slot);
  EXPECT_GT(second->thread_id, first_id);
  EXPECT_EQ(100u, second->last_clock);
  EXPECT_EQ(ThreadStatus::kCreated, second->status);
  EXPECT_FALSE(second->joined);
}

TEST_F(ThreadRegistryTest, AnEndedThreadIsRememberedByNameAfterItsSlotMovesOn) {
  ThreadContext *first = Create();
  u32 first_id = first->thread_id;
  registry->RecordEnd(first_id, first->slot, 7);
  registry->Recycle(first);
  ThreadContext *second = Create();
  // The slot describes the new thread now...
  EXPECT_EQ(nullptr, registry->FindByThreadId(first_id));
  EXPECT_EQ(second, registry->FindByThreadId(second->thread_id));
  // ...but the join rule still knows how far the old one got.
  ThreadEnd end = registry->EndOf(first_id);
  EXPECT_EQ(1u, end.ended);
  EXPECT_EQ(first->slot, end.slot);
  EXPECT_EQ(7u, end.clock);
  EXPECT_EQ(0u, registry->EndOf(second->thread_id).ended);
  EXPECT_EQ(1u, registry->ended_count());
}

// Thread ids never run out: the end of a thread kRememberedEnds creations
// later takes the entry, and the older one is no longer known to have ended
// (the join rule does not apply to it), never mistaken for the newer one.
TEST_F(ThreadRegistryTest, AnEndIsRememberedUntilAThreadThatManyIdsLaterEnds) {
  constexpr u32 kOld = 5, kNew = kOld + ThreadRegistry::kRememberedEnds;
  registry->RecordEnd(kOld, 3, 70);
  EXPECT_EQ(1u, registry->EndOf(kOld).ended);
  EXPECT_EQ(0u, registry->EndOf(kNew).ended);
  registry->RecordEnd(kNew, 4, 90);
  EXPECT_EQ(0u, registry->EndOf(kOld).ended);
  ThreadEnd end = registry->EndOf(kNew);
  EXPECT_EQ(1u, end.ended);
  EXPECT_EQ(4u, end.slot);
  EXPECT_EQ(90u, end.clock);
}

TEST_F(ThreadRegistryTest, StartingThreadsForeverKeepsTheSlotsOfThoseAlive) {
  // Two threads alive at a time, 1,000 started: two slots.
  ThreadContext *alive = Create();
  for (int i = 0; i < 1000; i++) {
    ThreadContext *next = Create();
    registry->Recycle(alive);
    alive = next;
  }
  EXPECT_EQ(2u, registry->slots_in_use());
}

} // namespace
} // namespace hrace
