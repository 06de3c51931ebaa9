//===-- hrace_heap_block.h - Where the program's heap blocks are ----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The allocator interceptors record each live block in the meta cell of its
// first granule (start and size). Reports, and the hand-off check of the
// write/read relations, need the block that *contains* an address: the
// nearest block start at or below it, if that block reaches the address.
//
// Walking back through the meta table finds it, but a walk must not cross a
// large block or a stretch of globals byte by byte. Two summaries per 64 KiB
// chunk of application memory bound it:
//   - whether a block ever started in the chunk, and
//   - the start of the block that covers the chunk's first byte, if one does.
// A chunk with neither holds no heap at all (globals, stacks: answered at
// once); otherwise the walk stays inside the chunk, and when it finds no
// start there, the covering block is the answer. Both live in one word per
// chunk, in a table reserved with MAP_NORESERVE and touched only where the
// heap is.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_HEAP_BLOCK_H
#define HRACE_HEAP_BLOCK_H

#include "hrace_defs.h"

namespace hrace {

void InitHeapBlocks();

// A block appeared (malloc and friends) or went away (free, realloc).
void RecordHeapBlock(uptr addr, uptr size);
void ForgetHeapBlock(uptr addr, uptr size);
// The size recorded for the block starting at addr, or 0.
uptr HeapBlockSize(uptr addr);

// The live block containing addr: its start and size.
bool FindHeapBlock(uptr addr, uptr *beg, uptr *size);
// False when addr is certainly in no heap block (its chunk never had one):
// one load.
bool MayBeHeap(uptr addr);

} // namespace hrace

#endif // HRACE_HEAP_BLOCK_H
