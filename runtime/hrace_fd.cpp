//===-- hrace_fd.cpp - File descriptors as memory and synchronisation -----===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_fd.h"

#include "hrace_access.h"
#include "hrace_alloc.h"
#include "hrace_rtl.h"

namespace hrace {

namespace {

// What the runtime keeps per descriptor. Lives in memory mapped by the
// runtime inside the application range, so `word` has shadow cells and
// `own_sync` a sync object like any program variable.
struct FdDesc {
  // The descriptor as memory: uses read it, close writes it.
  u64 word;
  // The address of the synchronisation object of a pipe, eventfd or epoll
  // descriptor created here.
  u64 own_sync;
  // The address of the synchronisation object in use (0: the files' one).
  uptr sync;
};

// Descriptors up to 2^20 (the usual hard limit of RLIMIT_NOFILE), in pages
// mapped when a descriptor there is first used.
constexpr u32 kFdsPerPage = 4096;
constexpr u32 kFdPages = 256;
FdDesc *fd_pages[kFdPages];

// Shared by every file (and descriptor not seen created), and by every
// socket.
u64 file_sync;
u64 socket_sync;

FdDesc *DescOf(int fd) {
  if (fd < 0 || static_cast<u32>(fd) >= kFdsPerPage * kFdPages)
    return nullptr;
  FdDesc **slot = &fd_pages[fd / kFdsPerPage];
  FdDesc *page = LoadAcquire(slot);
  if (UNLIKELY(!page)) {
    auto *fresh = static_cast<FdDesc *>(
        MmapOrDie(kFdsPerPage * sizeof(FdDesc), "file descriptor table"));
    // Two threads may map the same page at once: the loser unmaps its own.
    if (__atomic_compare_exchange_n(slot, &page, fresh, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      page = fresh;
    } else {
      UnmapOrDie(fresh, kFdsPerPage * sizeof(FdDesc));
    }
  }
  return &page[fd % kFdsPerPage];
}

uptr SyncOf(FdDesc *d) {
  uptr s = LoadAcquire(&d->sync);
  return s ? s : Addr(&file_sync);
}

// The descriptor's word is new memory, first written by thr: whatever an
// earlier descriptor with this number did is forgotten (the kernel orders a
// close before the creation that reuses the number).
void Renew(ThreadState *thr, uptr pc, FdDesc *d, uptr sync) {
  MemoryRangeReset(Addr(&d->word), sizeof(d->word));
  MemoryAccess(thr, pc, Addr(&d->word), sizeof(d->word), true);
  StoreRelease(&d->sync, sync);
}

} // namespace

void FdCreate(ThreadState *thr, uptr pc, int fd, FdKind kind) {
  FdDesc *d = DescOf(fd);
  if (!d)
    return;
  switch (kind) {
  case FdKind::kFile:
    return Renew(thr, pc, d, Addr(&file_sync));
  case FdKind::kSocket:
    return Renew(thr, pc, d, Addr(&socket_sync));
  case FdKind::kPipe:
  case FdKind::kEventfd:
  case FdKind::kEpoll:
    // A fresh object: the releases of the last descriptor that had this
    // number must not order this one's readers.
    MemoryRangeReset(Addr(&d->own_sync), sizeof(d->own_sync));
    return Renew(thr, pc, d, Addr(&d->own_sync));
  }
}

void FdCreatePipe(ThreadState *thr, uptr pc, int rfd, int wfd) {
  FdCreate(thr, pc, rfd, FdKind::kPipe);
  FdDesc *r = DescOf(rfd);
  if (FdDesc *w = DescOf(wfd))
    Renew(thr, pc, w, r ? SyncOf(r) : Addr(&file_sync));
}

void FdDup(ThreadState *thr, uptr pc, int oldfd, int newfd) {
  FdDesc *from = DescOf(oldfd);
  if (FdDesc *to = DescOf(newfd))
    Renew(thr, pc, to, from ? SyncOf(from) : Addr(&file_sync));
}

void FdUse(ThreadState *thr, uptr pc, int fd) {
  if (FdDesc *d = DescOf(fd))
    MemoryAccess(thr, pc, Addr(&d->word), sizeof(d->word), false);
}

void FdRelease(ThreadState *thr, uptr pc, int fd) {
  if (FdDesc *d = DescOf(fd)) {
    MemoryAccess(thr, pc, Addr(&d->word), sizeof(d->word), false);
    ReleaseAddr(thr, SyncOf(d));
  }
}

void FdAcquire(ThreadState *thr, uptr pc, int fd) {
  if (FdDesc *d = DescOf(fd))
    AcquireAddr(thr, SyncOf(d));
}

void FdClose(ThreadState *thr, uptr pc, int fd) {
  if (FdDesc *d = DescOf(fd)) {
    MemoryAccess(thr, pc, Addr(&d->word), sizeof(d->word), true);
    ReleaseAddr(thr, SyncOf(d));
    StoreRelease(&d->sync, uptr(0));
  }
}

bool FdOfAddress(uptr addr, int *fd) {
  for (u32 i = 0; i < kFdPages; i++) {
    FdDesc *page = LoadAcquire(&fd_pages[i]);
    if (page && addr >= Addr(page) && addr < Addr(page + kFdsPerPage)) {
      *fd = static_cast<int>(i * kFdsPerPage +
                             (addr - Addr(page)) / sizeof(FdDesc));
      return true;
    }
  }
  return false;
}

} // namespace hrace
