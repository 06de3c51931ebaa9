//===-- hrace_interceptors_mmap.cpp - mmap and munmap ---------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mmap and munmap forget the history of the range they map or unmap.
//
// The shadow and the gaps around it are reserved at start-up, so the kernel
// never hands them out; only MAP_FIXED can take them, and memory there has
// no shadow (an access would read another range's shadow or fault in the
// access path). Such a mapping fails with ENOMEM, as if the kernel had no
// room there, and the runtime says so once at verbosity=1. Every caller is
// checked, also threads the runtime does not follow; the runtime maps its
// own memory by system call (internal_mmap).
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_libc.h"
#include "../runtime/hrace_rtl.h"
#include "../shadow/hrace_shadow_mapping.h"

#include <errno.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

DEFINE_REAL(void *, mmap, void *, size_t, int, int, int, off_t)
DEFINE_REAL(int, munmap, void *, size_t)

namespace hrace {
void InitMmapInterceptors() {
  RESOLVE_REAL(mmap);
  RESOLVE_REAL(munmap);
}
} // namespace hrace

using namespace hrace;

namespace {

bool RefuseFixed(void *addr, size_t size, int flags) {
  if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
    return false;
  uptr beg = reinterpret_cast<uptr>(addr);
  // The kernel rounds the length up to whole pages.
  uptr end = beg + ((size + 4095) & ~static_cast<uptr>(4095));
  if (end >= beg && IsAppRange(beg, end))
    return false;
  static bool said;
  if (IsInitialized() && ctx->flags.verbosity >= 1 &&
      !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
    Printf("HybridRace: refused mmap(MAP_FIXED) at [0x%zx, 0x%zx): it "
           "overlaps the runtime's shadow memory (ENOMEM)\n",
           beg, end);
  errno = ENOMEM;
  return true;
}

// New or unmapped memory carries no history: a mapping placed where an
// earlier one was (the kernel reuses addresses) must not race with what was
// done to the old one.
uptr PageRounded(size_t size) { return (size + 4095) & ~4095ul; }

void ForgetMapping(void *addr, size_t size) {
  if (IsInitialized())
    MemoryRangeReset(reinterpret_cast<uptr>(addr), PageRounded(size));
}

// A new mapping is new memory: a write by a checked thread that made it
// (MemoryAllocatedBy), forgotten otherwise.
void Mapped(void *addr, size_t size, uptr fn_pc, uptr caller_pc) {
  ThreadState *thr = cur_thread();
  if (!IsInitialized() || !thr->context || thr->in_rtl)
    return ForgetMapping(addr, size);
  ScopedInRuntime in_rtl;
  MemoryAllocatedBy(thr, fn_pc, caller_pc, reinterpret_cast<uptr>(addr),
                    PageRounded(size), /*heap=*/false);
}

// Reports symbolize pc - 1: fn + 1 names the function.
template <typename Fn> uptr FramePc(Fn *fn) {
  return reinterpret_cast<uptr>(fn) + 1;
}

ALWAYS_INLINE void *MmapAt(void *addr, size_t size, int prot, int flags, int fd,
                           off_t offset, uptr fn_pc, uptr caller_pc) {
  if (UNLIKELY(!REAL(mmap)))
    Initialize();
  if (RefuseFixed(addr, size, flags))
    return MAP_FAILED;
  // Called while the runtime starts (it cannot resolve yet): the system call.
  if (UNLIKELY(!REAL(mmap)))
    return internal_mmap(addr, size, prot, flags, fd, offset);
  void *res = REAL(mmap)(addr, size, prot, flags, fd, offset);
  if (res != MAP_FAILED)
    Mapped(res, size, fn_pc, caller_pc);
  return res;
}

} // namespace

INTERCEPTOR_ATTRIBUTE void *mmap(void *addr, size_t size, int prot, int flags,
                                 int fd, off_t offset) {
  return MmapAt(addr, size, prot, flags, fd, offset, FramePc(&mmap),
                CALLER_PC());
}

INTERCEPTOR_ATTRIBUTE int munmap(void *addr, size_t size) {
  if (UNLIKELY(!REAL(munmap)))
    return internal_munmap(addr, size);
  int res = REAL(munmap)(addr, size);
  if (res == 0)
    ForgetMapping(addr, size);
  return res;
}

// On 64-bit Linux mmap64 is mmap (same off_t): one interceptor serves both.
INTERCEPTOR_ATTRIBUTE void *mmap64(void *addr, size_t size, int prot, int flags,
                                   int fd, off_t offset) {
  return MmapAt(addr, size, prot, flags, fd, offset, FramePc(&mmap64),
                CALLER_PC());
}
