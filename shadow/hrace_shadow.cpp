//===-- hrace_shadow.cpp - Reserving and resetting shadow memory ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_shadow.h"

#include "../runtime/hrace_libc.h"
#include "../runtime/hrace_mutex.h"

#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace hrace {

namespace {

constexpr uptr kPageSize = 4096;

void ReserveAt(uptr beg, uptr end, int prot, const char *what) {
  void *p = internal_mmap(
      reinterpret_cast<void *>(beg), end - beg, prot,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != reinterpret_cast<void *>(beg))
    Die("HybridRace: cannot reserve %s at [0x%zx, 0x%zx): the address space "
        "is in use or too small (HybridRace needs a 47-bit user address "
        "space)\n",
        what, beg, end);
  // Shadow can be terabytes of address space; never put it in core dumps.
  madvise(p, end - beg, MADV_DONTDUMP);
}

// A gap is protected only where nothing is mapped yet: a gap may already hold
// the vdso or a loader mapping, and those are left alone.
void ProtectGap(uptr beg, uptr end) {
  if (beg >= end)
    return;
  void *p = internal_mmap(
      reinterpret_cast<void *>(beg), end - beg, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && p != reinterpret_cast<void *>(beg))
    internal_munmap(p, end - beg);
}

} // namespace

u64 *split_pool;

namespace {

// The half splits take blocks from (the generation's parity), and how many
// each half has handed out; block 0 of each half is never handed out (0
// names the direct-mapped fallback).
u32 split_half;
u32 split_used[2];
constexpr uptr kSplitBlockBytes = 8 * sizeof(u64);

u32 AllocateSplitBlock() {
  u32 half = LoadAcquire(&split_half);
  u32 n = __atomic_fetch_add(&split_used[half], 1, __ATOMIC_RELAXED);
  if (n + 1 >= kSplitBlocksPerHalf)
    return 0;
  return half * kSplitBlocksPerHalf + n + 1;
}

} // namespace

u32 SplitBlocksUsed() {
  u32 used = LoadRelaxed(&split_used[LoadRelaxed(&split_half)]);
  return used < kSplitBlocksPerHalf ? used : kSplitBlocksPerHalf;
}

void ClearAllShadow() {
  madvise(reinterpret_cast<void *>(Mapping::kShadowBeg),
          kShadowEnd - Mapping::kShadowBeg, MADV_DONTNEED);
  madvise(reinterpret_cast<void *>(kGranuleBeg), kGranuleEnd - kGranuleBeg,
          MADV_DONTNEED);
  // The other half was last used two generations ago: empty it and take
  // splits from it. Blocks of the half just left may still be in a thread's
  // hands; they are reused only after the next clear.
  u32 next = LoadRelaxed(&split_half) ^ 1;
  madvise(split_pool + uptr(next) * kSplitBlocksPerHalf * 8,
          kSplitBlocksPerHalf * kSplitBlockBytes, MADV_DONTNEED);
  StoreRelaxed(&split_used[next], 0u);
  StoreRelease(&split_half, next);
}

void InitShadow() {
#ifdef HRACE_MAPPING_PICKED_AT_START_UP
  // The stack is near the top of user space: its highest bit says how many
  // bits the kernel gives user space.
  uptr frame = reinterpret_cast<uptr>(__builtin_frame_address(0));
  unsigned vma_bits = 64 - __builtin_clzll(frame);
  if (!SelectMapping(vma_bits))
    Die("HybridRace: no shadow layout for a %u-bit user address space "
        "(AArch64: 39, 42, 47 and 48 bits are supported)\n",
        vma_bits);
#endif
  ReserveAt(Mapping::kShadowBeg, kShadowEnd, PROT_READ | PROT_WRITE, "shadow");
  ReserveAt(Mapping::kMetaBeg, kMetaEnd, PROT_READ | PROT_WRITE, "meta");
  ReserveAt(kGranuleBeg, kGranuleEnd, PROT_READ | PROT_WRITE, "granule shadow");
  uptr pool_size = 2 * uptr(kSplitBlocksPerHalf) * kSplitBlockBytes;
  void *pool =
      internal_mmap(nullptr, pool_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED)
    Die("HybridRace: cannot reserve the split pool (%zu bytes)\n", pool_size);
  madvise(pool, pool_size, MADV_DONTDUMP);
  split_pool = static_cast<u64 *>(pool);
  ProtectGap(Mapping::kLowEnd, Mapping::kShadowBeg);
  ProtectGap(kGranuleEnd, Mapping::kPieBeg);
  ProtectGap(Mapping::kPieEnd, Mapping::kHighBeg);
}

namespace {

// Splits are serialised per granule; 64 stripes keep unrelated splits apart.
// Each stripe keeps the block of a split that lost its race for the next.
constexpr uptr kSplitStripes = 64;
struct SplitStripe {
  SpinMutex mu;
  u32 spare_block;
};
SplitStripe split_stripes[kSplitStripes];

// [a, a+n) inside one granule gets `value`.
void StoreGranuleBytes(uptr a, uptr n, ShadowCell value) {
  u64 *granule = MemToGranule(a);
  u32 bytes = ByteMask(a, n);
  GranuleCell whole =
      value.raw() ? GranuleCell::Make(value, bytes) : GranuleCell();
  for (;;) {
    GranuleCell g = LoadGranule(granule);
    if (g.split()) {
      // A whole split granule goes back to one cell; its byte cells are not
      // read again until the next split rewrites them.
      if (bytes == 0xff && GranuleCell::Fits(value))
        return StoreRelease(granule, whole.raw());
      AcquireSplitGranule();
      u64 *cells = SplitCells(a, g);
      for (uptr i = 0; i < n; i++)
        StoreRelaxed(&cells[i], value.raw());
      return;
    }
    // The granule's other bytes: those that held its value keep it.
    u32 kept = g.mask() & ~bytes;
    if (GranuleCell::Fits(value)) {
      if (!kept)
        return StoreRelease(granule, whole.raw());
      if (!value.raw())
        return StoreRelease(granule, GranuleCell::Make(g.value(), kept).raw());
      if (g.value() == value)
        return StoreRelease(granule,
                            GranuleCell::Make(value, kept | bytes).raw());
    }
    SplitGranule(a, g);
  }
}

} // namespace

void SplitGranule(uptr a, GranuleCell seen) {
  uptr base = a & ~uptr(7);
  SplitStripe &stripe = split_stripes[(base >> 3) % kSplitStripes];
  SpinMutexLock l(&stripe.mu);
  u64 *granule = MemToGranule(base);
  if (LoadGranule(granule) != seen || seen.split())
    return;
  u32 block = stripe.spare_block;
  stripe.spare_block = 0;
  // A spare block of the generation before is left to its half.
  if (!block || block / kSplitBlocksPerHalf != LoadAcquire(&split_half))
    block = AllocateSplitBlock();
  GranuleCell split = GranuleCell::Split(block);
  // All eight, so that what an earlier split or a reset left here is gone.
  u64 *cells = SplitCells(base, split);
  u32 mask = seen.mask();
  for (uptr i = 0; i < 8; i++)
    StoreRelaxed(&cells[i], (mask >> i) & 1 ? seen.value().raw() : 0);
  // Release: the byte cells before the mark that sends readers to them. If
  // another thread changed the cell meanwhile, the cells written here are
  // never read (the caller reads the cell again) and the block waits for
  // the stripe's next split.
  if (!CasGranule(granule, seen, split) && block)
    stripe.spare_block = block;
}

void StoreShadowRange(uptr addr, uptr size, ShadowCell value) {
  uptr end = addr + size;
  for (uptr a = addr; a < end;) {
    uptr next = GranuleRunEnd(a, end);
    StoreGranuleBytes(a, next - a, value);
    a = next;
  }
}

void ResetShadowRange(uptr addr, uptr size) {
  if (!size)
    return;
  // Large ranges: give whole pages of both levels back to the kernel, which
  // hands out zero (= New) pages on the next touch; only the ragged edges
  // are cleared cell by cell.
  uptr beg = (addr + 7) & ~uptr(7);
  uptr end = (addr + size) & ~uptr(7);
  uptr granule_beg = reinterpret_cast<uptr>(MemToGranule(beg));
  uptr granule_end = granule_beg + (end > beg ? end - beg : 0);
  uptr page_beg = (granule_beg + kPageSize - 1) & ~(kPageSize - 1);
  uptr page_end = granule_end & ~(kPageSize - 1);
  if (page_end >= page_beg + 16 * kPageSize) {
    uptr app_beg = beg + (page_beg - granule_beg);
    uptr app_end = beg + (page_end - granule_beg);
    madvise(reinterpret_cast<void *>(page_beg), page_end - page_beg,
            MADV_DONTNEED);
    // The byte shadow of the same bytes: its pages hold nothing the
    // granules still refer to.
    madvise(MemToShadow(app_beg), (app_end - app_beg) * kShadowScale,
            MADV_DONTNEED);
    ResetShadowRange(addr, app_beg - addr);
    ResetShadowRange(app_end, addr + size - app_end);
    return;
  }
  // Only cells that are not New: a store would turn a shared zero page of
  // never-touched shadow into a private one.
  for (uptr a = addr; a < addr + size;) {
    uptr next = GranuleRunEnd(a, addr + size);
    if (LoadGranule(MemToGranule(a)).raw())
      StoreGranuleBytes(a, next - a, ShadowCell());
    a = next;
  }
}

} // namespace hrace
