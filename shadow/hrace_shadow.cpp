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

#include <errno.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <sys/auxv.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
// Linux 5.14; older kernels refuse it (EINVAL) and the pages fault in on
// first use as before.
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace hrace {

namespace {

// The kernel's page size (4, 16 or 64 KiB on AArch64): madvise takes
// page-aligned ranges only.
uptr page_size = 4096;
// Cleared when the kernel refuses MADV_POPULATE_WRITE (older than 5.14, or
// a sandbox).
u32 populate_works = 1;

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

// How many shadow clears there were: its parity is the half splits take
// blocks from. And how many blocks each half has handed out; block 0 of
// each half is never handed out (0 names the direct-mapped fallback).
u32 split_clears;
u32 split_used[2];
// Blocks a half hands out; lowered by tests and small-limit builds, to fill
// a half quickly.
u32 split_blocks_limit = kSplitBlocksPerHalf;
constexpr uptr kSplitBlockBytes = 8 * sizeof(u64);

// A block of the half of clear period `clears`.
u32 AllocateSplitBlock(u32 clears) {
  u32 half = clears & 1;
  u32 n = __atomic_fetch_add(&split_used[half], 1, __ATOMIC_RELAXED);
  if (n + 1 >= LoadRelaxed(&split_blocks_limit))
    return 0;
  return half * kSplitBlocksPerHalf + n + 1;
}

} // namespace

void LimitSplitBlocks(u32 blocks) {
  StoreRelaxed(&split_blocks_limit,
               blocks < kSplitBlocksPerHalf ? blocks : kSplitBlocksPerHalf);
}

u32 SplitBlocksUsed() {
  u32 used = LoadRelaxed(&split_used[LoadRelaxed(&split_clears) & 1]);
  return used < kSplitBlocksPerHalf ? used : kSplitBlocksPerHalf;
}

void ClearAllShadow() {
  madvise(reinterpret_cast<void *>(Mapping::kShadowBeg),
          kShadowEnd - Mapping::kShadowBeg, MADV_DONTNEED);
  ClearGranuleCells();
  // The other half was last used two generations ago: empty it and take
  // splits from it. Blocks of the half just left may still be in a thread's
  // hands; they are reused only after the next clear.
  u32 clears = LoadRelaxed(&split_clears) + 1;
  u32 next = clears & 1;
  madvise(split_pool + uptr(next) * kSplitBlocksPerHalf * 8,
          kSplitBlocksPerHalf * kSplitBlockBytes, MADV_DONTNEED);
  StoreRelaxed(&split_used[next], 0u);
  StoreRelease(&split_clears, clears);
}

uptr ShadowPageSize() { return page_size; }

bool pair_access_is_atomic;

namespace {
// pair_access_is_atomic's answer, from the CPU's identification.
bool DetectAtomicPairAccess() {
#if defined(__x86_64__)
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
    return false;
  char vendor[13];
  internal_memcpy(vendor, &ebx, 4);
  internal_memcpy(vendor + 4, &edx, 4);
  internal_memcpy(vendor + 8, &ecx, 4);
  vendor[12] = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_AVX))
    return false;
  // The vendors that guarantee it; another's AVX says nothing about it.
  // "CentaurHauls" also names VIA's own cores, family 6, which do not
  // (Zhaoxin's are family 7 on; GCC's libatomic draws the same line).
  u32 family = (eax >> 8) & 0xf;
  return !internal_strcmp(vendor, "GenuineIntel") ||
         !internal_strcmp(vendor, "AuthenticAMD") ||
         !internal_strcmp(vendor, "  Shanghai  ") ||
         (!internal_strcmp(vendor, "CentaurHauls") && family > 6);
#else
  // HWCAP_USCAT (FEAT_LSE2), spelled out for C libraries older than it.
  constexpr unsigned long kHwcapUscat = 1ul << 25;
  return getauxval(AT_HWCAP) & kHwcapUscat;
#endif
}
} // namespace

void InitShadow() {
  if (uptr page = getauxval(AT_PAGESZ))
    page_size = page;
  pair_access_is_atomic = DetectAtomicPairAccess();
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
  ReserveAt(Mapping::kGranuleBeg, kGranuleEnd, PROT_READ | PROT_WRITE,
            "granule shadow");
  ProtectGap(Mapping::kLowEnd, Mapping::kShadowBeg);
  ProtectGap(kMetaEnd, Mapping::kPieBeg);
  ProtectGap(Mapping::kPieEnd, Mapping::kGranuleBeg);
  ProtectGap(kGranuleEnd, Mapping::kHighBeg);
  // Anywhere the kernel likes: with the gaps closed, that is the high
  // region, where the runtime's own mappings live.
  uptr pool_size = 2 * uptr(kSplitBlocksPerHalf) * kSplitBlockBytes;
  void *pool =
      internal_mmap(nullptr, pool_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED)
    Die("HybridRace: cannot reserve the split pool (%zu bytes)\n", pool_size);
  madvise(pool, pool_size, MADV_DONTDUMP);
  split_pool = static_cast<u64 *>(pool);
}

namespace {

// Splits are serialised per granule; 64 stripes keep unrelated splits apart.
// Each stripe keeps the block of a split that lost its race for the next.
constexpr uptr kSplitStripes = 64;
struct SplitStripe {
  SpinMutex mu;
  FreeSplitBlocks free;
  // Numbers the stripe's splits, for their split cells.
  u32 splits;
};
SplitStripe split_stripes[kSplitStripes];

SplitStripe &StripeOf(uptr a) {
  return split_stripes[(a >> 3) % kSplitStripes];
}

// The first cell first (FirstCellFirst): a granule whose first word is
// empty is New whole, which CellsOfOneAccess::NewGranule decides from two
// loads and may then store plainly over.
void StorePair(u64 *granule, GranuleCell first, GranuleCell second) {
  GranulePair pair = FirstCellFirst(GranulePair{first, second});
  StoreRelease(&granule[1], pair.second.raw());
  StoreRelease(&granule[0], pair.first.raw());
}

// [a, a+n) inside one granule gets `value`.
void StoreGranuleBytes(uptr a, uptr n, ShadowCell value) {
  u64 *granule = MemToGranule(a);
  u32 bytes = ByteMask(a, n);
  bool fits = GranuleCell::Fits(value);
  GranuleCell mine =
      value.raw() ? GranuleCell::Make(value, bytes) : GranuleCell();
  // A whole granule takes one cell whatever it held, split or not. Not
  // reading it first spares a fresh shadow page the zero page's mapping
  // and its copy on this write.
  if (bytes == 0xff && fits)
    return StorePair(granule, mine, GranuleCell());
  for (;;) {
    GranulePair g = LoadGranulePair(granule);
    if (g.first.split()) {
      // A whole split granule went back to cells above; its byte cells are
      // not read again until the next split rewrites them (its block is
      // not given back: no granule names it now).
      SplitGranuleLock lock(a);
      if (!StillSplitAs(granule, g.first))
        continue;
      u64 *cells = SplitCells(a, g.first);
      for (uptr i = 0; i < n; i++)
        StoreRelaxed(&cells[i], value.raw());
      UnsplitGranule(a, g.first);
      return;
    }
    // What the other bytes keep.
    u32 first = g.first.mask() & ~bytes;
    u32 second = g.second.mask() & ~bytes;
    GranuleCell kept_first =
        first ? GranuleCell::Make(g.first.value(), first) : GranuleCell();
    GranuleCell kept_second =
        second ? GranuleCell::Make(g.second.value(), second) : GranuleCell();
    if (fits) {
      if (!value.raw())
        return StorePair(granule, kept_first, kept_second);
      if (!first || g.first.value() == value)
        return StorePair(granule, GranuleCell::Make(value, first | bytes),
                         kept_second);
      if (!second || g.second.value() == value)
        return StorePair(granule, kept_first,
                         GranuleCell::Make(value, second | bytes));
    }
    SplitGranule(a, g);
  }
}

} // namespace

u32 FreeSplitBlocks::Take(u32 clears) {
  if (clears_ != clears)
    head_ = 0;
  u32 block = head_;
  if (block)
    head_ = static_cast<u32>(LoadRelaxed(&split_pool[uptr(block) * 8]));
  return block;
}

void FreeSplitBlocks::Give(u32 block, u32 clears) {
  // A block of the half a clear has just left may still be written by a
  // thread that read its split before the clear; that half is handed out
  // again only after the next clear.
  if (block / kSplitBlocksPerHalf != (clears & 1))
    return;
  if (clears_ != clears) {
    head_ = 0;
    clears_ = clears;
  }
  StoreRelaxed(&split_pool[uptr(block) * 8], u64(head_));
  head_ = block;
}

SplitGranuleLock::SplitGranuleLock(uptr a) : a_(a) { StripeOf(a).mu.Lock(); }

SplitGranuleLock::~SplitGranuleLock() { StripeOf(a_).mu.Unlock(); }

void SplitGranule(uptr a, GranulePair seen) {
  uptr base = a & ~uptr(7);
  SplitStripe &stripe = StripeOf(base);
  SpinMutexLock l(&stripe.mu);
  u64 *granule = MemToGranule(base);
  if (seen.first.split() || LoadGranulePair(granule) != seen)
    return;
  u32 clears = LoadAcquire(&split_clears);
  u32 block = stripe.free.Take(clears);
  if (!block)
    block = AllocateSplitBlock(clears);
  GranuleCell split = GranuleCell::Split(block, ++stripe.splits);
  // All eight, so that what an earlier split or a reset left here is gone.
  u64 *cells = SplitCells(base, split);
  u32 first = seen.first.mask(), second = seen.second.mask();
  for (uptr i = 0; i < 8; i++) {
    u64 v = (first >> i) & 1    ? seen.first.value().raw()
            : (second >> i) & 1 ? seen.second.value().raw()
                                : 0;
    StoreRelaxed(&cells[i], v);
  }
  // Release: the byte cells before the mark that sends readers to them. If
  // another thread changed the cells meanwhile, the byte cells written here
  // are never read (the caller reads the granule again) and the block waits
  // for the stripe's next split.
  if (!CasGranulePair(granule, seen, GranulePair{split, GranuleCell()}) &&
      block)
    stripe.free.Give(block, clears);
}

void UnsplitGranule(uptr a, GranuleCell split) {
  uptr base = a & ~uptr(7);
  u64 *granule = MemToGranule(base);
  const u64 *cells = SplitCells(base, split);
  ShadowCell values[2];
  u32 masks[2] = {0, 0};
  u32 count = 0;
  for (u32 i = 0; i < 8; i++) {
    ShadowCell v(LoadRelaxed(&cells[i]));
    // New bytes need no cell.
    if (!v.raw())
      continue;
    u32 k = 0;
    while (k < count && values[k] != v)
      k++;
    if (k == count) {
      if (count == 2 || !GranuleCell::Fits(v))
        return;
      values[count++] = v;
    }
    masks[k] |= 1u << i;
  }
  GranuleCell kept[2];
  for (u32 k = 0; k < count; k++)
    kept[k] = GranuleCell::Make(values[k], masks[k]);
  // Byte cells are written under the lock held here, and the second cell
  // of a split granule is empty: only a reset of the whole granule, or a
  // plain store computed before the split (hrace_access.h, StoredPlainly),
  // can change it meanwhile, and then the block is no granule's to give
  // back (it comes back when its half of the pool is emptied).
  if (!CasGranulePair(granule, GranulePair{split, GranuleCell()},
                      GranulePair{kept[0], kept[1]}))
    return;
  if (u32 block = split.split_block())
    StripeOf(base).free.Give(block, LoadAcquire(&split_clears));
}

bool PrefaultShadowRange(uptr addr, uptr size) {
  if (!size || !LoadRelaxed(&populate_works))
    return false;
  uptr first = reinterpret_cast<uptr>(MemToGranule(addr & ~uptr(7)));
  uptr last =
      reinterpret_cast<uptr>(MemToGranule((addr + size - 1) & ~uptr(7)));
  uptr beg = first & ~(page_size - 1);
  uptr end = (last + 8 * kGranuleScale + page_size - 1) & ~(page_size - 1);
  // The kernel writes nothing: a page already in use keeps its cells, a
  // missing one comes zeroed (New), as a first store would bring it. Called
  // from malloc, which must leave errno as it was.
  int saved_errno = errno;
  bool done = madvise(reinterpret_cast<void *>(beg), end - beg,
                      MADV_POPULATE_WRITE) == 0;
  // Only a lack of memory is worth another try: anything else (an old
  // kernel, a sandbox that refuses the call) will refuse every block.
  if (!done && errno != ENOMEM && errno != EAGAIN && errno != EINTR)
    StoreRelaxed(&populate_works, 0u);
  errno = saved_errno;
  return done;
}

void StoreShadowRange(uptr addr, uptr size, ShadowCell value) {
  uptr end = addr + size;
  for (uptr a = addr; a < end;) {
    uptr next = GranuleRunEnd(a, end);
    StoreGranuleBytes(a, next - a, value);
    a = next;
  }
}

void ResetShadowRange(uptr addr, uptr size, bool give_back) {
  if (!size)
    return;
  // Large ranges: give whole pages of granule cells back to the kernel,
  // which hands out zero (= New) pages on the next touch; only the ragged
  // edges are cleared cell by cell.
  uptr beg = (addr + 7) & ~uptr(7);
  uptr end = (addr + size) & ~uptr(7);
  uptr granule_beg = reinterpret_cast<uptr>(MemToGranule(beg));
  uptr granule_end = granule_beg + (end > beg ? end - beg : 0) * kGranuleScale;
  uptr page_beg = (granule_beg + page_size - 1) & ~(page_size - 1);
  uptr page_end = granule_end & ~(page_size - 1);
  if (give_back && page_end >= page_beg + 16 * page_size) {
    uptr app_beg = beg + (page_beg - granule_beg) / kGranuleScale;
    uptr app_end = beg + (page_end - granule_beg) / kGranuleScale;
    madvise(reinterpret_cast<void *>(page_beg), page_end - page_beg,
            MADV_DONTNEED);
    // The direct-mapped byte shadow of the same bytes, in case splits
    // fell back to it.
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
    GranulePair g = LoadGranulePair(MemToGranule(a));
    if (g.first.raw() | g.second.raw())
      StoreGranuleBytes(a, next - a, ShadowCell());
    a = next;
  }
}

} // namespace hrace
