//===-- granule_cell_test.cpp - Granule cells, masks and splits ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../shadow/hrace_shadow.h"
#include "shadow_once.h"

#include "gtest/gtest.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <utility>
#include <vector>

namespace hrace {
namespace {

ShadowCell Write(SegmentId seg, u32 aux = 0) {
  return ShadowCell::Make(CellState::kExclusiveWrite, seg, aux);
}

TEST(GranuleCell, EveryMaskRoundTripsBesideTheLargestValue) {
  ShadowCell v = ShadowCell::Make(CellState::kSharedModified, kMaxSegmentId,
                                  (1u << kSegmentBits) - 1);
  ASSERT_TRUE(GranuleCell::Fits(v));
  for (u32 mask = 1; mask < 256; mask++) {
    GranuleCell g = GranuleCell::Make(v, mask);
    EXPECT_EQ(mask, g.mask());
    EXPECT_EQ(v, g.value());
    EXPECT_FALSE(g.split());
  }
}

TEST(GranuleCell, HoldsExactlyTheBytesOfItsMask) {
  GranuleCell ints = GranuleCell::Make(Write(7), 0x0f);
  EXPECT_TRUE(ints.Holds(GranuleCell::SpreadMask(ByteMask(0, 4))));
  EXPECT_TRUE(ints.Holds(GranuleCell::SpreadMask(ByteMask(2, 2))));
  EXPECT_FALSE(ints.Holds(GranuleCell::SpreadMask(ByteMask(2, 4))));
  EXPECT_FALSE(ints.Holds(GranuleCell::SpreadMask(ByteMask(4, 1))));
  EXPECT_FALSE(ints.Holds(GranuleCell::SpreadMask(ByteMask(0, 8))));
  GranuleCell high = GranuleCell::Make(Write(7), 0xf0);
  EXPECT_TRUE(high.Holds(GranuleCell::SpreadMask(ByteMask(7, 1))));
  EXPECT_FALSE(high.Holds(GranuleCell::SpreadMask(ByteMask(3, 2))));
}

TEST(GranuleCell, NewAndSplitHoldNothing) {
  GranuleCell last_block =
      GranuleCell::Split((1u << GranuleCell::kBlockBits) - 1);
  for (uptr off = 0; off < 8; off++) {
    u64 spread = GranuleCell::SpreadMask(ByteMask(off, 1));
    EXPECT_FALSE(GranuleCell().Holds(spread));
    EXPECT_FALSE(GranuleCell::Split(0).Holds(spread));
    EXPECT_FALSE(last_block.Holds(spread));
  }
  EXPECT_TRUE(last_block.split());
  EXPECT_EQ((1u << GranuleCell::kBlockBits) - 1, last_block.split_block());
  EXPECT_TRUE(GranuleCell::Split(0).split());
  EXPECT_FALSE(GranuleCell().split());
  // No value a cell can hold looks split: state 15 is nobody's.
  EXPECT_FALSE(
      GranuleCell::Make(Write(kMaxSegmentId, 0x3ffffff), 0xff).split());
}

TEST(GranuleCell, ValuesUsingTheMaskBitsDoNotFit) {
  // A thread set id of 64 or more puts aux bit 26 or above.
  EXPECT_FALSE(GranuleCell::Fits(
      ShadowCell::Make(CellState::kSharedRead, 5, (1u << 20) | (64u << 20))));
  EXPECT_TRUE(GranuleCell::Fits(
      ShadowCell::Make(CellState::kSharedRead, 5, 63u << 20)));
  EXPECT_FALSE(GranuleCell::Fits(Write(1u << kSegmentBits)));
  EXPECT_TRUE(GranuleCell::Fits(Write(kMaxSegmentId)));
}

TEST(GranuleCell, PairCompareAndSwapTakesBothCellsOrNeither) {
  alignas(16) u64 granule[2] = {3, 4};
  GranulePair seen{GranuleCell(3), GranuleCell(4)};
  GranulePair next{GranuleCell(5), GranuleCell(6)};
  EXPECT_TRUE(CasGranulePair(granule, seen, next));
  EXPECT_EQ(next, LoadGranulePair(granule));
  EXPECT_FALSE(CasGranulePair(granule, seen, next));
  granule[1] = 7;
  EXPECT_FALSE(CasGranulePair(granule, next, seen));
  EXPECT_EQ(5u, granule[0]);
  EXPECT_EQ(7u, granule[1]);
}

// A granule left with one value keeps it in its first cell, where the fast
// path and the inline test of instrumented code look first.
TEST(GranuleCell, PairCompareAndSwapKeepsALoneValueFirst) {
  alignas(16) u64 granule[2] = {3, 4};
  GranulePair seen{GranuleCell(3), GranuleCell(4)};
  EXPECT_TRUE(CasGranulePair(granule, seen, {GranuleCell(), GranuleCell(6)}));
  EXPECT_EQ(6u, granule[0]);
  EXPECT_EQ(0u, granule[1]);
}

// A pair stored plainly keeps a lone value first too, and reads back whole,
// with the leftover rule of LoadGranulePair. Where 16-byte accesses are not
// atomic the runtime never calls them; the instructions still run.
TEST(GranuleCell, PlainPairStoreKeepsALoneValueFirstAndReadsBackWhole) {
  alignas(16) u64 granule[2] = {3, 4};
  StoreGranulePair(granule, {GranuleCell(), GranuleCell(6)});
  EXPECT_EQ(6u, granule[0]);
  EXPECT_EQ(0u, granule[1]);
  GranulePair halves{GranuleCell::Make(Write(5), 0x0f),
                     GranuleCell::Make(Write(6), 0xf0)};
  StoreGranulePair(granule, halves);
  EXPECT_EQ(halves, LoadGranulePairAtomically(granule));
  EXPECT_EQ(LoadGranulePair(granule), LoadGranulePairAtomically(granule));
  // A whole-granule cell stored alone left the second as it was.
  granule[0] = GranuleCell::Make(Write(7), 0xff).raw();
  GranulePair whole = LoadGranulePairAtomically(granule);
  EXPECT_EQ(GranuleCell::Make(Write(7), 0xff), whole.first);
  EXPECT_EQ(GranuleCell(), whole.second);
  EXPECT_EQ(halves.second.raw(), whole.leftover);
}

// Where the CPU makes a 16-byte access atomic, a reader of a granule that
// two threads store whole pairs into sees one pair or the other, never a
// cell of each: a torn pair would give a byte to two cells.
TEST(GranuleCell, PlainPairStoresAreNeverSeenTorn) {
  InitShadowOnce();
  if (!pair_access_is_atomic)
    GTEST_SKIP() << "16-byte accesses are not atomic on this CPU";
  alignas(16) static u64 granule[2];
  static const GranulePair kPairs[2] = {
      {GranuleCell::Make(Write(1), 0x0f), GranuleCell::Make(Write(2), 0xf0)},
      {GranuleCell::Make(Write(3), 0x03), GranuleCell::Make(Write(4), 0xfc)}};
  StoreGranulePair(granule, kPairs[0]);
  static int stop, started;
  __atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&started, 0, __ATOMIC_RELAXED);
  auto store = [](void *which) -> void * {
    const GranulePair &pair = kPairs[reinterpret_cast<uptr>(which)];
    __atomic_fetch_add(&started, 1, __ATOMIC_RELAXED);
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
      StoreGranulePair(granule, pair);
    return nullptr;
  };
  pthread_t storers[2];
  for (uptr i = 0; i < 2; i++)
    ASSERT_EQ(0, pthread_create(&storers[i], nullptr, store,
                                reinterpret_cast<void *>(i)));
  while (__atomic_load_n(&started, __ATOMIC_RELAXED) < 2)
    sched_yield();
  // Both storers' pairs seen, then as many loads again.
  u32 torn = 0, seen_each[2] = {0, 0};
  for (u32 i = 0; i < 1000000 || !seen_each[0] || !seen_each[1]; i++) {
    GranulePair seen = LoadGranulePairAtomically(granule);
    seen_each[0] += seen == kPairs[0];
    seen_each[1] += seen == kPairs[1];
    torn += seen != kPairs[0] && seen != kPairs[1];
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (pthread_t t : storers)
    pthread_join(t, nullptr);
  EXPECT_EQ(0u, torn);
}

// Whether every page of granule cells of [addr, addr+size) is resident.
bool GranuleCellsResident(uptr addr, uptr size) {
  uptr page = ShadowPageSize();
  uptr beg = reinterpret_cast<uptr>(MemToGranule(addr)) & ~(page - 1);
  uptr end = reinterpret_cast<uptr>(MemToGranule(addr + size - 8)) + 16;
  std::vector<unsigned char> in((end - beg + page - 1) / page);
  if (mincore(reinterpret_cast<void *>(beg), end - beg, in.data()))
    return false;
  for (unsigned char p : in)
    if (!(p & 1))
      return false;
  return true;
}

// A block's shadow brought in written for its first use changes no cell
// and leaves the program's errno alone; a reset that keeps the pages clears
// their cells in place, one that may give them back does.
TEST(GranuleCell, PrefaultChangesNoCellAndAResetKeepsItsPagesOnlyIfAsked) {
  InitShadowOnce();
  alignas(65536) static u8 block[64 << 10];
  uptr a = reinterpret_cast<uptr>(block);
  ResetShadowRange(a, sizeof(block));
  StoreShadowRange(a + 800, 8, Write(3));
  errno = EDOM;
  bool done = PrefaultShadowRange(a, sizeof(block));
  EXPECT_EQ(EDOM, errno);
  EXPECT_EQ(GranuleCell::Make(Write(3), 0xff),
            LoadGranule(MemToGranule(a + 800)));
  EXPECT_EQ(GranuleCell(), LoadGranule(MemToGranule(a)));
  if (!done)
    GTEST_SKIP() << "the kernel does not bring pages in (MADV_POPULATE_WRITE)";
  EXPECT_TRUE(GranuleCellsResident(a, sizeof(block)));
  ResetShadowRange(a, sizeof(block), /*give_back=*/false);
  EXPECT_EQ(GranuleCell(), LoadGranule(MemToGranule(a + 800)));
  EXPECT_TRUE(GranuleCellsResident(a, sizeof(block)));
  ResetShadowRange(a, sizeof(block));
  EXPECT_FALSE(GranuleCellsResident(a, sizeof(block)));
}

// The table operations, on a granule of real shadow.
class GranuleShadowTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() { InitShadowOnce(); }
  void SetUp() override { ResetShadowRange(Addr(), sizeof(data)); }
  void TearDown() override { ResetShadowRange(Addr(), sizeof(data)); }

  uptr Addr(uptr offset = 0) const {
    return reinterpret_cast<uptr>(data) + offset;
  }
  GranuleCell Cell(uptr offset) const {
    return LoadGranule(MemToGranule(Addr(offset)));
  }
  GranulePair Pair(uptr offset) const {
    return LoadGranulePair(MemToGranule(Addr(offset)));
  }
  ShadowCell Byte(uptr offset) const {
    return LoadCell(SplitCells(Addr(offset), Cell(offset)));
  }
  // The owner's plain re-stamp of the whole granule at 0, Write(3) to
  // Write(6), made while another thread moved byte 2 to a cell of its own
  // (Write(4)): whether PublishGranuleCell stored it.
  bool RestampWholeGranuleOverAChangeOfMasks() {
    StoreShadowRange(Addr(0), 8, Write(3));
    GranuleCell seen = Cell(0);
    StoreShadowRange(Addr(2), 1, Write(4));
    return PublishGranuleCell(MemToGranule(Addr(0)), seen,
                              GranuleCell::Make(Write(6), 0xff));
  }
  // Three values in the granule at `at`: it splits; returns its block.
  u32 SplitThreeWays(uptr at) {
    StoreShadowRange(Addr(at), 8, Write(3));
    StoreShadowRange(Addr(at), 1, Write(4));
    StoreShadowRange(Addr(at + 1), 1, Write(5));
    EXPECT_TRUE(Cell(at).split());
    return Cell(at).split_block();
  }
  std::vector<std::pair<uptr, uptr>> TouchedRuns() const {
    std::vector<std::pair<uptr, uptr>> runs;
    ForEachTouchedRun(Addr(), sizeof(data), [&](uptr beg, uptr n) {
      runs.push_back({beg - Addr(), n});
    });
    return runs;
  }

  alignas(64) u8 data[32];
};

TEST_F(GranuleShadowTest, StoringPartOfAGranuleKeepsTheRestNew) {
  StoreShadowRange(Addr(4), 4, Write(9));
  EXPECT_EQ(GranuleCell::Make(Write(9), 0xf0), Cell(0));
  // The same value on more bytes joins the mask.
  StoreShadowRange(Addr(0), 2, Write(9));
  EXPECT_EQ(GranuleCell::Make(Write(9), 0xf3), Cell(0));
  EXPECT_EQ(GranuleCell(), Pair(0).second);
}

TEST_F(GranuleShadowTest, ASecondValueTakesTheSecondCell) {
  StoreShadowRange(Addr(0), 8, Write(9));
  StoreShadowRange(Addr(2), 1, Write(10));
  GranulePair g = Pair(0);
  EXPECT_EQ(GranuleCell::Make(Write(9), 0xfb), g.first);
  EXPECT_EQ(GranuleCell::Make(Write(10), 0x04), g.second);
  // The second value spreads to more bytes; the first keeps the rest.
  StoreShadowRange(Addr(3), 1, Write(10));
  EXPECT_EQ(GranuleCell::Make(Write(9), 0xf3), Pair(0).first);
  EXPECT_EQ(GranuleCell::Make(Write(10), 0x0c), Pair(0).second);
}

TEST_F(GranuleShadowTest, AThirdValueSplitsTheGranule) {
  StoreShadowRange(Addr(0), 8, Write(9));
  StoreShadowRange(Addr(2), 1, Write(10));
  StoreShadowRange(Addr(5), 2, Write(11));
  ASSERT_TRUE(Cell(0).split());
  EXPECT_EQ(GranuleCell(), Pair(0).second);
  for (uptr i = 0; i < 8; i++)
    EXPECT_EQ(i == 2             ? Write(10)
              : i == 5 || i == 6 ? Write(11)
                                 : Write(9),
              Byte(i))
        << "byte " << i;
}

TEST_F(GranuleShadowTest, SplitGivesBytesOfNeitherCellNew) {
  // A new clear period: no stripe has a block to give.
  ClearAllShadow();
  StoreShadowRange(Addr(2), 2, Write(3));
  StoreShadowRange(Addr(4), 2, Write(4));
  GranulePair g = Pair(0);
  ASSERT_EQ(GranuleCell::Make(Write(3), 0x0c), g.first);
  ASSERT_EQ(GranuleCell::Make(Write(4), 0x30), g.second);
  u32 used = SplitBlocksUsed();
  SplitGranule(Addr(5), g);
  ASSERT_TRUE(Cell(0).split());
  // A block of its own from the pool.
  EXPECT_EQ(used + 1, SplitBlocksUsed());
  EXPECT_NE(0u, Cell(0).split_block());
  for (uptr i = 0; i < 8; i++)
    EXPECT_EQ(i == 2 || i == 3   ? Write(3)
              : i == 4 || i == 5 ? Write(4)
                                 : ShadowCell(),
              Byte(i))
        << "byte " << i;
}

TEST_F(GranuleShadowTest, SplitOfCellsNoLongerThereChangesNothing) {
  StoreShadowRange(Addr(0), 8, Write(3));
  SplitGranule(Addr(0),
               GranulePair{GranuleCell::Make(Write(2), 0xff), GranuleCell()});
  EXPECT_EQ(GranuleCell::Make(Write(3), 0xff), Cell(0));
}

TEST_F(GranuleShadowTest, SplitGranuleStaysSplitWhileThreeValuesAreLeft) {
  StoreShadowRange(Addr(0), 8, Write(3));
  StoreShadowRange(Addr(0), 2, Write(4));
  StoreShadowRange(Addr(2), 2, Write(5));
  ASSERT_TRUE(Cell(0).split());
  StoreShadowRange(Addr(0), 1, Write(5));
  EXPECT_TRUE(Cell(0).split());
  StoreShadowRange(Addr(0), 8, Write(5));
  EXPECT_EQ(GranuleCell::Make(Write(5), 0xff), Cell(0));
  EXPECT_EQ(GranuleCell(), Pair(0).second);
}

// Bytes that diverged and came back to two values go back to two cells,
// and the split's block to its stripe: the stripe's next split takes it.
TEST_F(GranuleShadowTest, SplitGranuleGoesBackToCellsWhenTwoValuesAreLeft) {
  u32 block = SplitThreeWays(0);
  StoreShadowRange(Addr(0), 2, Write(6));
  EXPECT_EQ((GranulePair{GranuleCell::Make(Write(6), 0x03),
                         GranuleCell::Make(Write(3), 0xfc)}),
            Pair(0));
  EXPECT_EQ(block, SplitThreeWays(0));
}

// New bytes need no cell: two values besides them are enough to go back.
TEST_F(GranuleShadowTest, NewBytesTakeNoCellWhenASplitGranuleGoesBack) {
  SplitThreeWays(8);
  ResetShadowRange(Addr(9), 1);
  EXPECT_EQ((GranulePair{GranuleCell::Make(Write(4), 0x01),
                         GranuleCell::Make(Write(3), 0xfc)}),
            Pair(8));
}

// A reader that read a split granule's byte cells without its stripe's
// lock trusts them only if the granule still holds the same split cell:
// after it went back to cells, its block may hold another granule's bytes,
// and a later split of the same granule has a split cell of its own even
// where it takes the same block.
TEST_F(GranuleShadowTest, ByteCellsAreTrustedOnlyUnderTheSplitCellReadFirst) {
  SplitThreeWays(0);
  GranuleCell first_split = Cell(0);
  const u64 *granule = MemToGranule(Addr(0));
  EXPECT_TRUE(StillSplitAs(granule, first_split));
  StoreShadowRange(Addr(0), 2, Write(3));
  ASSERT_FALSE(Cell(0).split());
  EXPECT_FALSE(StillSplitAs(granule, first_split));
  SplitThreeWays(0);
  EXPECT_EQ(first_split.split_block(), Cell(0).split_block());
  EXPECT_NE(first_split, Cell(0));
  EXPECT_FALSE(StillSplitAs(granule, first_split));
}

// The owner of bytes 0..3 re-stamps its cell from the value it read; in
// between, another thread's access to bytes 6..7 (another variable) split
// the granule. The owner's store must not undo that split.
TEST_F(GranuleShadowTest, AnOwnersRestampLeavesAnotherVariablesSplitAlone) {
  StoreShadowRange(Addr(0), 4, Write(3));
  StoreShadowRange(Addr(4), 4, Write(4));
  GranuleCell seen = Cell(0);
  StoreShadowRange(Addr(6), 2, Write(5));
  ASSERT_TRUE(Cell(0).split());
  EXPECT_FALSE(PublishGranuleCell(MemToGranule(Addr(0)), seen,
                                  GranuleCell::Make(Write(6), 0x0f)));
  EXPECT_TRUE(Cell(0).split());
  EXPECT_EQ(Write(4), Byte(5));
  EXPECT_EQ(Write(5), Byte(6));
}

// Under msm=hb, on a CPU whose 16-byte accesses are atomic, the owner of
// bytes 0..3 stores both cells from the pair it read, over another
// thread's split made for bytes 6..7 meanwhile: the split is undone
// (that access forgotten), and its block is not given back by the
// splitting thread's attempt to go back to cells, so no two granules
// ever share it; the block stays taken until its half is emptied.
TEST_F(GranuleShadowTest, APairStoreOverASplitUndoesItAndKeepsItsBlock) {
  StoreShadowRange(Addr(0), 4, Write(3));
  StoreShadowRange(Addr(4), 4, Write(4));
  u64 *granule = MemToGranule(Addr(0));
  GranulePair seen = LoadGranulePairAtomically(granule);
  StoreShadowRange(Addr(6), 2, Write(5));
  GranuleCell split = Cell(0);
  ASSERT_TRUE(split.split());
  StoreGranulePair(granule, {GranuleCell::Make(Write(6), 0x0f), seen.second});
  EXPECT_EQ((GranulePair{GranuleCell::Make(Write(6), 0x0f),
                         GranuleCell::Make(Write(4), 0xf0)}),
            Pair(0));
  EXPECT_FALSE(StillSplitAs(granule, split));
  {
    // The splitting thread's bytes come back to two values in its block,
    // and it tries to go back to cells.
    SplitGranuleLock lock(Addr(0));
    u64 *bytes = SplitCells(Addr(0), split);
    bytes[6] = bytes[7] = Write(4).raw();
    UnsplitGranule(Addr(0), split);
  }
  EXPECT_FALSE(Cell(0).split());
  EXPECT_NE(split.split_block(), SplitThreeWays(0));
}

// A cell holding the whole granule is the owner's alone: what another
// thread changes there meanwhile is an access to the owner's own bytes,
// concurrent with its access, and a plain store may forget it.
TEST_F(GranuleShadowTest, AnOwnersRestampOfAWholeGranuleIsAPlainStore) {
  EXPECT_TRUE(RestampWholeGranuleOverAChangeOfMasks());
  EXPECT_EQ(GranuleCell::Make(Write(6), 0xff), Cell(0));
}

// That store leaves the second cell the other thread's change of masks
// wrote, still claiming byte 2 with a value it no longer has: the pair is
// read with the whole-granule cell alone, so no access picks the
// leftover, and the next compare-and-swap of the pair clears it.
TEST_F(GranuleShadowTest, ASecondCellBesideAWholeGranuleCellIsReadAsEmpty) {
  ASSERT_TRUE(RestampWholeGranuleOverAChangeOfMasks());
  u64 *granule = MemToGranule(Addr(0));
  ASSERT_EQ(GranuleCell::Make(Write(4), 0x04).raw(), granule[1]);
  GranulePair g = Pair(0);
  EXPECT_EQ((GranulePair{GranuleCell::Make(Write(6), 0xff), GranuleCell()}), g);
  GranulePair next{GranuleCell::Make(Write(6), 0xfb),
                   GranuleCell::Make(Write(7), 0x04)};
  EXPECT_TRUE(CasGranulePair(granule, g, next));
  EXPECT_EQ(next, Pair(0));
  EXPECT_EQ(next.second.raw(), granule[1]);
}

TEST_F(GranuleShadowTest, ValueThatDoesNotFitIsKeptPerByte) {
  ShadowCell wide = ShadowCell::Make(CellState::kSharedRead, 5, 1000u << 20);
  StoreShadowRange(Addr(8), 8, wide);
  ASSERT_TRUE(Cell(8).split());
  for (uptr i = 8; i < 16; i++)
    EXPECT_EQ(wide, Byte(i));
}

TEST_F(GranuleShadowTest, ResetOfPartOfAGranuleKeepsTheOtherBytes) {
  StoreShadowRange(Addr(0), 8, Write(3));
  ResetShadowRange(Addr(0), 3);
  EXPECT_EQ(GranuleCell::Make(Write(3), 0xf8), Cell(0));
  StoreShadowRange(Addr(8), 8, Write(3));
  StoreShadowRange(Addr(8), 1, Write(4));
  ResetShadowRange(Addr(9), 7);
  // The byte kept in the second cell moves to the first: a pair with an
  // empty first word reads as a New granule (CellsOfOneAccess::NewGranule).
  EXPECT_EQ(GranuleCell::Make(Write(4), 0x01), Pair(8).first);
  EXPECT_EQ(GranuleCell(), Pair(8).second);
  ResetShadowRange(Addr(8), 8);
  EXPECT_EQ((GranulePair{GranuleCell(), GranuleCell()}), Pair(8));
}

TEST_F(GranuleShadowTest, TouchedRunsCrossGranulesCellsAndSplits) {
  StoreShadowRange(Addr(6), 4, Write(3)); // bytes 6..9, two granules
  StoreShadowRange(Addr(16), 8, Write(3));
  StoreShadowRange(Addr(18), 2, ShadowCell()); // leaves the mask
  StoreShadowRange(Addr(20), 1, Write(4));     // the second cell
  StoreShadowRange(Addr(24), 2, Write(3));
  StoreShadowRange(Addr(25), 1, Write(4));
  StoreShadowRange(Addr(26), 1, Write(5)); // a third value: split
  ASSERT_TRUE(Cell(24).split());
  std::vector<std::pair<uptr, uptr>> expected = {{6, 4}, {16, 2}, {20, 7}};
  EXPECT_EQ(expected, TouchedRuns());
}

TEST_F(GranuleShadowTest, SplitsAfterAShadowClearTakeTheOtherHalf) {
  u32 half = SplitThreeWays(0) / kSplitBlocksPerHalf;
  ClearAllShadow();
  EXPECT_EQ((GranulePair{GranuleCell(), GranuleCell()}), Pair(0));
  EXPECT_EQ(0u, SplitBlocksUsed());
  EXPECT_EQ(half ^ 1, SplitThreeWays(0) / kSplitBlocksPerHalf);
}

// A stripe's blocks, given back by its granules, serve the stripe's next
// splits in the same clear period, each once (blocks of the odd half: the
// clear periods here are odd).
TEST_F(GranuleShadowTest, BlocksGivenBackAreTakenOnceInTheirClearPeriod) {
  FreeSplitBlocks free;
  u32 a = kSplitBlocksPerHalf + 5, b = kSplitBlocksPerHalf + 6;
  EXPECT_EQ(0u, free.Take(3));
  free.Give(a, 3);
  free.Give(b, 3);
  EXPECT_EQ(b, free.Take(3));
  EXPECT_EQ(a, free.Take(3));
  EXPECT_EQ(0u, free.Take(3));
}

// Two clears after a block was given back, its half hands its blocks out
// again from the first: the given block is dropped, or two granules would
// share its byte cells (a stress test of 1,000 threads met that: a global
// read unlocked by every thread found the candidate lock set of the counter
// beside it). So is a block of the half a clear has just left, given back
// after that clear.
TEST_F(GranuleShadowTest, BlocksGivenBackBeforeAShadowClearAreDropped) {
  FreeSplitBlocks free;
  u32 odd = kSplitBlocksPerHalf + 1;
  free.Give(odd, 3);
  EXPECT_EQ(0u, free.Take(5));
  free.Give(odd, 3);
  EXPECT_EQ(0u, free.Take(4));
  EXPECT_EQ(0u, free.Take(3));
  free.Give(1, 3);
  EXPECT_EQ(0u, free.Take(3));
}

// A clear zeroes the heap's granule cells in place and gives the rest back
// to the kernel: both read New afterwards, whether or not their page held
// anything else.
TEST_F(GranuleShadowTest, AShadowClearForgetsHeapCellsAndTheRest) {
  static u64 global[4];
  std::vector<u64> heap(1 << 12);
  uptr heap_addr = reinterpret_cast<uptr>(heap.data());
  MarkHeapGranules(heap_addr, heap.size() * sizeof(u64));
  uptr global_addr = reinterpret_cast<uptr>(global);
  for (uptr a : {heap_addr, heap_addr + 8 * 1000, global_addr}) {
    StoreShadowRange(a, 8, Write(7));
    ASSERT_EQ(GranuleCell::Make(Write(7), 0xff), LoadGranule(MemToGranule(a)));
  }
  ClearAllShadow();
  for (uptr a : {heap_addr, heap_addr + 8 * 1000, global_addr})
    EXPECT_EQ((GranulePair{GranuleCell(), GranuleCell()}),
              LoadGranulePair(MemToGranule(a)));
}

TEST_F(GranuleShadowTest, AFullHalfSplitsIntoTheDirectMappedByteShadow) {
  // A new clear period: no stripe has a block to give.
  ClearAllShadow();
  LimitSplitBlocks(SplitBlocksUsed() + 2);
  EXPECT_NE(0u, SplitThreeWays(0));
  // The half is full: block 0, the byte shadow at the bytes' own address.
  EXPECT_EQ(0u, SplitThreeWays(8));
  EXPECT_EQ(MemToShadow(Addr(9)), SplitCells(Addr(9), Cell(8)));
  EXPECT_EQ(Write(5), Byte(9));
  EXPECT_EQ(Write(4), Byte(8));
  EXPECT_EQ(Write(3), Byte(15));
  // A shadow clear starts the other half, empty.
  ClearAllShadow();
  EXPECT_NE(0u, SplitThreeWays(16));
  LimitSplitBlocks(kSplitBlocksPerHalf);
}

} // namespace
} // namespace hrace
