//===-- hrace_unwind.h - The real call stack ------------------------------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shadow stack only knows instrumented functions. Where a stack must
// also show uninstrumented callers (std::thread's constructor in libstdc++,
// a thread pool in a library), the runtime unwinds the machine stack with
// the unwinder of libgcc (libgcc_s or libgcc_eh, which every C and C++
// program on Linux links), driven by the .eh_frame tables that compilers emit
// by default on x86-64 and AArch64.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_UNWIND_H
#define HRACE_UNWIND_H

#include "hrace_defs.h"

namespace hrace {

// The return addresses of the current stack starting at the frame that
// returns to `from_pc` (a return address of one of the runtime's callers),
// innermost first. 0 when from_pc is not on the stack (a tail call, code
// without unwind tables): the caller falls back to the shadow stack.
u32 UnwindStackFrom(uptr from_pc, uptr *frames, u32 max_frames);

} // namespace hrace

#endif // HRACE_UNWIND_H
