//===-- hrace_shadow.h - Reserving and resetting shadow memory ------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SHADOW_H
#define HRACE_SHADOW_H

#include "hrace_shadow_cell.h"
#include "hrace_shadow_mapping.h"

namespace hrace {

// Per 8-byte application granule: the heap block starting there (if any) and
// the sync object living there (if any).
struct MetaCell {
  // 0, or kBlockStart | size of the block starting at this granule.
  u32 block;
  // 0, or the SyncId of the mutex/condvar/atomic at this granule.
  u32 sync;
};
static_assert(sizeof(MetaCell) == 8, "meta scale assumes 8-byte cells");
constexpr u32 kBlockStart = 1u << 31;
// Block sizes from here on are looked up with malloc_usable_size.
constexpr u32 kBlockSizeUnknown = kBlockStart - 1;

// Reserves the shadow and meta tables (mmap MAP_NORESERVE at fixed addresses)
// and fences off the gaps between application regions. Dies with a message
// if the address space layout does not allow it.
void InitShadow();

// Forgets everything about [addr, addr+size): cells go back to New. Used for
// freed heap blocks and for a thread's stack before it starts running.
void ResetShadowRange(uptr addr, uptr size);

// Every cell back to New (a new segment generation, hrace_segment.h): the
// kernel gives the pages back and refills them with zeros.
void ClearAllShadow();

ALWAYS_INLINE ShadowCell LoadCell(const u64 *cell) {
  return ShadowCell(LoadRelaxed(cell));
}

// Publishes a transition; fails (and leaves the cell alone) if another thread
// changed the cell since `old` was read. Release order makes the segment table
// entry for the new segment visible before the cell that names it.
ALWAYS_INLINE bool CasCell(u64 *cell, ShadowCell old, ShadowCell now) {
  u64 expected = old.raw();
  return __atomic_compare_exchange_n(cell, &expected, now.raw(), false,
                                     __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

// Publishes `now` in the run cells[0, n), which all held `old`; returns how
// many leading cells it replaced (it stops at the first one another thread
// changed). A locked instruction costs the same for 8 and 16 bytes, and a
// write in a new segment re-stamps every cell of the access, so on x86-64
// the run goes two aligned cells per compare-and-swap (cmpxchg16b). A failed
// pair falls back to single cells, which find the changed one.
ALWAYS_INLINE uptr CasCellRun(u64 *cells, uptr n, ShadowCell old,
                              ShadowCell now) {
  uptr k = 0;
#if defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
  typedef unsigned __int128 CellPair;
  if (n >= 2) {
    if (reinterpret_cast<uptr>(cells) & (sizeof(CellPair) - 1)) {
      if (!CasCell(&cells[0], old, now))
        return 0;
      k = 1;
    }
    CellPair old_pair = (CellPair(old.raw()) << 64) | old.raw();
    CellPair new_pair = (CellPair(now.raw()) << 64) | now.raw();
    for (; k + 2 <= n; k += 2) {
      CellPair expected = old_pair;
      if (!__atomic_compare_exchange_n(reinterpret_cast<CellPair *>(&cells[k]),
                                       &expected, new_pair, false,
                                       __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        break;
    }
  }
#endif
  while (k < n && CasCell(&cells[k], old, now))
    k++;
  return k;
}

} // namespace hrace

#endif // HRACE_SHADOW_H
