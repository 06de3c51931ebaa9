//===-- hrace_shadow_cell.h - Encoding of one shadow cell -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One 64-bit ShadowCell per application byte, updated with compare-and-swap so
// that concurrent accesses to the same byte never lose a transition:
//
//   bits  0..3   CellState
//   bits  4..33  segment: a SegmentId (30 bits)
//   bits 34..63  aux: 30 bits whose meaning depends on the state machine
//
// An all-zero cell is New, so fresh and freed memory need no initialisation
// beyond zero pages. See docs/design.md for what each machine keeps in which
// state.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SHADOW_CELL_H
#define HRACE_SHADOW_CELL_H

#include "../runtime/hrace_defs.h"

namespace hrace {

// Global id of a thread segment; 0 means "none".
typedef u32 SegmentId;
constexpr u32 kSegmentBits = 30;
constexpr SegmentId kMaxSegmentId = (1u << kSegmentBits) - 1;

// The states of all machines share one numbering (msm=long uses the first
// eight; msm=short has no ExclusiveReadWrite or SharedModified2 but adds the
// four ExclusiveReadAfterWrite states; msm=hb uses New, ExclusiveWrite,
// ExclusiveRead and Race); all share the two atomic states and Allocated.
// State 15 never
// occurs: the all-ones cell is nobody's value (hrace_noop_memo.h relies on it).
enum class CellState : u8 {
  kNew = 0,
  kExclusiveWrite = 1,
  kExclusiveRead = 2,
  kExclusiveReadWrite = 3,
  kSharedRead = 4,
  kSharedModified = 5,
  kSharedModified2 = 6,
  kRace = 7,
  // msm=short: an exclusive read that still knows the write it read. The
  // segment is the read's, aux the write's; two flag bits say whether the
  // reader and the writer held locks (ReadAfterWriteFlags).
  kExclusiveReadAfterWrite = 8,
  // Every machine: the latest access was atomic (detectors/hrace_msm_atomic.h).
  // The segment is the last write, atomic or plain by the state; aux an
  // atomic read.
  kAtomic = 12,
  kAtomicAfterPlainWrite = 13,
  // Every machine: memory the allocator handed out, not touched since. The
  // segment and aux are the machine's ExclusiveWrite of the allocating
  // thread (runtime/hrace_access.h, MarkAllocated).
  kAllocated = 14,
};

// Flag bits added to kExclusiveReadAfterWrite.
enum ReadAfterWriteFlags : u8 {
  kReaderLocked = 1,
  kWriterLocked = 2,
};

ALWAYS_INLINE bool IsReadAfterWrite(CellState s) {
  return (static_cast<u8>(s) & ~3u) ==
         static_cast<u8>(CellState::kExclusiveReadAfterWrite);
}

class ShadowCell {
public:
  static constexpr u64 kStateMask = 0xf;
  static constexpr u32 kSegmentShift = 4;
  static constexpr u32 kAuxShift = 34;
  static constexpr u64 kFieldMask = (1ull << kSegmentBits) - 1;

  constexpr ShadowCell() : raw_(0) {}
  explicit constexpr ShadowCell(u64 raw) : raw_(raw) {}

  static constexpr ShadowCell Make(CellState s, SegmentId segment, u32 aux) {
    return ShadowCell(static_cast<u64>(s) |
                      (static_cast<u64>(segment) << kSegmentShift) |
                      (static_cast<u64>(aux) << kAuxShift));
  }

  CellState state() const { return static_cast<CellState>(raw_ & kStateMask); }
  SegmentId segment() const {
    return static_cast<SegmentId>((raw_ >> kSegmentShift) & kFieldMask);
  }
  u32 aux() const { return static_cast<u32>(raw_ >> kAuxShift); }
  u64 raw() const { return raw_; }

  bool operator==(ShadowCell o) const { return raw_ == o.raw_; }
  bool operator!=(ShadowCell o) const { return raw_ != o.raw_; }

private:
  u64 raw_;
};

static_assert(sizeof(ShadowCell) == 8, "one cell is one 64-bit word");

} // namespace hrace

#endif // HRACE_SHADOW_CELL_H
