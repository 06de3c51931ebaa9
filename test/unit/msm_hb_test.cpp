//===-- msm_hb_test.cpp - The msm=hb transition table ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "../detectors/hrace_msm_hb.h"

#include "gtest/gtest.h"

#include <ostream>
#include <vector>

namespace hrace {

// hrace_rtl.cpp, which owns the runtime's Context, is not part of hrace_core:
// the tests build one and use just the segment table that HappensBefore reads.
Context *ctx;

// Failures print cells as state(segment, aux).
void PrintTo(ShadowCell c, std::ostream *os) {
  static const char *const kNames[] = {
      "New",        "ExclusiveWrite", "ExclusiveRead",   "ExclusiveReadWrite",
      "SharedRead", "SharedModified", "SharedModified2", "Race"};
  u32 s = static_cast<u32>(c.state());
  if (s < 8)
    *os << kNames[s];
  else
    *os << "State" << s;
  *os << "(" << c.segment() << ", " << c.aux() << ")";
}

} // namespace hrace

namespace {

using hrace::AccessContext;
using hrace::AccessKind;
using hrace::CellState;
using hrace::Clock;
using hrace::Context;
using hrace::RaceCause;
using hrace::RaceInfo;
using hrace::SegmentId;
using hrace::ShadowCell;
using hrace::ThreadState;
using hrace::u32;

// A thread in its first segment; its clock knows only itself.
class Thread : public ThreadState {
public:
  explicit Thread(u32 s) {
    slot = s;
    thread_id = s;
    NewSegment();
  }
  ~Thread() { vc.Free(); }

  // What a release does to the releasing thread (hrace_rtl.cpp).
  void NewSegment() {
    clock++;
    vc.Set(slot, clock);
    segment =
        hrace::ctx->segments.Create(&segment_cursor, slot, clock, thread_id);
  }
};

// `from` releases a lock that `to` then acquires: everything `from` did so far
// happens before what `to` does next.
void Order(Thread *from, Thread *to) {
  to->vc.Join(from->vc);
  to->Learned();
  from->NewSegment();
}

ShadowCell New() { return ShadowCell(); }
ShadowCell ExclusiveWrite(SegmentId w) {
  return ShadowCell::Make(CellState::kExclusiveWrite, w, 0);
}
ShadowCell ExclusiveRead(SegmentId w, SegmentId r) {
  return ShadowCell::Make(CellState::kExclusiveRead, w, r);
}
ShadowCell ExclusiveReadAndOthers(SegmentId w, SegmentId r) {
  return ShadowCell::Make(CellState::kExclusiveReadAndOthers, w, r);
}
ShadowCell Race() { return ShadowCell::Make(CellState::kRace, 0, 0); }

// One test per row of the transition table in hrace_msm_hb.h. Each access
// also records whether the hot path would have skipped it (IsNoop).
class MsmHbTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    hrace::ctx = new Context();
    hrace::ctx->segments.Init();
  }

  ShadowCell Read(ShadowCell cell, ThreadState *thr) {
    return Access(cell, thr, false);
  }
  ShadowCell Write(ShadowCell cell, ThreadState *thr) {
    return Access(cell, thr, true);
  }
  ShadowCell Access(ShadowCell cell, ThreadState *thr, bool write) {
    noop = hrace::MsmHb::IsNoop(cell, thr, write);
    race = {};
    return hrace::MsmHb::Transition(cell, thr, AccessContext{write, 0, false},
                                    &race);
  }

  // The last access raced with the access `prev` of kind `kind`.
  testing::AssertionResult RaceWith(SegmentId prev, AccessKind kind) {
    if (!race.found)
      return testing::AssertionFailure() << "no race";
    if (race.cause != RaceCause::kUnordered)
      return testing::AssertionFailure() << "cause is not kUnordered";
    if (race.prev_segment != prev || race.prev_kind != kind)
      return testing::AssertionFailure()
             << "previous access: segment " << race.prev_segment << " kind "
             << static_cast<int>(race.prev_kind) << ", expected segment "
             << prev << " kind " << static_cast<int>(kind);
    return testing::AssertionSuccess();
  }

  Thread a{0}, b{1}, c{2};
  bool noop = false;
  RaceInfo race = {};
};

// read  New  -  ExclusiveRead  R = cur
TEST_F(MsmHbTest, ReadOfNewGoesExclusiveRead) {
  EXPECT_EQ(ExclusiveRead(0, a.segment), Read(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// read  ExclusiveWrite  W = cur  (no change)
TEST_F(MsmHbTest, ReadAfterOwnWriteInSameSegmentChangesNothing) {
  ShadowCell cell = ExclusiveWrite(a.segment);
  EXPECT_EQ(cell, Read(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

// read  ExclusiveWrite  W hb cur  ExclusiveRead  R = cur
TEST_F(MsmHbTest, ReadAfterOrderedWriteGoesExclusiveRead) {
  SegmentId w = a.segment;
  Order(&a, &b);
  EXPECT_EQ(ExclusiveRead(w, b.segment), Read(ExclusiveWrite(w), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, ReadAfterOwnWriteInEarlierSegmentGoesExclusiveRead) {
  SegmentId w = a.segment;
  a.NewSegment();
  EXPECT_EQ(ExclusiveRead(w, a.segment), Read(ExclusiveWrite(w), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// Clocks are 64 bits: a thread that has released more than 2^32 times
// still orders its writes (a 32-bit clock would wrap to below the write's).
TEST_F(MsmHbTest, WriteOrderedAfterTheWriterReleasedTwoToThe32Times) {
  a.clock = (Clock(1) << 32) - 2;
  a.NewSegment();
  SegmentId w = a.segment;
  a.NewSegment();
  a.NewSegment();
  Order(&a, &b);
  EXPECT_EQ((Clock(1) << 32) + 1, b.vc.Get(a.slot));
  EXPECT_EQ(ExclusiveRead(w, b.segment), Read(ExclusiveWrite(w), &b));
  EXPECT_FALSE(race.found);
  SegmentId unordered = a.segment;
  EXPECT_EQ(Race(), Read(ExclusiveWrite(unordered), &b));
  EXPECT_TRUE(RaceWith(unordered, AccessKind::kWrite));
}

// read  ExclusiveWrite  not W hb cur  Race  report W
TEST_F(MsmHbTest, ReadAfterUnorderedWriteIsRace) {
  SegmentId w = a.segment;
  EXPECT_EQ(Race(), Read(ExclusiveWrite(w), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

TEST_F(MsmHbTest, ReadAfterWriteOrderedTheWrongWayIsRace) {
  SegmentId w = a.segment;
  Order(&b, &a);
  EXPECT_EQ(Race(), Read(ExclusiveWrite(w), &b));
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

// read  ExclusiveRead  R = cur  (no change)
TEST_F(MsmHbTest, ReadAgainInSameSegmentChangesNothing) {
  SegmentId w = b.segment;
  Order(&b, &a);
  ShadowCell cell = ExclusiveRead(w, a.segment);
  EXPECT_EQ(cell, Read(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

// read  ExclusiveRead  W, R hb cur  ExclusiveRead  R = cur
TEST_F(MsmHbTest, ReadAfterOrderedWriteAndOrderedReadGoesExclusiveRead) {
  SegmentId w = a.segment;
  Order(&a, &b);
  SegmentId r = b.segment;
  Order(&b, &c);
  EXPECT_EQ(ExclusiveRead(w, c.segment), Read(ExclusiveRead(w, r), &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, ReadAfterOwnReadInEarlierSegmentGoesExclusiveRead) {
  SegmentId r = a.segment;
  a.NewSegment();
  EXPECT_EQ(ExclusiveRead(0, a.segment), Read(ExclusiveRead(0, r), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// read  ExclusiveRead  W hb cur, not R hb cur  ERO  keeps R
TEST_F(MsmHbTest, ReadAfterOrderedWriteAndUnorderedReadKeepsTheFirstRead) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  // Reads do not conflict: b's read need not happen before c's.
  ShadowCell cell = ExclusiveRead(w, b.segment);
  EXPECT_EQ(ExclusiveReadAndOthers(w, b.segment), Read(cell, &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, ReadAfterUnorderedReadOfNewMemoryKeepsTheFirstRead) {
  ShadowCell cell = ExclusiveRead(0, a.segment);
  EXPECT_EQ(ExclusiveReadAndOthers(0, a.segment), Read(cell, &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// read  ERO  W hb cur, not R hb cur  (no change)  keeps R
TEST_F(MsmHbTest, MoreUnorderedReadsChangeNothing) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  EXPECT_EQ(cell, Read(cell, &c));
  EXPECT_FALSE(race.found);
  EXPECT_TRUE(Read(cell, &a) == cell && noop);
}

// read  ERO  W, R hb cur, R is t's, no acquire since R  ERO  R = cur
TEST_F(MsmHbTest, FirstReaderReadingAgainKeepsTheOthers) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  a.NewSegment();
  EXPECT_EQ(ExclusiveReadAndOthers(0, a.segment), Read(cell, &a));
  EXPECT_FALSE(race.found);
}

// read  ERO  W, R hb cur otherwise  ExclusiveRead  R = cur
TEST_F(MsmHbTest, OrderedReadForgetsTheOthers) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  Order(&a, &c);
  EXPECT_EQ(ExclusiveRead(0, c.segment), Read(cell, &c));
  EXPECT_FALSE(race.found);
  // The first reader, after an acquire: the others may have released to it.
  cell = ExclusiveReadAndOthers(0, a.segment);
  Order(&b, &a);
  a.NewSegment();
  EXPECT_EQ(ExclusiveRead(0, a.segment), Read(cell, &a));
}

// write  ERO  R, W hb cur, R is t's, no acquire since R  Race  another read
TEST_F(MsmHbTest, WriteByTheFirstReaderIsRaceWithTheOthers) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  EXPECT_EQ(Race(), Write(cell, &a));
  EXPECT_TRUE(race.found);
  EXPECT_EQ(RaceCause::kReadersUnordered, race.cause);
  EXPECT_EQ(0u, race.prev_segment);
  EXPECT_EQ(hrace::kAnyOtherThread, race.prev_thread);
  a.NewSegment();
  EXPECT_EQ(Race(), Write(cell, &a));
}

// write  ERO  R, W hb cur otherwise  ExclusiveWrite  W = cur
TEST_F(MsmHbTest, WriteOrderedAfterTheOthersGoesExclusiveWrite) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  // In the segment of the read: the acquire may have come after it.
  Order(&b, &a);
  EXPECT_EQ(ExclusiveWrite(a.segment), Write(cell, &a));
  EXPECT_FALSE(race.found);
  Order(&a, &c);
  EXPECT_EQ(ExclusiveWrite(c.segment), Write(cell, &c));
  EXPECT_FALSE(race.found);
}

// write  ERO  not R hb cur  Race  report R
TEST_F(MsmHbTest, WriteUnorderedWithTheFirstReadIsRaceWithIt) {
  ShadowCell cell = ExclusiveReadAndOthers(0, a.segment);
  EXPECT_EQ(Race(), Write(cell, &b));
  EXPECT_TRUE(RaceWith(a.segment, AccessKind::kRead));
}

// read  ExclusiveRead  not W hb cur  Race  report W
TEST_F(MsmHbTest, ReadAfterUnorderedWriteInExclusiveReadIsRace) {
  SegmentId w = a.segment;
  Order(&a, &b);
  EXPECT_EQ(Race(), Read(ExclusiveRead(w, b.segment), &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

// write  New  -  ExclusiveWrite  W = cur
TEST_F(MsmHbTest, WriteToNewGoesExclusiveWrite) {
  EXPECT_EQ(ExclusiveWrite(a.segment), Write(New(), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// write  ExclusiveWrite  W = cur  (no change)
TEST_F(MsmHbTest, WriteAfterOwnWriteInSameSegmentChangesNothing) {
  ShadowCell cell = ExclusiveWrite(a.segment);
  EXPECT_EQ(cell, Write(cell, &a));
  EXPECT_TRUE(noop);
  EXPECT_FALSE(race.found);
}

// write  ExclusiveWrite  W hb cur  ExclusiveWrite  W = cur
TEST_F(MsmHbTest, WriteAfterOrderedWriteGoesExclusiveWrite) {
  SegmentId w = a.segment;
  Order(&a, &b);
  EXPECT_EQ(ExclusiveWrite(b.segment), Write(ExclusiveWrite(w), &b));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, WriteAfterTransitivelyOrderedWriteGoesExclusiveWrite) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&b, &c);
  EXPECT_EQ(ExclusiveWrite(c.segment), Write(ExclusiveWrite(w), &c));
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, WriteAfterOwnWriteInEarlierSegmentGoesExclusiveWrite) {
  SegmentId w = a.segment;
  a.NewSegment();
  EXPECT_EQ(ExclusiveWrite(a.segment), Write(ExclusiveWrite(w), &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// write  ExclusiveWrite  not W hb cur  Race  report W
TEST_F(MsmHbTest, WriteAfterUnorderedWriteIsRace) {
  SegmentId w = a.segment;
  EXPECT_EQ(Race(), Write(ExclusiveWrite(w), &b));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

TEST_F(MsmHbTest, WriteAfterWriteInLaterSegmentOfOrderingThreadIsRace) {
  // b acquired what a released, but a wrote again after releasing.
  Order(&a, &b);
  SegmentId w = a.segment;
  EXPECT_EQ(Race(), Write(ExclusiveWrite(w), &b));
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

// write  ExclusiveRead  R, W hb cur  ExclusiveWrite  W = cur
TEST_F(MsmHbTest, WriteAfterOrderedReadGoesExclusiveWrite) {
  SegmentId w = a.segment;
  Order(&a, &b);
  SegmentId r = b.segment;
  Order(&b, &c);
  EXPECT_EQ(ExclusiveWrite(c.segment), Write(ExclusiveRead(w, r), &c));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

TEST_F(MsmHbTest, WriteAfterOwnReadOfNewMemoryGoesExclusiveWrite) {
  ShadowCell cell = ExclusiveRead(0, a.segment);
  EXPECT_EQ(ExclusiveWrite(a.segment), Write(cell, &a));
  EXPECT_FALSE(noop);
  EXPECT_FALSE(race.found);
}

// write  ExclusiveRead  not R hb cur  Race  report R
TEST_F(MsmHbTest, WriteAfterUnorderedReadIsRace) {
  SegmentId w = a.segment;
  Order(&a, &b);
  Order(&a, &c);
  SegmentId r = b.segment;
  EXPECT_EQ(Race(), Write(ExclusiveRead(w, r), &c));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(RaceWith(r, AccessKind::kRead));
}

TEST_F(MsmHbTest, WriteAfterUnorderedReadOfNewMemoryIsRace) {
  SegmentId r = a.segment;
  EXPECT_EQ(Race(), Write(ExclusiveRead(0, r), &b));
  EXPECT_TRUE(RaceWith(r, AccessKind::kRead));
}

TEST_F(MsmHbTest, WriteAfterUnorderedReadAndWriteReportsTheRead) {
  SegmentId w = a.segment;
  Order(&a, &b);
  SegmentId r = b.segment;
  EXPECT_EQ(Race(), Write(ExclusiveRead(w, r), &c));
  EXPECT_TRUE(RaceWith(r, AccessKind::kRead));
}

// write  ExclusiveRead  not W hb cur  Race  report W
TEST_F(MsmHbTest, WriteAfterOrderedReadButUnorderedWriteIsRace) {
  // The cell is built by hand: W hb R normally holds, so an R that happens
  // before cur brings W along.
  SegmentId w = b.segment;
  SegmentId r = a.segment;
  EXPECT_EQ(Race(), Write(ExclusiveRead(w, r), &a));
  EXPECT_FALSE(noop);
  EXPECT_TRUE(RaceWith(w, AccessKind::kWrite));
}

// Race  -  (reported; not checked again)
TEST_F(MsmHbTest, RaceIsTerminal) {
  for (Thread *t : {&a, &b}) {
    for (bool write : {false, true}) {
      EXPECT_EQ(Race(), Access(Race(), t, write));
      EXPECT_TRUE(noop);
      EXPECT_FALSE(race.found);
    }
  }
}

TEST_F(MsmHbTest, RaceStaysRaceAfterOrdering) {
  SegmentId w = a.segment;
  ShadowCell cell = Write(ExclusiveWrite(w), &b);
  ASSERT_EQ(CellState::kRace, cell.state());
  Order(&a, &c);
  Order(&b, &c);
  EXPECT_EQ(Race(), Write(cell, &c));
  EXPECT_FALSE(race.found);
}

// Restamp (the access path's re-stamp by the owner) agrees with the table
// for both exclusive states of a segment of the thread, earlier or
// current, where the access changes the cell; a read keeps a write that
// happens before it, by another thread or none.
TEST_F(MsmHbTest, RestampByOwnerIsTheTransition) {
  SegmentId w = b.segment;
  Order(&b, &a);
  SegmentId earlier = a.segment;
  a.NewSegment();
  for (bool write : {false, true})
    for (SegmentId seg : {earlier, a.segment})
      for (ShadowCell cell : {ExclusiveWrite(seg), ExclusiveRead(w, seg),
                              ExclusiveRead(0, seg)}) {
        ASSERT_EQ(seg, hrace::MsmHb::Owner(cell));
        ASSERT_EQ(0u, hrace::MsmHb::Owner(ExclusiveReadAndOthers(w, seg)));
        ShadowCell transition = Access(cell, &a, write);
        EXPECT_FALSE(race.found);
        if (!noop) {
          EXPECT_EQ(transition, hrace::MsmHb::Restamp(cell, &a, write));
        }
      }
}

// The inline tests of instrumented code (runtime/hrace_inline_test.h) pass
// only what the runtime's own test would skip: the machine's test for a's
// segment only cells IsNoop skips, and the memo test of each cell a's
// access leaves unchanged only cells it leaves unchanged too; over every
// state with segments and reads of a (earlier and current), of b and none.
TEST_F(MsmHbTest, InlineTestsPassOnlyWhatTheAccessLeavesUnchanged) {
  using hrace::GranuleCell;
  using hrace::InlineNoopTest;
  using hrace::u64;
  SegmentId earlier = a.segment;
  Order(&b, &a);
  a.NewSegment();
  std::vector<ShadowCell> cells;
  for (u32 s = 0; s < 15; s++)
    for (SegmentId seg : {SegmentId(0), earlier, a.segment, b.segment})
      for (SegmentId aux : {SegmentId(0), earlier, a.segment, b.segment})
        cells.push_back(ShadowCell::Make(static_cast<CellState>(s), seg, aux));
  u64 whole = GranuleCell::SpreadMask(0xff);
  auto Unchanged = [&](ShadowCell cell, bool write) {
    ShadowCell now = Access(cell, &a, write);
    return now == cell && !race.found;
  };
  auto Passes = [&](InlineNoopTest test, ShadowCell cell) {
    return test.Passes(GranuleCell::Make(cell, 0xff).raw(), whole);
  };
  for (bool write : {false, true}) {
    InlineNoopTest test = hrace::MsmHb::InlineTest(a.segment, write);
    for (ShadowCell cell : cells) {
      if (Passes(test, cell)) {
        EXPECT_TRUE(hrace::MsmHb::IsNoop(cell, &a, write)) << cell.raw();
      }
    }
    for (ShadowCell seen : cells) {
      if (!Unchanged(seen, write))
        continue;
      InlineNoopTest memo = hrace::MsmHb::MemoInlineTest(seen, write);
      for (ShadowCell cell : cells) {
        if (Passes(memo, cell)) {
          EXPECT_TRUE(Unchanged(cell, write)) << cell.raw() << " like "
                                              << seen.raw();
        }
      }
    }
  }
}

} // namespace
