//===-- hrace_shadow_cell.h - Encoding of one shadow cell -----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A ShadowCell is the state of one application byte, what a state machine
// reads and returns:
//
//   bits  0..3   CellState
//   bits  4..33  segment: a SegmentId (26 bits used, kSegmentBits)
//   bits 34..63  aux: 30 bits whose meaning depends on the state machine
//
// Memory keeps two GranuleCells per 8-byte granule. Each holds a ShadowCell
// and, in the bits a ShadowCell leaves zero (segment bits 26..29, aux bits
// 26..29), the mask of the bytes that have it; the masks never share a
// byte, and bytes in neither are New. When the bytes take a third value
// (or a value needs aux bits 26..29) the granule is split: its first cell
// names a block of eight ShadowCells, one per byte, in the split pool
// (hrace_shadow.h). Cells are updated with compare-and-swap so that
// concurrent accesses never lose a transition (hrace_access.h says where
// they may).
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

// Global id of a thread segment; 0 means "none". 26 bits, so that an id
// fits a granule cell's segment and aux fields with the mask beside it.
typedef u32 SegmentId;
constexpr u32 kSegmentBits = 26;
constexpr SegmentId kMaxSegmentId = (1u << kSegmentBits) - 1;
// The width of a cell's segment and aux fields.
constexpr u32 kCellFieldBits = 30;

// The states of all machines share one numbering (msm=long uses the first
// eight; msm=short has no ExclusiveReadWrite or SharedModified2 but adds the
// four ExclusiveReadAfterWrite states; msm=hb uses New, ExclusiveWrite,
// ExclusiveRead and Race); all share the two atomic states and Allocated.
// State 15 is no
// ShadowCell's: the all-ones cell is nobody's value (hrace_noop_memo.h
// relies on it) and a split GranuleCell has it.
enum class CellState : u8 {
  kNew = 0,
  kExclusiveWrite = 1,
  kExclusiveRead = 2,
  kExclusiveReadWrite = 3,
  // msm=hb's use of the number: Exclusive-Read (same fields) whose read R
  // another thread's read has since met unordered (detectors/hrace_msm_hb.h).
  kExclusiveReadAndOthers = 3,
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

ALWAYS_INLINE bool IsAtomicState(CellState s) {
  return s == CellState::kAtomic || s == CellState::kAtomicAfterPlainWrite;
}

class ShadowCell {
public:
  static constexpr u64 kStateMask = 0xf;
  static constexpr u32 kSegmentShift = 4;
  static constexpr u32 kAuxShift = 34;
  static constexpr u64 kFieldMask = (1ull << kCellFieldBits) - 1;

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
  constexpr u64 raw() const { return raw_; }

  bool operator==(ShadowCell o) const { return raw_ == o.raw_; }
  bool operator!=(ShadowCell o) const { return raw_ != o.raw_; }

private:
  u64 raw_;
};

static_assert(sizeof(ShadowCell) == 8, "one cell is one 64-bit word");

// The cell of one 8-byte granule: a ShadowCell and the mask of the bytes
// that hold it (bit i: byte i), or, in state 15, the split block holding
// a ShadowCell per byte (bits 4..29; 0 for the fallback in the direct-mapped
// byte shadow: hrace_shadow.h). The mask's low nibble
// sits in segment bits 26..29 (cell bits 30..33), its high nibble in aux
// bits 26..29 (cell bits 60..63); a ShadowCell that needs those bits does
// not fit and is kept per byte.
class GranuleCell {
public:
  static constexpr u64 kMaskBits = (0xfull << 30) | (0xfull << 60);

  constexpr GranuleCell() : raw_(0) {}
  explicit constexpr GranuleCell(u64 raw) : raw_(raw) {}

  static constexpr u64 SpreadMask(u32 mask) {
    return (static_cast<u64>(mask & 0xf) << 30) |
           (static_cast<u64>(mask >> 4) << 60);
  }
  static constexpr bool Fits(ShadowCell v) {
    return (v.raw() & kMaskBits) == 0;
  }
  // `value` must fit; a mask of 0 is only for the New value.
  static constexpr GranuleCell Make(ShadowCell value, u32 mask) {
    return GranuleCell(value.raw() | SpreadMask(mask));
  }

  static constexpr u32 kBlockBits = 26;
  // A split cell also names the split (bits 34..59, clear of the mask's
  // bits): a block goes back to its stripe when its granule is no longer
  // split, and a reader that read its byte cells without the stripe's lock
  // checks that the granule still holds the same split cell.
  static constexpr u32 kSplitVersionShift = 34;
  static constexpr u32 kSplitVersionBits = 26;
  static constexpr GranuleCell Split(u32 block, u32 version = 0) {
    return GranuleCell(
        0xf | static_cast<u64>(block) << 4 |
        static_cast<u64>(version & ((1u << kSplitVersionBits) - 1))
            << kSplitVersionShift);
  }
  bool split() const { return (raw_ & 0xf) == 0xf; }
  u32 split_block() const {
    return static_cast<u32>(raw_ >> 4) & ((1u << kBlockBits) - 1);
  }
  ShadowCell value() const { return ShadowCell(raw_ & ~kMaskBits); }
  u32 mask() const {
    return static_cast<u32>(((raw_ >> 30) & 0xf) | ((raw_ >> 60) << 4));
  }
  // Every byte of `mask` holds value() (spread: SpreadMask of the mask).
  bool Holds(u64 spread) const { return (raw_ & spread) == spread; }
  constexpr u64 raw() const { return raw_; }

  bool operator==(GranuleCell o) const { return raw_ == o.raw_; }
  bool operator!=(GranuleCell o) const { return raw_ != o.raw_; }

private:
  u64 raw_;
};

static_assert(kSegmentBits + 4 <= kCellFieldBits,
              "a segment id leaves room for the mask's low nibble");

// A no-op test that instrumented code makes inline before it calls the
// runtime (llvm-pass, x86-64; runtime/hrace_inline_test.h): an access of
// the bytes whose spread mask is `spread` skips the call when the
// GranuleCell `cell` that holds them passes. An `and` and a compare: a
// set of no-op values (the machine's commonest no-op state, its segment the
// thread's current one; or a value the thread found unchanged) as one
// masked value. Neither `mask` nor `value` has a bit of the cell's byte
// mask (GranuleCell::kMaskBits), and `value` none outside `mask`. The pass
// reads both from the thread's __hrace_inline_test and knows nothing of
// the encoding.
struct InlineNoopTest {
  u64 mask;
  u64 value;
  bool Passes(u64 cell, u64 spread) const {
    return (cell & spread) == spread && (cell & mask) == value;
  }
};
// Never passes: bit 0 of `value` is outside `mask`. A thread not started,
// or recording its accesses, has it.
constexpr InlineNoopTest kInlineTestOff = {0, 1};
// The segment field of a GranuleCell (kSegmentBits), and of its aux.
constexpr u64 kGranuleSegmentBits = u64(kMaxSegmentId)
                                    << ShadowCell::kSegmentShift;
constexpr u64 kGranuleAuxBits = u64(kMaxSegmentId) << ShadowCell::kAuxShift;

} // namespace hrace

#endif // HRACE_SHADOW_CELL_H
