//===-- hrace_shadow_clear.cpp - Clearing the granule cells in place ------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A new segment generation forgets every granule cell. Giving the pages
// back to the kernel (MADV_DONTNEED) makes the program fault each of them
// in again: first on a read, which maps the shared zero page, then on the
// first write, which copies it and flushes the TLB of every core the
// process runs on. On freqmine, which starts four generations, those
// faults and flushes were a fifth of the run. So where the program's heap
// lives, the pages are zeroed in place instead: mincore() says which are
// resident, and a resident page that holds anything is cleared with
// stores. Everything else, including pages that are not resident (never
// touched, or swapped out), is given back as before, so the result is all
// zeros whatever the hint says.
//
//===----------------------------------------------------------------------===//
#include "hrace_shadow.h"

#include "../runtime/hrace_libc.h"

#include <sys/mman.h>

namespace hrace {

namespace {

// The hint: chunks of granule cells (2 GiB: 1 GiB of application memory)
// where a heap block was marked allocated. Enough for a 48-bit granule
// range.
constexpr uptr kChunkShift = 31;
constexpr uptr kMaxChunks = (uptr(1) << 48) >> kChunkShift;
u64 heap_chunks[kMaxChunks / 64];

// The pages mincore() is asked about at once. One buffer serves: a clear
// runs only under generation_mu (StartNextSegmentGenerationLocked).
constexpr uptr kResidencyBatch = 1 << 16;
unsigned char residency[kResidencyBatch];

void GiveBack(uptr beg, uptr end) {
  if (end > beg)
    madvise(reinterpret_cast<void *>(beg), end - beg, MADV_DONTNEED);
}

bool PageHoldsAnything(const u64 *page, uptr words) {
  for (uptr i = 0; i < words; i++)
    if (LoadRelaxed(&page[i]))
      return true;
  return false;
}

// [beg, end), page-aligned: resident pages that hold anything zeroed, the
// runs of other pages given back.
void ClearInPlace(uptr beg, uptr end) {
  // Known since InitShadow, which runs before any clear.
  uptr page = ShadowPageSize();
  for (uptr batch = beg; batch < end;) {
    uptr pages = (end - batch) / page;
    if (pages > kResidencyBatch)
      pages = kResidencyBatch;
    uptr batch_end = batch + pages * page;
    if (mincore(reinterpret_cast<void *>(batch), batch_end - batch,
                residency) != 0) {
      GiveBack(batch, batch_end);
      batch = batch_end;
      continue;
    }
    // Pages that hold nothing are given back too: one that only the zero
    // page backs costs nothing either way, and one that was cleared
    // earlier would otherwise stay resident.
    uptr unused_from = batch;
    for (uptr i = 0; i < pages; i++) {
      uptr p = batch + i * page;
      u64 *words = reinterpret_cast<u64 *>(p);
      if (!(residency[i] & 1) || !PageHoldsAnything(words, page / sizeof(u64)))
        continue;
      GiveBack(unused_from, p);
      unused_from = p + page;
      internal_memset(words, 0, page);
    }
    GiveBack(unused_from, batch_end);
    batch = batch_end;
  }
}

} // namespace

void MarkHeapGranules(uptr addr, uptr size) {
  uptr first =
      reinterpret_cast<uptr>(MemToGranule(addr)) - Mapping::kGranuleBeg;
  uptr last = reinterpret_cast<uptr>(MemToGranule(addr + size - 1)) -
              Mapping::kGranuleBeg;
  for (uptr c = first >> kChunkShift; c <= last >> kChunkShift; c++) {
    u64 bit = u64(1) << (c % 64);
    if (c < kMaxChunks && !(LoadRelaxed(&heap_chunks[c / 64]) & bit))
      __atomic_fetch_or(&heap_chunks[c / 64], bit, __ATOMIC_RELAXED);
  }
}

void ClearGranuleCells() {
  uptr chunk = uptr(1) << kChunkShift;
  uptr given_back_from = Mapping::kGranuleBeg;
  for (uptr beg = Mapping::kGranuleBeg; beg < kGranuleEnd; beg += chunk) {
    uptr c = (beg - Mapping::kGranuleBeg) >> kChunkShift;
    if (c >= kMaxChunks ||
        !(LoadRelaxed(&heap_chunks[c / 64]) & (u64(1) << (c % 64))))
      continue;
    uptr end = beg + chunk < kGranuleEnd ? beg + chunk : kGranuleEnd;
    GiveBack(given_back_from, beg);
    ClearInPlace(beg, end);
    given_back_from = end;
  }
  GiveBack(given_back_from, kGranuleEnd);
}

} // namespace hrace
