//===-- hrace_inline_test.cpp - The thread's inline no-op tests -----------===//
//
// Part of HybridRace, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "hrace_inline_test.h"

// Every test off in a new thread, until the runtime meets it: its first
// access then calls the runtime, which adopts it.
__thread uint64_t __hrace_inline_test[8] = {
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value,
    hrace::kInlineTestOff.mask, hrace::kInlineTestOff.value};
