//===-- alloc_test.cpp - The runtime's internal allocator -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "hrace_alloc.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

namespace hrace {
namespace {

struct Block {
  char *p;
  uptr size;
};

// Every size from 1 byte to past the largest class, in steps that cross
// each class boundary.
std::vector<uptr> SizesAcrossClasses() {
  std::vector<uptr> sizes;
  for (uptr s = 1; s <= 300; s++)
    sizes.push_back(s);
  for (uptr s = 256; s <= (1u << 16) + 64; s = s + s / 7 + 1) {
    sizes.push_back(s);
    sizes.push_back(s + 1);
  }
  sizes.push_back(1u << 16);
  sizes.push_back((1u << 16) + 1);
  sizes.push_back(3u << 20);
  return sizes;
}

TEST(InternalAlloc, BlocksAreAlignedAndHoldTheirWholeSizeApart) {
  std::vector<Block> blocks;
  for (uptr size : SizesAcrossClasses()) {
    char *p = static_cast<char *>(InternalAlloc(size));
    ASSERT_NE(nullptr, p);
    EXPECT_EQ(0u, reinterpret_cast<uptr>(p) % 16) << size;
    blocks.push_back({p, size});
  }
  // Each block filled with its own byte: a block that overlapped another,
  // or was shorter than asked, would be overwritten by its neighbour.
  for (size_t i = 0; i < blocks.size(); i++)
    memset(blocks[i].p, static_cast<int>(i % 251), blocks[i].size);
  for (size_t i = 0; i < blocks.size(); i++) {
    const Block &b = blocks[i];
    for (uptr k = 0; k < b.size; k++)
      ASSERT_EQ(static_cast<char>(i % 251), b.p[k]) << b.size << " @" << k;
  }
  for (const Block &b : blocks)
    InternalFree(b.p);
}

// More blocks of one class than a 1 MiB chunk holds: the class goes on in
// a new chunk, whose header names it too.
TEST(InternalAlloc, AClassGoesOnInAnotherChunk) {
  std::vector<char *> blocks;
  for (int i = 0; i < 70000; i++) {
    char *p = static_cast<char *>(InternalAlloc(24));
    memset(p, i & 0x7f, 24);
    blocks.push_back(p);
  }
  for (int i = 0; i < 70000; i++)
    ASSERT_EQ(i & 0x7f, blocks[i][23]) << i;
  for (char *p : blocks)
    InternalFree(p);
  // Freed, each block is handed back out for its class.
  void *again = InternalAlloc(32);
  EXPECT_EQ(blocks.back(), again);
  InternalFree(again);
}

TEST(InternalAlloc, FreedBlockIsReusedForItsClass) {
  void *first = InternalAlloc(40);
  InternalFree(first);
  // The class's free list hands the block back: no header or new chunk.
  void *again = InternalAlloc(48);
  EXPECT_EQ(first, again);
  InternalFree(again);
}

TEST(InternalAlloc, CallocZeroFillsAReusedBlock) {
  char *p = static_cast<char *>(InternalAlloc(200));
  memset(p, 0x5a, 200);
  InternalFree(p);
  char *q = static_cast<char *>(InternalCalloc(200));
  for (int i = 0; i < 200; i++)
    ASSERT_EQ(0, q[i]);
  InternalFree(q);
}

TEST(InternalAlloc, FreeOfNullDoesNothing) { InternalFree(nullptr); }

// A block grown from nothing, from a small class to a large block, and from
// a large block to a larger one (its pages moved, not copied) keeps its
// bytes, and the larger block is whole and can be freed.
TEST(InternalAlloc, ReallocKeepsTheBytesAcrossEveryKindOfBlock) {
  const uptr kSizes[] = {100, 100 << 10, 10 << 20, 24 << 20};
  char *p = static_cast<char *>(InternalRealloc(nullptr, 0, kSizes[0]));
  uptr size = kSizes[0];
  for (uptr k = 0; k < size; k++)
    p[k] = static_cast<char>(k % 253);
  for (uptr next : kSizes) {
    if (next == size)
      continue;
    p = static_cast<char *>(InternalRealloc(p, size, next));
    ASSERT_NE(nullptr, p);
    EXPECT_EQ(0u, reinterpret_cast<uptr>(p) % 16) << next;
    for (uptr k = 0; k < size; k++)
      ASSERT_EQ(static_cast<char>(k % 253), p[k]) << next << " @" << k;
    for (uptr k = size; k < next; k++)
      p[k] = static_cast<char>(k % 253);
    size = next;
  }
  InternalFree(p);
}

} // namespace
} // namespace hrace
