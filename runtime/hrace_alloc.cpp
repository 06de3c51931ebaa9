//===-- hrace_alloc.cpp - The runtime's internal allocator ----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Size classes of every multiple of 16 bytes up to 256, then four per
// doubling up to 64 KiB (320, 384, 448, 512, 640, ...), each a free list
// in front of blocks handed out in order from 1 MiB chunks aligned to
// 1 MiB. A block carries no header: its chunk's first 16 bytes hold the
// class, found from the block's address.
// Requests above 64 KiB are mapped whole, on the same alignment, with the
// header saying how much.
//
// The runtime's objects are small and numerous (clock snapshots, lock sets,
// a lock's map of what its sections wrote, one per mutex of a program with
// a lock per node): power-of-two classes with a 16-byte header per block
// gave a 512-byte map 1,024 bytes and a 24-byte snapshot 64.
//
//===----------------------------------------------------------------------===//

#include "hrace_alloc.h"

#include "hrace_libc.h"
#include "hrace_mutex.h"

#include <sys/mman.h>

namespace hrace {

namespace {

constexpr uptr kChunkSize = 1 << 20;
constexpr uptr kMaxSmallSize = 1 << 16;
constexpr uptr kLargeGranule = 1 << 16;
constexpr u32 kLargeClass = ~0u;
// Multiples of 16 up to 256 (16 classes), then 4 per doubling to 64 KiB.
constexpr u32 kLinearClasses = 16;
constexpr u32 kNumClasses = kLinearClasses + 4 * 8;

// The first 16 bytes of a chunk; blocks follow, so they stay 16-aligned.
struct ChunkHeader {
  u32 cls;
  u32 unused;
  // Large allocations: the bytes mapped, header included.
  uptr mapped;
};
static_assert(sizeof(ChunkHeader) == 16, "blocks stay 16-byte aligned");

struct FreeBlock {
  FreeBlock *next;
};

// Freed blocks first, then the untouched rest of the class's newest chunk:
// a chunk's pages are touched only as its blocks are handed out (48 classes
// carved whole at their first use cost a small program 13 MB).
struct SizeClass {
  SpinMutex mu;
  FreeBlock *free_list;
  char *fresh;
  char *fresh_end;
};

SizeClass size_classes[kNumClasses];

u32 Log2Floor(uptr x) { return 63 - __builtin_clzll(x); }

u32 ClassOf(uptr size) {
  if (size <= 16 * kLinearClasses)
    return size ? static_cast<u32>((size - 1) / 16) : 0;
  // size in (2^l, 2^(l+1)], in steps of 2^(l-2).
  u32 l = Log2Floor(size - 1);
  uptr step = static_cast<uptr>(1) << (l - 2);
  u32 index = static_cast<u32>((size - (static_cast<uptr>(1) << l) - 1) / step);
  return kLinearClasses + (l - 8) * 4 + index;
}

uptr ClassSize(u32 cls) {
  if (cls < kLinearClasses)
    return (cls + 1) * 16;
  u32 k = cls - kLinearClasses;
  u32 l = 8 + k / 4;
  return (static_cast<uptr>(1) << l) +
         (k % 4 + 1) * (static_cast<uptr>(1) << (l - 2));
}

// `size` bytes (a multiple of the page size) at a kChunkSize boundary.
char *MapAligned(uptr size) {
  uptr padded = size + kChunkSize;
  uptr p = reinterpret_cast<uptr>(MmapOrDie(padded, "internal allocator"));
  uptr beg = (p + kChunkSize - 1) & ~(kChunkSize - 1);
  if (beg != p)
    UnmapOrDie(reinterpret_cast<void *>(p), beg - p);
  if (uptr tail = p + padded - (beg + size))
    UnmapOrDie(reinterpret_cast<void *>(beg + size), tail);
  return reinterpret_cast<char *>(beg);
}

ChunkHeader *ChunkOf(void *p) {
  return reinterpret_cast<ChunkHeader *>(reinterpret_cast<uptr>(p) &
                                         ~(kChunkSize - 1));
}

void Refill(SizeClass *sc, u32 cls) {
  char *chunk = MapAligned(kChunkSize);
  reinterpret_cast<ChunkHeader *>(chunk)->cls = cls;
  sc->fresh = chunk + sizeof(ChunkHeader);
  sc->fresh_end = chunk + kChunkSize;
}

} // namespace

void *MmapOrDie(uptr size, const char *what) {
  void *p = internal_mmap(nullptr, size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    Die("HybridRace: cannot map %zu bytes for %s\n", size, what);
  return p;
}

void *MmapNoReserveOrDie(uptr size, const char *what) {
  void *p = internal_mmap(nullptr, size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    Die("HybridRace: cannot reserve %zu bytes for %s\n", size, what);
  return p;
}

void UnmapOrDie(void *p, uptr size) {
  if (internal_munmap(p, size))
    Die("HybridRace: munmap of %zu bytes failed\n", size);
}

void *InternalAlloc(uptr size) {
  if (size > kMaxSmallSize) {
    // A multiple of 64 KiB, so of every page size the kernels use (4, 16,
    // 64 KiB): MapAligned unmaps what follows it.
    uptr mapped =
        (size + sizeof(ChunkHeader) + kLargeGranule - 1) & ~(kLargeGranule - 1);
    ChunkHeader *h = reinterpret_cast<ChunkHeader *>(MapAligned(mapped));
    h->cls = kLargeClass;
    h->mapped = mapped;
    return h + 1;
  }
  u32 cls = ClassOf(size);
  SizeClass *sc = &size_classes[cls];
  SpinMutexLock l(&sc->mu);
  if (FreeBlock *b = sc->free_list) {
    sc->free_list = b->next;
    return b;
  }
  uptr block_size = ClassSize(cls);
  if (static_cast<uptr>(sc->fresh_end - sc->fresh) < block_size)
    Refill(sc, cls);
  char *p = sc->fresh;
  sc->fresh += block_size;
  return p;
}

void *InternalCalloc(uptr size) {
  void *p = InternalAlloc(size);
  internal_memset(p, 0, size);
  return p;
}

void *InternalRealloc(void *p, uptr old_size, uptr new_size) {
  ChunkHeader *h = p ? ChunkOf(p) : nullptr;
  if (!h || h->cls != kLargeClass || new_size <= kMaxSmallSize) {
    void *fresh = InternalAlloc(new_size);
    if (p) {
      internal_memcpy(fresh, p, old_size < new_size ? old_size : new_size);
      InternalFree(p);
    }
    return fresh;
  }
  uptr mapped = (new_size + sizeof(ChunkHeader) + kLargeGranule - 1) &
                ~(kLargeGranule - 1);
  if (mapped <= h->mapped)
    return p;
  // An aligned range of the new size, whose pages the old block's replace
  // (ChunkOf finds a header by alignment); the pages beyond stay untouched.
  char *beg = MapAligned(mapped);
  if (internal_mremap_fixed(h, h->mapped, mapped, beg) == MAP_FAILED)
    Die("HybridRace: mremap of %zu bytes failed\n", mapped);
  h = reinterpret_cast<ChunkHeader *>(beg);
  h->mapped = mapped;
  return h + 1;
}

void InternalFree(void *p) {
  if (!p)
    return;
  ChunkHeader *h = ChunkOf(p);
  if (h->cls == kLargeClass) {
    UnmapOrDie(h, h->mapped);
    return;
  }
  SizeClass *sc = &size_classes[h->cls];
  FreeBlock *b = static_cast<FreeBlock *>(p);
  SpinMutexLock l(&sc->mu);
  b->next = sc->free_list;
  sc->free_list = b;
}

} // namespace hrace
