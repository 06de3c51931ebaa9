//===-- hrace_limits.h - The runtime's capacities -------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How far the runtime's tables go before it falls back: segment ids, thread
// sets and lock sets before the shadow is cleared and a new generation
// starts, split blocks before splits use direct-mapped byte cells. A
// long-running program reaches each of them, and each fallback may only cost
// missed reports (docs/design.md, "Known limits").
//
// The CMake option HRACE_SMALL_LIMITS builds a runtime with every capacity
// lowered so far that ordinary tests cross them (a generation every 16,384
// segments, 64 split blocks, 64 lock sets, 16 thread sets); CI's GCC
// build uses it. It found the two-clears hazard that ShadowWriteScope
// closes (hrace_rtl.h).
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_LIMITS_H
#define HRACE_LIMITS_H

#include "hrace_defs.h"

namespace hrace {

#if HRACE_SMALL_LIMITS
constexpr u32 kSegmentPagesPerGenerationLimit = 64;
constexpr u32 kSplitBlocksLimit = 64;
constexpr u32 kLockSetsLimit = 64;
constexpr u32 kThreadSetsLimit = 16;
#else
// 0: the table's own maximum.
constexpr u32 kSegmentPagesPerGenerationLimit = 0;
constexpr u32 kSplitBlocksLimit = 0;
constexpr u32 kLockSetsLimit = 0;
constexpr u32 kThreadSetsLimit = 0;
#endif

// The lower of a table's maximum and the build's limit.
constexpr u32 Capacity(u32 maximum, u32 limit) {
  return limit && limit < maximum ? limit : maximum;
}

} // namespace hrace

#endif // HRACE_LIMITS_H
