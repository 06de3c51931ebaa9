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

#if (defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)) ||  \
    defined(__aarch64__)
#define HRACE_HAS_CAS_CELL_PAIR 1
// Two 16-byte-aligned cells from `old` to `now` in one compare-and-swap,
// with release order. Written so that GCC and clang both inline it: GCC
// turns a 16-byte __atomic builtin into a call to libatomic, not into
// cmpxchg16b (the __sync builtin it does inline under -mcx16); AArch64 uses
// an exclusive pair (LL/SC), which every ARMv8 core has (LSE's casp does
// not).
ALWAYS_INLINE bool CasCellPair(u64 *pair, u64 old, u64 now) {
#if defined(__x86_64__)
  typedef unsigned __int128 CellPair;
  return __sync_bool_compare_and_swap(reinterpret_cast<CellPair *>(pair),
                                      (CellPair(old) << 64) | old,
                                      (CellPair(now) << 64) | now);
#else
  u64 lo, hi;
  u32 failed;
  asm volatile("1: ldxp  %0, %1, [%3]\n"
               "   cmp   %0, %4\n"
               "   ccmp  %1, %4, #0, eq\n"
               "   b.ne  2f\n"
               "   stlxp %w2, %5, %5, [%3]\n"
               "   cbnz  %w2, 1b\n"
               "   b     3f\n"
               "2: clrex\n"
               "   mov   %w2, #1\n"
               "3:\n"
               : "=&r"(lo), "=&r"(hi), "=&r"(failed)
               : "r"(pair), "r"(old), "r"(now)
               : "cc", "memory");
  return !failed;
#endif
}
#endif

// Publishes `now` in the run cells[0, n), which all held `old`; returns how
// many leading cells it replaced (it stops at the first one another thread
// changed). A locked instruction costs the same for 8 and 16 bytes, and a
// write in a new segment re-stamps every cell of the access, so the run goes
// two aligned cells per compare-and-swap where there is one (CasCellPair). A
// failed pair falls back to single cells, which find the changed one.
ALWAYS_INLINE uptr CasCellRun(u64 *cells, uptr n, ShadowCell old,
                              ShadowCell now) {
  uptr k = 0;
#ifdef HRACE_HAS_CAS_CELL_PAIR
  if (n >= 2) {
    if (reinterpret_cast<uptr>(cells) & 15) {
      if (!CasCell(&cells[0], old, now))
        return 0;
      k = 1;
    }
    for (; k + 2 <= n; k += 2)
      if (!CasCellPair(&cells[k], old.raw(), now.raw()))
        break;
  }
#endif
  while (k < n && CasCell(&cells[k], old, now))
    k++;
  return k;
}

// Publishes `now` in cells[0, n) with plain stores, for a re-stamp that no
// other thread should be changing (hrace_access.h, StaysWithOwner). Release
// order, as CasCell's.
ALWAYS_INLINE void StoreCellRun(u64 *cells, uptr n, ShadowCell now) {
  for (uptr k = 0; k < n; k++)
    __atomic_store_n(&cells[k], now.raw(), __ATOMIC_RELEASE);
}

} // namespace hrace

#endif // HRACE_SHADOW_H
