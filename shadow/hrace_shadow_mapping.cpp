//===-- hrace_shadow_mapping.cpp - AArch64 layouts, picked at start-up ----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_shadow_mapping.h"

#ifdef HRACE_MAPPING_PICKED_AT_START_UP

namespace hrace {

uptr Mapping::kLowBeg, Mapping::kLowEnd, Mapping::kPieBeg, Mapping::kPieEnd,
    Mapping::kHighBeg, Mapping::kHighEnd, Mapping::kShadowBeg,
    Mapping::kMetaBeg, Mapping::kGranuleBeg;
uptr kCompressedSize, kShadowEnd, kMetaEnd, kGranuleEnd;

namespace {

struct Layout {
  unsigned vma_bits;
  uptr low_beg, low_end, pie_beg, pie_end, high_beg, high_end;
  uptr shadow_beg, meta_beg, granule_beg;
};

// Each: the low region (non-PIE binaries and their brk heap), the PIE
// region around 2/3 of the address space where the kernel loads PIE
// binaries, the high region below the stack where mmap grows down; then
// byte shadow (8x) and meta (1x) of the three, packed, in the gap before
// the PIE region, and the granule cells (2x) in the gap after it.
constexpr Layout kLayouts[] = {
    // 39 bits (4 KiB pages, 3 levels): 512 GiB; 32 GiB of it checked.
    {39, 0x0000000000ull, 0x0200000000ull, 0x5400000000ull, 0x5600000000ull,
     0x7c00000000ull, 0x8000000000ull, 0x0800000000ull, 0x4800000000ull,
     0x5800000000ull},
    // 42 bits (64 KiB pages, 2 levels): 4 TiB; 256 GiB of it checked.
    {42, 0x00000000000ull, 0x01000000000ull, 0x2a000000000ull, 0x2b000000000ull,
     0x3e000000000ull, 0x40000000000ull, 0x02000000000ull, 0x22000000000ull,
     0x2c000000000ull},
    // 47 bits (16 KiB pages): x86-64's layout.
    {47, 0x000000000000ull, 0x010000000000ull, 0x550000000000ull,
     0x580000000000ull, 0x7c0000000000ull, 0x800000000000ull, 0x040000000000ull,
     0x440000000000ull, 0x600000000000ull},
    // 48 bits (4 KiB pages, 4 levels; Debian's kernel): PIE at 0xaaaa..,
    // mmap down from 0xffff...
    {48, 0x000000000000ull, 0x010000000000ull, 0xaa0000000000ull,
     0xad0000000000ull, 0xfc0000000000ull, 0x1000000000000ull,
     0x040000000000ull, 0x440000000000ull, 0xb00000000000ull},
};

} // namespace

bool SelectMapping(unsigned vma_bits) {
  for (const Layout &l : kLayouts) {
    if (l.vma_bits != vma_bits)
      continue;
    Mapping::kLowBeg = l.low_beg;
    Mapping::kLowEnd = l.low_end;
    Mapping::kPieBeg = l.pie_beg;
    Mapping::kPieEnd = l.pie_end;
    Mapping::kHighBeg = l.high_beg;
    Mapping::kHighEnd = l.high_end;
    Mapping::kShadowBeg = l.shadow_beg;
    Mapping::kMetaBeg = l.meta_beg;
    kCompressedSize = (l.low_end - l.low_beg) + (l.pie_end - l.pie_beg) +
                      (l.high_end - l.high_beg);
    kShadowEnd = l.shadow_beg + kCompressedSize * kShadowScale;
    kMetaEnd = l.meta_beg + kCompressedSize / kMetaGranule * 8;
    Mapping::kGranuleBeg = l.granule_beg;
    kGranuleEnd = l.granule_beg + kCompressedSize * kGranuleScale;
    return l.low_end <= l.shadow_beg && kShadowEnd <= l.meta_beg &&
           kMetaEnd <= l.pie_beg && l.pie_end <= l.granule_beg &&
           kGranuleEnd <= l.high_beg && l.high_end <= (uptr(1) << vma_bits);
  }
  return false;
}

} // namespace hrace

#endif // HRACE_MAPPING_PICKED_AT_START_UP
