//===-- hrace_interceptors_malloc.cpp - The program's allocator -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// glibc's allocator does the work (through its __libc_* entry points, which
// need no dlsym and so also serve calls made while the runtime starts up).
// The runtime records where each block starts and how large it is (for
// "heap block of size N" in reports) and, when a block is freed, forgets its
// history: memory handed out again starts New.
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_heap_block.h"
#include "../runtime/hrace_libc.h"
#include "../runtime/hrace_report.h"
#include "../runtime/hrace_rtl.h"

#include <errno.h>
#include <malloc.h>
#include <new>
#include <sys/auxv.h>

extern "C" {
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);
}

using namespace hrace;

namespace {

// The program got p from the function at alloc_pc, called at caller_pc: a
// write by a checked thread (MemoryAllocatedBy), else only recorded.
void *OnAllocated(void *p, uptr size, uptr alloc_pc, uptr caller_pc) {
  if (!p || !IsInitialized())
    return p;
  ThreadState *thr = cur_thread();
  if (!thr->context || thr->in_rtl) {
    HeapBlockAllocated(Addr(p), size);
    return p;
  }
  ScopedInRuntime in_rtl;
  MemoryAllocatedBy(thr, alloc_pc, caller_pc, Addr(p), size, /*heap=*/true);
  return p;
}

uptr BlockSize(void *p) {
  uptr size = IsInitialized() ? HeapBlockSize(Addr(p)) : 0;
  return size ? size : malloc_usable_size(p);
}

// The frame of a report for the function at `fn`: reports symbolize pc - 1,
// as every other pc they hold is a return address.
template <typename Fn> uptr FramePc(Fn *fn) {
  return reinterpret_cast<uptr>(fn) + 1;
}

// The program frees p at caller_pc through the function at free_pc: a write
// to the block by a checked thread (HeapBlockFreedBy), else it is forgotten.
void OnFreeing(void *p, uptr size, uptr free_pc, uptr caller_pc) {
  ThreadState *thr = cur_thread();
  if (!thr->context || thr->in_rtl)
    return HeapBlockFreed(Addr(p), size);
  ScopedInRuntime in_rtl;
  HeapBlockFreedBy(thr, free_pc, caller_pc, Addr(p), size);
}

// report_signal_unsafe: the allocator's locks may be held by the code the
// handler interrupted.
NOINLINE void ReportSignalUnsafe(ThreadState *thr, const char *name, uptr fn_pc,
                                 uptr caller_pc) {
  if (!ctx->flags.report_signal_unsafe || thr->in_rtl || !thr->context)
    return;
  ScopedInRuntime in_rtl;
  // The allocator's frame on top of the handler's stack.
  StackId stack =
      ctx->stacks.Extend(CurrentStack(thr, caller_pc), fn_pc | kRuntimeFramePc);
  ReportMisuse(thr, caller_pc, Misuse::kSignalUnsafeCall, nullptr, 0, stack,
               "calls %s inside a signal handler", name);
}

ALWAYS_INLINE void CheckSignalSafe(const char *name, uptr fn_pc,
                                   uptr caller_pc) {
  ThreadState *thr = cur_thread();
  if (UNLIKELY(thr->in_signal_handler))
    ReportSignalUnsafe(thr, name, fn_pc, caller_pc);
}

ALWAYS_INLINE void FreeAt(void *p, uptr free_pc, uptr caller_pc) {
  if (p && IsInitialized())
    OnFreeing(p, BlockSize(p), free_pc, caller_pc);
  __libc_free(p);
}

} // namespace

INTERCEPTOR_ATTRIBUTE void *malloc(size_t size) {
  CheckSignalSafe("malloc", FramePc(&malloc), CALLER_PC());
  return OnAllocated(__libc_malloc(size), size, FramePc(&malloc), CALLER_PC());
}

INTERCEPTOR_ATTRIBUTE void *calloc(size_t n, size_t size) {
  CheckSignalSafe("calloc", FramePc(&calloc), CALLER_PC());
  void *p = __libc_calloc(n, size);
  // __libc_calloc already failed on overflow; the product is then valid.
  return OnAllocated(p, n * size, FramePc(&calloc), CALLER_PC());
}

INTERCEPTOR_ATTRIBUTE void *realloc(void *old, size_t size) {
  CheckSignalSafe("realloc", FramePc(&realloc), CALLER_PC());
  if (!old)
    return malloc(size);
  if (!IsInitialized())
    return __libc_realloc(old, size);
  uptr old_size = BlockSize(old);
  // The block may be reused by another thread as soon as realloc returns:
  // forget what is being given up first. realloc(p, 0) frees p.
  if (size < old_size)
    MemoryRangeReset(Addr(old) + size, old_size - size);
  void *p = __libc_realloc(old, size);
  if (!p) {
    if (!size)
      OnFreeing(old, old_size, FramePc(&realloc), CALLER_PC());
    return p;
  }
  if (p != old) {
    // A new block, and a free of the old one.
    OnAllocated(p, size, FramePc(&realloc), CALLER_PC());
    OnFreeing(old, old_size, FramePc(&realloc), CALLER_PC());
    return p;
  }
  // In place: what the program did to the kept bytes still counts.
  if (size > old_size)
    MemoryRangeReset(Addr(p) + old_size, size - old_size);
  RecordHeapBlock(Addr(p), size);
  return p;
}

INTERCEPTOR_ATTRIBUTE void free(void *p) {
  CheckSignalSafe("free", FramePc(&free), CALLER_PC());
  FreeAt(p, FramePc(&free), CALLER_PC());
}

INTERCEPTOR_ATTRIBUTE void cfree(void *p) {
  FreeAt(p, FramePc(&cfree), CALLER_PC());
}

// Inline, so that CALLER_PC() is the program's call of the interceptor.
#define HRACE_MEMALIGN(align, size, fn)                                        \
  OnAllocated(__libc_memalign(align, size), size, FramePc(&fn), CALLER_PC())

INTERCEPTOR_ATTRIBUTE void *memalign(size_t align, size_t size) {
  return HRACE_MEMALIGN(align, size, memalign);
}

INTERCEPTOR_ATTRIBUTE void *aligned_alloc(size_t align, size_t size) {
  return HRACE_MEMALIGN(align, size, aligned_alloc);
}

INTERCEPTOR_ATTRIBUTE int posix_memalign(void **out, size_t align,
                                         size_t size) {
  if (align < sizeof(void *) || (align & (align - 1)))
    return EINVAL;
  void *p = HRACE_MEMALIGN(align, size, posix_memalign);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

namespace {
// valloc and pvalloc align to the kernel's page: 4, 16 or 64 KiB on
// AArch64. Asked of the kernel, not ShadowPageSize: an allocation can come
// before InitShadow.
size_t KernelPageSize() { return getauxval(AT_PAGESZ); }
} // namespace

INTERCEPTOR_ATTRIBUTE void *valloc(size_t size) {
  return HRACE_MEMALIGN(KernelPageSize(), size, valloc);
}

INTERCEPTOR_ATTRIBUTE void *pvalloc(size_t size) {
  size_t page = KernelPageSize();
  return HRACE_MEMALIGN(page, (size + page - 1) & ~(page - 1), pvalloc);
}

// --- operator new and delete ------------------------------------------------
// The runtime links without libstdc++, so a failed throwing new cannot throw
// std::bad_alloc: it reports and dies, as an allocation failure in a checked
// program would end it anyway.

// An allocation is reported as a write by operator new, called where the
// program called it. Inline, so that CALLER_PC() is the program's call.
static uptr NewPc() {
  return FramePc(static_cast<void *(*)(size_t)>(&::operator new));
}

static ALWAYS_INLINE void *NewAt(size_t size, size_t align, uptr caller_pc) {
  void *p = align ? __libc_memalign(align, size) : __libc_malloc(size);
  return OnAllocated(p, size, NewPc(), caller_pc);
}

static ALWAYS_INLINE void *NewOrDie(size_t size, size_t align, uptr caller_pc) {
  void *p = NewAt(size, align, caller_pc);
  if (!p)
    Die("HybridRace: operator new(%zu) failed: out of memory\n", size);
  return p;
}

void *operator new(size_t size) { return NewOrDie(size, 0, CALLER_PC()); }
void *operator new[](size_t size) { return NewOrDie(size, 0, CALLER_PC()); }
void *operator new(size_t size, const std::nothrow_t &) noexcept {
  return NewAt(size, 0, CALLER_PC());
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  return NewAt(size, 0, CALLER_PC());
}
void *operator new(size_t size, std::align_val_t align) {
  return NewOrDie(size, static_cast<size_t>(align), CALLER_PC());
}
void *operator new[](size_t size, std::align_val_t align) {
  return NewOrDie(size, static_cast<size_t>(align), CALLER_PC());
}
void *operator new(size_t size, std::align_val_t align,
                   const std::nothrow_t &) noexcept {
  return NewAt(size, static_cast<size_t>(align), CALLER_PC());
}
void *operator new[](size_t size, std::align_val_t align,
                     const std::nothrow_t &) noexcept {
  return NewAt(size, static_cast<size_t>(align), CALLER_PC());
}
// A delete is reported as a free by operator delete, called where the
// program called it.
static uptr DeletePc() {
  return FramePc(static_cast<void (*)(void *) noexcept>(&::operator delete));
}

#define HRACE_DELETE FreeAt(p, DeletePc(), CALLER_PC())
void operator delete(void *p) noexcept { HRACE_DELETE; }
void operator delete[](void *p) noexcept { HRACE_DELETE; }
void operator delete(void *p, const std::nothrow_t &) noexcept { HRACE_DELETE; }
void operator delete[](void *p, const std::nothrow_t &) noexcept {
  HRACE_DELETE;
}
void operator delete(void *p, size_t) noexcept { HRACE_DELETE; }
void operator delete[](void *p, size_t) noexcept { HRACE_DELETE; }
void operator delete(void *p, std::align_val_t) noexcept { HRACE_DELETE; }
void operator delete[](void *p, std::align_val_t) noexcept { HRACE_DELETE; }
void operator delete(void *p, size_t, std::align_val_t) noexcept {
  HRACE_DELETE;
}
void operator delete[](void *p, size_t, std::align_val_t) noexcept {
  HRACE_DELETE;
}
void operator delete(void *p, std::align_val_t,
                     const std::nothrow_t &) noexcept {
  HRACE_DELETE;
}
void operator delete[](void *p, std::align_val_t,
                       const std::nothrow_t &) noexcept {
  HRACE_DELETE;
}
#undef HRACE_DELETE
