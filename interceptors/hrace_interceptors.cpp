//===-- hrace_interceptors.cpp - Resolving the real functions -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_libc.h"
#include "../runtime/hrace_rtl.h"

#include <dlfcn.h>

namespace hrace {

void LeaveCancelledCall(void *p) {
  CancelledCall *call = static_cast<CancelledCall *>(p);
  ThreadState *thr = call->thr;
  thr->in_blocking_call = call->in_blocking_call;
  if (call->on_cancel)
    call->on_cancel(thr, call->arg);
  thr->in_rtl = call->in_rtl + 1;
  LeaveRuntime(thr);
}

void *ResolveReal(const char *name, const char *version, bool required) {
  void *fn = version ? dlvsym(RTLD_NEXT, name, version)
                     : dlsym(RTLD_NEXT, name);
  if (!fn && required)
    Die("HybridRace: cannot find the real '%s'\n", name);
  return fn;
}

void InitInterceptors() {
  InitLibcInterceptors();
  InitPthreadInterceptors();
  InitSignalInterceptors();
  InitMmapInterceptors();
}

} // namespace hrace
