//===-- hrace_annotations.cpp - Dynamic annotations -----------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions behind annotations/include/hrace/annotations.h.
//
//===----------------------------------------------------------------------===//
#include "../shadow/hrace_shadow.h"
#include "hrace_libc.h"
#include "hrace_rtl.h"

using namespace hrace;

namespace {

ThreadState *AnnotatingThread() {
  ThreadState *thr = cur_thread();
  if (!IsInitialized() || thr->in_rtl)
    return nullptr;
  if (!thr->context)
    AdoptCurrentThread(thr);
  return thr;
}

uptr Addr(const volatile void *p) {
  return reinterpret_cast<uptr>(const_cast<const void *>(p));
}

} // namespace

extern "C" {

INTERFACE_ATTRIBUTE void AnnotateHappensBefore(const char *, int,
                                               const volatile void *addr) {
  if (ThreadState *thr = AnnotatingThread()) {
    ScopedInRuntime in_rtl;
    ReleaseAddr(thr, Addr(addr));
  }
}

INTERFACE_ATTRIBUTE void AnnotateHappensAfter(const char *, int,
                                              const volatile void *addr) {
  if (ThreadState *thr = AnnotatingThread()) {
    ScopedInRuntime in_rtl;
    AcquireAddr(thr, Addr(addr));
  }
}

// A benign race is put straight into the Race state: the state every machine
// treats as "already dealt with, check nothing more".
INTERFACE_ATTRIBUTE void AnnotateBenignRaceSized(const char *, int,
                                                 const volatile void *addr,
                                                 size_t size, const char *) {
  if (!AnnotatingThread() || !IsAppMem(Addr(addr)))
    return;
  ScopedInRuntime in_rtl;
  AddBenignRace(Addr(addr), size);
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreReadsBegin(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    thr->ignore_reads++;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreReadsEnd(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    if (thr->ignore_reads)
      thr->ignore_reads--;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreWritesBegin(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    thr->ignore_writes++;
}

INTERFACE_ATTRIBUTE void AnnotateIgnoreWritesEnd(const char *, int) {
  if (ThreadState *thr = AnnotatingThread())
    if (thr->ignore_writes)
      thr->ignore_writes--;
}

INTERFACE_ATTRIBUTE void AnnotateThreadName(const char *, int,
                                            const char *name) {
  if (ThreadState *thr = AnnotatingThread())
    internal_strlcpy(thr->context->name, name, sizeof(thr->context->name));
}

} // extern "C"
