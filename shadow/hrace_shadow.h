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

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

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
// freed heap blocks and for a thread's stack before it starts running. A
// large range's pages are given back to the kernel unless `give_back` is
// false (pages just brought in for use, PrefaultShadowRange).
void ResetShadowRange(uptr addr, uptr size, bool give_back = true);

// The pages of granule cells of [addr, addr+size) are made present and
// writable, their cells unchanged. The first access to memory reads its
// cell (the inline no-op test), and on a page never touched the kernel
// then maps its shared zero page, which the store that follows must
// replace by a copy, flushing the TLB of every core the process runs on:
// for a block about to be used, one call that brings its pages in written
// costs less than a read fault and a copy per page. False where the kernel
// does not (Linux before 5.14) or could not.
bool PrefaultShadowRange(uptr addr, uptr size);

// The kernel's page size, known from InitShadow on.
uptr ShadowPageSize();

// Every byte of [addr, addr+size) gets `value`, with plain stores: for
// ranges no other thread may legally touch now (fresh allocations, freed
// memory, ranges declared benign).
void StoreShadowRange(uptr addr, uptr size, ShadowCell value);

// Every cell back to New (a new segment generation, hrace_segment.h): the
// kernel gives the pages back and refills them with zeros, except the
// granule cells of the heap, which are zeroed in place
// (hrace_shadow_clear.cpp).
void ClearAllShadow();

// [addr, addr+size) is a heap block: ClearGranuleCells zeroes its cells in
// place rather than giving their pages back.
void MarkHeapGranules(uptr addr, uptr size);
// The granule cells' part of ClearAllShadow.
void ClearGranuleCells();

ALWAYS_INLINE ShadowCell LoadCell(const u64 *cell) {
  return ShadowCell(LoadRelaxed(cell));
}

// The bytes [a, a+n) of a granule (n <= 8, within the granule) as a mask.
ALWAYS_INLINE u32 ByteMask(uptr a, uptr n) {
  return ((1u << n) - 1) << (a & 7);
}

// The same bytes as a granule cell's spread mask. For the entry points'
// fixed sizes it is one load from a table (by size, then offset) instead of
// the shifts that split the mask between the cell's two mask fields: the
// no-op test of every 1-, 2- and 4-byte access makes it. Offsets that would
// leave the granule are never asked for.
struct SpreadMaskTable {
  u64 masks[3][8];
  constexpr SpreadMaskTable() : masks() {
    for (u32 log = 0; log < 3; log++)
      for (u32 offset = 0; offset < 8; offset++)
        masks[log][offset] = GranuleCell::SpreadMask(
            (((1u << (1u << log)) - 1) << offset) & 0xff);
  }
};
static constexpr SpreadMaskTable kSpreadMasks;

ALWAYS_INLINE u64 SpreadByteMask(uptr a, uptr n) {
  if (__builtin_constant_p(n) && (n == 1 || n == 2 || n == 4))
    return kSpreadMasks.masks[n == 1 ? 0 : n == 2 ? 1 : 2][a & 7];
  return GranuleCell::SpreadMask(ByteMask(a, n));
}

// Where the granule of `a` ends (or `end`, if sooner).
ALWAYS_INLINE uptr GranuleRunEnd(uptr a, uptr end) {
  uptr next = (a | 7) + 1;
  return next < end ? next : end;
}

ALWAYS_INLINE GranuleCell LoadGranule(const u64 *granule) {
  return GranuleCell(LoadRelaxed(granule));
}

// A granule's two cells. Their masks never share a byte; a split granule's
// cell is the first, and the second is then 0. Each cell is read and
// written on its own while its mask stays (PublishGranuleCell); a change
// of masks swaps both at once (CasGranulePair), so a cell read alone is
// right about the bytes of its mask, unless a plain store undid a
// concurrent change of masks (hrace_access.h, StoredPlainly).
struct GranulePair {
  GranuleCell first, second;
  // What the second word held where `second` stands for nothing, a
  // leftover (LoadGranulePair); 0 otherwise. Not part of the pair's value:
  // only a compare-and-swap of the pair needs it.
  u64 leftover = 0;
  bool operator==(GranulePair o) const {
    return first == o.first && second == o.second;
  }
  bool operator!=(GranulePair o) const { return !(*this == o); }
};

// The pair that a granule's two words hold. A first cell that holds the
// whole granule stands for all of it, and the second holds nothing, but a
// plain store of that cell (PublishGranuleCell) may have undone a
// concurrent change of masks that had moved some bytes to the second,
// which then still claims them with a value they no longer have: a 4-byte
// access that picked it would be judged against an access the first cell's
// later changes had already ordered (a review found it). The leftover is
// read as an empty cell, and the next change of the pair clears it.
ALWAYS_INLINE GranulePair PairOfWords(u64 first, u64 second) {
  GranuleCell cell(first);
  if (second && cell.mask() == 0xff && !cell.split())
    return {cell, GranuleCell(), second};
  return {cell, GranuleCell(second)};
}

// Two loads, not one atomic read: CasGranulePair finds a torn pair.
ALWAYS_INLINE GranulePair LoadGranulePair(const u64 *granule) {
  return PairOfWords(LoadRelaxed(&granule[0]), LoadRelaxed(&granule[1]));
}

// A split granule's byte cells were written before its cell said so
// (SplitGranule); a reader that saw a split cell orders its reads of them
// after that (a compiler barrier on x86-64).
ALWAYS_INLINE void AcquireSplitGranule() {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

// One word from `old` to `now` by compare-and-swap, with release order:
// the segment table entry for a new segment is visible before the cell
// that names it.
ALWAYS_INLINE bool CasWord(u64 *word, u64 old, u64 now) {
  return __atomic_compare_exchange_n(word, &old, now, false, __ATOMIC_RELEASE,
                                     __ATOMIC_RELAXED);
}

// Two 16-byte-aligned words from (old0, old1) to (now0, now1) in one
// compare-and-swap, with release order. Written so that GCC and clang both
// inline it: GCC turns a 16-byte __atomic builtin into a call to libatomic,
// not into cmpxchg16b (the __sync builtin it does inline under -mcx16,
// which the runtime is built with); AArch64 uses an exclusive pair (LL/SC),
// which every ARMv8 core has (LSE's casp does not).
ALWAYS_INLINE bool CasWordPair(u64 *pair, u64 old0, u64 old1, u64 now0,
                               u64 now1) {
#if defined(__x86_64__)
  typedef unsigned __int128 Pair;
  return __sync_bool_compare_and_swap(reinterpret_cast<Pair *>(pair),
                                      (Pair(old1) << 64) | old0,
                                      (Pair(now1) << 64) | now0);
#else
  u64 lo, hi;
  u32 failed;
  asm volatile("1: ldxp  %0, %1, [%3]\n"
               "   cmp   %0, %4\n"
               "   ccmp  %1, %5, #0, eq\n"
               "   b.ne  2f\n"
               "   stlxp %w2, %6, %7, [%3]\n"
               "   cbnz  %w2, 1b\n"
               "   b     3f\n"
               "2: clrex\n"
               "   mov   %w2, #1\n"
               "3:\n"
               : "=&r"(lo), "=&r"(hi), "=&r"(failed)
               : "r"(pair), "r"(old0), "r"(old1), "r"(now0), "r"(now1)
               : "cc", "memory");
  return !failed;
#endif
}

// One of a granule's cells.
ALWAYS_INLINE bool CasGranule(u64 *cell, GranuleCell old, GranuleCell now) {
  return CasWord(cell, old.raw(), now.raw());
}

// A new value of one granule cell whose mask stays, that may be stored
// plainly (hrace_access.h, StoredPlainly): a plain release store where the
// cell holds the whole granule, else compare-and-swap. A thread that
// changes a whole-granule cell meanwhile accesses the same bytes,
// concurrently with this access, and the store may forget that access.
// Where the cell holds part of the granule, another thread may change the
// masks or split the granule for the other bytes, a different variable
// that no race concerns; a plain store would undo that (its bytes New
// again, or the split mark gone), so the access takes the locked
// instruction and, losing it, reads the granule again.
ALWAYS_INLINE bool PublishGranuleCell(u64 *cell, GranuleCell old,
                                      GranuleCell now) {
  if (old.mask() == 0xff) {
    StoreRelease(cell, now.raw());
    return true;
  }
  return CasGranule(cell, old, now);
}

// A granule left with one value keeps it in its first cell: the fast path,
// and the inline test of instrumented code (InlineNoopTest), which reads no
// other, look there first.
ALWAYS_INLINE GranulePair FirstCellFirst(GranulePair now) {
  if (!now.first.raw())
    return {now.second, now.first};
  return now;
}

// Both cells of a granule at once.
ALWAYS_INLINE bool CasGranulePair(u64 *granule, GranulePair old,
                                  GranulePair now) {
  now = FirstCellFirst(now);
  return CasWordPair(granule, old.first.raw(), old.second.raw() | old.leftover,
                     now.first.raw(), now.second.raw());
}

// Whether an aligned 16-byte load or store is single-copy atomic on this
// CPU (InitShadow asks): x86-64 with AVX from a vendor that guarantees it
// for MOVDQA (Intel, SDM vol. 3A, 9.1.1; AMD, APM vol. 2, 7.3.2; Zhaoxin,
// in GCC's PR104688), and AArch64 with FEAT_LSE2 (LDP and STP of a
// 16-byte-aligned pair; HWCAP_USCAT).
extern bool pair_access_is_atomic;

// A granule's two cells read in one access, for a caller that may store
// the pair it computes from them plainly (StoreGranulePair): two loads
// could see one cell before and the other after another thread's change
// of masks, and a pair made from both would give a byte to two cells or
// to none. Only where pair_access_is_atomic.
ALWAYS_INLINE GranulePair LoadGranulePairAtomically(const u64 *granule) {
  u64 first, second;
#if defined(__x86_64__)
  __m128i both;
  asm volatile("movdqa %1, %0"
               : "=x"(both)
               : "m"(*reinterpret_cast<const __m128i *>(granule)));
  first = static_cast<u64>(_mm_cvtsi128_si64(both));
  second = static_cast<u64>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(both, both)));
#else
  asm volatile("ldp %0, %1, [%2]"
               : "=r"(first), "=r"(second)
               : "r"(granule)
               : "memory");
#endif
  return PairOfWords(first, second);
}

// Both cells of a granule stored in one plain access, with release order
// (CasWord says why): what a compare-and-swap of the pair would publish,
// without its locked instruction. A concurrent change of the granule by
// another thread, to any of its bytes, is lost whole, never half, so the
// masks never overlap. Only where pair_access_is_atomic, from a pair that
// LoadGranulePairAtomically read.
ALWAYS_INLINE void StoreGranulePair(u64 *granule, GranulePair now) {
  now = FirstCellFirst(now);
  u64 first = now.first.raw(), second = now.second.raw();
#if defined(__x86_64__)
  __m128i both = _mm_set_epi64x(static_cast<long long>(second),
                                static_cast<long long>(first));
  // x86-64 orders every store after the ones before it.
  asm volatile("movdqa %1, %0"
               : "=m"(*reinterpret_cast<__m128i *>(granule))
               : "x"(both)
               : "memory");
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
  asm volatile("stp %1, %2, [%0]"
               :
               : "r"(granule), "r"(first), "r"(second)
               : "memory");
#endif
}

// Split granules keep their byte cells in blocks of eight, handed out in
// order from a pool (MAP_NORESERVE), so that memory grows with the granules
// split, not with the pages they lie in (splits are scattered: one field
// of each object). A granule whose bytes come back to at most two values
// goes back to cells (UnsplitGranule), and its block to its split stripe,
// whose next split takes it: the bytes of an image read a pixel at a time
// by two threads diverge and converge again, and vips split 3.6 million
// granules with never more than 57,000 split at once. So that no block is
// written for two granules, every write of byte cells holds the granule's
// stripe lock (SplitGranuleLock) and checks that the granule still holds
// the split cell it read (each split has its own, GranuleCell::Split); a
// read without the lock checks the same after it (StillSplitAs). The
// pool has two halves, one per generation parity, and a half is emptied
// when its next generation starts (ClearAllShadow), as segment ids are.
// When a half is full, granules split into the direct-mapped byte shadow
// instead (block 0), one 8-byte cell per application byte.
extern u64 *split_pool;
constexpr u32 kSplitBlocksPerHalf = 1u << (GranuleCell::kBlockBits - 1);

// The byte cell of `a` in its split granule `g`.
ALWAYS_INLINE u64 *SplitCells(uptr a, GranuleCell g) {
  u32 block = g.split_block();
  if (UNLIKELY(block == 0))
    return MemToShadow(a);
  return split_pool + static_cast<uptr>(block) * 8 + (a & 7);
}

// The blocks a split stripe has back from its granules, or from a split
// that lost its race to another thread's change of the granule, for the
// stripe's next splits; linked through their first byte cell, which no
// granule reads any more (a reader that still does finds its granule's
// split cell changed). Blocks belong to the clear period they were handed
// out in: the half they came from is emptied and handed out again two
// shadow clears later, so blocks kept across a clear are dropped (had one
// been taken then, two granules would share its byte cells). The stripe's
// lock is held.
class FreeSplitBlocks {
public:
  // A block kept in clear period `clears`, or 0.
  u32 Take(u32 clears);
  void Give(u32 block, u32 clears);

private:
  u32 head_ = 0;
  u32 clears_ = 0;
};

// Holds the split stripe lock of the granule at `a`: the writes of its
// byte cells, its split and its return to cells are serialised by it (a
// leaf lock: nothing else is taken under it; the transitions of a split
// granule's bytes are computed before it is taken). Fork-safe like every
// runtime lock.
class SplitGranuleLock {
public:
  explicit SplitGranuleLock(uptr a);
  ~SplitGranuleLock();
  SplitGranuleLock(const SplitGranuleLock &) = delete;
  SplitGranuleLock &operator=(const SplitGranuleLock &) = delete;

private:
  uptr a_;
};

// The byte cells read since the granule's split cell `split` was read
// were that split's: the granule still holds it (an acquire fence orders
// the reads before, on AArch64).
ALWAYS_INLINE bool StillSplitAs(const u64 *granule, GranuleCell split) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return LoadGranule(granule) == split;
}

// Gives the granule at `a` per-byte cells holding what `seen` says (its
// value on the bytes of its mask, New elsewhere) and turns its cell into a
// split cell, unless the cell no longer holds `seen`: the caller reads it
// again either way. Takes the granule's SplitGranuleLock.
void SplitGranule(uptr a, GranulePair seen);

// With the granule's SplitGranuleLock held and `split` its split cell: if
// its byte cells hold at most two values besides New, each of which fits a
// granule cell, the granule goes back to cells and its block to the
// stripe.
void UnsplitGranule(uptr a, GranuleCell split);

// Split blocks handed out in the current generation (tests).
u32 SplitBlocksUsed();
// At most `blocks` per half from now on (tests filling a half, and
// HRACE_SMALL_LIMITS builds).
void LimitSplitBlocks(u32 blocks);

// Calls fn(beg, size) for each maximal run of bytes of [addr, addr+size)
// that is not New.
template <typename Fn> void ForEachTouchedRun(uptr addr, uptr size, Fn fn) {
  uptr end = addr + size;
  uptr run_beg = 0, run_end = 0;
  for (uptr a = addr; a < end;) {
    uptr next = GranuleRunEnd(a, end);
    const u64 *granule = MemToGranule(a);
    GranulePair g = LoadGranulePair(granule);
    if ((g.first.raw() | g.second.raw()) == 0) {
      a = next;
      continue;
    }
    // A split granule's bytes, copied while its block is its own.
    u64 cells[8];
    if (g.first.split()) {
      AcquireSplitGranule();
      const u64 *block = SplitCells(a, g.first);
      for (uptr b = a; b < next; b++)
        cells[b - a] = LoadRelaxed(&block[b - a]);
      if (!StillSplitAs(granule, g.first))
        continue;
    }
    u32 mask = g.first.mask() | g.second.mask();
    for (uptr b = a; b < next; b++) {
      bool touched =
          g.first.split() ? cells[b - a] != 0 : (mask >> (b & 7)) & 1;
      if (!touched)
        continue;
      if (b != run_end) {
        if (run_end)
          fn(run_beg, run_end - run_beg);
        run_beg = b;
      }
      run_end = b + 1;
    }
    a = next;
  }
  if (run_end)
    fn(run_beg, run_end - run_beg);
}

// Publishes a transition; fails (and leaves the cell alone) if another thread
// changed the cell since `old` was read.
ALWAYS_INLINE bool CasCell(u64 *cell, ShadowCell old, ShadowCell now) {
  return CasWord(cell, old.raw(), now.raw());
}

// Two 16-byte-aligned cells, both from `old` to `now`.
ALWAYS_INLINE bool CasCellPair(u64 *pair, u64 old, u64 now) {
  return CasWordPair(pair, old, old, now, now);
}

// Publishes `now` in the run cells[0, n), which all held `old`; returns how
// many leading cells it replaced (it stops at the first one another thread
// changed). A locked instruction costs the same for 8 and 16 bytes, and a
// write in a new segment re-stamps every cell of the access, so the run goes
// two aligned cells per compare-and-swap (CasCellPair). A
// failed pair falls back to single cells, which find the changed one.
ALWAYS_INLINE uptr CasCellRun(u64 *cells, uptr n, ShadowCell old,
                              ShadowCell now) {
  uptr k = 0;
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
  while (k < n && CasCell(&cells[k], old, now))
    k++;
  return k;
}

// Publishes `now` in cells[0, n) with plain stores, where the access may
// (hrace_access.h, StoredPlainly). Release order, as CasCell's.
ALWAYS_INLINE void StoreCellRun(u64 *cells, uptr n, ShadowCell now) {
  for (uptr k = 0; k < n; k++)
    __atomic_store_n(&cells[k], now.raw(), __ATOMIC_RELEASE);
}

} // namespace hrace

#endif // HRACE_SHADOW_H
