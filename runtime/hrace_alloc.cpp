//===-- hrace_alloc.cpp - The runtime's internal allocator ----------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Power-of-two size classes from 16 bytes to 64 KiB, each a free list carved
// from 1 MiB mmap'ed chunks; larger requests are mmap'ed directly. Every block
// has a 16-byte header recording its class so InternalFree needs no size.
//
//===----------------------------------------------------------------------===//
#include "hrace_alloc.h"

#include "hrace_libc.h"
#include "hrace_mutex.h"

#include <sys/mman.h>

namespace hrace {

namespace {

constexpr uptr kMinClassLog = 4;
constexpr uptr kMaxClassLog = 16;
constexpr uptr kNumClasses = kMaxClassLog - kMinClassLog + 1;
constexpr uptr kChunkSize = 1 << 20;
constexpr uptr kHeaderSize = 16;
// Marks a block mmap'ed on its own; its header holds the mapping size.
constexpr u64 kLargeClass = ~0ull;

struct FreeBlock {
  FreeBlock *next;
};

struct SizeClass {
  SpinMutex mu;
  FreeBlock *free_list;
};

SizeClass size_classes[kNumClasses];

uptr ClassOf(uptr size) {
  uptr cls = 0;
  while ((static_cast<uptr>(1) << (cls + kMinClassLog)) < size)
    cls++;
  return cls;
}

void Refill(SizeClass *sc, uptr block_size) {
  char *chunk = static_cast<char *>(MmapOrDie(kChunkSize, "internal allocator"));
  for (uptr off = 0; off + block_size <= kChunkSize; off += block_size) {
    FreeBlock *b = reinterpret_cast<FreeBlock *>(chunk + off);
    b->next = sc->free_list;
    sc->free_list = b;
  }
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
  uptr total = size + kHeaderSize;
  if (total > (static_cast<uptr>(1) << kMaxClassLog)) {
    uptr mapped = (total + 4095) & ~static_cast<uptr>(4095);
    u64 *hdr = static_cast<u64 *>(MmapOrDie(mapped, "internal allocator"));
    hdr[0] = kLargeClass;
    hdr[1] = mapped;
    return reinterpret_cast<char *>(hdr) + kHeaderSize;
  }
  uptr cls = ClassOf(total);
  SizeClass *sc = &size_classes[cls];
  FreeBlock *b;
  {
    SpinMutexLock l(&sc->mu);
    if (!sc->free_list)
      Refill(sc, static_cast<uptr>(1) << (cls + kMinClassLog));
    b = sc->free_list;
    sc->free_list = b->next;
  }
  u64 *hdr = reinterpret_cast<u64 *>(b);
  hdr[0] = cls;
  return reinterpret_cast<char *>(hdr) + kHeaderSize;
}

void *InternalCalloc(uptr size) {
  void *p = InternalAlloc(size);
  internal_memset(p, 0, size);
  return p;
}

void InternalFree(void *p) {
  if (!p)
    return;
  u64 *hdr = reinterpret_cast<u64 *>(static_cast<char *>(p) - kHeaderSize);
  if (hdr[0] == kLargeClass) {
    UnmapOrDie(hdr, hdr[1]);
    return;
  }
  SizeClass *sc = &size_classes[hdr[0]];
  FreeBlock *b = reinterpret_cast<FreeBlock *>(hdr);
  SpinMutexLock l(&sc->mu);
  b->next = sc->free_list;
  sc->free_list = b;
}

} // namespace hrace
