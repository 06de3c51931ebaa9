//===-- hrace_access.h - From an instrumented access to a state machine ---===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The hot path. An access of `size` bytes covers one or more 8-byte
// granules, each with two cells (hrace_shadow_cell.h). Inline: for each
// granule, if a cell holds one value on every byte accessed and the
// machine says the access changes nothing, or the thread has already found
// that value unchanged by such an access since its last synchronisation
// (hrace_noop_memo.h), go on; a split granule is checked the same way on
// its byte cells. If every granule passes, return: one shadow load and a
// compare for an aligned access, no store. Otherwise an access that
// covers exactly one cell per granule is decided inline, cell
// by cell (CellsOfOneAccess; an owner's re-stamp by Machine::Restamp), and
// one inside a granule that covers part of one cell, or New bytes only, by
// PartOfGranule in a small frame of its own (SmallAccessChanged).
// Anything else takes the general slow path, which
// computes one transition per cell the access covers (and one for its New
// bytes), records the access in the thread's trace, and publishes with
// compare-and-swap; a granule that another thread changed in the meantime
// is recomputed. An access that would leave a granule's bytes with three
// values splits it first (SplitGranule), so distinct bytes never
// interfere; a split granule's bytes are published under its split lock,
// and go back to cells when two values are left (UnsplitGranule). A
// re-stamp of a location that stays exclusive to the accessing thread
// (and under msm=short any change of a cell that keeps no locked access,
// under msm=hb any change), with its mask unchanged, is published with
// plain stores (StoredPlainly); under msm=hb, on a CPU whose 16-byte
// accesses are atomic, so is any change of a granule's cells, both at once
// (PairsStoredPlainly). No allocation; the only lock is a split granule's.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_ACCESS_H
#define HRACE_ACCESS_H

#include "../detectors/hrace_detector.h"
#include "../detectors/hrace_msm_atomic.h"
#include "../shadow/hrace_shadow.h"
#include "hrace_report.h"
#include "hrace_rtl.h"

namespace hrace {

// Accesses off the plain path: ignored threads, threads the runtime has not
// met yet (adopted here), and accesses in a lock region in precise mode
// (recorded, then checked).
void AccessUnusual(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write);

template <typename Machine>
ALWAYS_INLINE void CheckCells(ThreadState *thr, uptr pc, uptr addr, uptr size,
                              bool write);

template <typename Machine>
ShadowCell CellTransition(ShadowCell old, ThreadState *thr,
                          const AccessContext &ac, RaceInfo *race);

// The first access to memory the allocator handed out (kAllocated): judged
// against the allocation's write, then the location starts afresh, as if
// it were New, so the accessor's own write is traced and shown in reports
// (had the allocation left an ordinary write of the thread's segment, the
// thread's first writes would change nothing and never be recorded).
template <typename Machine>
NOINLINE ShadowCell FirstAccessAfterAllocation(ShadowCell old, ThreadState *thr,
                                               const AccessContext &ac,
                                               RaceInfo *race) {
  ShadowCell allocation =
      ShadowCell::Make(CellState::kExclusiveWrite, old.segment(), old.aux());
  if (ac.atomic)
    return CellTransition<Machine>(allocation, thr, ac, race);
  Machine::Transition(allocation, thr, ac, race);
  if (race->found)
    return ShadowCell::Make(CellState::kRace, 0, 0);
  return Machine::Transition(ShadowCell(), thr, ac, race);
}

// The selected machine judges plain accesses among themselves; MsmAtomic
// whatever involves an atomic one.
template <typename Machine>
ALWAYS_INLINE ShadowCell CellTransition(ShadowCell old, ThreadState *thr,
                                        const AccessContext &ac,
                                        RaceInfo *race) {
  if (UNLIKELY(old.state() == CellState::kAllocated))
    return FirstAccessAfterAllocation<Machine>(old, thr, ac, race);
  if (UNLIKELY(ac.atomic))
    return MsmAtomic<Machine>::AtomicTransition(old, thr, ac, race);
  if (UNLIKELY(IsAtomicState(old.state())))
    return MsmAtomic<Machine>::PlainTransition(old, thr, ac, race);
  return Machine::Transition(old, thr, ac, race);
}

// The location was exclusive to this thread and stays so: a re-stamp in a
// new segment, or the owner's read becoming its write.
template <typename Machine>
ALWAYS_INLINE bool StaysWithOwner(ShadowCell old, ShadowCell now,
                                  const ThreadState *thr) {
  SegmentId owner = Machine::Owner(old);
  return owner != 0 && Machine::Owner(now) == thr->segment &&
         (InSamePage(owner, thr->segment) ||
          ctx->segments.Get(owner).thread_id == thr->thread_id);
}

// Whether the change of a cell from `old` to `now`, by an access that
// covers all of the cell's bytes, may be published with plain stores, not
// a locked compare-and-swap: the locked instructions were two thirds of
// the slow path on lock-heavy programs, and where another core wrote the
// line last (a hand-off) the locked instruction waits for it, where a
// store would retire. Another thread that changes the cell meanwhile
// accesses the same bytes concurrently with this access; its update is
// lost, and the cell says what it would say had that access never
// happened. A granule cell is stored plainly only with its mask unchanged
// and covering the whole granule (PublishGranuleCell), so that the access
// it may forget is always one to these bytes: a concurrent change of
// masks can then be partly undone, and the second cell claims bytes of the
// whole first one, which stands for them (LoadGranulePair reads the
// second as empty) until a change of masks rewrites both. msm=hb may
// store both of a granule's cells at once instead (PairsStoredPlainly),
// forgetting an access to the other bytes too, whole. A store can
// also undo a concurrent reset of the bytes (free, allocation, an
// annotation), which only a program that accesses memory while it is
// freed can see (docs/design.md, Known limits).
//   A change of a cell whose accesses a concurrent one could only have
// been ordered after by happens-before (Machine::ChangeStoredPlainly):
// what the shorter history reports is then what the machine reports of
// the program without the forgotten access (docs/design.md, Known limits,
// says where a hybrid machine reports that program). msm=hb: every
// cell, its orders are happens-before alone, which is transitive, so a
// lost update can hide a race of the forgotten access, never make one up.
// msm=short: a cell that keeps no access made under a lock. The forgotten
// access was ordered after the kept ones by happens-before, which a thread
// joined after it inherits, or by a hand-off edge, which leaves a record
// it finds (hrace_hybrid.h), or by nothing: no lock of theirs could have
// excused it. facesim, reading after each barrier what other threads
// wrote before it, 0.94 of its time.
//   The hybrid machines, any cell: only a change that stays with the
// owner, which no other thread has a reason to change, and of those not
// msm=short's that keep a write made under a lock
// (Machine::RestampStoredPlainly). A common lock orders nothing for a
// third thread, so a forgotten concurrent read under the lock that write
// held can be the one that orders a later access of a thread joined after
// it; the shorter history reports that access.
// test/stress/owner_restamps_lose_no_ordered_access.c,
// hand_offs_lose_no_ordered_access.c and
// atomic_loads_lose_no_atomic_store.c pin what each machine allows.
template <typename Machine>
ALWAYS_INLINE bool StoredPlainly(ShadowCell old, ShadowCell now,
                                 const ThreadState *thr) {
  return Machine::ChangeStoredPlainly(old, now) ||
         (StaysWithOwner<Machine>(old, now, thr) &&
          Machine::RestampStoredPlainly(now));
}

// The slow path found that the thread's plain access leaves `value`
// unchanged: memoised, and the memo inline test of its kind
// (hrace_inline_test.h) when that value fits a granule cell and the
// thread's inline test of the kind is on (not while it records its
// accesses: a memo test would let them pass unrecorded).
template <typename Machine>
ALWAYS_INLINE void NoteUnchanged(ThreadState *thr, ShadowCell value,
                                 bool write) {
  thr->noops.Insert(value.raw(), write);
  if (InlineTestIsOn(write ? kWriteTest : kReadTest) &&
      GranuleCell::Fits(value))
    SetInlineTest(write ? kWriteMemoTest : kReadMemoTest,
                  Machine::MemoInlineTest(value, write));
}

// Whether the machine's changes of cells that hold part of a granule store
// both of its cells plainly (Machine::kPairsStoredPlainly; msm=hb) on this
// CPU (pair_access_is_atomic). A byte read or written at a time, or a
// 4-byte float flipped between two readers' states at every segment, was
// a locked compare-and-swap each: under msm=hb dedup takes 0.86-0.89 of
// its time, canneal 0.88, vips 0.92-0.96, bodytrack 0.95-0.96.
template <typename Machine> ALWAYS_INLINE bool PairsStoredPlainly() {
  return Machine::kPairsStoredPlainly && pair_access_is_atomic;
}

// A granule's two cells, read in one access where a pair computed from them
// may be stored plainly (LoadGranulePairAtomically says why).
template <typename Machine>
ALWAYS_INLINE GranulePair LoadPair(const u64 *granule) {
  if (PairsStoredPlainly<Machine>())
    return LoadGranulePairAtomically(granule);
  return LoadGranulePair(granule);
}

// LoadPair for a path that changes one cell's value and never swaps the
// pair (CellsOfOneAccess::Granule): a cell of the whole granule is decided
// from its own word, beside which the second is a leftover at most (the
// 16-byte load, and the moves out of its register, cost fluidanimate,
// whose doubles fill their granules, 2% under msm=hb).
template <typename Machine>
ALWAYS_INLINE GranulePair LoadPairForOneCell(const u64 *granule) {
  if (PairsStoredPlainly<Machine>()) {
    GranuleCell first = LoadGranule(granule);
    if (first.mask() == 0xff)
      return {first, GranuleCell()};
  }
  return LoadPair<Machine>(granule);
}

// The granule read as `old` (LoadPair) gets the cells `now`: stored plainly
// where PairsStoredPlainly, else by compare-and-swap.
template <typename Machine>
ALWAYS_INLINE bool PublishPair(u64 *granule, GranulePair old, GranulePair now) {
  if (PairsStoredPlainly<Machine>()) {
    StoreGranulePair(granule, now);
    return true;
  }
  return CasGranulePair(granule, old, now);
}

// Cell `which` of the granule read as `g` (LoadPair) gets `now`, its mask
// unchanged, by a change that may be stored plainly: that cell alone where
// it holds the whole granule (PublishGranuleCell), both where
// PairsStoredPlainly, else compare-and-swap.
template <typename Machine>
ALWAYS_INLINE bool StoreCellPlainly(u64 *granule, GranulePair g, int which,
                                    GranuleCell now) {
  GranuleCell old = which ? g.second : g.first;
  if (old.mask() != 0xff && PairsStoredPlainly<Machine>()) {
    StoreGranulePair(granule, which ? GranulePair{g.first, now}
                                    : GranulePair{now, g.second});
    return true;
  }
  return PublishGranuleCell(&granule[which], old, now);
}

// Cell `which` of the granule read as `g` gets `now`, its mask unchanged:
// as StoreCellPlainly allows where StoredPlainly, else compare-and-swap.
template <typename Machine>
ALWAYS_INLINE bool PublishCell(u64 *granule, GranulePair g, int which,
                               GranuleCell now, const ThreadState *thr) {
  GranuleCell old = which ? g.second : g.first;
  if (StoredPlainly<Machine>(old.value(), now.value(), thr))
    return StoreCellPlainly<Machine>(granule, g, which, now);
  return CasGranule(&granule[which], old, now);
}

// One access on the slow path, granule by granule.
template <typename Machine> class SlowAccess {
public:
  SlowAccess(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write,
             bool atomic)
      : thr_(thr), pc_(pc), addr_(addr), size_(size), ac_{write, addr, atomic},
        lookups_(thr->scope_lookups) {}

  // [a, a+n) inside one granule.
  void Granule(uptr a, uptr n) {
    u64 *granule = MemToGranule(a);
    // The machine judges these bytes: what it looks up by address (a
    // hand-off's heap block, a lock's map of writes) is theirs, not those
    // of the access's first byte.
    ac_.addr = a;
    for (;;) {
      GranulePair g = LoadPair<Machine>(granule);
      if (g.first.split()) {
        AcquireSplitGranule();
        // The bytes before the first one that ByteCells did not publish
        // are done: a transition applied twice is not always the
        // transition once.
        uptr done = ByteCells(a, granule, g.first, n);
        a += done;
        n -= done;
        if (!n)
          return;
        continue;
      }
      if (InCells(a, granule, g, ByteMask(a, n)))
        return;
    }
  }

  // The bytes [a, a+n) of the granule whose split cell is `split`, in runs
  // of equal cells: one transition per run, published with
  // compare-and-swap (CasCellRun) or, where StoredPlainly, plain stores,
  // under the granule's split lock, which keeps its block its
  // own; the transition is computed before it, from cells read while the
  // granule was still split as `split`. A granule whose bytes changed goes
  // back to cells if they hold two values at most (UnsplitGranule).
  // Returns how many bytes are done: fewer than n when the granule is no
  // longer split as `split` (it went back to cells or was reset).
  uptr ByteCells(uptr a, const u64 *granule, GranuleCell split, uptr n) {
    u64 *cells = SplitCells(a, split);
    bool changed = false;
    for (uptr i = 0; i < n;) {
      ShadowCell old = LoadCell(&cells[i]);
      uptr run_end = i + 1;
      while (run_end < n && LoadRelaxed(&cells[run_end]) == old.raw())
        run_end++;
      if (!StillSplitAs(granule, split))
        return i;
      RaceInfo race{};
      ShadowCell now = CellTransition<Machine>(old, thr_, ac_, &race);
      if (now == old) {
        NoChange(old);
        i = run_end;
        continue;
      }
      Trace();
      uptr k = run_end;
      {
        SplitGranuleLock lock(a);
        if (!StillSplitAs(granule, split))
          return i;
        if (StoredPlainly<Machine>(old, now, thr_))
          StoreCellRun(&cells[i], run_end - i, now);
        else
          k = i + CasCellRun(&cells[i], run_end - i, old, now);
      }
      // A race counts only if it reached at least one cell.
      if (k > i) {
        Found(race);
        changed = true;
      }
      i = k < run_end ? k : run_end;
    }
    if (changed) {
      SplitGranuleLock lock(a);
      if (StillSplitAs(granule, split))
        UnsplitGranule(a, split);
    }
    return n;
  }

  void Finish() {
    if (race_.found)
      ReportRace(thr_, pc_, addr_, size_, ac_.write, ac_.atomic, race_);
  }

private:
  // The bytes of one value after the access.
  struct Group {
    ShadowCell value;
    u32 mask;
  };
  struct Groups {
    Group group[5];
    u32 count = 0;
    // Bytes with equal values share a group; New bytes need none.
    void Add(ShadowCell value, u32 mask) {
      if (!mask || !value.raw())
        return;
      for (u32 i = 0; i < count; i++)
        if (group[i].value == value) {
          group[i].mask |= mask;
          return;
        }
      group[count++] = {value, mask};
    }
  };

  // The access on granule `g` (not split): each byte it covers goes from
  // its cell's value, or New, to that value's transition. If the granule's
  // bytes then take at most two values that fit, the cells are published:
  // one cell by 8-byte compare-and-swap where the masks stay, both by a
  // pair compare-and-swap where they change. Otherwise the granule is
  // split. False when the granule must be read again.
  bool InCells(uptr a, u64 *granule, GranulePair g, u32 bytes) {
    // Most often the access covers exactly the bytes of one cell (a word,
    // a field): one transition, and the masks stay.
    if (g.first.mask() == bytes)
      return OneCell(a, granule, g, 0);
    if (g.second.mask() == bytes)
      return OneCell(a, granule, g, 1);
    // Next most often it covers part of one cell: a buffer read or written
    // a byte at a time, or a field of a struct written as a whole.
    if ((g.first.mask() & bytes) == bytes)
      return PartOfCell(a, granule, g, bytes, 0);
    if ((g.second.mask() & bytes) == bytes)
      return PartOfCell(a, granule, g, bytes, 1);
    GranuleCell cells[2] = {g.first, g.second};
    Groups after;
    RaceInfo race{};
    bool changes = false;
    for (GranuleCell cell : cells) {
      u32 mask = cell.mask();
      if (!(bytes & mask)) {
        after.Add(cell.value(), mask);
        continue;
      }
      RaceInfo found{};
      ShadowCell now = CellTransition<Machine>(cell.value(), thr_, ac_, &found);
      if (now == cell.value()) {
        NoChange(now);
        after.Add(now, mask);
        continue;
      }
      changes = true;
      // Copied only when found: a copy of the whole struct right after its
      // flag byte was stored stalls on store forwarding (a fifth of this
      // function's time).
      if (found.found && !race.found)
        race = found;
      after.Add(cell.value(), mask & ~bytes);
      after.Add(now, mask & bytes);
    }
    u32 fresh = bytes & ~(g.first.mask() | g.second.mask());
    if (fresh) {
      RaceInfo none{};
      after.Add(CellTransition<Machine>(ShadowCell(), thr_, ac_, &none), fresh);
      changes = true;
    }
    if (!changes)
      return true;
    bool fits = after.count <= 2;
    for (u32 i = 0; fits && i < after.count; i++)
      fits = GranuleCell::Fits(after.group[i].value);
    if (!fits) {
      SplitGranule(a, g);
      return false;
    }
    GranulePair next{};
    if (after.count > 0)
      next.first = GranuleCell::Make(after.group[0].value, after.group[0].mask);
    if (after.count > 1)
      next.second =
          GranuleCell::Make(after.group[1].value, after.group[1].mask);
    // Cells stay where their masks stay, so that a change of value alone is
    // a compare-and-swap of that cell alone.
    u32 first = next.first.mask(), second = next.second.mask();
    if ((first && first == g.second.mask()) ||
        (second && second == g.first.mask()))
      next = {next.second, next.first};
    Trace();
    bool published;
    if (next.first.mask() == g.first.mask() &&
        next.second.mask() == g.second.mask() &&
        (next.first == g.first || next.second == g.second)) {
      bool second = next.first == g.first;
      published = PublishCell<Machine>(granule, g, second,
                                       second ? next.second : next.first, thr_);
    } else {
      published = PublishPair<Machine>(granule, g, next);
    }
    if (published)
      Found(race);
    return published;
  }

  // The access covers exactly the bytes of cell `which` of granule `g`: its
  // value alone changes (or the granule splits, if the new value does not
  // fit a cell).
  bool OneCell(uptr a, u64 *granule, GranulePair g, int which) {
    GranuleCell cell = which ? g.second : g.first;
    RaceInfo race{};
    ShadowCell now = CellTransition<Machine>(cell.value(), thr_, ac_, &race);
    if (now == cell.value()) {
      NoChange(now);
      return true;
    }
    if (UNLIKELY(!GranuleCell::Fits(now))) {
      SplitGranule(a, g);
      return false;
    }
    Trace();
    if (!PublishCell<Machine>(granule, g, which,
                              GranuleCell::Make(now, cell.mask()), thr_))
      return false;
    Found(race);
    return true;
  }

  // The access covers `bytes`, some of those of cell `which` of granule `g`:
  // they take the transition's value in the other cell, which must be empty
  // or hold one of the two values; a third value splits the granule.
  bool PartOfCell(uptr a, u64 *granule, GranulePair g, u32 bytes, int which) {
    GranuleCell cell = which ? g.second : g.first;
    GranuleCell other = which ? g.first : g.second;
    RaceInfo race{};
    ShadowCell now = CellTransition<Machine>(cell.value(), thr_, ac_, &race);
    if (now == cell.value()) {
      NoChange(now);
      return true;
    }
    u32 rest_mask = cell.mask() & ~bytes, now_mask = bytes;
    // The other cell may hold either value (a change of one cell's value
    // can make both equal).
    bool fits = GranuleCell::Fits(now);
    if (other.mask() && other.value() == now)
      now_mask |= other.mask();
    else if (other.mask() && other.value() == cell.value())
      rest_mask |= other.mask();
    else if (other.mask())
      fits = false;
    if (!fits) {
      SplitGranule(a, g);
      return false;
    }
    GranuleCell rest = GranuleCell::Make(cell.value(), rest_mask);
    GranuleCell joined = GranuleCell::Make(now, now_mask);
    GranulePair next{};
    next.first = which ? joined : rest;
    next.second = which ? rest : joined;
    Trace();
    if (!PublishPair<Machine>(granule, g, next))
      return false;
    Found(race);
    return true;
  }

  // The memo answers for plain accesses only, and for values whose
  // verdict read nothing of the address (no look-up by address since the
  // access began; CellsOfOneAccess::Transition says why).
  void NoChange(ShadowCell value) {
    if (!ac_.atomic && thr_->scope_lookups == lookups_)
      NoteUnchanged<Machine>(thr_, value, ac_.write);
  }

  // The trace entry must exist before any cell names this segment, or a
  // report in another thread could look for it too early.
  void Trace() {
    if (traced_)
      return;
    thr_->context->trace.AddAccess(addr_, size_, ac_.write, ac_.atomic, pc_,
                                   CallerStack(thr_), thr_->segment,
                                   thr_->locks.All(&ctx->locksets));
    traced_ = true;
  }

  void Found(const RaceInfo &race) {
    if (race.found && !race_.found)
      race_ = race;
  }

  ThreadState *thr_;
  uptr pc_, addr_, size_;
  AccessContext ac_;
  u32 lookups_;
  RaceInfo race_{};
  bool traced_ = false;
};

// The commonest accesses that change cells: a plain access (of any size: a
// struct copied, a buffer cleared) that covers exactly the bytes of one
// cell in each granule it touches, decided cell by cell as SlowAccess::OneCell
// decides, without the general path's object, groups and retry loop
// (SmallAccessChanged uses PartOfGranule for one that covers part of a cell, or
// New bytes only, before that object). A granule whose cell the access leaves
// as it is (IsNoop) is passed over, as the fast path would. A re-stamp, where
// the cell is exclusive to this thread (its own data after a barrier or an
// unlock, or its own read now written), takes Machine::Restamp: program order
// orders the two accesses, so the transition is a new exclusive state of this
// thread that cannot report, stored as PublishGranuleCell allows. A granule
// that reports, needs a split, covers part of a cell or loses its
// compare-and-swap is left to the general path with the rest of the access,
// from that granule on: a granule published here must not be seen twice (a
// transition applied twice is not always the transition once: msm=long's
// Exclusive-Read-Write read again is Shared-Read). Decided() returns where
// the general path must begin: the access's end when it has nothing left.
// kAtomic: an atomic operation's access, judged by MsmAtomic; no re-stamp
// (no atomic state is a thread's own) and no memo (it answers for plain
// accesses only).
template <typename Machine, bool kAtomic = false> class CellsOfOneAccess {
public:
  CellsOfOneAccess(ThreadState *thr, uptr pc, uptr addr, uptr size, bool write)
      : thr_(thr), pc_(pc), addr_(addr), size_(size), write_(write) {}

  ALWAYS_INLINE uptr Decided() {
    if (size_ == 0)
      return addr_;
    uptr rest = addr_ + size_;
    thr_->in_rtl++;
    {
      ShadowWriteScope scope(thr_);
      u64 *granule = MemToGranule(addr_);
      // Most accesses lie inside one granule: no loop.
      if ((addr_ & 7) + size_ <= 8) {
        if (!Granule(granule, ByteMask(addr_, size_)))
          rest = addr_;
      } else {
        // The granules' cells are consecutive (AccessUnchanged says why).
        for (uptr a = addr_; a < addr_ + size_; granule += 2) {
          uptr next = GranuleRunEnd(a, addr_ + size_);
          at_ = a;
          if (!Granule(granule, ByteMask(a, next - a))) {
            rest = a;
            break;
          }
          a = next;
        }
      }
    }
    LeaveRuntime(thr_);
    return rest;
  }

  // The access covers some bytes of one cell, or only New bytes: a buffer
  // read a byte at a time after another thread wrote it, or written a byte
  // at a time into fresh memory (dedup, vips: a third of their time took
  // the general path for it, one object and retry loop per byte). The bytes
  // take the transition's value in the cell that already holds it, or in
  // an empty one, and both cells are swapped at once, as
  // SlowAccess::PartOfCell does; a split granule, a third value, a report
  // or a lost compare-and-swap is the general path's. SmallAccessChanged
  // calls it: in Granule, the branch to it made the re-stamp path around it
  // 15% slower (streamcluster), only from where the code lay.
  ALWAYS_INLINE bool PartOfGranule(u64 *granule, u32 bytes) {
    GranulePair g = LoadPair<Machine>(granule);
    if (g.first.split())
      return false;
    u32 first = g.first.mask(), second = g.second.mask();
    ShadowCell old;
    if ((first & bytes) == bytes)
      old = g.first.value();
    else if ((second & bytes) == bytes)
      old = g.second.value();
    else if ((first | second) & bytes)
      return false;
    ShadowCell now;
    if (!Transition(old, &now))
      return false;
    if (now == old)
      return true;
    // Which bytes each cell holds after the access: the accessed ones leave
    // the cell that held `old` (if any) for the one that holds `now`, or
    // one left empty, which may be the cell they leave (a cell of exactly
    // the accessed bytes changes its value in place).
    u32 kept_first = first & ~bytes, kept_second = second & ~bytes;
    int to = (kept_first && g.first.value() == now)     ? 0
             : (kept_second && g.second.value() == now) ? 1
             : !kept_first                              ? 0
             : !kept_second                             ? 1
                                                        : -1;
    if (to < 0)
      return false;
    GranuleCell cells[2] = {
        kept_first ? GranuleCell::Make(g.first.value(), kept_first)
                   : GranuleCell(),
        kept_second ? GranuleCell::Make(g.second.value(), kept_second)
                    : GranuleCell()};
    cells[to] = GranuleCell::Make(now, cells[to].mask() | bytes);
    Trace();
    return PublishPair<Machine>(granule, g, GranulePair{cells[0], cells[1]});
  }

private:
  // One granule, decided and published; false, having changed nothing,
  // for the general path.
  ALWAYS_INLINE bool Granule(u64 *granule, u32 bytes) {
    GranulePair g = LoadPairForOneCell<Machine>(granule);
    int which = g.first.mask() == bytes ? 0 : 1;
    GranuleCell cell = which ? g.second : g.first;
    // A split granule's first cell has no mask; its second is not read.
    if (cell.mask() != bytes || g.first.split()) {
      if (size_ > 8 && bytes == 0xff && !g.first.raw() && !g.second.raw())
        return NewGranule(granule, g);
      return false;
    }
    ShadowCell old = cell.value();
    // One granule of an access over several may change nothing, as the
    // fast path would have found.
    if (kAtomic ? MsmAtomic<Machine>::IsNoop(old, thr_, write_)
                : Machine::IsNoop(old, thr_, write_))
      return true;
    // Exclusive to this thread, in an earlier segment or in this one (a
    // write to its own read): the table's row is the re-stamp.
    SegmentId owner = kAtomic ? 0 : Machine::Owner(old);
    if (owner && InSamePage(owner, thr_->segment)) {
      // Its segments and lock sets take 26 bits, so it fits a granule cell.
      ShadowCell now = Machine::Restamp(old, thr_, write_);
      Trace();
      GranuleCell restamped = GranuleCell::Make(now, bytes);
      if (Machine::RestampStoredPlainly(now))
        return StoreCellPlainly<Machine>(granule, g, which, restamped);
      return CasGranule(&granule[which], cell, restamped);
    }
    ShadowCell now;
    if (!Transition(old, &now))
      return false;
    if (now == old)
      return true;
    Trace();
    return PublishCell<Machine>(granule, g, which,
                                GranuleCell::Make(now, bytes), thr_);
  }

  // Every byte of the granule New, all of them accessed: fresh memory
  // filled (a vector's elements constructed, a buffer copied in; bodytrack
  // took the general path's pair compare-and-swap for each granule). The
  // first cell takes New's transition over the whole granule, and the
  // second is then a leftover (PairOfWords). Another thread that changes
  // the granule meanwhile accesses some of these bytes, so a change that
  // may forget it (StoredPlainly) is one store; else a compare-and-swap of
  // the first cell, which is empty only while the pair is (FirstCellFirst).
  // Only for an access of more than 8 bytes (a copy, a fill), tested where
  // no cell holds the accessed bytes: in the code of the entry points of 8
  // bytes and less, which re-stamp, it moved theirs (streamcluster 1.03 of
  // the time inline, 1.12 out of line; canneal 1.03, paired).
  ALWAYS_INLINE bool NewGranule(u64 *granule, GranulePair g) {
    ShadowCell now;
    if (!Transition(ShadowCell(), &now))
      return false;
    if (now == ShadowCell())
      return true;
    Trace();
    GranuleCell whole = GranuleCell::Make(now, 0xff);
    if (PairsStoredPlainly<Machine>()) {
      StoreGranulePair(granule, GranulePair{whole, GranuleCell()});
      return true;
    }
    if (StoredPlainly<Machine>(ShadowCell(), now, thr_)) {
      StoreRelease(granule, whole.raw());
      return true;
    }
    return CasGranule(granule, g.first, whole);
  }

  // The machine's transition of `old` for this access, in *now (left as
  // `old`, and memoised, when the access changes nothing); false when the
  // general path must take it: a report, or a value no cell can hold. A
  // plain access's change is memoised too, where the transition read
  // nothing of the address (NoopMemo::FindChange): facesim's tasks take
  // each other's vectors at every phase, the same change for every granule
  // of a task's partition.
  ALWAYS_INLINE bool Transition(ShadowCell old, ShadowCell *now) {
    u64 memo;
    if (!kAtomic && thr_->noops.FindChange(old.raw(), write_, &memo)) {
      *now = ShadowCell(memo);
      return true;
    }
    RaceInfo race{};
    u32 lookups = thr_->scope_lookups;
    *now = CellTransition<Machine>(old, thr_,
                                   AccessContext{write_, at_, kAtomic}, &race);
    if (*now == old) {
      // A value that a look-up by address left unchanged (a lock's map of
      // writes excused a read: ReadAfterLockedWrites) says nothing of the
      // next location that holds it.
      if (!kAtomic && thr_->scope_lookups == lookups)
        NoteUnchanged<Machine>(thr_, old, write_);
      return true;
    }
    if (race.found || !GranuleCell::Fits(*now))
      return false;
    if (!kAtomic && thr_->scope_lookups == lookups)
      thr_->noops.NoteChange(old.raw(), now->raw(), write_);
    return true;
  }

  // The trace entry before any cell names the access's segment
  // (SlowAccess::Trace says why).
  ALWAYS_INLINE void Trace() {
    if (!traced_)
      thr_->context->trace.AddAccess(addr_, size_, write_, kAtomic, pc_,
                                     CallerStack(thr_), thr_->segment,
                                     thr_->locks.All(&ctx->locksets));
    traced_ = true;
  }

  ThreadState *thr_;
  uptr pc_, addr_, size_;
  // The first byte the access covers in the granule being decided
  // (SlowAccess::Granule says why).
  uptr at_ = addr_;
  bool write_;
  bool traced_ = false;
};

// The access [addr, addr+size), its granules from `from` on (the ones
// before were published by CellsOfOneAccess).
template <typename Machine>
NOINLINE void AccessSlow(ThreadState *thr, uptr pc, uptr addr, uptr size,
                         bool write, bool atomic = false, uptr from = 0) {
  // A signal handler's own accesses would interleave with this one's trace
  // entry and the thread's caches: it waits until the access is done.
  thr->in_rtl++;
  SlowAccess<Machine> access(thr, pc, addr, size, write, atomic);
  {
    ShadowWriteScope scope(thr);
    uptr end = addr + size;
    for (uptr a = from > addr ? from : addr; a < end;) {
      uptr next = GranuleRunEnd(a, end);
      access.Granule(a, next - a);
      a = next;
    }
  }
  access.Finish();
  LeaveRuntime(thr);
}

// A plain access inside one granule that changes part of a cell, or New
// bytes only: PartOfGranule in a frame of its own, then the general path if
// it fails (it had been tried inside AccessSlow, after the general path's
// frame was built). An access of one or two bytes comes here at once: it
// rarely covers a whole cell (a buffer read or written a byte at a time),
// so the one-cell path's attempt would only fail first. A buffer written a
// byte at a time by one thread, then read by another: 508 instructions a
// byte through the one-cell path and AccessSlow, 369 here.
// DecidedAsPartOfGranule is the attempt, inside the runtime: whether it
// published the access (a pair of accesses tries it too, EntryPairChanged).
template <typename Machine>
ALWAYS_INLINE bool DecidedAsPartOfGranule(ThreadState *thr, uptr pc, uptr addr,
                                          uptr size, bool write) {
  thr->in_rtl++;
  bool done;
  {
    ShadowWriteScope scope(thr);
    done = CellsOfOneAccess<Machine>(thr, pc, addr, size, write)
               .PartOfGranule(MemToGranule(addr), ByteMask(addr, size));
  }
  LeaveRuntime(thr);
  return done;
}

template <typename Machine>
NOINLINE void SmallAccessChanged(ThreadState *thr, uptr pc, uptr addr,
                                 uptr size, bool write) {
  if (!DecidedAsPartOfGranule<Machine>(thr, pc, addr, size, write))
    AccessSlow<Machine>(thr, pc, addr, size, write);
}

// A plain access that the no-op test let through.
template <typename Machine>
ALWAYS_INLINE void AccessChanged(ThreadState *thr, uptr pc, uptr addr,
                                 uptr size, bool write) {
  if (__builtin_constant_p(size) && size <= 2 && (addr & 7) + size <= 8)
    return SmallAccessChanged<Machine>(thr, pc, addr, size, write);
  uptr rest = CellsOfOneAccess<Machine>(thr, pc, addr, size, write).Decided();
  // Decided() leaves an access of no bytes as it is (rest == addr).
  if (rest >= addr + size)
    return;
  if (rest == addr && (addr & 7) + size <= 8)
    return SmallAccessChanged<Machine>(thr, pc, addr, size, write);
  AccessSlow<Machine>(thr, pc, addr, size, write, /*atomic=*/false, rest);
}

// AccessChanged for the entry points that inline the whole of
// MemoryAccess (16 bytes, ranges): out of line, so that they keep a small
// body around their no-op test.
template <typename Machine>
NOINLINE void AccessChangedOutOfLine(ThreadState *thr, uptr pc, uptr addr,
                                     uptr size, bool write) {
  AccessChanged<Machine>(thr, pc, addr, size, write);
}

// The value `v` of the bytes accessed: does the access change nothing?
template <typename Machine, bool kAtomic>
ALWAYS_INLINE bool IsNoopAccess(ShadowCell v, ThreadState *thr, bool write) {
  if (kAtomic)
    return MsmAtomic<Machine>::IsNoop(v, thr, write);
  return Machine::IsNoop(v, thr, write) || thr->noops.Contains(v.raw(), write);
}

// IsNoopAccess, or the thread's memo inline test passes: for the values
// that test of instrumented code does not see.
template <typename Machine, bool kAtomic>
ALWAYS_INLINE bool IsNoopValue(ShadowCell v, ThreadState *thr, bool write) {
  return IsNoopAccess<Machine, kAtomic>(v, thr, write) ||
         (!kAtomic && ValuePassesMemoTest(v.raw(), write));
}

// [a, a+n) inside one granule, whose cells are at `granule`, changes
// nothing.
template <typename Machine, bool kAtomic>
ALWAYS_INLINE bool GranuleUnchanged(ThreadState *thr, const u64 *granule,
                                    uptr a, uptr n, bool write) {
  u64 spread = SpreadByteMask(a, n);
  GranuleCell first = LoadGranule(granule);
  if (LIKELY(first.Holds(spread)))
    return IsNoopAccess<Machine, kAtomic>(first.value(), thr, write);
  GranuleCell second = LoadGranule(&granule[1]);
  if (second.Holds(spread))
    return IsNoopAccess<Machine, kAtomic>(second.value(), thr, write);
  if (first.split()) {
    AcquireSplitGranule();
    const u64 *cells = SplitCells(a, first);
    // Byte by byte: the bytes of a split granule often differ only where
    // the memo test does not look.
    for (uptr i = 0; i < n; i++)
      if (!IsNoopValue<Machine, kAtomic>(LoadCell(&cells[i]), thr, write))
        return false;
    // The block may have passed to another granule meanwhile.
    return StillSplitAs(granule, first);
  }
  // The access covers bytes of both cells (a word over two fields).
  return (spread & ~(first.raw() | second.raw()) & GranuleCell::kMaskBits) ==
             0 &&
         IsNoopValue<Machine, kAtomic>(first.value(), thr, write) &&
         IsNoopValue<Machine, kAtomic>(second.value(), thr, write);
}

template <typename Machine, bool kAtomic>
ALWAYS_INLINE bool AccessUnchanged(ThreadState *thr, uptr addr, uptr size,
                                   bool write) {
  // Most accesses lie inside one granule: no loop.
  if (LIKELY((addr & 7) + size <= 8))
    return GranuleUnchanged<Machine, kAtomic>(thr, MemToGranule(addr), addr,
                                              size, write);
  // An access lies in one application region, so its granules' cells are
  // consecutive: the mapping is computed once.
  const u64 *granule = MemToGranule(addr);
  uptr end = addr + size;
  for (uptr a = addr; a < end; granule += 2) {
    uptr next = GranuleRunEnd(a, end);
    if (!GranuleUnchanged<Machine, kAtomic>(thr, granule, a, next - a, write))
      return false;
    a = next;
  }
  return true;
}

// The thread ignores this kind of access, records it for the write/read
// relations, or is not known yet: AccessUnusual's business.
ALWAYS_INLINE bool OffThePlainPath(const ThreadState *thr, bool write) {
  u32 ignored = write ? thr->ignore_writes : thr->ignore_reads;
  return (ignored | thr->record_accesses) != 0 || thr->segment == 0;
}

template <typename Machine>
ALWAYS_INLINE void Access(ThreadState *thr, uptr pc, uptr addr, uptr size,
                          bool write) {
  if (UNLIKELY(OffThePlainPath(thr, write)))
    return AccessUnusual(thr, pc, addr, size, write);
  CheckCells<Machine>(thr, pc, addr, size, write);
}

template <typename Machine>
ALWAYS_INLINE void CheckCells(ThreadState *thr, uptr pc, uptr addr, uptr size,
                              bool write) {
  if (LIKELY((AccessUnchanged<Machine, false>(thr, addr, size, write))))
    return;
  AccessChangedOutOfLine<Machine>(thr, pc, addr, size, write);
}

// The state machine selected by msm=, copied out of the flags at start-up so
// the hot path reads one byte that never changes.
extern Msm active_msm;

// Checks an access with the active state machine. Inline, so each entry
// point gets a copy with its size constant and the per-cell loop unrolled.
ALWAYS_INLINE void MemoryAccess(ThreadState *thr, uptr pc, uptr addr, uptr size,
                                bool write);

} // namespace hrace

#include "../detectors/hrace_msm_hb.h"
#include "../detectors/hrace_msm_long.h"
#include "../detectors/hrace_msm_short.h"

namespace hrace {

// Calls fn(Machine()) with the active state machine's type.
template <typename Fn> ALWAYS_INLINE void WithActiveMachine(Fn fn) {
  switch (active_msm) {
  case Msm::kShort:
    return fn(MsmShort());
  case Msm::kLong:
    return fn(MsmLong());
  case Msm::kHb:
    return fn(MsmHb());
  }
}

ALWAYS_INLINE void MemoryAccess(ThreadState *thr, uptr pc, uptr addr, uptr size,
                                bool write) {
  WithActiveMachine([=](auto machine) __attribute__((always_inline)) {
    Access<decltype(machine)>(thr, pc, addr, size, write);
  });
}

// Whether an access within one granule changes nothing, whatever the
// thread is doing (EntryGranuleRest, and EntryRecordedAccess for a
// thread that records its accesses).
ALWAYS_INLINE bool EntryGranuleUnchanged(ThreadState *thr, uptr addr, uptr size,
                                         bool write) {
  // An 8-byte access that got here is aligned; saying so in a form the
  // compiler sees folds its byte mask to a constant.
  uptr a = size == 8 ? addr & ~static_cast<uptr>(7) : addr;
  bool noop = false;
  WithActiveMachine([&](auto machine) __attribute__((always_inline)) {
    noop = GranuleUnchanged<decltype(machine), false>(thr, MemToGranule(a), a,
                                                      size, write);
  });
  return noop;
}

// What the inline half of an entry point found (EntryFirstCellVerdict):
// the access changes nothing; it may change a cell, or the thread is off
// the plain path, or the access spans two granules (EntryAccessSlow, or
// EntryRecordedAccess); or the first cell does not hold its bytes
// (EntryGranuleRest).
enum class EntryVerdict { kUnchanged, kChanges, kAskTheRest };

// The inline half of an instrumented access of up to 8 bytes: whether the
// thread is on the plain path, the access lies in one granule (an unaligned
// one over two is left to EntryAccessSlow), and the granule's first cell
// holds its bytes with a value the access leaves unchanged. Bytes the
// first cell does not hold (the second cell's, a split granule's) are for
// the rest of the no-op test, EntryGranuleUnchanged, in a tail call. No
// call and no loop in it, and few registers, so an entry point that
// inlines it needs no stack frame (the callee-saved registers that a call
// forces were a fifth of the entry points' own time; with the whole no-op
// test inline, its split-granule loop among them, every entry point pushed
// and popped six of them: an exclusive read through the entry call took
// 2.06 ns, 1.58 now, a shared one 2.56, 1.99). 16-byte accesses keep the
// whole of MemoryAccess inline: most of them cover two granules, and a
// call to check the second cost more than the frame (x264: 4 %).
ALWAYS_INLINE EntryVerdict EntryFirstCellVerdict(ThreadState *thr, uptr addr,
                                                 uptr size, bool write) {
  if (UNLIKELY(OffThePlainPath(thr, write) || (addr & 7) + size > 8))
    return EntryVerdict::kChanges;
  // An 8-byte access that got here is aligned (EntryGranuleUnchanged).
  uptr a = size == 8 ? addr & ~static_cast<uptr>(7) : addr;
  GranuleCell first = LoadGranule(MemToGranule(a));
  if (UNLIKELY(!first.Holds(SpreadByteMask(a, size))))
    return EntryVerdict::kAskTheRest;
  bool noop = false;
  WithActiveMachine([&](auto machine) __attribute__((always_inline)) {
    noop = IsNoopAccess<decltype(machine), false>(first.value(), thr, write);
  });
  return noop ? EntryVerdict::kUnchanged : EntryVerdict::kChanges;
}

// An atomic access of an active thread that is ignored or changes nothing.
ALWAYS_INLINE bool AtomicAccessIsNoop(ThreadState *thr, uptr addr, uptr size,
                                      bool write) {
  if (UNLIKELY((write ? thr->ignore_writes : thr->ignore_reads) != 0))
    return true;
  bool noop = false;
  WithActiveMachine([&](auto machine) __attribute__((always_inline)) {
    noop = AccessUnchanged<decltype(machine), true>(thr, addr, size, write);
  });
  return noop;
}

// An atomic operation's access, for a thread known to be active (its
// synchronisation is hrace_atomic.cpp's). Ignored accesses stay ignored.
ALWAYS_INLINE void AtomicMemoryAccess(ThreadState *thr, uptr pc, uptr addr,
                                      uptr size, bool write) {
  if (LIKELY(AtomicAccessIsNoop(thr, addr, size, write)))
    return;
  WithActiveMachine([=](auto machine) {
    using Machine = decltype(machine);
    // Most change one cell's value: decided without the general path's
    // object and loop (canneal's relaxed loads of locations another thread
    // swapped).
    uptr rest = CellsOfOneAccess<Machine, /*kAtomic=*/true>(thr, pc, addr,
                                                            size, write)
                    .Decided();
    if (rest < addr + size)
      AccessSlow<Machine>(thr, pc, addr, size, write, /*atomic=*/true, rest);
  });
}

// The allocator has just handed out [addr, addr+size) to thr: a write, kept
// as Allocated cells (FirstAccessAfterAllocation). No other thread can
// legally reach the memory yet and every cell is New, so plain stores set
// them. A thread that got the pointer through a race and touches the memory
// at once may have its update overwritten: a missed report of an access
// that is racy anyway, never a false one.
void MarkAllocated(ThreadState *thr, uptr pc, uptr addr, uptr size);
// Whether MarkAllocated stores cells for thr: not for a thread that ignores
// writes or has not started.
ALWAYS_INLINE bool MarksAllocations(const ThreadState *thr) {
  return !thr->ignore_writes && thr->segment != 0 && thr->context;
}

// The check alone, for a thread known to be active.
ALWAYS_INLINE void CheckAccess(ThreadState *thr, uptr pc, uptr addr, uptr size,
                               bool write) {
  WithActiveMachine([=](auto machine) __attribute__((always_inline)) {
    CheckCells<decltype(machine)>(thr, pc, addr, size, write);
  });
}

// A pthreads call's atomic read of its object (hrace_rtl.h). Most uses
// change nothing (a thread's own earlier read of the word is kept): no
// frame for a report to show, and no call (a lock and its unlock make two
// uses; the call cost lock/unlock 2 ns of its 42).
ALWAYS_INLINE void SyncObjectUsed(ThreadState *thr, uptr fn, uptr caller_pc,
                                  uptr addr) {
  if (!IsAppMem(addr) || AtomicAccessIsNoop(thr, addr, 1, false))
    return;
  SyncObjectUsedChanged(thr, fn, caller_pc, addr);
}

} // namespace hrace

#endif // HRACE_ACCESS_H
