//===-- hrace_alloc.h - The runtime's internal allocator ------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Memory for the runtime's own objects (vector clocks, lock sets, reports).
// It never comes from the program's malloc: that is intercepted, and the
// runtime must not show up in the program's heap or recurse into itself.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_ALLOC_H
#define HRACE_ALLOC_H

#include "hrace_defs.h"

namespace hrace {

void *InternalAlloc(uptr size);
// Zero-filled.
void *InternalCalloc(uptr size);
void InternalFree(void *p);
// p's first old_size bytes in a block of new_size (p may be null). A large
// block's pages move to the new one (mremap): no copy, no page touched, and
// never both blocks resident at once.
void *InternalRealloc(void *p, uptr old_size, uptr new_size);

// Anonymous memory straight from the kernel; dies on failure.
void *MmapOrDie(uptr size, const char *what);
// Reserves address space that is backed only where it is touched.
void *MmapNoReserveOrDie(uptr size, const char *what);
void UnmapOrDie(void *p, uptr size);

} // namespace hrace

#endif // HRACE_ALLOC_H
