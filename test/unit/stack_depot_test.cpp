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
  EXPECT_NE(0u, ia);
  EXPECT_NE(ia, ib);
  EXPECT_EQ(ia, depot.Put(a, 3));
  EXPECT_NE(ia, depot.Put(a, 2));
  u32 n;
  const uptr *frames = depot.Get(ib, &n);
  ASSERT_EQ(3u, n);
  EXPECT_EQ(0x31u, frames[2]);
}

TEST(StackDepotTest, EmptyStackIsNoStack) {
  static StackDepot depot;
  EXPECT_EQ(0u, depot.Put(nullptr, 0));
  u32 n = 7;
  EXPECT_EQ(nullptr, depot.Get(0, &n));
  EXPECT_EQ(0u, n);
}

TEST(StackDepotTest, ManyStacksStayDistinct) {
  static StackDepot depot;
  uptr frames[4] = {1, 2, 3, 0};
  for (uptr i = 0; i < 100000; i++) {
    frames[3] = i;
    StackId id = depot.Put(frames, 4);
    u32 n;
    ASSERT_EQ(i, depot.Get(id, &n)[3]);
  }
}

} // namespace
} // namespace hrace
