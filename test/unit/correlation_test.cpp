//===-- correlation_test.cpp - Correlation patterns and their lifetimes ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// seeds/002 section IV-B: what each store makes and ends, driven as the
// pass's calls would drive one thread's tracker.
//
//===----------------------------------------------------------------------===//

#include "../../detectors/hrace_correlation.h"

#include "gtest/gtest.h"

#include <vector>

namespace hrace {
namespace {

constexpr uptr kEuro = 0x1000, kYen = 0x1008, kDollar = 0x1010, kFlag = 0x1018,
               kCommon = 0x1020, kPc = 0x400000;

class CorrelationTest : public ::testing::Test {
protected:
  void Store(uptr to, std::vector<uptr> data = {},
             std::vector<uptr> control = {}, uptr parent = 0) {
    for (uptr from : data)
      t.AddDependency(from, false);
    for (uptr from : control)
      t.AddDependency(from, true);
    t.Store(to, parent, kPc);
  }

  bool Has(CorrelationKind kind, uptr from, uptr to) {
    Correlation c[CorrelationTracker::kMaxLive];
    u32 n = t.Involving(from, 1, c, CorrelationTracker::kMaxLive);
    for (u32 i = 0; i < n; i++)
      if (c[i].kind == kind && ((c[i].from == from && c[i].to == to) ||
                                (c[i].from == to && c[i].to == from)))
        return true;
    return false;
  }

  CorrelationTracker t;
};

// A read of several variables at once (the pass's runs of loads) finds the
// correlations of each, wherever it starts, and none beyond its bytes; an
// address not on a 4-byte boundary inside it is found too.
TEST_F(CorrelationTest, ARangeFindsTheCorrelationsOfEveryAddressInIt) {
  Store(kYen, {kEuro});
  Correlation c[4];
  EXPECT_EQ(t.Involving(kYen - 4, 4, c, 4), 0u);
  ASSERT_EQ(t.Involving(kYen - 4, 8, c, 4), 1u);
  EXPECT_EQ(c[0].to, kYen);
  EXPECT_EQ(t.Involving(kYen + 1, 6, c, 4), 0u);
  Store(kDollar + 3, {kFlag});
  ASSERT_EQ(t.Involving(kDollar, 4, c, 4), 1u);
  EXPECT_EQ(c[0].to, kDollar + 3);
  EXPECT_EQ(t.Involving(kDollar, 3, c, 4), 0u);
  EXPECT_EQ(t.Involving(kEuro, 0x20, c, 4), 2u);
}

TEST_F(CorrelationTest, VerticalFromADataDependency) {
  Store(kEuro);
  Store(kYen, {kEuro});
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kEuro, kYen));
  Correlation c[4];
  ASSERT_EQ(t.Involving(kYen, 1, c, 4), 1u);
  EXPECT_EQ(c[0].from, kEuro);
  EXPECT_EQ(c[0].to, kYen);
  EXPECT_EQ(c[0].pc, kPc);
}

TEST_F(CorrelationTest, VerticalEndsWhenEitherIsStoredAgain) {
  Store(kYen, {kEuro});
  Store(kEuro);
  EXPECT_FALSE(Has(CorrelationKind::kVertical, kEuro, kYen));
  Store(kYen, {kEuro});
  Store(kYen);
  EXPECT_FALSE(Has(CorrelationKind::kVertical, kEuro, kYen));
}

TEST_F(CorrelationTest, VerticalIsRemadeByAStoreWithTheDependency) {
  Store(kYen, {kEuro});
  Store(kYen, {kEuro});
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kEuro, kYen));
  EXPECT_EQ(t.live_count(), 1u);
}

TEST_F(CorrelationTest, TransitiveDependenciesAreFollowed) {
  // Figure 14: Yen = Euro * 107; Dollar = Yen / 97.
  Store(kYen, {kEuro});
  Store(kDollar, {kYen});
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kYen, kDollar));
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kEuro, kDollar));
}

TEST_F(CorrelationTest, ControlFromABranchCondition) {
  Store(kYen, {}, {kFlag});
  EXPECT_TRUE(Has(CorrelationKind::kControl, kFlag, kYen));
  Store(kFlag);
  EXPECT_FALSE(Has(CorrelationKind::kControl, kFlag, kYen));
}

TEST_F(CorrelationTest, HorizontalFromACommonSource) {
  Store(kEuro, {kCommon});
  Store(kYen, {kCommon});
  EXPECT_TRUE(Has(CorrelationKind::kHorizontal, kEuro, kYen));
  // Ends once both are stored again, not at the first.
  Store(kEuro);
  EXPECT_TRUE(Has(CorrelationKind::kHorizontal, kEuro, kYen));
  Store(kYen);
  EXPECT_FALSE(Has(CorrelationKind::kHorizontal, kEuro, kYen));
}

TEST_F(CorrelationTest, NoHorizontalBesideAVertical) {
  Store(kEuro, {kCommon});
  Store(kYen, {kCommon, kEuro});
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kEuro, kYen));
  EXPECT_FALSE(Has(CorrelationKind::kHorizontal, kEuro, kYen));
}

TEST_F(CorrelationTest, ParentalForSuccessiveFieldsOfOneObject) {
  constexpr uptr kObject = 0x2000, kStreet = 0x2000, kNo = 0x2004;
  Store(kStreet, {}, {}, kObject);
  Store(kNo, {}, {}, kObject);
  EXPECT_TRUE(Has(CorrelationKind::kParental, kStreet, kNo));
}

TEST_F(CorrelationTest, NoParentalWithAStoreBetween) {
  constexpr uptr kObject = 0x2000, kStreet = 0x2000, kNo = 0x2004;
  Store(kStreet, {}, {}, kObject);
  Store(kEuro);
  Store(kNo, {}, {}, kObject);
  EXPECT_FALSE(Has(CorrelationKind::kParental, kStreet, kNo));
}

TEST_F(CorrelationTest, OldestGoesWhenFull) {
  constexpr uptr kLast = CorrelationTracker::kMaxLive;
  for (uptr i = 0; i <= kLast; i++)
    Store(0x10000 + 8 * i, {0x20000 + 8 * i});
  EXPECT_EQ(t.live_count(), CorrelationTracker::kMaxLive);
  EXPECT_FALSE(Has(CorrelationKind::kVertical, 0x20000, 0x10000));
  EXPECT_TRUE(Has(CorrelationKind::kVertical, 0x20000 + 8 * kLast,
                  0x10000 + 8 * kLast));
}

// An ended correlation's slot takes the last one, addresses and all: the
// moved one is still found, and still ended by its own stores.
TEST_F(CorrelationTest, AMovedCorrelationIsFoundAndEndedByItsAddresses) {
  constexpr uptr kMoved = 0x3000;
  Store(kYen, {kEuro});
  Store(kDollar, {kFlag});
  Store(kMoved, {kCommon});
  Store(kYen);
  EXPECT_FALSE(Has(CorrelationKind::kVertical, kEuro, kYen));
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kCommon, kMoved));
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kFlag, kDollar));
  Store(kMoved);
  EXPECT_FALSE(Has(CorrelationKind::kVertical, kCommon, kMoved));
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kFlag, kDollar));
  EXPECT_EQ(t.live_count(), 1u);
}

// The slots are indexed by the buckets of their addresses: after a long run
// of stores that end, renew, move and evict correlations (addresses 4 KiB
// apart share buckets), every live correlation is found from both of its
// ends, and the ones found are exactly the live ones.
TEST_F(CorrelationTest, EveryLiveCorrelationIsFoundFromBothEnds) {
  constexpr u32 kAddrs = 48;
  auto addr = [](u32 i) {
    return uptr(0x10000) + (i % 6) * 8 + (i / 6) * 4096;
  };
  u32 seed = 12345;
  auto next = [&seed](u32 n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
  };
  for (u32 step = 0; step < 20000; step++) {
    u32 deps = next(3);
    std::vector<uptr> data, control;
    for (u32 d = 0; d < deps; d++)
      (next(4) ? data : control).push_back(addr(next(kAddrs)));
    Store(addr(next(kAddrs)), data, control, next(2) ? 0x9000 : 0);
    if (step % 97)
      continue;
    std::vector<Correlation> live;
    for (u32 a = 0; a < kAddrs; a++) {
      Correlation c[CorrelationTracker::kMaxLive];
      u32 n = t.Involving(addr(a), 1, c, CorrelationTracker::kMaxLive);
      for (u32 i = 0; i < n; i++) {
        ASSERT_TRUE(c[i].from == addr(a) || c[i].to == addr(a));
        bool seen = false;
        for (const Correlation &l : live)
          seen |= l.kind == c[i].kind && l.from == c[i].from && l.to == c[i].to;
        if (!seen)
          live.push_back(c[i]);
      }
    }
    ASSERT_EQ(live.size(), t.live_count()) << "at step " << step;
    for (const Correlation &l : live) {
      EXPECT_TRUE(Has(l.kind, l.from, l.to));
      EXPECT_TRUE(Has(l.kind, l.to, l.from));
    }
  }
}

// The pass's names travel with the addresses they name: through a
// transitive vertical correlation, a horizontal and a parental one.
TEST_F(CorrelationTest, EachEndKeepsTheNameItsStoreOrLoadGave) {
  static const char kEuroName[] = "w.euro", kYenName[] = "w.yen",
                    kDollarName[] = "w.dollar";
  t.AddDependency(kEuro, false, kEuroName);
  t.Store(kYen, kCommon, kPc, kYenName);
  t.AddDependency(kYen, false, kYenName);
  t.Store(kDollar, kCommon, kPc, kDollarName);
  Correlation c[8];
  u32 n = t.Involving(kDollar, 1, c, 8);
  u32 checked = 0;
  for (u32 i = 0; i < n; i++) {
    const char *from = c[i].from == kEuro  ? kEuroName
                       : c[i].from == kYen ? kYenName
                                           : kDollarName;
    const char *to = c[i].to == kEuro  ? kEuroName
                     : c[i].to == kYen ? kYenName
                                       : kDollarName;
    EXPECT_EQ(c[i].from_name, from);
    EXPECT_EQ(c[i].to_name, to);
    checked++;
  }
  // Yen -> Dollar, Euro -> Dollar (transitive), Yen <-> Dollar (parental).
  EXPECT_EQ(checked, 3u);
  EXPECT_TRUE(Has(CorrelationKind::kVertical, kEuro, kDollar));
  EXPECT_TRUE(Has(CorrelationKind::kParental, kYen, kDollar));
}

} // namespace
} // namespace hrace
