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

} // namespace hrace

#endif // HRACE_SHADOW_H
