//===-- shadow_once.h - Mapping the shadow once per test binary -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// InitShadow reserves fixed addresses and dies if they are taken, so the
// suites that need the shadow share one reservation.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_TEST_SHADOW_ONCE_H
#define HRACE_TEST_SHADOW_ONCE_H

#include "../shadow/hrace_shadow.h"

namespace hrace {

inline void InitShadowOnce() {
  static bool mapped = false;
  if (!mapped)
    InitShadow();
  mapped = true;
}

} // namespace hrace

#endif // HRACE_TEST_SHADOW_ONCE_H
