//===-- hrace_shadow.cpp - Reserving and resetting shadow memory ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_shadow.h"

#include "../runtime/hrace_libc.h"

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

void ClearAllShadow() {
  madvise(reinterpret_cast<void *>(Mapping::kShadowBeg),
          kShadowEnd - Mapping::kShadowBeg, MADV_DONTNEED);
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
  ProtectGap(Mapping::kLowEnd, Mapping::kShadowBeg);
  ProtectGap(kMetaEnd, Mapping::kPieBeg);
  ProtectGap(Mapping::kPieEnd, Mapping::kHighBeg);
}

void ResetShadowRange(uptr addr, uptr size) {
  if (!size)
    return;
  uptr beg = reinterpret_cast<uptr>(MemToShadow(addr));
  uptr end = beg + size * kShadowScale;
  // Large ranges: give whole shadow pages back to the kernel, which hands out
  // zero (= New) pages on the next touch; only the ragged edges are cleared.
  uptr page_beg = (beg + kPageSize - 1) & ~(kPageSize - 1);
  uptr page_end = end & ~(kPageSize - 1);
  if (page_end >= page_beg + 16 * kPageSize) {
    internal_memset(reinterpret_cast<void *>(beg), 0, page_beg - beg);
    madvise(reinterpret_cast<void *>(page_beg), page_end - page_beg,
            MADV_DONTNEED);
    internal_memset(reinterpret_cast<void *>(page_end), 0, end - page_end);
    return;
  }
  // Only cells that are not New: a store would turn a shared zero page of
  // never-touched shadow into a private one.
  u64 *cells = reinterpret_cast<u64 *>(beg);
  for (uptr i = 0; i < size; i++)
    if (LoadRelaxed(&cells[i]))
      StoreRelaxed(&cells[i], static_cast<u64>(0));
}

} // namespace hrace
