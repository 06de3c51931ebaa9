//===-- stack_depot_test.cpp - Call stacks stored once --------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_stack_depot.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

TEST(StackDepotTest, EqualStacksShareOneId) {
  static StackDepot depot;
  uptr a[] = {0x10, 0x20, 0x30};
  uptr b[] = {0x10, 0x20, 0x31};
  StackId ia = depot.Put(a, 3);
  StackId ib = depot.Put(b, 3);
  EXPECT_GT(ia, kLostStack);
  EXPECT_NE(ia, ib);
  EXPECT_EQ(ia, depot.Put(a, 3));
  EXPECT_NE(ia, depot.Put(a, 2));
  uptr frames[8];
  ASSERT_EQ(3u, depot.Get(ib, frames, 8));
  EXPECT_EQ(0x10u, frames[0]);
  EXPECT_EQ(0x31u, frames[2]);
}

TEST(StackDepotTest, EmptyStackIsNoStack) {
  static StackDepot depot;
  EXPECT_EQ(0u, depot.Put(nullptr, 0));
  uptr frames[1];
  bool lost = true;
  EXPECT_EQ(0u, depot.Get(0, frames, 1, &lost));
  EXPECT_FALSE(lost);
}

// A stack one call deeper is one Extend from the stack it grew from: the id
// a thread keeps for its current stack.
TEST(StackDepotTest, ExtendNamesTheStackWithOneMoreFrame) {
  static StackDepot depot;
  uptr outer[] = {0x200, 0x100};
  StackId caller = depot.Put(outer, 2);
  StackId callee = depot.Extend(caller, 0x300);
  uptr inner[] = {0x300, 0x200, 0x100};
  EXPECT_EQ(callee, depot.Put(inner, 3));
  EXPECT_EQ(callee, depot.Extend(caller, 0x300));
  uptr frames[8];
  ASSERT_EQ(3u, depot.Get(callee, frames, 8));
  EXPECT_EQ(0x300u, frames[0]);
  EXPECT_EQ(0x100u, frames[2]);
  // Get stops at `max`, innermost first.
  ASSERT_EQ(2u, depot.Get(callee, frames, 2));
  EXPECT_EQ(0x200u, frames[1]);
}

TEST(StackDepotTest, ManyStacksStayDistinct) {
  static StackDepot depot;
  uptr frames[4] = {0, 1, 2, 3};
  for (uptr i = 0; i < 100000; i++) {
    frames[0] = i + 16;
    StackId id = depot.Put(frames, 4);
    uptr got[4];
    ASSERT_EQ(4u, depot.Get(id, got, 4));
    ASSERT_EQ(i + 16, got[0]);
    ASSERT_EQ(3u, got[3]);
  }
}

// A lost stack stays lost however deep it grows, and says so: a report
// prints fewer frames, never frames of another stack.
TEST(StackDepotTest, LostStackStaysLost) {
  static StackDepot depot;
  EXPECT_EQ(kLostStack, depot.Extend(kLostStack, 0x10));
  uptr frames[2];
  bool lost = false;
  EXPECT_EQ(0u, depot.Get(kLostStack, frames, 2, &lost));
  EXPECT_TRUE(lost);
}

} // namespace
} // namespace hrace
