//===-- shadow_mapping_test.cpp - Shadow and meta address mapping ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../shadow/hrace_shadow.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

struct Region {
  const char *name;
  uptr beg;
  uptr end;
};

constexpr Region kRegions[] = {
    {"low", Mapping::kLowBeg, Mapping::kLowEnd},
    {"pie", Mapping::kPieBeg, Mapping::kPieEnd},
    {"high", Mapping::kHighBeg, Mapping::kHighEnd},
};

uptr Shadow(uptr a) { return reinterpret_cast<uptr>(MemToShadow(a)); }
uptr Meta(uptr a) { return reinterpret_cast<uptr>(MemToMeta(a)); }

// The first, a middle and the last byte of a region.
std::vector<uptr> Probes(const Region &r) {
  return {r.beg, r.beg + (r.end - r.beg) / 2 + 3, r.end - 1};
}

TEST(Shadow, AppAddressesMapIntoShadowRange) {
  for (const Region &r : kRegions) {
    for (uptr a : Probes(r)) {
      SCOPED_TRACE(testing::Message() << r.name << " 0x" << std::hex << a);
      EXPECT_GE(Shadow(a), Mapping::kShadowBeg);
      EXPECT_LE(Shadow(a) + sizeof(u64), kShadowEnd);
      EXPECT_EQ(0u, Shadow(a) % sizeof(u64));
    }
  }
}

TEST(Shadow, ConsecutiveBytesMapToConsecutiveCells) {
  for (const Region &r : kRegions) {
    for (uptr a : {r.beg, r.beg + 0x12345, r.end - 2}) {
      SCOPED_TRACE(testing::Message() << r.name << " 0x" << std::hex << a);
      EXPECT_EQ(MemToShadow(a) + 1, MemToShadow(a + 1));
    }
  }
}

TEST(Shadow, RegionsArePackedWithoutOverlap) {
  EXPECT_EQ(Mapping::kShadowBeg, Shadow(Mapping::kLowBeg));
  EXPECT_EQ(MemToShadow(Mapping::kLowEnd - 1) + 1,
            MemToShadow(Mapping::kPieBeg));
  EXPECT_EQ(MemToShadow(Mapping::kPieEnd - 1) + 1,
            MemToShadow(Mapping::kHighBeg));
  EXPECT_EQ(kShadowEnd, Shadow(Mapping::kHighEnd - 1) + sizeof(u64));
}

TEST(Shadow, DistinctRegionsUseDistinctCells) {
  for (uptr off : {uptr(0), uptr(0x1000), uptr(0xfffff)}) {
    EXPECT_NE(Shadow(Mapping::kLowBeg + off), Shadow(Mapping::kPieBeg + off));
    EXPECT_NE(Shadow(Mapping::kPieBeg + off), Shadow(Mapping::kHighBeg + off));
    EXPECT_NE(Shadow(Mapping::kLowBeg + off), Shadow(Mapping::kHighBeg + off));
  }
}

TEST(Shadow, TablesDoNotOverlapAppMemory) {
  EXPECT_LE(Mapping::kLowEnd, Mapping::kShadowBeg);
  EXPECT_LE(kShadowEnd, Mapping::kMetaBeg);
  EXPECT_LE(kMetaEnd, Mapping::kPieBeg);
  EXPECT_FALSE(IsAppMem(Mapping::kShadowBeg));
  EXPECT_FALSE(IsAppMem(kShadowEnd - 1));
  EXPECT_FALSE(IsAppMem(Mapping::kMetaBeg));
  EXPECT_FALSE(IsAppMem(kMetaEnd - 1));
}

TEST(Shadow, GranuleCellsLieBetweenThePieAndHighRegions) {
  EXPECT_LE(Mapping::kPieEnd, Mapping::kGranuleBeg);
  EXPECT_LE(kGranuleEnd, Mapping::kHighBeg);
  EXPECT_FALSE(IsAppMem(Mapping::kGranuleBeg));
  EXPECT_FALSE(IsAppMem(kGranuleEnd - 1));
  for (const Region &r : kRegions) {
    for (uptr a : Probes(r)) {
      SCOPED_TRACE(testing::Message() << r.name << " 0x" << std::hex << a);
      uptr g = reinterpret_cast<uptr>(MemToGranule(a));
      EXPECT_GE(g, Mapping::kGranuleBeg);
      EXPECT_LE(g + 2 * sizeof(u64), kGranuleEnd);
      EXPECT_EQ(0u, g % 16) << "a pair compare-and-swap needs 16 bytes";
      EXPECT_EQ(MemToGranule(a & ~uptr(7)), MemToGranule(a | 7));
    }
  }
  EXPECT_EQ(Mapping::kGranuleBeg,
            reinterpret_cast<uptr>(MemToGranule(Mapping::kLowBeg)));
  EXPECT_EQ(kGranuleEnd,
            reinterpret_cast<uptr>(MemToGranule(Mapping::kHighEnd - 1)) + 16);
}

// Each region's granule cells are one run, consecutive granules in
// consecutive cells (an access's granules are found by stepping), and no
// two regions share a cell.
TEST(Shadow, EachRegionHasItsOwnRunOfGranuleCells) {
  for (const Region &r : kRegions) {
    SCOPED_TRACE(r.name);
    uptr first = reinterpret_cast<uptr>(MemToGranule(r.beg));
    uptr last = reinterpret_cast<uptr>(MemToGranule(r.end - 1));
    EXPECT_EQ(first + (r.end - r.beg) * kGranuleScale - 16, last);
    EXPECT_EQ(MemToGranule(r.beg + 0x12340) + 2, MemToGranule(r.beg + 0x12348));
    for (const Region &o : kRegions) {
      if (&o == &r)
        continue;
      uptr o_first = reinterpret_cast<uptr>(MemToGranule(o.beg));
      uptr o_last = reinterpret_cast<uptr>(MemToGranule(o.end - 1));
      EXPECT_TRUE(o_last < first || last < o_first) << "and " << o.name;
    }
  }
}

TEST(Shadow, AppAddressesMapIntoMetaRange) {
  for (const Region &r : kRegions) {
    for (uptr a : Probes(r)) {
      SCOPED_TRACE(testing::Message() << r.name << " 0x" << std::hex << a);
      EXPECT_GE(Meta(a), Mapping::kMetaBeg);
      EXPECT_LE(Meta(a) + sizeof(MetaCell), kMetaEnd);
    }
  }
  EXPECT_EQ(Mapping::kMetaBeg, Meta(Mapping::kLowBeg));
  EXPECT_EQ(kMetaEnd, Meta(Mapping::kHighEnd - 1) + sizeof(MetaCell));
}

TEST(Shadow, GranuleSharesOneMetaCell) {
  for (const Region &r : kRegions) {
    uptr granule = r.beg + 0x1000;
    SCOPED_TRACE(r.name);
    for (uptr i = 1; i < kMetaGranule; i++)
      EXPECT_EQ(MemToMeta(granule), MemToMeta(granule + i));
    EXPECT_EQ(MemToMeta(granule) + 1, MemToMeta(granule + kMetaGranule));
    EXPECT_EQ(MemToMeta(granule) - 1, MemToMeta(granule - 1));
  }
}

TEST(Shadow, MetaRegionsArePackedWithoutOverlap) {
  EXPECT_EQ(MemToMeta(Mapping::kLowEnd - 1) + 1, MemToMeta(Mapping::kPieBeg));
  EXPECT_EQ(MemToMeta(Mapping::kPieEnd - 1) + 1, MemToMeta(Mapping::kHighBeg));
}

TEST(Shadow, IsAppMemAtRegionEdges) {
  for (const Region &r : kRegions) {
    SCOPED_TRACE(r.name);
    EXPECT_TRUE(IsAppMem(r.beg));
    EXPECT_TRUE(IsAppMem(r.end - 1));
    EXPECT_FALSE(IsAppMem(r.end));
    if (r.beg) {
      EXPECT_FALSE(IsAppMem(r.beg - 1));
    }
  }
  EXPECT_FALSE(IsAppMem(~uptr(0)));
}

// CasCellRun publishes a run of equal cells, two aligned cells at a time on
// x86-64, and stops at the first cell another thread changed.
class CasCellRunTest : public ::testing::TestWithParam<uptr> {
protected:
  // Cells start at index GetParam() of a 16-byte aligned array, so both
  // alignments of the first cell are covered.
  u64 *Cells() { return &storage[GetParam()]; }

  const ShadowCell old = ShadowCell::Make(CellState::kExclusiveRead, 3, 1);
  const ShadowCell now = ShadowCell::Make(CellState::kExclusiveWrite, 9, 2);
  alignas(16) u64 storage[20] = {};
};

TEST_P(CasCellRunTest, PublishesTheWholeRun) {
  for (uptr n = 0; n <= 16; n++) {
    u64 *cells = Cells();
    for (uptr i = 0; i < 16; i++)
      cells[i] = old.raw();
    EXPECT_EQ(n, CasCellRun(cells, n, old, now)) << n;
    for (uptr i = 0; i < 16; i++)
      EXPECT_EQ(i < n ? now.raw() : old.raw(), cells[i]) << n << " " << i;
  }
}

TEST_P(CasCellRunTest, StopsAtTheFirstChangedCell) {
  const ShadowCell other = ShadowCell::Make(CellState::kSharedRead, 5, 7);
  for (uptr changed = 0; changed < 8; changed++) {
    u64 *cells = Cells();
    for (uptr i = 0; i < 8; i++)
      cells[i] = i == changed ? other.raw() : old.raw();
    EXPECT_EQ(changed, CasCellRun(cells, 8, old, now)) << changed;
    for (uptr i = 0; i < 8; i++)
      EXPECT_EQ(i < changed    ? now.raw()
                : i == changed ? other.raw()
                               : old.raw(),
                cells[i])
          << changed << " " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Alignments, CasCellRunTest, ::testing::Values(0, 1));

} // namespace
} // namespace hrace
