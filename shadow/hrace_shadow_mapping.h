//===-- hrace_shadow_mapping.h - Where shadow lives, per platform ---------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The program's memory lives in three regions: the low region (non-PIE
// binaries, their brk heap), the PIE region (PIE binaries and their brk heap)
// and the high region (mmap: shared libraries, thread stacks, large malloc
// chunks, glibc arenas). They are packed into one contiguous "compressed"
// address by subtracting a per-region delta, and the compressed address
// indexes the direct-mapped tables:
//   granules: two 8-byte GranuleCells per 8-byte granule (scale 2): the
//             states of its bytes, while they take at most two values,
//   bytes:    one 8-byte ShadowCell per application byte (scale 8), used
//             only when the split pool is full (hrace_shadow.h),
//   meta:     one MetaCell (heap block start + sync object) per granule.
// On x86-64 the granule cells, which every access reads, are indexed
// instead by the address's low 44 bits: the three regions differ there (the
// low region is below 1 TiB, the PIE region's bits 40-43 are 5-7, the high
// region's 12-15), so keeping those bits is one-to-one on them, and one
// `and` replaces CompressAppAddr's compares and conditional moves on the
// way to the fast path's one load (TSan's x86-64 mapping is a mask and an
// xor for the same reason). The unused half of that table is never
// touched.
// The three are reserved MAP_NORESERVE: only pages written cost memory.
// Everything between the regions is reserved PROT_NONE at start-up so the
// kernel never places program memory where it has no shadow.
//
// Only the constants differ per architecture (and on AArch64 per address
// space size); the functions are shared.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_SHADOW_MAPPING_H
#define HRACE_SHADOW_MAPPING_H

#include "../runtime/hrace_defs.h"

namespace hrace {

#if defined(__x86_64__)
// 47-bit user space. PIE binaries load at 0x55..-0x56.. (2/3 of the address
// space plus up to 1 TiB of ASLR), mmap grows down from below the stack.
struct Mapping {
  static constexpr uptr kLowBeg = 0x000000000000ull;
  static constexpr uptr kLowEnd = 0x010000000000ull;
  static constexpr uptr kPieBeg = 0x550000000000ull;
  static constexpr uptr kPieEnd = 0x580000000000ull;
  static constexpr uptr kHighBeg = 0x7c0000000000ull;
  static constexpr uptr kHighEnd = 0x800000000000ull;
  static constexpr uptr kShadowBeg = 0x040000000000ull;
  static constexpr uptr kMetaBeg = 0x440000000000ull;
  // Between the PIE and the high region, indexed by the address's low
  // kGranuleIndexBits.
  static constexpr uptr kGranuleBeg = 0x580000000000ull;
  static constexpr uptr kGranuleIndexBits = 44;
};
#define HRACE_GRANULES_BY_LOW_BITS 1
#elif defined(__aarch64__)
// AArch64 kernels give user space 39, 42, 47 or 48 bits (VA_BITS, with 4,
// 64 or 16 KiB pages), each with its own places for PIE binaries and mmap, so
// the layout is picked at start-up from the stack's address (SelectMapping,
// hrace_shadow_mapping.cpp) and never changes after: the k names are
// constants from then on.
struct Mapping {
  static uptr kLowBeg, kLowEnd, kPieBeg, kPieEnd, kHighBeg, kHighEnd;
  static uptr kShadowBeg, kMetaBeg, kGranuleBeg;
};
#define HRACE_MAPPING_PICKED_AT_START_UP 1
#else
#error "HybridRace supports Linux on x86-64 and AArch64"
#endif

constexpr uptr kShadowScale = 8;  // bytes of shadow per application byte
constexpr uptr kMetaGranule = 8;  // application bytes per MetaCell
constexpr uptr kGranuleScale = 2; // bytes of granule cells per app byte

#ifdef HRACE_MAPPING_PICKED_AT_START_UP
extern uptr kCompressedSize, kShadowEnd, kMetaEnd, kGranuleEnd;
// Picks the layout of a `vma_bits`-bit user address space; false if there is
// none (the layouts' own consistency is checked there too).
bool SelectMapping(unsigned vma_bits);
#else
constexpr uptr kCompressedSize = (Mapping::kLowEnd - Mapping::kLowBeg) +
                                 (Mapping::kPieEnd - Mapping::kPieBeg) +
                                 (Mapping::kHighEnd - Mapping::kHighBeg);
constexpr uptr kShadowEnd =
    Mapping::kShadowBeg + kCompressedSize * kShadowScale;
constexpr uptr kMetaEnd =
    Mapping::kMetaBeg + kCompressedSize / kMetaGranule * 8;
constexpr uptr kGranuleIndexMask = (uptr(1) << Mapping::kGranuleIndexBits) - 1;
constexpr uptr kGranuleEnd =
    Mapping::kGranuleBeg + (kGranuleIndexMask + 1) * kGranuleScale;
// The low bits tell the regions apart: each lies in one block of
// 2^kGranuleIndexBits bytes, and their offsets in it do not overlap.
static_assert((Mapping::kLowBeg >> Mapping::kGranuleIndexBits) ==
                      ((Mapping::kLowEnd - 1) >> Mapping::kGranuleIndexBits) &&
                  (Mapping::kPieBeg >> Mapping::kGranuleIndexBits) ==
                      ((Mapping::kPieEnd - 1) >> Mapping::kGranuleIndexBits) &&
                  (Mapping::kHighBeg >> Mapping::kGranuleIndexBits) ==
                      ((Mapping::kHighEnd - 1) >> Mapping::kGranuleIndexBits),
              "a region crosses an index block");
static_assert(((Mapping::kLowEnd - 1) & kGranuleIndexMask) <
                      (Mapping::kPieBeg & kGranuleIndexMask) &&
                  ((Mapping::kPieEnd - 1) & kGranuleIndexMask) <
                      (Mapping::kHighBeg & kGranuleIndexMask),
              "two regions share granule cells");

static_assert(Mapping::kLowEnd <= Mapping::kShadowBeg, "shadow overlaps app");
static_assert(kShadowEnd <= Mapping::kMetaBeg, "meta overlaps shadow");
static_assert(kMetaEnd <= Mapping::kPieBeg, "meta overlaps app");
static_assert(Mapping::kPieEnd <= Mapping::kGranuleBeg &&
                  kGranuleEnd <= Mapping::kHighBeg,
              "granules overlap app");
#endif

ALWAYS_INLINE bool IsAppMem(uptr a) {
  return (a >= Mapping::kLowBeg && a < Mapping::kLowEnd) ||
         (a >= Mapping::kPieBeg && a < Mapping::kPieEnd) ||
         (a >= Mapping::kHighBeg && a < Mapping::kHighEnd);
}

// Packs the three regions next to each other; two compares and no table, so
// it compiles to a couple of conditional moves on the hot path.
// [beg, end) lies in one application range (and so has shadow).
ALWAYS_INLINE bool IsAppRange(uptr beg, uptr end) {
  if (end <= beg)
    return end == beg && IsAppMem(beg);
  return (beg >= Mapping::kLowBeg && end <= Mapping::kLowEnd) ||
         (beg >= Mapping::kPieBeg && end <= Mapping::kPieEnd) ||
         (beg >= Mapping::kHighBeg && end <= Mapping::kHighEnd);
}

ALWAYS_INLINE uptr CompressAppAddr(uptr a) {
  const uptr kPieDelta = Mapping::kPieBeg - Mapping::kLowEnd;
  const uptr kHighDelta =
      Mapping::kHighBeg -
      (Mapping::kLowEnd + Mapping::kPieEnd - Mapping::kPieBeg);
  uptr delta = a >= Mapping::kHighBeg  ? kHighDelta
               : a >= Mapping::kPieBeg ? kPieDelta
                                       : 0;
  return a - delta;
}

ALWAYS_INLINE u64 *MemToShadow(uptr a) {
  return reinterpret_cast<u64 *>(Mapping::kShadowBeg +
                                 CompressAppAddr(a) * kShadowScale);
}

// The granule's two cells (16-byte aligned); `a` need not be aligned.
ALWAYS_INLINE u64 *MemToGranule(uptr a) {
#ifdef HRACE_GRANULES_BY_LOW_BITS
  uptr index = a & kGranuleIndexMask;
#else
  uptr index = CompressAppAddr(a);
#endif
  return reinterpret_cast<u64 *>(Mapping::kGranuleBeg +
                                 (index & ~uptr(7)) * kGranuleScale);
}

struct MetaCell;
ALWAYS_INLINE MetaCell *MemToMeta(uptr a) {
  return reinterpret_cast<MetaCell *>(Mapping::kMetaBeg +
                                      CompressAppAddr(a) / kMetaGranule * 8);
}

} // namespace hrace

#endif // HRACE_SHADOW_MAPPING_H
