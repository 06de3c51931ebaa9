//===-- hybrid_fixture.h - Driving the hybrid machines row by row ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What msm_short_test.cpp and msm_long_test.cpp share: threads built by hand
// (slot, segment, vector clock, held locks), cells built from lock sets and
// thread sets, and checks that decode a cell's candidate set and thread set.
//
// hrace_rtl.cpp is not linked into the unit tests. msm_hb_test.cpp defines
// `ctx`; the fixture fills it with the tables the hybrid machines read. The
// join rule (detectors/hrace_hybrid.cpp, linked) calls hrace_rtl.cpp's
// EndedBefore: msm_short_test.cpp defines HRACE_HYBRID_FIXTURE_DEFINE_RTL
// before including this header, so the test double below is defined once.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_UNIT_HYBRID_FIXTURE_H
#define HRACE_TEST_UNIT_HYBRID_FIXTURE_H

#include "../detectors/hrace_hybrid.h"
#include "../runtime/hrace_inline_test.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace hrace {

#ifdef HRACE_HYBRID_FIXTURE_DEFINE_RTL
// Test double for EndedBefore, with hrace_rtl.cpp's body: T<thread_id>
// recorded its end (ThreadRegistry::RecordEnd) and thr's clock has seen it.
bool EndedBefore(ThreadState *thr, u32 thread_id) {
  ThreadEnd end = ctx->threads.EndOf(thread_id);
  return end.ended && thr->vc.Get(end.slot) >= end.clock;
}
#endif

namespace hybrid_test {

// Lock ids, the M<n> of reports.
constexpr LockId kM = 1;
constexpr LockId kN = 2;

// A thread in its first segment; its clock knows only itself.
class Thread : public ThreadState {
public:
  // Every Thread gets an id no other Thread of the process had, so an end
  // recorded in one test never satisfies the join rule in another.
  explicit Thread(u32 s) {
    slot = s;
    thread_id = next_id_++;
    NewSegment();
  }
  ~Thread() { vc.Free(); }

  // What a release does to the releasing thread (NewSegment, hrace_rtl.cpp).
  void NewSegment() {
    clock++;
    vc.Set(slot, clock);
    segment = ctx->segments.Create(&segment_cursor, slot, clock, thread_id);
  }
  // What an acquire of `from`'s clock does (AcquireClock, hrace_rtl.cpp).
  void Acquire(const Thread &from) {
    vc.Join(from.vc);
    Learned();
  }
  // In the hybrid machines a lock only changes the lock set; an unlock also
  // starts a new segment of the thread, ordering nothing for other threads
  // (MutexLocked/MutexUnlocking).
  void Lock(LockId m) { locks.Add(m, true); }
  void ReadLock(LockId m) { locks.Add(m, false); }
  void Unlock(LockId m) {
    locks.Remove(m);
    NewSegment();
  }
  // What ThreadFinish records for the join rule.
  void End() { ctx->threads.RecordEnd(thread_id, slot, clock); }

private:
  static inline u32 next_id_ = 1;
};

// `from` releases something that `to` then acquires.
inline void Order(Thread *from, Thread *to) {
  to->Acquire(*from);
  from->NewSegment();
}

// `joiner` returns from pthread_join(t): t ended, and joiner acquires its
// final clock.
inline void Join(Thread *joiner, Thread *t) {
  t->End();
  joiner->Acquire(*t);
}

inline LockSetId LockSet(std::initializer_list<LockId> locks) {
  std::vector<u32> ids(locks);
  std::sort(ids.begin(), ids.end());
  return ctx->locksets.Intern(ids.data(), static_cast<u32>(ids.size()));
}

// S of the tables: the threads whose accesses were plain, then those whose
// accesses were atomic (hrace_hybrid.h, Member).
inline SetId ThreadSet(std::initializer_list<const Thread *> threads,
                       std::initializer_list<const Thread *> atomic = {}) {
  std::vector<u32> ids;
  for (const Thread *t : threads)
    ids.push_back(hybrid::Member(t->thread_id, false));
  for (const Thread *t : atomic)
    ids.push_back(hybrid::Member(t->thread_id, true));
  std::sort(ids.begin(), ids.end());
  return ctx->threadsets.Intern(ids.data(), static_cast<u32>(ids.size()));
}

// Cells as the tables name them: Lo for the exclusive states, C and S for the
// shared ones.
inline ShadowCell New() { return ShadowCell(); }
inline ShadowCell ExclusiveWrite(SegmentId ts, LockSetId lo) {
  return ShadowCell::Make(CellState::kExclusiveWrite, ts, lo);
}
inline ShadowCell ExclusiveRead(SegmentId ts, LockSetId lo) {
  return ShadowCell::Make(CellState::kExclusiveRead, ts, lo);
}
inline ShadowCell ExclusiveReadWrite(SegmentId ts, LockSetId lo) {
  return ShadowCell::Make(CellState::kExclusiveReadWrite, ts, lo);
}
inline ShadowCell SharedRead(SegmentId ts, LockSetId c, SetId s) {
  return ShadowCell::Make(CellState::kSharedRead, ts, hybrid::SharedAux(c, s));
}
inline ShadowCell SharedModified(SegmentId ts, LockSetId c, SetId s) {
  return ShadowCell::Make(CellState::kSharedModified, ts,
                          hybrid::SharedAux(c, s));
}
inline ShadowCell SharedModified2(SegmentId ts, LockSetId c, SetId s) {
  return ShadowCell::Make(CellState::kSharedModified2, ts,
                          hybrid::SharedAux(c, s));
}
// msm=short's Exclusive-Read-after-Write: the read R, the write W it read,
// and whether each held locks.
inline ShadowCell ReadAfterWrite(SegmentId r, SegmentId w, bool reader_locked,
                                 bool writer_locked) {
  return ShadowCell::Make(
      static_cast<CellState>(
          static_cast<u8>(CellState::kExclusiveReadAfterWrite) |
          (reader_locked ? kReaderLocked : 0) |
          (writer_locked ? kWriterLocked : 0)),
      r, w);
}
inline ShadowCell Race() { return ShadowCell::Make(CellState::kRace, 0, 0); }

inline std::string DescribeLocks(LockSetId id) {
  u32 n;
  const u32 *ids = ctx->locksets.Members(id, &n);
  std::ostringstream os;
  os << "{";
  for (u32 i = 0; i < n; i++)
    os << (i ? ", " : "") << "M" << ids[i];
  os << "}";
  return os.str();
}

inline std::string DescribeThreads(SetId id) {
  if (id == kThreadSetOverflow)
    return "overflow";
  u32 n;
  const u32 *ids = ctx->threadsets.Members(id, &n);
  std::ostringstream os;
  os << "{";
  for (u32 i = 0; i < n; i++) {
    os << (i ? ", " : "");
    if (ids[i] & hybrid::kThreadTag)
      os << "T" << hybrid::MemberThread(ids[i])
         << (ids[i] & hybrid::kAtomicMember ? " atomic" : "");
    else
      os << "untagged " << ids[i];
  }
  os << "}";
  return os.str();
}

// A cell with its sets decoded: ExclusiveWrite(TS 3, Lo {M1}),
// SharedModified(TS 3, C {M1}, S {T1, T2}).
inline std::string Describe(ShadowCell cell) {
  static const char *const kNames[] = {
      "New",        "ExclusiveWrite", "ExclusiveRead",   "ExclusiveReadWrite",
      "SharedRead", "SharedModified", "SharedModified2", "Race"};
  u32 s = static_cast<u32>(cell.state());
  std::ostringstream os;
  if (IsReadAfterWrite(cell.state())) {
    os << "ExclusiveReadAfterWrite(R " << cell.segment() << ", W " << cell.aux()
       << ((s & kReaderLocked) ? ", reader locked" : "")
       << ((s & kWriterLocked) ? ", writer locked" : "") << ")";
    return os.str();
  }
  if (s < 8)
    os << kNames[s];
  else
    os << "State" << s;
  os << "(TS " << cell.segment();
  switch (cell.state()) {
  case CellState::kExclusiveWrite:
  case CellState::kExclusiveRead:
    os << ", Lo " << DescribeLocks(cell.aux());
    break;
  // msm=long's suspicion keeps a flag above the lock set
  // (MsmLong::kSuspicionByRead).
  case CellState::kExclusiveReadWrite:
    os << ", Lo " << DescribeLocks(cell.aux() & (kMaxLockSets - 1))
       << ((cell.aux() & kMaxLockSets) ? ", by a read" : "");
    break;
  case CellState::kSharedRead:
  case CellState::kSharedModified:
  case CellState::kSharedModified2:
    os << ", C " << DescribeLocks(hybrid::Candidates(cell)) << ", S "
       << DescribeThreads(hybrid::Threads(cell));
    break;
  default:
    os << ", aux " << cell.aux();
  }
  os << ")";
  return os.str();
}

// EXPECT_CELL(expected, actual): equal cells, shown decoded on failure.
inline testing::AssertionResult SameCell(const char *, const char *actual_expr,
                                         ShadowCell expected,
                                         ShadowCell actual) {
  if (expected == actual)
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << actual_expr << "\n  is       " << Describe(actual)
         << "\n  expected " << Describe(expected);
}
#define EXPECT_CELL(expected, actual)                                          \
  EXPECT_PRED_FORMAT2(::hrace::hybrid_test::SameCell, expected, actual)

// One suite per machine. Every access records whether the hot path would
// have skipped it (IsNoop) and what the machine reported.
template <typename Machine, Msm kMsm>
class HybridTest : public ::testing::Test {
protected:
  // The tables reserve their id spaces with mmap: one Context per suite,
  // built as Initialize() builds the runtime's.
  static void SetUpTestSuite() {
    ctx = new Context();
    ctx->flags.SetDefaults();
    ctx->flags.msm = kMsm;
    ctx->segments.Init();
    ctx->locksets.Init(kMaxLockSets, 0, "lock sets");
    ctx->threadsets.Init(kMaxThreadSets, kThreadSetOverflow, "thread sets");
    ctx->threads.Init();
  }

  ShadowCell Read(ShadowCell cell, Thread *thr) {
    return Access(cell, thr, false);
  }
  ShadowCell Write(ShadowCell cell, Thread *thr) {
    return Access(cell, thr, true);
  }
  ShadowCell Access(ShadowCell cell, Thread *thr, bool write) {
    noop = Machine::IsNoop(cell, thr, write);
    race = {};
    return Machine::Transition(cell, thr, AccessContext{write, 0, false},
                               &race);
  }

  // What the access path does with a cell (CheckCells): nothing when IsNoop
  // says so, else the transition. For accesses chained as a program runs.
  ShadowCell Run(ShadowCell cell, Thread *thr, bool write) {
    race = {};
    if (Machine::IsNoop(cell, thr, write))
      return cell;
    return Machine::Transition(cell, thr, AccessContext{write, 0, false},
                               &race);
  }

  // The access path (CellsOfOneAccess, hrace_access.h) takes
  // Machine::Restamp for a cell whose owner is a segment of thr, when IsNoop
  // says the access changes it: it must be Transition's answer, and
  // Transition must not report.
  testing::AssertionResult RestampIsTransition(ShadowCell cell, Thread *thr,
                                               bool write) {
    SegmentId owner = Machine::Owner(cell);
    if (!owner || !InSamePage(owner, thr->segment))
      return testing::AssertionFailure()
             << Describe(cell) << " is not owned by a segment of the thread";
    if (Machine::IsNoop(cell, thr, write))
      return testing::AssertionSuccess();
    race = {};
    ShadowCell transition =
        Machine::Transition(cell, thr, AccessContext{write, 0, false}, &race);
    if (race.found)
      return testing::AssertionFailure() << "the transition reports";
    return SameCell("", "Restamp", transition,
                    Machine::Restamp(cell, thr, write));
  }

  // RestampIsTransition for reads and writes of thread a, holding M or
  // not, of each cell that `cells(seg, locked)` makes from a's previous
  // segment, and from its current one, and whether that access held M.
  template <typename CellsOf> void ExpectRestampsAreTransitions(CellsOf cells) {
    for (bool locked_then : {false, true})
      for (bool locked_now : {false, true})
        for (bool write : {false, true}) {
          SegmentId earlier = a.segment;
          a.NewSegment();
          if (locked_now)
            a.Lock(kM);
          for (SegmentId seg : {earlier, a.segment})
            for (ShadowCell cell : cells(seg, locked_then))
              EXPECT_TRUE(RestampIsTransition(cell, &a, write))
                  << Describe(cell) << (write ? " written" : " read");
          if (locked_now)
            a.Unlock(kM);
        }
  }

  // Thread thr's access changes nothing: the cell stays, and no report.
  bool LeavesUnchanged(ShadowCell cell, Thread *thr, bool write) {
    RaceInfo found{};
    ShadowCell now = Machine::Transition(cell, thr,
                                         AccessContext{write, 0, false}, &found);
    return now == cell && !found.found;
  }

  // The inline tests of instrumented code (InlineNoopTest,
  // runtime/hrace_inline_test.h) pass only what the runtime's own test
  // would skip, among `cells` (each held by a whole granule): the machine's
  // test for a's segment only cells IsNoop skips or the access leaves
  // unchanged (IsNoop takes some cells no run makes for no-ops: an
  // exclusive cell of the current segment whose owner held locks the
  // thread has since released), and the memo test of each of them that a's
  // access leaves unchanged only cells the access leaves unchanged too.
  // Neither test reads the byte mask's bits.
  void ExpectInlineTestsPassOnlyNoops(const std::vector<ShadowCell> &cells) {
    u64 whole = GranuleCell::SpreadMask(0xff);
    auto Held = [](ShadowCell cell) {
      return GranuleCell::Make(cell, 0xff).raw();
    };
    auto Clean = [](InlineNoopTest test) {
      return ((test.mask | test.value) & GranuleCell::kMaskBits) == 0 &&
             (test.value & ~test.mask) == 0;
    };
    for (bool write : {false, true}) {
      const char *kind = write ? " written" : " read";
      InlineNoopTest test = Machine::InlineTest(a.segment, write);
      EXPECT_TRUE(Clean(test));
      for (ShadowCell cell : cells) {
        if (GranuleCell::Fits(cell) && test.Passes(Held(cell), whole)) {
          EXPECT_TRUE(Machine::IsNoop(cell, &a, write) ||
                      LeavesUnchanged(cell, &a, write))
              << Describe(cell) << kind << " passes the test";
        }
      }
      for (ShadowCell seen : cells) {
        if (!GranuleCell::Fits(seen) || !LeavesUnchanged(seen, &a, write))
          continue;
        InlineNoopTest memo = Machine::MemoInlineTest(seen, write);
        EXPECT_TRUE(Clean(memo));
        for (ShadowCell cell : cells) {
          if (GranuleCell::Fits(cell) && memo.Passes(Held(cell), whole)) {
            EXPECT_TRUE(LeavesUnchanged(cell, &a, write))
                << Describe(cell) << kind << " passes the memo test of "
                << Describe(seen);
          }
        }
        // The same test on values, as the runtime makes it for a split
        // granule's byte cells.
        SetInlineTest(write ? kWriteMemoTest : kReadMemoTest, memo);
        for (ShadowCell cell : cells) {
          if (ValuePassesMemoTest(cell.raw(), write)) {
            EXPECT_TRUE(LeavesUnchanged(cell, &a, write))
                << Describe(cell) << kind
                << " passes the memo test of " << Describe(seen)
                << " as a value";
          }
        }
        DropInlineMemoTests();
      }
    }
  }

  // Every state the hybrid machines' Transition judges, with segments of a
  // (earlier and current), of b and none, and aux as the state means it:
  // the lock sets {} and {M}, those with the thread sets {a, b} and {b, c},
  // or those segments. What ExpectInlineTestsPassOnlyNoops tries. The
  // atomic states and Allocated are other code's (CellTransition): no
  // machine's test passes them (their states have bit 2 set, and the other
  // tests name one state), and a memo test of one is exact.
  std::vector<ShadowCell> CellsOfEveryState() {
    SegmentId earlier = a.segment;
    a.NewSegment();
    std::vector<ShadowCell> cells;
    SegmentId segments[] = {0, earlier, a.segment, b.segment};
    std::vector<u32> lock_sets = {kEmptyLockSet, LockSet({kM})}, shared;
    for (LockSetId l : lock_sets)
      for (SetId t : {ThreadSet({&a, &b}), ThreadSet({&b, &c})})
        shared.push_back(hybrid::SharedAux(l, t));
    for (u32 s = 0; s < 12; s++) {
      auto state = static_cast<CellState>(s);
      const std::vector<u32> *auxes =
          s >= 8                                      ? nullptr
          : state == CellState::kSharedRead ||
                  state == CellState::kSharedModified ||
                  state == CellState::kSharedModified2 ? &shared
          : state == CellState::kNew || state == CellState::kRace
              ? nullptr
              : &lock_sets;
      for (SegmentId seg : segments) {
        if (auxes) {
          for (u32 aux : *auxes)
            cells.push_back(ShadowCell::Make(state, seg, aux));
        } else if (s >= 8) {
          for (SegmentId aux : segments)
            cells.push_back(ShadowCell::Make(state, seg, aux));
        } else {
          cells.push_back(ShadowCell::Make(state, 0, 0));
        }
      }
    }
    return cells;
  }

  // The last access was reported with these fields.
  testing::AssertionResult Reported(RaceCause cause, SegmentId prev,
                                    AccessKind kind, LockSetId candidates,
                                    LockSetId locks) {
    if (!race.found)
      return testing::AssertionFailure() << "no race";
    std::ostringstream is, expected;
    is << "cause " << static_cast<int>(race.cause) << ", previous segment "
       << race.prev_segment << " kind " << static_cast<int>(race.prev_kind)
       << ", candidates " << DescribeLocks(race.candidates) << ", locks "
       << DescribeLocks(race.access_locks);
    expected << "cause " << static_cast<int>(cause) << ", previous segment "
             << prev << " kind " << static_cast<int>(kind) << ", candidates "
             << DescribeLocks(candidates) << ", locks " << DescribeLocks(locks);
    if (is.str() != expected.str())
      return testing::AssertionFailure() << "race\n  is       " << is.str()
                                         << "\n  expected " << expected.str();
    return testing::AssertionSuccess();
  }

  Thread a{0}, b{1}, c{2};
  bool noop = false;
  RaceInfo race = {};
};

} // namespace hybrid_test
} // namespace hrace

#endif // HRACE_TEST_UNIT_HYBRID_FIXTURE_H
