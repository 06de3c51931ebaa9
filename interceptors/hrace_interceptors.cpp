//===-- hrace_interceptors.cpp - Resolving the real functions -------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_interceptors.h"

#include "../runtime/hrace_libc.h"

#include <dlfcn.h>

namespace hrace {

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
}

} // namespace hrace
