//===-- shadow_cell_test.cpp - ShadowCell encoding ------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../shadow/hrace_shadow_cell.h"

#include "gtest/gtest.h"

namespace hrace {
namespace {

constexpr u32 kMaxAux = (1u << kCellFieldBits) - 1;
// The segment field is as wide as aux; ids use only kSegmentBits of it.
constexpr u32 kMaxSegmentField = (1u << kCellFieldBits) - 1;

TEST(ShadowCell, ZeroCellIsNew) {
  EXPECT_EQ(CellState::kNew, ShadowCell().state());
  EXPECT_EQ(0u, ShadowCell().segment());
  EXPECT_EQ(0u, ShadowCell().aux());
  EXPECT_EQ(CellState::kNew, ShadowCell(0).state());
  EXPECT_EQ(0u, ShadowCell::Make(CellState::kNew, 0, 0).raw());
}

TEST(ShadowCell, FieldsRoundTrip) {
  for (CellState s : {CellState::kNew, CellState::kExclusiveWrite,
                      CellState::kExclusiveRead, CellState::kExclusiveReadWrite,
                      CellState::kSharedRead, CellState::kSharedModified,
                      CellState::kSharedModified2, CellState::kRace}) {
    ShadowCell c = ShadowCell::Make(s, 12345, 678);
    EXPECT_EQ(s, c.state());
    EXPECT_EQ(12345u, c.segment());
    EXPECT_EQ(678u, c.aux());
    EXPECT_EQ(c, ShadowCell(c.raw()));
  }
}

TEST(ShadowCell, FieldsRoundTripAtTheirLimits) {
  ShadowCell c = ShadowCell::Make(CellState::kRace, kMaxSegmentField, kMaxAux);
  EXPECT_EQ(CellState::kRace, c.state());
  EXPECT_EQ(kMaxSegmentField, c.segment());
  EXPECT_EQ(kMaxAux, c.aux());
  EXPECT_EQ(~0ull & ~0x8ull, c.raw());
}

TEST(ShadowCell, MaxSegmentDoesNotBleedIntoNeighbours) {
  ShadowCell c = ShadowCell::Make(CellState::kNew, kMaxSegmentField, 0);
  EXPECT_EQ(CellState::kNew, c.state());
  EXPECT_EQ(kMaxSegmentField, c.segment());
  EXPECT_EQ(0u, c.aux());
}

TEST(ShadowCell, MaxAuxDoesNotBleedIntoNeighbours) {
  ShadowCell c = ShadowCell::Make(CellState::kNew, 0, kMaxAux);
  EXPECT_EQ(CellState::kNew, c.state());
  EXPECT_EQ(0u, c.segment());
  EXPECT_EQ(kMaxAux, c.aux());
}

TEST(ShadowCell, StateDoesNotBleedIntoNeighbours) {
  ShadowCell c = ShadowCell::Make(CellState::kRace, 0, 0);
  EXPECT_EQ(CellState::kRace, c.state());
  EXPECT_EQ(0u, c.segment());
  EXPECT_EQ(0u, c.aux());
}

TEST(ShadowCell, EqualityComparesAllFields) {
  ShadowCell c = ShadowCell::Make(CellState::kExclusiveRead, 5, 6);
  EXPECT_EQ(c, ShadowCell::Make(CellState::kExclusiveRead, 5, 6));
  EXPECT_NE(c, ShadowCell::Make(CellState::kExclusiveWrite, 5, 6));
  EXPECT_NE(c, ShadowCell::Make(CellState::kExclusiveRead, 4, 6));
  EXPECT_NE(c, ShadowCell::Make(CellState::kExclusiveRead, 5, 7));
}

} // namespace
} // namespace hrace
