//===-- hrace_redefine_builtins.h - Keep the runtime off its interceptors -===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Included first in every runtime source (-include, runtime/CMakeLists.txt).
// Even with -fno-builtin the compiler emits calls to memcpy, memmove and
// memset for copies and zeroing of large objects (a ThreadContext built by
// `new`, a struct copied by value). In the executable those names are the
// interceptors: a thread the runtime was still setting up re-entered its
// own set-up through them and deadlocked. These assembler-level aliases bind
// each object's calls to the runtime's own copies instead; they are local
// symbols, so they clash with nothing. The file that defines the mem*
// interceptors leaves them out.
//
//===----------------------------------------------------------------------===//
#ifndef HRACE_REDEFINE_BUILTINS_H
#define HRACE_REDEFINE_BUILTINS_H

#ifndef HRACE_DEFINES_MEM_INTERCEPTORS
asm("memcpy = __hrace_internal_memcpy");
asm("memmove = __hrace_internal_memmove");
asm("memset = __hrace_internal_memset");
#endif

#endif // HRACE_REDEFINE_BUILTINS_H
