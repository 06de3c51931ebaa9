//===-- hrace_heap_block.cpp - Where the program's heap blocks are --------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_heap_block.h"

#include "../shadow/hrace_shadow.h"
#include "hrace_alloc.h"

#include <malloc.h>

namespace hrace {

namespace {

constexpr uptr kChunkShift = 16;
constexpr uptr kChunkSize = uptr(1) << kChunkShift;
// Bit 0 of a chunk's word: a block started in the chunk at some time (never
// cleared: a stale mark costs a walk that finds nothing). The other bits: the
// start of the block that covers the chunk's first byte (starts are 8-byte
// aligned), or 0.
constexpr u64 kStartedHere = 1;

u64 *chunks;

u64 *ChunkOf(uptr addr) {
  return &chunks[CompressAppAddr(addr) >> kChunkShift];
}

// The application regions are aligned far beyond a chunk, so the chunks of
// [addr, addr+size) are consecutive in both address spaces.
uptr ChunkBeg(uptr addr) { return addr & ~(kChunkSize - 1); }

} // namespace

void InitHeapBlocks() {
  chunks = static_cast<u64 *>(MmapNoReserveOrDie(
      ((kCompressedSize >> kChunkShift) + 1) * sizeof(u64), "heap chunks"));
}

void RecordHeapBlock(uptr addr, uptr size) {
  if (!IsAppMem(addr))
    return;
  u32 recorded =
      size < kBlockSizeUnknown ? static_cast<u32>(size) : kBlockSizeUnknown;
  StoreRelaxed(&MemToMeta(addr)->block, kBlockStart | recorded);
  u64 *first = ChunkOf(addr);
  // Most blocks start in a chunk that already has one: a load keeps the line
  // shared between the allocating threads.
  if (!(LoadRelaxed(first) & kStartedHere))
    __atomic_fetch_or(first, kStartedHere, __ATOMIC_RELAXED);
  uptr end = addr + size;
  for (uptr c = ChunkBeg(addr) + kChunkSize; c < end && IsAppMem(c);
       c += kChunkSize) {
    u64 *word = ChunkOf(c);
    u64 old = LoadRelaxed(word);
    while (!__atomic_compare_exchange_n(word, &old, (old & kStartedHere) | addr,
                                        true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
  }
}

void ForgetHeapBlock(uptr addr, uptr size) {
  if (!IsAppMem(addr))
    return;
  StoreRelaxed(&MemToMeta(addr)->block, 0u);
  uptr end = addr + size;
  for (uptr c = ChunkBeg(addr) + kChunkSize; c < end && IsAppMem(c);
       c += kChunkSize) {
    u64 *word = ChunkOf(c);
    u64 old = LoadRelaxed(word);
    // Only if it still names this block: a block allocated there since (in
    // another thread) keeps its cover.
    while ((old & ~kStartedHere) == addr &&
           !__atomic_compare_exchange_n(word, &old, old & kStartedHere, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
  }
}

uptr HeapBlockSize(uptr addr) {
  if (!IsAppMem(addr))
    return 0;
  u32 b = LoadRelaxed(&MemToMeta(addr)->block);
  if (!(b & kBlockStart))
    return 0;
  b &= ~kBlockStart;
  return b == kBlockSizeUnknown
             ? malloc_usable_size(reinterpret_cast<void *>(addr))
             : b;
}

bool MayBeHeap(uptr addr) {
  return IsAppMem(addr) && chunks && LoadRelaxed(ChunkOf(addr)) != 0;
}

bool FindHeapBlock(uptr addr, uptr *beg, uptr *size) {
  if (!IsAppMem(addr) || !chunks)
    return false;
  u64 info = LoadRelaxed(ChunkOf(addr));
  if (!info)
    return false;
  uptr start = 0;
  if (info & kStartedHere) {
    uptr chunk_beg = ChunkBeg(addr);
    for (uptr g = addr & ~(kMetaGranule - 1);; g -= kMetaGranule) {
      if (LoadRelaxed(&MemToMeta(g)->block) & kBlockStart) {
        start = g;
        break;
      }
      if (g == chunk_beg)
        break;
    }
  }
  if (!start)
    start = info & ~kStartedHere;
  if (!start)
    return false;
  uptr n = HeapBlockSize(start);
  if (addr >= start + n)
    return false;
  *beg = start;
  *size = n;
  return true;
}

} // namespace hrace
