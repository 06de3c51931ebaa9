//===-- hrace_trace.h - Per-thread access history -------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A shadow cell remembers only a segment, not where the access came from.
// Each thread slot therefore keeps a ring of its recent accesses that changed
// a cell: address, size, kind, pc, the caller stack (a stack depot id),
// segment and the locks held. A report looks
// up the previous access by (segment, address range, kind) in the ring of the
// thread that made it. Only cell-changing accesses are recorded, so a loop
// that keeps hitting the same cells adds nothing.
//
// Only the owning thread appends; any thread may search. Each event carries
// its position, written last (release) and cleared first, like a sequence
// lock: a searcher that reads the same position before and after the other
// fields has read one whole event.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TRACE_H
#define HRACE_TRACE_H

#include "../shadow/hrace_shadow_cell.h"
#include "hrace_defs.h"
#include "hrace_stack_depot.h"

namespace hrace {

typedef u32 LockSetId;

enum class AccessKind : u8 { kRead, kWrite, kAny };

struct AccessRecord {
  uptr addr;
  uptr size;
  uptr pc;
  // The stack pc was called from (innermost first).
  StackId callers;
  bool is_write;
  bool is_atomic;
  LockSetId locks;
};

class Trace {
public:
  static constexpr uptr kEvents = 1 << 16;

  void Init();
  // Inline: the slow path of every access that changes a cell appends.
  void AddAccess(uptr addr, uptr size, bool is_write, bool is_atomic, uptr pc,
                 StackId callers, SegmentId seg, LockSetId locks);
  // The events appended from now on have segments of `generation` (the
  // owner took its first segment of it). Segment ids grow within a
  // generation and start low again in the next but one, so a search keeps
  // to the events of one generation.
  void StartGeneration(u32 generation);
  // The most recent access of `kind` in segment `seg`, of segment generation
  // `generation`, overlapping [addr, addr+size); with `plain_only`, atomic
  // accesses are passed over.
  bool FindAccess(SegmentId seg, u32 generation, uptr addr, uptr size,
                  AccessKind kind, AccessRecord *out,
                  bool plain_only = false) const;
  // The most recent access of `kind` of generation `generation`, in any
  // segment, overlapping [addr, addr+size), and its segment: for a race
  // whose cell names the other threads but none of their segments. With
  // `plain_only`, atomic accesses are passed over.
  bool FindLatestAccess(u32 generation, uptr addr, uptr size, AccessKind kind,
                        AccessRecord *out, SegmentId *seg,
                        bool plain_only = false) const;

private:
  // [*beg, *end): the positions still in the ring whose events are of
  // `generation`; false when none is.
  bool GenerationRange(u32 generation, u64 *beg, u64 *end) const;
  static bool Overlaps(const AccessRecord &r, AccessKind kind, uptr addr,
                       uptr size) {
    return (kind == AccessKind::kAny ||
            r.is_write == (kind == AccessKind::kWrite)) &&
           r.addr < addr + size && addr < r.addr + r.size;
  }
  // Event `pos` if it is still in the ring, with its segment.
  bool ReadEvent(u64 pos, AccessRecord *out, SegmentId *seg) const;

  // 32 bytes, two events per cache line and none across two: appending is
  // the slow path's one store to memory it has not touched lately (a 40-byte
  // event was the largest stall of a re-stamp). Application addresses have
  // 48 bits, so the top 16 bits of `addr` hold the high half of a 32-bit
  // size (a larger access is recorded as its first 4 GB); `meta` holds the
  // segment, the lock set, the kind and the size's low half.
  static constexpr u32 kLockSetBits = 20;
  static constexpr u32 kSizeLowBits = 16;
  static constexpr u32 kAddrBits = 48;
  static constexpr u64 kAddrMask = (1ull << kAddrBits) - 1;
  static constexpr u64 kMaxSize = (1ull << 32) - 1;
  static constexpr u32 kLocksShift = kSegmentBits;
  static constexpr u32 kWriteShift = kLocksShift + kLockSetBits;
  static constexpr u32 kAtomicShift = kWriteShift + 1;
  static constexpr u32 kSizeShift = kAtomicShift + 1;
  static_assert(kSizeShift + kSizeLowBits == 64, "meta fills one word");
  // The stamp's low bits hold the position, its top bits the caller stack:
  // 2^40 events pass before a position's stamp repeats, and a reader checks
  // its event while the ring turns over once.
  static constexpr u32 kStampPosBits = 64 - StackDepot::kIdBits;
  static constexpr u64 kStampPosMask = (1ull << kStampPosBits) - 1;

  struct Event {
    // Position + 1 of the event in the slot (0 while it is being written),
    // and the caller stack.
    u64 stamp;
    u64 addr_and_size_high;
    u64 pc;
    u64 meta;
  };
  static_assert(sizeof(Event) == 32, "two events per cache line");
  Event *events_ = nullptr;
  u64 pos_ = 0;

  // Where the last generations' events begin: before the first one
  // recorded (if none was dropped), generation 0.
  struct GenerationStart {
    u64 pos;
    u32 generation;
  };
  static constexpr u32 kGenerationStarts = 8;
  GenerationStart starts_[kGenerationStarts] = {};
  u32 start_count_ = 0;
};

ALWAYS_INLINE void Trace::AddAccess(uptr addr, uptr size, bool is_write,
                                    bool is_atomic, uptr pc, StackId callers,
                                    SegmentId seg, LockSetId locks) {
  u64 pos = pos_;
  Event &e = events_[pos % kEvents];
  StoreRelaxed(&e.stamp, static_cast<u64>(0));
  // The cleared stamp must be visible before any field changes.
  __atomic_thread_fence(__ATOMIC_RELEASE);
  u64 size32 = size < kMaxSize ? size : kMaxSize;
  StoreRelaxed(&e.addr_and_size_high,
               (static_cast<u64>(addr) & kAddrMask) |
                   ((size32 >> kSizeLowBits) << kAddrBits));
  StoreRelaxed(&e.pc, static_cast<u64>(pc));
  StoreRelaxed(&e.meta, static_cast<u64>(seg) |
                            (static_cast<u64>(locks) << kLocksShift) |
                            (static_cast<u64>(is_write) << kWriteShift) |
                            (static_cast<u64>(is_atomic) << kAtomicShift) |
                            (size32 << kSizeShift));
  StoreRelease(&e.stamp, ((pos + 1) & kStampPosMask) |
                             (static_cast<u64>(callers) << kStampPosBits));
  StoreRelease(&pos_, pos + 1);
}

} // namespace hrace

#endif // HRACE_TRACE_H
